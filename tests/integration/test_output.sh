#!/usr/bin/env bash
# Where reports go and that a finished one is never lost: the default reports/ path, --out
# refused before the run when it exists, dangles or is empty, a name that appears during the
# run sends the report beside it (exit 1), a stale partial file is no obstacle, and a SIGKILLed
# long run leaves a readable partial report.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 64MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
run=(bench --workload resnet50 --dataset "$ds" --accelerator none --cache buffered --quiet)

cd "$SCRATCH" || exit 1
expect_rc 0 "no --out: the report goes to reports/" -- "$DLSIZE" "${run[@]}"
expect_text "reports/bench-resnet50-" "says where on stderr"
made=(reports/bench-resnet50-*.json)
[[ -s ${made[0]} ]] && pass "default report written (${made[0]})" || fail "no report under reports/"
[[ $OUT == *"report: ${made[0]}"* ]] && pass "the report line names it" || fail "report line: $OUT"

touch exists.json
expect_rc 2 "an existing --out is refused" -- "$DLSIZE" "${run[@]}" --out exists.json
expect_text "never overwrites" "message says why"
ln -s "$SCRATCH/nowhere/x.json" dangling.json
expect_rc 2 "a dangling symlink --out is refused" -- "$DLSIZE" "${run[@]}" --out dangling.json
expect_text "dangling symlink" "message names the dangling symlink"
[[ ! -e nowhere ]] && pass "nothing made through the symlink" || fail "the symlink's target was made"
expect_rc 2 "an empty --out is refused" -- "$DLSIZE" "${run[@]}" --out ""
expect_text "empty file name" "message says the name is empty"
[[ -z $(ls -A | grep partial) ]] && pass "refusals leave no partial file" || fail "partial files left: $(ls -A)"

# A partial file of a process that is gone (a killed run) does not block the name.
echo '{}' > stale.json.partial-999999999
expect_rc 0 "a stale partial file is no obstacle" -- "$DLSIZE" "${run[@]}" --out stale.json
[[ -s stale.json && -s stale.json.partial-999999999 ]] && pass "report written, stale partial kept" || fail "stale: $(ls -A)"

# The name appears while the run goes on: the report goes beside it, exit 1.
slow=(bench --workload resnet50 --dataset "$ds" --accelerator none --cache buffered --quiet --max-read-rate 40MB/s)
"$DLSIZE" "${slow[@]}" --out taken.json >"$SCRATCH/taken.out" 2>"$SCRATCH/taken.err" &
pid=$!
sleep 0.5
[[ -e taken.json.partial-$pid ]] && pass "the name is reserved as taken.json.partial-PID" || fail "no partial file: $(ls -A)"
echo "someone else's" > taken.json
wait $pid
rc=$?
[[ $rc -eq 1 ]] && pass "a taken name at the end exits 1" || fail "exit $rc: $(cat "$SCRATCH/taken.err")"
fallback=(taken-*-$pid.json)
[[ -s ${fallback[0]} && $(cat taken.json) == "someone else's" ]] && pass "the report is beside it (${fallback[0]}), the other file untouched" || fail "fallback: $(ls -A)"
grep -q "written to '.*taken-" "$SCRATCH/taken.err" && pass "says where the report went" || fail "stderr: $(cat "$SCRATCH/taken.err")"
[[ ! -e taken.json.partial-$pid ]] && pass "the partial file is gone" || fail "partial left"

# SIGKILL during a long run: the partial report rewritten every second survives.
"$DLSIZE" "${slow[@]}" --max-read-rate 10MB/s --epochs 3 --status-interval 1s --out killed.json >/dev/null 2>&1 &
pid=$!
sleep 2.5
kill -KILL $pid
wait $pid 2>/dev/null
check=$(json "killed.json.partial-$pid" "r['partial'] is True and r['status'] == 'incomplete' and r['progress']['read_bytes'] > 0 and r['config']['max-read-rate'] == '10MB/s'")
[[ $check == True ]] && pass "a SIGKILLed run leaves a readable partial report" || fail "partial: $(cat "killed.json.partial-$pid" 2>&1 | head -c 600)"
cp "killed.json.partial-$pid" killed-partial.json
[[ ! -e killed.json ]] && pass "no final report of the killed run" || fail "killed.json exists"
finish
