#!/usr/bin/env bash
# Checks that no function in src/pipeline and src/report is longer than .clang-tidy's
# readability-function-size LineThreshold (issue 13: about 80 lines), with clang-tidy running
# that one check only, so it stays cheap. Prints each function over and exits 1; 2 when
# clang-tidy or the build's compile_commands.json is missing.
# Usage: scripts/function-size.sh [BUILD_DIR [FILE.cpp...]]   (default: build, and the .cpp
# files of src/pipeline and src/report)
# Without files, under CI=true (or DLSIZE_LINT_ALL=1) every checked file is read; otherwise only
# those changed since the merge base with DLSIZE_LINT_BASE (default main), committed or not,
# so a developer's run costs seconds. A unity build's compile_commands.json names batch files;
# the check expands them into one entry per source first.
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
scope=(src/pipeline/*.cpp src/report/*.cpp)
if ((${#files[@]} == 0)); then
  mapfile -t files < <(git ls-files "${scope[@]}")
  if [[ ${CI:-} != true && ${DLSIZE_LINT_ALL:-0} != 1 ]] &&
    base=$(git merge-base HEAD "${DLSIZE_LINT_BASE:-main}" 2>/dev/null); then
    mapfile -t files < <({ git diff --name-only "$base" -- "${scope[@]}"
      git ls-files --others --exclude-standard -- "${scope[@]}"; } | sort -u |
      while read -r f; do [[ -f $f ]] && echo "$f"; done)
    if ((${#files[@]} == 0)); then
      echo "function-size: no file of src/pipeline or src/report changed since $(git rev-parse --short "$base") (CI=true checks them all)"
      exit 0
    fi
  fi
fi
# One compile command per source file, the unity batches expanded.
db=$build/function-size
mkdir -p "$db"
python3 - "$build/compile_commands.json" "$db/compile_commands.json" <<'PY'
import json, re, sys
entries = []
for e in json.load(open(sys.argv[1])):
    if "/Unity/unity_" not in e["file"]:
        entries.append(e)
        continue
    for inc in re.findall(r'^#include "([^"]+)"', open(e["file"]).read(), re.M):
        cmd = e["command"].replace(e["file"], inc)
        entries.append({"directory": e["directory"], "command": cmd, "file": inc})
json.dump(entries, open(sys.argv[2], "w"))
PY
# The threshold is the config's, so the check and the editor's clang-tidy agree.
limit=$(sed -n '/readability-function-size.LineThreshold/{n;s/[^0-9]//gp;q}' .clang-tidy)
config="{Checks: '-*,readability-function-size', CheckOptions: [{key: readability-function-size.LineThreshold, value: '${limit:?no LineThreshold in .clang-tidy}'}]}"
# One clang-tidy per file, as many at once as there are cores.
rc=0
out=$(printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$(nproc)" "$ct" -p "$db" --quiet --config="$config" \
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
