#!/usr/bin/env bash
# Each document's JSON in one place: no string-keyed JSON access (obj["key"], .at("key"),
# .value("key", ...), .contains("key"), an object literal {{"key", value}, ...}) in src/ or cli/
# outside the *_json.cpp files that hold
# a document's to_json/from_json (docs/architecture.md, "Documents: one typed value each"), and
# outside the files scripts/json-access.allow lists, each with why (input formats dlsize only
# reads, generic JSON tools, maps that are not JSON). Prints each access found and exits 1; 0
# when there is none.
# Usage: scripts/json-access.sh [FILE...]   (default: every tracked C++ file of src/ and cli/)
set -euo pipefail
cd "$(dirname "$0")/.."
files=("$@")
((${#files[@]})) || mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'cli/*.cpp' 'cli/*.hpp')
allowed=$(sed -n 's/^\([^#[:space:]][^[:space:]]*\).*/\1/p' scripts/json-access.allow)
pattern='\["[A-Za-z_0-9.]+"\]|\.at\("[^"]+"\)|\.value\("|\.contains\("|\{\{"[A-Za-z_0-9.-]+", '
found=0
for f in "${files[@]}"; do
  [[ $f == *_json.cpp ]] && continue
  grep -qxF "$f" <<<"$allowed" && continue
  if out=$(grep -nE "$pattern" "$f" | grep -vE '^[0-9]+:[[:space:]]*//'); then
    sed "s|^|$f:|" <<<"$out"
    found=$((found + $(wc -l <<<"$out")))
  fi
done
if ((found)); then
  echo "json-access: $found string-keyed JSON accesses outside the documents' *_json.cpp files;" \
    "move them into the document's to_json/from_json (or list the file, with why, in" \
    "scripts/json-access.allow)" >&2
  exit 1
fi
