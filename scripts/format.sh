#!/usr/bin/env bash
# Formats the tree with the pinned clang-format (Debian 12's clang-format-14), or with --check
# lists the files that differ and exits 1. Only tracked C++ and CUDA sources are touched.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$cf" >/dev/null; then
  echo "format: $cf not found; install it: apt-get install clang-format-14" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh')
if [[ "${1:-}" == "--check" ]]; then
  # Many files per clang-format, one per core at a time; each unformatted file is named by its
  # "code should be clang-formatted" diagnostics.
  mapfile -t bad < <(printf '%s\0' "${files[@]}" |
    xargs -0 -n 16 -P "$(nproc)" "$cf" --dry-run --Werror 2>&1 |
    sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
  if ((${#bad[@]})); then
    echo "format: ${#bad[@]} file(s) not formatted by $cf (run scripts/format.sh):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$cf" -i "${files[@]}"
fi
