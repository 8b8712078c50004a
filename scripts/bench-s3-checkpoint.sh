#!/usr/bin/env bash
# dlsize checkpoint --dir s3://… against boto3's multipart upload of the same bytes, back to back
# on the same radosgw: dlsize writes one checkpoint of a scaled llama3-8b on one rank (--writes 1
# --reads 0; --s3-part-size P, --queue-depth C parts in flight); boto3 (Debian's, /usr/bin/python3)
# uploads the shard dlsize wrote, read into memory first, with upload_fileobj and
# TransferConfig(multipart_chunksize=P, max_concurrency=C). Prints medians of bandwidth and client
# CPU seconds per GiB, and the ratios the goal is about (dlsize ≤ 1/5 of boto3's CPU per GiB,
# ≥ 0.95× its bandwidth). dlsize: bandwidth of its upload phase (the report's write duration),
# CPU of the whole process (/usr/bin/time: start-up, the 64 MiB pool of random bytes, making the
# blocks, CRC32C included, the manifest and the clean-up too) and, as dlsize-upload, its writer
# thread's alone (the report's write cpu_s); boto3: the upload alone, wall and getrusage in the
# process.
# Usage: scripts/bench-s3-checkpoint.sh [SCRATCH_DIR]
#   env: RUNS (5), SCALE (0.005: 537.6 MiB), PART_SIZE (16MiB), CONCURRENCY (4); with
#   AWS_ENDPOINT_URL_S3 and the AWS_ keys set, that server is used; else scripts/s3-server.sh
#   starts one under SCRATCH. radosgw frees deleted objects only at its garbage collection: with
#   S3_SERVER_DIR (an external server's scripts/s3-server.sh folder) or a server started here,
#   it is run after every upload, else the 2 GiB of the test server's memstore fill up.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(realpath -m "${1:-bench-data/s3-checkpoint}")
runs=${RUNS:-5}
scale=${SCALE:-0.005}
part=${PART_SIZE:-16MiB}
conc=${CONCURRENCY:-4}
source scripts/s3_bench_setup.sh
bucket=ck-bench-$$
s3_bucket "$bucket"
part_bytes=$(numfmt --from=iec-i "${part%B}")
ck=("$dlsize" checkpoint --workload llama3-8b --scale "$scale" --s3-part-size "$part"
  --queue-depth "$conc" --writes 1 --reads 0 --stall-timeout 0 --quiet --s3-endpoint "$ep")
# The bytes boto3 uploads: a shard dlsize wrote, kept.
"${ck[@]}" --dir "s3://$bucket/source" --keep --out "$scratch/source.json"
source_key=source/checkpoint-000001/rank-00000.file-000.shard

results=$scratch/results.txt
: >"$results"
for run in $(seq 1 "$runs"); do
  /usr/bin/time -f "%e %U %S" -o "$scratch/time.txt" "${ck[@]}" --dir "s3://$bucket/run-$run" \
    --out "$scratch/dlsize-$run.json"
  read -r _wall user sys <"$scratch/time.txt"
  read -r bytes seconds writer_cpu < <(/usr/bin/python3 -c "import json,sys
c = json.load(open(sys.argv[1]))['checkpoint']
print(c['bytes_per_checkpoint'], c['write']['duration_s']['mean'], c['write']['cpu_s'])" \
    "$scratch/dlsize-$run.json")
  echo "dlsize $run $seconds $(echo "$user + $sys" | bc) $bytes" >>"$results"
  echo "dlsize-upload $run $seconds $writer_cpu $bytes" >>"$results"
  s3_gc
  /usr/bin/python3 scripts/bench_s3_checkpoint_peer.py upload "$ep" "$bucket" "$source_key" \
    "boto3-$run" "$part_bytes" "$conc" >"$scratch/boto3.txt"
  read -r wall user sys bytes_b <"$scratch/boto3.txt"
  [[ $bytes_b == "$bytes" ]] || { echo "bench-s3-checkpoint: boto3 uploaded $bytes_b bytes, dlsize $bytes" >&2; exit 1; }
  echo "boto3 $run $wall $(echo "$user + $sys" | bc) $bytes_b" >>"$results"
  s3_gc
done
echo "bench-s3-checkpoint: llama3-8b --scale $scale ($bytes bytes), part $part, $conc in flight, $(nproc) CPUs, $(date -u +%F)"
/usr/bin/python3 scripts/bench_s3_checkpoint_peer.py table "$results"
