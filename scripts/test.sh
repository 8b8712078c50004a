#!/usr/bin/env bash
# Installs what is missing, checks the formatting, builds with warnings as errors, and runs every
# test through CTest (the function-size check of src/pipeline and src/report among them:
# lint.function_size, scripts/function-size.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/format.sh --check
DLSIZE_BUILD_DIR=${DLSIZE_BUILD_DIR:-build} scripts/build.sh -DDLSIZE_WERROR=ON
cd "${DLSIZE_BUILD_DIR:-build}"
ctest --output-on-failure -j 2 --timeout 600
