#!/usr/bin/env bash
# What a run leaves or spends outside its figures is in its report: a checkpoint folder that
# --keep-last would remove but that holds a file dlsize did not write stays, and the report's
# warnings say so (not only stderr); with --open keep the stat and open time before the timed
# phase is in io.setup and summary.read_bytes_per_s counts the opens (read_bytes over wall_s +
# open_s), with per-sample opens it is read_bytes over wall_s.
# labels: faults
source "$(dirname "$0")/lib.sh"

# A foreign file lands in checkpoint 1's folder while checkpoint 2 is written (the poller waits
# for checkpoint 2's partial folder: checkpoint 1 is then sealed and not yet removed).
ck=$SCRATCH/ck
mkdir -p "$ck"
"$DLSIZE" checkpoint --workload llama3-8b --scale 0.001 --dir "$ck" --writes 2 --reads 0 \
  --keep-last 1 --quiet --out "$SCRATCH/ck.json" 2>"$SCRATCH/ck.err" &
pid=$!
"$PY" - "$ck" <<'PY'
import os, sys, time
ck = sys.argv[1]
end = time.time() + 60
while time.time() < end and not os.path.isdir(os.path.join(ck, ".checkpoint-000002.partial")):
    time.sleep(0.001)
open(os.path.join(ck, "checkpoint-000001", "notes.txt"), "w").write("someone's notes\n")
PY
wait $pid
rc=$?
[[ $rc -eq 0 ]] && pass "checkpoint --keep-last 1 completes (exit 0)" || fail "checkpoint exit $rc: $(cat "$SCRATCH/ck.err")"
[[ $(cat "$ck/checkpoint-000001/notes.txt" 2>/dev/null) == "someone's notes" ]] \
  && pass "the foreign file is kept, and its folder" || fail "the foreign file is gone: $(ls -R "$ck")"
w=$(json "$SCRATCH/ck.json" '" | ".join(r["warnings"])')
[[ $w == *"--keep-last 1: more checkpoints remain than it keeps"* && $w == *"checkpoint-000001' (it holds files dlsize did not write: notes.txt)"* ]] \
  && pass "the report's warnings say --keep-last was exceeded and name the file" || fail "warnings: $w"
rm -f "$ck/checkpoint-000001/notes.txt"

# --open keep: the opens before the timed phase are reported and counted in the bandwidth.
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --layout files --dataset "$ds" --files 200 --quiet >/dev/null \
  || { fail "datagen"; finish; exit 1; }
for mode in keep per-sample; do
  expect_rc 0 "a storage bench with --open $mode" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" \
    --accelerator none --open "$mode" --cache buffered --quiet --out "$SCRATCH/$mode.json"
done
check=$(json "$SCRATCH/keep.json" "(lambda s, u: u['open_s'] > 0 and u['stat_s'] > 0 and
  u['counted_s'] == u['open_s'] and abs(s['read_bytes_per_s'] - s['read_bytes'] / (s['wall_s'] + u['open_s'])) <= 1e-6 * s['read_bytes_per_s'])(r['summary'], r['io']['setup'])")
[[ $check == True ]] && pass "--open keep: io.setup has the stats and opens; the bandwidth counts the opens" \
  || fail "keep: $(json "$SCRATCH/keep.json" "r['summary'], r['io'].get('setup')")"
check=$(json "$SCRATCH/per-sample.json" "(lambda s, u: u['open_s'] is None and u['counted_s'] == 0 and u['stat_s'] > 0 and
  abs(s['read_bytes_per_s'] - s['read_bytes'] / s['wall_s']) <= 1e-6 * s['read_bytes_per_s'])(r['summary'], r['io']['setup'])")
[[ $check == True ]] && pass "per-sample opens: the opens are inside wall_s, nothing added" \
  || fail "per-sample: $(json "$SCRATCH/per-sample.json" "r['summary'], r['io'].get('setup')")"
expect_rc 0 "a training bench with --open keep" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" \
  --accelerator emulated:h100 --batch-size 2 --compute-time 1ms --open keep --cache buffered --quiet --out "$SCRATCH/train.json"
check=$(json "$SCRATCH/train.json" "(lambda s, u: u['open_s'] > 0 and u['counted_s'] == u['open_s'] and
  abs(s['read_bytes_per_s'] - s['read_bytes'] / (s['wall_s'] + u['open_s'])) <= 1e-6 * s['read_bytes_per_s'])(r['summary'], r['io']['setup'])")
[[ $check == True ]] && pass "training with --open keep counts the opens too" \
  || fail "train: $(json "$SCRATCH/train.json" "r['summary'].get('wall_s'), r['summary']['read_bytes_per_s'], r['io'].get('setup')")"
finish
