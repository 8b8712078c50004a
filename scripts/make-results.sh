#!/usr/bin/env bash
# Remakes the example reports in results/ from real runs on this machine, as results/README.md
# lists them: the quickstart's reports (single process, MPI, storage only), two sizing sweeps
# (the disk, and the disk behind a 500 MB/s cap), the sizing report over both and the
# comparison at 4 accelerators. About 15 minutes on 2 idle cores. Only results/ is written
# (and the datasets under dlsize-data/); the files it replaces are dlsize's own examples.
# Usage: scripts/make-results.sh [--quick]   (--quick: the quickstart reports only)
set -euo pipefail
cd "$(dirname "$0")/.."
dlsize=${DLSIZE_BUILD_DIR:-build}/dlsize
[[ -x $dlsize ]] || { echo "make-results: $dlsize is not built; run scripts/build.sh" >&2; exit 2; }
mpiexec=$(command -v mpiexec.mpich || true)
stage=$(mktemp -d results/.staging.XXXXXX)
trap 'rm -rf "$stage"' EXIT

"$dlsize" bench --quiet --out "$stage/quickstart-resnet50-emulated-a100.json"
if [[ -n $mpiexec ]] && "$dlsize" --version | grep -q "mpi: yes"; then
  "$mpiexec" -np 2 "$dlsize" bench --config quickstart --accelerators-per-rank 2 --quiet \
    --out "$stage/mpi-2ranks-quickstart.json"
fi
"$dlsize" bench --workload resnet50 --dataset dlsize-data/quickstart-resnet50 --accelerator none \
  --epochs 2 --verify --quiet --out "$stage/quickstart-resnet50-storage-only.json"

if [[ ${1:-} != --quick ]]; then
  "$dlsize" sweep --config configs/sweeps/resnet50-h100-disk.json --out "$stage/sweep-disk"
  "$dlsize" sweep --config configs/sweeps/resnet50-h100-capped.json --out "$stage/sweep-capped"
  "$dlsize" size "$stage/sweep-disk" "$stage/sweep-capped" --out "$stage/sizing-resnet50-h100" \
    --nic-bandwidth 25GB/s --clients 4
  "$dlsize" compare "$stage"/sweep-disk/reports/n4-r{1,2,3}.json "$stage"/sweep-capped/reports/n4-r{1,2,3}.json \
    --out "$stage/compare-n4.json" --markdown "$stage/compare-n4.md" --html "$stage/compare-n4.html"
fi
# Paths inside the documents name the staging folder: give them their place in results/; and the
# reports' resolved paths (config.dataset for --replay) are made relative to the repository, so
# the examples name no folder of the machine that made them.
grep -rlF "$stage/" "$stage" | xargs -r sed -i "s|$stage/|results/|g"
grep -rlF "$PWD/" "$stage" | xargs -r sed -i "s|$PWD/||g"
for f in "$stage"/*; do
  name=$(basename "$f")
  rm -rf "results/$name"
  mv "$f" "results/$name"
done
echo "make-results: results/ remade; update the figures quoted in results/README.md"
