#!/usr/bin/env bash
# Training runs with --shard-read stream (tf.data's interleave over each epoch's shuffled shard
# list): on a generated shards dataset whose shards deal evenly (every record read once per
# epoch, so samples and read bytes are the dataset's), on an index of TFRecord shards of
# unequal record counts (one accelerator: every record, the bytes the fixture wrote; two: equal
# steps, cut per epoch), a replay reading the same samples, and the refusal for a dataset of
# one sample per file.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/shards
# 12 shards of 16 records: 2 accelerators stream 6 shards (96 records = 12 batches of 8) each.
"$DLSIZE" datagen --workload resnet50 --layout shards --records-per-file 16 --files 12 --dataset "$ds" --quiet >/dev/null
common=(--workload resnet50 --accelerator emulated:h100 --compute-time 1ms --cache buffered --quiet)
expect_rc 0 "a streamed training run on generated shards" -- "$DLSIZE" bench --dataset "$ds" "${common[@]}" --shard-read stream --accelerators 2 --batch-size 8 --epochs 2 --out "$SCRATCH/g.json"
[[ $(json "$SCRATCH/g.json" '"%s %s %d %d" % (r["status"], r["config"]["shard-read"], r["summary"]["steps_per_epoch"], r["summary"]["epochs_completed"])') == "complete stream 12 2" ]] \
  && pass "the report records stream, 12 steps per epoch, both epochs" || fail "generated: $(json "$SCRATCH/g.json" 'r.get("summary")')"
[[ $(json "$SCRATCH/g.json" 'r["summary"]["samples"] == 2 * r["dataset"]["samples"] and r["summary"]["read_bytes"] == 2 * r["dataset"]["bytes"] and r["summary"]["accelerator_utilization"] is not None') == True ]] \
  && pass "every record read once per epoch: samples and read bytes are twice the dataset's; AU reported" \
  || fail "samples/bytes: $(json "$SCRATCH/g.json" '(r["summary"]["samples"], r["summary"]["read_bytes"], r["dataset"]["samples"], r["dataset"]["bytes"])')"
expect_rc 0 "its replay" -- "$DLSIZE" bench --replay "$SCRATCH/g.json" --out "$SCRATCH/g2.json" --quiet
[[ $($PY -c "import json,sys; d=[[a['sample_digest'] for a in json.load(open(f))['accelerators']] for f in sys.argv[1:]]; print(d[0] == d[1] and len(d[0]) == 2)" "$SCRATCH/g.json" "$SCRATCH/g2.json") == True ]] \
  && pass "a replay reads the same samples (sample digests equal)" || fail "replay digests differ"
expect_rc 0 "the same run reading records by index" -- "$DLSIZE" bench --dataset "$ds" "${common[@]}" --accelerators 2 --batch-size 8 --epochs 2 --out "$SCRATCH/r.json"
[[ $($PY -c "import json,sys; d=[[a['sample_digest'] for a in json.load(open(f))['accelerators']] for f in sys.argv[1:]]; print(d[0] != d[1])" "$SCRATCH/g.json" "$SCRATCH/r.json") == True ]] \
  && pass "stream and records read in other orders (digests differ)" || fail "stream read as records do"

# Three TFRecord shards of 20, 27 and 34 records (foreign_dataset.py), through an index.
D=$SCRATCH/data
$PY "$ROOT/tests/integration/foreign_dataset.py" "$D" "$SCRATCH/expected.json"
expect_rc 0 "index of the TFRecord shards" -- "$DLSIZE" index "$D/shards" --out "$SCRATCH/tf.json" --quiet
expect_rc 0 "one accelerator streams every indexed shard" -- "$DLSIZE" bench --index "$SCRATCH/tf.json" "${common[@]}" --shard-read stream --batch-size 1 --epochs 2 --out "$SCRATCH/t1.json"
want=$($PY -c 'import json,sys; e=json.load(open(sys.argv[1]))["tfrecord"]; print(sum(1 for v in e.values() for _ in v), sum(l for v in e.values() for _, l in v))' "$SCRATCH/expected.json")
[[ $(json "$SCRATCH/t1.json" '"%s %d %d" % (r["status"], r["summary"]["samples"] // 2, r["summary"]["read_bytes"] // 2)') == "complete $want" ]] \
  && pass "every record of every shard read each epoch, the bytes the fixture wrote" \
  || fail "indexed, one accelerator: $(json "$SCRATCH/t1.json" '(r["status"], r["summary"]["samples"], r["summary"]["read_bytes"])') want $want per epoch"
expect_rc 0 "two accelerators stream the indexed shards" -- "$DLSIZE" bench --index "$SCRATCH/tf.json" "${common[@]}" --shard-read stream --accelerators 2 --batch-size 4 --epochs 3 --out "$SCRATCH/t2.json"
[[ $(json "$SCRATCH/t2.json" 'r["status"] == "complete" and r["summary"]["samples"] == 2 * 4 * r["summary"]["steps"] and all(a["steps"] == r["summary"]["steps"] for a in r["accelerators"]) and r["summary"]["samples"] <= 3 * 81') == True ]] \
  && pass "equal steps per accelerator, whole batches, no more than the records" \
  || fail "indexed, two accelerators: $(json "$SCRATCH/t2.json" '(r["status"], r["summary"]["samples"], r["summary"]["steps"])')"
validate_json "$SCRATCH/g.json" "$SCRATCH/t1.json" "$SCRATCH/t2.json"

# One sample per file: nothing to stream.
expect_rc 0 "index of the image folder" -- "$DLSIZE" index "$D/images" --out "$SCRATCH/img.json" --quiet
expect_rc 2 "stream over one sample per file is refused" -- "$DLSIZE" bench --index "$SCRATCH/img.json" "${common[@]}" --shard-read stream --batch-size 2 --out "$SCRATCH/x.json"
expect_text "holds one sample per file" "the refusal says why"
finish
