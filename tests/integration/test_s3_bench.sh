#!/usr/bin/env bash
# bench of a dataset in a bucket (radosgw, the CTest fixture s3), through the fault proxy
# (s3_fault_proxy.py): the s3 engine's own tests ([.s3-engine]); a storage-only run whose 503s
# are retried and counted in storage.s3; records of shards read by range GETs and verified, and
# whole shards resumed after resets mid-body, verified; emulated training (AU) on 2 MPI ranks
# whose resets are retried; a stalled GET that ends the run incomplete within --stall-timeout,
# naming the object; compare of the S3 run against a file run of the same load (two backends);
# and the file options refused (exit 2, named). About 16 to 25 s on 2 loaded cores.
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3
ep=$DLSIZE_S3_ENDPOINT
bucket=dlsize-bench-$$-$RANDOM
sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD"
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY")
[[ $(curl -s -o /dev/null -w '%{http_code}' "${sign[@]}" -X PUT "$ep/$bucket") == 200 ]] \
  || { fail "cannot create bucket $bucket"; finish; exit 1; }

# The engine's own tests: whole objects and ranges, bytes and figures, a rate cap, a stop.
if out=$("$DLSIZE_UNIT_TESTS" "[.s3-engine]" 2>&1); then
  pass "the s3 engine's tests against radosgw: $(echo "$out" | tail -1)"
else
  fail "the s3 engine's tests against radosgw:"
  echo "$out"
fi

trap 'for p in "${proxies[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$SCRATCH"' EXIT

data=(--workload resnet50 --layout files --files 24 --quiet)
"$DLSIZE" datagen "${data[@]}" --dataset "s3://$bucket/r50" --s3-endpoint "$ep" >/dev/null \
  && "$DLSIZE" datagen "${data[@]}" --dataset "$SCRATCH/r50" >/dev/null \
  || { fail "datagen of the bucket's and the folder's dataset"; finish; exit 1; }
key=r50/data/00000/file-00000005.rec

# Storage only, 2 epochs, with three 503 SlowDown answers for one object: retried, counted.
proxy "503:file-00000005:3"
storage=(bench --workload resnet50 --accelerator none --queue-depth 4 --readers 2 --quiet)
expect_rc 0 "storage-only bench of s3://$bucket/r50 through the proxy" -- \
  "$DLSIZE" "${storage[@]}" --epochs 2 --dataset "s3://$bucket/r50" --s3-endpoint "$PROXY" \
  --out "$SCRATCH/s3.json"
check=$(json "$SCRATCH/s3.json" "(r['status'], r['io']['engine'], r['storage']['s3']['retries'],
  r['storage']['s3']['retries_by_cause'], r['storage']['s3']['requests'],
  r['storage']['s3']['bytes'] == r['summary']['read_bytes'], r['summary']['samples'],
  r['storage']['s3']['bucket'], r['storage']['s3']['server'],
  r['storage']['s3']['connections_opened'] <= 8, r['storage']['s3']['first_byte']['count'],
  r['io']['cache_mode'])")
[[ $check == "('complete', 's3', 3, {'503': 3}, 51, True, 48, '$bucket', 's3_fault_proxy', True, 51, 'none')" ]] \
  && pass "storage.s3: 3 retries of 503, 48 + 3 requests, bytes as read, the Server header, kept-alive connections, no client cache" \
  || fail "storage.s3: $check"
[[ $(grep -c "^503 .*$key" "$PLOG") == 3 ]] && pass "the proxy answered 503 three times" \
  || fail "proxy log: $(cat "$PLOG")"

# Records of shards are byte-range GETs, one per record; every record verified.
"$DLSIZE" datagen --workload resnet50 --layout shards --records-per-file 16 --files 3 --quiet \
  --dataset "s3://$bucket/shards" --s3-endpoint "$ep" >/dev/null || fail "datagen of shards"
expect_rc 0 "storage-only --verify of shards by record" -- "$DLSIZE" "${storage[@]}" --verify \
  --dataset "s3://$bucket/shards" --s3-endpoint "$ep" --out "$SCRATCH/shards.json"
check=$(json "$SCRATCH/shards.json" "(r['verify']['records_checked'], r['verify']['mismatches'],
  r['storage']['s3']['requests'])")
[[ $check == "(48, 0, 48)" ]] && pass "48 records, each its own range GET, verified" \
  || fail "shards: $check"
# Whole shards streamed, one reset 3 times mid-body: each retry resumes by a range GET after the
# bytes already handed on, and every record still verifies.
proxy "reset:shards/data/00000/file-00000001:3"
expect_rc 0 "storage-only --verify of streamed shards through resets" -- "$DLSIZE" "${storage[@]}" \
  --verify --shard-read stream --dataset "s3://$bucket/shards" --s3-endpoint "$PROXY" \
  --out "$SCRATCH/resumed.json"
check=$(json "$SCRATCH/resumed.json" "(r['verify']['records_checked'], r['verify']['mismatches'],
  r['storage']['s3']['retries_by_cause'], r['storage']['s3']['requests'])")
[[ $check == "(48, 0, {'reset': 3}, 6)" ]] \
  && pass "3 resets resumed by range GETs, 48 records verified" || fail "resumed: $check"

# The same load from the folder: compare keeps the two backends apart.
expect_rc 0 "storage-only bench of the folder" -- "$DLSIZE" "${storage[@]}" --epochs 2 \
  --dataset "$SCRATCH/r50" --cache buffered --out "$SCRATCH/file.json"
expect_rc 0 "compare the S3 run and the file run" -- "$DLSIZE" compare "$SCRATCH/s3.json" \
  "$SCRATCH/file.json" --out "$SCRATCH/cmp.json"
check=$(json "$SCRATCH/cmp.json" "len(r['backends'])")
[[ $check == 2 ]] && pass "compare: two backends" || fail "compare: $check backends"

# Emulated training, 2 MPI ranks (each its own engine; the job's storage.s3 adds both up), with
# two resets mid-body of one object: resumed, counted, AU reported.
proxy "reset:r50/data/00000/file-00000007:2"
train=(bench --workload resnet50 --accelerator emulated:h100 --batch-size 4 --compute-time 5ms
  --queue-depth 4 --quiet --dataset "s3://$bucket/r50" --s3-endpoint "$PROXY")
if version_has "mpi: yes" && [[ -n ${DLSIZE_MPIEXEC:-} ]]; then
  ranks=2
  expect_rc 0 "training over S3 on 2 MPI ranks through the proxy" -- timeout -k 5 60 \
    "$DLSIZE_MPIEXEC" -np 2 "$DLSIZE" "${train[@]}" --accelerators-per-rank 1 --out "$SCRATCH/train.json"
else
  ranks=1
  skip_part "2 MPI ranks: this build has no MPI (one rank instead)"
  expect_rc 0 "training over S3 through the proxy" -- "$DLSIZE" "${train[@]}" --accelerators 1 \
    --out "$SCRATCH/train.json"
fi
check=$(json "$SCRATCH/train.json" "(r['status'], r['topology']['ranks'],
  r['summary']['accelerator_utilization'] > 0, r['storage']['s3']['retries_by_cause'],
  r['storage']['s3']['requests'], r['summary']['samples'])")
[[ $check == "('complete', $ranks, True, {'reset': 2}, 26, 24)" ]] \
  && pass "training on $ranks rank(s): AU measured, 2 resets retried, 24 + 2 requests over the ranks" \
  || fail "training: $check"

# A GET that stalls: the run stops within --stall-timeout, incomplete, naming the object.
proxy "stall:file-00000003:1:60"
t0=$(date +%s)
expect_rc 1 "a stalled GET stops the run" -- "$DLSIZE" "${storage[@]}" --dataset "s3://$bucket/r50" \
  --s3-endpoint "$PROXY" --stall-timeout 1s --out "$SCRATCH/stall.json"
took=$(($(date +%s) - t0))
((took < 10)) && pass "stopped after $took s" || fail "took $took s to stop"
check=$(json "$SCRATCH/stall.json" "(r['status'], 's3://$bucket/r50/data/00000/file-00000003.rec' in r['reason'],
  r['storage']['s3']['bucket'], r['storage']['s3']['requests'] > 0)")
[[ $check == "('incomplete', True, '$bucket', True)" ]] && pass "incomplete report naming the stalled object, with what storage.s3 counted" \
  || fail "stall report: $check $(json "$SCRATCH/stall.json" "r.get('reason')")"

# A sweep of the bucket (its bench keys pass the S3 options on), sized: the backend keeps its
# object-store identity.
cat >"$SCRATCH/sweep.json" <<EOF
{"bench": {"workload": "resnet50", "dataset": "s3://$bucket/r50", "s3-endpoint": "$ep",
           "accelerator": "emulated:h100", "batch-size": 4, "compute-time": "1ms", "epochs": 1},
 "accelerators": [1, 2], "repeats": 1}
EOF
expect_rc 0 "a sweep of an S3 dataset" -- "$DLSIZE" sweep --config "$SCRATCH/sweep.json" --out "$SCRATCH/sweep"
check=$(json "$SCRATCH/sweep/reports/n2-r1.json" "(r['status'], r['io']['engine'], r['storage']['s3']['bucket'])")
[[ $check == "('complete', 's3', '$bucket')" ]] && pass "the sweep's points read the bucket" || fail "sweep point: $check"
expect_rc 0 "size of the S3 sweep" -- "$DLSIZE" size "$SCRATCH/sweep/reports" --out "$SCRATCH/size"
grep -q "s3=\\[endpoints=$ep;bucket=$bucket" "$SCRATCH/size.json" && pass "size keeps the object-store identity" \
  || fail "sizing identity: $(grep -o '"backend_identity": "[^"]*"' "$SCRATCH/size.json" | head -2)"

# Options of files mean nothing for objects: refused, named.
s3ds=(--dataset "s3://$bucket/r50" --s3-endpoint "$ep")
for opt in "--cache buffered" "--client-ram 1GiB" "--open per-sample" "--engine psync"; do
  expect_rc 2 "bench $opt with an s3:// dataset is refused" -- "$DLSIZE" "${storage[@]}" \
    "${s3ds[@]}" $opt --out "$SCRATCH/refused.json"
  expect_text "${opt%% *}" "the refusal names ${opt%% *}"
done
finish
