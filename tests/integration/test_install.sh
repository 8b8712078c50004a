#!/usr/bin/env bash
# `cmake --install` gives PREFIX/bin/dlsize that runs from there, finds its profiles, and finds
# the CUDA module where the build has one (PREFIX/lib/dlsize).
source "$(dirname "$0")/lib.sh"
build=$(dirname "$DLSIZE")
prefix=$SCRATCH/prefix
if cmake --install "$build" --prefix "$prefix" >"$SCRATCH/install.log" 2>&1; then
  pass "cmake --install into a prefix"
else
  fail "cmake --install: $(tail -5 "$SCRATCH/install.log")"
fi
expect_rc 0 "installed dlsize runs" -- "$prefix/bin/dlsize" --version
expect_text "io_uring" "installed dlsize lists its features"
expect_rc 0 "installed dlsize knows the embedded profiles" -- "$prefix/bin/dlsize" plan \
  --workload resnet50 --accelerator h100 --accelerators 4
# Only where this build made the module (CTest says so; a stale file from another configuration
# does not count).
if [[ ${DLSIZE_HAVE_CUDA:-0} == 1 ]]; then
  [[ -f $prefix/lib/dlsize/dlsize-cuda.so ]] && pass "CUDA module installed in lib/dlsize" ||
    fail "CUDA module not installed in lib/dlsize"
  "$prefix/bin/dlsize" --version >"$SCRATCH/v" 2>&1
  if grep -q "cuda module: $prefix/lib/dlsize/dlsize-cuda.so" "$SCRATCH/v"; then
    pass "installed dlsize finds its CUDA module"
  else
    fail "installed dlsize does not find its CUDA module: $(grep 'cuda module' "$SCRATCH/v")"
  fi
fi
finish
