#!/usr/bin/env bash
# Every rendering of fixed inputs by one dlsize binary, for refactors that must change no byte:
# size, compare, plan, export, validate and sweep --dry-run over results/ and over reports made
# once into INPUTS (a training template, a sizing sweep with a known knee, a cache sweep, two
# checkpoint reports). Each command's stdout, stderr, exit code and files land in OUT, with the
# fields that change from run to run (created_at, commit, version, the INPUTS and OUT paths) masked.
# Usage: scripts/golden-outputs.sh INPUTS OUT [DLSIZE]
#   then: scripts/golden-outputs.sh INPUTS after build/dlsize; diff -r before after
# INPUTS is made on first use (with DLSIZE) and reused after, so both binaries read the same runs.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 INPUTS OUT [DLSIZE]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
in=$(mkdir -p "$1" && cd "$1" && pwd)
[[ ! -e $2 ]] || { echo "golden-outputs: $2 exists; name a new folder" >&2; exit 2; }
mkdir -p "$2" && out=$(cd "$2" && pwd)
dlsize=$(realpath "${3:-$root/build/dlsize}")
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3)
cd "$root"

make_inputs() {
  local ds=$in/r50 dlsize=$in/.maker/dlsize
  # The reports name the binary that made them (in their command lines): a copy inside INPUTS
  # masks as @INPUTS@ for every binary that later reads them.
  mkdir -p "$in/.maker" && cp "$1" "$dlsize"
  "$dlsize" datagen --workload resnet50 --dataset "$ds" --size 64MiB --quiet >/dev/null
  "$dlsize" bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 2 \
    --batch-size 8 --compute-time 5ms --epochs 1 --quiet --out "$in/template.json"
  mkdir -p "$in/knee" "$in/cache"
  "$py" tests/integration/make_sizing_reports.py "$in/template.json" "$in/knee" 200e6 40e6 1,2,3,4,6,8 3
  "$py" tests/integration/make_cache_sweep_reports.py "$in/template.json" results/cache-sweep/sweep.json "$in/cache"
  mkdir -p "$in/ckpt"
  for i in 1 2; do
    "$dlsize" checkpoint --workload llama3-8b --scale 0.002 --dir "$in/ck$i" --writes 2 --reads 1 --quiet \
      --out "$in/ckpt/ck$i.json" || true
  done
  rm -rf "$in/r50" "$in"/ck[12]
  touch "$in/.made"
}
[[ -f $in/.made ]] || make_inputs "$dlsize"

n=0
# run NAME ARGS...: one command; @OUT@ in ARGS is this command's output prefix.
run() {
  local name=$1 rc=0
  shift
  n=$((n + 1))
  "$dlsize" "${@//@OUT@/$out/$name}" >"$out/$name.stdout" 2>"$out/$name.stderr" || rc=$?
  echo "$rc" >"$out/$name.rc"
}

run size-two size results/sweep-disk results/sweep-capped --out @OUT@ --nic-bandwidth 25GB/s --clients 4
run size-disk size results/sweep-disk --out @OUT@
run size-v2 size results/sweep-disk results/sweep-capped --out @OUT@ --rules v2 --client-ram 64GiB --cache-model lru
run size-targets size results/sweep-capped --out @OUT@ --target-accelerators 16,64 --data-growth 1,2 \
  --front-end-bandwidth 40GB/s --headroom 1.5
run size-knee size "$in/knee" --out @OUT@ --target-accelerators 16,64 --data-growth 1,2 --nic-bandwidth 800Mb/s --clients 4
run size-cache size "$in/cache" --out @OUT@ --cache-model measured
run size-ckpt size "$in/ckpt" --out @OUT@
run size-bad size results/README.md --out @OUT@
run compare-n4 compare results/sweep-disk/reports/n4-r{1,2,3}.json results/sweep-capped/reports/n4-r{1,2,3}.json \
  --out @OUT@.json --markdown @OUT@.md --html @OUT@.html
run compare-v2 compare results/sweep-disk/reports/n4-r{1,2,3}.json results/sweep-capped/reports/n4-r{1,2,3}.json --rules v2
run compare-mixed compare results/quickstart-resnet50-emulated-a100.json results/quickstart-resnet50-storage-only.json
run compare-knee compare "$in"/knee/*.json --out @OUT@.json
for w in resnet50 unet3d cosmoflow; do
  run "plan-$w" plan --workload "$w" --accelerator h100 --storage-bandwidth 20GB/s --client-ram 512GiB --clients 4 \
    --dataset-size 2.8TB --epochs 5 --out @OUT@.json
done
run plan-refused plan --workload llama3-8b --accelerator h100
run plan-s3 plan --workload resnet50 --accelerator h100 --accelerators 64 --s3 --max-requests-per-s 5500
run plan-ckpt plan --workload llama3-8b --accelerators 64 --checkpoint-interval 30min --write-bandwidth 50GB/s
run plan-allreduce plan --workload resnet50 --accelerator h100 --accelerators 64 --allreduce ring --nic-bandwidth 400GbE
run export-results export results/quickstart-*.json results/mpi-*.json results/sweep-disk/reports/*.json --csv -
run export-inputs export "$in"/knee/*.json "$in"/ckpt/*.json --csv -
mapfile -t docs < <(find results "$in" -name '*.json' ! -path '*/cache-sweep/*' | sort)
run validate validate "${docs[@]}"
for c in configs/sweeps/*.json; do run "sweep-$(basename "$c" .json)" sweep --config "$c" --out "$out/sw" --dry-run; done

# Mask what changes between runs of one binary.
find "$out" -type f -print0 | xargs -0 sed -i -E \
  -e "s#$in#@INPUTS@#g; s#$out#@OUT@#g; s#$dlsize#@DLSIZE@#g" \
  -e 's#"created_at": "[^"]*"#"created_at": "@"#g; s#"(commit|version)": "[^"]*"#"\1": "@"#g' \
  -e 's#[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z#@TIME@#g'
echo "golden-outputs: $n commands into $out"
