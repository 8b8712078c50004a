#!/usr/bin/env bash
# The GPU check rehearsed without a GPU (scripts/gpu-rehearsal.sh): the bundle, its library
# needs, the check's steps against the CPU stand-in module under env -i, its table, archive and
# budget. The bundle's build tree is kept under this build folder (gpu-rehearsal/), so only
# the first run pays for it (a few minutes on 2 cores); later runs rebuild what changed.
set -uo pipefail
build=$(cd "$(dirname "$1")" && pwd)
DLSIZE_BUNDLE_BUILD=$build/gpu-rehearsal DLSIZE_REHEARSAL_BUNDLE=$build/gpu-rehearsal/bundle \
  exec bash "$(dirname "$0")/../../scripts/gpu-rehearsal.sh"
