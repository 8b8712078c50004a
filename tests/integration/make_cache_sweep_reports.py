#!/usr/bin/env python3
"""Writes the bench reports of a cache sweep from its summary, for the size tests.

Usage: make_cache_sweep_reports.py TEMPLATE.json SWEEP.json OUTDIR [MAX_F]
Each run of SWEEP (results/cache-sweep/sweep.json, written by scripts/cache-sweep.sh from real
bench --client-ram reports) becomes TEMPLATE (a real buffered training report) with that run's
dataset size, client RAM and storage figures: its cache_emulation block and storage.warm_epochs.
Runs with f above MAX_F are left out (to make a sweep with too few distinct f).
"""
import copy
import json
import sys

template, sweep, out = sys.argv[1], sys.argv[2], sys.argv[3]
max_f = float(sys.argv[4]) if len(sys.argv) > 4 else float("inf")
base = json.load(open(template))
for i, run in enumerate(json.load(open(sweep))["runs"]):
    if run["f"] > max_f:
        continue
    j = copy.deepcopy(base)
    j["run_id"] = f"{i + 1:032x}"  # each run is a run of its own
    j["dataset"]["bytes"] = run["dataset_bytes"]
    j["dataset"]["client_ram_bytes"] = run["client_ram_bytes"]
    ram, foot = run["client_ram_bytes"], run["footprint_bytes_peak"]
    # The figures the summary does not keep are the plausible ones of such a run.
    j["cache_emulation"] = {
        "client_ram_bytes": ram, "footprint_bytes_start": foot, "footprint_bytes_peak": foot,
        "limit_bytes_start": ram + foot, "limit_bytes_peak": ram + foot,
        "page_cache_bytes_peak": run["page_cache_bytes_peak"],
        "cgroup": {"version": 1, "path": "/dlsize-cache-1", "dir": "cgroup/dlsize-cache-1",
                   "removed": True},
        "evicted": {"files": 1, "bytes": run["dataset_bytes"], "resident_bytes_before": 0,
                    "resident_bytes_after": 0}}
    read = run["read_bytes_per_accelerator_per_epoch"]
    storage = run["storage_bytes_per_accelerator_per_epoch"]
    j["storage"]["hit_ratio"] = run["hit_ratio_all_epochs"]
    j["storage"]["warm_epochs"] = {"read_bytes": read, "storage_read_bytes": storage,
                                   "storage_per_read_byte": run["storage_per_read_byte_warm"],
                                   "hit_ratio": run["hit_ratio_warm"], "from_s": 0.0}
    json.dump(j, open(f"{out}/{run['report']}", "w"), indent=1)
