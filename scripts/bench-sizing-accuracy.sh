#!/usr/bin/env bash
# The sizing model's accuracy against real runs, with a read cap standing in for the storage
# (docs/performance.md): (1) fit on 1 to 4 emulated accelerators, predict 8, measure 8: the
# prediction error and whether the measured runs fall inside the 95 % prediction interval;
# (2) a sweep of 1 to 8 accelerators whose cap meets the demand between two counts: the knee
# found, against where cap and demand meet.
# Usage: scripts/bench-sizing-accuracy.sh OUT_DIR   (run from the repository root, after a build)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/bench-sizing-accuracy.sh OUT_DIR}
dlsize=${DLSIZE:-build/dlsize}
mkdir -p "$out"
"$dlsize" sweep --config configs/sweeps/accuracy-linear.json --out "$out/linear"
"$dlsize" sweep --config configs/sweeps/accuracy-knee.json --out "$out/knee"
fit_runs=()
for n in 1 2 3 4; do fit_runs+=("$out"/linear/reports/n$n-r*.json); done
[[ -e $out/fit.json ]] || "$dlsize" size "${fit_runs[@]}" --out "$out/fit" --target-accelerators 8 --data-growth 1 >/dev/null
[[ -e $out/knee-size.json ]] || "$dlsize" size "$out/knee" --out "$out/knee-size" --target-accelerators 8 --data-growth 1 >/dev/null
python3 scripts/sizing_accuracy_table.py "$out"
