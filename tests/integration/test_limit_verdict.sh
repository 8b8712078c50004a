#!/usr/bin/env bash
# labels: integration serial
# What limited AU, named at bench time: a single reader busy with preprocessing on tmpfs (no
# storage to wait for) is client-limited, with the figures behind the verdict in the report.
source "$(dirname "$0")/lib.sh"
[[ -d /dev/shm && -w /dev/shm ]] || { echo "skip: no writable tmpfs at /dev/shm"; exit 77; }
shm=$(mktemp -d /dev/shm/dlsize-limit.XXXXXX)
trap 'rm -rf "$shm"' EXIT
"$DLSIZE" datagen --workload resnet50 --dataset "$shm/r50" --size 48MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
# 2 ms of CPU per sample in the one reader against 1,600 samples/s of demand per accelerator.
expect_rc 0 "a run whose reader preprocesses" -- "$DLSIZE" bench --workload resnet50 --dataset "$shm/r50" \
  --accelerator emulated:h100 --accelerators 2 --batch-size 8 --compute-time 5ms --epochs 1 \
  --readers 1 --cache buffered --preprocess 2ms --time-limit 20s --quiet --out "$SCRATCH/cpu.json"
check=$(json "$SCRATCH/cpu.json" "r['summary']['limited_by']['verdict'] == 'client_cpu' and
  r['summary']['accelerator_utilization'] < 0.9 and
  r['summary']['limited_by']['figures']['busiest_reader_cpu_share'] is not None and
  r['io']['reader_time']['cpu_s'] > 0")
[[ $check == True ]] && pass "the CPU-bound reader is named: $(json "$SCRATCH/cpu.json" "r['summary']['limited_by']['reason']")" \
  || fail "verdict: $(json "$SCRATCH/cpu.json" "r['summary'].get('limited_by')")"
finish
