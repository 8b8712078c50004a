#!/usr/bin/env bash
# A frozen server (the fault proxy in front of radosgw stops answering, and stops every answer in
# flight): bench and checkpoint end at --stall-timeout with an incomplete report naming the phase
# and the object; a checkpoint whose clean-up DELETE is never answered ends within
# --s3-retry-budget + 2 s with an incomplete report (phase clean-up, the key, the error), where
# it used to exit 1 with no report. About 10 s.
# labels: s3
source "$(dirname "$0")/lib.sh"
s3_bucket frozen
s3_resnet50 d 24
ck=(checkpoint --workload llama3-8b --scale 0.0001 --s3-part-size 5MiB --queue-depth 4 --quiet
  --writes 1 --reads 1)

# frozen WHAT RULE SECONDS REPORT TEXT... -- command...: through a proxy with RULE the command
# exits 1 within SECONDS, its report REPORT incomplete with every TEXT in its reason.
frozen() {
  local what=$1 rule=$2 limit=$3 report=$4 texts=()
  shift 4
  while [[ $1 != -- ]]; do texts+=("$1"); shift; done
  shift
  proxy "$rule"
  local t0=$SECONDS
  expect_rc 1 "$what" -- "$@" --s3-endpoint "$PROXY" --out "$report"
  local took=$((SECONDS - t0)) t
  for t in "${texts[@]}"; do
    [[ $(json "$report" "r['status'] == 'incomplete' and '$t' in r['reason']") == True ]] \
      || { fail "$what: not in the reason: '$t': $(json "$report" "r.get('reason')")"; return; }
  done
  ((took < limit)) && pass "$what: incomplete after $took s, its reason naming ${texts[*]}" \
    || fail "$what: took $took s"
}
frozen "bench of a frozen server under --stall-timeout 1s" \
  "freeze:GET /$bucket/d/data/00000/file-00000010:1:30" 8 "$SCRATCH/b.json" "stalled" \
  "s3://$bucket/d/data/" -- "$DLSIZE" bench --workload resnet50 --accelerator none \
  --queue-depth 4 --readers 2 --quiet --epochs 20 --dataset "s3://$bucket/d" --stall-timeout 1s
frozen "checkpoint to a frozen server under --stall-timeout 1s" \
  "freeze:PUT /$bucket/f/checkpoint-000001/rank-00000.file-000.shard?partNumber=2&:1:30" 10 \
  "$SCRATCH/f.json" "writing checkpoint 1" "f/checkpoint-000001/rank-00000.file-000.shard" \
  -- "$DLSIZE" "${ck[@]}" --dir "s3://$bucket/f" --stall-timeout 1s --s3-retry-budget 2s

# The clean-up's DELETE of the checkpoint's object is never answered: the report comes within
# the retry budget + 2 s of the DELETE.
proxy "stall:DELETE /$bucket/c/checkpoint-000001/:1:60"
expect_rc 1 "a checkpoint whose DELETE is never answered" -- "$DLSIZE" "${ck[@]}" \
  --dir "s3://$bucket/c" --s3-endpoint "$PROXY" --s3-retry-budget 2s --out "$SCRATCH/c.json"
took=$("$PY" -c "import sys,time; print(round(time.time() - float(sys.argv[1]), 1))" \
  "$(awk '/^stall DELETE /{print $NF}' "$PLOG")")
"$PY" -c "import sys; sys.exit(0 if $took <= 4 else 1)" \
  && pass "the report came $took s after the DELETE was sent" || fail "took $took s after the DELETE"
check=$(json "$SCRATCH/c.json" "(r['status'], r['checkpoint']['failure']['phase'],
  r['checkpoint']['failure']['file'], 'S3 DELETE failed' in r['checkpoint']['failure']['error'],
  r['checkpoint']['write']['count'], r['checkpoint']['read']['verify']['blocks'])")
[[ $check == "('incomplete', 'clean-up', 's3://$bucket/c/checkpoint-000001/rank-00000.file-000.shard', True, 1, 11)" ]] \
  && pass "an incomplete report: the clean-up's phase, key and error, the measured write and read" \
  || fail "clean-up: $check"
! grep -q "in the kernel" "$SCRATCH/c.json" "$SCRATCH/f.json" "$SCRATCH/b.json" && [[ $ERR != *"in the kernel"* ]] \
  && pass "no S3 request is called a kernel call" || fail "S3 requests called kernel calls"
finish
