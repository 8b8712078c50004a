#!/usr/bin/env python3
"""Prints the tables of scripts/bench-sizing-accuracy.sh from its output folder.

Usage: sizing_accuracy_table.py OUT_DIR
Prediction: OUT_DIR/fit.json (dlsize size of the 1–4 accelerator runs, target 8) against the
8-accelerator runs of the linear sweep. Knee: OUT_DIR/knee-size.json against where the cap
(the runs' io.max_read_rate) meets the demand, the bytes one accelerator read per second at
1 accelerator (median): cap / that.
"""
import glob
import json
import statistics
import sys

out = sys.argv[1]
fit = json.load(open(f"{out}/fit.json"))["series"][0]
proj = fit["projections"][0]
pred, (lo, hi) = proj["reads_bytes_per_s"], proj["reads_interval"]
runs = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/linear/reports/n8-r*.json"))]
measured = [r["summary"]["read_bytes_per_s"] for r in runs]
med = statistics.median(measured)
f = fit["fit"]
print("## Predict 8 from 1 to 4\n")
print(f"fit on {f['n']} runs: slope {f['slope'] / 1e6:.2f} MB/s per accelerator, intercept {f['intercept'] / 1e6:.2f} MB/s, R² {f['r2']:.5f}\n")
print("| | MB/s | 95 % prediction interval | error against the prediction | inside the interval |")
print("|---|---|---|---|---|")
print(f"| predicted at 8 | {pred / 1e6:.1f} | {lo / 1e6:.1f}–{hi / 1e6:.1f} | | |")
for i, m in enumerate(measured):
    print(f"| measured at 8, run {i + 1} | {m / 1e6:.1f} | | {100 * (m - pred) / pred:+.2f} % | {'yes' if lo <= m <= hi else 'no'} |")
print(f"| measured at 8, median | {med / 1e6:.1f} | | {100 * (med - pred) / pred:+.2f} % | {'yes' if lo <= med <= hi else 'no'} |")

k = json.load(open(f"{out}/knee-size.json"))["series"][0]
knee_runs = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/knee/reports/n*-r*.json"))]
cap = knee_runs[0]["io"]["max_read_rate"]
one = statistics.median(r["summary"]["read_bytes_per_s"] for r in knee_runs if r["topology"]["accelerators"] == 1)
demand = knee_runs[0]["summary"]["demand_bytes_per_s_per_accelerator"]
meet, meet_nominal = cap / one, cap / demand
kn = k["knee"]
print("\n## Knee\n")
print("| cap MB/s | read per accelerator at 1 (MB/s) | cap meets it at | nominal demand (MB/s) | cap meets it at | knee found | test | within one step (1 accelerator) |")
print("|---|---|---|---|---|---|---|---|")
found = kn["accelerators"]
print(f"| {cap / 1e6:.0f} | {one / 1e6:.2f} | {meet:.2f} | {demand / 1e6:.2f} | {meet_nominal:.2f} | "
      f"{'none' if found is None else f'{found:.2f}'} | F = {kn['f']:.4g}, df ({kn['df1']:g}, {kn['df2']:g}), p = {kn['p_value']:.3g} | "
      f"{'yes' if found is not None and abs(found - meet) <= 1 else 'no'} |")
au = k["au_knee"]
print(f"\nAU below {au['threshold']} from {au['first_below_accelerators']} accelerators; most passing: "
      f"{au['most_passing_accelerators']}; ceiling {k['ceiling']['bytes_per_s'] / 1e6:.1f} MB/s; "
      f"modelled most accelerators at the threshold: {k['max_accelerators_at_threshold']['modelled']}")
