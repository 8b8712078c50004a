#!/usr/bin/env bash
# labels: integration serial
# A sweep can produce a valid MLPerf Storage v3.0 point: with "repeats": 6 under v3 rules it runs
# each point's repeats back to back ("order": "points" by default, as --dry-run says), so size
# finds the point's 6 runs consecutive, the first the warm-up, and the point VALID where the runs
# allow it (each run MLPerf-sized: 5 epochs of ≥ 500 steps over a dataset ≥ 5 × a declared
# client RAM, the reports on another file system than the dataset). "order": "repeats" keeps a
# point's runs apart, and the same rule then fails. The README's "repeats": 6 example is this.
source "$(dirname "$0")/lib.sh"
[[ -d /dev/shm && -w /dev/shm ]] || { echo "skip: no writable tmpfs at /dev/shm"; exit 77; }
shm=$(mktemp -d /dev/shm/dlsize-mlperf.XXXXXX)
trap 'rm -rf "$shm" "$SCRATCH"' EXIT
trap 'exit 130' INT TERM
# 1,500 samples of resnet50: 750 steps of 2 accelerators × batch 1, and ≥ 5 × 32 MiB.
"$DLSIZE" datagen --workload resnet50 --dataset "$shm/r50" --size 180MB --quiet >/dev/null || { fail "datagen"; finish; }
config() { # ORDER: "" for the default
  cat <<EOF
{"bench": {"workload": "resnet50", "dataset": "$shm/r50", "accelerator": "emulated:h100",
           "batch-size": 1, "compute-time": "1ms", "epochs": 5, "cache": "buffered",
           "client-ram": "32MiB"},
 "accelerators": [2], "repeats": 6 ${1:+, \"order\": \"$1\"}}
EOF
}
config "" >"$SCRATCH/points.json"
expect_rc 0 "a dry run of 6 repeats" -- "$DLSIZE" sweep --config "$SCRATCH/points.json" --out "$SCRATCH/dry" --dry-run
expect_text "in the order points" "the dry run says a point's repeats run back to back"
expect_text "MLPerf Storage v3.0 rules" "and why: v3.0 asks a point's runs to be consecutive"
if ! ERR=$("$DLSIZE" sweep --config "$SCRATCH/points.json" --out "$SCRATCH/sw" 2>&1); then
  if grep -q "no memory cgroup can be made" "$SCRATCH"/sw/logs/*.log 2>/dev/null; then
    [[ ${CI:-} == true ]] && { fail "no memory cgroup for --client-ram under CI=true"; finish; }
    echo "skip: --client-ram needs a memory cgroup: $(grep -h "memory cgroup" "$SCRATCH"/sw/logs/*.log | head -1)"
    exit 77
  fi
  fail "the 6-repeat sweep: $ERR $(tail -n 3 "$SCRATCH"/sw/logs/*.log)"
  finish
fi
pass "the 6-repeat sweep ran"
expect_rc 0 "size the sweep under v3 rules" -- "$DLSIZE" size "$SCRATCH/sw" --out "$SCRATCH/z" --target-accelerators 4
v="r['series'][0]['measured'][0]['mlperf_validity']"
rule() { json "$SCRATCH/z.json" "[x['verdict'] for x in $v['rules'] if x['rule'].startswith('$1')]"; }
[[ $(rule "runs consecutive") == "['PASS']" ]] && pass "the point's 6 runs are consecutive" \
  || fail "consecutive: $(json "$SCRATCH/z.json" "$v")"
[[ $(rule "each run valid") == "['PASS']" ]] && pass "each run is valid by itself" \
  || fail "each run: $(json "$SCRATCH/z.json" "$v")"
if [[ $(json "$SCRATCH/z.json" "$v['verdict']") == VALID ]]; then
  pass "the point qualifies as an MLPerf Storage v3.0 point"
  grep -q "1 of 1 point qualifies as MLPerf Storage v3.0 runs" "$SCRATCH/z.md" \
    && pass "the first screen says so in one line" || fail "summary: $(grep -n "qualif" "$SCRATCH/z.md")"
elif [[ $(rule "runs within 5") == "['FAIL']" ]]; then
  # The one rule the machine's noise decides: said, not passed.
  skip_part "the runs spread beyond 5 % on this machine: $(json "$SCRATCH/z.json" "$v['samples_per_s_spread']")"
else
  fail "the point: $(json "$SCRATCH/z.json" "$v")"
fi
grep -q "## Appendix: MLPerf Storage validity per point" "$SCRATCH/z.md" \
  && pass "the rules of each point are in the appendix" || fail "no appendix"
# "order": "repeats" with two counts: each point's runs have the other count's between them.
config repeats >"$SCRATCH/repeats.json"
expect_rc 0 "a dry run that asks for repeats outermost" -- "$DLSIZE" sweep --config "$SCRATCH/repeats.json" --out "$SCRATCH/dry2" --dry-run
expect_text "in the order repeats" "the dry run says every point runs once before the next repeat"
sed 's/"order": "repeats"/"order": "sideways"/' "$SCRATCH/repeats.json" >"$SCRATCH/bad.json"
expect_rc 2 "an order that is neither" -- "$DLSIZE" sweep --config "$SCRATCH/bad.json" --out "$SCRATCH/dry3" --dry-run
expect_text "valid: points" "the message names the orders"
finish
