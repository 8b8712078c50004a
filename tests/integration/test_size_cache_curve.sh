#!/usr/bin/env bash
# dlsize size on a cache sweep (the runs of results/cache-sweep): it fits the measured cache
# curve, shows it beside both models with residuals, and projects grown data with it by
# default: more storage than LRU says, as measured; with too few f it says so and uses lru.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
"$PY" -c "import jsonschema" 2>/dev/null || { echo "skip: python3-jsonschema is not installed (scripts/deps.sh --test installs it)"; exit 77; }
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 32MiB --records-per-file 64 --quiet >/dev/null || { echo "datagen failed"; exit 1; }
expect_rc 0 "a real buffered training run as the template" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" \
  --accelerator emulated:h100 --accelerators 2 --batch-size 32 --compute-time 5ms --cache buffered --epochs 1 --quiet --out "$SCRATCH/t.json"
mkdir -p "$SCRATCH/sweep" "$SCRATCH/few"
"$PY" "$here/make_cache_sweep_reports.py" "$SCRATCH/t.json" "$root/results/cache-sweep/sweep.json" "$SCRATCH/sweep"
"$PY" "$here/make_cache_sweep_reports.py" "$SCRATCH/t.json" "$root/results/cache-sweep/sweep.json" "$SCRATCH/few" 0.3
size() { "$DLSIZE" size "$1" --out "$SCRATCH/$2" --target-accelerators 2 --data-growth 1,4 "${@:3}"; }
expect_rc 0 "size a cache sweep (default --cache-model auto)" -- size "$SCRATCH/sweep" auto
expect_text "cache curve resnet50: 21 runs at 7 distinct f" "prints the curve"
expect_rc 0 "the same with --cache-model lru" -- size "$SCRATCH/sweep" lru --cache-model lru
"$PY" - "$root/docs/sizing.schema.json" "$SCRATCH/auto.json" <<'PY' && pass "the JSON validates against docs/sizing.schema.json" || fail "schema validation"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
check=$(json "$SCRATCH/auto.json" "len(r['cache_curves']) == 1 and r['cache_curves'][0]['usable'] and
  len(r['cache_curves'][0]['points']) == 21 and
  r['cache_curves'][0]['residuals']['fit']['rms'] < r['cache_curves'][0]['residuals']['lru']['rms'] and
  r['cache_curves'][0]['residuals']['lru']['mean'] < 0 and
  all(s['cache']['model'] == 'measured' for s in r['series'])")
[[ $check == True ]] && pass "one usable curve of 21 runs, below LRU, used by every series" || fail "curve: $(head -c 2000 "$SCRATCH/auto.json")"
# The 49 MiB dataset grown 4 x: f 0.65, where the kernel hit nothing and LRU says 0.28.
check=$("$PY" - "$SCRATCH/auto.json" "$SCRATCH/lru.json" <<'PY'
import json, sys
def grown(path):
    z = json.load(open(path))
    s = min(z["series"], key=lambda s: s["dataset_bytes"])
    return [p for p in s["projections"] if p["data_growth"] == 4][0]
m, l = grown(sys.argv[1]), grown(sys.argv[2])
print(m["required_bytes_per_s"] > 1.3 * l["required_bytes_per_s"] and m["hit_ratio"] < l["hit_ratio"]
      and "measured cache curve at f 0.65" in m["hit_ratio_source"] and l["hit_ratio_source"] == "lru")
PY
)
[[ $check == True ]] && pass "grown data needs more storage under the measured curve than under LRU" || fail "measured against lru: $check"
grep -q "^## Cache curve: resnet50" "$SCRATCH/auto.md" && grep -q "Residuals of the hit ratio" "$SCRATCH/auto.md" \
  && pass "Markdown shows the curve and its residuals" || fail "Markdown cache curve"
grep -q "Cache curve: resnet50" "$SCRATCH/auto.html" && grep -q "LRU model" "$SCRATCH/auto.html" \
  && pass "HTML shows the curve beside the models" || fail "HTML cache curve"
"$PY" "$root/scripts/check_html.py" "$SCRATCH/auto.html" && pass "HTML well-formed" || fail "HTML check"
expect_rc 0 "a sweep of two distinct f with --cache-model measured" -- size "$SCRATCH/few" few --cache-model measured
expect_text "2 distinct f (3 needed for a curve); the lru model is used" "says why the curve is not used"
[[ $(json "$SCRATCH/few.json" "all(s['cache']['model'] == 'lru' for s in r['series']) and not r['cache_curves'][0]['usable']") == True ]] \
  && pass "and falls back to lru" || fail "few points: not lru"
expect_rc 2 "an unknown model is refused" -- size "$SCRATCH/sweep" bad --cache-model fifo
expect_text "valid: auto" "the refusal lists the models"
finish
