#!/usr/bin/env bash
# Builds the GPU bundle: dlsize, dlsize-cuda.so and the GPU tests, stripped, in one folder that
# runs on a machine with only a driver, the CUDA runtime and the CUDA libraries (cuBLAS, cuDNN,
# NCCL) of a toolkit or of Python wheels, found through LD_LIBRARY_PATH. The build is a tree of
# its own (MPI and S3 off, -DDLSIZE_PORTABLE=ON: static libstdc++, libgcc and liburing, header-only
# fmt, RUNPATH $ORIGIN), built incrementally. Then checks the bundle: at most 16 MiB, and no
# library needed outside libc, the CUDA libraries and the bundle (readelf -d, ldd).
#
# Usage: scripts/gpu-bundle.sh [--check-only | --from-build BUILD] [BUNDLE_DIR]
#                                                        (default BUNDLE_DIR: gpu-bundle)
#   --check-only         only checks an existing bundle against the rules above
#   --from-build BUILD   lays out a bundle from an ordinary build tree (no compiler run, no
#                        portability check: its binaries need this machine's libraries). The
#                        GPU rehearsal (scripts/gpu-rehearsal.sh) uses it to test the check's
#                        plumbing in seconds; a device gets only a bundle made without it.
#   DLSIZE_BUNDLE_BUILD  the build tree (default build-gpu)
#   DLSIZE_BUNDLE_EXTRA  more targets' files to copy in, e.g. the stand-in module for the
#                        rehearsal (dlsize_fake_cuda; it is never part of a device bundle)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
check_only=0
from_build=
if [[ ${1:-} == --check-only ]]; then
  check_only=1
  shift
elif [[ ${1:-} == --from-build ]]; then
  from_build=${2:?--from-build needs a build tree}
  shift 2
fi
bundle=${1:-gpu-bundle}
build=${DLSIZE_BUNDLE_BUILD:-build-gpu}
max_bytes=$((16 << 20))
log() { echo "gpu-bundle: $*" >&2; }

# The libraries a bundle may need: the C library's own, and the CUDA libraries the check puts
# on LD_LIBRARY_PATH. Anything else would be missing on the device.
allowed='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libcublas|libcublasLt|libcudnn[a-z_]*|libnccl|libcudart)\.so'

check_bundle() {
  local dir=$1 bad=0 f lib
  [[ -x $dir/dlsize ]] || { log "FAIL: $dir/dlsize is missing"; return 1; }
  for f in "$dir"/*; do
    [[ -f $f ]] && head -c 4 "$f" | grep -q ELF || continue
    while read -r lib; do
      if [[ ! $lib =~ $allowed && ! -e $dir/$lib ]]; then
        log "FAIL: $(basename "$f") needs $lib, which the device does not have"
        bad=1
      fi
    done < <(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    if readelf -d "$f" | grep -E "R(UN)?PATH" | grep -vq '\[\$ORIGIN\]'; then
      log "FAIL: $(basename "$f") has a RUNPATH other than \$ORIGIN: $(readelf -d "$f" | grep -E 'R(UN)?PATH')"
      bad=1
    fi
  done
  local bytes
  bytes=$(du -sb "$dir" | cut -f1)
  if ((bytes > max_bytes)); then
    log "FAIL: $dir holds $bytes bytes, more than 16 MiB"
    bad=1
  fi
  # The C library it was linked against sets the oldest one it starts with (static libstdc++
  # uses arc4random, glibc 2.36, where the build machine has it).
  local glibc
  glibc=$(objdump -T "$dir"/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1)
  ((bad)) || log "bundle $dir: $((bytes >> 10)) KiB, needs only libc (${glibc:-?} or newer) and the CUDA libraries"
  return $bad
}

if ((check_only)); then
  check_bundle "$bundle"
  exit
fi

# lay_out BUILD: the bundle's files from a build tree, stripped, with the commit they came from.
lay_out() {
  local from=$1
  rm -rf "$bundle"
  mkdir -p "$bundle"
  cp "$from/dlsize" "$from/dlsize-cuda.so" "$from/tests/gpu/dlsize_gpu_tests" "$bundle/" || return 1
  if [[ ${DLSIZE_BUNDLE_EXTRA:-} == *dlsize_fake_cuda* ]]; then
    cp "$from/tests/modules/dlsize_fake_cuda.so" "$bundle/" || return 1
  fi
  strip --strip-unneeded "$bundle"/*
  git rev-parse --short HEAD >"$bundle/COMMIT" 2>/dev/null || echo unknown >"$bundle/COMMIT"
}

if [[ -n $from_build ]]; then
  lay_out "$from_build" || { log "FAIL: $from_build lacks a bundle's files (a CUDA build with tests)"; exit 1; }
  log "bundle $bundle laid out from $from_build (not portable: for the rehearsal only)"
  exit 0
fi

command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]] || {
  log "nvcc not found: the bundle needs the CUDA toolkit with cuDNN and NCCL"
  exit 1
}
mkdir -p "$build"
if [[ ! -f $build/build.ninja ]]; then
  log "configuring $build"
  # ccache, where there is one, shares objects between bundle trees (the rehearsal's and this).
  launcher=()
  command -v ccache >/dev/null &&
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  nice -n 10 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLSIZE_PORTABLE=ON \
    -DDLSIZE_WITH_MPI=OFF -DDLSIZE_WITH_S3=OFF -DDLSIZE_WITH_CUDA=ON -DDLSIZE_TESTS=ON "${launcher[@]}" \
    -DCMAKE_CUDA_ARCHITECTURES="80-real;90-real;90-virtual" >"$build/configure.log" 2>&1 ||
    { log "configure failed: see $build/configure.log"; exit 1; }
fi
# Only what the device runs: not the unit tests, which CI runs in the ordinary build.
read -ra extra <<<"${DLSIZE_BUNDLE_EXTRA:-}"
targets=(dlsize dlsize_cuda dlsize_gpu_tests "${extra[@]}")
log "building ${targets[*]} in $build"
nice -n 10 ninja -C "$build" -j "${DLSIZE_JOBS:-2}" "${targets[@]}" >"$build/bundle-build.log" 2>&1 ||
  { tail -20 "$build/bundle-build.log" >&2; log "build failed: see $build/bundle-build.log"; exit 1; }

lay_out "$build" || exit 1
check_bundle "$bundle"
