#!/usr/bin/env bash
# The checkpoint report has exactly the fields, of exactly the JSON types, it had before it was
# typed: its key paths and types equal tests/integration/data/report_keys_checkpoint.txt (made by
# the tree before, with these options: report_keys.py --types). A label, warnings, an unverified
# read: the parts a plain run leaves out are there. The summary says what the report says.
source "$(dirname "$0")/lib.sh"
require_io_uring # the checkpoint writer is io_uring only
here=$(dirname "$0")

expect_rc 0 "a labelled, buffered, unverified checkpoint run" -- "$DLSIZE" checkpoint --workload llama3-8b \
  --scale 0.00005 --dir "$SCRATCH/ck" --writes 2 --reads 1 --label keys --cache buffered --no-verify \
  --out "$SCRATCH/ck.json"
/usr/bin/python3 "$here/report_keys.py" --types "$SCRATCH/ck.json" >"$SCRATCH/ck.keys"
differ=$(diff "$here/data/report_keys_checkpoint.txt" "$SCRATCH/ck.keys")
[[ -z $differ ]] && pass "the checkpoint report has the same key paths and types" \
  || fail "key paths or types differ (< before, > now): $differ"
want=$(json "$SCRATCH/ck.json" "'write %d x %s: duration %.3f s' % (r['checkpoint']['write']['count'], '5.38 MiB', r['checkpoint']['write']['duration_s']['mean'])")
[[ $OUT == *"$want"* && $OUT == *$'\nstatus complete'* ]] \
  && pass "the summary gives the report's writes and status" || fail "summary: want '$want': $OUT"
finish
