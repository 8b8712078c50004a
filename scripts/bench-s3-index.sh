#!/usr/bin/env bash
# The listing rate of `dlsize index s3://… --metadata-only` against Debian's boto3
# (/usr/bin/python3) listing the same bucket, back to back: one list_objects_v2 paginator over the
# whole prefix (what `aws s3 ls --recursive` does) and THREADS threads of paginators, one a
# common prefix found with Delimiter / (what dlsize does, with its --threads THREADS). Prints a
# markdown table of medians: objects listed per second, client CPU seconds and objects per CPU
# second. CPU: dlsize the whole process (/usr/bin/time; it also writes and fsyncs its index);
# boto3 the listing alone (getrusage in the process, after its imports and client).
# Usage: scripts/bench-s3-index.sh [SCRATCH_DIR]
#   env: RUNS (5), PREFIXES (100), PER_PREFIX (200), THREADS (8); with AWS_ENDPOINT_URL_S3 and the
#   AWS_ keys set, that server is used; else scripts/s3-server.sh starts one under SCRATCH.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(realpath -m "${1:-bench-data/s3-index}")
runs=${RUNS:-5}
prefixes=${PREFIXES:-100}
per=${PER_PREFIX:-200}
threads=${THREADS:-8}
objects=$((prefixes * per))
source scripts/s3_bench_setup.sh
bucket=dlsize-bench-s3-index-$$
sign=(--aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY"
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
s3_bucket "$bucket"

# The objects (1 byte each; a listing does not read them), by one curl of 16 parallel PUTs.
printf x >"$scratch/obj"
for p in $(seq 1 "$prefixes"); do for o in $(seq 1 "$per"); do
  printf 'url = "%s/%s/ds/p%04d/o%05d.bin"\nupload-file = "%s"\noutput = "/dev/null"\n' \
    "$ep" "$bucket" "$p" "$o" "$scratch/obj"
done; done >"$scratch/put.cfg"
curl -sf -Z --parallel-max 16 "${sign[@]}" -K "$scratch/put.cfg" 2>/dev/null

results=$scratch/results.tsv
: >"$results"
source scripts/timed.sh
# boto3 NAME THREADS RUN: one boto3 listing, its own figures (wall, user, sys of the listing).
boto3() {
  /usr/bin/python3 scripts/bench_s3_peers.py list "$ep" "$bucket" ds "$2" >"$scratch/boto3.txt"
  read -r wall user sys count <"$scratch/boto3.txt"
  [[ $count == "$objects" ]] || { echo "bench-s3-index: $1 listed $count objects" >&2; exit 1; }
  printf '%s\t%s\t%s %s %s\t-\n' "$1" "$3" "$wall" "$user" "$sys" >>"$results"
}
for run in $(seq 1 "$runs"); do
  rm -f "$scratch/index.json" "$scratch/index.json.resume"
  timed dlsize "$run" "$scratch/index.json" "$dlsize" index "s3://$bucket/ds" --metadata-only \
    --threads "$threads" --out "$scratch/index.json" --s3-endpoint "$ep"
  grep -q "ds: $objects objects" "$scratch/err.txt" "$scratch/stdout.txt" ||
    { echo "bench-s3-index: dlsize did not list $objects objects: $(cat "$scratch/err.txt")" >&2; exit 1; }
  boto3 boto3-paginator 0 "$run"
  boto3 "boto3-${threads}-threads" "$threads" "$run"
done
echo "bench-s3-index: $objects objects over $prefixes prefixes, $threads threads, $(nproc) CPUs," \
  "$(date -u +%F)"
/usr/bin/python3 scripts/bench_s3_peers.py list-table "$results" "$objects"
