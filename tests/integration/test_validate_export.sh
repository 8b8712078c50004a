#!/usr/bin/env bash
# dlsize validate checks documents against their embedded schemas as Python's jsonschema does
# (valid 0, broken 1 naming the JSON path, unreadable or unknown 2); dlsize export writes one
# CSV row per report with units in the header.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 64MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
expect_rc 0 "a storage-only run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --cache buffered --quiet --out "$SCRATCH/s.json"
expect_rc 0 "a training run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator emulated:a100 --accelerators 2 \
  --batch-size 16 --compute-time 2ms --cache buffered --quiet --out "$SCRATCH/t.json"
expect_rc 0 "a plan" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --accelerators 8 --out "$SCRATCH/p.json"
expect_rc 0 "dlsize validate accepts them" -- "$DLSIZE" validate "$SCRATCH/s.json" "$SCRATCH/t.json" "$SCRATCH/p.json"
expect_text "valid (dlsize.report/1)" "says which schema"

mkdir -p "$SCRATCH/broken"
/usr/bin/python3 - "$SCRATCH" <<'PY' || fail "could not make the broken copies"
import json, sys
d = sys.argv[1]
s, t, p = (json.load(open(f"{d}/{n}.json")) for n in "stp")
breaks = {
    "report-no-status": (t, lambda r: r.pop("status")),
    "report-negative-samples": (t, lambda r: r["summary"].__setitem__("samples", -1)),
    "report-au-as-string": (t, lambda r: r["summary"].__setitem__("accelerator_utilization", "0.9")),
    "report-bad-digest": (t, lambda r: r["accelerators"][0].__setitem__("sample_digest", "xyz")),
    "report-latency-field-renamed": (s, lambda r: r["io"]["latency"].__setitem__("p50", r["io"]["latency"].pop("p50_s"))),
    "report-null-in-config": (s, lambda r: r["config"].__setitem__("time-limit", None)),
    "report-storage-with-accelerators": (s, lambda r: r["topology"].__setitem__("accelerators", 2)),
    "report-bad-status": (s, lambda r: r.__setitem__("status", "done")),
    "plan-extra-field": (p, lambda r: r.__setitem__("accelerator_count", 8)),
}
for name, (src, f) in breaks.items():
    r = json.loads(json.dumps(src)); f(r)
    json.dump(r, open(f"{d}/broken/{name}.json", "w"))
PY
refused_json "$SCRATCH"/broken/*.json
expect_rc 1 "a negative count is named by its path" -- "$DLSIZE" validate "$SCRATCH/broken/report-negative-samples.json"
expect_text "/summary/samples: -1 is below the minimum 0" "the message names the JSON path"
echo '{"schema": "dlsize.nothing/1"}' > "$SCRATCH/broken/nothing.json"
expect_rc 2 "an unknown schema" -- "$DLSIZE" validate "$SCRATCH/broken/nothing.json"
expect_text "unknown schema 'dlsize.nothing/1'" "names the schema"

# Every document dlsize writes has its schema: the dataset's manifest, its index (JSON lines,
# every line checked), the workload profile index stats emits, a checkpoint folder's manifest,
# the profiles dlsize ships.
ix=$SCRATCH/ix.json
"$DLSIZE" index "$ds" --out "$ix" --quiet >/dev/null || fail "index"
"$DLSIZE" index stats "$ix" --emit-workload "$SCRATCH/shape.json" >/dev/null || fail "index stats"
"$DLSIZE" checkpoint --workload llama3-8b --scale 0.0001 --dir "$SCRATCH/ck" --keep --quiet \
  --out "$SCRATCH/ck-report.json" >/dev/null || fail "checkpoint --keep"
expect_rc 0 "validate knows them all" -- "$DLSIZE" validate "$ds/dlsize-dataset.json" "$ix" \
  "$SCRATCH/shape.json" "$SCRATCH/ck/dlsize-checkpoint.json" "$SCRATCH/ck-report.json" \
  "$ROOT"/workloads/*.json
for kind in "dlsize.dataset/1" "dlsize.index/1, " "dlsize.workload/1" "dlsize.checkpoint/1"; do
  expect_text "valid ($kind" "says $kind"
done
validate_json "$ds/dlsize-dataset.json" "$SCRATCH/shape.json" "$SCRATCH/ck/dlsize-checkpoint.json"
[[ $(json "$SCRATCH/shape.json" 'r["schema"]') == dlsize.workload/1 ]] \
  && pass "index stats --emit-workload writes a profile with a schema" || fail "no schema in the profile"
echo '{"schema": "dlsize.dataset/1"}' > "$SCRATCH/broken/manifest.json"
expect_rc 1 "a manifest without its params" -- "$DLSIZE" validate "$SCRATCH/broken/manifest.json"
expect_text "required field 'params' is missing" "names the missing field"
sed '3s/"size":[0-9]*/"size":-4/' "$ix" > "$SCRATCH/broken/ix.json"
expect_rc 1 "an index with a broken line" -- "$DLSIZE" validate "$SCRATCH/broken/ix.json"
expect_text "line 3: /size: -4 is below the minimum 0" "names the line and the key"
echo '{"schema": ' > "$SCRATCH/broken/cut.json"
expect_rc 2 "an unreadable file" -- "$DLSIZE" validate "$SCRATCH/broken/cut.json"

expect_rc 0 "export two reports to CSV" -- "$DLSIZE" export "$SCRATCH/s.json" "$SCRATCH/t.json" --csv "$SCRATCH/x.csv"
check=$(/usr/bin/python3 - "$SCRATCH" <<'PY'
import csv, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/x.csv", newline="")))
t = json.load(open(f"{d}/t.json"))
ok = (len(rows) == 2 and rows[0]["accelerator"] == "none" and rows[1]["accelerator"] == "a100"
      and rows[1]["accelerators"] == "2" and rows[0]["accelerator_utilization [1]"] == ""
      and float(rows[1]["read_bytes_per_s [B/s]"]) == t["summary"]["read_bytes_per_s"]
      and rows[1]["status"] == "complete" and rows[1]["file"].endswith("t.json"))
print(ok)
PY
)
[[ $check == True ]] && pass "one row per report, units in the header, figures exact" || fail "csv: $(cat "$SCRATCH/x.csv")"
expect_rc 2 "an existing --csv is refused" -- "$DLSIZE" export "$SCRATCH/s.json" --csv "$SCRATCH/x.csv"
expect_rc 0 "--csv - writes to stdout" -- "$DLSIZE" export "$SCRATCH/s.json" --csv -
[[ $OUT == file,run_id,label,* ]] && pass "stdout starts with the header" || fail "stdout: ${OUT:0:200}"
finish
