#!/usr/bin/env bash
# labels: lint
# scripts/function-size.sh (the CTest lint.function_size) fails on a function longer than
# .clang-tidy's threshold and names it with its length, for the kinds of body the lexical check
# must find (a free function, a lambda, a constructor after its init list, a member function in
# a header) and not be misled by (braces in strings, characters, raw strings, comments and
# preprocessor lines; class, namespace and initializer braces). The clang-tidy cross-check
# (--clang-tidy) agrees on a small file, where clang-tidy-14 is installed.
source "$(dirname "$0")/lib.sh"
limit=$(sed -n '/readability-function-size.LineThreshold/{n;s/[^0-9]//gp;q}' "$ROOT/.clang-tidy")
[[ $limit -gt 0 ]] && pass "the threshold ($limit lines) comes from .clang-tidy" || fail "no threshold in .clang-tidy"
# statements N: N short statement lines.
statements() { for ((i = 0; i < $1; ++i)); do echo "  x = x * 3 + $i;"; done; }
long=$((limit + 10))
# A function whose body spans limit + 12 lines ('{' to '}'), and one of 10.
write_function() {
  {
    echo "int $2(int x) {"
    statements "$3"
    echo "  return x;"
    echo "}"
  } >"$1"
}
write_function "$SCRATCH/long_one.cpp" too_long_function "$long"
write_function "$SCRATCH/short_one.cpp" short_function 10
check() { "$ROOT/scripts/function-size.sh" "$@"; }
expect_rc 1 "a function over $limit lines fails the check" -- check "$SCRATCH/long_one.cpp" "$SCRATCH/short_one.cpp"
expect_text "function 'too_long_function' exceeds" "the failure names the long function"
expect_text "$((long + 2)) lines including whitespace and comments (threshold $limit)" \
  "the length is the closing brace's line minus the opening brace's"
[[ "$ERR" != *short_function* ]] && pass "the short function is not named" || fail "short function named: $ERR"
expect_rc 0 "functions of 10 lines pass" -- check "$SCRATCH/short_one.cpp"

# A lambda at namespace scope (clang-tidy-14 counts none), a constructor whose body alone is
# short but whose init list makes it long (the body is what counts), one whose body is long,
# and a header's member function inside a namespace and a class.
{
  echo "#include <functional>"
  echo "std::function<int(int)> long_lambda = [](int x) {"
  statements "$long"
  echo "  return x;"
  echo "};"
  echo "struct widget {"
  echo "  int m_a; int m_b; int m_c;"
  echo "  widget(int x)"
  echo "      : m_a(x),"
  statements "$limit" | sed 's/.*/      \/\/ &/'
  echo "        m_b{x}, m_c{} {"
  echo "    m_c = x;"
  echo "  }"
  echo "  explicit widget(long x) noexcept : m_a(1), m_b{2}, m_c(int(x)) {"
  statements "$long"
  echo "  }"
  echo "};"
} >"$SCRATCH/kinds.cpp"
{
  echo "#pragma once"
  echo "namespace outer::inner {"
  echo "class holder {"
  echo "public:"
  echo "  int header_member(int x) const {"
  statements "$long"
  echo "    return x;"
  echo "  }"
  echo "};"
  echo "} // namespace outer::inner"
} >"$SCRATCH/kinds.hpp"
expect_rc 1 "long bodies of every kind fail" -- check "$SCRATCH/kinds.cpp" "$SCRATCH/kinds.hpp"
expect_text "kinds.cpp:2:39: error: function 'lambda' exceeds" "a long lambda is named where it starts"
expect_text "kinds.cpp:$((2 * limit + 22)):12: error: function 'widget' exceeds" \
  "the constructor with the long body is named"
[[ $(grep -c "function 'widget'" <<<"$ERR") -eq 1 ]] && pass "the constructor with a long init list and a short body passes" ||
  fail "widget reported other than once: $ERR"
expect_text "function 'header_member' exceeds" "a long member function in a header is named"
[[ "$ERR" != *"'holder'"* && "$ERR" != *"'outer"* && "$ERR" != *"'widget' exceeds"*$'\n'*"'widget' exceeds"* ]] &&
  pass "class and namespace braces are not functions" || fail "a class or namespace was named: $ERR"

# Braces the check must not count: in strings, characters, raw strings, comments and directives.
# A 20-line function with stray closing braces after its start would end early and hide the
# long function after it, or leave the braces unbalanced (exit 2).
{
  echo '#define OPEN {'
  echo 'const char* raw = R"x(} } )" {)x";'
  echo 'int tricky(int x) {'
  echo '  const char* s = "}\"}"; char c = '"'}'"'; // }'
  echo '  /* } { */ x += 1'"'"'000;'
  echo '  const char* r = R"(}})";'
  statements 16
  echo '  return x + s[0] + c + r[0];'
  echo '}'
  echo 'int after_tricky(int x) {'
  echo '#if 0'
  echo '  }'
  echo '#endif'
  statements "$long"
  echo '  return x;'
  echo '}'
} >"$SCRATCH/tricky.cpp"
expect_rc 1 "braces in literals, comments and directives do not end a function" -- check "$SCRATCH/tricky.cpp"
expect_text "function 'after_tricky' exceeds" "the long function after them is found"
expect_text "$((long + 5)) lines including" "and measured from its own braces"
[[ "$ERR" != *"'tricky'"* ]] && pass "the short function with stray braces passes" || fail "tricky named: $ERR"

if command -v "${CLANG_TIDY:-clang-tidy-14}" >/dev/null; then
  dir=$(cd "$SCRATCH" && pwd)
  printf '[%s]\n' "{\"directory\": \"$dir\", \"file\": \"$dir/long_one.cpp\", \"command\": \"c++ -std=c++20 -c long_one.cpp\"}" \
    >"$dir/compile_commands.json"
  expect_rc 1 "the clang-tidy cross-check fails on the same function" -- \
    check --clang-tidy "$dir" "$dir/long_one.cpp"
  expect_text "$((long + 2)) lines including whitespace and comments (threshold $limit)" \
    "clang-tidy counts the same length"
else
  echo "skip: clang-tidy-14 is not installed (scripts/deps.sh --test installs it): no cross-check"
fi
finish
