#!/usr/bin/env python3
"""Start-up and gathering time of dlsize jobs at 1 to 8 ranks, and the emulated-accelerator
capacity of one client split over ranks. Called by scripts/bench-mpi.sh (which builds dlsize and
makes the datasets).

Start-up: a tiny run (one accelerator per rank, 10 ms steps, one epoch of a 256 MiB dataset);
from each report, phases.startup_s (process start to the run's common start on rank 0: MPI
start-up, agreements, dataset checks, start barrier) and phases.gather_s (rank 0's end to every
rank's results in), and the whole command's wall time including the launcher.

Capacity: resnet50 h100 (batch 400, 0.224 s per step), a page-cached dataset read buffered (a
run counts only with a storage hit ratio >= 0.95), the same total of accelerators in 1 process
and split over 2, 4 and 8 ranks, alternating the shapes run by run; medians of CAP_RUNS.
"""
import json
import math
import os
import statistics
import subprocess
import sys

from bench_common import samples_of, warm
import time

DLSIZE, SCRATCH = sys.argv[1], sys.argv[2]
RANKS = [int(x) for x in os.environ.get("RANKS", "1,2,4,8").split(",")]
RUNS = int(os.environ.get("RUNS", "5"))
CAP_RUNS = int(os.environ.get("CAP_RUNS", "3"))
MPIEXEC = "mpiexec.mpich"


def bench(ranks, args, out, launcher=True):
    if os.path.exists(out):
        os.remove(out)  # written by this script's earlier runs only
    cmd = ([MPIEXEC, "-np", str(ranks)] if launcher else []) + [DLSIZE, "bench"] + args + ["--quiet", "--out", out]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"bench-mpi: {' '.join(cmd)} failed: {p.stderr}")
    return json.load(open(out)), wall


def startup():
    ds = os.path.join(SCRATCH, "small")
    print("\n### Start-up and gathering, one accelerator per rank (medians of %d runs)\n" % RUNS)
    print("| ranks | launcher | command wall s | startup_s (rank 0) | gather_s | run_s | report bytes |")
    print("|---|---|---|---|---|---|---|")
    shapes = [(1, False)] + [(n, True) for n in RANKS]
    res = {s: [] for s in shapes}
    for i in range(RUNS):
        for n, launcher in shapes:  # alternated, so that drift on a shared machine hits all alike
            out = os.path.join(SCRATCH, f"startup-{n}-{int(launcher)}.json")
            r, wall = bench(n, ["--workload", "resnet50", "--dataset", ds, "--accelerator", "emulated:h100",
                                "--accelerators-per-rank", "1", "--batch-size", "16", "--compute-time", "10ms",
                                "--epochs", "1", "--cache", "buffered", "--seed", str(i)], out, launcher)
            ph = r["phases"]
            res[(n, launcher)].append((wall, ph["startup_s"], ph["gather_s"], ph["run_s"], os.path.getsize(out)))
    for (n, launcher), pts in res.items():
        med = [statistics.median(p[k] for p in pts) for k in range(5)]
        print(f"| {n} | {'mpiexec' if launcher else 'none'} | {med[0]:.2f} | {med[1]:.3f} | {med[2]:.4f} | "
              f"{med[3]:.2f} | {med[4]:,.0f} |", flush=True)


def capacity(total):
    ds = os.path.join(SCRATCH, "resnet50")
    epochs = max(2, math.ceil(20 / max(1, samples_of(ds) // (total * 400))))
    shapes = [n for n in RANKS if total % n == 0]
    pts = {n: [] for n in shapes}
    for i in range(CAP_RUNS):
        for n in shapes:
            for attempt in range(3):  # a run the page cache did not serve is redone
                warm(ds)
                out = os.path.join(SCRATCH, f"cap-{total}-{n}.json")
                readers = max(1, 2 // n)  # two reader threads per client in all, at least one per rank
                r, _ = bench(n, ["--workload", "resnet50", "--dataset", ds, "--accelerator", "emulated:h100",
                                 "--accelerators", str(total), "--readers", str(readers), "--queue-depth", "8",
                                 "--cache", "buffered", "--epochs", str(epochs), "--seed", str(7919 * i + n)],
                             out, launcher=n > 1)
                hit = r["storage"].get("hit_ratio")
                if hit is None or hit >= 0.95:
                    break
            s = r["summary"]
            pts[n].append((s["accelerator_utilization"] or 0.0, s["read_bytes_per_s"], s["cpu_utilization"]["process"],
                           s["cpu_s_per_gib"] or 0.0, hit))
    print(f"\n### {total} emulated resnet50 h100s on one client, in 1 process and split over ranks\n")
    print("| ranks | accelerators per rank | readers per rank | AU median (runs) | AU >= 0.90 | read MB/s | CPU (all ranks) | CPU s per GiB | hit ratio min |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in shapes:
        p = pts[n]
        au = statistics.median(x[0] for x in p)
        hits = [x[4] for x in p if x[4] is not None]
        print(f"| {n} | {total // n} | {max(1, 2 // n)} | {au:.3f} ({', '.join(f'{x[0]:.3f}' for x in p)}) | "
              f"{'yes' if au >= 0.9 else 'no'} | {statistics.median(x[1] for x in p) / 1e6:,.0f} | "
              f"{100 * statistics.median(x[2] for x in p):.0f} % | {statistics.median(x[3] for x in p):.3f} | "
              f"{min(hits) if hits else float('nan'):.3f} |", flush=True)


if __name__ == "__main__":
    sections = os.environ.get("SECTIONS", "startup,capacity").split(",")
    if "startup" in sections:
        startup()
    if "capacity" in sections:
        for total in [int(x) for x in os.environ.get("CAP_TOTAL", "96,112").split(",")]:
            capacity(total)
