#!/usr/bin/env bash
# MPI scale-out on this host (oversubscribed): start-up and report-gathering time at 1, 2, 4 and
# 8 ranks, and the emulated-accelerator capacity of one client split over ranks against the
# single-process figure, run back to back.
# Usage: scripts/bench-mpi.sh [SCRATCH_DIR]
#   env: RANKS (1,2,4,8), RUNS (5: start-up runs per point), CAP_RUNS (3), CAP_TOTAL (96,112:
#        emulated resnet50 h100s in all), R50_SIZE (8GiB, page-cached), SECTIONS (startup,capacity)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh >/dev/null
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
"$dlsize" --version | grep -q "mpi: yes" || { echo "bench-mpi: this build has no MPI" >&2; exit 2; }
scratch=${1:-bench-data/mpi}
mkdir -p "$scratch"
"$dlsize" datagen --workload resnet50 --dataset "$scratch/small" --size 256MiB --quiet
"$dlsize" datagen --workload resnet50 --dataset "$scratch/resnet50" --size "${R50_SIZE:-8GiB}" --quiet
echo "bench-mpi: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $("$dlsize" --version | head -1), $(mpiexec.mpich --version | awk '/Version:/ {print "MPICH " $2; exit}')"
python3 scripts/bench_mpi.py "$dlsize" "$scratch"
