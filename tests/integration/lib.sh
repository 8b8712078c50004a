# Helpers for the integration tests: each test gets the dlsize binary as $1 and a scratch folder
# on the same file system as the build (O_DIRECT needs a real disk, not tmpfs).
set -uo pipefail
DLSIZE=$1
SCRATCH=$(mktemp -d "${DLSIZE_TEST_TMP:-$(dirname "$DLSIZE")}/itest.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
# Debian's python3 (scripts/deps.sh installs it) for the tests' checks: a python3 found first on
# PATH may be a version manager's shim (pyenv's costs about 0.65 s of CPU a call against 0.05 s
# for the interpreter itself: `perf stat -r 10 python3 -c pass`), and the suite calls it
# hundreds of times.
PY=/usr/bin/python3
[[ -x $PY ]] || PY=$(command -v python3)
fails=0
passes=0
pass() { passes=$((passes + 1)); echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
# expect_rc CODE DESCRIPTION -- command...: runs it, checks the exit code, keeps stderr in $ERR.
expect_rc() {
  local want=$1 what=$2
  shift 3
  ERR=$("$@" 2>&1 >"$SCRATCH/stdout")
  local rc=$?
  OUT=$(cat "$SCRATCH/stdout")
  if [[ $rc -eq $want ]]; then pass "$what (exit $rc)"; else fail "$what: exit $rc, wanted $want; stderr: $ERR"; fi
}
# expect_text TEXT DESCRIPTION: $ERR or $OUT contains TEXT.
expect_text() {
  if [[ "$ERR$OUT" == *"$1"* ]]; then pass "$2"; else fail "$2: '$1' not in output: $ERR $OUT"; fi
}
# json FILE EXPR: prints a Python expression over the report r.
json() { "$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
# interrupt_after SECONDS -- command...: runs it in the background, sends SIGINT after SECONDS,
# and checks it exits 1 within 2 s of the signal.
interrupt_after() {
  local wait_s=$1
  shift 2
  "$@" >/dev/null 2>&1 &
  local pid=$!
  sleep "$wait_s"
  interrupt_pid $pid
}
# interrupt_when_grown FILE BYTES -- command...: as interrupt_after, the SIGINT sent once FILE
# holds more than BYTES (progress seen, whatever the machine's speed; at most 30 s of waiting).
interrupt_when_grown() {
  local file=$1 bytes=$2
  shift 3
  "$@" >/dev/null 2>&1 &
  local pid=$! i
  for i in $(seq 3000); do
    (($(stat -c %s "$file" 2>/dev/null || echo 0) > bytes)) && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.01
  done
  interrupt_pid $pid
}
# interrupt_pid PID: sends SIGINT and checks the process exits 1 within 2 s.
interrupt_pid() {
  local pid=$1 t0 rc
  t0=${EPOCHREALTIME/./}
  kill -INT "$pid"
  wait "$pid"
  rc=$?
  [[ $rc -eq 1 ]] && pass "interrupted run exits 1" || fail "interrupted run exit $rc"
  ((${EPOCHREALTIME/./} - t0 < 2000000)) && pass "stopped within 2 s" || fail "slow to stop"
}
# The repository's root, for docs/ and scripts/.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# validate_json FILE...: every file validates against its schema (picked by its `schema` field)
# with Debian's python3-jsonschema and with dlsize validate (the embedded copies).
validate_json() {
  local errors
  if errors=$(/usr/bin/python3 "$ROOT/scripts/validate_json.py" "$@" 2>&1); then
    pass "$# file(s) valid against docs/*.schema.json (jsonschema)"
  else
    fail "schema validation (jsonschema): $errors"
  fi
  if errors=$("$DLSIZE" validate --quiet "$@" 2>&1); then
    pass "$# file(s) valid by dlsize validate"
  else
    fail "schema validation (dlsize validate): $errors"
  fi
}
# refused_json FILE...: every file is refused by its schema (broken copies), by both.
refused_json() {
  local errors f
  if errors=$(/usr/bin/python3 "$ROOT/scripts/validate_json.py" --invalid "$@" 2>&1); then
    pass "$# broken file(s) refused (jsonschema)"
  else
    fail "a broken file was accepted (jsonschema): $errors"
  fi
  for f in "$@"; do
    "$DLSIZE" validate "$f" >/dev/null 2>&1
    [[ $? -eq 1 ]] || fail "dlsize validate did not refuse $f"
  done
}
# Every dlsize document a test made under $SCRATCH (reports, comparisons, sizing, plans, sweep
# indexes, calibrations) is validated when it finishes; broken copies live under a folder named
# broken* and are left out.
validate_made_json() {
  local files=()
  mapfile -d '' files < <(/usr/bin/python3 "$ROOT/scripts/validate_json.py" --list "$SCRATCH")
  [[ ${#files[@]} -eq 0 ]] || validate_json "${files[@]}"
}
# skip_part REASON: a part of the test that cannot run here (no MPI in this build, a GPU
# present, a machine too fast for a race): said, and the test ends as skipped (77) instead of
# passed when everything else passed, so a partial run is never counted as a full pass.
skipped_parts=()
skip_part() { skipped_parts+=("$1"); echo "skip: $1"; }
# require_io_uring: the test is about io_uring itself; skip (77) where the kernel refuses rings
# (bench would fall back to psync and the checks would test the wrong engine).
# version_has TEXT: `dlsize --version` says TEXT (a grep pattern). The text is taken once per
# test script (it loads the CUDA module to name its libraries: about 0.4 s of CPU a call); call
# it as a command of its own, not in a pipeline, so that the text is kept.
version_has() {
  [[ -n ${DLSIZE_VERSION_TEXT:-} ]] || DLSIZE_VERSION_TEXT=$("$DLSIZE" --version 2>&1)
  grep -q -- "$1" <<<"$DLSIZE_VERSION_TEXT"
}
have_io_uring() { version_has "io_uring: yes"; }
require_io_uring() {
  if ! have_io_uring; then
    echo "skip: $(grep "io_uring" <<<"$DLSIZE_VERSION_TEXT")"
    exit 77
  fi
}
# require_mpi: the test launches ranks with MPICH's mpiexec (DLSIZE_MPIEXEC, set by CTest);
# skip (77) where the build has no MPI. Sets MPIEXEC.
require_mpi() {
  MPIEXEC=${DLSIZE_MPIEXEC:-}
  if [[ -z $MPIEXEC ]] || ! version_has "mpi: yes"; then
    echo "skip: this build has no MPI (mpich and libmpich-dev not found at configure time)"
    exit 77
  fi
}
# rank_pid PATTERN RANK: the dlsize process of that MPI rank (PMI_RANK in its environment) among
# those whose command line has PATTERN; the launcher and its proxies carry the pattern too, so
# neither the newest pid nor the last one is a rank's.
rank_pid() {
  local pid
  for pid in $(pgrep -f "$1"); do
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == dlsize ]] || continue
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "PMI_RANK=$2" && { echo "$pid"; return 0; }
  done
  return 1
}
# require_s3: the test talks to the S3 fixture (scripts/s3-server.sh, started by CTest for the
# tests labelled s3): loads its endpoint and test keys into the environment. Where it is not
# running the test skips (77), but fails under CI=true, where the S3 tests must run.
require_s3() {
  local dir=${DLSIZE_S3_FIXTURE:-} why
  if [[ -n $dir && -f $dir/env ]]; then
    source "$dir/env"
    # The tests' name for the fixture's endpoint (for curl and the fault proxy); dlsize itself
    # reads AWS_ENDPOINT_URL_S3, which the fixture's env exports.
    export DLSIZE_S3_ENDPOINT=$AWS_ENDPOINT_URL_S3
    return 0
  fi
  if [[ -z $dir ]]; then
    why="DLSIZE_S3_FIXTURE is not set (run it through ctest -L s3)"
  else
    why=$(cat "$dir/unavailable" 2>/dev/null || echo "it did not start (ctest's s3.server_start)")
  fi
  if [[ ${CI:-} == true ]]; then
    echo "FAIL: the S3 server is not running: $why; under CI=true the S3 tests must run"
    exit 1
  fi
  echo "skip: the S3 server is not running: $why"
  exit 77
}
# s3_bucket NAME: the test talks to the S3 fixture (require_s3) in a bucket of its own, made now:
# $bucket (NAME-PID-RANDOM), $ep (the fixture's endpoint), curl's signing options in the array
# sign. At exit, the test's fault proxies are killed and $SCRATCH removed.
s3_bucket() {
  require_s3
  ep=$DLSIZE_S3_ENDPOINT
  bucket=$1-$$-$RANDOM
  sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD"
    --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY")
  [[ $(curl -s -o /dev/null -w '%{http_code}' "${sign[@]}" -X PUT "$ep/$bucket") == 200 ]] \
    || { fail "cannot create bucket $bucket"; finish; exit 1; }
  trap 'for p in "${proxies[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$SCRATCH"' EXIT
}
# s3_resnet50 PREFIX FILES: a resnet50 dataset of FILES objects at s3://$bucket/PREFIX.
s3_resnet50() {
  "$DLSIZE" datagen --workload resnet50 --layout files --files "$2" --quiet \
    --dataset "s3://$bucket/$1" --s3-endpoint "$ep" >/dev/null \
    || { fail "datagen of s3://$bucket/$1"; finish; exit 1; }
}
finish() {
  validate_made_json
  echo "$passes passed, $fails failed${skipped_parts:+, ${#skipped_parts[@]} part(s) skipped}"
  [[ $fails -eq 0 ]] || return 1
  [[ ${#skipped_parts[@]} -eq 0 ]] || exit 77
}
# proxy RULE...: a fault proxy (s3_fault_proxy.py) in front of $DLSIZE_S3_ENDPOINT; its endpoint
# in $PROXY, its log in $PLOG, its pid in the array proxies (a test kills them at exit).
proxies=()
proxy() {
  PLOG=$SCRATCH/proxy-${#proxies[@]}.log
  local port_file=$SCRATCH/proxy-${#proxies[@]}.port
  "$PY" "$ROOT/tests/integration/s3_fault_proxy.py" --upstream "$DLSIZE_S3_ENDPOINT" \
    --port-file "$port_file" --log "$PLOG" "$@" &
  proxies+=($!)
  for _ in $(seq 100); do [[ -s $port_file ]] && break; sleep 0.05; done
  PROXY=http://127.0.0.1:$(cat "$port_file")
}
# require_cluster STORE...: the test runs on the cluster bed (scripts/cluster-bed.sh, brought up
# by CTest for the tests labelled cluster, with the stores named on their "# cluster-stores:"
# line): loads the bed's variables (DLSIZE_BED_HOSTS, the mounts, the S3 endpoint and keys) and
# defines bed (the script) and bed_mpi (its mpiexec with MPICH's launcher). Where the bed or a
# store is not up the test skips (77), but fails under CI=true, where the cluster tests must run.
require_cluster() {
  local dir=${DLSIZE_BED_DIR:-} why= store
  require_mpi
  if [[ -z $dir ]]; then
    why="DLSIZE_BED_DIR is not set (run it through ctest -L cluster)"
  elif [[ -f $dir/unavailable ]]; then
    why=$(cat "$dir/unavailable")
  elif [[ ! -f $dir/prefix ]]; then
    why="the bed did not come up (ctest's cluster.bed_up)"
  else
    for store in "$@"; do
      [[ -f $dir/run/$store.up ]] && continue
      why="the $store store is not up: $(cat "$dir/run/$store.unavailable" 2>/dev/null || echo "ctest's cluster.store_$store did not start it")"
      break
    done
  fi
  if [[ -n $why ]]; then
    if [[ ${CI:-} == true ]]; then
      echo "FAIL: the cluster bed is not running: $why; under CI=true the cluster tests must run"
      exit 1
    fi
    echo "skip: the cluster bed is not running: $why"
    exit 77
  fi
  BED_SH=$ROOT/scripts/cluster-bed.sh
  eval "$("$BED_SH" env)"
}
bed() { "$BED_SH" "$@"; }
# bed_bucket NAME: a bucket of that name on the bed's S3 store, made from h1 (the store is
# reachable only from the bed's hosts); fails the test when it cannot be made.
bed_bucket() {
  local code
  code=$(bed exec h1 curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 "aws:amz:us-east-1:s3" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -X PUT "$DLSIZE_S3_ENDPOINT/$1")
  [[ $code == 200 ]] || { fail "cannot create bucket $1 on the bed's S3 store (HTTP $code)"; finish; exit 1; }
}
