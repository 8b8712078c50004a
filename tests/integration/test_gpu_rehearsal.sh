#!/usr/bin/env bash
# labels: gpu
# The GPU check rehearsed without a GPU (scripts/gpu-rehearsal.sh): a bundle laid out from this
# build (no second compile), the check's steps against the CPU stand-in module under env -i,
# its table, archive and budget. The portable bundle's own rules are
# test_gpu_bundle_rules.sh's; the real bundle is built only by scripts/gpu-bundle.sh.
set -uo pipefail
build=$(cd "$(dirname "$1")" && pwd)
[[ -f $build/tests/gpu/dlsize_gpu_tests ]] || { echo "skipped: this build has no CUDA backend"; exit 77; }
DLSIZE_REHEARSAL_BUNDLE=$build/gpu-rehearsal/bundle \
  exec bash "$(dirname "$0")/../../scripts/gpu-rehearsal.sh" "$build"
