#!/usr/bin/env bash
# labels: faults
# datagen's and bench's limits, checked before anything is written or allocated: counts out of
# the ranges every command holds a dataset to, products of options past this host's RAM, a
# manifest whose counts no host could index; and the folder lock: of two datagens into one
# folder one is refused, the other completes and the dataset verifies.
source "$(dirname "$0")/lib.sh"
gen() { "$DLSIZE" datagen --workload resnet50 --layout files --quiet "$@"; }

expect_rc 2 "--files 0 is refused" -- gen --dataset "$SCRATCH/zero" --files 0
expect_text "--files: 0 is out of range. valid: an integer from 1 to" "the message says what is valid"
expect_rc 2 "--records-per-file 0 is refused" -- "$DLSIZE" datagen --workload resnet50 --layout shards --quiet --dataset "$SCRATCH/zero" --files 2 --records-per-file 0
expect_text "--records-per-file: 0 is out of range. valid: an integer from 1 to" "the message says what is valid"
expect_rc 2 "--files above the manifests' range is refused" -- gen --dataset "$SCRATCH/zero" --files 2000000000
[[ ! -e $SCRATCH/zero ]] && pass "refused generations made no folder" || fail "a refused generation made $SCRATCH/zero"

# Two datagens into one folder: the first holds the lock while it writes (stopped half-way
# with SIGSTOP, so that the second surely meets it), the second is refused at once.
ds=$SCRATCH/ds
gen --dataset "$ds" --size 32MiB >"$SCRATCH/first.out" 2>&1 &
first=$!
for _ in $(seq 500); do [[ -e $ds/.dlsize-datagen.json ]] && break; sleep 0.01; done
kill -STOP $first
if [[ -e $ds/.dlsize-datagen.json ]]; then
  t0=$(date +%s.%N)
  expect_rc 2 "a second datagen into the same folder is refused" -- gen --dataset "$ds" --size 32MiB
  t1=$(date +%s.%N)
  expect_text "another dlsize datagen is running in" "the message names the running datagen"
  $PY -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < 3 else 1)" "$t0" "$t1" \
    && pass "refused at once" || fail "slow refusal"
else
  fail "the first datagen did not start its generation (or ended before it was stopped)"
fi
kill -CONT $first
wait $first && pass "the first datagen completes" || fail "the first datagen failed: $(cat "$SCRATCH/first.out")"
expect_rc 0 "the dataset verifies" -- "$DLSIZE" verify "$ds" --quiet

# A lock held by another process (flock(1) on the folder) refuses a generation before it writes.
if command -v flock >/dev/null; then
  mkdir -p "$SCRATCH/held"
  expect_rc 2 "a folder locked by another process is refused" -- flock "$SCRATCH/held" "$DLSIZE" datagen --workload resnet50 --layout files --dataset "$SCRATCH/held" --size 1MiB --quiet
  [[ -z $(ls -A "$SCRATCH/held") ]] && pass "nothing written into the locked folder" || fail "files in the locked folder: $(ls -A "$SCRATCH/held")"
fi

# Products of options, refused before any buffer is allocated, with the figure and the options.
expect_rc 2 "queue depth × request size × readers past RAM is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --queue-depth 4096 --request-size 64MiB --readers 256 --quiet --out "$SCRATCH/big.json"
expect_text "--queue-depth 4096 × --request-size 64.00 MiB × --readers 256" "the message names the options"
expect_text "64.00 TiB" "the message gives the figure"
[[ ! -e $SCRATCH/big.json ]] && pass "no report for a refused run" || fail "a refused run left a report"
expect_rc 2 "a storage-only run of 10^13 epochs is refused by --epochs' range" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --epochs 10000000000000 --quiet --out "$SCRATCH/epochs.json"
expect_text "--epochs: 10000000000000 is out of range. valid: an integer from 1 to 1000000000" "the message names the option and its range"
[[ ! -e $SCRATCH/epochs.json ]] && pass "no report for a refused run" || fail "a report was left: $SCRATCH/epochs.json"
expect_rc 2 "a storage-only run of 10^9 epochs x 64 readers is refused before it starts" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --epochs 1000000000 --readers 64 --queue-depth 1 --quiet --out "$SCRATCH/epochs.json"
expect_text "--epochs 1000000000 × --readers 64" "the message names the options and the figure"
[[ ! -e $SCRATCH/epochs.json ]] && pass "no report for a refused run" || fail "a report was left: $SCRATCH/epochs.json"

# A manifest whose counts multiply past what a dataset may hold is refused before indexing.
mkdir -p "$SCRATCH/huge"
$PY - "$ds/dlsize-dataset.json" "$SCRATCH/huge/dlsize-dataset.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["params"]["layout"] = "shards"
m["params"]["files"] = 1000000000
m["params"]["records_per_file"] = 1000000
json.dump(m, open(sys.argv[2], "w"))
PY
expect_rc 2 "a manifest of 10^9 files × 10^6 records is refused" -- "$DLSIZE" verify "$SCRATCH/huge" --quiet
expect_text "params.records_per_file" "the message names the manifest's keys"
finish
