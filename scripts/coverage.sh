#!/usr/bin/env bash
# Coverage of `dlsize size`'s 95 % prediction intervals on held-out runs (issue 14, item 2;
# docs/performance.md): on each real backend, a sweep of emulated accelerators at 1, 2, 4, 8
# and 16 with REPEATS repeats (default 10: 50 held-out runs per backend), then
#  - leave-one-repeat-out: size on every run but repeat k, each run of repeat k checked against
#    the reads_interval at its count;
#  - extrapolation: size on the runs at 1 to 4, the runs at 8 and 16 checked.
# The analysis and the table are scripts/coverage_table.py's.
#
# Usage: scripts/coverage.sh OUT_DIR [BACKENDS]   (root, from a build; BACKENDS a comma list of
#        ext4, xfs, tmpfs; default ext4,tmpfs)
#   ext4, xfs: a loop image attached with `losetup --direct-io=on`, read with O_DIRECT;
#   tmpfs: a tmpfs mount of its own, read buffered.
# Environment: DLSIZE (default build/dlsize), REPEATS (10), TIME_LIMIT (4s per run),
#   DATASET (512MiB).
# OUT_DIR must not exist: it gets OUT_DIR/BACKEND (each sweep's folder), OUT_DIR/analysis and
# OUT_DIR/coverage.json. The images, loop devices and mounts live in a folder of their own
# that the exit trap removes (detached, unmounted, deleted); nothing else is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/coverage.sh OUT_DIR [ext4,xfs,tmpfs]}
backends=${2:-ext4,tmpfs}
dlsize=$(realpath "${DLSIZE:-build/dlsize}")
repeats=${REPEATS:-10}
time_limit=${TIME_LIMIT:-4s}
dataset=${DATASET:-512MiB}

[[ -x $dlsize ]] || { echo "coverage: no dlsize at $dlsize (build first)" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "coverage: needs root (losetup, mount)" >&2; exit 2; }
[[ -e $out ]] && { echo "coverage: $out exists; give a new folder" >&2; exit 2; }
IFS=, read -r -a list <<<"$backends"
for b in "${list[@]}"; do
  case $b in
    ext4) command -v mkfs.ext4 >/dev/null || { echo "coverage: mkfs.ext4 missing" >&2; exit 2; } ;;
    xfs) command -v mkfs.xfs >/dev/null || { echo "coverage: mkfs.xfs missing (scripts/deps.sh --bench)" >&2; exit 2; } ;;
    tmpfs) ;;
    *) echo "coverage: backend '$b' is not valid. valid: ext4, xfs, tmpfs" >&2; exit 2 ;;
  esac
done

mkdir -p "$out"
out=$(realpath "$out")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dlsize-coverage.XXXXXX")
source scripts/loop_fs.sh
cleanup() {
  unmount_made
  rm -rf -- "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A copy of the binary: a rebuild while the sweeps run would replace the one they start.
cp "$dlsize" "$scratch/dlsize"
dlsize=$scratch/dlsize

# A backend's mount point (in $mnt; not a subshell, so that the trap sees every mount and
# loop device): a loop image formatted and mounted, or a tmpfs.
mount_backend() {
  local b=$1 dir=$scratch/$1
  mkdir -p "$dir/mnt"
  if [[ $b == tmpfs ]]; then
    mount -t tmpfs -o size=1200M tmpfs "$dir/mnt"
    made_mounts+=("$dir/mnt")
  else
    loop_fs "$b" "$dir" 1200M
  fi
  mnt=$dir/mnt
}

counts='[1, 2, 4, 8, 16]'
started=$(date +%s)
for b in "${list[@]}"; do
  mount_backend "$b"
  cache=direct
  [[ $b == tmpfs ]] && cache=buffered
  # resnet50 at the h100 preset with a smaller batch and a longer step (about 48 MB/s per
  # accelerator, 770 MB/s at 16): small enough that 16 emulated accelerators run on 2 cores.
  cat >"$scratch/$b.json" <<EOF
{
  "bench": {
    "label": "coverage-$b",
    "workload": "resnet50",
    "dataset": "$mnt/resnet50",
    "generate": "$dataset",
    "accelerator": "emulated:h100",
    "batch-size": 16,
    "compute-time": "40ms",
    "cache": "$cache",
    "epochs": 100,
    "time-limit": "$time_limit"
  },
  "accelerators": $counts,
  "repeats": $repeats,
  "seed": 1
}
EOF
  echo "coverage: $b: sweep of $counts x $repeats repeats at $mnt ($cache)" >&2
  "$dlsize" sweep --config "$scratch/$b.json" --out "$out/$b" >"$out/$b.sweep.log" 2>&1 ||
    { echo "coverage: the $b sweep failed; see $out/$b.sweep.log" >&2; exit 1; }
  cp "$scratch/$b.json" "$out/$b.config.json"
  echo "coverage: $b done after $(($(date +%s) - started)) s" >&2
done

/usr/bin/python3 scripts/coverage_table.py "$dlsize" "$out" "${list[@]}"
echo "coverage: $(($(date +%s) - started)) s in all" >&2
