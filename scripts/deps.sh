#!/usr/bin/env bash
# Installs the Debian packages dlsize needs to build and test, only those missing.
# Usage: scripts/deps.sh [--with-fio]   (fio: for scripts/bench-vs-fio.sh)
set -euo pipefail
pkgs=(cmake g++ ninja-build pkg-config python3 liburing-dev libcli11-dev nlohmann-json3-dev libfmt-dev catch2 mpich libmpich-dev)
pkgs+=(python3-jsonschema chromium)  # the sizing report tests: schema validation, HTML rendering
pkgs+=(clang-format-14)  # scripts/format.sh --check, run by scripts/test.sh
pkgs+=(clang-tidy-14)  # scripts/function-size.sh (the CTest lint.function_size)
pkgs+=(libfuse3-dev fuse3)  # tests/fault_fs: the fault-injection file system of the fault suite
pkgs+=(xfsprogs)  # scripts/coverage.sh: the xfs loop image
[[ "${1:-}" == "--with-fio" ]] && pkgs+=(fio time)
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
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
