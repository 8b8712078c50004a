#!/usr/bin/env bash
# bench --index --verify on foreign TFRecord shards (foreign_dataset.py writes them with real
# masked CRC32Cs): the pristine shards pass with every record checked, through O_DIRECT and the
# page cache; a flipped data byte and a corrupted length CRC, each made in a copy of the shards
# with the mtime kept (bit rot, not an edit), are found and named by file, record and offset;
# an index of JPEG files, or of a mixed folder, is refused (exit 2) naming a file that is not a
# TFRecord. The fixture's own shards are never written.
source "$(dirname "$0")/lib.sh"
D=$SCRATCH/data
$PY "$ROOT/tests/integration/foreign_dataset.py" "$D" "$SCRATCH/expected.json"
sha256sum "$D"/shards/* >"$SCRATCH/shards.sha"
T=$SCRATCH/tf
cp -a "$D/shards" "$T"
expect_rc 0 "index of a copy of the TFRecord shards" -- "$DLSIZE" index "$T" --out "$SCRATCH/tf.json" --quiet
records=$($PY -c 'import json, sys; print(sum(len(v) for v in json.load(open(sys.argv[1]))["tfrecord"].values()))' "$SCRATCH/expected.json")
bench=("$DLSIZE" bench --index "$SCRATCH/tf.json" --workload resnet50 --accelerator none --verify --quiet)

for cache in direct buffered; do
  expect_rc 0 "bench --index --verify passes on the pristine shards (--cache $cache)" -- "${bench[@]}" --cache $cache --out "$SCRATCH/ok-$cache.json"
  [[ $(json "$SCRATCH/ok-$cache.json" '"%s %d %d %d" % (r["status"], r["verify"]["records_checked"], r["verify"]["mismatches"], len(r["verify"]["content_digest"]))') == "complete $records 0 16" ]] \
    && pass "every TFRecord record was checked, none failed, the content digest is reported ($cache)" \
    || fail "verified report ($cache): $(json "$SCRATCH/ok-$cache.json" 'r["status"], r.get("verify")')"
done

# flip FILE OFFSET MASK: XORs one byte in place and puts the mtime back, so that the index's
# check at open passes and only the CRCs can tell.
flip() {
  $PY - "$@" <<'PYEOF'
import os, sys
p, off, mask = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0)
st = os.stat(p)
with open(p, "r+b") as f:
    f.seek(off); b = f.read(1); f.seek(off); f.write(bytes([b[0] ^ mask]))
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
PYEOF
}
offset_of() { $PY -c 'import json, sys; print(json.load(open(sys.argv[1]))["tfrecord"]["shards/" + sys.argv[2]][int(sys.argv[3])][0])' "$SCRATCH/expected.json" "$1" "$2"; }

f1=train-00001-of-00003.tfrecord
o1=$(offset_of $f1 7)
flip "$T/$f1" $((o1 + 12 + 40)) 0x10
expect_rc 1 "a flipped data byte fails the run" -- "${bench[@]}" --out "$SCRATCH/data-bad.json"
expect_text "$f1 record 7 (offset $o1): data CRC mismatch" "the mismatch names the file, the record and its offset"
[[ $(json "$SCRATCH/data-bad.json" '"%s %d %d" % (r["status"], r["verify"]["mismatches"], r["verify"]["records_checked"])') == "incomplete 1 $records" ]] \
  && pass "the report counts one mismatch among every record checked" || fail "report after a data flip: $(json "$SCRATCH/data-bad.json" 'r["status"], r.get("verify")')"
flip "$T/$f1" $((o1 + 12 + 40)) 0x10

f2=train-00002-of-00003.tfrecord
o2=$(offset_of $f2 3)
flip "$T/$f2" $((o2 + 9)) 0x01
expect_rc 1 "a corrupted length CRC fails the run" -- "${bench[@]}" --out "$SCRATCH/len-bad.json"
expect_text "$f2 record 3 (offset $o2): length CRC mismatch" "the length CRC mismatch names the file, the record and its offset"
[[ $(json "$SCRATCH/len-bad.json" 'r["verify"]["mismatches"]') == 1 ]] && pass "one mismatch counted" || fail "length CRC report"

sha256sum -c --quiet "$SCRATCH/shards.sha" && pass "the fixture's own shards are unchanged" || fail "the fixture's shards changed"

expect_rc 0 "index of JPEG files only" -- "$DLSIZE" index "$D/images/a" --out "$SCRATCH/jpeg.json" --quiet
expect_rc 2 "--verify with an index of JPEG files is refused" -- "$DLSIZE" bench --index "$SCRATCH/jpeg.json" --workload resnet50 --accelerator none --verify --quiet --out "$SCRATCH/x1.json"
[[ $ERR =~ img0[0-9][0-9]\.jpg\ \(format\ jpeg\)\ is\ not\ a\ TFRecord ]] && pass "the refusal names a JPEG file and why" || fail "refusal: $ERR"
expect_rc 0 "index of the mixed folder" -- "$DLSIZE" index "$D" --out "$SCRATCH/mixed.json" --quiet
expect_rc 2 "--verify with an index of mixed formats is refused" -- "$DLSIZE" bench --index "$SCRATCH/mixed.json" --workload resnet50 --accelerator none --verify --quiet --out "$SCRATCH/x2.json"
expect_text "is not a TFRecord" "the refusal names the first file that is not a TFRecord"
finish
