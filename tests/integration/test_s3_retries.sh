#!/usr/bin/env bash
# The one S3 retry policy in every command (radosgw, the CTest fixture s3, behind the fault proxy
# s3_fault_proxy.py): datagen, verify, bench, index and checkpoint each pass through a 503
# SlowDown on every third request of each kind (GET, HEAD, LIST, PUT, multipart requests,
# DELETE), and through bodies cut short, longer than asked and uploads cut mid-body, with every
# retry counted by cause and every byte verified. About 15 s on 2 loaded cores.
# labels: s3
source "$(dirname "$0")/lib.sh"
s3_bucket retry
# served KIND: how many faults of KIND the last proxy served.
served() { grep -c "^$1 " "$PLOG"; }

data=(--workload resnet50 --layout files --files 24 --quiet)
storage=(bench --workload resnet50 --accelerator none --queue-depth 4 --readers 2 --quiet)
ck=(checkpoint --workload llama3-8b --scale 0.0001 --s3-part-size 5MiB --queue-depth 4 --quiet
  --writes 1 --reads 1)

# A 503 SlowDown on every third request of each kind, for every command.
proxy "503every::3"
expect_rc 0 "datagen through a 503 on every third request" -- "$DLSIZE" datagen "${data[@]}" \
  --dataset "s3://$bucket/e" --s3-endpoint "$PROXY"
expect_text "(503: " "datagen counts its retries by cause"
expect_rc 0 "verify through a 503 on every third request" -- "$DLSIZE" verify "s3://$bucket/e" \
  --s3-endpoint "$PROXY" --quiet
expect_text "24 records checked" "verify checked every record"
expect_text "(503: " "verify counts its retries by cause"
expect_rc 0 "bench through a 503 on every third request" -- "$DLSIZE" "${storage[@]}" \
  --dataset "s3://$bucket/e" --s3-endpoint "$PROXY" --out "$SCRATCH/e.json"
check=$(json "$SCRATCH/e.json" "(r['status'], r['summary']['samples'], '503' in r['storage']['s3']['retries_by_cause'],
  r['storage']['s3']['other_requests']['retries_by_cause'].get('503', 0) + r['storage']['s3']['retries'] > 0,
  r['storage']['s3']['max_retries'], r['storage']['s3']['retry_budget_s'])")
[[ $check == "('complete', 24, True, True, 9, 30.0)" ]] \
  && pass "bench: complete, retries by cause in storage.s3, the policy stated" || fail "bench: $check"
expect_rc 0 "index through a 503 on every third request" -- "$DLSIZE" index "s3://$bucket/e" \
  --s3-endpoint "$PROXY" --out "$SCRATCH/e.index" --quiet
check=$(json <(head -1 "$SCRATCH/e.index") "(r['counts']['files'], r['requests']['retries'] > 0)")
[[ $check == "(25, True)" ]] && pass "index: every object, its retries counted" || fail "index: $check"
expect_rc 0 "checkpoint through a 503 on every third request" -- "$DLSIZE" "${ck[@]}" \
  --dir "s3://$bucket/ce" --s3-endpoint "$PROXY" --out "$SCRATCH/ce.json"
check=$(json "$SCRATCH/ce.json" "(r['status'], r['checkpoint']['read']['verify']['blocks'],
  '503' in r['checkpoint']['s3']['write']['retries_by_cause'],
  '503' in r['checkpoint']['s3']['read']['retries_by_cause'],
  r['checkpoint']['s3']['write']['other_requests']['requests'] > 0)")
[[ $check == "('complete', 11, True, True, True)" ]] \
  && pass "checkpoint: complete, 11 blocks verified, the writes' and reads' retries counted" \
  || fail "checkpoint: $check"
(($(served 503every) >= 20)) && pass "the proxy answered $(served 503every) SlowDowns" \
  || fail "proxy log: $(cat "$PLOG")"

# Bodies cut short (FIN after half) and longer than asked, for the readers: each GET resumed
# from the byte it reached (a range GET), or asked again; every record verified.
cut_get=("short:GET /$bucket/e/dlsize-dataset.json:1" "short:GET /$bucket/e/data/00000/file-00000005:2"
  "long:GET /$bucket/e/data/00000/file-00000006:1")
proxy "${cut_get[@]}"
expect_rc 0 "verify through cut and over-long bodies" -- "$DLSIZE" verify "s3://$bucket/e" \
  --s3-endpoint "$PROXY" --quiet
expect_text "(cut: 3, long: 1)" "verify retried 3 cut bodies and an over-long one"
[[ $(served short) == 3 && $(served long) == 1 ]] && pass "the proxy cut 3 bodies and lengthened one" \
  || fail "proxy log: $(cat "$PLOG")"
proxy "${cut_get[@]}"
expect_rc 0 "bench --verify through cut and over-long bodies" -- "$DLSIZE" "${storage[@]}" --verify \
  --dataset "s3://$bucket/e" --s3-endpoint "$PROXY" --out "$SCRATCH/cut.json"
check=$(json "$SCRATCH/cut.json" "(r['status'], r['verify']['records_checked'], r['verify']['mismatches'],
  r['storage']['s3']['retries_by_cause'], r['storage']['s3']['other_requests']['retries_by_cause'])")
[[ $check == "('complete', 24, 0, {'cut': 2, 'long': 1}, {'cut': 1})" ]] \
  && pass "bench: 24 records verified, the manifest's and the data's cuts retried" || fail "bench: $check"
# Each cut GET resumed from the byte it reached: no byte handed on twice.
check=$(json "$SCRATCH/cut.json" "r['storage']['s3']['bytes'] == r['summary']['read_bytes'] == r['dataset']['bytes']")
[[ $check == True ]] && pass "bench: every byte handed on once" || fail "bench bytes: $check"
proxy "${cut_get[@]}"
expect_rc 0 "index through cut and over-long bodies" -- "$DLSIZE" index "s3://$bucket/e" \
  --s3-endpoint "$PROXY" --out "$SCRATCH/cut.index" --quiet
check=$(json <(head -1 "$SCRATCH/cut.index") "(r['counts']['files'], r['counts'].get('skipped', {}),
  r['requests']['retries'])")
[[ $check == "(25, {}, 4)" ]] && pass "index: every object probed, 4 retries" || fail "index: $check"

# Uploads cut mid-body (datagen's objects and journal, checkpoint's parts) and a cut restore.
proxy "cut:PUT /$bucket/u/dlsize-datagen-journal.json:1" "cut:PUT /$bucket/u/data/00000/file-00000003:1"
expect_rc 0 "datagen through cut uploads" -- "$DLSIZE" datagen "${data[@]}" \
  --dataset "s3://$bucket/u" --s3-endpoint "$PROXY"
expect_text "(reset: 2)" "datagen retried the 2 cut uploads"
expect_rc 0 "the dataset written through cut uploads verifies" -- "$DLSIZE" verify "s3://$bucket/u" \
  --s3-endpoint "$ep" --quiet
proxy "cut:PUT /$bucket/cc/checkpoint-000001/rank-00000.file-000.shard?partNumber=1&:1" \
  "short:GET /$bucket/cc/checkpoint-000001/rank-00000.file-000.shard:1"
expect_rc 0 "checkpoint through a cut part and a cut restore" -- "$DLSIZE" "${ck[@]}" \
  --dir "s3://$bucket/cc" --s3-endpoint "$PROXY" --out "$SCRATCH/cc.json"
check=$(json "$SCRATCH/cc.json" "(r['status'], r['checkpoint']['read']['verify']['blocks'],
  r['checkpoint']['read']['verify']['mismatches'], r['checkpoint']['s3']['write']['retries_by_cause'],
  r['checkpoint']['s3']['read']['retries_by_cause'])")
[[ $check == "('complete', 11, 0, {'reset': 1}, {'cut': 1})" ]] \
  && pass "checkpoint: the part sent again, the restore resumed, 11 blocks verified" \
  || fail "checkpoint: $check; proxy: $(cat "$PLOG")"
finish
