#!/usr/bin/env bash
# dlsize's reader against fio's io_uring engine on the same files, back to back, several runs
# each, with the same request size, queue depth, O_DIRECT and reader count. Prints medians and
# the ratios dlsize/fio of bandwidth (or files/s) and of CPU seconds per GiB.
#   (a) shard files read sequentially, 1 MiB requests, queue depth 16 and 32
#   (b) 112 KiB files read whole in random order, one request each: dlsize keeping files open
#       (as fio does) and opening each per sample (as framework loaders do)
# Usage: scripts/bench-vs-fio.sh [SCRATCH_DIR]   env: RUNS (5), SHARD_SIZE (2GiB), FILES_SIZE (1GiB)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --bench
scripts/build.sh >/dev/null
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
scratch=${1:-bench-data}
runs=${RUNS:-5}
mkdir -p "$scratch"
ulimit -n 65536 2>/dev/null || true

# A file-per-sample profile with 112 KiB samples, so both tools read each file in one
# block-aligned request.
cat >"$scratch/files112k.json" <<'JSON'
{"name": "files112k", "description": "ImageNet-like files of 112 KiB (bench-vs-fio)",
 "dataset": {"layout": "files", "format": "jpeg", "sample_bytes": {"mean": 114688, "stdev": 0}}}
JSON
"$dlsize" datagen --workload resnet50 --dataset "$scratch/shards" --size "${SHARD_SIZE:-2GiB}" --quiet
"$dlsize" datagen --workload "$scratch/files112k.json" --dataset "$scratch/files" --size "${FILES_SIZE:-1GiB}" --quiet

results=$scratch/results.tsv
: >"$results"
rm -f "$scratch"/a*-dlsize-*.json "$scratch"/b-*-dlsize-*.json
source scripts/timed.sh  # the folder is the repo root here (cd above)
fio_common=(--ioengine=io_uring --direct=1 --numjobs=1 --thread --fixedbufs=1 --registerfiles=1
            --output-format=json --group_reporting)
for run in $(seq 1 "$runs"); do
  for qd in 16 32; do
    timed "a-qd$qd fio" "$run" "$scratch/a$qd-fio-$run.json" \
      fio --output="$scratch/a$qd-fio-$run.json" --name=seq --opendir="$scratch/shards/data" --rw=read --bs=1M --iodepth=$qd \
          --file_service_type=sequential "${fio_common[@]}"
    timed "a-qd$qd dlsize" "$run" "$scratch/a$qd-dlsize-$run.out" \
      "$dlsize" bench --workload resnet50 --dataset "$scratch/shards" --shard-read stream \
          --request-size 1MiB --queue-depth $qd --readers 1 --cache direct --open keep --quiet \
          --seed "$run" --out "$scratch/a$qd-dlsize-$run.json"
  done
  timed "b fio" "$run" "$scratch/b-fio-$run.json" \
    fio --output="$scratch/b-fio-$run.json" --name=files --opendir="$scratch/files/data" --rw=read --bs=112k --iodepth=16 \
        --file_service_type=random "${fio_common[@]}"
  for open in keep per-sample; do
    timed "b-$open dlsize" "$run" "$scratch/b-$open-dlsize-$run.out" \
      "$dlsize" bench --workload "$scratch/files112k.json" --dataset "$scratch/files" \
          --request-size 112KiB --queue-depth 16 --readers 1 --cache direct --open $open --quiet \
          --seed "$run" --out "$scratch/b-$open-dlsize-$run.json"
  done
done

python3 scripts/bench_vs_fio_table.py "$results"
