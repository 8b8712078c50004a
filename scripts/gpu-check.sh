#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU: the GPU tests, compute-sanitizer on a short
# run, the calibration of resnet50, a bench against a small local dataset, and torchvision's
# ResNet-50 training throughput at the same batch and precision; a short table last. Within
# 8 minutes on an H100-class GPU.
#
# Usage: scripts/gpu-check.sh [OUT_DIR]
#   DLSIZE_BUILD_DIR  build folder (default build); used as it is when it holds dlsize and
#                     dlsize-cuda.so, else configured with -DDLSIZE_WITH_CUDA=ON and built
#   BATCH, PRECISION  of the calibration and the PyTorch run (default 256, fp16)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${DLSIZE_BUILD_DIR:-build}
out=${1:-gpu-check-$(date -u +%Y%m%dT%H%M%SZ)}
batch=${BATCH:-256}
precision=${PRECISION:-fp16}
mkdir -p "$out"
log() { echo "gpu-check: $*" >&2; }
t_start=$(date +%s)

if [[ -x $build/dlsize && -f $build/dlsize-cuda.so ]]; then
  log "using the build in $build"
else
  log "building into $build"
  nice -n 10 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLSIZE_WITH_CUDA=ON >"$out/configure.log" 2>&1 &&
    nice -n 10 ninja -C "$build" >"$out/build.log" 2>&1 || { log "build failed: see $out/build.log"; exit 1; }
fi
dlsize=$build/dlsize
gpu_tests=$build/tests/gpu/dlsize_gpu_tests
# A carried build lies elsewhere than where it was made: name the module by its path here.
DLSIZE_CUDA_MODULE=$(cd "$build" && pwd)/dlsize-cuda.so
export DLSIZE_CUDA_MODULE

# cuDNN, cuBLAS and NCCL may come from Python wheels (nvidia-*) rather than the toolkit.
if ! "$dlsize" --version 2>&1 | grep -q "cuda module: .*(CUDA"; then
  wheels=$(python3 - <<'EOF' 2>/dev/null
import glob, os, site
dirs = []
for s in site.getsitepackages():
    dirs += sorted(glob.glob(os.path.join(s, "nvidia", "*", "lib")))
print(":".join(dirs))
EOF
)
  [[ -n $wheels ]] && export LD_LIBRARY_PATH=$wheels${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} && log "libraries from the Python wheels"
fi
"$dlsize" --version | tee "$out/version.txt"
nvidia-smi -L 2>&1 | tee "$out/gpu.txt"

# The GPU tests (ctest label gpu).
tests="not run"
if [[ -x $gpu_tests ]]; then
  timeout 240 "$gpu_tests" >"$out/gpu-tests.log" 2>&1
  rc=$?
  case $rc in
    0) tests="passed" ;;
    77) tests=$(head -1 "$out/gpu-tests.log") ;;
    *) tests="FAILED (exit $rc, see gpu-tests.log)" ;;
  esac
  grep -E "test cases|assertions" "$out/gpu-tests.log" | tail -1 >>"$out/summary.txt"
fi
log "GPU tests: $tests"

# compute-sanitizer (memcheck) on the small tests.
sanitizer="not run (compute-sanitizer not found)"
if command -v compute-sanitizer >/dev/null && [[ -x $gpu_tests ]]; then
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 "$gpu_tests" "[sanitize]" >"$out/sanitizer.log" 2>&1
  rc=$?
  errors=$(grep -oE "ERROR SUMMARY: [0-9]+" "$out/sanitizer.log" | tail -1 | grep -oE "[0-9]+$")
  sanitizer=$([[ $rc -eq 0 ]] && echo "clean (${errors:-0} errors)" || echo "exit $rc, ${errors:-?} errors (see sanitizer.log)")
fi
log "compute-sanitizer: $sanitizer"

# Calibration: the real step on synthetic device-resident data.
cal=$out/calibration-resnet50.json
timeout 180 "$dlsize" calibrate --workload resnet50 --accelerator cuda --batch-size "$batch" \
  --precision "$precision" --steps 50 --warmup 10 --out "$cal" 2>&1 | tee "$out/calibrate.log"
jget() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null || echo "?"; }
dl_rate=$( [[ -f $cal ]] && jget "$cal" 'round(r["samples_per_s"], 1)' || echo "?")
dl_ms=$( [[ -f $cal ]] && jget "$cal" 'round(1000 * r["compute_time_s"], 2)' || echo "?")
loss=$( [[ -f $cal ]] && jget "$cal" 'f"{r[\"loss\"][\"first\"]:.3f} -> {r[\"loss\"][\"last\"]:.3f}"' || echo "?")

# A bench against a small local dataset, with the calibration as the emulated accelerator.
bench="not run"
bench_cuda="not run"
if [[ -f $cal ]]; then
  ds=$out/dataset
  timeout 120 "$dlsize" datagen --workload resnet50 --dataset "$ds" --size 2GiB --quiet >/dev/null 2>&1
  timeout 120 "$dlsize" bench --workload resnet50 --dataset "$ds" --accelerator "emulated:$cal" --epochs 1 \
    --quiet --out "$out/bench.json" >"$out/bench.log" 2>&1
  bench=$( [[ -f $out/bench.json ]] && jget "$out/bench.json" 'f"AU {r[\"summary\"][\"accelerator_utilization\"]:.3f}, {r[\"summary\"][\"samples_per_s\"]:.0f} samples/s"' || echo "failed (see bench.log)")
  # The same run on the GPU itself: the real step fed from storage through pinned memory.
  timeout 150 "$dlsize" bench --workload resnet50 --dataset "$ds" --accelerator cuda --batch-size "$batch" \
    --precision "$precision" --epochs 1 --quiet --out "$out/bench-cuda.json" >"$out/bench-cuda.log" 2>&1
  bench_cuda=$( [[ -f $out/bench-cuda.json ]] && jget "$out/bench-cuda.json" 'f"AU {r[\"summary\"][\"accelerator_utilization\"]:.3f}, {r[\"summary\"][\"samples_per_s\"]:.0f} samples/s, loss {r[\"accelerators\"][0][\"gpu\"][\"steps\"][\"loss_last\"]:.3f}"' || echo "failed (see bench-cuda.log)")
  rm -rf "$ds"
fi

# torchvision's ResNet-50 at the same batch and precision.
torch_rate="not run (no PyTorch)"
if python3 -c "import torch, torchvision" 2>/dev/null; then
  timeout 150 python3 scripts/torch_resnet50.py --batch "$batch" --precision "$precision" >"$out/torch.json" 2>"$out/torch.log"
  torch_rate=$(jget "$out/torch.json" 'round(r["images_per_s"], 1)')
fi
ratio=$(python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$dl_rate" "$torch_rate" 2>/dev/null || echo "?")

{
  echo
  echo "| check | result |"
  echo "|---|---|"
  echo "| GPU | $(head -1 "$out/gpu.txt") |"
  echo "| GPU tests | $tests |"
  echo "| compute-sanitizer (memcheck, small tests) | $sanitizer |"
  echo "| dlsize ResNet-50 $precision batch $batch | $dl_rate images/s ($dl_ms ms busy per step) |"
  echo "| torchvision ResNet-50 channels_last $precision batch $batch | $torch_rate images/s |"
  echo "| dlsize / PyTorch (goal >= 0.9) | $ratio |"
  echo "| loss on a fixed batch, first -> last | $loss |"
  echo "| bench, emulated:calibration, 1 epoch of 2 GiB | $bench |"
  echo "| bench, --accelerator cuda, 1 epoch of 2 GiB | $bench_cuda |"
  echo "| wall time | $(($(date +%s) - t_start)) s |"
} | tee "$out/table.md"
