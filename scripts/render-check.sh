#!/usr/bin/env bash
# Renders HTML reports in headless Chromium from file:// and checks what it drew: the DOM
# Chromium built holds at least MIN_SVG <svg> elements with drawn marks and a <table>, and a
# screenshot is not blank. Needs chromium (scripts/deps.sh --test installs it). Exit 0 when every
# page rendered, 1 otherwise, 77 when chromium is missing.
# Usage: scripts/render-check.sh [--min-svg N] FILE.html...
set -uo pipefail
min_svg=1
if [[ "${1:-}" == "--min-svg" ]]; then min_svg=$2; shift 2; fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then echo "render-check: chromium is not installed (apt-get install chromium)"; exit 77; fi
py=/usr/bin/python3 # Debian's: a python3 first on PATH may be a slow shim (pyenv)
[[ -x $py ]] || py=$(command -v python3)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars)
status=0
for page in "$@"; do
  url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
  profile=$(mktemp -d "$work/profile.XXXXXX")
  if ! timeout 120 "$browser" "${flags[@]}" --user-data-dir="$profile" --dump-dom "$url" >"$work/dom.html" 2>"$work/err.txt"; then
    echo "render-check: $page: chromium --dump-dom failed: $(tail -3 "$work/err.txt")"; status=1; continue
  fi
  profile=$(mktemp -d "$work/profile.XXXXXX")
  if ! timeout 120 "$browser" "${flags[@]}" --user-data-dir="$profile" --window-size=1200,1600 \
      --screenshot="$work/shot.png" "$url" >/dev/null 2>"$work/err.txt"; then
    echo "render-check: $page: chromium --screenshot failed: $(tail -3 "$work/err.txt")"; status=1; continue
  fi
  "$py" "$here/render_check.py" "$work/dom.html" "$work/shot.png" "$min_svg" "$page" || status=1
done
exit $status
