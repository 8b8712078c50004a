#!/usr/bin/env bash
# Checks that no function in src/pipeline and src/report is longer than .clang-tidy's
# readability-function-size LineThreshold (issue 13: about 80 lines), with clang-tidy running
# that one check only, so it stays cheap. Prints each function over and exits 1; 2 when
# clang-tidy or the build's compile_commands.json is missing.
# Usage: scripts/function-size.sh [BUILD_DIR [FILE.cpp...]]   (default: build, and the .cpp
# files of src/pipeline and src/report)
set -euo pipefail
cd "$(dirname "$0")/.."
ct=${CLANG_TIDY:-clang-tidy-14}
build=${1:-${DLSIZE_BUILD_DIR:-build}}
shift || true
if ! command -v "$ct" >/dev/null; then
  echo "function-size: $ct not found; install it: apt-get install clang-tidy-14" >&2
  exit 2
fi
if [[ ! -f "$build/compile_commands.json" ]]; then
  echo "function-size: $build/compile_commands.json not found; build first (scripts/build.sh)" >&2
  exit 2
fi
files=("$@")
((${#files[@]})) || mapfile -t files < <(git ls-files 'src/pipeline/*.cpp' 'src/report/*.cpp')
# The threshold is the config's, so the check and the editor's clang-tidy agree.
limit=$(sed -n '/readability-function-size.LineThreshold/{n;s/[^0-9]//gp;q}' .clang-tidy)
config="{Checks: '-*,readability-function-size', CheckOptions: [{key: readability-function-size.LineThreshold, value: '${limit:?no LineThreshold in .clang-tidy}'}]}"
# One clang-tidy per file, as many at once as there are cores.
rc=0
out=$(printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$(nproc)" "$ct" -p "$build" --quiet --config="$config" \
    --warnings-as-errors='readability-function-size' --header-filter='src/(pipeline|report)/' \
    2>&1) || rc=$?
# Each function: "FILE:LINE:COL: error: function 'NAME' exceeds ..." and its note "N lines
# including whitespace and comments (threshold 80)".
over=$(grep -E "exceeds recommended size/complexity|note: [0-9]+ lines including" <<<"$out" || true)
if [[ -n "$over" ]]; then
  echo "function-size: functions over $limit lines (split them into named pieces):" >&2
  echo "$over" >&2
  exit 1
fi
if ((rc)); then
  echo "function-size: $ct failed:" >&2
  echo "$out" >&2
  exit 2
fi
echo "function-size: ${#files[@]} files, no function over $limit lines"
