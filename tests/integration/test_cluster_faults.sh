#!/usr/bin/env bash
# A host that loses its links on the cluster bed (scripts/cluster-bed.sh, docs/cluster.md "When
# something goes wrong"): a 2-host job (rank 0 on h1, rank 1 on h2) whose h2 loses all its
# links, its management link, or its storage link (on S3, GlusterFS and CephFS), and one whose
# management link goes once the report is written. Each job's report names h2 and what its rank
# was doing, within its timeout + 2 s of the cut; the job itself ends within that too, except
# where a FUSE client holds the rank's last file in the kernel (GlusterFS until its ping-timeout,
# CephFS until the link returns: a FUSE request the daemon has taken cannot be interrupted, and
# closing the file waits on its FLUSH), which the link's return then ends.
# labels: cluster mpi faults
# cluster-stores: s3 gluster cephfs
source "$(dirname "$0")/lib.sh"
require_cluster s3 gluster cephfs
bucket=faults-$$-$RANDOM
bed_bucket "$bucket"
trap 'bed heal; for h in h1 h2; do bed cap $h none; done; bed exec h1 rm -rf "$DLSIZE_BED_GLUSTER/faults" "$DLSIZE_BED_CEPHFS/faults"; rm -rf "$SCRATCH"' EXIT
data=(--workload resnet50 --files 8 --records-per-file 32 --quiet)
for store in gluster cephfs; do
  mnt=DLSIZE_BED_${store^^}
  expect_rc 0 "datagen on $store" -- bed exec h1 "$DLSIZE" datagen "${data[@]}" --dataset "${!mnt}/faults/ds"
done
expect_rc 0 "datagen on S3" -- bed exec h1 "$DLSIZE" datagen "${data[@]}" --dataset "s3://$bucket/ds" \
  --s3-endpoint "$DLSIZE_S3_ENDPOINT"
# The hosts read at 80 Mbit/s: the readers always have a request on the wire when the cut comes.
for h in h1 h2; do bed cap "$h" 80mbit; done
now() { date +%s.%N; }
took() { "$PY" -c "print(round($2 - $1, 1))"; }
within() { "$PY" -c "import sys; sys.exit(0 if $1 <= $2 else 1)"; }

# fault NAME WHEN WHICH OPTION...: a 2-host job; h2's WHICH link(s) cut WHEN (`start`: 3 s into
# the run; `report`: once the report is written). Sets REPORT_AFTER and END_AFTER (seconds from
# the cut to the report and to the job's end, empty when it had not ended 4 s after the report;
# the link then returns and the job is waited for).
fault() {
  local name=$1 when=$2 which=$3 t_cut t_report= t_end= t_ranks= i
  shift 3
  rm -f "$SCRATCH/$name.json"
  timeout -k 5 150 "$BED_SH" mpiexec -hosts h1,h2 -np 2 -ppn 1 "$DLSIZE" bench --workload resnet50 \
    --accelerator emulated:h100 --batch-size 16 --compute-time 20ms --readers 2 \
    --rank-timeout 3s --stall-timeout 3s --quiet --out "$SCRATCH/$name.json" "$@" \
    >"$SCRATCH/$name.out" 2>&1 &
  local job=$!
  if [[ $when == start ]]; then
    sleep 3
  else
    for i in $(seq 600); do [[ -f $SCRATCH/$name.json ]] && break; sleep 0.05; done
  fi
  bed cut h2 "$which"
  t_cut=$(now)
  for i in $(seq 400); do
    [[ -z $t_report && -f $SCRATCH/$name.json ]] && t_report=$(now)
    [[ -z $t_ranks ]] && ! ranks_alive "$SCRATCH/$name.json" && t_ranks=$(now)
    kill -0 $job 2>/dev/null || { t_end=$(now); break; }
    [[ -n $t_report ]] && (($(took "$t_report" "$(now)" | cut -d. -f1) >= 4)) && break
    sleep 0.1
  done
  [[ -n $t_report ]] || t_report=$(now)
  bed heal
  wait $job
  REPORT_AFTER=$(took "$t_cut" "$t_report")
  END_AFTER=${t_end:+$(took "$t_cut" "$t_end")}
  RANKS_AFTER=${t_ranks:+$(took "$t_cut" "$t_ranks")}
}
# ranks_alive PATTERN: a dlsize rank process (not the launcher or its proxies, which carry the
# same arguments) whose command line has PATTERN is still running.
ranks_alive() {
  local pid
  for pid in $(pgrep -f "$1"); do
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == dlsize ]] && return 0
  done
  return 1
}
# names_h2 NAME: the report is incomplete and its reason names rank 1 on h2.
names_h2() { json "$SCRATCH/$1.json" "r['status'] == 'incomplete' and r['reason'].startswith('rank 1 (host h2)')"; }

# All links of h2 cut: rank 1 falls silent; rank 0 names it with what it was doing.
fault all data all --epochs 100 --time-limit 60s --dataset "$DLSIZE_BED_GLUSTER/faults/ds"
[[ $(names_h2 all) == True && $(json "$SCRATCH/all.json" "'it was at step' in r['reason'] and 'file-0' in r['reason']") == True ]] \
  && pass "all links cut: the report names h2 and where its rank was ($(json "$SCRATCH/all.json" "r['reason'][:160]"))" \
  || fail "all links cut: $(json "$SCRATCH/all.json" "r.get('reason')" 2>&1) $(cat "$SCRATCH/all.out")"
[[ -n $END_AFTER ]] && within "$END_AFTER" 5 && pass "all links cut: the job ended $END_AFTER s after the cut (rank timeout 3 s)" \
  || fail "all links cut: the job ended ${END_AFTER:-only after the link returned} s after the cut"

# The management link of h2 cut mid-run: the same, through the rank timeout.
fault mgmt start mgmt --epochs 100 --time-limit 60s --dataset "$DLSIZE_BED_GLUSTER/faults/ds"
[[ $(names_h2 mgmt) == True ]] && pass "management link cut: the report names h2" \
  || fail "management link cut: $(json "$SCRATCH/mgmt.json" "r.get('reason')" 2>&1) $(cat "$SCRATCH/mgmt.out")"
[[ -n $END_AFTER ]] && within "$END_AFTER" 5 && pass "management link cut: the job ended $END_AFTER s after the cut" \
  || fail "management link cut: the job ended ${END_AFTER:-only after the link returned} s after the cut"

# The management link of h2 cut once the report is written: the ranks end normally, then wait in
# MPI_Finalize (or the barrier before it) through h2; the watchdog ends each rank within the
# rank timeout. What dlsize owns is asserted: its rank processes end. The launcher learns of
# h2's end over that same link, so mpiexec itself may wait for the link to return (said, not
# asserted).
fault final report mgmt --epochs 100 --time-limit 3s --dataset "$DLSIZE_BED_GLUSTER/faults/ds"
[[ $(json "$SCRATCH/final.json" "r['status']") == complete ]] && pass "management link cut after the report: the report is complete" \
  || fail "cut after the report: $(json "$SCRATCH/final.json" "(r['status'], r.get('reason'))" 2>&1)"
[[ -n $RANKS_AFTER ]] && within "$RANKS_AFTER" 5 \
  && pass "management link cut after the report: the ranks ended $RANKS_AFTER s after the cut (mpiexec: ${END_AFTER:-when the link returned})" \
  || fail "management link cut after the report: the ranks ended ${RANKS_AFTER:-only after the link returned} s after the cut: $(cat "$SCRATCH/final.out")"

# The storage link of h2 cut, on each store: rank 1's reads stall; its monitor names the file or
# object within --stall-timeout, and the report says so. On CephFS h1's reads may stall first:
# the cut client still holds capabilities on the files both read, and the MDS makes h1 wait
# until h2 releases them or its session times out (seen once in four CI-like runs). There the
# report may name h1's stuck read instead, which is as true.
stalled_host() {
  json "$SCRATCH/$1.json" "r['status'] == 'incomplete' and (r['reason'].startswith('rank 1 (host h2)') or ('$2' == 'cephfs' and r['reason'].startswith('rank 0 (host h1)')))"
}
for store in s3 gluster cephfs; do
  case $store in
  s3) where=(--dataset "s3://$bucket/ds" --s3-endpoint "$DLSIZE_S3_ENDPOINT") ;;
  gluster) where=(--dataset "$DLSIZE_BED_GLUSTER/faults/ds") ;;
  cephfs) where=(--dataset "$DLSIZE_BED_CEPHFS/faults/ds") ;;
  esac
  fault "data-$store" start data --epochs 100 --time-limit 60s "${where[@]}"
  [[ $(stalled_host "data-$store" "$store") == True && $(json "$SCRATCH/data-$store.json" "'stalled' in r['reason'] and 'file-0' in r['reason']") == True ]] \
    && pass "$store: storage link cut: the report names the stalled host and its stuck read" \
    || fail "$store: storage link cut: $(json "$SCRATCH/data-$store.json" "r.get('reason')" 2>&1) $(cat "$SCRATCH/data-$store.out")"
  within "$REPORT_AFTER" 5 && pass "$store: storage link cut: the report written $REPORT_AFTER s after the cut (stall timeout 3 s)" \
    || fail "$store: storage link cut: the report written $REPORT_AFTER s after the cut"
  if [[ $store == s3 ]]; then
    [[ -n $END_AFTER ]] && within "$END_AFTER" 5 && pass "s3: storage link cut: the job ended $END_AFTER s after the cut" \
      || fail "s3: storage link cut: the job ended ${END_AFTER:-only after the link returned} s after the cut: $(tail -c 1500 "$SCRATCH/data-s3.out")"
  fi
done
finish
