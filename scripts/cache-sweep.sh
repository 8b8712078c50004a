#!/usr/bin/env bash
# The cache sweep (docs/performance.md, "Cache and data growth"): datasets of several sizes read
# under one emulated client RAM (bench --client-ram), f = RAM ÷ dataset from about 0.1 to beyond
# 1, buffered reads, several epochs; the hit ratio and storage bytes per accelerator of the warm
# epochs (the cold first one left out) beside the two cache models of docs/sizing.md.
# Usage: scripts/cache-sweep.sh [DLSIZE] [OUT_DIR] [WORK_DIR]
#   DLSIZE   the binary (build/dlsize); OUT_DIR where sweep.json and sweep.md go
#   (results/cache-sweep); WORK_DIR datasets and reports (a new folder under /tmp).
# Each point runs REPEATS (3) times; the tables give medians.
# CLIENT_RAM (128MiB), FRACTIONS ("0.1 0.25 0.5 0.75 0.9 1.5 3"), EPOCHS (4) and ACCELERATORS
# (2 emulated h100, batch 32, compute time COMPUTE_TIME=5ms) may be set in the environment.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dlsize=${1:-$root/build/dlsize}
out=${2:-$root/results/cache-sweep}
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/dlsize-cache-sweep.XXXXXX")}
ram=${CLIENT_RAM:-128MiB}
fractions=${FRACTIONS:-0.1 0.25 0.5 0.75 0.9 1.5 3}
epochs=${EPOCHS:-4}
repeats=${REPEATS:-3}
accelerators=${ACCELERATORS:-2}
compute=${COMPUTE_TIME:-5ms}
ram_mib=$(/usr/bin/python3 -c "import sys; s=sys.argv[1]; assert s.endswith('MiB'); print(int(s[:-3]))" "$ram")
mkdir -p "$work" "$out"
reports=()
for f in $fractions; do
  mib=$(/usr/bin/python3 -c "import sys; print(round(int(sys.argv[1]) / float(sys.argv[2])))" "$ram_mib" "$f")
  ds=$work/ds-${mib}MiB
  # Small shards (64 records, about 7 MB), so that sizes are fine-grained; records are read at
  # random inside them, as a loader does.
  [[ -e $ds/manifest.json ]] ||
    "$dlsize" datagen --workload resnet50 --dataset "$ds" --size "${mib}MiB" --records-per-file 64 --quiet >/dev/null
  for i in $(seq 1 "$repeats"); do
  rep=$work/f$f-r$i.json
  rm -f "$rep"
  "$dlsize" bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 \
    --accelerators "$accelerators" --batch-size 32 --compute-time "$compute" --cache buffered --client-ram "$ram" \
    --epochs "$epochs" --sample-interval 50ms --quiet --label cache-sweep --out "$rep" >/dev/null
  reports+=("$rep")
  done
  echo "cache-sweep: f=$f dataset ${mib}MiB done" >&2
done
/usr/bin/python3 - "$out" "$ram" "$epochs" "$accelerators" "$compute" "${reports[@]}" <<'PY'
import json, math, sys, datetime, platform, statistics
out, ram, epochs, accels, compute, *reports = sys.argv[1:]
# The models of src/analysis/cache_model.hpp, f = cache ÷ dataset.
def never_evict(f): return min(1.0, max(0.0, f))
def lru(f):
    f = never_evict(f)
    return 1.0 if f >= 1 else max(0.0, f + (1 - f) * math.log1p(-f))
runs = []
for path in reports:
    r = json.load(open(path))
    w = r["storage"]["warm_epochs"]
    ce = r["cache_emulation"]
    n = r["topology"]["accelerators"]
    warm_epochs = len(r["epochs"]) - 1
    f = ce["client_ram_bytes"] / r["dataset"]["bytes"]
    warm_s = r["summary"]["wall_s"] - w["from_s"]
    runs.append({
        "f": f, "dataset_bytes": r["dataset"]["bytes"], "client_ram_bytes": ce["client_ram_bytes"],
        "hit_ratio_warm": w["hit_ratio"], "hit_ratio_all_epochs": r["storage"]["hit_ratio"],
        "storage_per_read_byte_warm": w["storage_per_read_byte"],
        "lru_model": lru(f), "never_evict_model": never_evict(f),
        "storage_bytes_per_accelerator_per_epoch": w["storage_read_bytes"] / n / warm_epochs,
        "read_bytes_per_accelerator_per_epoch": w["read_bytes"] / n / warm_epochs,
        "storage_bytes_per_s_per_accelerator": w["storage_read_bytes"] / n / warm_s if warm_s > 0 else None,
        "accelerator_utilization": r["summary"].get("accelerator_utilization"),
        "footprint_bytes_peak": ce["footprint_bytes_peak"], "page_cache_bytes_peak": ce["page_cache_bytes_peak"],
        "report": path.rsplit("/", 1)[-1]})
# Medians over the repeats of each dataset; the runs themselves are kept beside them.
rows = []
for size in sorted({x["dataset_bytes"] for x in runs}):
    rs = [x for x in runs if x["dataset_bytes"] == size]
    row = {k: (statistics.median(x[k] for x in rs) if isinstance(rs[0][k], (int, float)) else rs[0][k])
           for k in rs[0] if k != "report"}
    row["repeats"] = len(rs)
    row["hit_ratio_warm_range"] = [min(x["hit_ratio_warm"] for x in rs), max(x["hit_ratio_warm"] for x in rs)]
    rows.append(row)
doc = {"what": "cache sweep: hit ratio of the warm epochs against f = client RAM / dataset",
       "command": f"scripts/cache-sweep.sh (CLIENT_RAM={ram} EPOCHS={epochs} ACCELERATORS={accels} COMPUTE_TIME={compute})",
       "workload": "resnet50, 64 records per shard, emulated h100, batch 32, --cache buffered",
       "date": datetime.date.today().isoformat(), "kernel": platform.release(), "points": rows,
       "runs": runs}
with open(f"{out}/sweep.json", "w") as fh:
    json.dump(doc, fh, indent=2)
    fh.write("\n")
mib = lambda b: f"{b / 2**20:,.0f}"
lines = [f"# Cache sweep: {ram} client RAM, {epochs} epochs, {accels} accelerators, medians of {rows[0]['repeats']} runs", "",
         f"Command: `{doc['command']}`; {doc['workload']}; kernel {doc['kernel']}; {doc['date']}.",
         "Warm = epochs after the first (cold) one. Models: LRU f + (1 − f)·ln(1 − f), never-evict min(1, f).",
         "No pass/fail: the page cache is neither model.", "",
         "| f | dataset MiB | hit (warm) | hit range | LRU model | never-evict | storage ÷ read (warm) | storage MiB / accel / epoch | storage MB/s / accel |",
         "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
for x in rows:
    bw = x["storage_bytes_per_s_per_accelerator"]
    lines.append(f"| {x['f']:.2f} | {mib(x['dataset_bytes'])} | {x['hit_ratio_warm']:.3f} | "
                 f"{x['hit_ratio_warm_range'][0]:.3f}–{x['hit_ratio_warm_range'][1]:.3f} | {x['lru_model']:.3f} | "
                 f"{x['never_evict_model']:.3f} | {x['storage_per_read_byte_warm']:.3f} | "
                 f"{mib(x['storage_bytes_per_accelerator_per_epoch'])} | {bw / 1e6:,.0f} |")
open(f"{out}/sweep.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
