#!/usr/bin/env bash
# Read-only means atimes too: bench over an indexed folder opens its files with O_NOATIME, so
# their access times stay as they were, with io_uring and psync, per-sample opens and --open keep.
# As a user who does not own the files the kernel refuses O_NOATIME (EPERM): the run falls back to
# plain opens and still reads everything. A scratch file system that never updates atimes
# (noatime) cannot tell either way: that part is skipped.
source "$(dirname "$0")/lib.sh"
D=$SCRATCH/d
I=$SCRATCH/i.json
mkdir -p "$D/sub"
for k in 1 2 3 4 5 6; do head -c 20000 /dev/urandom >"$D/sub/f$k.bin"; done
expect_rc 0 "index the folder" -- "$DLSIZE" index "$D" --out "$I" --quiet
samples=$(head -1 "$I" | json /dev/stdin 'r["counts"]["samples"]')
old=978307200 # 2001-01-01: older than a day, so relatime would update it on a read
age() { touch -a -d @$old "$@"; }
atimes() { stat -c %X "$D"/sub/*.bin | sort -u | tr '\n' ' '; }
bench=(bench --index "$I" --workload resnet50 --accelerator none --quiet)

engines=(psync)
have_io_uring && engines+=(io_uring)
have_io_uring || skip_part "io_uring: the kernel refuses rings here; psync only"
echo x >"$SCRATCH/probe" && age "$SCRATCH/probe"
cat "$SCRATCH/probe" >/dev/null
if [[ $(stat -c %X "$SCRATCH/probe") == "$old" ]]; then
  skip_part "the scratch file system does not update atimes on a read (noatime): O_NOATIME cannot be told apart"
else
  pass "a plain read of a file here updates its atime (the control)"
  for e in "${engines[@]}"; do
    for o in per-sample keep; do
      age "$D"/sub/*.bin
      expect_rc 0 "bench --engine $e --open $o" -- "$DLSIZE" "${bench[@]}" --engine $e --open $o --out "$SCRATCH/$e-$o.json"
      [[ $(json "$SCRATCH/$e-$o.json" "r['summary']['samples']") == "$samples" && $(atimes) == "$old " ]] \
        && pass "$e, --open $o: every file read, no atime changed" || fail "$e, --open $o: atimes $(atimes) (wanted $old)"
    done
  done
fi

# Not the owner: O_NOATIME is refused (EPERM) and plain opens follow, once, without failing.
if command -v setpriv >/dev/null && [[ $(id -u) -eq 0 ]]; then
  nb=$(mktemp -d /tmp/dlsize-noatime.XXXXXX)
  cp -r "$D" "$nb/d" && cp "$DLSIZE" "$nb/dlsize" && mkdir "$nb/out" && chown 65534 "$nb/out" && chmod -R a+rX "$nb"
  "$DLSIZE" index "$nb/d" --out "$nb/i.json" --quiet >/dev/null 2>&1
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  if "${as_nobody[@]}" "$nb/dlsize" --version >/dev/null 2>&1; then
    for e in "${engines[@]}"; do
      expect_rc 0 "bench --engine $e as a user who does not own the files" -- "${as_nobody[@]}" "$nb/dlsize" bench --index "$nb/i.json" \
        --workload resnet50 --accelerator none --quiet --engine $e --open per-sample --out "$nb/out/$e.json"
      [[ $(json "$nb/out/$e.json" "r['status'], r['summary']['samples']") == "complete $samples" ]] \
        && pass "$e: O_NOATIME refused, every file read all the same" || fail "$e as nobody: $(json "$nb/out/$e.json" "r['status'], r.get('reason')")"
    done
  else
    skip_part "an unprivileged user cannot run dlsize from /tmp here"
  fi
  rm -rf "$nb"
else
  skip_part "the not-the-owner case needs root and setpriv to drop to an unprivileged user"
fi
finish
