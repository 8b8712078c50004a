#!/usr/bin/python3
"""Coverage of dlsize size's 95 % prediction intervals on held-out runs (scripts/coverage.sh).

Usage: coverage_table.py DLSIZE OUT_DIR BACKEND...
Each OUT_DIR/BACKEND is a sweep folder. For every backend:
  leave-one-repeat-out: for each repeat k, `size` on every other run, with the measured counts as
    targets and --data-growth 1; each run of repeat k is covered when its bytes read / AU (the
    requirement's y) lies inside the projection's reads_interval at its count;
  extrapolation: `size` on the runs at 1 to 4, the runs at 8 and 16 checked.
Writes the size outputs under OUT_DIR/analysis, OUT_DIR/coverage.json, and prints the table.
"""
import json
import os
import statistics
import subprocess
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def held_out_runs(sweep):
    """The done points of a sweep: (repeat, accelerators, report file, y, limited_by)."""
    index = load(os.path.join(sweep, "index.json"))
    runs = []
    for p in index["points"]:
        if p["status"] != "done":
            continue
        file = os.path.join(sweep, p["report"])
        s = load(file)["summary"]
        au = s.get("accelerator_utilization")
        if not au or au <= 0:
            continue
        verdict = (s.get("limited_by") or {}).get("verdict", "unknown")
        runs.append({"repeat": p["repeat"], "accelerators": p["accelerators"], "file": file,
                     "y": s["read_bytes_per_s"] / au, "au": au, "limited_by": verdict})
    return runs


def size(dlsize, files, targets, prefix):
    """The projections at data growth 1 of size's one series, by accelerator count."""
    cmd = [dlsize, "size", *files, "--out", prefix, "--data-growth", "1",
           "--target-accelerators", ",".join(str(t) for t in targets)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    series = load(prefix + ".json")["series"]
    if len(series) != 1:
        sys.exit(f"coverage: {prefix}.json has {len(series)} series, expected one")
    s = series[0]
    req = s["requirement"]
    fit = req.get("fit") or {}
    info = {"repeat_cv": req.get("repeat_cv"), "model_error_cv": req.get("model_error_cv"),
            "residual_stdev": fit.get("residual_stdev"), "slope": fit.get("slope")}
    return {p["accelerators"]: p for p in s["projections"] if p["data_growth"] == 1}, info


def check(run, projections):
    p = projections[run["accelerators"]]
    low, high = p["reads_interval"]
    return {"file": run["file"], "accelerators": run["accelerators"], "repeat": run["repeat"],
            "limited_by": run["limited_by"], "y": run["y"], "predicted": p["reads_bytes_per_s"],
            "low": low, "high": high, "covered": low <= run["y"] <= high,
            "half_width_share": (high - low) / 2 / p["reads_bytes_per_s"],
            "error_share": run["y"] / p["reads_bytes_per_s"] - 1}


def backend_coverage(dlsize, out, backend):
    runs = held_out_runs(os.path.join(out, backend))
    counts = sorted({r["accelerators"] for r in runs})
    analysis = os.path.join(out, "analysis", backend)
    os.makedirs(analysis, exist_ok=True)
    loo, folds = [], []
    for k in sorted({r["repeat"] for r in runs}):
        fit = [r["file"] for r in runs if r["repeat"] != k]
        proj, info = size(dlsize, fit, counts, os.path.join(analysis, f"loo-r{k}"))
        folds.append({"repeat": k, **info})
        loo += [check(r, proj) for r in runs if r["repeat"] == k]
    fit = [r["file"] for r in runs if r["accelerators"] <= 4]
    proj, info = size(dlsize, fit, [8, 16], os.path.join(analysis, "fit-1-4"))
    extra = [check(r, proj) for r in runs if r["accelerators"] in (8, 16)]
    return {"backend": backend, "runs": len(runs), "leave_one_repeat_out": loo, "folds": folds,
            "extrapolation": extra, "extrapolation_fit": info}


def share(checks):
    return sum(c["covered"] for c in checks) / len(checks) if checks else float("nan")


def main():
    dlsize, out, backends = sys.argv[1], sys.argv[2], sys.argv[3:]
    results = [backend_coverage(dlsize, out, b) for b in backends]
    tmp = os.path.join(out, "coverage.json.tmp")
    with open(tmp, "w") as f:
        json.dump(results, f, indent=1)
    os.replace(tmp, os.path.join(out, "coverage.json"))

    print("\nPer count, leave-one-repeat-out (covered / runs, median error and half-width %):")
    for r in results:
        for n in sorted({c["accelerators"] for c in r["leave_one_repeat_out"]}):
            c = [x for x in r["leave_one_repeat_out"] if x["accelerators"] == n]
            print(f"  {r['backend']:6} n={n:<3} {sum(x['covered'] for x in c)}/{len(c)}"
                  f"  error {100 * statistics.median(x['error_share'] for x in c):+.2f} %"
                  f"  half-width {100 * statistics.median(x['half_width_share'] for x in c):.2f} %"
                  f"  limited_by {sorted({x['limited_by'] for x in c})}")
    print("\n| backend | runs | leave-one-repeat-out coverage | extrapolation coverage (8, 16) "
          "| median half-width, LOO (% of prediction) | median half-width, extrapolation |")
    print("|---|---|---|---|---|---|")
    for r in results:
        loo, ex = r["leave_one_repeat_out"], r["extrapolation"]
        print(f"| {r['backend']} | {r['runs']} | {sum(c['covered'] for c in loo)}/{len(loo)} "
              f"({100 * share(loo):.0f} %) | {sum(c['covered'] for c in ex)}/{len(ex)} "
              f"({100 * share(ex):.0f} %) "
              f"| {100 * statistics.median(c['half_width_share'] for c in loo):.2f} % "
              f"| {100 * statistics.median(c['half_width_share'] for c in ex):.2f} % |")


if __name__ == "__main__":
    main()
