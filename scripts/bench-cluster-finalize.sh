#!/usr/bin/env bash
# Repeated 2-host jobs over TCP on the cluster bed (scripts/cluster-bed.sh): does every job end?
# MPICH 4.0.2's MPI_Finalize over UCX's TCP sometimes never returns after a complete job; dlsize
# runs it under a watchdog of --rank-timeout (docs/cluster.md). Prints one line per run (exit
# status, seconds, whether a rank left MPI_Finalize by the watchdog) and a tally.
#
# Usage: scripts/bench-cluster-finalize.sh OUT [RUNS (20)] [RANK_TIMEOUT (3s)]
# Needs a bed of 2 hosts or more with the gluster store up, and build/dlsize.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: scripts/bench-cluster-finalize.sh OUT [RUNS] [RANK_TIMEOUT]}
RUNS=${2:-20}
RT=${3:-3s}
BED=$ROOT/scripts/cluster-bed.sh
DLSIZE=${DLSIZE:-$ROOT/build/dlsize}
[[ -e $OUT ]] && { echo "finalize: $OUT exists; give a new folder" >&2; exit 2; }
mkdir -p "$OUT"
eval "$("$BED" env)" || exit 1
ds=$DLSIZE_BED_GLUSTER/finalize
"$BED" exec h1 "$DLSIZE" datagen --workload resnet50 --files 8 --records-per-file 32 --quiet \
  --dataset "$ds" >/dev/null || { echo "finalize: datagen failed" >&2; exit 1; }
ended=0 watchdog=0 complete=0
for i in $(seq "$RUNS"); do
  t0=${EPOCHREALTIME/./}
  timeout -k 5 120 "$BED" mpiexec -hosts h1,h2 -np 2 -ppn 1 "$DLSIZE" bench --workload resnet50 \
    --dataset "$ds" --accelerator emulated:h100 --batch-size 16 --compute-time 20ms --epochs 1 \
    --time-limit 2s --rank-timeout "$RT" --quiet --out "$OUT/run-$i.json" >"$OUT/run-$i.out" 2>&1
  rc=$?
  took=$(((${EPOCHREALTIME/./} - t0) / 100000))
  w=$(grep -c "MPI_Finalize did not return" "$OUT/run-$i.out")
  st=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['status'])" "$OUT/run-$i.json" 2>/dev/null)
  ((rc != 124 && rc != 137)) && ended=$((ended + 1))
  ((w > 0)) && watchdog=$((watchdog + 1))
  [[ $st == complete ]] && complete=$((complete + 1))
  echo "run $i: exit $rc in $((took / 10)).$((took % 10)) s, report ${st:-none}, ranks out by the watchdog: $w"
done
echo "$RUNS runs: $ended ended by themselves, $complete complete reports, $watchdog with a rank out of MPI_Finalize by the watchdog"
"$BED" exec h1 rm -rf "$ds"
