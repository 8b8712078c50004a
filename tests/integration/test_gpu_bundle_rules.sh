#!/usr/bin/env bash
# labels: gpu
# The GPU bundle's rules (scripts/gpu-bundle.sh --check-only), on small binaries made here so the
# suite needs no second build of the project: a bundle of binaries that need only libc, with
# RUNPATH $ORIGIN, passes; one that needs a library the device lacks, has a RUNPATH into this
# machine's folders, or is over 16 MiB fails, naming what is wrong. And the portable flavour
# (-DDLSIZE_PORTABLE=ON) still configures, with the link rules the bundle relies on.
source "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null && command -v readelf >/dev/null || { echo "skipped: gcc or readelf missing"; exit 77; }
check=$ROOT/scripts/gpu-bundle.sh
src=$SCRATCH/main.c
cat >"$src" <<'EOF'
#include <math.h>
#include <stdio.h>
int main(int argc, char** argv) { printf("%f\n", sqrt((double)argc)); return argv[0][0] == 0; }
EOF
# bundle NAME GCC_ARGS...: a folder holding one "dlsize" built with those arguments.
bundle() {
  local dir=$SCRATCH/$1
  shift
  mkdir -p "$dir"
  gcc -O1 -o "$dir/dlsize" "$src" "$@" || fail "gcc $*"
  echo "$dir"
}

good=$(bundle good -lm -Wl,-rpath,'$ORIGIN')
expect_rc 0 "a bundle needing only libc and libm, RUNPATH \$ORIGIN, passes" -- bash "$check" --check-only "$good"
expect_text "needs only libc" "the good bundle's summary says what it needs"

zlib=$(ls /usr/lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)
if [[ -n $zlib ]]; then
  bad=$(bundle needs-libz -lm -Wl,--no-as-needed "$zlib" -Wl,-rpath,'$ORIGIN')
  expect_rc 1 "a bundle needing libz fails" -- bash "$check" --check-only "$bad"
  expect_text "needs libz.so" "the failure names the library the device lacks"
else
  fail "no libz here to build the failing case"
fi

bad=$(bundle runpath -lm -Wl,-rpath,/usr/local/cuda/lib64)
expect_rc 1 "a RUNPATH into this machine's folders fails" -- bash "$check" --check-only "$bad"
expect_text "RUNPATH other than" "the failure names the RUNPATH"

big=$(bundle big -lm -Wl,-rpath,'$ORIGIN')
head -c $((17 << 20)) /dev/zero >"$big/data.bin"
expect_rc 1 "a bundle over 16 MiB fails" -- bash "$check" --check-only "$big"
expect_text "more than 16 MiB" "the failure gives the size"

expect_rc 1 "a folder without dlsize fails" -- bash "$check" --check-only "$SCRATCH/none"

# The portable flavour configures, and its link lines carry the rules (configure only: the
# real build is scripts/gpu-bundle.sh's).
if command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=$PATH:/usr/local/cuda/bin
  tree=$SCRATCH/portable
  if cmake -S "$ROOT" -B "$tree" -G Ninja -DDLSIZE_PORTABLE=ON -DDLSIZE_WITH_MPI=OFF \
    -DDLSIZE_WITH_CUDA=ON -DDLSIZE_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real >"$SCRATCH/configure.log" 2>&1; then
    pass "the portable flavour configures"
    grep -q "static-libstdc++" "$tree/build.ninja" && pass "portable links libstdc++ statically" ||
      fail "no -static-libstdc++ in the portable link lines"
    grep -q 'liburing.a' "$tree/build.ninja" && pass "portable links liburing statically" ||
      fail "no liburing.a in the portable link lines"
    rpaths=$(grep -o -- '-Wl,-rpath,[^ ]*' "$tree/build.ninja" | sort -u)
    [[ -n $rpaths && $rpaths != *cuda* && $rpaths == *ORIGIN* ]] &&
      pass "portable binaries look for libraries next to themselves only" ||
      fail "portable RUNPATHs: ${rpaths:-none}"
  else
    fail "the portable flavour does not configure: $(tail -5 "$SCRATCH/configure.log")"
  fi
fi
finish
