#!/usr/bin/env bash
# The HTML of size and compare renders in headless Chromium from file:// with no network: the
# DOM holds the charts with their marks and the tables, and a screenshot is not blank.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v chromium >/dev/null || { echo "skip: chromium is not installed (scripts/deps.sh --test installs it)"; exit 77; }
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 128MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
run=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2 --batch-size 8
     --compute-time 5ms --epochs 1 --seed 3 --quiet)
expect_rc 0 "a run on the disk" -- "$DLSIZE" "${run[@]}" --out "$SCRATCH/a.json"
expect_rc 0 "a run behind a cap" -- "$DLSIZE" "${run[@]}" --max-read-rate 100MB/s --out "$SCRATCH/b.json"
mkdir -p "$SCRATCH/runs"
"$PY" "$here/make_sizing_reports.py" "$SCRATCH/a.json" "$SCRATCH/runs" 200e6 40e6 1,2,4,6,8 2
expect_rc 0 "size" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/z"
expect_rc 0 "compare" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/b.json" --html "$SCRATCH/c.html"
"$root/scripts/render-check.sh" --min-svg 4 "$SCRATCH/z.html" && "$root/scripts/render-check.sh" --min-svg 2 "$SCRATCH/c.html" \
  && pass "both pages render in Chromium with their charts" || fail "render check"
finish
