#!/usr/bin/env bash
# A server killed mid-run (the fault proxy in front of radosgw exits at a given request: its
# connections close, no new one is accepted): bench, verify, datagen, index and checkpoint each
# end within --s3-retry-budget + 2 s of the death, exit 1, naming the endpoint and the last
# error; bench and checkpoint write an incomplete report saying so. A bench whose every GET
# fails fast also ends at --stall-timeout, which counts bytes, not tries. About 15 s.
# labels: s3
source "$(dirname "$0")/lib.sh"
s3_bucket killed
s3_resnet50 d 24

budget=1
# killed WHAT AT -- command...: runs the command through a proxy that dies at the first request
# whose "METHOD PATH" holds AT; checks exit 1 within the budget + 2 s of the death and that the
# messages name the endpoint.
killed() {
  local what=$1 at=$2
  shift 3
  proxy "die:$at:1"
  "$@" --s3-endpoint "$PROXY" --s3-retry-budget ${budget}s >"$SCRATCH/out" 2>"$SCRATCH/err"
  local rc=$? end
  end=$(date +%s.%N)
  local died
  died=$(awk '/^die /{print $NF}' "$PLOG")
  if [[ -z $died ]]; then
    fail "$what: the server was never killed (exit $rc): $(cat "$SCRATCH/err")"
    return
  fi
  local took
  took=$("$PY" -c "print(f'{$end - $died:.1f}')")
  [[ $rc == 1 ]] && "$PY" -c "import sys; sys.exit(0 if $took <= $budget + 2 else 1)" \
    && pass "$what ended $took s after the server died (exit 1)" \
    || fail "$what: exit $rc, $took s after the server died; $(cat "$SCRATCH/err")"
  grep -q "endpoint: $PROXY" "$SCRATCH/err" && pass "$what names the endpoint and the error" \
    || fail "$what: the message names no endpoint: $(cat "$SCRATCH/err")"
  ! grep -q "kernel" "$SCRATCH/err" || fail "$what speaks of the kernel: $(cat "$SCRATCH/err")"
}

storage=(bench --workload resnet50 --accelerator none --queue-depth 4 --readers 2 --quiet)
killed "bench" "GET /$bucket/d/data/00000/file-00000010" -- "$DLSIZE" "${storage[@]}" \
  --epochs 50 --dataset "s3://$bucket/d" --out "$SCRATCH/b.json"
check=$(json "$SCRATCH/b.json" "(r['status'], 'every request failed' in r['reason'],
  '$PROXY' in r['reason'], 'connect' in r['storage']['s3']['retries_by_cause'])")
[[ $check == "('incomplete', True, True, True)" ]] \
  && pass "bench: an incomplete report naming the endpoint and the last error" || fail "bench: $check"
killed "verify" "GET /$bucket/d/data/00000/file-00000010" -- "$DLSIZE" verify "s3://$bucket/d" --quiet
killed "index" "GET /$bucket/d/data/00000/file-00000010" -- "$DLSIZE" index "s3://$bucket/d" \
  --out "$SCRATCH/d.index" --quiet
grep -q "resume state" "$SCRATCH/err" && pass "index says where to resume" || fail "index: $(cat "$SCRATCH/err")"
killed "datagen" "PUT /$bucket/g/data/00000/file-00000010" -- "$DLSIZE" datagen --workload resnet50 \
  --layout files --files 24 --quiet --dataset "s3://$bucket/g"
killed "checkpoint" "PUT /$bucket/c/checkpoint-000001/rank-00000.file-000.shard?partNumber=2&" -- \
  "$DLSIZE" checkpoint --workload llama3-8b --scale 0.0001 --s3-part-size 5MiB --queue-depth 1 \
  --quiet --dir "s3://$bucket/c" --out "$SCRATCH/c.json"
check=$(json "$SCRATCH/c.json" "(r['status'], r['checkpoint']['failure']['phase'],
  r['checkpoint']['failure']['file'], '$PROXY' in r['checkpoint']['failure']['error'],
  any('left as it is' in w for w in r['warnings']))")
[[ $check == "('incomplete', 'write', 's3://$bucket/c/checkpoint-000001/rank-00000.file-000.shard', True, True)" ]] \
  && pass "checkpoint: an incomplete report with the phase, the key and the error" \
  || fail "checkpoint: $check"

# Every GET fails at once (connection refused) but the stall watch counts bytes: the run ends at
# --stall-timeout, long before the retry budget, naming the object and the failures.
proxy "die:GET /$bucket/d/data/00000/file-00000010:1"
t0=$(date +%s)
expect_rc 1 "bench of a killed server under --stall-timeout 1s" -- "$DLSIZE" "${storage[@]}" \
  --epochs 50 --dataset "s3://$bucket/d" --s3-endpoint "$PROXY" --stall-timeout 1s \
  --out "$SCRATCH/st.json"
took=$(($(date +%s) - t0))
check=$(json "$SCRATCH/st.json" "(r['status'], 'stalled' in r['reason'], 'requests are failing' in r['reason'])")
[[ $check == "('incomplete', True, True)" ]] && ((took < 8)) \
  && pass "stalled after $took s: no byte for --stall-timeout, however busy the retries" \
  || fail "stall: $check after $took s: $(json "$SCRATCH/st.json" "r.get('reason')")"
finish
