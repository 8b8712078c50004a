#!/usr/bin/env bash
# How many emulated accelerators one dlsize process drives at AU >= 90 % when storage is not
# the limit (a page-cached dataset, buffered reads), for resnet50 h100 and unet3d h100, with
# the harness's CPU seconds per GiB and per 1,000 samples; then AU against --max-read-rate
# below the demand, next to the model's prediction min(1, rate / demand).
# Usage: scripts/bench-emulation.sh [SCRATCH_DIR]
#   env: RUNS (3), R50_SIZE (8GiB), UNET_SIZE (6GiB), COUNTS (16,32,64,96,128,160),
#        UNET_COUNTS (1,2,4,6,8,10,12), RATE_ACCELERATORS (4), MIN_STEPS (20 per accelerator),
#        SECTIONS (resnet50,unet3d,rate: which tables)
# The datasets must fit in the page cache together (14 GiB by default).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh >/dev/null
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
scratch=${1:-bench-data/emulation}
mkdir -p "$scratch"
"$dlsize" datagen --workload resnet50 --dataset "$scratch/resnet50" --size "${R50_SIZE:-8GiB}" --quiet
"$dlsize" datagen --workload unet3d --dataset "$scratch/unet3d" --size "${UNET_SIZE:-6GiB}" --quiet
echo "bench-emulation: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $("$dlsize" --version | head -1)"
python3 scripts/bench_emulation.py "$dlsize" "$scratch"
