#!/usr/bin/env bash
# labels: integration
# bench --index checks each file at open (size, mtime) against the index: a file touched or
# removed after the run began stops it, naming the file, or with --on-change skip is left out,
# counted and named; never a crash. The run is slowed with --max-read-rate so that the change
# lands while it reads; storage-only and training runs, io_uring and psync, per-sample opens.
source "$(dirname "$0")/lib.sh"
D=$SCRATCH/d
I=$SCRATCH/i.json
files=30
# A fresh folder of $files files of 20,000 bytes and its index.
fresh() {
  rm -rf "$D" "$I"
  mkdir -p "$D/sub"
  for k in $(seq 1 $files); do head -c 20000 /dev/urandom >"$D/sub/f$k.bin"; done
  "$DLSIZE" index "$D" --out "$I" --quiet >/dev/null 2>&1 || fail "index of the folder"
}
# during WHAT -- command...: runs it with the change WHAT (touch, rm) made 1 s after it
# started; RC is its exit code.
during() {
  local what=$1
  shift 2
  "$@" >"$SCRATCH/stdout" 2>"$SCRATCH/stderr" &
  local pid=$!
  sleep 1
  case $what in
    touch) touch -d @1000000000 "$D"/sub/*.bin ;;
    rm) rm -f "$D"/sub/*.bin ;;
  esac
  wait $pid
  RC=$?
  ERR=$(cat "$SCRATCH/stderr")
}
storage=(bench --index "$I" --workload resnet50 --accelerator none --open per-sample --queue-depth 2 --max-read-rate 200KB/s --quiet)
training=(bench --index "$I" --workload resnet50 --accelerator emulated:h100 --accelerators 1 --batch-size 1 \
  --compute-time 1ms --open per-sample --queue-depth 2 --max-read-rate 200KB/s --quiet)

fresh
during touch -- "$DLSIZE" "${storage[@]}" --out "$SCRATCH/s1.json"
[[ $RC -eq 1 && $ERR == *"dataset changed while it was read"*"f"*".bin"* ]] \
  && pass "a file touched mid-run stops the storage-only run, named (exit $RC)" || fail "touched mid-run: exit $RC; $ERR"
[[ $(json "$SCRATCH/s1.json" '"%s %s" % (r["status"], "changed while it was read" in r["reason"])') == "incomplete True" ]] \
  && pass "the report is incomplete and says why" || fail "report of the stopped run: $(head -c 300 "$SCRATCH/s1.json")"

fresh
during touch -- "$DLSIZE" "${storage[@]}" --on-change skip --out "$SCRATCH/s2.json"
[[ $RC -eq 0 && $(json "$SCRATCH/s2.json" '"%s %s" % (r["status"],
  (c := r["dataset"]["index"]["changed"])["count"] >= 1 and c["while_reading"] == c["count"] and len(c["files"]) == c["count"]
  and all("mtime at open" in f for f in c["files"]) and r["summary"]["samples"] + c["count"] == '$files')') == "complete True" ]] \
  && pass "--on-change skip: the touched files are skipped, counted and named" || fail "skip, touched: exit $RC; $ERR $(head -c 600 "$SCRATCH/s2.json")"

fresh
during rm -- "$DLSIZE" "${storage[@]}" --engine psync --on-change skip --out "$SCRATCH/s3.json"
[[ $RC -eq 0 && $(json "$SCRATCH/s3.json" '(c := r["dataset"]["index"]["changed"])["count"] >= 1 and all("gone at open" in f for f in c["files"])
  and r["summary"]["samples"] + c["count"] == '$files) == True ]] \
  && pass "psync, --on-change skip: files removed mid-run are counted as gone" || fail "skip, removed: exit $RC; $ERR $(head -c 600 "$SCRATCH/s3.json")"

fresh
during rm -- "$DLSIZE" "${storage[@]}" --engine psync --out "$SCRATCH/s4.json"
[[ $RC -eq 1 && $ERR == *"gone at open"* ]] && pass "psync: a file removed mid-run stops the run, named (exit $RC)" || fail "removed mid-run: exit $RC; $ERR"

fresh
during touch -- "$DLSIZE" "${training[@]}" --out "$SCRATCH/t1.json"
[[ $RC -eq 1 && $ERR == *"dataset changed while it was read"* ]] \
  && pass "a file touched mid-run stops the training run, named (exit $RC)" || fail "training, touched: exit $RC; $ERR"

fresh
during touch -- "$DLSIZE" "${training[@]}" --on-change skip --out "$SCRATCH/t2.json"
[[ $RC -eq 0 && $(json "$SCRATCH/t2.json" '"%s %s" % (r["status"], (c := r["dataset"]["index"]["changed"])["count"] >= 1 and c["while_reading"] == c["count"])') == "complete True" ]] \
  && pass "training, --on-change skip: the touched files are skipped and counted" || fail "training skip: exit $RC; $ERR $(head -c 600 "$SCRATCH/t2.json")"
finish
