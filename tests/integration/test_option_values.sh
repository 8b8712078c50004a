#!/usr/bin/env bash
# labels: faults
# Every option of every command, as the binary's own option table lists it (dlsize
# --option-table, so a new option is fed the day it is added), given -1, 0, 2^64, NaN, inf, ""
# and a value of the wrong type: each command exits 0 or 2, never 1 or a signal, and a number
# it refuses is refused naming the option. bench's options go through a run config too, where
# a JSON value of the wrong type (text for a number, a number for a path) is refused naming the
# key. The runs are kept short: tiny datasets, --time-limit, --dry-run, one step of calibrate.
source "$(dirname "$0")/lib.sh"

table=$("$DLSIZE" --option-table) || { fail "dlsize --option-table failed"; finish; }
rows=$(grep -c '^| ' <<<"$table")
[[ $rows -ge 150 ]] && pass "the option table lists $rows options" || fail "only $rows rows: $table"
# docs/options.md shows the same rows (regenerate them with dlsize --option-table).
if drift=$(diff <(grep '^| ' <<<"$table") <(grep '^| ' "$ROOT/docs/options.md" | grep -v '^| command |')); then
  pass "docs/options.md holds the table as the binary has it"
else
  fail "docs/options.md differs from dlsize --option-table: $(head -5 <<<"$drift")"
fi

# Fixtures: a tiny dataset, two reports, an index, a sweep config.
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --files 8 --records-per-file 4 --quiet >/dev/null || { fail "datagen"; finish; }
# One epoch of 8 steps ends a run in milliseconds; the time limit bounds a run whose --epochs is
# the option under test.
train=(--workload resnet50 --dataset "$ds" --accelerator emulated:h100 --batch-size 4 --compute-time 1ms --epochs 1
       --time-limit 2s --quiet)
"$DLSIZE" bench "${train[@]}" --out "$SCRATCH/r1.json" >/dev/null 2>&1 || { fail "first report"; finish; }
"$DLSIZE" bench "${train[@]}" --accelerators 2 --out "$SCRATCH/r2.json" >/dev/null 2>&1 || { fail "second report"; finish; }
"$DLSIZE" index "$ds" --out "$SCRATCH/ix" --quiet >/dev/null 2>&1 || { fail "index"; finish; }
cat >"$SCRATCH/sweep.json" <<EOF
{"bench": {"workload": "resnet50", "dataset": "$ds", "accelerator": "emulated:h100",
           "batch-size": 4, "compute-time": "1ms", "epochs": 1, "time-limit": "2s"},
 "accelerators": [1, 2], "repeats": 1}
EOF
mkdir -p "$SCRATCH/cwd"
n=0

# base COMMAND: the arguments of a short run of it, into the array base (a fresh output each).
base() {
  n=$((n + 1))
  case $1 in
  datagen) base=(datagen --workload resnet50 --dataset "$SCRATCH/dg$n" --files 2 --quiet) ;;
  verify) base=(verify "$ds" --quiet) ;;
  bench) base=(bench "${train[@]}" --out "$SCRATCH/b$n.json") ;;
  checkpoint) base=(checkpoint --workload unet3d --scale 0.01 --dir "$SCRATCH/ck$n" --writes 1 --reads 1
                    --time-limit 20s --quiet --out "$SCRATCH/c$n.json") ;;
  plan) base=(plan --workload resnet50 --accelerator h100) ;;
  compare) base=(compare "$SCRATCH/r1.json" "$SCRATCH/r2.json") ;;
  calibrate) base=(calibrate --workload resnet50 --accelerator cuda --steps 1 --warmup 0 --out "$SCRATCH/cal$n.json") ;;
  sweep) base=(sweep --config "$SCRATCH/sweep.json" --out "$SCRATCH/sw$n" --dry-run) ;;
  size) base=(size "$SCRATCH/r1.json" "$SCRATCH/r2.json" --out "$SCRATCH/sz$n") ;;
  validate) base=(validate "$SCRATCH/r1.json" --quiet) ;;
  export) base=(export "$SCRATCH/r1.json" --csv "$SCRATCH/x$n.csv") ;;
  index) base=(index "$ds" --out "$SCRATCH/ix$n" --quiet) ;;
  "index stats") base=(index stats "$SCRATCH/ix") ;;
  dlsize) base=() ;;
  *) base=("$1") ;;
  esac
  # The option under test is given once, by the caller: drop it (and its value) from the base.
  local keep=() i
  for ((i = 0; i < ${#base[@]}; i++)); do
    if [[ -n ${2:-} && ${base[i]} == "$2" ]]; then
      [[ $2 == --quiet || $2 == --dry-run ]] || i=$((i + 1))
      continue
    fi
    keep+=("${base[i]}")
  done
  base=("${keep[@]}")
}

# run DESCRIPTION -- ARGS...: dlsize ARGS in the scratch folder, bounded; sets rc and err.
run() {
  local what=$1
  shift 2
  err=$(cd "$SCRATCH/cwd" && timeout -k 5 60 "$DLSIZE" "$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne 0 && $rc -ne 2 ]]; then
    fail "$what: exit $rc; ${err: -300}"
    return 1
  fi
  if [[ $err =~ at\ [^\ ]*\.cpp:[0-9]+$ ]]; then
    fail "$what: the message ends with a source location: ${err: -200}"
    return 1
  fi
  return 0
}

trim() { sed -e 's/^ *//' -e 's/ *$//' <<<"$1"; }
checked=0 bad=0
numeric='^(an integer|a number|a fraction|a size|a duration|a rate)'
while IFS='|' read -r _ cmd opt valid _; do
  cmd=$(trim "$cmd") opt=$(tr -d '` ' <<<"$opt") valid=$(trim "$valid")
  [[ $opt == --help || $opt == --version ]] && continue
  # As root it would drop the host's page cache under everyone else's runs; its refusal without
  # root is test_checkpoint's.
  [[ $cmd == checkpoint && $opt == --drop-caches ]] && continue
  for v in -1 0 18446744073709551616 NaN inf "" many; do
    base "$cmd" "$opt"
    if [[ $opt == --* ]]; then args=("${base[@]}" "$opt=$v"); else args=("${base[@]}" "$v"); fi
    checked=$((checked + 1))
    run "$cmd $opt '$v'" -- "${args[@]}" || { bad=$((bad + 1)); continue; }
    # A number out of every range, or no number at all, is refused naming the option.
    if [[ $valid =~ $numeric && $v != 0 && $v != "" ]] && [[ $rc -ne 2 || $err != *"$opt"* ]]; then
      fail "$cmd $opt '$v': exit $rc, wanted 2 naming $opt; ${err: -200}"
      bad=$((bad + 1))
    fi
  done
done < <(grep '^| ' <<<"$table")
[[ $bad -eq 0 ]] && pass "$checked command lines: exit 0 or 2, refusals name the option" || fail "$bad of $checked command lines"

# bench's options as run-config keys: the same values as JSON, and a value of the wrong type.
checked=0 bad=0
given=" workload dataset accelerator batch-size compute-time epochs time-limit quiet out config replay "
while IFS='|' read -r _ cmd opt valid _; do
  cmd=$(trim "$cmd") opt=$(tr -d '` ' <<<"$opt") valid=$(trim "$valid")
  key=${opt#--}
  [[ $cmd == bench && $given != *" $key "* ]] || continue
  case $valid in
  "true or false") wrong='"yes"' ;;
  text* | "a path"*) wrong=12345 ;;
  "an integer"* | "a number"*) wrong='"16"' ;;
  *) wrong=true ;; # sizes, durations, rates, fractions: text with a unit, or a number
  esac
  # 0, "inf" and "" take the command line's path once the JSON type is checked; left out here to
  # keep the test short (they are given on the command line above).
  for v in -1 18446744073709551616 '"NaN"' "$wrong"; do
    echo "{\"$key\": $v}" >"$SCRATCH/cfg.json"
    base bench
    checked=$((checked + 1))
    run "config {\"$key\": $v}" -- "${base[@]}" --config "$SCRATCH/cfg.json" || { bad=$((bad + 1)); continue; }
    if [[ $v == "$wrong" || $valid =~ $numeric ]] && [[ $rc -ne 2 || $err != *"cfg.json: $key:"* ]]; then
      fail "config {\"$key\": $v}: exit $rc, wanted 2 naming the key; ${err: -200}"
      bad=$((bad + 1))
    fi
  done
done < <(grep '^| ' <<<"$table")
[[ $bad -eq 0 ]] && pass "$checked run configs: exit 0 or 2, refusals name the key" || fail "$bad of $checked run configs"

# The cases the issue found, with their messages.
base bench
expect_rc 2 "config queue-depth as text" -- "$DLSIZE" "${base[@]}" --config <(echo '{"queue-depth": "16"}')
expect_text 'queue-depth: "16" is text. valid: an integer from 1 to 4096' "names the key and the type"
base bench --out
expect_rc 2 "config out as a number" -- "$DLSIZE" "${base[@]}" --config <(echo '{"out": 12345}')
expect_text "out: 12345 is a number. valid: a path" "names the key and the type"
[[ ! -e $SCRATCH/cwd/12345 && ! -e 12345 ]] && pass "no file named 12345" || fail "a file named 12345 was written"
base bench
expect_rc 2 "--accelerators -1" -- "$DLSIZE" "${base[@]}" --accelerators=-1
expect_text "--accelerators: '-1' is not valid" "names --accelerators, not --accelerators-per-rank"
base checkpoint --keep-last
expect_rc 2 "checkpoint --keep-last -1" -- "$DLSIZE" "${base[@]}" --keep-last=-1
expect_text "--keep-last: '-1' is not valid" "names --keep-last"
base checkpoint --time-limit
expect_rc 2 "checkpoint --time-limit 0s, as bench" -- "$DLSIZE" "${base[@]}" --time-limit 0s
expect_text "--time-limit: '0s' would stop the run before it starts" "says why"
expect_rc 2 "plan --epochs NaN" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --epochs NaN
expect_text "--epochs: 'NaN' is not valid" "names --epochs"
base size
expect_rc 2 "size --target-accelerators inf" -- "$DLSIZE" "${base[@]}" --target-accelerators 64,inf
expect_text "--target-accelerators: 'inf' is not valid" "names --target-accelerators"
base bench
expect_rc 2 "--prefetch 2^64 - 1" -- "$DLSIZE" "${base[@]}" --prefetch 18446744073709551615
expect_text "--prefetch: 18446744073709551615 is out of range. valid: an integer from 1 to 1024" "names the range"
base datagen
expect_rc 2 "datagen --threads 100000" -- "$DLSIZE" "${base[@]}" --threads 100000
expect_text "--threads: 100000 is out of range" "names --threads"
[[ $ERR != *--readers* ]] && pass "does not name --readers" || fail "names --readers: $ERR"
base bench --out
long=$(printf 'r%.0s' {1..300})
expect_rc 2 "a 300-character --out name" -- "$DLSIZE" "${base[@]}" --out "$SCRATCH/$long.json"
expect_text "--out: the name" "names --out"
finish
