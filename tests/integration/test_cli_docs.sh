#!/usr/bin/env bash
# Every option of every subcommand, as the CLI itself lists them (dlsize --help, then each
# subcommand's --help), has a description and is documented in README.md or docs/. The lists
# come from the binary, so a new option without documentation fails here.
source "$(dirname "$0")/lib.sh"
mapfile -t commands < <("$DLSIZE" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}')
[[ ${#commands[@]} -ge 10 ]] && pass "${#commands[@]} subcommands listed by --help" || fail "subcommands: ${commands[*]}"
undocumented=() bare=()
for c in "${commands[@]}"; do
  help=$("$DLSIZE" "$c" --help) || { fail "$c --help failed"; continue; }
  # CLI11 writes "  [-x,]--name[,--alias] [TYPE[=default]] [REQUIRED]", padded to column 30,
  # then the description; a longer name puts the description on the next line at column 30.
  prev=""
  while IFS= read -r line; do
    if [[ $line =~ ^\ +(-[a-zA-Z],)?--[a-z0-9] ]]; then
      [[ -n $prev ]] && bare+=("$c $prev")
      opt=$(grep -oE -- '--[a-z0-9][a-z0-9-]*' <<<"$line" | head -1)
      prev=""
      [[ $opt == --help ]] && continue
      grep -rqF -- "$opt" "$ROOT/README.md" "$ROOT"/docs/*.md || undocumented+=("$c $opt")
      [[ -n $(tr -d ' ' <<<"${line:30}") ]] || prev=$opt
    elif [[ -n $prev && $line =~ ^\ {30}[^\ ] ]]; then
      prev=""
    fi
  done <<<"$help"
  [[ -n $prev ]] && bare+=("$c $prev")
done
[[ ${#bare[@]} -eq 0 ]] && pass "every option has a description in --help" || fail "no description: ${bare[*]}"
[[ ${#undocumented[@]} -eq 0 ]] && pass "every option is documented in README.md or docs/" \
  || fail "not in README.md or docs/: ${undocumented[*]}"
finish
