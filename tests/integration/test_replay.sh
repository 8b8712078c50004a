#!/usr/bin/env bash
# bench --replay REPORT reruns a run: the report's config block is complete (absolute paths,
# resolved AU threshold, no option the run's kind refuses), a replay gives the same sample
# digests (training) and the same content digest with --verify (storage only), the command
# line overrides the report, and a report that is not one is refused.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 64MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
cd "$SCRATCH" || exit 1
expect_rc 0 "a training run" -- "$DLSIZE" bench --workload resnet50 --dataset r50 --accelerator emulated:h100 \
  --accelerators 2 --batch-size 16 --compute-time 2ms --epochs 2 --seed 7 --cache buffered --quiet --out t1.json
check=$(json t1.json "r['config']['dataset'].startswith('/') and r['config']['au-threshold'] == 0.9 and
  'precision' not in r['config'] and None not in r['config'].values() and 'out' not in r['config'] and r['config_given']['seed'] == 7")
[[ $check == True ]] && pass "the config block is resolved and replayable" || fail "config: $(json t1.json "r['config']")"
expect_rc 0 "its replay" -- "$DLSIZE" bench --replay t1.json --out t2.json
same=$(/usr/bin/python3 -c "import json,sys; d=[[a['sample_digest'] for a in json.load(open(f))['accelerators']] for f in sys.argv[1:]]; print(d[0] == d[1] and len(d[0]) == 2)" t1.json t2.json)
[[ $same == True ]] && pass "the replay gives the same sample digests" || fail "digests differ"
expect_rc 0 "a replay with the seed overridden" -- "$DLSIZE" bench --replay t1.json --seed 8 --out t3.json
check=$(/usr/bin/python3 -c "import json,sys; d=[[a['sample_digest'] for a in json.load(open(f))['accelerators']] for f in sys.argv[1:]]; print(d[0] != d[1])" t1.json t3.json)
[[ $check == True && $(json t3.json "r['config']['seed']") == 8 ]] && pass "the command line overrides the report" || fail "override"

expect_rc 0 "a storage-only run with --verify" -- "$DLSIZE" bench --workload resnet50 --dataset r50 --accelerator none \
  --epochs 1 --verify --cache buffered --quiet --out s1.json
check=$(json s1.json "not any(k in r['config'] for k in ('accelerators', 'prefetch', 'precision', 'au-threshold'))")
[[ $check == True ]] && pass "a storage-only config has no accelerator options" || fail "config: $(json s1.json "r['config']")"
(cd / && "$DLSIZE" bench --replay "$SCRATCH/s1.json" --out "$SCRATCH/s2.json" >/dev/null 2>&1) && pass "its replay from another folder" || fail "storage-only replay failed"
[[ $(json s1.json "r['verify']['content_digest']") == $(json s2.json "r['verify']['content_digest']") ]] && pass "the replay gives the same content digest" || fail "content digests differ"

mkdir -p broken && echo '{"schema": "dlsize.compare/1"}' > broken/notreport.json
expect_rc 2 "a file that is not a report is refused" -- "$DLSIZE" bench --replay broken/notreport.json
expect_text "this is a dlsize backend comparison (dlsize compare --out FILE), not a bench report" "message says what it is and what it wants"
expect_rc 2 "--replay with --config is refused" -- "$DLSIZE" bench --replay t1.json --config quickstart
/usr/bin/python3 -c "import json; r=json.load(open('t1.json')); r['topology']['ranks']=2; json.dump(r, open('broken-ranks.json','w'))"
expect_rc 2 "a replay under another rank count is refused" -- "$DLSIZE" bench --replay broken-ranks.json --out t4.json
expect_text "ranks" "message names the rank count"
finish
