#!/usr/bin/env bash
# Ranks that die, freeze or stall, with MPICH on this host (docs/reliability.md, "MPI"): the rank
# that stopped answering is the one named (not a neighbour), with what its process is doing;
# the live ranks' results stay in an incomplete report; a hung read on one rank ends the job
# within --stall-timeout + 2 s; a rank frozen for less than --rank-timeout but longer than
# --stall-timeout leaves a complete report with a warning.
#
# The other ranks live on after one dies only with -disable-auto-cleanup and a wrapper per rank
# (a shell that stays the parent: not `exec`) that ignores SIGUSR1 and exits normally: MPICH's hydra kills every rank when one of its
# children dies by a signal, and tells the others of a death by SIGUSR1 to their process group.
# labels: integration mpi faults serial
source "$(dirname "$0")/lib.sh"
require_mpi
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --files 16 --records-per-file 64 --dataset "$ds" --quiet >/dev/null \
  || { echo "datagen failed"; exit 1; }
cat "$ds"/data/*/*.rec >/dev/null
train=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --batch-size 16 --compute-time 20ms
       --cache buffered --quiet)
# seconds since $1 (from date +%s.%N)
since() { python3 -c "import sys,time; print(round(time.time() - float(sys.argv[1]), 1))" "$1"; }
# fault_job NAME AFTER ACTION OPTION...: 4 ranks writing $SCRATCH/NAME.json, rank ${VICTIM:-2} given ACTION
# (kill: SIGKILL; freeze: SIGSTOP until the job ends; pause:S: SIGSTOP for S seconds) AFTER
# seconds in; waits for the job. Sets RC and TOOK (seconds from the action to the job's end).
fault_job() {
  local name=$1 after=$2 action=$3
  shift 3
  timeout -k 5 60 "$MPIEXEC" -disable-auto-cleanup -np 4 bash -c 'trap "" USR1; "$@"; exit $?' rank \
    "$DLSIZE" "${train[@]}" "$@" --out "$SCRATCH/$name.json" >"$SCRATCH/$name.out" 2>&1 &
  local job=$! victim t0
  sleep "$after"
  victim=$(rank_pid "$name.json" "${VICTIM:-2}") || { fail "$name: no process of rank ${VICTIM:-2}"; kill -KILL $job; wait $job; return; }
  t0=$(date +%s.%N)
  case $action in
    kill) kill -KILL "$victim" ;;
    freeze) kill -STOP "$victim" ;;
    pause:*) kill -STOP "$victim"; sleep "${action#pause:}"; kill -CONT "$victim" ;;
  esac
  wait $job
  RC=$?
  TOOK=$(since "$t0")
  kill -KILL "$victim" 2>/dev/null
}
# The live ranks' rows carry what they measured; rank 2's is missing.
live_ranks_kept='[x["status"] for x in r["ranks"]][2] == "missing" and all(x["samples"] > 0 for x in r["ranks"] if x["rank"] != 2)'

# A rank killed: rank 2 is named as gone, ranks 0, 1 and 3 are in the report.
fault_job killed 3 kill --epochs 200 --rank-timeout 3s
[[ $RC -eq 1 && ${TOOK%.*} -lt 20 ]] && pass "killed rank: the job exits 1 in $TOOK s" || fail "killed rank: exit $RC in $TOOK s: $(cat "$SCRATCH/killed.out")"
[[ $(json "$SCRATCH/killed.json" "r['status'] == 'incomplete' and r['reason'].startswith('rank 2 (host ') and 'is gone' in r['reason'] and $live_ranks_kept") == True ]] \
  && pass "killed rank: rank 2 named as gone, the live ranks' results kept" \
  || fail "killed rank: $(json "$SCRATCH/killed.json" "(r['reason'], r['ranks'])" 2>&1) $(cat "$SCRATCH/killed.out")"

# Rank 0 itself killed (it writes the report): rank 1 writes one in its stead, with its own
# results, naming rank 0 and every rank whose results went with it.
VICTIM=0 fault_job root 3 kill --epochs 200 --rank-timeout 3s
[[ $RC -eq 1 && ${TOOK%.*} -lt 20 ]] && pass "killed rank 0: the job exits 1 in $TOOK s" || fail "killed rank 0: exit $RC in $TOOK s: $(cat "$SCRATCH/root.out")"
[[ $(json "$SCRATCH/root.json" "r['status'] == 'incomplete' and r['reason'].startswith('rank 0 (host ') and 'is gone' in r['reason'] and \"rank 1 (host \" in r['reason'] and [x['status'] for x in r['ranks']] == ['missing', 'stopped', 'missing', 'missing'] and r['ranks'][1]['samples'] > 0") == True ]] \
  && pass "killed rank 0: rank 1's report names rank 0 as gone and keeps rank 1's results" \
  || fail "killed rank 0: $(json "$SCRATCH/root.json" "(r['reason'], [(x['rank'], x['status']) for x in r['ranks']])" 2>&1) $(cat "$SCRATCH/root.out")"

# A rank frozen past --rank-timeout: named as stopped, the others' results kept.
fault_job frozen 3 freeze --epochs 200 --rank-timeout 3s
[[ $RC -eq 1 && ${TOOK%.*} -lt 20 ]] && pass "frozen rank: the job exits 1 in $TOOK s" || fail "frozen rank: exit $RC in $TOOK s: $(cat "$SCRATCH/frozen.out")"
[[ $(json "$SCRATCH/frozen.json" "r['status'] == 'incomplete' and r['reason'].startswith('rank 2 (host ') and 'is stopped' in r['reason'] and $live_ranks_kept") == True ]] \
  && pass "frozen rank: rank 2 named as stopped, the live ranks' results kept" \
  || fail "frozen rank: $(json "$SCRATCH/frozen.json" "(r['reason'], r['ranks'])" 2>&1) $(cat "$SCRATCH/frozen.out")"

# A rank paused for longer than --stall-timeout but less than --rank-timeout: neither a stall
# nor a lost rank; the run completes (at its time limit) and the report says rank 2 paused.
fault_job paused 3 pause:3.5 --epochs 1000 --time-limit 7s --stall-timeout 2s --rank-timeout 10s
[[ $RC -eq 0 ]] && pass "paused rank: the job exits 0" || fail "paused rank: exit $RC: $(cat "$SCRATCH/paused.out")"
[[ $(json "$SCRATCH/paused.json" "r['status'] == 'complete' and any(w.startswith('rank 2 (host ') and 'did not run for 3.' in w and '--stall-timeout 2 s' in w for w in r['warnings'])") == True ]] \
  && pass "paused rank: complete, with a warning naming rank 2 and its pause" \
  || fail "paused rank: $(json "$SCRATCH/paused.json" "(r['status'], r.get('reason'), r['warnings'])" 2>&1)"

# A hung read on one rank (the fault file system's hang rule on one file: the rank that reads it
# first hangs, the others wait for it in the next step's sync).
FAULT_FS=${DLSIZE_FAULT_FS:-}
mnt=$SCRATCH/mnt
if [[ -z $FAULT_FS || ! -x $FAULT_FS || ! -e /dev/fuse ]]; then
  skip_part "the hung read: the fault file system is not built or /dev/fuse is missing"
else
  mkdir -p "$mnt"
  "$FAULT_FS" "$ds" "$mnt" "hang:file-00000002:0" 2>"$SCRATCH/fs.err" &
  fs=$!
  for _ in $(seq 50); do [[ -f $mnt/dlsize-dataset.json ]] && break; sleep 0.1; done
  if [[ ! -f $mnt/dlsize-dataset.json ]]; then
    skip_part "the hung read: the fault file system did not mount: $(cat "$SCRATCH/fs.err")"
  else
    conn=$(python3 -c "import os,sys; print(os.minor(os.stat(sys.argv[1]).st_dev))" "$mnt")
    out=$SCRATCH/hung.json
    timeout -k 5 60 "$MPIEXEC" -np 4 "$DLSIZE" "${train[@]/$ds/$mnt}" --epochs 200 --stall-timeout 3s \
      --out "$out" >"$SCRATCH/hung.out" 2>&1 &
    job=$!
    # A thread in D state holds its process until the mount is released: wait for the report.
    for _ in $(seq 600); do [[ -f $out ]] && break; kill -0 $job 2>/dev/null || break; sleep 0.05; done
    sleep 0.5
    [[ -e /sys/fs/fuse/connections/$conn/abort ]] && echo 1 >"/sys/fs/fuse/connections/$conn/abort"
    kill -KILL $fs 2>/dev/null; wait $fs 2>/dev/null
    fusermount3 -u -z "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
    wait $job
    rc=$?
    [[ $rc -eq 1 ]] && pass "hung read: the job exits 1" || fail "hung read: exit $rc: $(cat "$SCRATCH/hung.out")"
    # The run's own clock, from the common start (the hang begins in the first epoch, so after).
    [[ $(json "$out" "r['status'] == 'incomplete' and 'stalled' in r['reason'] and 'file-00000002' in r['reason'] and r['reason'].startswith('rank ')") == True ]] \
      && pass "hung read: the stalled rank and the file are named" || fail "hung read: $(json "$out" "r.get('reason')" 2>&1)"
    [[ $(json "$out" "r['summary']['wall_s'] < 3 + 2") == True ]] \
      && pass "hung read: the job ended within --stall-timeout + 2 s ($(json "$out" "round(r['summary']['wall_s'], 1)") s)" \
      || fail "hung read: the run lasted $(json "$out" "r['summary']['wall_s']") s"
  fi
fi
finish
