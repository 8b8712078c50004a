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

# After the last point's bench, the launcher puts a file of its own in place of the index.
cat >"$SCRATCH/foreign.sh" <<SH
#!/usr/bin/env bash
n=\$1; shift
"\$@"; rc=\$?
if [[ \$n == 2 ]]; then echo "not dlsize's" >"$SCRATCH/fi/theirs" && mv "$SCRATCH/fi/theirs" "$SCRATCH/fi/index.json"; fi
exit \$rc
SH
chmod +x "$SCRATCH/foreign.sh"
write_config "$SCRATCH/f.json" "$SCRATCH/foreign.sh"
expect_rc 1 "a foreign file at the index's name: the sweep exits 1" -- "$DLSIZE" sweep --config "$SCRATCH/f.json" --out "$SCRATCH/fi"
[[ $(cat "$SCRATCH/fi/index.json") == "not dlsize's" ]] && pass "the foreign file is left as it was" || fail "index.json: $(cat "$SCRATCH/fi/index.json")"
shopt -s nullglob
beside=("$SCRATCH"/fi/index-*.json)
if [[ ${#beside[@]} -eq 1 ]]; then
  check=$(json "${beside[0]}" "r['schema'] == 'dlsize.sweep/1' and r['status'] == 'complete' and [p['status'] for p in r['points']] == ['done', 'done']")
  [[ $check == True ]] && pass "the index went beside it, both points done" || fail "fallback index: $(cat "${beside[0]}")"
else
  fail "no single index-*.json beside the name: $(ls "$SCRATCH/fi")"
fi
expect_text "written to '${beside[0]:-none}' instead" "stderr says where the index went"
expect_text "index ${beside[0]:-none}" "the closing line names it"
[[ -f $SCRATCH/fi/reports/n1-r1.json && -f $SCRATCH/fi/reports/n2-r1.json ]] && pass "both measured reports are there" || fail "reports: $(ls "$SCRATCH/fi/reports")"
# Put back as the message says, the sweep resumes with nothing to run.
mv "${beside[0]:-/nonexistent}" "$SCRATCH/fi/index.json"
expect_rc 0 "the index put back: the sweep resumes" -- "$DLSIZE" sweep --config "$SCRATCH/f.json" --out "$SCRATCH/fi"
expect_text "2 of 2 points done" "with both points done"

# After the last point's bench, the launcher moves the whole folder away: neither the index's
# name nor its folder can be written, so the index goes to the current folder.
cat >"$SCRATCH/move.sh" <<SH
#!/usr/bin/env bash
n=\$1; shift
"\$@"; rc=\$?
if [[ \$n == 2 ]]; then mv "$SCRATCH/mv" "$SCRATCH/mv.moved"; fi
exit \$rc
SH
chmod +x "$SCRATCH/move.sh"
write_config "$SCRATCH/m.json" "$SCRATCH/move.sh"
mkdir -p "$SCRATCH/cwd"
expect_rc 1 "the folder gone: the sweep exits 1" -- bash -c "cd '$SCRATCH/cwd' && '$DLSIZE' sweep --config '$SCRATCH/m.json' --out '$SCRATCH/mv'"
here=("$SCRATCH"/cwd/index-*.json)
if [[ ${#here[@]} -eq 1 ]]; then
  # The last point's report went with the folder, so the sweep could not read it back: failed.
  check=$(json "${here[0]}" "[p['report'] for p in r['points']] == ['reports/n1-r1.json', 'reports/n2-r1.json'] and r['points'][0]['status'] == 'done'")
  [[ $check == True ]] && pass "the index went to the current folder, listing both reports" || fail "fallback index: $(cat "${here[0]}")"
else
  fail "no single index-*.json in the current folder: $(ls "$SCRATCH/cwd")"
fi
expect_text "reports and logs stay in $SCRATCH/mv" "stderr says where the reports are"
[[ -f $SCRATCH/mv.moved/reports/n2-r1.json && -f $SCRATCH/mv.moved/index.json ]] && pass "the measured reports and the last index written are kept" || fail "moved folder: $(ls -R "$SCRATCH/mv.moved")"
finish
