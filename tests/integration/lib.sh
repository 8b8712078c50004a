# Helpers for the integration tests: each test gets the dlsize binary as $1 and a scratch folder
# on the same file system as the build (O_DIRECT needs a real disk, not tmpfs).
set -uo pipefail
DLSIZE=$1
SCRATCH=$(mktemp -d "${DLSIZE_TEST_TMP:-$(dirname "$DLSIZE")}/itest.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
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
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
finish() {
  echo "$passes passed, $fails failed"
  [[ $fails -eq 0 ]]
}
