#!/usr/bin/env bash
# dlsize's s3 engine against its peers on the same objects of the same radosgw, back to back:
# dlsize bench (storage only, 1 reader, --queue-depth C), Debian's boto3 (/usr/bin/python3;
# get_object per object from a thread pool of C) and C parallel `curl --aws-sigv4` processes
# (each its share of the keys over one kept-alive connection). Prints medians of bytes/s, client
# CPU seconds per GiB and samples per CPU second, and the ratios the goal is about (dlsize ≤ 1/5
# of boto3's CPU per GiB, ≥ 0.95× parallel curl's bandwidth). CPU: dlsize and curl whole
# processes (/usr/bin/time, children included); boto3 the downloads alone (getrusage in the
# process, after its imports).
# Usage: scripts/bench-s3.sh [SCRATCH_DIR]
#   env: RUNS (5), OBJECTS (2048), OBJECT_SIZE (131072), CONCURRENCY (8); with AWS_ENDPOINT_URL_S3
#   and the AWS_ keys set, that server is used; else scripts/s3-server.sh starts one under SCRATCH.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(realpath -m "${1:-bench-data/s3}")
runs=${RUNS:-5}
objects=${OBJECTS:-2048}
size=${OBJECT_SIZE:-131072}
conc=${CONCURRENCY:-8}
source scripts/s3_bench_setup.sh
bucket=dlsize-bench-s3-$$
s3_bucket "$bucket"

cat >"$scratch/objects.json" <<JSON
{"name": "objects", "description": "objects of $size bytes (bench-s3)",
 "dataset": {"layout": "files", "format": "jpeg", "sample_bytes": {"mean": $size, "stdev": 0}}}
JSON
"$dlsize" datagen --workload "$scratch/objects.json" --dataset "s3://$bucket/ds" --files "$objects" \
  --s3-endpoint "$ep" --quiet
/usr/bin/python3 scripts/bench_s3_peers.py keys "$ep" "$bucket" ds "$scratch/keys.txt"

results=$scratch/results.tsv
: >"$results"
source scripts/timed.sh
for run in $(seq 1 "$runs"); do
  timed dlsize "$run" "$scratch/dlsize-$run.json" \
    "$dlsize" bench --workload "$scratch/objects.json" --dataset "s3://$bucket/ds" --s3-endpoint "$ep" \
    --accelerator none --readers 1 --queue-depth "$conc" --quiet --out "$scratch/dlsize-$run.json" \
    --stall-timeout 0
  rm -f "$scratch/dlsize-$run.json"
  timed curl "$run" - /usr/bin/python3 scripts/bench_s3_peers.py curl "$ep" "$bucket" "$scratch/keys.txt" "$conc"
  # boto3's own figures (wall, user, sys of the downloads) replace /usr/bin/time's.
  /usr/bin/python3 scripts/bench_s3_peers.py boto3 "$ep" "$bucket" "$scratch/keys.txt" "$conc" >"$scratch/boto3.txt"
  read -r wall user sys total <"$scratch/boto3.txt"
  [[ $total == $((objects * size)) ]] || { echo "bench-s3: boto3 read $total bytes" >&2; exit 1; }
  printf 'boto3\t%s\t%s %s %s\t-\n' "$run" "$wall" "$user" "$sys" >>"$results"
done
echo "bench-s3: $objects objects of $size bytes, concurrency $conc, $(nproc) CPUs, $(date -u +%F)"
/usr/bin/python3 scripts/bench_s3_peers.py table "$results" $((objects * size)) "$objects"
