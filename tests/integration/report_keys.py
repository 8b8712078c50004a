#!/usr/bin/python3
"""Prints every key path of a dlsize report, one a line, sorted: objects as a.b, arrays as a[]
(the union over their elements). Subtrees that depend on the machine (system facts, telemetry
points, meminfo, NVML, mount options) are one path each. With --types (before the file) each path
is followed by its JSON types ("bytes integer", "seconds number", "label null string")."""
import json, sys
SKIP = {"timeseries", "system", "storage.memory_start", "storage.memory_end", "hosts[].memory_end",
        "accelerators[].gpu", "workload.model", "storage.mount", "storage.device", "storage.limits"}
TYPES = "--types" in sys.argv[1:-1]
types = {}
def kind(v):
    if isinstance(v, bool): return "boolean"
    if isinstance(v, int): return "integer"
    if isinstance(v, float): return "number"
    if isinstance(v, str): return "string"
    if v is None: return "null"
    return "array" if isinstance(v, list) else "object"
def walk(v, path, out):
    types.setdefault(path, set()).add(kind(v))
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
walk(json.load(open(sys.argv[-1])), "", out)
print("\n".join(sorted(" ".join([p, *sorted(types.get(p, ()))]) if TYPES else p for p in out)))
