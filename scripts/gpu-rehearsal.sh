#!/usr/bin/env bash
# Rehearses the GPU check here, without a GPU, so that its plumbing is proven before a GPU is
# lent: lays out a bundle with the CPU stand-in module beside it, then runs
# scripts/gpu-check.sh under `env -i` with only what the device machine will have (PATH,
# HOME, TMPDIR, OUT, a fake nvidia-smi that lists one GPU), the stand-in as the module, and a
# fake $OUT. Then checks: the check passed, $OUT holds table.md and gpu-check.tar.gz and no
# more than 8 files, the table has every row (PyTorch skipped: torch not importable), the
# archive holds every log, the check kept its budget, the real module's libraries resolve on
# the check's library path, and on a GPU host a GPU test that cannot load its module fails
# instead of skipping.
#
# Usage: scripts/gpu-rehearsal.sh [BUILD]
#   BUILD given: the bundle is laid out from that ordinary build tree (seconds; what the test
#     suite does). The bundle's own rules (portable link, size, library needs) are tested
#     apart, on small binaries, by tests/integration/test_gpu_bundle_rules.sh.
#   no BUILD: the real portable bundle is built (scripts/gpu-bundle.sh, minutes) and rehearsed.
#   DLSIZE_BUNDLE_BUILD  the portable build tree (default build-gpu; incremental)
#   DLSIZE_REHEARSAL_BUNDLE  the rehearsal's bundle (default DLSIZE_BUNDLE_BUILD/rehearsal-bundle)
# Exits 0 when every check passed, 1 otherwise, 77 when this machine cannot make the bundle.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
from=${1:-}
build=${DLSIZE_BUNDLE_BUILD:-build-gpu}
bundle=${DLSIZE_REHEARSAL_BUNDLE:-$build/rehearsal-bundle}
fails=0
pass() { echo "ok: $*"; }
fail() {
  fails=$((fails + 1))
  echo "FAIL: $*"
}

if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "skipped: no CUDA toolkit (nvcc) here to build the bundle"
  exit 77
fi
export PATH=$PATH:/usr/local/cuda/bin
if [[ -n $from ]]; then
  DLSIZE_BUNDLE_EXTRA=dlsize_fake_cuda scripts/gpu-bundle.sh --from-build "$from" "$bundle" ||
    { echo "FAIL: no bundle could be laid out from $from"; exit 1; }
  pass "bundle laid out from $from"
else
  DLSIZE_BUNDLE_BUILD=$build DLSIZE_BUNDLE_EXTRA=dlsize_fake_cuda scripts/gpu-bundle.sh "$bundle" ||
    { echo "FAIL: the bundle did not build or is not clean"; exit 1; }
  pass "bundle built, at most 16 MiB, needing only libc and the CUDA libraries"
fi
bundle=$(cd "$bundle" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsize-rehearsal.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/home" "$tmp/out"
cat >"$tmp/bin/nvidia-smi" <<'EOF'
#!/bin/sh
echo "GPU 0: Fake GPU (UUID: GPU-00000000-0000-0000-0000-rehearsal)"
EOF
chmod +x "$tmp/bin/nvidia-smi"

t0=$(date +%s)
env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp/home" TMPDIR="$tmp" OUT="$tmp/out" \
  DLSIZE_BUNDLE="$bundle" DLSIZE_CUDA_MODULE="$bundle/dlsize_fake_cuda.so" \
  DLSIZE_GPU_TESTS_ARGS="[plumbing]" DLSIZE_CHECK_DATASET=64MiB DLSIZE_FAKE_BUSY_MS=5 \
  bash scripts/gpu-check.sh >"$tmp/check.log" 2>&1
rc=$?
took=$(($(date +%s) - t0))
cat "$tmp/check.log"
[[ $rc -eq 0 ]] && pass "the check passed (exit 0)" || fail "the check exited $rc"
((took < 540)) && pass "the check took $took s, within 540 s" || fail "the check took $took s"

files=$(find "$tmp/out" -type f | wc -l)
((files <= 8)) && pass "\$OUT holds $files files (at most 8)" || fail "\$OUT holds $files files"
table=$tmp/out/table.md
[[ -f $table && -f $tmp/out/gpu-check.tar.gz ]] && pass "table.md and gpu-check.tar.gz in \$OUT" ||
  fail "\$OUT: $(ls "$tmp/out")"
for want in "| GPU | GPU 0: Fake GPU" "| bundle and libraries | bundle " \
  "| PyTorch ResNet-50 fp16 batch 256, channels_last | skipped: torch not importable" \
  "| dlsize calibrate ResNet-50 fp16 batch 256 | " "images/s wall to wall" "event to event" \
  "| dlsize / PyTorch, wall to wall (goal >= 0.9) | n/a" "| dlsize GPU ms per step by layer kind | conv " \
  "| GPU tests | passed" "| bench --accelerator cuda, 1 epoch of 64MiB | AU " \
  "| compute-sanitizer memcheck, small GPU tests | skipped: compute-sanitizer not found" \
  "| wall time (budget 540 s) | "; do
  grep -qF -- "$want" "$table" 2>/dev/null && pass "table: $want" || fail "table lacks '$want'"
done
cp "$tmp/out/gpu-check.tar.gz" "$tmp/first.tar.gz" 2>/dev/null
listing=$(tar -tzf "$tmp/first.tar.gz" 2>/dev/null)
for want in version.txt gpu.txt library-path.txt ldd-module.txt calibrate.log calibration.json \
  gpu-tests.log datagen.log bench.log bench-cuda.json table.md; do
  grep -q "gpu-check/$want$" <<<"$listing" && pass "archive holds $want" || fail "archive lacks $want"
done

# A machine whose driver is missing: the check fails (exit 1) yet still writes its table, and on
# a GPU host the GPU tests fail rather than skip.
rm -rf "$tmp/out" && mkdir -p "$tmp/out"
env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp/home" TMPDIR="$tmp" OUT="$tmp/out" \
  DLSIZE_BUNDLE="$bundle" DLSIZE_CUDA_MODULE="$bundle/dlsize_fake_cuda.so" DLSIZE_FAKE_CUDA=nodriver \
  DLSIZE_GPU_TESTS_ARGS="[plumbing]" DLSIZE_CHECK_DATASET=64MiB \
  bash scripts/gpu-check.sh >"$tmp/check-fail.log" 2>&1
rc=$?
[[ $rc -eq 1 ]] && pass "without a driver the check exits 1" || fail "without a driver the check exited $rc"
grep -qF "| dlsize calibrate ResNet-50 fp16 batch 256 | FAILED (exit 2)" "$tmp/out/table.md" 2>/dev/null &&
  pass "the table names the failed calibration" || fail "failed run's table: $(cat "$tmp/out/table.md" 2>&1)"
grep -qF "| GPU tests | FAILED (exit 1)" "$tmp/out/table.md" 2>/dev/null &&
  pass "on a GPU host the GPU tests without a driver fail, not skip" || fail "GPU tests row: $(grep 'GPU tests' "$tmp/out/table.md")"
# Its scratch is gone.
[[ -z $(find "$tmp" -maxdepth 1 -name 'dlsize-gpu-check.*') ]] && pass "the check removed its scratch" ||
  fail "scratch left: $(find "$tmp" -maxdepth 1 -name 'dlsize-gpu-check.*')"

# The real module's libraries, on the path the check made (here: the toolkit's).
tar -xzf "$tmp/first.tar.gz" -C "$tmp" gpu-check/library-path.txt
libpath=$(paste -sd: "$tmp/gpu-check/library-path.txt")
if env -i LD_LIBRARY_PATH="$libpath" ldd "$bundle/dlsize-cuda.so" >"$tmp/ldd.txt" 2>&1 &&
  ! grep -q "not found" "$tmp/ldd.txt"; then
  pass "dlsize-cuda.so finds its libraries on the check's library path"
else
  fail "dlsize-cuda.so on the check's library path: $(grep 'not found' "$tmp/ldd.txt")"
fi

# A GPU test binary that cannot load its module: a failure on a GPU host, a skip elsewhere.
env -i DLSIZE_GPU_HOST=1 DLSIZE_CUDA_MODULE="$tmp/none.so" "$bundle/dlsize_gpu_tests" >"$tmp/t.log" 2>&1
rc=$?
[[ $rc -eq 1 ]] && grep -q "FAILED: this machine has a GPU" "$tmp/t.log" &&
  pass "on a GPU host a GPU test without its module fails (exit 1)" || fail "GPU host, no module: exit $rc: $(cat "$tmp/t.log")"
env -i DLSIZE_GPU_HOST=0 DLSIZE_CUDA_MODULE="$tmp/none.so" "$bundle/dlsize_gpu_tests" >"$tmp/t.log" 2>&1
rc=$?
[[ $rc -eq 77 ]] && pass "without a GPU it skips (exit 77)" || fail "no GPU host, no module: exit $rc"

echo "$fails failed"
((fails == 0))
