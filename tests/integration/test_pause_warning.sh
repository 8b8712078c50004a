#!/usr/bin/env bash
# A pause longer than the lesser of --stall-timeout and 10 s that does not end the run still
# leaves a warning in its complete report: an MPI rank stopped (SIGSTOP) for 11 s under the
# default --stall-timeout (60 s), on files. (A frozen S3 server: test_s3_pause.) About 15 s.
# labels: integration mpi faults
source "$(dirname "$0")/lib.sh"
require_mpi
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --files 8 --records-per-file 16 --dataset "$ds" --quiet \
  >/dev/null || { fail "datagen"; finish; exit 1; }
timeout -k 5 60 "$MPIEXEC" -np 2 "$DLSIZE" bench --workload resnet50 --dataset "$ds" \
  --accelerator emulated:h100 --batch-size 16 --compute-time 20ms --cache buffered --quiet \
  --epochs 1000 --time-limit 13s --out "$SCRATCH/paused.json" >"$SCRATCH/paused.out" 2>&1 &
job=$!
victim=
for _ in $(seq 100); do
  victim=$(rank_pid paused.json 1) && break
  sleep 0.1
done
if [[ -z $victim ]]; then
  fail "no process of rank 1"
  kill -KILL $job
else
  sleep 1
  kill -STOP "$victim"
  sleep 11
  kill -CONT "$victim"
fi
wait $job
rc=$?
[[ $rc -eq 0 ]] && pass "the job paused 11 s completes (exit 0)" \
  || fail "paused job: exit $rc: $(cat "$SCRATCH/paused.out")"
check=$(json "$SCRATCH/paused.json" "(r['status'], any('did not run for 1' in w and 'lesser of --stall-timeout 60 s and 10 s' in w for w in r['warnings']))")
[[ $check == "('complete', True)" ]] && pass "complete, with a warning naming rank 1's pause" \
  || fail "paused: $check $(json "$SCRATCH/paused.json" "r['warnings']" 2>&1)"
finish
