#!/usr/bin/env bash
# The GPU check, for the device machine (one GPU, a driver, the CUDA runtime, PyTorch with
# cuDNN, cuBLAS and NCCL in its Python wheels, no network): it runs the bundle that
# scripts/gpu-bundle.sh made here (carried as gpu-bundle), in this order, within 540 s in all:
# torchvision's ResNet-50 as the reference, dlsize calibrate at the same batch, precision and
# warm-up, the GPU tests, a bench with --accelerator cuda against a small dataset, and last,
# where it works, compute-sanitizer on the small GPU tests. It writes two files into $OUT:
# table.md (also printed last) and gpu-check.tar.gz (every log and JSON). Exits 1 when a step
# failed; a step that cannot run here (no PyTorch, no compute-sanitizer) is a skip with the
# reason. docs/gpu.md gives the device call.
#
# Usage: scripts/gpu-check.sh             (OUT: where the two files go; default gpu-check-out)
#   DLSIZE_BUNDLE            the bundle (default gpu-bundle)
#   DLSIZE_CUDA_MODULE       another module than the bundle's (the rehearsal's stand-in)
#   BATCH, PRECISION         of PyTorch, calibrate and bench (default 256, fp16)
#   DLSIZE_CHECK_BUDGET_S    all steps together (default 540)
#   DLSIZE_CHECK_DATASET     the bench's dataset size (default 1GiB)
#   DLSIZE_GPU_TESTS_ARGS    Catch2 arguments for the GPU tests (default: all of them)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
t_start=$(date +%s)
budget=${DLSIZE_CHECK_BUDGET_S:-540}
batch=${BATCH:-256}
precision=${PRECISION:-fp16}
out=${OUT:-gpu-check-out}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
# Scratch and dataset in a folder of their own, on a disk: O_DIRECT fails on tmpfs.
tmp_root=${TMPDIR:-/tmp}
[[ $(stat -f -c %T "$tmp_root" 2>/dev/null) == tmpfs ]] && tmp_root=$PWD
work=$(mktemp -d "$tmp_root/dlsize-gpu-check.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
logs=$work/gpu-check
mkdir -p "$logs"
log() { echo "gpu-check: $*" >&2; }
declare -A row
failed=0

# step NAME LIMIT_S LOG command...: runs it under the smaller of its limit and what is left of
# the budget (a few seconds kept for the table); sets rc (124: timed out, 125: no time left).
step() {
  local name=$1 limit=$2 file=$3
  shift 3
  local left=$((budget - ($(date +%s) - t_start) - 5))
  ((left < limit)) && limit=$left
  if ((limit < 5)); then
    log "$name: no time left in the ${budget} s budget"
    rc=125
    return
  fi
  log "$name (at most $limit s)"
  timeout -k 5 "$limit" "$@" >"$logs/$file" 2>&1
  rc=$?
  ((rc == 124 || rc == 137)) && rc=124 && echo "timed out after $limit s" >>"$logs/$file"
}
# outcome NAME TEXT_IF_OK: a row from rc; a failure counts.
outcome() {
  case $rc in
    0) row[$1]=$2 ;;
    124) row[$1]="FAILED: timed out"; failed=1 ;;
    125) row[$1]="FAILED: not run, the budget was spent"; failed=1 ;;
    *) row[$1]="FAILED (exit $rc): $(grep -m1 -iE 'error|fail|refus' "$logs/$3" | cut -c1-160)"; failed=1 ;;
  esac
}
jget() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null || echo "?"; }

bundle=${DLSIZE_BUNDLE:-gpu-bundle}
if [[ ! -x $bundle/dlsize ]]; then
  row[setup]="FAILED: no bundle at $bundle (make it with scripts/gpu-bundle.sh, carry gpu-bundle)"
  failed=1
else
  bundle=$(cd "$bundle" && pwd)
  export DLSIZE_CUDA_MODULE=${DLSIZE_CUDA_MODULE:-$bundle/dlsize-cuda.so}
  # cuDNN, cuBLAS and NCCL: the Python wheels' (a set that belongs together), then the toolkit's.
  wheels=$(timeout 30 python3 -c 'import glob, os, site
dirs = []
for s in site.getsitepackages() + [site.getusersitepackages()]:
    for sub in ("lib", "lib64"):
        dirs += sorted(glob.glob(os.path.join(s, "nvidia", "*", sub)))
print(":".join(d for d in dirs if os.path.isdir(d)))' 2>/dev/null)
  libpath=$wheels
  for d in /usr/local/cuda/lib64 /usr/local/cuda/lib; do
    [[ -d $d ]] && libpath=${libpath:+$libpath:}$d
  done
  export LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "$LD_LIBRARY_PATH" | tr : '\n' >"$logs/library-path.txt"
  ldd "$DLSIZE_CUDA_MODULE" >"$logs/ldd-module.txt" 2>&1
  if grep -q "not found" "$logs/ldd-module.txt"; then
    row[setup]="FAILED: the module lacks $(grep 'not found' "$logs/ldd-module.txt" | awk '{print $1}' | tr '\n' ' ')"
    failed=1
  else
    row[setup]="bundle $(cat "$bundle/COMMIT" 2>/dev/null), $(du -sh "$bundle" | cut -f1); libraries from $( [[ -n $wheels ]] && echo "the Python wheels" || echo "the toolkit")"
  fi
fi
# A GPU host: there a GPU test that cannot load its libraries fails instead of skipping.
if timeout 20 nvidia-smi -L >"$logs/gpu.txt" 2>&1 && grep -q "^GPU " "$logs/gpu.txt" || [[ -e /dev/nvidia0 ]]; then
  export DLSIZE_GPU_HOST=1
  row[gpu]=$(head -1 "$logs/gpu.txt")
else
  row[gpu]="none seen (nvidia-smi: $(head -1 "$logs/gpu.txt"))"
fi
dlsize=${bundle}/dlsize
{ ldd --version 2>&1 | head -1; uname -a; } >"$logs/system.txt"
if [[ -x $dlsize ]] && ! "$dlsize" --version >"$logs/version.txt" 2>&1; then
  row[setup]="FAILED: dlsize does not start here: $(head -1 "$logs/version.txt" | cut -c1-160)"
  failed=1
fi

# 1. The reference: torchvision's ResNet-50 with the data on the GPU.
if timeout 60 python3 -c "import torch, torchvision" 2>/dev/null; then
  step "PyTorch ResNet-50" 120 torch.log python3 scripts/torch_resnet50.py --batch "$batch" \
    --precision "$precision" --warmup 10 --steps 30 --out "$logs/torch.json"
  outcome torch "$(jget "$logs/torch.json" '"%.0f images/s wall to wall, %.0f event to event" % (r["images_per_s"], r["images_per_s_event"])')" torch.log
  torch_wall=$(jget "$logs/torch.json" 'r["images_per_s"]')
else
  row[torch]="skipped: torch not importable"
  torch_wall="?"
fi

# 2. dlsize's step on the same terms: synthetic data on the device, the same warm-up and steps.
if [[ -x $dlsize ]]; then
  cal=$logs/calibration.json
  step "dlsize calibrate" 100 calibrate.log "$dlsize" calibrate --workload resnet50 --accelerator cuda \
    --batch-size "$batch" --precision "$precision" --warmup 10 --steps 30 --out "$cal"
  outcome calibrate "$(jget "$cal" '"%.0f images/s wall to wall, %.0f event to event; loss %.3f -> %.3f" % (r["measured"]["samples_per_s_wall"], r["measured"]["samples_per_s_event"], r["loss"]["first"], r["loss"]["last"])')" calibrate.log
  dl_wall=$(jget "$cal" 'r["measured"]["samples_per_s_wall"]')
  row[ops]=$(jget "$cal" '", ".join("%s %.1f" % kv for kv in sorted(r["measured"]["op_time_ms"].items(), key=lambda kv: -kv[1]))')
  row[ratio]=$(python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$dl_wall" "$torch_wall" 2>/dev/null || echo "n/a")

  # 3. The GPU tests.
  gpu_tests=$bundle/dlsize_gpu_tests
  # shellcheck disable=SC2086 # the arguments are Catch2's, split on purpose
  step "GPU tests" 150 gpu-tests.log "$gpu_tests" ${DLSIZE_GPU_TESTS_ARGS:-}
  case $rc in
    77) row[tests]="skipped: $(head -1 "$logs/gpu-tests.log")" ;;
    *) outcome tests "passed: $(grep -E "All tests passed|test cases?" "$logs/gpu-tests.log" | tail -1)" gpu-tests.log ;;
  esac

  # 4. Training from storage: a small dataset, read through the pipeline into the GPU.
  ds=$work/dataset
  step "datagen" 30 datagen.log "$dlsize" datagen --workload resnet50 --dataset "$ds" \
    --size "${DLSIZE_CHECK_DATASET:-1GiB}" --quiet
  if ((rc == 0)); then
    step "bench --accelerator cuda" 60 bench.log "$dlsize" bench --workload resnet50 --dataset "$ds" \
      --accelerator cuda --batch-size "$batch" --precision "$precision" --epochs 1 --quiet \
      --out "$logs/bench-cuda.json"
    outcome bench "$(jget "$logs/bench-cuda.json" '"AU %.3f, %.0f samples/s" % (r["summary"]["accelerator_utilization"], r["summary"]["samples_per_s"])')" bench.log
  else
    outcome bench "" datagen.log
  fi
  rm -rf "$ds"

  # 5. Last and optional: compute-sanitizer, which some machines' runtimes refuse.
  if ! command -v compute-sanitizer >/dev/null; then
    row[sanitizer]="skipped: compute-sanitizer not found"
  else
    step "compute-sanitizer" 80 sanitizer.log compute-sanitizer --tool memcheck --error-exitcode 3 \
      "$gpu_tests" "[sanitize]"
    if grep -qiE "not supported|error 999" "$logs/sanitizer.log"; then
      row[sanitizer]="skipped: not supported on this machine ($(grep -m1 -iE 'not supported|error 999' "$logs/sanitizer.log" | cut -c1-100))"
    elif ((rc == 124 || rc == 125)); then
      # Optional: running out of time here is noted, not a failure of the check.
      row[sanitizer]="not finished: $( ((rc == 124)) && echo "timed out" || echo "no time left") (optional)"
    else
      outcome sanitizer "clean ($(grep -oE "ERROR SUMMARY: [0-9]+ errors?" "$logs/sanitizer.log" | tail -1))" sanitizer.log
    fi
  fi
fi

elapsed=$(($(date +%s) - t_start))
table=$logs/table.md
{
  echo "| check | result |"
  echo "|---|---|"
  echo "| GPU | ${row[gpu]:-?} |"
  echo "| bundle and libraries | ${row[setup]:-?} |"
  echo "| PyTorch ResNet-50 $precision batch $batch, channels_last | ${row[torch]:-not run} |"
  echo "| dlsize calibrate ResNet-50 $precision batch $batch | ${row[calibrate]:-not run} |"
  echo "| dlsize / PyTorch, wall to wall (goal >= 0.9) | ${row[ratio]:-n/a} |"
  echo "| dlsize GPU ms per step by layer kind | ${row[ops]:-n/a} |"
  echo "| GPU tests | ${row[tests]:-not run} |"
  echo "| bench --accelerator cuda, 1 epoch of ${DLSIZE_CHECK_DATASET:-1GiB} | ${row[bench]:-not run} |"
  echo "| compute-sanitizer memcheck, small GPU tests | ${row[sanitizer]:-not run} |"
  echo "| wall time (budget $budget s) | $elapsed s |"
} >"$table"
cp "$table" "$out/table.md"
tar -czf "$out/gpu-check.tar.gz" -C "$work" gpu-check
echo
cat "$table"
exit $failed
