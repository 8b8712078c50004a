#!/usr/bin/env bash
# The report says when the page cache served the data: a second buffered pass over a small
# dataset is mostly cache hits, an O_DIRECT pass is not.
# labels: integration serial
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 200MiB --quiet >/dev/null
"$DLSIZE" bench --workload resnet50 --dataset "$ds" --cache buffered --quiet --out "$SCRATCH/warm.json" >/dev/null
if [[ $(json "$SCRATCH/warm.json" "r['storage']['counter'] is None") == True ]]; then
  echo "skip: no block-device or NFS counters for this file system"
  exit 77
fi
expect_rc 0 "second buffered pass" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --cache buffered --quiet --out "$SCRATCH/hot.json"
h=$(json "$SCRATCH/hot.json" "r['storage']['hit_ratio']")
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0.8 else 1)" "$h" && pass "buffered re-read hit ratio $h > 0.8" || fail "buffered re-read hit ratio $h"
[[ $(json "$SCRATCH/hot.json" "any('5 x this host' in w for w in r['warnings'])") == True ]] && pass "warns that the dataset is under 5 x RAM" || fail "no page-cache warning"
expect_rc 0 "direct pass" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --cache direct --quiet --out "$SCRATCH/direct.json"
h=$(json "$SCRATCH/direct.json" "r['storage']['hit_ratio']")
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) < 0.2 else 1)" "$h" && pass "O_DIRECT hit ratio $h < 0.2" || fail "O_DIRECT hit ratio $h"
finish
