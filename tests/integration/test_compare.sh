#!/usr/bin/env bash
# dlsize compare: one load on two backends (the disk, and the disk behind a read cap) side by
# side; reports of different loads are refused. Every comparison written validates against
# docs/compare.schema.json, and copies of one with a field renamed or removed do not.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
schema=$root/docs/compare.schema.json
# Without python3-jsonschema the other checks still run, and the test then ends as skipped.
have_jsonschema=1
"$PY" -c "import jsonschema" 2>/dev/null || have_jsonschema=0
# validate valid|invalid FILE...: checks the schema itself, then each file against it. With
# valid, prints every error and fails on any; with invalid, fails when a file validates.
validate() {
  "$PY" - "$schema" "$@" <<'PY'
import json, os, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
want, bad = sys.argv[2], 0
for f in sys.argv[3:]:
    errors = list(validator.iter_errors(json.load(open(f))))
    if want == "valid":
        for e in errors:
            print(f"{f}: /{'/'.join(map(str, e.absolute_path))}: {e.message}")
        bad |= bool(errors)
    elif errors:
        print(f"refused {os.path.basename(f)}: {errors[0].message}")
    else:
        print(f"accepted {os.path.basename(f)}")
        bad = 1
sys.exit(bad)
PY
}
# schema_ok FILE: passes when the file validates (nothing to check without jsonschema).
schema_ok() {
  [[ $have_jsonschema == 1 ]] || return 0
  local errors
  if errors=$(validate valid "$1" 2>&1); then
    pass "$(basename "$1") validates against docs/compare.schema.json"
  else
    fail "$(basename "$1") does not validate: $errors"
  fi
}
# variant SRC DST PYTHON: a copy of report SRC with the statements PYTHON applied to its JSON r.
# variant IN OUT EXPR: a made-up run from a real report (EXPR edits r); a run of its own, so it
# gets a run_id of its own (a copy with the same run_id is refused as a duplicate).
variant() {
  "$PY" -c "import json,sys,uuid; r=json.load(open(sys.argv[1])); $3; r['run_id'] = uuid.uuid4().hex; json.dump(r, open(sys.argv[2], 'w'))" "$1" "$2"
}
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 256MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
cat "$ds"/data/*/*.rec >/dev/null
run=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2 --batch-size 16
     --compute-time 20ms --cache buffered --epochs 1 --seed 5 --quiet)
expect_rc 0 "run on the disk" -- "$DLSIZE" "${run[@]}" --out "$SCRATCH/a.json"
expect_rc 0 "run behind a cap" -- "$DLSIZE" "${run[@]}" --max-read-rate 90MB/s --out "$SCRATCH/b.json"
expect_rc 0 "compare two backends" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/b.json" --out "$SCRATCH/c.json" --markdown "$SCRATCH/c.md" --html "$SCRATCH/c.html"
expect_text "capped at 90.0 MB/s" "the second backend is labelled by its cap"
check=$(json "$SCRATCH/c.json" "r['schema'] == 'dlsize.compare/1' and len(r['backends']) == 2 and
  [m for m in r['metrics'] if m['metric'] == 'accelerator_utilization'][0]['against_first'][1]['delta'] < -0.2 and
  [m for m in r['metrics'] if m['metric'] == 'samples_per_s'][0]['against_first'][1]['exceeds_spread'] is None and
  r['backends'][1]['synthetic_latency'] is True and r['backends'][0]['synthetic_latency'] is False and
  len(r['warnings']) == 1 and 'token bucket' in r['warnings'][0]")
[[ $check == True ]] && pass "the capped backend's AU is lower, no spread without repeats, its latency marked synthetic" || fail "comparison: $(cat "$SCRATCH/c.json")"
grep -q "synthetic: --max-read-rate" "$SCRATCH/c.md" && grep -q "^## Samples/s, backend against backend" "$SCRATCH/c.md" \
  && pass "the Markdown opens with a summary and marks the capped latency" || fail "markdown: $(cat "$SCRATCH/c.md")"
schema_ok "$SCRATCH/c.json"
if [[ $have_jsonschema == 1 ]]; then
  # The schema must catch a writer that renames, drops or adds a field: each broken copy of
  # the comparison is refused.
  mkdir -p "$SCRATCH/broken"
  "$PY" - "$SCRATCH/c.json" "$SCRATCH/broken" <<'PY' || fail "could not make the broken copies"
import copy, json, sys
c = json.load(open(sys.argv[1]))
def rename(d, old, new):
    d[new] = d.pop(old)
breaks = {
    "missing-warnings": lambda r: r.pop("warnings"),
    "renamed-top-field": lambda r: rename(r, "accelerators", "accelerator_count"),
    "renamed-backend-field": lambda r: rename(r["backends"][0], "au_passes", "au_pass"),
    "missing-metric": lambda r: r["backends"][1]["metrics"].pop("latency_p99_s"),
    "renamed-median-field": lambda r: rename(r["backends"][0]["metrics"]["samples_per_s"], "spread", "range"),
    "renamed-delta-field": lambda r: rename(r["metrics"][0]["against_first"][1], "exceeds_spread", "beyond_spread"),
    "renamed-row-field": lambda r: rename(r["metrics"][2], "higher_is_better", "higher_better"),
    "extra-field": lambda r: r.update(note="x"),
    "wrong-type": lambda r: r["backends"][0].update(runs="1"),
    "other-schema": lambda r: r.update(schema="dlsize.compare/2"),
}
for name, brk in breaks.items():
    r = copy.deepcopy(c)
    brk(r)
    with open(f"{sys.argv[2]}/{name}.json", "w") as f:
        json.dump(r, f)
PY
  if verdicts=$(validate invalid "$SCRATCH"/broken/*.json 2>&1); then
    pass "the schema refuses each of $(ls "$SCRATCH/broken" | wc -l) broken copies (a field renamed, removed, added or of another type)"
  else
    fail "the schema accepts a broken comparison: $verdicts"
  fi
fi
# Repeats of each backend give spreads and so a true or false exceeds_spread. Made from copies
# of the two runs with some figures moved a little.
variant "$SCRATCH/a.json" "$SCRATCH/a2.json" "r['summary']['samples_per_s'] *= 1.03; r['summary']['accelerator_utilization'] *= 0.99; r['io']['latency']['p99_s'] *= 1.1"
variant "$SCRATCH/b.json" "$SCRATCH/b2.json" "r['summary']['samples_per_s'] *= 0.98; r['summary']['accelerator_utilization'] *= 1.01"
expect_rc 0 "compare repeats of two backends" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/a2.json" "$SCRATCH/b.json" "$SCRATCH/b2.json" --out "$SCRATCH/rep.json" --rules v2
check=$(json "$SCRATCH/rep.json" "[b['runs'] for b in r['backends']] == [2, 2] and
  r['backends'][0]['metrics']['samples_per_s']['spread'] > 0 and
  [m for m in r['metrics'] if m['metric'] == 'accelerator_utilization'][0]['against_first'][1]['exceeds_spread'] is True")
[[ $check == True ]] && pass "repeats give spreads and a difference beyond them" || fail "repeats: $(cat "$SCRATCH/rep.json")"
schema_ok "$SCRATCH/rep.json"
# MLPerf Storage per point: 2 runs of a short run are too few and each run fails its own rules.
check=$(json "$SCRATCH/rep.json" "all(v['verdict'] == 'INVALID' and v['runs_counted'] == 2 and
  [x['verdict'] for x in v['rules']][0::2] == ['FAIL', 'FAIL'] and all('dlsize compare' in x['judged_by'] for x in v['rules'])
  for v in [b['mlperf_validity'] for b in r['backends']])")
[[ $check == True ]] && pass "each backend's point is judged: 2 runs too few, the short runs invalid" || fail "mlperf_validity: $(json "$SCRATCH/rep.json" "r['backends'][0]['mlperf_validity']")"
# Six MLPerf-sized runs of the first backend (625 steps per epoch, a dataset of 6 × the client's
# RAM, the 5 epochs resnet50 asks) within 5 %, the first slow (the warm-up), against one run of
# the second: the first backend's point qualifies, the second's does not.
mlperf="s = r['summary']; s.update(steps_per_epoch=625, epochs=r['workload']['epochs'], epochs_completed=r['workload']['epochs']); r['dataset'].update(bytes=48000000000, client_ram_bytes=8000000000)"
i=0
for f in 0.7 1.0 1.01 1.04 1.02 1.005; do
  i=$((i + 1))
  variant "$SCRATCH/a.json" "$SCRATCH/v$i.json" "$mlperf; s['samples_per_s'] *= $f"
done
variant "$SCRATCH/b.json" "$SCRATCH/vb.json" "$mlperf"
expect_rc 0 "compare MLPerf-sized runs (v2 rules)" -- "$DLSIZE" compare "$SCRATCH"/v{1..6}.json "$SCRATCH/vb.json" --out "$SCRATCH/valid.json" --markdown "$SCRATCH/valid.md" --html "$SCRATCH/valid.html" --rules v2
expect_text "1 of 2 points qualify as MLPerf Storage v2.0 runs: why in the appendix" "the summary on the terminal says how many points qualify"
check=$(json "$SCRATCH/valid.json" "[b['mlperf_validity']['verdict'] for b in r['backends']] == ['VALID', 'INVALID'] and
  r['backends'][0]['mlperf_validity']['warm_up'].endswith('v1.json') and r['backends'][0]['mlperf_validity']['runs_counted'] == 5 and
  r['backends'][0]['mlperf_validity']['samples_per_s_spread'] < 0.05 and
  r['by_accelerators'][0]['backends'][0]['mlperf_validity']['qualifies'] is True")
[[ $check == True ]] && pass "6 runs within 5 % after a slow warm-up qualify; one run does not" || fail "qualifying: $(json "$SCRATCH/valid.json" "r['backends'][0]['mlperf_validity']")"
grep -q "^## Appendix: MLPerf Storage validity per point" "$SCRATCH/valid.md" && grep -q "PASS runs within 5 % of each other" "$SCRATCH/valid.md" \
  && grep -q "MLPerf Storage validity per point" "$SCRATCH/valid.html" \
  && pass "Markdown and HTML show every point's rules" || fail "validity per point not shown: $(cat "$SCRATCH/valid.md")"
schema_ok "$SCRATCH/valid.json"
# The same runs under v3.0's rules (the default): 6 runs of which the first is the warm-up pass
# the runs rule, and each block says which rules judged it.
expect_rc 0 "compare MLPerf-sized runs (v3 rules)" -- "$DLSIZE" compare "$SCRATCH"/v{1..6}.json "$SCRATCH/vb.json" --out "$SCRATCH/valid3.json"
check=$(json "$SCRATCH/valid3.json" "[b['mlperf_validity']['rules_edition'] for b in r['backends']] == ['v3', 'v3'] and
  r['backends'][0]['mlperf_validity']['rules'][0]['rule'] == '6 runs, the first the warm-up' and
  r['backends'][0]['mlperf_validity']['rules'][0]['verdict'] == 'PASS' and '§2.1.17' in r['backends'][0]['mlperf_validity']['rules'][0]['source'] and
  r['backends'][1]['mlperf_validity']['rules'][0]['verdict'] == 'FAIL'")
[[ $check == True ]] && pass "v3: 6 runs with the warm-up first pass the runs rule, one run does not; the edition is recorded" || fail "v3: $(json "$SCRATCH/valid3.json" "r['backends'][0]['mlperf_validity']")"
schema_ok "$SCRATCH/valid3.json"
expect_rc 2 "compare refuses an unknown rules edition" -- "$DLSIZE" compare "$SCRATCH"/v{1..6}.json --rules v4
# The same load over two nodes is another backend, labelled by its topology.
variant "$SCRATCH/a.json" "$SCRATCH/a-2nodes.json" "r['topology'].update(ranks=2, nodes=2, ranks_per_node=1, accelerators_per_rank=2)"
expect_rc 0 "compare one load in one process and over two nodes" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/a-2nodes.json" --out "$SCRATCH/topo.json"
check=$(json "$SCRATCH/topo.json" "len(r['backends']) == 2 and r['backends'][0]['backend'].endswith(', 1 process') and
  r['backends'][1]['backend'].endswith(', 2 nodes × 1 ranks × 2 accelerators')")
[[ $check == True ]] && pass "the topology is part of the backend's label" || fail "topology: $(cat "$SCRATCH/topo.json")"
schema_ok "$SCRATCH/topo.json"
expect_rc 0 "storage-only run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --quiet --out "$SCRATCH/s.json"
expect_rc 2 "compare refuses a different load" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/s.json"
expect_text "not the same load" "message says why"
expect_text "s.json" "message names the file"
# A copy of a report is the same run (one run_id): refused, not counted as a repeat.
mkdir -p "$SCRATCH/copies"
cp "$SCRATCH/s.json" "$SCRATCH/copies/s-copy.json"
expect_rc 2 "compare refuses a copy given as a repeat" -- "$DLSIZE" compare "$SCRATCH/s.json" "$SCRATCH/copies/s-copy.json"
expect_text "copies, not repeats" "the refusal says the two are one run"
expect_text "s-copy.json" "the refusal names the copy"
# Storage-only repeats of one backend: no AU, so null metrics, and a warning that there is only
# one backend.
expect_rc 0 "a second storage-only run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --quiet --out "$SCRATCH/s2.json"
expect_rc 0 "compare storage-only repeats of one backend" -- "$DLSIZE" compare "$SCRATCH/s.json" "$SCRATCH/s2.json" --out "$SCRATCH/same.json"
check=$(json "$SCRATCH/same.json" "r['accelerator'] == 'none' and r['accelerators'] == 0 and len(r['backends']) == 1 and
  r['backends'][0]['metrics']['accelerator_utilization'] is None and len(r['warnings']) == 1")
[[ $check == True ]] && pass "storage-only: no AU, one backend, warned" || fail "storage-only: $(cat "$SCRATCH/same.json")"
schema_ok "$SCRATCH/same.json"
echo '{"schema": "something/1"}' >"$SCRATCH/x.json"
expect_rc 2 "compare refuses a file that is not a report" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/x.json"
expect_rc 2 "compare needs two reports" -- "$DLSIZE" compare "$SCRATCH/a.json"
finish || exit 1
[[ $have_jsonschema == 1 ]] || { echo "skip: python3-jsonschema is not installed (scripts/deps.sh --test installs it), so the JSON was not validated"; exit 77; }
