#!/usr/bin/env bash
# The newcomer's first run: installs what is missing, builds, generates a small dataset for the
# embedded default workload, runs the bench on it and says where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
dlsize=${DLSIZE_BUILD_DIR:-build}/dlsize
data=quickstart-data
size=${QUICKSTART_SIZE:-1GiB}
mkdir -p reports
if [[ ! -f $data/dlsize-dataset.json ]]; then
  echo "quickstart: generating a $size resnet50 dataset in $data/ (first run only)"
fi
"$dlsize" datagen --workload resnet50 --dataset "$data" --size "$size"
out=reports/quickstart-$(date -u +%Y%m%dT%H%M%SZ).json
"$dlsize" bench --workload resnet50 --dataset "$data" --accelerator none --epochs 2 --verify --out "$out"
echo "quickstart: the report is $out"
