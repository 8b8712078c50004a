#!/usr/bin/env bash
# dlsize never replaces or deletes a file it did not write, and its reports stay bounded:
# a resumed datagen judges each name in its way by content (size, the first record header with
# the dataset's id) and by its journal, stopping with exit 2 at a foreign file and leaving it as
# it was; a stale OUT.partial-PID of a dead dlsize is removed by the next run that reserves OUT,
# any other file of that name kept; a run of 100,000 epochs stopped by --time-limit has rows only
# for the epochs that ran (at most kEpochRowsCap + 1).
# labels: faults
source "$(dirname "$0")/lib.sh"
gen() { "$DLSIZE" datagen --workload resnet50 --layout files --files 40 --dataset "$1" --threads 2 --quiet; }
ds0=$SCRATCH/ds0
gen "$ds0" >/dev/null || { echo "datagen failed"; exit 1; }
# An interrupted generation, made without a race: the complete dataset with its manifest turned
# back into the state file of a generation still under way.
interrupted() {
  rm -rf "$1" && cp -a "$ds0" "$1" && mv "$1/dlsize-dataset.json" "$1/.dlsize-datagen.json"
}
path_of() { find "$1" -name "file-$(printf %08d "$2").rec"; }
ds=$SCRATCH/ds
interrupted "$ds"
f3=$(path_of "$ds" 3)
size=$(stat -c %s "$f3")

# 1. A file of the right name and size, written by someone else after the kill.
rm "$f3" && head -c "$size" /dev/urandom >"$f3" && sum=$(md5sum <"$f3")
expect_rc 2 "resume stops at a foreign file of the right name and size" -- gen "$ds"
expect_text "$f3" "the message names it"
[[ $(md5sum <"$f3") == "$sum" ]] && pass "the foreign file is untouched" || fail "the foreign file was replaced"
[[ ! -e $ds/dlsize-dataset.json ]] && pass "no manifest over a foreign file" || fail "sealed with a foreign file"
# 2. A file of this dataset's first bytes but another size.
head -c 1000 "$(path_of "$ds0" 3)" >"$f3" && sum=$(md5sum <"$f3")
expect_rc 2 "resume stops at a short file under a final name" -- gen "$ds"
[[ $(md5sum <"$f3") == "$sum" ]] && pass "the short file is untouched" || fail "the short file was replaced"
cp "$(path_of "$ds0" 3)" "$f3"
# 3. A foreign FILE.partial: no journal lists it.
f5=$(path_of "$ds" 5) && rm "$f5"
echo "someone's notes" >"$f5.partial"
expect_rc 2 "resume stops at a foreign .partial" -- gen "$ds"
expect_text "$f5.partial" "the message names it"
[[ $(cat "$f5.partial") == "someone's notes" && ! -e $f5 ]] && pass "the foreign .partial is untouched" || fail "the foreign .partial was removed"
# 4. A .partial the journal lists whose content is not this dataset's: still foreign.
echo 5 >"$ds/.dlsize-datagen.journal-0"
expect_rc 2 "a journal entry alone does not make a file ours" -- gen "$ds"
[[ $(cat "$f5.partial") == "someone's notes" ]] && pass "the listed foreign .partial is untouched" || fail "listed foreign .partial removed"
# 5. A .partial of ours (listed, and the start of the file): removed, and the file written.
head -c 5000 "$(path_of "$ds0" 5)" >"$f5.partial"
expect_rc 0 "resume redoes its own partial file" -- gen "$ds"
[[ ! -e $f5.partial && -f $ds/dlsize-dataset.json && -z $(find "$ds" -name '.dlsize-datagen.journal-*') ]] \
  && pass "the partial is gone, the dataset sealed, the journal removed" || fail "after resume: $(ls -a "$ds")"
expect_rc 0 "the resumed dataset verifies" -- "$DLSIZE" verify "$ds" --quiet

# Stale partial reports: that of a dead dlsize (empty, or a partial report) is removed by the next
# run that reserves the same OUT; one of a dead pid holding anything else is kept.
sleep 0 & dead=$! && wait $dead
out=$SCRATCH/run.json
: >"$out.partial-$dead"
printf '{"schema": "dlsize.report/1", "partial": true}\n' >"$out.partial-$dead.1"
echo "not dlsize's" >"$out.partial-$((dead + 1))x"
echo "{}" >"$out.partial-$dead.2"
# 100,000 epochs stopped after 3 s: rows for the epochs that ran only.
expect_rc 0 "a storage bench of 100,000 epochs under --time-limit 3s" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds0" --epochs 100000 --time-limit 3s --quiet --out "$out"
[[ ! -e $out.partial-$dead && ! -e $out.partial-$dead.1 ]] && pass "the dead run's partial files are removed" || fail "stale partials: $(ls "$SCRATCH")"
[[ -e $out.partial-$((dead + 1))x && -e $out.partial-$dead.2 ]] && pass "files that are not dlsize's partial reports are kept" || fail "a foreign file was removed"
check=$(json "$out" "len(r['epochs']) <= 1001 and all(e['samples'] > 0 for e in r['epochs']) and
  r['summary']['epochs'] == 100000 and (len(r['epochs']) <= 1000 or r['epochs'][-1]['epochs_in_row'] == r['epochs'][-1]['last_epoch'] - 999)")
[[ $check == True ]] && pass "storage report: $(json "$out" "len(r['epochs'])") rows, each an epoch that ran" \
  || fail "storage epochs: $(json "$out" "len(r['epochs']), r['epochs'][-1]")"
expect_rc 0 "a training bench of 100,000 epochs under --time-limit 3s" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds0" --accelerator emulated:h100 --batch-size 4 --compute-time 1ms --epochs 100000 --time-limit 3s --quiet --out "$SCRATCH/train.json"
check=$(json "$SCRATCH/train.json" "len(r['epochs']) <= 1001 and all(e['steps_total'] > 0 for e in r['epochs']) and
  r['epochs'][-1].get('last_epoch', len(r['epochs']) - 1) <= r['summary']['epochs_completed']")
[[ $check == True ]] && pass "training report: $(json "$SCRATCH/train.json" "len(r['epochs'])") rows, each an epoch that ran" \
  || fail "training epochs: $(json "$SCRATCH/train.json" "len(r['epochs']), r['epochs'][-1], r['summary']['epochs_completed']")"
finish
