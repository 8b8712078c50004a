#!/usr/bin/python3
"""Prints every key path of a dlsize report, one a line, sorted: objects as a.b, arrays as a[]
(the union over their elements). Subtrees that depend on the machine (system facts, telemetry
points, meminfo, NVML, mount options) are one path each."""
import json, sys
SKIP = {"timeseries", "system", "storage.memory_start", "storage.memory_end", "hosts[].memory_end",
        "accelerators[].gpu", "workload.model", "storage.mount", "storage.device", "storage.limits"}
def walk(v, path, out):
    if path in SKIP:
        out.add(path); return
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, f"{path}.{k}" if path else k, out)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]", out)
        out.add(path + "[]")
    else:
        out.add(path)
out = set()
walk(json.load(open(sys.argv[1])), "", out)
print("\n".join(sorted(out)))
