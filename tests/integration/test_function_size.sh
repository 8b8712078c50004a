#!/usr/bin/env bash
# labels: lint
# scripts/function-size.sh (run by scripts/test.sh) fails on a function longer than .clang-tidy's
# threshold and names it, and passes a file whose functions are all short. It runs on two small
# files with a compile database of their own, so it costs a second, not a tree's parse.
source "$(dirname "$0")/lib.sh"
if ! command -v "${CLANG_TIDY:-clang-tidy-14}" >/dev/null; then
  echo "skip: clang-tidy-14 is not installed (scripts/deps.sh --test installs it)"
  exit 77
fi
limit=$(sed -n '/readability-function-size.LineThreshold/{n;s/[^0-9]//gp;q}' "$ROOT/.clang-tidy")
[[ $limit -gt 0 ]] && pass "the threshold ($limit lines) comes from .clang-tidy" || fail "no threshold in .clang-tidy"
# A function of limit + 10 statements, and one of 10.
write_function() {
  {
    echo "int $2(int x) {"
    for ((i = 0; i < $3; ++i)); do echo "  x = x * 3 + $i;"; done
    echo "  return x;"
    echo "}"
  } >"$1"
}
write_function "$SCRATCH/long_one.cpp" too_long_function $((limit + 10))
write_function "$SCRATCH/short_one.cpp" short_function 10
printf '[%s,%s]\n' \
  "{\"directory\": \"$SCRATCH\", \"file\": \"$SCRATCH/long_one.cpp\", \"command\": \"c++ -std=c++20 -c long_one.cpp\"}" \
  "{\"directory\": \"$SCRATCH\", \"file\": \"$SCRATCH/short_one.cpp\", \"command\": \"c++ -std=c++20 -c short_one.cpp\"}" \
  >"$SCRATCH/compile_commands.json"
expect_rc 1 "a function over $limit lines fails the check" -- \
  "$ROOT/scripts/function-size.sh" "$SCRATCH" "$SCRATCH/long_one.cpp" "$SCRATCH/short_one.cpp"
expect_text "too_long_function" "the failure names the long function"
[[ "$ERR" != *short_function* ]] && pass "the short function is not named" || fail "short function named: $ERR"
expect_rc 0 "functions of 10 lines pass" -- \
  "$ROOT/scripts/function-size.sh" "$SCRATCH" "$SCRATCH/short_one.cpp"
finish
