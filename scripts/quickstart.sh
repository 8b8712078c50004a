#!/usr/bin/env bash
# The newcomer's first run: installs what building and running need (not the test tools:
# scripts/test.sh adds those), builds, and runs the embedded default (configs/quickstart.json: a
# 2 GiB resnet50 dataset under ./dlsize-data, generated on first use, read by 4 emulated a100s
# for 3 epochs), then says where the report is. The build is the one scripts/test.sh uses
# (warnings as errors), so the tests that follow compile only themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "quickstart: $1 ($(($(date +%s) - t0)) s so far)" >&2; }
t0=$(date +%s)
scripts/deps.sh
phase "packages ready"
scripts/build.sh -DDLSIZE_WERROR=ON
phase "built"
dlsize=${DLSIZE_BUILD_DIR:-build}/dlsize
mkdir -p reports
out=reports/quickstart-$(date -u +%Y%m%dT%H%M%SZ).json
"$dlsize" bench --out "$out"
phase "ran"
echo "quickstart: the report is $out (fields: docs/report-schema.md, metrics: docs/metrics.md)"
