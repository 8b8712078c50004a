#!/usr/bin/env bash
# The report keeps every field it had: the key paths of a storage-only and a training report
# include every path in tests/integration/data/report_keys_*.txt (made from the reports of the
# tree before the report was typed and its writers split). New fields may come; none may go.
# The terminal summary says what the report says.
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 32MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }

expect_rc 0 "storage-only run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none \
  --epochs 2 --verify --quiet --out "$SCRATCH/storage.json"
expect_rc 0 "training run" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 \
  --accelerators 2 --batch-size 8 --compute-time 1ms --epochs 2 --quiet --out "$SCRATCH/training.json"

for kind in storage training; do
  /usr/bin/python3 "$here/report_keys.py" "$SCRATCH/$kind.json" > "$SCRATCH/$kind.keys"
  # DLSIZE_WRITE_REPORT_KEYS=1 regenerates the fixtures (only when a field is meant to go).
  if [[ -n ${DLSIZE_WRITE_REPORT_KEYS:-} ]]; then cp "$SCRATCH/$kind.keys" "$here/data/report_keys_$kind.txt"; fi
  lost=$(comm -23 "$here/data/report_keys_$kind.txt" "$SCRATCH/$kind.keys")
  [[ -z $lost ]] && pass "$kind report keeps every field" || fail "$kind report lost fields: $lost"
done

# Without --quiet the summary goes to the terminal; it shows the report's status.
"$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2 \
  --batch-size 8 --compute-time 1ms --out "$SCRATCH/shown.json" >"$SCRATCH/shown.txt" 2>&1
status=$(json "$SCRATCH/shown.json" "r['status']")
grep -q "status      $status" "$SCRATCH/shown.txt" && pass "summary shows the status ($status)" || fail "summary status: $(cat "$SCRATCH/shown.txt")"
finish
