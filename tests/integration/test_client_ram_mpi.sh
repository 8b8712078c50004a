#!/usr/bin/env bash
# bench --client-ram under MPI (mpiexec -np 2 on this host): the host's ranks share one child
# cgroup whose limit counts both ranks' own memory; it is gone after a clean end and after a
# run that fails; ranks of one host in different memory cgroups are refused, naming them.
# labels: integration mpi serial
source "$(dirname "$0")/lib.sh"
require_mpi
mpi() { local n=$1; shift; timeout -k 5 120 "$MPIEXEC" -np "$n" "$@"; }
ds=$SCRATCH/small
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 32MiB --records-per-file 64 --quiet >/dev/null
# Runs of about a second: the limit follows the processes' memory every 100 ms.
train=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --batch-size 32 --compute-time 40ms
       --cache buffered --client-ram 64MiB --epochs 3 --sample-interval 50ms --quiet)
if ! ERR=$("$DLSIZE" "${train[@]}" --out "$SCRATCH/one.json" 2>&1); then
  if [[ "$ERR" == *"no memory cgroup can be made"* ]]; then
    echo "skip: $ERR"
    exit 77
  fi
  fail "bench --client-ram in one process: $ERR"
fi
parent=$(json "$SCRATCH/one.json" "r['cache_emulation']['cgroup']['dir'].rsplit('/', 1)[0]")
one=$(json "$SCRATCH/one.json" "r['cache_emulation']['footprint_bytes_peak']")

expect_rc 0 "2 ranks under one --client-ram" -- mpi 2 "$DLSIZE" "${train[@]}" --out "$SCRATCH/two.json"
check=$(json "$SCRATCH/two.json" "r['status'] == 'complete' and r['topology']['ranks'] == 2 and
  r['cache_emulation']['cgroup']['ranks'] == 2 and r['cache_emulation']['cgroup']['removed']")
[[ $check == True ]] && pass "one cgroup for the host's 2 ranks, removed" || fail "2 ranks: $(json "$SCRATCH/two.json" "r.get('cache_emulation')")"
dir=$(json "$SCRATCH/two.json" "r['cache_emulation']['cgroup']['dir']")
[[ -n $dir && ! -e $dir ]] && pass "the child cgroup is gone" || fail "$dir is left"
# Both ranks' own memory is charged to the child (each about one process's), and the limit
# made room for it above the RAM.
[[ $(json "$SCRATCH/two.json" "r['cache_emulation']['footprint_bytes_peak'] > 1.5 * $one") == True ]] \
  && pass "the footprint counts both ranks (one process: $one bytes)" || fail "footprint of 2 ranks: $(json "$SCRATCH/two.json" "r['cache_emulation']['footprint_bytes_peak']")"
[[ $(json "$SCRATCH/two.json" "r['cache_emulation']['limit_bytes_peak'] >= 64 * 2**20 + 0.9 * r['cache_emulation']['footprint_bytes_peak']") == True ]] \
  && pass "the limit is the RAM plus every rank's footprint" || fail "limit below RAM + footprints"
[[ $(json "$SCRATCH/two.json" "r['cache_emulation']['page_cache_bytes_peak'] >= 0.9 * r['dataset']['bytes']") == True ]] \
  && pass "the dataset the ranks read is cached in the one child" || fail "page cache of the child"

# A run that fails (storage that stops delivering): every rank leaves, the child is removed.
expect_rc 1 "a failing run of 2 ranks" -- mpi 2 "$DLSIZE" "${train[@]}" --max-read-rate 1B/s --stall-timeout 2s --rank-timeout 30s --out "$SCRATCH/hung.json"
dir=$(json "$SCRATCH/hung.json" "r['cache_emulation']['cgroup']['dir']")
[[ $(json "$SCRATCH/hung.json" "r['status']") == incomplete && -n $dir && ! -e $dir ]] \
  && pass "after a failed run the child is gone too" || fail "failed run: $dir is left"

# Rank 1 in a memory cgroup of its own, as a launcher that confines each task puts it.
own=$parent/dlsize-task-$$
if mkdir "$own" 2>/dev/null; then
  expect_rc 2 "ranks of one host in different memory cgroups" -- mpi 2 bash -c \
    '[[ $PMI_RANK == 1 ]] && echo $$ >"$0/cgroup.procs"; exec "$@"' "$own" "$DLSIZE" "${train[@]}" --out "$SCRATCH/split.json"
  expect_text "are in different memory cgroups" "the refusal says why"
  expect_text "dlsize-task-$$" "and names the cgroups"
  [[ ! -e $SCRATCH/split.json ]] && pass "the refused job writes no report" || fail "a refused job wrote a report"
  rmdir "$own" || fail "could not remove $own"
else
  skip_part "a second memory cgroup cannot be made under $parent"
fi
[[ -z $(find "$parent" -maxdepth 1 -name 'dlsize-[0-9]*' -newer "$SCRATCH/one.json" 2>/dev/null) ]] \
  && pass "no child cgroup is left" || fail "left: $(find "$parent" -maxdepth 1 -name 'dlsize-*')"
validate_made_json
finish
