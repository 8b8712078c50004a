#!/usr/bin/env bash
# The committed examples in results/ are what this dlsize writes: every JSON document validates
# against its schema (python3-jsonschema and dlsize validate), every bench report among them is
# complete, and size and compare still read them.
source "$(dirname "$0")/lib.sh"
mapfile -d '' docs < <(/usr/bin/python3 "$ROOT/scripts/validate_json.py" --list "$ROOT/results")
[[ ${#docs[@]} -ge 10 ]] && pass "${#docs[@]} dlsize documents in results/" || fail "results/: only ${#docs[@]} documents"
validate_json "${docs[@]}"
incomplete=$(for f in "${docs[@]}"; do
  [[ $(json "$f" "r.get('schema') == 'dlsize.report/1' and r.get('status') != 'complete'") == True ]] && echo "$f"
done)
[[ -z $incomplete ]] && pass "every example bench report is complete" || fail "incomplete examples: $incomplete"
if [[ -d $ROOT/results/sweep-disk && -d $ROOT/results/sweep-capped ]]; then
  expect_rc 0 "size reads the example sweeps" -- "$DLSIZE" size "$ROOT/results/sweep-disk" "$ROOT/results/sweep-capped" \
    --out "$SCRATCH/sizing" --nic-bandwidth 25GB/s --clients 4
  [[ $(json "$SCRATCH/sizing.json" "len(r['series'])") == 2 ]] && pass "two series, one per backend" || fail "series: $(json "$SCRATCH/sizing.json" "len(r['series'])")"
fi
finish
