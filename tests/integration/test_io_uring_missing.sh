#!/usr/bin/env bash
# labels: faults
# Where the kernel refuses io_uring rings (sysctl kernel.io_uring_disabled, a seccomp filter;
# DLSIZE_DISABLE_IO_URING=1 stands in for both): --version says so, bench falls back to psync
# and says why in the report, and a test about io_uring itself skips (77) instead of failing.
source "$(dirname "$0")/lib.sh"
export DLSIZE_DISABLE_IO_URING=1
"$DLSIZE" --version | grep -q "io_uring: no (.*DLSIZE_DISABLE_IO_URING" && pass "--version: io_uring not usable, and why" \
  || fail "--version: $("$DLSIZE" --version | grep io_uring)"
ds=$SCRATCH/ds
expect_rc 0 "datagen" -- "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 8MiB --quiet
expect_rc 0 "bench asks for io_uring" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --quiet --out "$SCRATCH/r.json"
[[ $(json "$SCRATCH/r.json" "r['io']['engine'] == 'psync' and any('io_uring unavailable' in w for w in r['warnings'])") == True ]] \
  && pass "bench fell back to psync and the report says why" || fail "fallback: $(json "$SCRATCH/r.json" "r['io']['engine'], r['warnings']")"
bash "$(dirname "$0")/test_engines.sh" "$DLSIZE" >"$SCRATCH/engines.log" 2>&1
rc=$?
[[ $rc -eq 77 ]] && pass "the engines test skips (77) without io_uring" || fail "engines test exit $rc: $(tail -3 "$SCRATCH/engines.log")"
finish
