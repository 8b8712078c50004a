#!/usr/bin/env bash
# Checks that no function in src/ and cli/ is longer than .clang-tidy's
# readability-function-size LineThreshold (issue 13: about 80 lines). Prints each function over
# (clang-tidy's wording) and exits 1; 0 when none is; 2 when a file cannot be checked.
# Usage: scripts/function-size.sh [FILE...]
#   The lexical check, scripts/function_size.py (python3 alone; about 2 s of CPU for the whole
#   tree), over FILE... or every tracked C++ source and header of src/ and cli/. It reports what
#   clang-tidy reports (docs/architecture.md has the comparison), and lambdas too.
# Usage: scripts/function-size.sh --clang-tidy [BUILD_DIR [FILE.cpp...]]
#   The cross-check: clang-tidy-14 with readability-function-size alone, over the build's
#   compile_commands.json (default: build). Without files, under CI=true (or DLSIZE_LINT_ALL=1)
#   every .cpp of src/ and cli/ is parsed (tens of minutes on 2 cores); otherwise only those
#   changed since the merge base with DLSIZE_LINT_BASE (default main), committed or not. A unity
#   build's compile_commands.json names batch files; the check expands them into one entry per
#   source first. Exits 2 when clang-tidy or compile_commands.json is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's interpreter where there is one: a python3 first on PATH may be a slow shim (pyenv).
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3)
# The threshold is the config's, so the check and the editor's clang-tidy agree.
limit=$(sed -n '/readability-function-size.LineThreshold/{n;s/[^0-9]//gp;q}' .clang-tidy)
: "${limit:?no LineThreshold in .clang-tidy}"

if [[ ${1:-} != --clang-tidy ]]; then
  files=("$@")
  ((${#files[@]})) || mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'src/*.h' \
    'src/*.cu' 'src/*.cuh' 'cli/*.cpp' 'cli/*.hpp')
  rc=0
  out=$("$py" scripts/function_size.py --limit "$limit" "${files[@]}") || rc=$?
  grep -E ': allowed: ' <<<"$out" || true
  if ((rc == 1)); then
    echo "function-size: functions over $limit lines (split them into named pieces):" >&2
    grep -vE ': allowed: ' <<<"$out" >&2
    exit 1
  fi
  ((rc == 0)) || exit "$rc"
  echo "function-size: ${#files[@]} files, no function over $limit lines beyond the allow-list"
  exit 0
fi

shift
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
scope=(src/*.cpp src/*.cu cli/*.cpp)
if ((${#files[@]} == 0)); then
  mapfile -t files < <(git ls-files "${scope[@]}")
  if [[ ${CI:-} != true && ${DLSIZE_LINT_ALL:-0} != 1 ]] &&
    base=$(git merge-base HEAD "${DLSIZE_LINT_BASE:-main}" 2>/dev/null); then
    mapfile -t files < <({ git diff --name-only "$base" -- "${scope[@]}"
      git ls-files --others --exclude-standard -- "${scope[@]}"; } | sort -u |
      while read -r f; do [[ -f $f ]] && echo "$f"; done)
    if ((${#files[@]} == 0)); then
      echo "function-size: no file of src/ or cli/ changed since $(git rev-parse --short "$base") (CI=true checks them all)"
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
config="{Checks: '-*,readability-function-size', CheckOptions: [{key: readability-function-size.LineThreshold, value: '$limit'}]}"
# One clang-tidy per file, as many at once as there are cores.
rc=0
out=$(printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$(nproc)" "$ct" -p "$db" --quiet --config="$config" \
    --warnings-as-errors='readability-function-size' --header-filter='.*' \
    2>&1) || rc=$?
# Each function: "FILE:LINE:COL: error: function 'NAME' exceeds ..." and its note "N lines
# including whitespace and comments (threshold 80)". A header is reached through the build's
# module links (build/modules/NAME/NAME -> src/NAME), so it is named by its src/ path, once.
over=$(grep -E "exceeds recommended size/complexity|note: [0-9]+ lines including" <<<"$out" |
  sed -E 's#[^ :]*/modules/([a-z0-9_]+)/\1/#src/\1/#' | awk '!seen[$0]++' || true)
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
