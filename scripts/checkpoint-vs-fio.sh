#!/usr/bin/env bash
# dlsize checkpoint's writer and restore against fio's io_uring engine on the same file system,
# with the same request size, queue depth, O_DIRECT and files: fio writes one fresh file per job
# (--numjobs = ranks, --end_fsync=1, --fallocate=none, as dlsize neither preallocates), dlsize
# one shard per rank (a scaled llama3-8b checkpoint, --writes 1 --reads 0); every file is deleted
# before the next run, and the order of the tools alternates run by run. fio runs twice on
# writes: as is (it reuses one buffer) and with --refill_buffers (it generates every block, as
# dlsize does). Restore: fio reads the shards dlsize kept, dlsize reads them back checking every
# block and with --no-verify (a plain read, as fio's).
# Prints medians and the ratios dlsize/fio of bandwidth and CPU seconds per GiB.
# Usage: scripts/checkpoint-vs-fio.sh [SCRATCH_DIR]   env: RUNS (5), SCALE (0.01: 1.05 GiB a
#        checkpoint), RANKS ("1 2"), QD (16), BS (1MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --bench
scripts/build.sh >/dev/null
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
scratch=$(realpath -m "${1:-bench-data/ckpt-vs-fio}")
runs=${RUNS:-5} scale=${SCALE:-0.01} qd=${QD:-16} bs=${BS:-1MiB}
mkdir -p "$scratch"
results=$scratch/results.tsv
: >"$results"
rm -rf "$scratch"/[wr][0-9]*-dlsize*-*.json "$scratch"/[wr][0-9]*-fio*-*.json "$scratch"/keep-*.json "$scratch/ck" "$scratch/keep" "$scratch/fio"
source scripts/timed.sh  # the folder is the repo root here (cd above)
fio_common=(--ioengine=io_uring --direct=1 --thread --fixedbufs=1 --registerfiles=1 --bs="${bs%iB}"
            --iodepth="$qd" --output-format=json --group_reporting)
for run in $(seq 1 "$runs"); do
  for n in ${RANKS:-1 2}; do
    share=$("$dlsize" checkpoint --workload llama3-8b --scale "$scale" --dir "$scratch/probe" --writes 1 --reads 0 \
      --quiet --out "$scratch/probe.json" >/dev/null 2>&1; python3 -c "import json; print(json.load(open('$scratch/probe.json'))['checkpoint']['bytes_per_rank'][0] // $n)")
    rm -rf "$scratch/probe" "$scratch/probe.json"
    dl_write() {
      rm -rf "$scratch/ck" "$scratch/w$n-dlsize-$run.json"
      local mpi=()
      [[ $n -eq 1 ]] || mpi=(mpiexec.mpich -np "$n")
      timed "write-$n dlsize" "$run" "$scratch/w$n-dlsize-$run.json" "${mpi[@]}" "$dlsize" checkpoint \
        --workload llama3-8b --scale "$scale" --dir "$scratch/ck" --writes 1 --reads 0 --queue-depth "$qd" \
        --request-size "$bs" --quiet --out "$scratch/w$n-dlsize-$run.json"
    }
    fio_write() {  # fio_write TOOL [EXTRA...]
      local tool=$1
      shift
      rm -rf "$scratch/fio" && mkdir -p "$scratch/fio"
      timed "write-$n $tool" "$run" "$scratch/w$n-$tool-$run.json" fio --output="$scratch/w$n-$tool-$run.json" \
        --name=ckpt --directory="$scratch/fio" --rw=write --size="$share" --numjobs="$n" --end_fsync=1 \
        --fallocate=none --create_on_open=1 "${fio_common[@]}" "$@"
      rm -rf "$scratch/fio"
    }
    if ((run % 2)); then
      fio_write fio; fio_write fio-refill --refill_buffers; dl_write
    else
      dl_write; fio_write fio-refill --refill_buffers; fio_write fio
    fi
  done
  # Restore: one rank's shards of a kept checkpoint, cold (O_DIRECT) for both.
  rm -rf "$scratch/keep"
  "$dlsize" checkpoint --workload llama3-8b --scale "$scale" --dir "$scratch/keep" --writes 1 --reads 0 --keep \
    --request-size "$bs" --quiet --out "$scratch/keep-$run.json" >/dev/null
  shard=$scratch/keep/checkpoint-000001/rank-00000.file-000.shard
  dl_read() {  # dl_read TOOL [EXTRA...]
    local tool=$1
    shift
    timed "read-1 $tool" "$run" "$scratch/r1-$tool-$run.json" "$dlsize" checkpoint --workload llama3-8b \
      --dir "$scratch/keep" --writes 0 --reads 1 --queue-depth "$qd" --quiet --out "$scratch/r1-$tool-$run.json" "$@"
  }
  fio_read() {
    timed "read-1 fio" "$run" "$scratch/r1-fio-$run.json" fio --output="$scratch/r1-fio-$run.json" \
      --name=restore --filename="$shard" --rw=read --numjobs=1 "${fio_common[@]}"
  }
  if ((run % 2)); then
    fio_read; dl_read dlsize-noverify --no-verify; dl_read dlsize
  else
    dl_read dlsize; dl_read dlsize-noverify --no-verify; fio_read
  fi
  rm -rf "$scratch/keep" "$scratch/keep-$run.json"
done
python3 scripts/checkpoint_vs_fio_table.py "$results"
