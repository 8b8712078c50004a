#!/usr/bin/env bash
# Installs the Debian packages dlsize needs, only those missing, in groups:
#   scripts/deps.sh           building and running dlsize (what scripts/quickstart.sh needs)
#   scripts/deps.sh --test    that, plus what the test suite needs (scripts/test.sh)
#   scripts/deps.sh --test-build   that, plus what only the tests' build needs (catch2, fuse3's
#                             headers): scripts/test.sh builds after it while --test installs
#                             the rest (chromium, radosgw, clang) beside the build
#   scripts/deps.sh --bench   that, plus the peers of scripts/bench-* (fio, time, xfsprogs)
# Several groups may be given. apt-get runs once, for all that is missing.
set -euo pipefail
build_pkgs=(cmake g++ ninja-build pkg-config liburing-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  mpich libmpich-dev
  libcurl4-openssl-dev # src/s3: the S3 client (SigV4 signing by CURLOPT_AWS_SIGV4)
)
# What the tests' build needs (configure finds them) ...
test_build_pkgs=(catch2 python3
  libfuse3-dev # tests/fault_fs: the fault-injection file system of the fault suite
)
# ... and what only their run needs: scripts/test.sh installs these while the tree builds.
test_run_pkgs=(
  python3-jsonschema chromium # the sizing report tests: schema validation, HTML rendering
  clang-format-14             # scripts/format.sh --check
  clang-tidy-14               # scripts/function-size.sh --clang-tidy (the cross-check)
  fuse3                       # mounting tests/fault_fs
  ceph-mon ceph-osd radosgw curl # scripts/s3-server.sh: the radosgw S3 server of the tests labelled s3
  # scripts/cluster-bed.sh (the tests labelled cluster): namespaces and tc, the GlusterFS and
  # CephFS stores of its storage host
  iproute2 glusterfs-server glusterfs-client ceph-mds ceph-fuse ceph-mgr
)
test_pkgs=("${test_build_pkgs[@]}" "${test_run_pkgs[@]}")
bench_pkgs=(fio time xfsprogs python3-boto3) # scripts/bench-vs-fio.sh, checkpoint-vs-fio.sh; coverage.sh's xfs image; bench-s3.sh
pkgs=("${build_pkgs[@]}")
for arg in "$@"; do
  case $arg in
  --test) pkgs+=("${test_pkgs[@]}") ;;
  --test-build) pkgs+=("${test_build_pkgs[@]}") ;;
  --bench | --with-fio) pkgs+=("${test_pkgs[@]}" "${bench_pkgs[@]}") ;;
  *)
    echo "deps: unknown option '$arg' (valid: --test, --test-build, --bench)" >&2
    exit 2
    ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "deps: installing ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  echo "deps: missing packages (${missing[*]}); run as root or install them: apt-get install ${missing[*]}" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists are read once per machine; a list older than a day is refreshed.
lists=/var/lib/apt/lists
if [[ -z $(find "$lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1) ]]; then
  apt-get update -qq
fi
install() { apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
install || { apt-get update -qq && install; }
