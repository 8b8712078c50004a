#!/usr/bin/env bash
# bench through an index of foreign files against bench on a dataset that datagen made from the
# index's own profile (index stats --emit-workload: the same file count and size histogram),
# storage only, O_DIRECT, alternating, several runs each. The two should agree within noise:
# reading a user's files costs what reading dlsize's own does. Prints medians and the ratios.
# Usage: scripts/bench-index-vs-generated.sh [SCRATCH_DIR]   env: FILES (4000), RUNS (5),
#        READERS (2)
set -euo pipefail
cd "$(dirname "$0")/.."
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
scratch=${1:-bench-data/index-vs-gen}
files=${FILES:-4000} runs=${RUNS:-5} readers=${READERS:-2}
[[ -x $dlsize ]] || scripts/build.sh >/dev/null
mkdir -p "$scratch"
tree=$scratch/tree-$files
if [[ ! -e $tree/.complete ]]; then
  /usr/bin/python3 - "$tree" "$files" <<'PYEOF'
import os, random, sys
tree, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(16)
for i in range(n):
    d = os.path.join(tree, "class%02d" % (i % 10))
    os.makedirs(d, exist_ok=True)
    # ImageNet-like sizes: log-normal around 110 KB, a long tail, JPEG headers.
    size = int(min(2e6, max(2000, rnd.lognormvariate(11.5, 0.5))))
    with open(os.path.join(d, "img%06d.jpg" % i), "wb") as f:
        f.write(b"\xff\xd8\xff\xc0\x00\x11\x08\x01\x00\x01\x00\x03" + os.urandom(size))
open(os.path.join(tree, ".complete"), "w").close()
PYEOF
fi
rm -f "$scratch"/index.json "$scratch"/shape.json "$scratch"/run-*.json
"$dlsize" index "$tree" --out "$scratch/index.json" --exclude .complete --quiet >/dev/null
"$dlsize" index stats "$scratch/index.json" --emit-workload "$scratch/shape.json" >/dev/null
[[ -e $scratch/gen/dlsize-dataset.json ]] ||
  "$dlsize" datagen --workload "$scratch/shape.json" --dataset "$scratch/gen" --files "$files" --quiet
common=(--accelerator none --readers "$readers" --queue-depth 16 --quiet)
for r in $(seq 1 "$runs"); do
  "$dlsize" bench --index "$scratch/index.json" --workload resnet50 --seed "$r" "${common[@]}" --out "$scratch/run-indexed-$r.json" >/dev/null
  "$dlsize" bench --dataset "$scratch/gen" --workload "$scratch/shape.json" --seed "$r" "${common[@]}" --out "$scratch/run-generated-$r.json" >/dev/null
done
/usr/bin/python3 - "$scratch" "$runs" <<'PYEOF'
import json, statistics, sys
scratch, runs = sys.argv[1], int(sys.argv[2])
rows = {}
for kind in ("indexed", "generated"):
    rs = [json.load(open("%s/run-%s-%d.json" % (scratch, kind, r))) for r in range(1, runs + 1)]
    rows[kind] = {
        "bytes": rs[0]["dataset"]["bytes"], "files": rs[0]["dataset"]["files"],
        "samples_s": statistics.median(r["summary"]["samples_per_s"] for r in rs),
        "mib_s": statistics.median(r["summary"]["read_bytes_per_s"] for r in rs) / 2**20,
        "runs": [round(r["summary"]["samples_per_s"]) for r in rs]}
print("| dataset | files | bytes | samples/s (median) | MiB/s read (median) | runs, samples/s |")
print("|---|---|---|---|---|---|")
for k, v in rows.items():
    print("| %s | %d | %d | %.0f | %.1f | %s |" % (k, v["files"], v["bytes"], v["samples_s"], v["mib_s"], ", ".join(map(str, v["runs"]))))
print("\nindexed / generated: samples/s %.3f, MiB/s %.3f" % (
    rows["indexed"]["samples_s"] / rows["generated"]["samples_s"], rows["indexed"]["mib_s"] / rows["generated"]["mib_s"]))
PYEOF
