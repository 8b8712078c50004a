#!/usr/bin/env bash
# labels: lint
# scripts/json-access.sh (the CTest lint.json_access) finds string-keyed JSON access outside the
# documents' *_json.cpp files: it names the file and line of obj["key"], .at("key"),
# .value("key", ...), .contains("key") and an object literal {{"key", ...}} in another file (not
# in a comment), and passes the same lines in a *_json.cpp and in a file scripts/json-access.allow
# lists.
source "$(dirname "$0")/lib.sh"
mkdir -p "$SCRATCH/src"
cat >"$SCRATCH/src/writer.cpp" <<'CPP'
void f(nlohmann::json& j) {
  j["bytes"] = 1;
  auto a = j.at("files");
  auto b = j.value("seed", 0);
  bool c = j.contains("histogram");
  nlohmann::json d = {{"count", 1}, {"files", 2}};
  // A comment may name {{"count", 1}} and j["bytes"].
}
CPP
cp "$SCRATCH/src/writer.cpp" "$SCRATCH/src/writer_json.cpp"
expect_rc 1 "a file that reads keys fails the check" -- bash "$ROOT/scripts/json-access.sh" "$SCRATCH/src/writer.cpp"
for line in 2 3 4 5 6; do
  expect_text "writer.cpp:$line:" "line $line is named"
done
expect_text "outside the documents' *_json.cpp files" "the message says where such access belongs"
[[ "$ERR$OUT" != *"writer.cpp:7:"* ]] && pass "a comment is not access" \
  || fail "a comment was named: $ERR $OUT"
expect_rc 0 "the same lines in a *_json.cpp pass" -- bash "$ROOT/scripts/json-access.sh" "$SCRATCH/src/writer_json.cpp"
allowed=$(sed -n 's/^\([^#[:space:]][^[:space:]]*\).*/\1/p' "$ROOT/scripts/json-access.allow" | head -1)
expect_rc 0 "a listed file passes ($allowed)" -- bash "$ROOT/scripts/json-access.sh" "$allowed"
finish
