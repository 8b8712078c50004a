#!/usr/bin/env bash
# A 2 GiB dataset is generated and read back with every checksum verified; one flipped byte is
# found by `dlsize verify` and by `bench --verify`, both naming file and record.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/ds
expect_rc 0 "datagen writes 2 GiB" -- "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 2GiB --quiet
[[ -f $ds/dlsize-dataset.json && ! -f $ds/.dlsize-datagen.json ]] && pass "manifest written, state file gone" || fail "manifest/state files"
bytes=$(json "$ds/dlsize-dataset.json" "r['bytes']")
[[ $bytes -ge 2147483648 ]] && pass "dataset holds at least 2 GiB ($bytes)" || fail "dataset too small: $bytes"
expect_rc 0 "datagen again is a no-op" -- "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 2GiB --quiet
expect_text "already complete" "second datagen says it is complete"
expect_rc 0 "verify passes" -- "$DLSIZE" verify "$ds" --quiet
expect_rc 0 "bench --verify passes" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --verify --quiet --out "$SCRATCH/ok.json"
[[ $(json "$SCRATCH/ok.json" "r['verify']['records_checked'] == r['dataset']['samples'] and r['verify']['mismatches'] == 0") == True ]] \
  && pass "bench checked every record" || fail "bench did not check every record"
[[ $(json "$SCRATCH/ok.json" "r['summary']['read_bytes_per_s'] > 0 and r['status'] == 'complete'") == True ]] && pass "report has read_bytes_per_s" || fail "report summary"

# Flip one byte inside the payload of record 1300 (file 1, second record of that shard).
f=$ds/data/00000/file-00000001.rec
off=$(( $(json "$ds/dlsize-dataset.json" "0") + 114660 * 49 + 1000 ))
"$PY" - "$f" "$off" <<'PY'
import sys
p, off = sys.argv[1], int(sys.argv[2])
with open(p, 'r+b') as fh:
    fh.seek(off); b = fh.read(1); fh.seek(off); fh.write(bytes([b[0] ^ 0x01]))
PY
expect_rc 1 "verify finds the flipped byte" -- "$DLSIZE" verify "$ds" --quiet
expect_text "file-00000001.rec record 1300" "verify names file and record"
expect_rc 1 "bench --verify finds the flipped byte" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --verify --quiet --out "$SCRATCH/bad.json"
expect_text "file-00000001.rec record 1300" "bench names file and record"
[[ $(json "$SCRATCH/bad.json" "r['status'] == 'incomplete' and r['verify']['mismatches'] == 1") == True ]] && pass "report marks the run incomplete" || fail "report after mismatch"
finish
