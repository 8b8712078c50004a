#!/usr/bin/env bash
# dlsize size: reports of a capped backend with a known knee into JSON that validates against
# docs/sizing.schema.json, Markdown, and well-formed self-contained HTML, with MLPerf Storage's
# verdict per point (too few runs; a qualifying point with its warm-up); bad input refused.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
"$PY" -c "import jsonschema" 2>/dev/null || { echo "skip: python3-jsonschema is not installed (scripts/deps.sh --test installs it)"; exit 77; }
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 128MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
expect_rc 0 "a real training run as the template" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" \
  --accelerator emulated:h100 --accelerators 2 --batch-size 8 --compute-time 5ms --epochs 1 --quiet --out "$SCRATCH/t.json"
mkdir -p "$SCRATCH/runs"
# 40 MB/s per accelerator against a 200 MB/s cap: the knee is at 5 accelerators.
"$PY" "$here/make_sizing_reports.py" "$SCRATCH/t.json" "$SCRATCH/runs" 200e6 40e6 1,2,3,4,6,8 3
expect_rc 0 "size a folder of reports" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/z" \
  --target-accelerators 16,64 --data-growth 1,2 --nic-bandwidth 800Mb/s --clients 4
expect_text "knee at" "prints the knee"
for f in z.json z.md z.html; do [[ -s $SCRATCH/$f ]] && pass "$f written" || fail "$f missing"; done
grep -q "Write path: not measured" "$SCRATCH/z.md" && grep -q "Write path: not measured" "$SCRATCH/z.html" \
  && pass "with training runs only, Markdown and HTML say the write path is not measured" || fail "write path not said"
"$PY" - "$root/docs/sizing.schema.json" "$SCRATCH/z.json" <<'PY' && pass "the JSON validates against docs/sizing.schema.json" || fail "schema validation"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
jsonschema.validate(json.load(open(sys.argv[2])), schema)
PY
check=$(json "$SCRATCH/z.json" "len(r['series']) == 1 and len(r['series'][0]['runs']) == 18 and
  r['series'][0]['knee']['chosen'] and abs(r['series'][0]['knee']['accelerators'] - 5) <= 1 and
  abs(r['series'][0]['ceiling']['bytes_per_s'] - 200e6) < 2e6 and
  r['series'][0]['au_knee']['first_below_accelerators'] == 6 and
  abs(r['series'][0]['limit_bytes_per_s'] - 320e6) < 1 and
  r['series'][0]['ceiling']['storage_limited_runs'] == 6 and
  all('extrapolated' in p['flags'] and 'past the knee' in p['flags'] and 'over the limit' in p['flags'] for p in r['series'][0]['projections']) and
  abs(r['series'][0]['projections'][0]['required_bytes_per_s'] - 16 * 40e6) < 16e6")
[[ $check == True ]] && pass "knee within one step of 5, ceiling 200 MB/s, every projection flagged" || fail "sizing: $(head -c 3000 "$SCRATCH/z.json")"
# MLPerf Storage per point: 3 runs at each of 6 counts are too few, each point says so.
check=$(json "$SCRATCH/z.json" "len(r['series'][0]['measured']) == 6 and all(
  v['verdict'] == 'INVALID' and not v['qualifies'] and v['runs_counted'] == 3 and v['warm_up'] is None and
  v['rules'][0]['verdict'] == 'FAIL' and '3 complete runs' in v['rules'][0]['measured'] and
  all('dlsize size' in x['judged_by'] and x['source'] for x in v['rules'])
  for v in [m['mlperf_validity'] for m in r['series'][0]['measured']])")
[[ $check == True ]] && pass "each point of 3 runs is judged INVALID for MLPerf Storage: too few runs" || fail "mlperf_validity: $(json "$SCRATCH/z.json" "r['series'][0]['measured'][0]")"
grep -q "0 of 6 points qualify as MLPerf Storage v3.0 runs: why in the appendix" "$SCRATCH/z.md" && grep -q "0 of 6 points qualify as MLPerf Storage" "$SCRATCH/z.html" \
  && grep -q "accelerators: INVALID (FAIL: 6 runs, the first the warm-up" "$SCRATCH/z.md" && grep -q "| INVALID |" "$SCRATCH/z.md" \
  && pass "Markdown and HTML say how many points qualify in one line, the appendix why each does not" || fail "qualifying points not said"
"$PY" "$root/scripts/check_html.py" "$SCRATCH/z.html" --svg 3 --tables 4 && pass "HTML well-formed and self-contained" || fail "HTML check"
grep -q "^## Reproduce" "$SCRATCH/z.md" && grep -q "dlsize size" "$SCRATCH/z.md" && pass "Markdown says how to reproduce" || fail "Markdown reproduce section"
# S3 runs: the same reports with a storage.s3 block of 114,660 B GETs whose first byte takes 60 %
# of each GET's time: the requests bound the capped runs; one report alone is not judged.
mkdir -p "$SCRATCH/s3runs"
"$PY" - "$SCRATCH/runs" "$SCRATCH/s3runs" <<'PY'
import glob, json, os, sys
lat = lambda mean: {"count": 1000, "mean_s": mean, "p50_s": mean, "p90_s": mean, "p99_s": mean, "p999_s": mean, "max_s": mean}
for f in glob.glob(sys.argv[1] + "/*.json"):
    r = json.load(open(f))
    s = r["summary"]
    n = round(s["read_bytes_per_s"] * s["wall_s"] / 114660)
    r["storage"]["s3"] = {"endpoints": ["http://127.0.0.1:7480"], "bucket": "b", "prefix": "r50", "region": "us-east-1",
        "addressing": "path", "server": "", "requests": n, "bytes": n * 114660, "retries": 0, "retries_by_cause": {},
        "errors": 0, "errors_by_cause": {}, "connections_opened": 8, "first_byte": lat(0.006), "latency": lat(0.010)}
    json.dump(r, open(os.path.join(sys.argv[2], os.path.basename(f)), "w"))
PY
expect_rc 0 "size S3 runs" -- "$DLSIZE" size "$SCRATCH/s3runs" --out "$SCRATCH/s3z" --target-accelerators 16
expect_text "limit      requests: in the" "the terminal says the requests bound the runs"
expect_rc 0 "the S3 sizing validates against docs/sizing.schema.json" -- "$DLSIZE" validate "$SCRATCH/s3z.json"
check=$(json "$SCRATCH/s3z.json" "[[o['limit'], len(o['runs']), round(o['bytes_per_request']), round(o['connection_bytes_per_s']),
  abs(o['targets'][0]['requests_per_s'] - r['series'][0]['projections'][0]['required_bytes_per_s'] / 114660) < 1e-6,
  abs(o['targets'][0]['requests_in_flight'] - o['targets'][0]['requests_per_s'] * 0.010) < 1e-6]
  for o in [r['series'][0]['objects']]][0]")
[[ $check == "['requests', 18, 114660, 28665000, True, True]" ]] && pass "S3 series: GET/s and in flight per target, the requests bind" || fail "objects: $check"
[[ $(json "$SCRATCH/z.json" "'objects' in r['series'][0]") == False ]] && ! grep -q "Object store requests" "$SCRATCH/z.md" \
  && grep -q "limit: requests" "$SCRATCH/s3z.md" && grep -q "Object store requests" "$SCRATCH/s3z.html" \
  && pass "Markdown and HTML of the S3 series show its GETs; a series of files has none" || fail "objects in a file series, or none in the S3 one"
expect_rc 0 "size one S3 report" -- "$DLSIZE" size "$SCRATCH/s3runs/n2-r1.json" --out "$SCRATCH/s3one"
[[ $(json "$SCRATCH/s3one.json" "r['series'][0]['objects']['limit'] + ': ' + r['series'][0]['objects']['limit_reason']") == "not judged: 1 run with request figures"* ]] \
  && pass "one S3 report: which limit binds is not judged" || fail "one report: $(json "$SCRATCH/s3one.json" "r['series'][0]['objects']")"
# A point that qualifies: 6 MLPerf-sized runs at 2 accelerators (625 steps per epoch, a dataset of
# 6 × the client's RAM, the 5 epochs resnet50 asks), the first of them the warm-up, and a stopped
# run before them that counts for nothing.
mkdir -p "$SCRATCH/qual"
"$PY" "$here/make_sizing_reports.py" "$SCRATCH/t.json" "$SCRATCH/qual" 200e6 40e6 2 6
cp "$SCRATCH/qual/n2-r1.json" "$SCRATCH/qual/n2-r0.json"
"$PY" - "$SCRATCH/qual" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.json"):
    r = json.load(open(f))
    s = r["summary"]
    s["steps_per_epoch"] = 625
    s["epochs"] = s["epochs_completed"] = r["workload"]["epochs"]
    r["dataset"].update(bytes=48000000000, client_ram_bytes=8000000000)
    if f.endswith("n2-r0.json"):
        r.update(status="incomplete", reason="interrupted", run_id="0" * 31 + "1")
    json.dump(r, open(f, "w"))
PY
expect_rc 0 "size a point of MLPerf-sized runs (v2 rules)" -- "$DLSIZE" size "$SCRATCH/qual" --out "$SCRATCH/q" --rules v2
check=$(json "$SCRATCH/q.json" "all(v['verdict'] == 'VALID' and v['qualifies'] and v['runs_counted'] == 5 and
  v['warm_up'].endswith('n2-r1.json') and not any(f.endswith('n2-r0.json') for f in v['counted']) and
  v['samples_per_s_spread'] == 0 and [x['verdict'] for x in v['rules']] == ['PASS', 'PASS', 'PASS']
  for v in [r['series'][0]['measured'][0]['mlperf_validity']])")
[[ $check == True ]] && pass "6 valid runs within 5 %: the first is the warm-up, 5 counted, the stopped run not among them; the point qualifies" \
  || fail "qualifying point: $(json "$SCRATCH/q.json" "r['series'][0]['measured'][0]['mlperf_validity']")"
grep -q "1 of 1 point qualifies as MLPerf Storage v2.0 runs" "$SCRATCH/q.md" && pass "the summary says the point qualifies" || fail "summary: $(head -20 "$SCRATCH/q.md")"
expect_rc 0 "size the same point under v3's rules" -- "$DLSIZE" size "$SCRATCH/qual" --out "$SCRATCH/q3"
check=$(json "$SCRATCH/q3.json" "all(v['rules_edition'] == 'v3' and v['rules'][0]['verdict'] == 'PASS' and
  v['warm_up'].endswith('n2-r1.json') and 'Rules.md' in v['rules'][0]['source']
  for v in [r['series'][0]['measured'][0]['mlperf_validity']])")
[[ $check == True ]] && pass "v3: the point's 6 runs, the first the warm-up, pass the runs rule; the edition is recorded" \
  || fail "v3 point: $(json "$SCRATCH/q3.json" "r['series'][0]['measured'][0]['mlperf_validity']")"
expect_rc 2 "existing outputs are not overwritten" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/z"
expect_text "never overwrites" "message says why"
expect_rc 2 "the old --cache-bytes is refused with the new names" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/y" --cache-bytes 1GiB
expect_text "--client-ram" "message names --client-ram"
expect_rc 0 "the old --nodes still reads as --clients" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/old" --nic-bandwidth 100MB/s --nodes 2
[[ $(json "$SCRATCH/old.json" "r['inputs']['options']['clients'] == 2 and abs(r['series'][0]['limit_bytes_per_s'] - 160e6) < 1") == True ]] \
  && pass "--nodes 2 is 2 clients at 80 % of 100 MB/s" || fail "--nodes alias"
expect_rc 2 "bad cache model" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/y" --cache-model fifo
expect_text "valid: auto" "message lists the models"
expect_rc 2 "missing input" -- "$DLSIZE" size "$SCRATCH/nothing" --out "$SCRATCH/y"
mkdir -p "$SCRATCH/empty"
expect_rc 2 "a folder without reports" -- "$DLSIZE" size "$SCRATCH/empty" --out "$SCRATCH/y"
expect_text "no dlsize bench or checkpoint reports" "message says why"
expect_rc 2 "bad headroom" -- "$DLSIZE" size "$SCRATCH/runs" --out "$SCRATCH/y" --headroom 0.5
finish
