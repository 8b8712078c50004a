#!/usr/bin/env bash
# bench --client-ram: under a memory cgroup of that size the page cache holds a dataset about half
# the limit (warm epochs nearly all hits) and not one 4 × the limit (warm epochs nearly all
# misses); the child cgroup is gone afterwards; direct I/O and a limit too small are refused.
# The storage counter is the whole device's: other I/O on it only lowers the hit ratio, so the
# test runs alone, and the half-size case takes the best of up to 3 runs.
# labels: integration serial
source "$(dirname "$0")/lib.sh"
small=$SCRATCH/small big=$SCRATCH/big
"$DLSIZE" datagen --workload resnet50 --dataset "$small" --size 32MiB --records-per-file 64 --quiet >/dev/null
"$DLSIZE" datagen --workload resnet50 --dataset "$big" --size 256MiB --records-per-file 64 --quiet >/dev/null
run() { # NAME DATASET [options...]
  local name=$1 ds=$2
  shift 2
  "$DLSIZE" bench --workload resnet50 --dataset "$ds" --cache buffered --client-ram 64MiB \
    --epochs 3 --sample-interval 50ms --quiet --out "$SCRATCH/$name.json" "$@"
}
if ! ERR=$(run probe "$small" 2>&1); then
  if [[ "$ERR" == *"no memory cgroup can be made"* ]]; then
    echo "skip: $ERR"
    exit 77
  fi
  fail "bench --client-ram on the small dataset: $ERR"
fi
if [[ $(json "$SCRATCH/probe.json" "r['storage']['counter'] is None") == True ]]; then
  echo "skip: no block-device or NFS counters for this file system"
  exit 77
fi
expect_rc 0 "4 x the limit" -- run big "$big"
for name in probe big; do
  dir=$(json "$SCRATCH/$name.json" "r['cache_emulation']['cgroup']['dir']")
  [[ -n "$dir" && ! -e "$dir" ]] && pass "$name: the child cgroup is removed" || fail "$name: $dir is left"
done
# The warm epochs' storage comes from the timeseries, which ends with a closing point: even a
# run shorter than one --sample-interval has a figure.
warm='(r["storage"]["warm_epochs"] or {}).get("hit_ratio")'
[[ $(json "$SCRATCH/probe.json" "$warm is not None") == True ]] \
  && pass "a run shorter than a few sample intervals has its warm hit ratio" \
  || fail "no storage.warm_epochs.hit_ratio in $SCRATCH/probe.json"
hot=$(json "$SCRATCH/probe.json" "$warm or 0")
for i in 2 3; do
  "$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0.6 else 1)" "$hot" && break
  rm -f "$SCRATCH/probe.json"
  run probe "$small" >/dev/null 2>&1 || break
  hot=$(json "$SCRATCH/probe.json" "max($hot, $warm or 0)")
done
# What the child's page cache held, which no other I/O changes: all of the small dataset, and
# no more than the limit allows of the big one.
[[ $(json "$SCRATCH/probe.json" "r['cache_emulation']['page_cache_bytes_peak'] >= 0.9 * r['dataset']['bytes']") == True ]] \
  && pass "the small dataset stays whole in the child's page cache" || fail "small dataset not cached"
[[ $(json "$SCRATCH/big.json" "r['cache_emulation']['page_cache_bytes_peak'] <= 64 * 2**20 + 4 * 2**20") == True ]] \
  && pass "the big dataset's page cache stays within the limit" || fail "page cache above the limit"
cold=$(json "$SCRATCH/big.json" "r['storage']['warm_epochs']['hit_ratio']")
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0.6 else 1)" "$hot" \
  && pass "dataset 0.5 x the limit: warm hit ratio $hot > 0.6" || fail "0.5 x: warm hit ratio $hot"
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) < 0.35 else 1)" "$cold" \
  && pass "dataset 4 x the limit: warm hit ratio $cold < 0.35" || fail "4 x: warm hit ratio $cold"
[[ $(json "$SCRATCH/big.json" "r['cache_emulation']['evicted']['resident_bytes_after'] < 2**20 and r['cache_emulation']['evicted']['files'] > 0") == True ]] \
  && pass "the dataset's pages were evicted first" || fail "eviction not recorded"
[[ $(json "$SCRATCH/big.json" "r['cache_emulation']['limit_bytes_start'] >= 64 * 2**20 + r['cache_emulation']['footprint_bytes_start']") == True ]] \
  && pass "the limit adds the process's footprint" || fail "limit below client RAM + footprint"

expect_rc 2 "--cache direct refused" -- run direct "$small" --cache direct
expect_text "--client-ram" "the refusal names --client-ram"
expect_text "valid: --cache buffered" "and says what is valid"
expect_rc 2 "a limit too small refused" -- run tiny "$small" --client-ram 1MiB
expect_text "too small to run" "the refusal says why"
expect_text "32.00 MiB or more" "and gives the smallest that runs"
[[ ! -e "$SCRATCH/direct.json" && ! -e "$SCRATCH/tiny.json" ]] && pass "refused runs write no report" || fail "a refused run wrote a report"
validate_made_json
finish
