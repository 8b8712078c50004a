#!/usr/bin/env bash
# labels: integration mpi
# The write path sized like the read path: a sweep of scaled llama3-8b checkpoints over 1 and 2
# ranks (mpiexec) makes checkpoint reports; size fits write and restore bandwidth against ranks
# with the read path's fit code (the figures checked against a least-squares fit of the reports
# here), says what is thin, never pools two backends, finds no knee in a straight line and one
# in a saturating one, and Markdown and HTML show the write path, or say it is not measured.
source "$(dirname "$0")/lib.sh"
require_io_uring # the checkpoint writer is io_uring only
scale=0.0001220703125 # 1/8192: 105 GiB becomes 13,762,560 bytes
MPIEXEC=${DLSIZE_MPIEXEC:-}
if [[ -n $MPIEXEC ]] && version_has "mpi: yes"; then
  ranks="[1, 2]" launcher=", \"launcher\": [\"$MPIEXEC\", \"-np\", \"{ranks}\"]"
else
  skip_part "no MPI in this build: the sweep runs 1 rank only"
  ranks="[1]" launcher=""
fi
cat >"$SCRATCH/sweep.json" <<JSON
{"command": "checkpoint", "ranks": $ranks, "repeats": 2$launcher,
 "checkpoint": {"workload": "llama3-8b", "scale": $scale, "dir": "$SCRATCH/ck", "writes": 2, "reads": 1}}
JSON
expect_rc 0 "a checkpoint sweep over ranks" -- "$DLSIZE" sweep --config "$SCRATCH/sweep.json" --out "$SCRATCH/sw"
[[ $(json "$SCRATCH/sw/index.json" "[(p['id'], p['accelerators'], p['status'], p['argv'][p['argv'].index('checkpoint') - 1].endswith('dlsize')) for p in r['points']][0]") == "('np1-r1', None, 'done', True)" ]] \
  && pass "the points are dlsize checkpoint runs" || fail "points: $(json "$SCRATCH/sw/index.json" "r['points'][0]")"
[[ ! -e $SCRATCH/ck ]] && pass "every point removed what it wrote" || fail "left: $(ls -A "$SCRATCH/ck")"
expect_rc 0 "size the sweep" -- "$DLSIZE" size "$SCRATCH/sw" --out "$SCRATCH/z"
expect_text "Read path: not measured" "the terminal says the read path is not measured"
n=$(json "$SCRATCH/sw/index.json" "len(r['points'])")
# The fitted write figures: ordinary least squares of the reports' write.bytes_per_s on ranks.
check=$("$PY" - "$SCRATCH/z.json" "$SCRATCH/sw" <<'PY'
import json, sys, glob
z = json.load(open(sys.argv[1]))
s = z["checkpoint_series"]
pts = [(r["checkpoint"]["ranks"], r["checkpoint"]["write"]["bytes_per_s"], r["checkpoint"]["read"]["bytes_per_s"])
       for r in (json.load(open(f)) for f in sorted(glob.glob(sys.argv[2] + "/reports/*.json")))]
ok = len(s) == 1 and len(s[0]["runs"]) == len(pts) and not z["paths"]["read"]["measured"] and z["paths"]["write"]["measured"]
w, rd = s[0]["write"], s[0]["read"]
ok = ok and sorted(m["ranks"] for m in w["measured"]) == sorted({p[0] for p in pts}) and rd is not None
if len({p[0] for p in pts}) >= 2:
    for k, path in ((1, w), (2, rd)):
        xs = [p[0] for p in pts]; ys = [p[k] for p in pts]; n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        ok = ok and path["fit"]["n"] == n and abs(path["fit"]["slope"] - slope) <= 1e-6 * max(abs(slope), 1)
        ok = ok and abs(path["fit"]["intercept"] - (my - slope * mx)) <= 1e-6 * max(abs(my), 1)
else:
    ok = ok and w["fit"] is None and any("no fit" in x for x in s[0]["warnings"])
ok = ok and not w["knee"]["tested"] and "needs 5 runs at 3 counts" in w["knee"]["reason"]
print(ok)
PY
)
[[ $check == True ]] && pass "write and restore fitted against ranks as least squares gives them; knee not tested on thin evidence" || fail "fit: $(json "$SCRATCH/z.json" "r['checkpoint_series']")"
grep -q "^## Write path: checkpoints" "$SCRATCH/z.md" && grep -q "write line fit, every run" "$SCRATCH/z.md" \
  && grep -q "Read path: not measured" "$SCRATCH/z.md" && pass "the Markdown shows the write path and says the read path is not measured" || fail "markdown"
"$PY" -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$SCRATCH/z.html" \
  && grep -q "Checkpoint bandwidth against ranks" "$SCRATCH/z.html" && grep -q "Write path: checkpoints" "$SCRATCH/z.html" \
  && pass "the HTML is well-formed and charts the write path" || fail "html"

# Another backend (a label) is its own series, never pooled; one run of it is thin and says so.
expect_rc 0 "a labelled checkpoint run" -- "$DLSIZE" checkpoint --workload llama3-8b --scale $scale --dir "$SCRATCH/ck2" \
  --writes 1 --reads 0 --label other-disk --quiet --out "$SCRATCH/other.json"
expect_rc 0 "size the sweep and the other backend" -- "$DLSIZE" size "$SCRATCH/sw" "$SCRATCH/other.json" --out "$SCRATCH/z2"
[[ $(json "$SCRATCH/z2.json" "sorted((len(s['runs']), s['label'] == 'other-disk', s['read'] is None) for s in r['checkpoint_series'])") == "[(1, True, True), ($n, False, False)]" ]] \
  && pass "two backends, two series; the other's restore is not measured" || fail "series: $(json "$SCRATCH/z2.json" "r['checkpoint_series']")"
json "$SCRATCH/z2.json" "[w for s in r['checkpoint_series'] for w in s['warnings']]" | grep -q "every run has 1 ranks: no fit" \
  && pass "one rank count gives no line, and says so" || fail "thin evidence not said"

# Synthetic copies at 1..8 ranks: a straight line has no knee; a line that stops at 4 ranks has one.
mkdir -p "$SCRATCH/line" "$SCRATCH/sat"
"$PY" - "$SCRATCH/other.json" "$SCRATCH" <<'PY'
import json, sys, uuid
t = json.load(open(sys.argv[1]))
for name, f in (("line", lambda n: 100e6 * n), ("sat", lambda n: 100e6 * min(n, 4))):
    for n in (1, 2, 3, 4, 6, 8):
        for rep, wobble in enumerate((0.99, 1.0, 1.01)):
            r = json.loads(json.dumps(t)); r["run_id"] = uuid.uuid4().hex
            r["checkpoint"]["ranks"] = n; r["checkpoint"]["write"]["bytes_per_s"] = f(n) * wobble
            json.dump(r, open(f"{sys.argv[2]}/{name}/n{n}-r{rep}.json", "w"))
PY
expect_rc 0 "size a straight line of write bandwidth" -- "$DLSIZE" size "$SCRATCH/line" --out "$SCRATCH/zl"
expect_rc 0 "size a saturating one" -- "$DLSIZE" size "$SCRATCH/sat" --out "$SCRATCH/zs"
[[ $(json "$SCRATCH/zl.json" "(lambda w: (w['knee']['tested'], w['knee']['chosen'], round(w['fit']['slope'] / 1e6)))(r['checkpoint_series'][0]['write'])") == "(True, False, 100)" ]] \
  && pass "no knee from a straight line (100 MB/s per rank)" || fail "line: $(json "$SCRATCH/zl.json" "r['checkpoint_series'][0]['write']['knee']")"
[[ $(json "$SCRATCH/zs.json" "(lambda k: (k['chosen'], abs(k['ranks'] - 4) <= 1))(r['checkpoint_series'][0]['write']['knee'])") == "(True, True)" ]] \
  && pass "the knee of a saturating write path is found at about 4 ranks" || fail "sat: $(json "$SCRATCH/zs.json" "r['checkpoint_series'][0]['write']['knee']")"

expect_rc 2 "a checkpoint sweep without a launcher for 2 ranks is refused" -- "$DLSIZE" sweep --config <(echo '{"command": "checkpoint", "ranks": [1, 2], "checkpoint": {"workload": "llama3-8b", "dir": "x"}}') --out "$SCRATCH/bad" --dry-run
expect_text "ranks above 1 need a launcher" "the refusal says what is missing"
finish
