#!/usr/bin/env python3
"""Writes bench reports of a sweep with a known answer, for the size tests.

Usage: make_sizing_reports.py TEMPLATE.json OUTDIR CAP DEMAND COUNTS REPEATS
Each report is TEMPLATE (a real training report) with n accelerators on a backend capped at
CAP bytes/s under DEMAND bytes/s per accelerator: bandwidth min(n·DEMAND, CAP) with a small
fixed wobble per repeat, AU min(1, CAP / (n·DEMAND)), seeds 1..REPEATS. The knee is at
CAP / DEMAND accelerators.
"""
import copy
import json
import sys

template, out, cap, demand = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
counts = [int(c) for c in sys.argv[5].split(",")]
repeats = int(sys.argv[6])
base = json.load(open(template))
wobble = [1.0, 0.996, 1.003, 0.998, 1.002]
for r in range(repeats):
    for n in counts:
        j = copy.deepcopy(base)
        au = min(1.0, cap / (n * demand))
        per = j["summary"]["samples_per_s_per_accelerator"] / max(j["summary"]["accelerator_utilization"], 1e-9)
        j["topology"]["accelerators"] = n
        j["config"]["accelerators"] = n
        j["config"]["seed"] = r + 1
        j["run_id"] = f"{r + 1:016x}{n:016x}"  # each made-up run is a run of its own
        j["io"]["max_read_rate"] = cap
        j["command_line"] = ["dlsize", "bench", "--accelerators", str(n), "--seed", str(r + 1)]
        s = j["summary"]
        s.pop("limited_by", None)  # decided again from the figures: capped counts reach the cap
        j["io"].pop("reader_time", None)
        # The made-up client is idle, whatever the machine the template ran on was doing: the
        # cap is the only limit these runs have.
        cpu = s.setdefault("cpu_utilization", {})
        cpu.update({"host": 0.3, "budget_share": 0.1, "budget_cores": 2.0})
        s["read_bytes_per_s"] = min(n * demand, cap) * wobble[r % len(wobble)]
        s["accelerator_utilization"] = au
        s["storage_au"] = au  # no allreduce: the verdict's AU is AU
        s["au_pass"] = au >= s["au_threshold"]
        s["samples_per_s_per_accelerator"] = per * au
        s["samples_per_s"] = n * per * au
        s["demand_bytes_per_s_per_accelerator"] = demand
        json.dump(j, open(f"{out}/n{n}-r{r + 1}.json", "w"), indent=1)
