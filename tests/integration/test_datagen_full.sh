#!/usr/bin/env bash
# labels: faults
# datagen on a file system too small for the dataset (an 8 MiB tmpfs) is refused before it
# writes anything, naming both figures; one that fits is written and verifies. Skips (77) where
# a tmpfs cannot be mounted (not root, and no user namespaces for `unshare -rm`).
source "$(dirname "$0")/lib.sh"
mnt=$SCRATCH/small
mkdir -p "$mnt"
# in_tmpfs COMMAND...: runs it with an 8 MiB tmpfs mounted on $mnt (as root directly; otherwise
# in a user and mount namespace of its own, where the mount ends with the command).
if [[ $(id -u) -eq 0 ]] && mount -t tmpfs -o size=8m dlsize-test "$mnt" 2>/dev/null; then
  trap 'umount "$mnt" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
  in_tmpfs() { "$@"; }
elif unshare -rm true 2>/dev/null; then
  in_tmpfs() { unshare -rm bash -c 'mount -t tmpfs -o size=8m dlsize-test "$0" && exec "$@"' "$mnt" "$@"; }
  in_tmpfs true || { echo "skip: cannot mount a tmpfs in a user namespace"; exit 77; }
else
  echo "skip: mounting a tmpfs is not permitted here"
  exit 77
fi

t0=$(date +%s.%N)
expect_rc 2 "datagen larger than an 8 MiB tmpfs is refused" -- in_tmpfs bash -c '"$0" datagen --workload resnet50 --layout files --dataset "$1" --size 12MiB --quiet; rc=$?; [[ -z $(ls -A "$1") ]] || { echo "files were written: $(ls -A "$1")" >&2; exit 3; }; exit $rc' "$DLSIZE" "$mnt"
t1=$(date +%s.%N)
expect_text "free for this user (statvfs f_bavail)" "the message names the free space"
expect_text "datagen would write" "the message names the bytes to write"
expect_text "nothing was written" "the message says nothing was written"
/usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < 5 else 1)" "$t0" "$t1" \
  && pass "refused up front" || fail "slow refusal: $t0..$t1"
expect_rc 0 "a dataset that fits is written and verifies" -- in_tmpfs bash -c '"$0" datagen --workload resnet50 --layout files --dataset "$1/ds" --size 4MiB --quiet && "$0" verify "$1/ds" --quiet' "$DLSIZE" "$mnt"
finish
