#!/usr/bin/env bash
# labels: integration
# Goodput in size and compare: two checkpoint runs of llama3-8b at different write rates (one
# writes large requests to a tmpfs, the other 4 KiB ones one at a time into many files on the
# build's disk) beside two small
# training runs. size and compare read the training runs for the read path and the checkpoint
# runs for a goodput table per backend (Markdown, HTML with its chart, JSON, terminal), with the
# verdict beside the read verdicts; the slower backend loses more at every count and holds the
# target to fewer accelerators; checkpoint runs alone compare by their goodput; one run at one
# rank is called thin; a training run's checkpoints are evidence too; without checkpoint
# evidence nothing of it appears.
source "$(dirname "$0")/lib.sh"
require_io_uring # the checkpoint writer is io_uring only
scale=0.0001220703125 # 1/8192: 105 GiB becomes 13,762,560 bytes
ck=(checkpoint --workload llama3-8b --scale $scale --writes 1 --reads 1 --quiet)
# The fast backend is a tmpfs (buffered: tmpfs has no O_DIRECT), so that the two rates differ by
# far more than a shared disk's run-to-run noise (on one disk, large against 4 KiB requests
# gave 60 against 49 MB/s once in CI: the fixed costs of a 13 MB checkpoint dominate both).
[[ -d /dev/shm && -w /dev/shm ]] || { echo "skip: no writable tmpfs at /dev/shm"; exit 77; }
shm=$(mktemp -d /dev/shm/dlsize-goodput.XXXXXX)
trap 'rm -rf "$SCRATCH" "$shm"' EXIT
expect_rc 0 "a checkpoint run in large requests on tmpfs" -- "$DLSIZE" "${ck[@]}" --dir "$shm/fast" \
  --cache buffered --label fast --out "$SCRATCH/ck-fast.json"
expect_rc 0 "a checkpoint run in 4 KiB requests, one at a time" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/slow" \
  --label slow --request-size 4KiB --queue-depth 1 --files-per-rank 64 --out "$SCRATCH/ck-slow.json"
rate() { json "$1" "r['checkpoint']['write']['bytes_per_s']"; }
"$PY" -c "import sys; sys.exit(not float(sys.argv[1]) < 0.8 * float(sys.argv[2]))" "$(rate "$SCRATCH/ck-slow.json")" "$(rate "$SCRATCH/ck-fast.json")" \
  && pass "the small requests on disk write slower than tmpfs" || fail "write rates: slow $(rate "$SCRATCH/ck-slow.json"), fast $(rate "$SCRATCH/ck-fast.json")"

ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 32MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
run=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2 --batch-size 16
     --compute-time 5ms --epochs 1 --quiet)
expect_rc 0 "a training run" -- "$DLSIZE" "${run[@]}" --out "$SCRATCH/a.json"
expect_rc 0 "a training run behind a cap" -- "$DLSIZE" "${run[@]}" --max-read-rate 90MB/s --out "$SCRATCH/b.json"

expect_rc 0 "size the training and checkpoint runs" -- "$DLSIZE" size "$SCRATCH/a.json" "$SCRATCH/b.json" \
  "$SCRATCH/ck-fast.json" "$SCRATCH/ck-slow.json" --goodput-accelerators 1024,16384,100000 --out "$SCRATCH/z"
[[ $(grep -c "^Goodput, llama3-8b on .*: holds the 5 % loss\|^Goodput, llama3-8b on .*: misses the 5 % loss" <<<"$OUT") -ge 2 ]] \
  && grep -q "^Goodput, llama3-8b on .*: the loss against the accelerators" <<<"$OUT" \
  && pass "the terminal gives each backend's goodput verdict and table" || fail "terminal: $OUT"
# Which backend the model calls slower follows from the rates it read; it must lose more.
check=$("$PY" - "$SCRATCH/z.json" <<'PY'
import json, sys
z = json.load(open(sys.argv[1]))
g = z["goodput"]
ok = len(g) == 2 and len(z["series"]) >= 1 and len({d["backend"] for d in g}) == 2
slow, fast = sorted(g, key=lambda d: d["write"]["bytes_per_s"])
ok = ok and [r["accelerators"] for r in slow["rows"]] == [1024, 16384, 100000]
for a, b in zip(slow["rows"], fast["rows"]):
    ok = ok and (a["loss"] or {"total": 1})["total"] > (b["loss"] or {"total": 1})["total"] - 1e-12
ok = ok and (slow["rows"][-1]["loss"] or {"total": 1})["total"] > (fast["rows"][-1]["loss"] or {"total": 1})["total"]
ok = ok and slow["holds_max_loss_up_to"] <= fast["holds_max_loss_up_to"]
ok = ok and all(any("thin evidence: one run" in w for w in d["warnings"]) for d in g)
ok = ok and all(d["write"]["rank_bytes_per_s"] is not None and d["checkpoint_bytes"] > 1e11 for d in g)
print(ok)
PY
)
[[ $check == True ]] && pass "two goodput curves; the slower backend loses more and holds the target to fewer accelerators; thin evidence said" \
  || fail "goodput: $(json "$SCRATCH/z.json" "r.get('goodput')")"
grep -q "^## Goodput: what failures, checkpoints and restarts cost" "$SCRATCH/z.md" \
  && [[ $(grep -c "^### llama3-8b on " "$SCRATCH/z.md") -eq 2 ]] \
  && grep -q "^- Goodput, llama3-8b on .*: holds\|^- Goodput, llama3-8b on .*: misses" "$SCRATCH/z.md" \
  && pass "the Markdown has a goodput table per backend and the verdicts in the summary" || fail "markdown: $(cat "$SCRATCH/z.md")"
"$PY" -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$SCRATCH/z.html" \
  && grep -q "Time lost to checkpoints, rework and restarts" "$SCRATCH/z.html" \
  && pass "the HTML is well-formed and charts the loss" || fail "html"

expect_rc 0 "compare the training runs, with the checkpoint runs beside them" -- "$DLSIZE" compare "$SCRATCH/a.json" \
  "$SCRATCH/b.json" "$SCRATCH/ck-fast.json" "$SCRATCH/ck-slow.json" --out "$SCRATCH/c.json" --markdown "$SCRATCH/c.md" --html "$SCRATCH/c.html"
[[ $(grep -c "^- Goodput, llama3-8b on " <<<"$OUT") -eq 2 ]] && pass "compare's terminal gives both goodput verdicts" || fail "compare terminal: $OUT"
[[ $(json "$SCRATCH/c.json" "(len(r['goodput']), len(r['backends']))") == "(2, 2)" ]] \
  && pass "the comparison compares the training runs and carries two goodput sections" || fail "compare: $(json "$SCRATCH/c.json" "r.keys()")"
[[ $(grep -c "^### llama3-8b on " "$SCRATCH/c.md") -eq 2 ]] && grep -q "Time lost to checkpoints" "$SCRATCH/c.html" \
  && pass "compare's Markdown and HTML show both" || fail "compare markdown: $(cat "$SCRATCH/c.md")"

expect_rc 0 "compare the checkpoint runs alone" -- "$DLSIZE" compare "$SCRATCH/ck-fast.json" "$SCRATCH/ck-slow.json" \
  --out "$SCRATCH/k.json" --markdown "$SCRATCH/k.md" --html "$SCRATCH/k.html"
[[ $(json "$SCRATCH/k.json" "(sorted(d['backend'] for d in r['goodput']), r['backends'], r['by_accelerators'])") == "(['fast', 'slow'], [], [])" ]] \
  && grep -q "^# llama3-8b: checkpoints, backend against backend" "$SCRATCH/k.md" && grep -q "Time lost to checkpoints" "$SCRATCH/k.html" \
  && pass "checkpoint runs alone compare by their goodput" || fail "checkpoints alone: $(cat "$SCRATCH/k.md")"
expect_rc 0 "size the training runs alone" -- "$DLSIZE" size "$SCRATCH/a.json" "$SCRATCH/b.json" --out "$SCRATCH/r"
[[ $(json "$SCRATCH/r.json" "'goodput' in r") == False ]] && ! grep -q "Goodput" "$SCRATCH/r.md" && ! grep -q "Goodput" <<<"$OUT" \
  && pass "without checkpoint runs there is no goodput section" || fail "goodput without checkpoints"
# A training run that checkpointed is evidence too: its pauses give the write rate.
expect_rc 0 "a training run that checkpoints" -- "$DLSIZE" "${run[@]}" --checkpoint-every 10steps \
  --checkpoint-dir "$SCRATCH/ckb" --checkpoint-scale 0.01 --out "$SCRATCH/ckb.json"
expect_rc 0 "size it" -- "$DLSIZE" size "$SCRATCH/ckb.json" --mttf 20000h --out "$SCRATCH/zb"
[[ $(json "$SCRATCH/zb.json" "[(d['workload'], 'bench --checkpoint-every' in d['write']['source'], d['mttf_s'], d['write']['rank_bytes_per_s']) for d in r['goodput']]") == "[('resnet50', True, 72000000.0, None)]" ]] \
  && pass "bench --checkpoint-every gives a goodput section at the MTTF asked" || fail "bench goodput: $(json "$SCRATCH/zb.json" "r.get('goodput')")"
expect_rc 2 "a target loss of 100 % is refused" -- "$DLSIZE" size "$SCRATCH/ck-fast.json" --max-loss 100% --out "$SCRATCH/bad"
expect_text "--max-loss" "the refusal names the option"
finish
