#!/usr/bin/env bash
# labels: faults
# A sweep whose index cannot be written where it was: another program put its own file at
# DIR/index.json mid-sweep, or the folder went away. The measured points are never lost and the
# foreign file is never overwritten: the index lands under a new name (beside it, or in the
# current folder), the sweep says where, and exits 1.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 64MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
# write_config FILE LAUNCHER: two points (1 and 2 accelerators), each through LAUNCHER.
write_config() {
  cat >"$1" <<JSON
{"bench": {"workload": "resnet50", "dataset": "$ds", "accelerator": "emulated:h100", "batch-size": 8,
           "compute-time": "5ms", "epochs": 1},
 "accelerators": [1, 2], "repeats": 1, "seed": 5, "launcher": ["$2", "{accelerators}"]}
JSON
}

# write_launcher FILE AFTER_LAST: a launcher that runs its point's bench, then, after the last
# point's (the second), runs the shell command AFTER_LAST; it exits with the bench's status.
write_launcher() {
  cat >"$1" <<SH
#!/usr/bin/env bash
n=\$1; shift
"\$@"; rc=\$?
if [[ \$n == 2 ]]; then $2; fi
exit \$rc
SH
  chmod +x "$1"
}

# expect_one_index WHERE DIR SAID CHECK FILES...: FILES (the index-*.json found in DIR) are one
# sweep index whose JSON passes the Python expression CHECK (pass SAID).
expect_one_index() {
  local where=$1 dir=$2 said=$3 check=$4
  shift 4
  if [[ $# -eq 1 ]]; then
    [[ $(json "$1" "$check") == True ]] && pass "$said" || fail "fallback index: $(cat "$1")"
  else
    fail "no single index-*.json $where: $(ls "$dir")"
  fi
}

# After the last point's bench, the launcher puts a file of its own in place of the index.
write_launcher "$SCRATCH/foreign.sh" \
  "echo \"not dlsize's\" >\"$SCRATCH/fi/theirs\" && mv \"$SCRATCH/fi/theirs\" \"$SCRATCH/fi/index.json\""
write_config "$SCRATCH/f.json" "$SCRATCH/foreign.sh"
expect_rc 1 "a foreign file at the index's name: the sweep exits 1" -- "$DLSIZE" sweep --config "$SCRATCH/f.json" --out "$SCRATCH/fi"
[[ $(cat "$SCRATCH/fi/index.json") == "not dlsize's" ]] && pass "the foreign file is left as it was" || fail "index.json: $(cat "$SCRATCH/fi/index.json")"
shopt -s nullglob
beside=("$SCRATCH"/fi/index-*.json)
expect_one_index "beside the name" "$SCRATCH/fi" "the index went beside it, both points done" \
  "r['schema'] == 'dlsize.sweep/1' and r['status'] == 'complete' and [p['status'] for p in r['points']] == ['done', 'done']" "${beside[@]}"
expect_text "written to '${beside[0]:-none}' instead" "stderr says where the index went"
expect_text "index ${beside[0]:-none}" "the closing line names it"
[[ -f $SCRATCH/fi/reports/n1-r1.json && -f $SCRATCH/fi/reports/n2-r1.json ]] && pass "both measured reports are there" || fail "reports: $(ls "$SCRATCH/fi/reports")"
# Put back as the message says, the sweep resumes with nothing to run.
mv "${beside[0]:-/nonexistent}" "$SCRATCH/fi/index.json"
expect_rc 0 "the index put back: the sweep resumes" -- "$DLSIZE" sweep --config "$SCRATCH/f.json" --out "$SCRATCH/fi"
expect_text "2 of 2 points done" "with both points done"

# After the last point's bench, the launcher moves the whole folder away: neither the index's
# name nor its folder can be written, so the index goes to the current folder.
write_launcher "$SCRATCH/move.sh" "mv \"$SCRATCH/mv\" \"$SCRATCH/mv.moved\""
write_config "$SCRATCH/m.json" "$SCRATCH/move.sh"
mkdir -p "$SCRATCH/cwd"
expect_rc 1 "the folder gone: the sweep exits 1" -- bash -c "cd '$SCRATCH/cwd' && '$DLSIZE' sweep --config '$SCRATCH/m.json' --out '$SCRATCH/mv'"
# The last point's report went with the folder, so the sweep could not read it back: failed.
expect_one_index "in the current folder" "$SCRATCH/cwd" "the index went to the current folder, listing both reports" \
  "[p['report'] for p in r['points']] == ['reports/n1-r1.json', 'reports/n2-r1.json'] and r['points'][0]['status'] == 'done'" "$SCRATCH"/cwd/index-*.json
expect_text "reports and logs stay in $SCRATCH/mv" "stderr says where the reports are"
[[ -f $SCRATCH/mv.moved/reports/n2-r1.json && -f $SCRATCH/mv.moved/index.json ]] && pass "the measured reports and the last index written are kept" || fail "moved folder: $(ls -R "$SCRATCH/mv.moved")"
finish
