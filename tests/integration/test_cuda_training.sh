#!/usr/bin/env bash
# labels: gpu
# bench --accelerator cuda through the fake CUDA module (tests/modules): the pipeline hands the
# GPU every batch's bytes (pieces staged into the batch's slot, the slot acquired in batch order,
# the batch submitted when complete, steps in order; the fake refuses any other order), AU is
# the GPU's busy time over the wall time, storage starvation shows in it, the report has the
# per-GPU rows, and one GPU per rank is enforced, with NCCL joined over MPI across ranks.
source "$(dirname "$0")/lib.sh"
MODULES=$(dirname "$DLSIZE")/tests/modules
export DLSIZE_CUDA_MODULE=$MODULES/dlsize_fake_cuda.so DLSIZE_FAKE_BUSY_MS=20
unset DLSIZE_FAKE_CUDA DLSIZE_FAKE_DEVICES
if ! version_has "cuda: yes"; then
  echo "skip: this build has no CUDA backend, so --accelerator cuda is refused before any module loads"
  exit 77
fi
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 160MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
cat "$ds"/data/*/*.rec >/dev/null
gpu=(bench --workload resnet50 --dataset "$ds" --accelerator cuda --batch-size 16 --cache buffered --quiet)

expect_rc 0 "a training run on the (fake) GPU" -- "$DLSIZE" "${gpu[@]}" --epochs 2 --out "$SCRATCH/gpu.json"
check=$(json "$SCRATCH/gpu.json" "all([r['status'] == 'complete', r['topology']['accelerator_kind'] == 'cuda',
  r['accelerators'][0]['device'] == 'cuda:Fake GPU', r['accelerators'][0]['gpu']['device']['precision'] == 'fp16',
  r['accelerators'][0]['gpu']['device']['slots'] == 3,
  r['accelerators'][0]['gpu']['steps']['steps'] == r['summary']['steps'],
  r['accelerators'][0]['gpu']['steps']['loss_last'] < r['accelerators'][0]['gpu']['steps']['loss_first'],
  abs(r['accelerators'][0]['gpu']['steps']['busy_ms_mean'] - 20) < 0.01,
  abs(r['workload']['accelerator']['compute_time_s'] - 0.02) < 1e-4,
  r['summary']['demand_bytes_per_s'] > 0,
  abs(r['summary']['accelerator_utilization'] - r['accelerators'][0]['compute_s'] / r['accelerators'][0]['window_s']) < 1e-9,
  r['summary']['accelerator_utilization'] >= 0.7])")
# AU is the busy time over the window (no data wait here: the dataset is in the page cache); the
# host's own time between steps (more on a loaded machine) is what keeps it under 1.
[[ $check == True ]] && pass "report: GPU rows, measured step time, loss falls, AU from busy time" \
  || fail "report: $(json "$SCRATCH/gpu.json" "r['accelerators'][0], r['summary']['accelerator_utilization'], r.get('reason')")"

# Storage at half the GPU's demand: the GPU starves and its AU shows it.
demand=$(json "$SCRATCH/gpu.json" "r['summary']['demand_bytes_per_s']")
cap=$("$PY" -c "import sys; print(int(float(sys.argv[1]) / 2))" "$demand")
expect_rc 0 "a training run on the (fake) GPU behind a read cap" -- "$DLSIZE" "${gpu[@]}" --epochs 2 --max-read-rate "$cap" --out "$SCRATCH/cap.json"
au=$(json "$SCRATCH/cap.json" "r['summary']['accelerator_utilization']")
"$PY" -c "import sys; sys.exit(0 if 0.4 <= float(sys.argv[1]) <= 0.6 else 1)" "$au" && pass "starved GPU: AU $au about 0.5" || fail "starved GPU: AU $au"

expect_rc 2 "two GPUs in one rank" -- "$DLSIZE" "${gpu[@]}" --accelerators 2
expect_text "one GPU per rank" "message says one GPU per rank"
expect_rc 2 "a compute time for a real GPU" -- "$DLSIZE" "${gpu[@]}" --compute-time 10ms
expect_text "measured" "message says the GPU's time is measured"
expect_rc 2 "--precision for an emulated accelerator" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --precision tf32
expect_text "applies to --accelerator cuda" "message says where --precision applies"
expect_rc 2 "a precision that does not exist" -- "$DLSIZE" "${gpu[@]}" --precision fp8
expect_text "valid: fp16" "message lists the precisions"

# Across ranks: one GPU each (the local rank's), NCCL joined with rank 0's id over MPI.
if [[ -n ${DLSIZE_MPIEXEC:-} ]] && version_has "mpi: yes"; then
  mpi=(timeout -k 5 120 "$DLSIZE_MPIEXEC" -np 2 -genv DLSIZE_CUDA_MODULE "$DLSIZE_CUDA_MODULE" -genv DLSIZE_FAKE_BUSY_MS 20)
  # Both take device 0 (local rank modulo the GPUs they see), which NCCL would refuse late.
  expect_rc 2 "two ranks on a host with one GPU" -- "${mpi[@]}" "$DLSIZE" "${gpu[@]}" --epochs 1
  expect_text "ranks 0 and 1 on host" "message names both ranks"
  expect_text "both drive GPU 0000:00:00.0" "message names the shared GPU"
  expect_rc 0 "two ranks on a host with two GPUs" -- "${mpi[@]}" -genv DLSIZE_FAKE_DEVICES 2 "$DLSIZE" "${gpu[@]}" --epochs 1 --out "$SCRATCH/two.json"
  [[ $(json "$SCRATCH/two.json" "[(a['rank'], a['gpu']['device']['allreduce_buckets'] > 0) for a in r['accelerators']]") == "[(0, True), (1, True)]" ]] \
    && pass "each rank drove its GPU, joined for the allreduce" || fail "two ranks: $(json "$SCRATCH/two.json" "r['accelerators']")"
else
  skip_part "no MPI in this build; the multi-rank GPU checks did not run"
fi
finish
