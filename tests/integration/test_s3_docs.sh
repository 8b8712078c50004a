#!/usr/bin/env bash
# docs/s3.md's examples run as written against the S3 fixture (radosgw): every ```sh block of the
# page, in page order, in one shell, from a scratch folder where build/dlsize and scripts/ are
# this tree's. Only scripts/deps.sh and the server's start and stop are left out (CTest started
# the fixture), and /tmp/s3 is the fixture's folder: `scripts/s3-server.sh env` must export
# what dlsize reads, so the examples need no --s3-* option.
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3
# The examples get the fixture's env from `scripts/s3-server.sh env` alone, not from require_s3.
unset AWS_ENDPOINT_URL_S3 AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_DEFAULT_REGION DLSIZE_S3_ENDPOINT
SCRATCH=$(cd "$SCRATCH" && pwd) # the examples run from another folder
mkdir -p "$SCRATCH/run/build"
ln -s "$(realpath "$DLSIZE")" "$SCRATCH/run/build/dlsize"
ln -s "$ROOT/scripts" "$SCRATCH/run/scripts"

"$PY" - "$ROOT/docs/s3.md" "$DLSIZE_S3_FIXTURE" >"$SCRATCH/examples.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
print("set -euo pipefail")
for b in blocks:
    # Continuation lines are kept with their command.
    for cmd in re.split(r"(?<!\\)\n", b.strip()):
        if re.match(r"scripts/(deps\.sh|s3-server\.sh (start|stop))\b", cmd):
            continue
        print(cmd.replace("/tmp/s3", sys.argv[2]))
PY
n=$(grep -c 'build/dlsize' "$SCRATCH/examples.sh")
((n >= 4)) && pass "docs/s3.md has $n dlsize commands in its sh blocks" \
  || fail "too few examples found: $(cat "$SCRATCH/examples.sh")"
grep -q 's3-server.sh env' "$SCRATCH/examples.sh" && pass "the examples take the server's env" \
  || fail "no 'scripts/s3-server.sh env' in the examples"
if out=$(cd "$SCRATCH/run" && bash "$SCRATCH/examples.sh" 2>&1); then
  pass "every example of docs/s3.md runs as written"
else
  fail "an example of docs/s3.md failed: $out; the script: $(cat "$SCRATCH/examples.sh")"
fi
[[ -f $SCRATCH/run/r50.json ]] && [[ $(json "$SCRATCH/run/r50.json" 'r["status"]') == complete ]] \
  && pass "the bench example wrote a complete report" || fail "no complete r50.json: $out"
[[ $(json "$SCRATCH/run/r50.json" 'r["storage"]["s3"]["settings_from"]["endpoints"]') == AWS_ENDPOINT_URL_S3 ]] \
  && pass "its endpoint came from AWS_ENDPOINT_URL_S3, as the report says" \
  || fail "settings_from: $(json "$SCRATCH/run/r50.json" 'r["storage"]["s3"].get("settings_from")')"
[[ -f $SCRATCH/run/ck.json ]] && pass "the checkpoint example wrote its report" || fail "no ck.json"
finish
