#!/usr/bin/env bash
# Scale-out over MPI on this host (mpiexec -np 2 and 4, oversubscribed): parallel datagen with one
# manifest; the report's topology, per-rank and per-host rows, totals equal to the sums over
# ranks; each accelerator reads the same samples whether 4 sit in one rank or in 4; and the
# failures: a bad path on one rank, options that differ, a killed rank, an interrupt (a rank
# that stops answering is test_mpi_faults.sh's). Each ends every rank, with a message and exit
# code, in bounded time.
# labels: integration mpi faults
source "$(dirname "$0")/lib.sh"
require_mpi
mpi() { local n=$1; shift; timeout -k 5 120 "$MPIEXEC" -np "$n" "$@"; }
# seconds since $1 (from date +%s.%N), and a check that it is below $2
elapsed_below() { "$PY" -c "import sys,time; sys.exit(0 if time.time() - float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$1" "$2"; }

# Parallel datagen: every rank writes its share, one manifest, a complete and valid dataset.
ds=$SCRATCH/r50
expect_rc 0 "datagen by 2 ranks" -- mpi 2 "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 160MiB --quiet
expect_text "by 2 ranks" "datagen says it ran as 2 ranks"
[[ -f $ds/dlsize-dataset.json && ! -e $ds/.dlsize-datagen.json ]] && pass "one manifest, no state file left" || fail "manifest or state file"
expect_rc 0 "the dataset verifies" -- "$DLSIZE" verify "$ds"
expect_rc 0 "datagen by 4 ranks on the complete dataset does nothing" -- mpi 4 "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 160MiB --quiet
expect_text "already complete" "says it is complete"

train=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --batch-size 16 --compute-time 20ms
       --cache buffered --epochs 2 --seed 11 --quiet)
cat "$ds"/data/*/*.rec >/dev/null
expect_rc 0 "4 accelerators in one process" -- "$DLSIZE" "${train[@]}" --accelerators 4 --out "$SCRATCH/one.json"
expect_rc 0 "4 ranks of 1 accelerator" -- mpi 4 "$DLSIZE" "${train[@]}" --out "$SCRATCH/four.json"
expect_rc 0 "2 ranks of 2 accelerators with --sync-steps" -- mpi 2 "$DLSIZE" "${train[@]}" --accelerators-per-rank 2 --sync-steps --out "$SCRATCH/two.json"
for f in one four two; do
  check=$(json "$SCRATCH/$f.json" "all([r['status'] == 'complete', r['topology']['accelerators'] == 4,
    len(r['accelerators']) == 4, sorted(a['id'] for a in r['accelerators']) == [0, 1, 2, 3],
    sum(x['samples'] for x in r['ranks']) == r['summary']['samples'] == sum(a['samples'] for a in r['accelerators']),
    sum(x['read_bytes'] for x in r['ranks']) == r['summary']['read_bytes'] == r['io']['read_bytes'],
    r['summary']['steps'] == 2 * r['summary']['steps_per_epoch'],
    sum(h['accelerators'] for h in r['hosts']) == 4, len(r['system']['hosts']) == len(r['hosts']) == 1,
    r['io']['histogram']['buckets'] and sum(b[2] for b in r['io']['histogram']['buckets']) == r['io']['requests']])")
  [[ $check == True ]] && pass "$f: totals are the sums over ranks and accelerators" || fail "$f: totals: $(json "$SCRATCH/$f.json" "r['ranks']")"
done
[[ $(json "$SCRATCH/four.json" "(r['topology']['ranks'], r['topology']['nodes'], r['topology']['ranks_per_node'], r['topology']['accelerators_per_rank'], r['topology']['accelerators_per_node'], [a['rank'] for a in r['accelerators']], len(r['ranks']))") == "(4, 1, 4, 1, 4, [0, 1, 2, 3], 4)" ]] \
  && pass "4 ranks: topology and per-rank rows" || fail "4 ranks: topology $(json "$SCRATCH/four.json" "r['topology']")"
[[ $(json "$SCRATCH/two.json" "(r['topology']['ranks'], r['topology']['accelerators_per_rank'], [a['rank'] for a in r['accelerators']], r['topology']['sync_steps'], r['hosts'][0]['ranks'])") == "(2, 2, [0, 0, 1, 1], True, [0, 1])" ]] \
  && pass "2 ranks: topology and host row" || fail "2 ranks: topology $(json "$SCRATCH/two.json" "r['topology']")"
digests() { json "$1" "[a['sample_digest'] for a in sorted(r['accelerators'], key=lambda a: a['id'])]"; }
one=$(digests "$SCRATCH/one.json")
[[ $one == "$(digests "$SCRATCH/four.json")" && $one == "$(digests "$SCRATCH/two.json")" && $one == *0* ]] \
  && pass "each accelerator reads the same samples in 1, 2 or 4 ranks" || fail "sample digests differ: $(digests "$SCRATCH/one.json") $(digests "$SCRATCH/four.json")"
# The job's AU merges the ranks' accelerators (a mean, not a sum: at most 1; not a rank's share:
# well over 1/4). Not a speed check: 4 ranks share 2 loaded cores, so the bound is loose.
[[ $(json "$SCRATCH/four.json" "0.6 <= r['summary']['accelerator_utilization'] <= 1") == True ]] && pass "page-cached AU over ranks" \
  || fail "AU over ranks $(json "$SCRATCH/four.json" "r['summary']['accelerator_utilization']")"

# Reading only, over ranks: --accelerator none is one process, and says what runs over ranks
# instead; accelerators of compute time 0 run every step of each epoch, over both ranks.
expect_rc 2 "--accelerator none under 2 ranks is refused" -- mpi 2 "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --quiet
expect_text "--compute-time 0" "the refusal names the way to read over ranks"
expect_rc 0 "2 ranks of accelerators with compute time 0" -- mpi 2 "$DLSIZE" "${train[@]}" --compute-time 0 --accelerators-per-rank 2 --out "$SCRATCH/zero.json"
check=$(json "$SCRATCH/zero.json" "all([r['status'] == 'complete', r['topology']['ranks'] == 2,
  r['summary']['samples'] == 2 * 4 * 16 * r['summary']['steps_per_epoch'] == sum(x['samples'] for x in r['ranks']),
  r['summary']['accelerator_utilization'] == 0, any('compute time 0' in w for w in r['warnings'])])")
[[ $check == True ]] && pass "compute time 0 over ranks: every step of both ranks read, AU 0 with a warning" \
  || fail "compute time 0: $(json "$SCRATCH/zero.json" "(r['summary'], r['warnings'])")"

# A sweep whose points run through the launcher, without a shell: each point a job of its own.
cat >"$SCRATCH/sweep.json" <<EOF
{"bench": {"workload": "resnet50", "dataset": "$ds", "accelerator": "emulated:h100", "batch-size": 16,
           "compute-time": "20ms", "epochs": 1, "cache": "buffered"},
 "accelerators": [2, 4], "repeats": 1, "launcher": ["$MPIEXEC", "-np", "{ranks}"], "accelerators-per-rank": 1}
EOF
expect_rc 0 "a sweep through mpiexec" -- "$DLSIZE" sweep --config "$SCRATCH/sweep.json" --out "$SCRATCH/sweep"
ranks_run=$("$PY" -c "import glob, json, sys; print(sorted((json.load(open(f))['topology']['ranks'], json.load(open(f))['status']) for f in glob.glob(sys.argv[1] + '/*.json')))" "$SCRATCH/sweep/reports")
[[ $ranks_run == "[(2, 'complete'), (4, 'complete')]" ]] && pass "sweep points ran as jobs of 2 and 4 ranks" || fail "sweep reports: $ranks_run"
grep -q "^report: " "$SCRATCH"/sweep/logs/*.log && pass "a point's log keeps its output" || fail "point logs: $(cat "$SCRATCH"/sweep/logs/*.log)"

# A bad path on one rank only: the same options, but rank 1 runs where 'ds' does not exist.
mkdir -p "$SCRATCH/wa" "$SCRATCH/wb"
ln -s "$ds" "$SCRATCH/wa/ds"
rel=(bench --workload resnet50 --dataset ds --accelerator emulated:h100 --batch-size 16 --compute-time 20ms --quiet)
t0=$(date +%s.%N)
expect_rc 2 "a bad path on one rank" -- timeout -k 5 60 "$MPIEXEC" -np 1 -wdir "$SCRATCH/wa" "$DLSIZE" "${rel[@]}" --out "$SCRATCH/bad.json" : -np 1 -wdir "$SCRATCH/wb" "$DLSIZE" "${rel[@]}" --out "$SCRATCH/bad.json"
expect_text "rank 1 (host " "message names the rank and host"
expect_text "'ds' is not a dlsize dataset" "message says what is wrong"
elapsed_below "$t0" 20 && pass "ended within 20 s" || fail "slow to end"
[[ ! -e $SCRATCH/bad.json ]] && pass "no report for a run that never started" || fail "report written"
[[ $(grep -c "dlsize: error" <<<"$ERR") -eq 1 ]] && pass "the error is printed once" || fail "error printed $(grep -c "dlsize: error" <<<"$ERR") times"

# Options that differ across ranks are found at start.
expect_rc 2 "options that differ across ranks" -- timeout -k 5 60 "$MPIEXEC" -np 1 "$DLSIZE" "${train[@]}" : -np 1 "$DLSIZE" "${train[@]}" --epochs 3
expect_text "rank 1 (host" "message names the rank"
expect_text "options.epochs 3, rank 0 has 2" "message names the option and both values"

# datagen given other options on one rank, or another command: refused before anything is
# written. A folder one rank does not share (a stale state file of its own) is found before
# any rank writes, and nothing is sealed.
expect_rc 2 "datagen with another seed on one rank" -- timeout -k 5 60 "$MPIEXEC" -np 1 "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/dg" --size 8MiB --quiet : -np 1 "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/dg" --size 8MiB --seed 2 --quiet
expect_text "options.seed 2, rank 0 has 0" "message names the option and both values"
[[ ! -e $SCRATCH/dg ]] && pass "nothing written" || fail "datagen wrote $(ls "$SCRATCH/dg")"
expect_rc 2 "bench on one rank, datagen on the other" -- timeout -k 5 60 "$MPIEXEC" -np 1 "$DLSIZE" "${train[@]}" : -np 1 "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/dg" --size 8MiB --quiet
expect_text "command" "message says the commands differ"
mkdir -p "$SCRATCH/wa/dg" "$SCRATCH/wb/dg"
echo '{"generation": "an earlier one"}' >"$SCRATCH/wb/dg/.dlsize-datagen.json"
gen=(datagen --workload resnet50 --dataset dg --size 8MiB --quiet)
expect_rc 2 "datagen where one rank has a folder of its own" -- timeout -k 5 60 "$MPIEXEC" -np 1 -wdir "$SCRATCH/wa" "$DLSIZE" "${gen[@]}" : -np 1 -wdir "$SCRATCH/wb" "$DLSIZE" "${gen[@]}"
expect_text "rank 1 (host" "message names the rank"
expect_text "storage every rank shares" "message says why"
[[ ! -e $SCRATCH/wa/dg/dlsize-dataset.json && -z $(find "$SCRATCH/wa/dg" -name "*.rec") ]] && pass "nothing sealed, no file written" || fail "datagen wrote into the unshared folder"

# A command that runs in one process refuses to run as a job.
expect_rc 2 "plan as a job of 2 ranks" -- mpi 2 "$DLSIZE" plan --workload resnet50 --accelerator h100
expect_text "runs in one process" "message says why"

# signal_last_rank SIGNAL NAME: runs a long job of 3 ranks writing $SCRATCH/NAME.json, sends
# SIGNAL to its last rank (rank 2) after 3 s, and waits for the job; sets rc, and t0 (when it
# was sent).
long=("${train[@]}" --epochs 200 --rank-timeout 3s)
signal_last_rank() {
  mpi 3 "$DLSIZE" "${long[@]}" --out "$SCRATCH/$2.json" >"$SCRATCH/$2.out" 2>&1 &
  local job=$!
  sleep 3
  local victim
  victim=$(rank_pid "$2.json" 2) || { fail "$2: no process of rank 2 found"; kill -KILL $job; wait $job; return; }
  t0=$(date +%s.%N)
  kill "-$1" "$victim"
  wait $job
  rc=$?
  kill -KILL "$victim" 2>/dev/null
}

# A rank killed mid-run: the launcher ends the job at once; exit non-zero, no hang.
signal_last_rank KILL killed
[[ $rc -ne 0 && $rc -ne 124 ]] && pass "killed rank: the job exits $rc" || fail "killed rank: exit $rc"
elapsed_below "$t0" 15 && pass "killed rank: ended within 15 s" || fail "killed rank: slow to end"
grep -qi "killed\|signal 9" "$SCRATCH/killed.out" && pass "killed rank: the message names the signal" || fail "killed rank: $(cat "$SCRATCH/killed.out")"

# A rank that stops answering (stopped, as on a hung mount) is test_mpi_faults.sh's, with a rank
# killed under a launcher that lets the others live on.

# Storage that stops delivering (a 1 B/s cap: one 4 KiB request per 68 minutes stands in for a
# hung mount): the ranks still answer, but rank 0 sees no progress for --stall-timeout (not
# --rank-timeout, which owns silent ranks) and ends the run, named.
t0=$(date +%s.%N)
expect_rc 1 "storage that stops delivering" -- mpi 2 "$DLSIZE" "${train[@]}" --rank-timeout 30s --stall-timeout 3s --max-read-rate 1B/s --out "$SCRATCH/hung.json"
expect_text "made no progress for 3 s (--stall-timeout)" "message says the rank made no progress"
elapsed_below "$t0" 40 && pass "hung storage: ended within 40 s" || fail "hung storage: slow to end"
[[ $(json "$SCRATCH/hung.json" "r['status'] == 'incomplete' and 'no progress' in r['reason']") == True ]] \
  && pass "hung storage: incomplete report" || fail "hung storage: report"

# An interrupt to the launcher reaches every rank: one incomplete report, every rank exits 1,
# quickly. (Each rank's exit code is kept by a wrapper: after forwarding Ctrl-C, MPICH 4.0.2's
# mpiexec itself at times exits 0 although every rank exited 1.)
"$MPIEXEC" -np 2 bash -c 'trap "" INT; "$@"; rc=$?; echo "$PMI_RANK $rc" >>"$0"; exit $rc' "$SCRATCH/int.rc" \
  "$DLSIZE" "${long[@]}" --out "$SCRATCH/int.json" >/dev/null 2>&1 &
job=$!
( sleep 60; kill -KILL $job 2>/dev/null ) &
guard=$!
sleep 3
t0=$(date +%s.%N)
kill -INT $job
wait $job
rc=$?
kill $guard 2>/dev/null
[[ $rc -le 1 ]] && pass "interrupted job: the launcher exits $rc" || fail "interrupted job: exit $rc"
[[ $(sort "$SCRATCH/int.rc" | tr '\n' ' ') == "0 1 1 1 " ]] && pass "interrupted job: every rank exits 1" || fail "interrupted job: ranks exit $(cat "$SCRATCH/int.rc")"
elapsed_below "$t0" 5 && pass "interrupted job stops within 5 s" || fail "interrupted job: slow to stop"
[[ $(json "$SCRATCH/int.json" "r['status'] == 'incomplete' and 'interrupted by signal' in r['reason'] and r['topology']['ranks'] == 2") == True ]] \
  && pass "interrupted job: incomplete report" || fail "interrupted job: report"

# Launches this build cannot serve are refused before anything runs.
expect_rc 2 "Open MPI's launcher" -- env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$DLSIZE" --version
expect_text "mpiexec.mpich" "message names MPICH's launcher"
expect_rc 2 "srun without a PMI" -- env SLURM_STEP_NUM_TASKS=4 SLURM_PROCID=0 "$DLSIZE" --version
expect_text "srun --mpi=pmi2" "message names the fix"
finish
