#!/usr/bin/env bash
# labels: integration mpi
# bench --checkpoint-every: a training run pauses its accelerators while it writes the
# workload's checkpoint (resnet50's, scaled down) every 20 steps; the report counts the
# checkpoints and their bytes, AU lost to checkpoints is above 0 and AU + the lost shares add
# up to 1; the folder is left as found; a bare number, a profile without a checkpoint block,
# a foreign folder and a companion option alone are refused.
source "$(dirname "$0")/lib.sh"
require_io_uring
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 64MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
train=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2
       --batch-size 16 --compute-time 20ms --cache buffered --quiet)
# resnet50's checkpoint: 102,228,128 B of weights and as many of momentum, all on rank 0;
# at 0.05, floor(5,111,406.4) of each.
want_bytes=10222812

ck=$SCRATCH/ck
expect_rc 0 "training run with a checkpoint every 20 steps" -- "$DLSIZE" "${train[@]}" --epochs 3 \
  --checkpoint-every 20steps --checkpoint-dir "$ck" --checkpoint-scale 0.05 --out "$SCRATCH/ck.json"
r=$SCRATCH/ck.json
check=$(json "$r" "(lambda c, s: [
  c['count'] == s['steps'] // 20 and c['count'] >= 3,
  len(c['seconds_per_checkpoint']) == c['count'],
  c['bytes_per_checkpoint'] == $want_bytes, c['bytes_per_rank'] == [$want_bytes],
  c['bytes'] == c['count'] * $want_bytes,
  c['every_steps'] == 20,
  c['au_lost_to_checkpoints'] > 0,
  abs(s['accelerator_utilization'] + c['au_lost_to_checkpoints'] + c['au_lost_other'] - 1) < 1e-9,
  abs(c['au_lost_to_checkpoints'] - c['seconds'] / s['wall_s']) < 1e-9,
  abs(c['accelerator_utilization_excluding_checkpoints'] - min(1, s['accelerator_utilization'] / (1 - c['au_lost_to_checkpoints']))) < 1e-9,
  s['accelerator_utilization_excluding_checkpoints'] == c['accelerator_utilization_excluding_checkpoints'],
  c['write_bytes_per_s'] > 0,
  s['sync_wait_s'] < c['seconds'],
])(r['checkpoints'], r['summary'])")
[[ $check == "[True, True, True, True, True, True, True, True, True, True, True, True, True]" ]] \
  && pass "checkpoints block: count, bytes, AU split" || fail "checkpoints block: $check $(json "$r" "r['checkpoints'], r['summary']['steps']")"
[[ ! -e $ck ]] && pass "the folder dlsize made is gone" || fail "left $(ls -R "$ck")"
validate_json "$r"

# A duration is the steps computed in it: 1 s at 20 ms a step is 50 steps. An empty folder
# given stays, empty.
mkdir "$SCRATCH/empty"
expect_rc 0 "checkpoint every 1s" -- "$DLSIZE" "${train[@]}" --epochs 2 \
  --checkpoint-every 1s --checkpoint-dir "$SCRATCH/empty" --checkpoint-scale 0.01 --out "$SCRATCH/dur.json"
[[ $(json "$SCRATCH/dur.json" "r['checkpoints']['every_steps']") == 50 ]] && pass "1s is 50 steps" || fail "every_steps: $(json "$SCRATCH/dur.json" "r['checkpoints']['every_steps']")"
[[ -d $SCRATCH/empty && -z $(ls -A "$SCRATCH/empty") ]] && pass "the given empty folder stays, empty" || fail "empty folder: $(ls -A "$SCRATCH/empty")"

# optimal: the first checkpoint after step 1, then every ceil(τ / step) steps, τ Daly's interval for
# the first pause at M = MTTF / accelerators (worked here in Python from the pause recorded).
expect_rc 0 "checkpoint every optimal interval" -- "$DLSIZE" "${train[@]:0:${#train[@]}-1}" --epochs 3 \
  --checkpoint-every optimal --mttf 60s --checkpoint-dir "$SCRATCH/opt" --checkpoint-scale 0.01 --out "$SCRATCH/opt.json"
expect_text "interval    Daly's optimum" "the summary says the interval chosen and why"
check=$(json "$SCRATCH/opt.json" "(lambda c, s, i, math: [
  c['every'] == 'optimal', i['accelerators'] == 2, i['system_mttf_s'] == 30, i['mttf_source'] == '--mttf 60s',
  i['checkpoint_s'] == c['seconds_per_checkpoint'][0], i['keeps_up'],
  abs(i['daly_s'] - (math.sqrt(2 * i['checkpoint_s'] * 30) * (1 + math.sqrt(i['checkpoint_s'] / 60) / 3 + i['checkpoint_s'] / 540) - i['checkpoint_s'])) < 1e-9,
  i['interval_s'] == i['daly_s'], i['every_steps'] == c['every_steps'] == math.ceil(i['daly_s'] / 0.02 - 1e-9),
  c['count'] == 1 + (s['steps'] - 1) // c['every_steps'],
  'Daly' in i['reason'],
])(r['checkpoints'], r['summary'], r['checkpoints']['interval_choice'], __import__('math'))")
[[ $check == "[True, True, True, True, True, True, True, True, True, True, True]" ]] \
  && pass "optimal: Daly's interval for the first pause, in steps" || fail "optimal: $check $(json "$SCRATCH/opt.json" "r['checkpoints']")"
expect_rc 2 "--mttf with a fixed interval" -- "$DLSIZE" "${train[@]}" --checkpoint-every 20steps --mttf 60s \
  --checkpoint-dir "$ck" --out "$SCRATCH/x.json"
expect_text "--checkpoint-every optimal" "the refusal says where --mttf belongs"
expect_rc 2 "--mttf alone" -- "$DLSIZE" "${train[@]}" --mttf 60s --out "$SCRATCH/x.json"
expect_rc 2 "a bare number" -- "$DLSIZE" "${train[@]}" --checkpoint-every 20 --checkpoint-dir "$ck" --out "$SCRATCH/x.json"
expect_text "--checkpoint-every" "the refusal names the option"
expect_rc 2 "a profile without a checkpoint block" -- "$DLSIZE" bench --workload cosmoflow --dataset "$ds" \
  --accelerator emulated:h100 --checkpoint-every 20steps --checkpoint-dir "$ck" --out "$SCRATCH/x.json"
expect_text "resnet50" "the refusal names a profile that has one (resnet50)"
expect_text "unet3d" "the refusal names a profile that has one (unet3d)"
mkdir "$SCRATCH/foreign" && echo keep >"$SCRATCH/foreign/mine.txt"
expect_rc 2 "a foreign non-empty folder" -- "$DLSIZE" "${train[@]}" --checkpoint-every 20steps \
  --checkpoint-dir "$SCRATCH/foreign" --checkpoint-scale 0.05 --out "$SCRATCH/x.json"
expect_text "--checkpoint-dir" "the refusal names --checkpoint-dir"
[[ $(cat "$SCRATCH/foreign/mine.txt") == keep && $(ls -A "$SCRATCH/foreign") == mine.txt ]] && pass "the foreign file is untouched" || fail "foreign folder changed"
expect_rc 2 "--checkpoint-dir alone" -- "$DLSIZE" "${train[@]}" --checkpoint-dir "$ck" --out "$SCRATCH/x.json"
expect_rc 2 "a scale above 1" -- "$DLSIZE" "${train[@]}" --checkpoint-every 20steps --checkpoint-dir "$ck" --checkpoint-scale 2 --out "$SCRATCH/x.json"

# Two ranks: resnet50 is plain data parallel (ZeRO 0), so rank 0 writes the whole checkpoint and
# rank 1 nothing; every rank pauses until rank 0 is done.
MPIEXEC=${DLSIZE_MPIEXEC:-}
if [[ -n $MPIEXEC ]] && version_has "mpi: yes"; then
  expect_rc 0 "two ranks with checkpoints" -- "$MPIEXEC" -np 2 "$DLSIZE" "${train[@]}" --accelerators 4 \
    --checkpoint-every 5steps --checkpoint-dir "$SCRATCH/ck2" --checkpoint-scale 0.05 --out "$SCRATCH/mpi.json"
  check=$(json "$SCRATCH/mpi.json" "(lambda c, s: c['bytes_per_rank'] == [$want_bytes, 0] and c['count'] == s['steps'] // 5 > 0 and c['au_lost_to_checkpoints'] > 0)(r['checkpoints'], r['summary'])")
  [[ $check == True ]] && pass "two ranks: rank 0 writes the checkpoint" || fail "two ranks: $(json "$SCRATCH/mpi.json" "r['checkpoints']")"
  [[ ! -e $SCRATCH/ck2 ]] && pass "two ranks: the folder is gone" || fail "two ranks left $SCRATCH/ck2"
else
  skip_part "two ranks (no MPI in this build)"
fi
finish
