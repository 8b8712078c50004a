#!/usr/bin/env bash
# dlsize checkpoint's fsync latencies on a real file system: an fsync on tmpfs costs nothing, and
# the scratch folder may be one, so a small ext4 loop image of the test's own is made (root,
# losetup, mkfs.ext4, mount; a skip without them) and a scaled llama3-8b checkpoint written there.
# Each file's fsync is recorded, costs a journal commit, and lies inside the write's duration.
source "$(dirname "$0")/lib.sh"
source "$ROOT/scripts/loop_fs.sh"
trap 'unmount_made; rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM

if [[ $(id -u) -ne 0 ]]; then
  echo "skip: making and mounting a loop image needs root"
  exit 77
fi
if ! command -v mkfs.ext4 >/dev/null || ! loop_fs ext4 "$SCRATCH/fs" 128M >"$SCRATCH/loop.log" 2>&1; then
  echo "skip: no ext4 loop image here: $(tail -n 3 "$SCRATCH/loop.log" 2>/dev/null)"
  exit 77
fi
mnt=$SCRATCH/fs/mnt
writes=2
expect_rc 0 "a scaled llama3-8b checkpoint on an ext4 loop image" -- "$DLSIZE" checkpoint --workload llama3-8b \
  --scale 0.0001220703125 --dir "$mnt/ck" --writes $writes --reads 1 --quiet --out "$SCRATCH/ext4.json"
[[ $(json "$SCRATCH/ext4.json" "r['checkpoint']['fs_type']") == ext4 ]] \
  && pass "the checkpoint went to the ext4 image" || fail "fs_type: $(json "$SCRATCH/ext4.json" "r['checkpoint']['fs_type']")"
fsync="r['checkpoint']['write']['fsync_latency']"
[[ $(json "$SCRATCH/ext4.json" "$fsync['count']") == $writes ]] \
  && pass "one fsync latency per file written" || fail "fsync count: $(json "$SCRATCH/ext4.json" "$fsync['count']")"
[[ $(json "$SCRATCH/ext4.json" "$fsync['histogram']['min'] > 0 and $fsync['mean_s'] > 0") == True ]] \
  && pass "every fsync latency is above zero" || fail "fsync latency: $(json "$SCRATCH/ext4.json" "$fsync['histogram']['min'], $fsync['mean_s']")"
# A new file's fsync on ext4 commits its journal (a write and a flush of the loop device): tens
# of microseconds at least, where tmpfs's returns in about one.
[[ $(json "$SCRATCH/ext4.json" "$fsync['histogram']['min'] > 10000") == True ]] \
  && pass "each fsync costs a journal commit (over 10 us)" || fail "fsync min $(json "$SCRATCH/ext4.json" "$fsync['histogram']['min']") ns"
# One rank, one file a checkpoint: each fsync is waited for inside its checkpoint's write.
[[ $(json "$SCRATCH/ext4.json" "$fsync['histogram']['sum'] * 1e-9 <= r['checkpoint']['write']['seconds'] and $fsync['max_s'] <= r['checkpoint']['write']['duration_s']['max']") == True ]] \
  && pass "the write durations include the fsyncs" || fail "fsync sum $(json "$SCRATCH/ext4.json" "$fsync['histogram']['sum']") ns, write $(json "$SCRATCH/ext4.json" "r['checkpoint']['write']['seconds']") s"
finish
