#!/usr/bin/env bash
# dlsize compare: one load on two backends (the disk, and the disk behind a read cap) side by
# side; reports of different loads are refused.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 256MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
cat "$ds"/data/*/*.rec >/dev/null
run=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2 --batch-size 16
     --compute-time 20ms --cache buffered --epochs 1 --seed 5 --quiet)
expect_rc 0 "run on the disk" -- "$DLSIZE" "${run[@]}" --out "$SCRATCH/a.json"
expect_rc 0 "run behind a cap" -- "$DLSIZE" "${run[@]}" --max-read-rate 90MB/s --out "$SCRATCH/b.json"
expect_rc 0 "compare two backends" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/b.json" --out "$SCRATCH/c.json" --markdown "$SCRATCH/c.md" --html "$SCRATCH/c.html"
expect_text "capped at 90.0 MB/s" "the second backend is labelled by its cap"
check=$(json "$SCRATCH/c.json" "r['schema'] == 'dlsize.compare/1' and len(r['backends']) == 2 and
  [m for m in r['metrics'] if m['metric'] == 'accelerator_utilization'][0]['against_first'][1]['delta'] < -0.2 and
  [m for m in r['metrics'] if m['metric'] == 'samples_per_s'][0]['against_first'][1]['exceeds_spread'] is None and
  r['warnings'] == []")
[[ $check == True ]] && pass "the capped backend's AU is lower, no spread without repeats, no warnings" || fail "comparison: $(cat "$SCRATCH/c.json")"
grep -q "| accelerator_utilization" "$SCRATCH/c.md" && pass "markdown table written" || fail "no markdown table"
python3 "$(dirname "$0")/../../scripts/check_html.py" "$SCRATCH/c.html" --svg 3 --tables 1 && pass "HTML well-formed with 3 charts" || fail "HTML check"
expect_rc 0 "storage-only run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --quiet --out "$SCRATCH/s.json"
expect_rc 2 "compare refuses a different load" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/s.json"
expect_text "not the same load" "message says why"
expect_text "s.json" "message names the file"
echo '{"schema": "something/1"}' >"$SCRATCH/x.json"
expect_rc 2 "compare refuses a file that is not a report" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/x.json"
expect_rc 2 "compare needs two reports" -- "$DLSIZE" compare "$SCRATCH/a.json"
finish
