#!/usr/bin/env bash
# dlsize sweep: a matrix of runs into a folder with an index; a second run resumes and skips
# what is done; SIGINT stops it leaving a resumable index; a point that crashes is marked and
# rerun; launcher arguments get their variables substituted; bad configs and folders are refused.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 128MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
# write_config FILE EXTRA_JSON COUNTS [COMPUTE_TIME] [EPOCHS]
write_config() {
  cat >"$1" <<JSON
{"bench": {"workload": "resnet50", "dataset": "$ds", "accelerator": "emulated:h100", "batch-size": 8,
           "compute-time": "${4:-5ms}", "epochs": ${5:-1}},
 "accelerators": [$3], "repeats": 2, "seed": 11 $2}
JSON
}

write_config "$SCRATCH/s.json" "" "1, 2"
expect_rc 0 "a sweep of 2 counts × 2 repeats" -- "$DLSIZE" sweep --config "$SCRATCH/s.json" --out "$SCRATCH/sw"
check=$(json "$SCRATCH/sw/index.json" "r['schema'] == 'dlsize.sweep/1' and r['status'] == 'complete' and
  [p['id'] for p in r['points']] == ['n1-r1', 'n2-r1', 'n1-r2', 'n2-r2'] and
  [p['seed'] for p in r['points']] == [11, 11, 12, 12] and all(p['status'] == 'done' for p in r['points'])")
[[ $check == True ]] && pass "index lists 4 done points with seeds per repeat" || fail "index: $(cat "$SCRATCH/sw/index.json")"
check=$(json "$SCRATCH/sw/reports/n2-r2.json" "r['topology']['accelerators'] == 2 and r['config']['seed'] == 12 and r['status'] == 'complete'")
[[ $check == True ]] && pass "a point's report has its count and seed" || fail "point report"
before=$(md5sum "$SCRATCH"/sw/reports/*.json | md5sum)
expect_rc 0 "the same command again" -- "$DLSIZE" sweep --config "$SCRATCH/s.json" --out "$SCRATCH/sw"
expect_text "4 of 4 points done" "it resumes with every point done"
[[ $(md5sum "$SCRATCH"/sw/reports/*.json | md5sum) == "$before" && $(ls "$SCRATCH"/sw/reports | wc -l) -eq 4 ]] \
  && pass "nothing was rerun or rewritten" || fail "reports changed on resume"
expect_rc 0 "size reads the sweep folder" -- "$DLSIZE" size "$SCRATCH/sw" --out "$SCRATCH/z"
[[ $(json "$SCRATCH/z.json" "len(r['series'][0]['runs']) == 4 and 'sweep' in ' '.join(r['reproduce'])") == True ]] \
  && pass "size took the 4 done reports and the sweep command" || fail "size of the sweep"

# SIGINT during the first point: the point is interrupted, the index says so, a rerun finishes.
write_config "$SCRATCH/long.json" "" "1, 2" 30ms
interrupt_after 2 -- "$DLSIZE" sweep --config "$SCRATCH/long.json" --out "$SCRATCH/lg"
check=$(json "$SCRATCH/lg/index.json" "r['status'] == 'incomplete' and 'interrupted' in r['reason'] and
  r['points'][0]['status'] == 'interrupted' and r['points'][1]['status'] == 'pending'")
[[ $check == True ]] && pass "index: interrupted sweep, first point interrupted, the rest pending" || fail "index after SIGINT: $(cat "$SCRATCH/lg/index.json")"
[[ $(json "$SCRATCH/lg/reports/n1-r1.json" "r['status']") == incomplete ]] && pass "the stopped point wrote an incomplete report" || fail "no incomplete report"
write_config "$SCRATCH/long.json" "" "1, 2" 5ms
expect_rc 2 "resuming with another config is refused" -- "$DLSIZE" sweep --config "$SCRATCH/long.json" --out "$SCRATCH/lg"
expect_text "another config" "message says why"
write_config "$SCRATCH/long.json" "" "1, 2" 30ms
expect_rc 0 "the rerun finishes the sweep" -- "$DLSIZE" sweep --config "$SCRATCH/long.json" --out "$SCRATCH/lg"
check=$(json "$SCRATCH/lg/index.json" "r['status'] == 'complete' and r['points'][0]['attempts'] == 2 and
  r['points'][0]['report'] == 'reports/n1-r1.try2.json'")
[[ $check == True && -f $SCRATCH/lg/reports/n1-r1.json ]] && pass "the interrupted point ran again as try 2; try 1's report stays" || fail "rerun: $(cat "$SCRATCH/lg/index.json")"

# A launcher that records its arguments and crashes on the 2-accelerator points while a
# marker file exists.
cat >"$SCRATCH/launch.sh" <<SH
#!/usr/bin/env bash
echo "\$*" >>"$SCRATCH/launch.log"
if [[ -e "$SCRATCH/crash" && "\$1" == 2 ]]; then kill -SEGV \$\$; fi
shift
exec "\$@"
SH
chmod +x "$SCRATCH/launch.sh"
write_config "$SCRATCH/l.json" ", \"launcher\": [\"$SCRATCH/launch.sh\", \"{accelerators}\"]" "1, 2"
touch "$SCRATCH/crash"
expect_rc 1 "a sweep whose point crashes exits 1" -- "$DLSIZE" sweep --config "$SCRATCH/l.json" --out "$SCRATCH/la"
check=$(json "$SCRATCH/la/index.json" "[p['status'] for p in r['points']] == ['done', 'failed', 'done', 'failed'] and r['points'][1]['signal'] == 11")
[[ $check == True ]] && pass "the crashed points are failed with signal 11, the others done" || fail "index: $(cat "$SCRATCH/la/index.json")"
grep -q "^2 .*dlsize bench .*--accelerators 2 " "$SCRATCH/launch.log" && pass "launcher got {accelerators} substituted, then dlsize bench" || fail "launch.log: $(cat "$SCRATCH/launch.log")"
rm "$SCRATCH/crash"
expect_rc 0 "the rerun runs the failed points only" -- "$DLSIZE" sweep --config "$SCRATCH/l.json" --out "$SCRATCH/la"
[[ $(wc -l <"$SCRATCH/launch.log") -eq 6 ]] && pass "6 launches in all (4, then the 2 failed)" || fail "launches: $(cat "$SCRATCH/launch.log")"

write_config "$SCRATCH/bad.json" ", \"repeat\": 3" "1"
expect_rc 2 "unknown config key" -- "$DLSIZE" sweep --config "$SCRATCH/bad.json" --out "$SCRATCH/b1"
expect_text "repeat: unknown key" "message names the key"
write_config "$SCRATCH/bad.json" ", \"launcher\": [\"no-such-launcher-x\"]" "1"
expect_rc 2 "a launcher that does not exist" -- "$DLSIZE" sweep --config "$SCRATCH/bad.json" --out "$SCRATCH/b2"
expect_text "no-such-launcher-x" "message names it"
write_config "$SCRATCH/bad.json" "" "1, 2"
sed -i 's/"epochs": 1/"epochs": 1, "queue-depth": 0/' "$SCRATCH/bad.json"
expect_rc 2 "a bench option out of its range is refused before any point" -- "$DLSIZE" sweep --config "$SCRATCH/bad.json" --out "$SCRATCH/b4"
expect_text "bench.queue-depth: 0 is out of range. valid: an integer from 1 to 4096" "names the key and the range"
write_config "$SCRATCH/bad.json" "" "1, 2"
sed -i 's/"epochs": 1/"epochs": 1, "request-size": "6KiB"/' "$SCRATCH/bad.json"
expect_rc 2 "options bench refuses stop the sweep before any point" -- "$DLSIZE" sweep --config "$SCRATCH/bad.json" --out "$SCRATCH/b3"
expect_text "point n1-r1 cannot run" "message names the point"
expect_text "request-size" "and bench's reason, naming the option"
[[ ! -e $SCRATCH/b3 ]] && pass "no point was started, no folder made" || fail "b3: $(ls -R "$SCRATCH/b3")"
# A training sweep on "accelerator": "none" (a storage-only run takes no training option):
# --dry-run refuses it as its points would be, and the run starts none of them.
write_config "$SCRATCH/none.json" "" "1, 2"
sed -i 's/"emulated:h100"/"none"/' "$SCRATCH/none.json"
expect_rc 2 "--dry-run checks every point's options as bench would" -- "$DLSIZE" sweep --config "$SCRATCH/none.json" --out "$SCRATCH/none" --dry-run
expect_text "cannot run" "it says the point cannot run"
[[ "$ERR$OUT" != *"run the same command again"* ]] && pass "and does not ask for a rerun" || fail "rerun hint: $ERR"
expect_rc 2 "the sweep itself refuses it before any point" -- "$DLSIZE" sweep --config "$SCRATCH/none.json" --out "$SCRATCH/none"
[[ ! -e $SCRATCH/none ]] && pass "no point was started" || fail "none: $(ls -R "$SCRATCH/none")"
cat >"$SCRATCH/ck.json" <<JSON
{"command": "checkpoint", "ranks": [1], "repeats": 1,
 "checkpoint": {"workload": "llama3-8b", "scale": 0.001, "dir": "$SCRATCH/ck", "request-size": "6KiB"}}
JSON
expect_rc 2 "--dry-run checks a checkpoint sweep's points as dlsize checkpoint would" -- "$DLSIZE" sweep --config "$SCRATCH/ck.json" --out "$SCRATCH/ck-sw" --dry-run
expect_text "dlsize checkpoint refuses its options" "it names the command that refuses"
expect_text "request-size" "and the option"
mkdir -p "$SCRATCH/foreign" && echo mine >"$SCRATCH/foreign/notes.txt"
expect_rc 2 "a folder of other files is refused" -- "$DLSIZE" sweep --config "$SCRATCH/s.json" --out "$SCRATCH/foreign"
[[ $(cat "$SCRATCH/foreign/notes.txt") == mine && $(ls "$SCRATCH/foreign" | wc -l) -eq 1 ]] && pass "and left as it was" || fail "foreign folder touched"
expect_rc 0 "--dry-run prints the commands" -- "$DLSIZE" sweep --config "$SCRATCH/s.json" --out "$SCRATCH/dry" --dry-run
expect_text "n2-r2: " "lists every point"
[[ ! -e $SCRATCH/dry ]] && pass "--dry-run writes nothing" || fail "--dry-run made a folder"
finish
