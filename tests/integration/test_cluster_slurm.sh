#!/usr/bin/env bash
# `srun --mpi=pmi2 dlsize bench`, as the README gives it, under Slurm on the cluster bed
# (scripts/cluster-slurm.sh: slurmctld on the storage host, slurmd on each host, munge): Slurm
# places one rank on h1 and one on h2, its pmi2 plugin wires them up, and the report names both
# hosts with one rank each. A dataset on the hosts' shared file system: Slurm is the subject, not
# the stores. Slurm is started for this test and stopped after it.
# labels: cluster mpi
source "$(dirname "$0")/lib.sh"
require_cluster
trap 'bed slurm down; rm -rf "$SCRATCH"' EXIT
rc=0
bed slurm up 2>"$SCRATCH/slurm-up.err" || rc=$?
if ((rc == 77)); then
  echo "skip: $(cat "$SCRATCH/slurm-up.err")"
  exit 77
fi
((rc == 0)) || { fail "Slurm did not come up on the bed: $(cat "$SCRATCH/slurm-up.err")"; finish; exit 1; }
pass "Slurm up on the bed"

expect_rc 0 "datagen on h1" -- bed exec h1 "$DLSIZE" datagen --workload resnet50 \
  --dataset "$SCRATCH/ds" --files 8 --records-per-file 16 --quiet
expect_rc 0 "srun -N2 -n2 --mpi=pmi2 dlsize bench" -- timeout -k 5 60 "$BED_SH" slurm srun -N2 -n2 \
  -w h1,h2 --mpi=pmi2 "$DLSIZE" bench --workload resnet50 --dataset "$SCRATCH/ds" \
  --accelerator emulated:h100 --batch-size 16 --compute-time 20ms --time-limit 3s \
  --out "$SCRATCH/slurm.json"
if [[ -f $SCRATCH/slurm.json ]]; then
  [[ $(json "$SCRATCH/slurm.json" "sorted((h['host'], h['ranks']) for h in r['hosts'])") == \
    "[('h1', [0]), ('h2', [1])]" ]] && pass "the report names h1 and h2, one rank each" ||
    fail "the report's hosts: $(json "$SCRATCH/slurm.json" "[(h['host'], h['ranks']) for h in r['hosts']]")"
  [[ $(json "$SCRATCH/slurm.json" "r['status']") == complete ]] && pass "the report is complete" ||
    fail "the report's status: $(json "$SCRATCH/slurm.json" "r['status']")"
else
  fail "srun wrote no report: $ERR"
fi
finish
