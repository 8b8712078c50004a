#!/usr/bin/env bash
# labels: gpu
# --accelerator cuda on a machine without a usable GPU exits 2 naming what is missing, each way
# the backend module can be unusable is named, and a calibration made through the fake module
# (tests/modules) is accepted by bench and plan as --accelerator emulated:FILE.
source "$(dirname "$0")/lib.sh"
MODULES=$(dirname "$DLSIZE")/tests/modules
unset DLSIZE_CUDA_MODULE DLSIZE_FAKE_CUDA

"$DLSIZE" --version >"$SCRATCH/version"
grep -q "cuda module: " "$SCRATCH/version" && pass "--version lists the cuda module" || fail "--version: $(cat "$SCRATCH/version")"

if nvidia-smi -L >/dev/null 2>&1; then
  skip_part "this machine has a GPU, so the driverless messages cannot be checked here"
elif grep -q "cuda: yes" "$SCRATCH/version"; then
  expect_rc 2 "calibrate without a driver" -- "$DLSIZE" calibrate --workload resnet50 --accelerator cuda
  expect_text "--accelerator cuda: no NVIDIA driver: libcuda.so.1 was not found" "message names the missing driver"
  expect_rc 2 "bench --accelerator cuda without a driver" -- "$DLSIZE" bench --workload resnet50 --dataset "$SCRATCH/none" --accelerator cuda
  expect_text "no NVIDIA driver" "bench names the missing driver too"
else
  expect_rc 2 "calibrate in a build without the backend" -- "$DLSIZE" calibrate --workload resnet50 --accelerator cuda
  expect_text "not enabled in this build" "message says the backend is not built"
  expect_text "-DDLSIZE_WITH_CUDA=ON" "message names the CMake option"
fi

cal() { "$DLSIZE" calibrate --workload resnet50 --accelerator cuda "$@"; }
DLSIZE_CUDA_MODULE=$SCRATCH/nowhere.so expect_rc 2 "a module path that does not exist" -- cal
expect_text "DLSIZE_CUDA_MODULE names $SCRATCH/nowhere.so, which does not exist" "message names the variable and path"
echo "not a library" >"$SCRATCH/text.so"
DLSIZE_CUDA_MODULE=$SCRATCH/text.so expect_rc 2 "a file that is not a module" -- cal
expect_text "is not a loadable module" "message says it is not loadable"
DLSIZE_CUDA_MODULE=$MODULES/dlsize_missing_dep_module.so expect_rc 2 "a module whose library is missing" -- cal
expect_text "needs the library libdlsize_test_dep.so" "message names the missing library"
DLSIZE_CUDA_MODULE=$MODULES/dlsize_no_entry_module.so expect_rc 2 "a library without the entry function" -- cal
expect_text "has no dlsize_cuda_module function" "message names the entry function"
DLSIZE_CUDA_MODULE=$MODULES/dlsize_old_abi_module.so expect_rc 2 "a module of another ABI" -- cal
expect_text "speaks module ABI version 999, this dlsize version 3" "message names both versions"

export DLSIZE_CUDA_MODULE=$MODULES/dlsize_fake_cuda.so
DLSIZE_FAKE_CUDA=nodriver expect_rc 2 "the fake module without a driver" -- cal
expect_text "--accelerator cuda: no NVIDIA driver: libcuda.so.1 not found" "driver message passes through"
DLSIZE_FAKE_CUDA=nodevice expect_rc 2 "the fake module without a device" -- cal
expect_text "sees no GPU" "message says there is no device"
expect_rc 2 "a device the machine lacks" -- cal --device 3
expect_text "no device 3" "message names the device"
expect_rc 2 "calibrate of a workload without layers" -- "$DLSIZE" calibrate --workload ssd300 --accelerator cuda
expect_text "valid: resnet50, unet3d" "message lists the trainable workloads"
expect_rc 2 "calibrate of an emulated accelerator" -- "$DLSIZE" calibrate --workload resnet50 --accelerator emulated:h100
expect_text "valid: cuda" "message names the valid accelerator"
expect_rc 2 "a bad precision" -- cal --precision fp8
expect_text "valid: fp16" "message lists the precisions"

expect_rc 0 "calibrate through the fake module" -- cal --steps 5 --warmup 2 --batch-size 16 --out "$SCRATCH/cal.json"
[[ $(json "$SCRATCH/cal.json" 'r["schema"], r["gpu_name"], r["batch_size"], round(r["compute_time_s"], 4)') == "dlsize.calibration/1 Fake GPU 16 0.01" ]] \
  && pass "calibration has schema, GPU, batch and compute time" || fail "calibration: $(cat "$SCRATCH/cal.json")"
expect_rc 2 "calibrate refuses to overwrite" -- cal --steps 1 --warmup 0 --out "$SCRATCH/cal.json"
unset DLSIZE_CUDA_MODULE
expect_rc 0 "plan with the calibration" -- "$DLSIZE" plan --workload resnet50 --accelerator "emulated:$SCRATCH/cal.json"
expect_text "fake-gpu" "plan uses the calibrated accelerator"
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --layout files --dataset "$ds" --size 4MiB --quiet >/dev/null
expect_rc 0 "bench with the calibration" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator "emulated:$SCRATCH/cal.json" --epochs 1 --quiet --out "$SCRATCH/run.json"
[[ $(json "$SCRATCH/run.json" 'r["workload"]["accelerator"]["batch_size"]') == 16 ]] && pass "bench ran at the calibrated batch" || fail "bench report batch"
finish
