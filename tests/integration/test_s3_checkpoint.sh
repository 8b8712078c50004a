#!/usr/bin/env bash
# dlsize checkpoint --dir s3://BUCKET/PREFIX against radosgw (the CTest fixture s3): a scaled
# llama3-8b written by multipart uploads on 2 MPI ranks and restored by range GETs, every block
# verified, the objects gone afterwards; --keep then a --writes 0 restore; through the fault proxy
# (s3_fault_proxy.py) a 503 on a part and a reset mid-part retried and counted in checkpoint.s3;
# a stalled part ending the run incomplete, naming the key, with the upload aborted (no object,
# no multipart upload left); --keep-last stopping with exit 2 at an object it did not write,
# which stays; the options that mean nothing for objects refused. About 15 to 20 s.
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3
ep=$DLSIZE_S3_ENDPOINT
bucket=ck-$$-$RANDOM
sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD"
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY")
[[ $(curl -s -o /dev/null -w '%{http_code}' "${sign[@]}" -X PUT "$ep/$bucket") == 200 ]] \
  || { fail "cannot create bucket $bucket"; finish; exit 1; }
# keys PREFIX: the bucket's keys under PREFIX, one a line; uploads: its multipart uploads' keys.
keys() { curl -s "${sign[@]}" "$ep/$bucket?list-type=2&prefix=$1" | grep -o '<Key>[^<]*' | cut -c6-; }
uploads() { curl -s "${sign[@]}" "$ep/$bucket?uploads=" | grep -o '<Key>[^<]*' | cut -c6-; }

trap 'for p in "${proxies[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$SCRATCH"' EXIT

# llama3-8b on one rank, scaled to 10.75 MiB: 3 parts of 5 MiB (the last 0.75 MiB).
ck=(checkpoint --workload llama3-8b --scale 0.0001 --s3-part-size 5MiB --queue-depth 4 --quiet)

# Two writes, --keep-last 1 (the first is deleted when the second lands), one restore verified:
# on 2 MPI ranks (each 5.4 MiB: 2 parts; rank r restores rank r + 1's), else on one.
if version_has "mpi: yes" && [[ -n ${DLSIZE_MPIEXEC:-} ]]; then
  launch=(timeout -k 5 60 "$DLSIZE_MPIEXEC" -np 2 "$DLSIZE")
  want="2, 12, 0, 16, 4, 22548576, 4"
else
  skip_part "2 MPI ranks: this build has no MPI (one rank instead)"
  launch=("$DLSIZE")
  want="1, 11, 0, 10, 3, 22548576, 2"
fi
expect_rc 0 "checkpoint of a scaled llama3-8b to s3://$bucket/a" -- "${launch[@]}" "${ck[@]}" \
  --dir "s3://$bucket/a" --s3-endpoint "$ep" --writes 2 --reads 1 --keep-last 1 --read-shift 1 \
  --out "$SCRATCH/a.json"
check=$(json "$SCRATCH/a.json" "(r['status'], r['checkpoint']['dir'], r['checkpoint']['fs_type'],
  r['checkpoint']['write']['count'], r['checkpoint']['read']['count'], r['checkpoint']['ranks'],
  r['checkpoint']['read']['verify']['blocks'], r['checkpoint']['read']['verify']['mismatches'],
  r['checkpoint']['s3']['write']['requests'], r['checkpoint']['s3']['read']['requests'],
  r['checkpoint']['s3']['write']['bytes'], r['checkpoint']['s3']['upload_time']['count'],
  r['checkpoint']['s3']['part_size'], r['checkpoint']['cache_mode'])")
[[ $check == "('complete', 's3://$bucket/a', 's3', 2, 1, $want, 5242880, 'none')" ]] \
  && pass "2 uploads a rank (create, parts, complete), a range GET per part, every block verified" \
  || fail "checkpoint report: $check"
validate_json "$SCRATCH/a.json"
left=$(keys a)
[[ -z $left && -z $(uploads) ]] && pass "nothing left under s3://$bucket/a (objects and uploads)" \
  || fail "left behind: $left $(uploads)"

# --keep, then a restore of its own (--writes 0), then the prefix is refused for writes.
expect_rc 0 "checkpoint --keep" -- "$DLSIZE" "${ck[@]}" --dir "s3://$bucket/k" --s3-endpoint "$ep" \
  --writes 1 --reads 0 --keep --out "$SCRATCH/keep.json"
[[ $(keys k | tr '\n' ' ') == "k/checkpoint-000001/rank-00000.file-000.shard k/dlsize-checkpoint.json " ]] \
  && pass "--keep leaves the checkpoint and its manifest" || fail "kept: $(keys k)"
expect_rc 0 "a --writes 0 restore from the bucket" -- "$DLSIZE" "${ck[@]}" --dir "s3://$bucket/k" \
  --s3-endpoint "$ep" --writes 0 --reads 1 --out "$SCRATCH/restore.json"
check=$(json "$SCRATCH/restore.json" "(r['status'], r['checkpoint']['read']['verify']['blocks'])")
[[ $check == "('complete', 11)" ]] && pass "restored and verified" || fail "restore: $check"
expect_rc 2 "writing into a prefix that holds a checkpoint is refused" -- "$DLSIZE" "${ck[@]}" \
  --dir "s3://$bucket/k" --s3-endpoint "$ep" --writes 1 --reads 0 --out "$SCRATCH/refused.json"
expect_text "k/dlsize-checkpoint.json" "the refusal names the key found"

# Through the proxy: two 503s on part 2 and a reset mid-part 1, retried and counted.
proxy "503:partNumber=2&:2" "cut:partNumber=1&:1"
expect_rc 0 "checkpoint through 503s and a reset mid-part" -- "$DLSIZE" "${ck[@]}" \
  --dir "s3://$bucket/f" --s3-endpoint "$PROXY" --writes 1 --reads 1 --out "$SCRATCH/f.json"
check=$(json "$SCRATCH/f.json" "(r['status'], r['checkpoint']['read']['verify']['mismatches'],
  r['checkpoint']['read']['verify']['blocks'], r['checkpoint']['s3']['write']['retries_by_cause'],
  r['checkpoint']['s3']['write']['requests'])")
[[ $check == "('complete', 0, 11, {'503': 2, 'reset': 1}, 8)" ]] \
  && pass "3 retried parts counted by cause, 5 + 3 requests, every block verified" \
  || fail "faults: $check; proxy: $(cat "$PLOG")"

# A part that stalls: incomplete within --stall-timeout, naming the key; the upload is aborted.
proxy "stall:partNumber=2&:1:30"
t0=$(date +%s)
expect_rc 1 "a stalled part stops the checkpoint" -- "$DLSIZE" "${ck[@]}" --dir "s3://$bucket/s" \
  --s3-endpoint "$PROXY" --writes 1 --reads 1 --stall-timeout 1s --out "$SCRATCH/s.json"
took=$(($(date +%s) - t0))
((took < 10)) && pass "stopped after $took s" || fail "took $took s to stop"
check=$(json "$SCRATCH/s.json" "(r['status'], 's/checkpoint-000001/rank-00000.file-000.shard' in r['reason'],
  'writing checkpoint 1' in r['reason'])")
[[ $check == "('incomplete', True, True)" ]] && pass "incomplete, naming the phase and the key" \
  || fail "stall report: $check $(json "$SCRATCH/s.json" "r.get('reason')")"
[[ -z $(keys s/checkpoint) && -z $(uploads) ]] \
  && pass "the stalled upload was aborted: no object, no multipart upload" \
  || fail "after the stall: $(keys s) uploads: $(uploads)"

# --keep-last meets an object it did not write (put over checkpoint 1 while checkpoint 2's first
# part stalls): exit 2 naming the key, the object untouched.
proxy "stall:checkpoint-000002/rank-00000.file-000.shard?partNumber=1&:1:3"
foreign=$SCRATCH/foreign
head -c 11274289 /dev/zero >"$foreign"
"$DLSIZE" "${ck[@]}" --dir "s3://$bucket/g" --s3-endpoint "$PROXY" --writes 2 --reads 0 \
  --keep-last 1 --out "$SCRATCH/g.json" >/dev/null 2>"$SCRATCH/g.err" &
pid=$!
key=g/checkpoint-000001/rank-00000.file-000.shard
for _ in $(seq 100); do
  [[ $(curl -s -o /dev/null -w '%{http_code}' "${sign[@]}" -I "$ep/$bucket/$key") == 200 ]] && break
  sleep 0.05
done
curl -s -o /dev/null "${sign[@]}" -T "$foreign" "$ep/$bucket/$key"
wait $pid
rc=$?
[[ $rc == 2 ]] && grep -q "$key" "$SCRATCH/g.err" && pass "--keep-last stops at the foreign object (exit 2, named)" \
  || fail "--keep-last: exit $rc; $(cat "$SCRATCH/g.err")"
curl -s "${sign[@]}" "$ep/$bucket/$key" | cmp -s - "$foreign" && pass "the foreign object is untouched" \
  || fail "the foreign object changed"

# Checkpoints inside a training run (bench --checkpoint-every) to the bucket: 2 of resnet50's
# (10 MB at --checkpoint-scale 0.05), each deleted once written, nothing left.
"$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/ds" --files 8 --records-per-file 4 \
  --quiet >/dev/null || fail "datagen"
expect_rc 0 "training with checkpoints to s3://$bucket/t" -- "$DLSIZE" bench --workload resnet50 \
  --dataset "$SCRATCH/ds" --accelerator emulated:h100 --batch-size 4 --compute-time 1ms --quiet \
  --checkpoint-every 3steps --checkpoint-dir "s3://$bucket/t" --checkpoint-scale 0.05 \
  --s3-endpoint "$ep" --out "$SCRATCH/t.json"
check=$(json "$SCRATCH/t.json" "(r['status'], r['checkpoints']['dir'], r['checkpoints']['count'],
  r['checkpoints']['bytes_per_checkpoint'])")
[[ $check == "('complete', 's3://$bucket/t', 2, 10222812)" ]] \
  && pass "2 checkpoints of 10 MB paused the training" || fail "training checkpoints: $check"
[[ -z $(keys t) && -z $(uploads) ]] && pass "nothing left under s3://$bucket/t" \
  || fail "left behind: $(keys t) $(uploads)"

# Options of files mean nothing for objects: refused, named.
for opt in "--cache buffered" "--drop-caches" "--s3-part-size 3MiB"; do
  expect_rc 2 "checkpoint $opt with --dir s3:// is refused" -- "$DLSIZE" "${ck[@]}" \
    --dir "s3://$bucket/r" --s3-endpoint "$ep" $opt --out "$SCRATCH/refused.json"
  expect_text "${opt%% *}" "the refusal names ${opt%% *}"
done
finish
