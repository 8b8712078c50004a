#!/usr/bin/env bash
# dlsize's commands across the cluster bed's hosts (scripts/cluster-bed.sh) on each of its
# stores, S3 (radosgw), GlusterFS and CephFS, served from the storage host over the data
# network: parallel datagen by ranks on two hosts, bench reading only (accelerators of compute
# time 0) and emulated training with its step syncs crossing the management network, and a
# checkpoint written and read back by ranks on both hosts. Each report names both hosts. (Into a
# bucket datagen runs as one process, on h1.)
# labels: cluster mpi
# cluster-stores: s3 gluster cephfs
source "$(dirname "$0")/lib.sh"
require_cluster s3 gluster cephfs
# run_on_2 NAME COMMAND...: one rank on h1 and one on h2, output in $SCRATCH/NAME.out. Its exit
# status is not checked: over TCP, MPICH's MPI_Finalize sometimes hangs after a complete job, and
# the rank that leaves it after the rank timeout makes hydra report a failure; the reports and
# the dataset's manifest say how the job went.
run_on_2() {
  local name=$1
  shift
  timeout -k 5 150 "$BED_SH" mpiexec -hosts h1,h2 -np 2 -ppn 1 "$DLSIZE" "$@" >"$SCRATCH/$name.out" 2>&1
  grep -h "MPI_Finalize did not return" "$SCRATCH/$name.out" | sed 's/^/note: /'
  return 0
}
bucket=jobs-$$-$RANDOM
bed_bucket "$bucket"
trap 'bed exec h1 rm -rf "$DLSIZE_BED_GLUSTER/jobs" "$DLSIZE_BED_CEPHFS/jobs"; rm -rf "$SCRATCH"' EXIT
# both_hosts REPORT: the report's hosts are h1 and h2, one rank each.
both_hosts() { json "$1" "sorted((h['host'], h['ranks']) for h in r['hosts']) == [('h1', [0]), ('h2', [1])]"; }

for store in s3 gluster cephfs; do
  case $store in
  s3) ds=s3://$bucket/ds ck=s3://$bucket/ck ;;
  gluster) ds=$DLSIZE_BED_GLUSTER/jobs/ds ck=$DLSIZE_BED_GLUSTER/jobs/ck ;;
  cephfs) ds=$DLSIZE_BED_CEPHFS/jobs/ds ck=$DLSIZE_BED_CEPHFS/jobs/ck ;;
  esac
  if [[ $store == s3 ]]; then
    # datagen into a bucket runs as one process (its threads put the objects in parallel).
    expect_rc 0 "s3: datagen on h1" -- bed exec h1 "$DLSIZE" datagen --workload resnet50 \
      --dataset "$ds" --files 16 --records-per-file 16 --quiet --s3-endpoint "$DLSIZE_S3_ENDPOINT"
    where=(--s3-endpoint "$DLSIZE_S3_ENDPOINT")
  else
    run_on_2 "$store-datagen" datagen --workload resnet50 --dataset "$ds" --files 16 \
      --records-per-file 16 --quiet
    # The stores are mounted on the bed's hosts only (their mount namespaces).
    grep -q "by 2 ranks" "$SCRATCH/$store-datagen.out" && bed exec h2 test -f "$ds/dlsize-dataset.json" \
      && pass "$store: datagen by ranks on h1 and h2, one manifest" \
      || fail "$store: datagen by 2 ranks: $(cat "$SCRATCH/$store-datagen.out")"
    where=()
  fi
  run_on_2 "$store-read" bench --workload resnet50 --dataset "$ds" "${where[@]}" \
    --accelerator emulated:h100 --batch-size 8 --compute-time 0 --epochs 2 --rank-timeout 3s --quiet \
    --out "$SCRATCH/$store-read.json"
  [[ $(both_hosts "$SCRATCH/$store-read.json") == True && $(json "$SCRATCH/$store-read.json" \
    "r['status'] == 'complete' and all(h['read_bytes'] > 0 for h in r['hosts']) and all(n['rx_bytes'] >= h['read_bytes'] for h in r['hosts'] for n in h['nics'] if n['name'] == 'eth0')") == True ]] \
    && pass "$store: reading only, each host read over its own eth0" \
    || fail "$store: reading only: $(cat "$SCRATCH/$store-read.out") $(json "$SCRATCH/$store-read.json" "[(h['host'], h['read_bytes'], h.get('nics')) for h in r['hosts']]" 2>&1)"
  run_on_2 "$store-train" bench --workload resnet50 --dataset "$ds" "${where[@]}" \
    --accelerator emulated:h100 --batch-size 8 --compute-time 10ms --sync-steps --epochs 2 \
    --rank-timeout 3s --quiet --out "$SCRATCH/$store-train.json"
  [[ $(both_hosts "$SCRATCH/$store-train.json") == True && $(json "$SCRATCH/$store-train.json" \
    "r['status'] == 'complete' and r['topology']['nodes'] == 2 and r['summary']['steps'] == 2 * r['summary']['steps_per_epoch']") == True ]] \
    && pass "$store: training over 2 nodes, every step of both epochs" \
    || fail "$store: training: $(cat "$SCRATCH/$store-train.out") $(json "$SCRATCH/$store-train.json" "(r['status'], r['topology'], r.get('reason'))" 2>&1)"
  run_on_2 "$store-ck" checkpoint --workload llama3-8b --scale 0.0001 --dir "$ck" "${where[@]}" \
    --writes 1 --reads 1 --quiet --out "$SCRATCH/$store-ck.json"
  [[ $(json "$SCRATCH/$store-ck.json" "(r['status'], r['checkpoint']['ranks'], r['checkpoint']['read']['verify']['mismatches'])") == "('complete', 2, 0)" ]] \
    && pass "$store: the checkpoint of 2 ranks verified" \
    || fail "$store: checkpoint: $(cat "$SCRATCH/$store-ck.out") $(json "$SCRATCH/$store-ck.json" "(r['status'], r.get('reason'))" 2>&1)"
done
finish
