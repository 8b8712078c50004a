#!/usr/bin/env bash
# The newcomer's first run: installs what is missing, builds, and runs the embedded default
# (configs/quickstart.json: a 2 GiB resnet50 dataset under ./dlsize-data, generated on first
# use, read by 4 emulated a100s for 3 epochs), then says where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
dlsize=${DLSIZE_BUILD_DIR:-build}/dlsize
mkdir -p reports
out=reports/quickstart-$(date -u +%Y%m%dT%H%M%SZ).json
"$dlsize" bench --out "$out"
echo "quickstart: the report is $out (fields: docs/report-schema.md, metrics: docs/metrics.md)"
