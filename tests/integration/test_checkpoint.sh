#!/usr/bin/env bash
# dlsize checkpoint: a scaled llama3-8b checkpoint written and read back verified on the local
# disk, by one rank and over mpiexec -np 2 and 4, each rank writing exactly its share (MLPerf
# Storage's rule, docs/checkpoint.md); a corrupted and a stale block are found on read; foreign
# and non-empty folders and a file system without room are refused before any write; SIGINT
# leaves an incomplete report and no partial shard; checkpoint-only profiles refuse bench.
# labels: integration mpi
source "$(dirname "$0")/lib.sh"
require_io_uring # the checkpoint writer is io_uring only
GiB=$((1 << 30))
scale=0.0001220703125 # 1/8192: 105 GiB becomes 13,762,560 bytes
ck=(checkpoint --workload llama3-8b --scale $scale --quiet)

# One rank: the job re-laid on 1 rank writes the whole (scaled) checkpoint, two files per rank.
expect_rc 0 "a scaled llama3-8b checkpoint by one rank" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/one" \
  --writes 2 --reads 2 --files-per-rank 2 --accelerator b200 --out "$SCRATCH/one.json"
# MLPerf Storage v3.0's checkpoint rules (the default --rules): 8 b200 hold 105 GiB, O_DIRECT
# reads; but the checkpoints and the report share a file system (§4.4.2), which fails the run.
[[ $(json "$SCRATCH/one.json" "r['mlperf_validity']['rules_edition'], r['mlperf_validity']['verdict'], [x['verdict'] for x in r['mlperf_validity']['rules']]") == "v3 INVALID ['PASS', 'PASS', 'PASS', 'FAIL']" ]] \
  && pass "v3's checkpoint rules: subset, memory and cache pass; one file system for both fails" || fail "validity: $(json "$SCRATCH/one.json" "r['mlperf_validity']")"
[[ $(json "$SCRATCH/one.json" "(lambda f, m: not f['separate'] and f['checkpoints_device'] == f['results_device'] and m == 'checkpoints on %s, results on %s' % (f['checkpoints_device'], f['results_device']))(r['fs_separation'], r['mlperf_validity']['rules'][3]['measured'])") == True ]] \
  && pass "the report records the devices of --dir and --out, and the rule says them" || fail "fs_separation: $(json "$SCRATCH/one.json" "r.get('fs_separation')")"
[[ $(json "$SCRATCH/one.json" "r['checkpoint']['bytes_per_rank']") == "[$((105 * GiB / 8192))]" ]] \
  && pass "one rank writes 105 GiB / 8192 bytes" || fail "bytes per rank: $(json "$SCRATCH/one.json" "r['checkpoint']['bytes_per_rank']")"
[[ $(json "$SCRATCH/one.json" "r['checkpoint']['write']['per_rank'][0]['bytes']") == $((2 * 105 * GiB / 8192)) ]] \
  && pass "two checkpoints' bytes written" || fail "bytes written: $(json "$SCRATCH/one.json" "r['checkpoint']['write']")"
[[ $(json "$SCRATCH/one.json" "(r['status'], r['checkpoint']['read']['verify']['mismatches'], r['checkpoint']['read']['verify']['blocks'] > 0)") == "('complete', 0, True)" ]] \
  && pass "read back and verified" || fail "verify: $(json "$SCRATCH/one.json" "r['checkpoint']['read']['verify']")"
[[ $(json "$SCRATCH/one.json" "all(r['checkpoint'][p]['bytes_per_s'] > 0 and r['checkpoint'][p]['throughput_bytes_per_s'] > 0 for p in ('write', 'read'))") == True ]] \
  && pass "write and read bandwidth reported" || fail "bandwidth missing"
[[ $(json "$SCRATCH/one.json" "r['checkpoint']['write']['fsync_latency']['count']") == 4 ]] \
  && pass "one fsync per file" || fail "fsyncs: $(json "$SCRATCH/one.json" "r['checkpoint']['write']['fsync_latency']['count']")"
[[ $(json "$SCRATCH/one.json" "r['checkpoint']['write']['generation']['starved_share'] < 0.5") == True ]] \
  && pass "the writer hardly waits on data generation" || fail "generation: $(json "$SCRATCH/one.json" "r['checkpoint']['write']['generation']")"
[[ ! -e $SCRATCH/one ]] && pass "without --keep the folder it made is gone" || fail "left: $(ls -A "$SCRATCH/one")"

# Reads go oldest first (to defeat caches that keep the newest): of 3 written with --keep-last 2,
# checkpoints 2 then 3 are read, in that order (the report's runs are in the order done).
expect_rc 0 "three checkpoints written, two kept, two read" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/old" \
  --writes 3 --keep-last 2 --reads 2 --out "$SCRATCH/old.json"
[[ $(json "$SCRATCH/old.json" "[x['checkpoint'] for x in r['checkpoint']['write']['runs']], [x['checkpoint'] for x in r['checkpoint']['read']['runs']]") == "[1, 2, 3] [2, 3]" ]] \
  && pass "the restore reads the kept checkpoints oldest first" || fail "order: $(json "$SCRATCH/old.json" "[x['checkpoint'] for x in r['checkpoint']['read']['runs']]")"

# --time-limit: no checkpoint starts after it; the report is complete and says so.
expect_rc 0 "a time-limited run" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/tl" --writes 3 --reads 0 --time-limit 1ms --rules v2 --out "$SCRATCH/tl.json"
[[ $(json "$SCRATCH/tl.json" "r['mlperf_validity']['rules_edition'], r['mlperf_validity']['verdict']") == "v2 not proven" ]] \
  && pass "--rules v2 judges no checkpoint rule" || fail "v2: $(json "$SCRATCH/tl.json" "r['mlperf_validity']")"
[[ $(json "$SCRATCH/old.json" "r['mlperf_validity']['verdict'], r['mlperf_validity']['rules'][1]['verdict']") == "INVALID FAIL" ]] \
  && pass "v3 fails a run that declares no accelerator" || fail "no accelerator: $(json "$SCRATCH/old.json" "r['mlperf_validity']")"
expect_rc 2 "an accelerator outside v3.0's Table 3 is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/acc" --accelerator h200
expect_rc 2 "an unknown edition of the rules is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/acc" --rules v4
[[ $(json "$SCRATCH/tl.json" "r['status'], r['checkpoint']['write']['count'] < 3, any('--time-limit' in w for w in r['warnings'])") == "complete True True" ]] \
  && pass "--time-limit stops the writes with a warning" || fail "time limit: $(json "$SCRATCH/tl.json" "r['status'], r['warnings']")"

# --dedupe-percent / --compress-percent (fio's knobs): measured on the shard itself, by zlib and by
# counting 64 KiB blocks whose payload (after the 64-byte header) repeats; read back verified.
expect_rc 0 "a checkpoint with 50 % dedupe and 50 % compressible payload" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc" \
  --writes 1 --reads 1 --keep --request-size 64KiB --dedupe-percent 50 --compress-percent 50 --out "$SCRATCH/dc.json"
[[ $(json "$SCRATCH/dc.json" "r['checkpoint']['dedupe_percent'], r['checkpoint']['compress_percent'], r['checkpoint']['read']['verify']['mismatches'], r['status']") == "50 50 0 complete" ]] \
  && pass "the knobs are reported and every block verifies" || fail "dc report: $(json "$SCRATCH/dc.json" "r['checkpoint']['read']['verify'], r['status']")"
content() { /usr/bin/python3 -c '
import sys, zlib
d = open(sys.argv[1], "rb").read(); B = 65536
pay = [d[i + 64:i + B] for i in range(0, len(d) - B + 1, B)]
seen = {}
for p in pay: seen[p] = seen.get(p, 0) + 1
rep = sum(1 for p in pay if seen[p] > 1) / len(pay)
print(f"{rep:.2f} {len(zlib.compress(d[:8 << 20], 1)) / len(d[:8 << 20]):.2f}")' "$1"; }
read -r rep ratio <<<"$(content "$SCRATCH/dc/checkpoint-000001/rank-00000.file-000.shard")"
/usr/bin/python3 -c "import sys; sys.exit(not (0.35 <= $rep <= 0.65))" \
  && pass "about half the blocks repeat another's payload ($rep)" || fail "repeated share $rep"
/usr/bin/python3 -c "import sys; sys.exit(not (0.2 <= $ratio <= 0.6))" \
  && pass "zlib shrinks the shard well below its size ($ratio)" || fail "zlib ratio $ratio"
expect_rc 2 "a percent over 100 is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc2" --compress-percent 101
expect_text "--compress-percent: 101 is out of range. valid: an integer from 0 to 100" "the refusal names the option"
expect_rc 0 "the kept checkpoint read back with --no-verify" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc" --writes 0 --reads 1 --no-verify --out "$SCRATCH/nv.json"
[[ $(json "$SCRATCH/nv.json" "r['checkpoint']['read']['verify']['enabled'], r['checkpoint']['read']['verify']['blocks'], r['checkpoint']['read']['bytes'] > 0, any('--no-verify' in w for w in r['warnings'])") == "False 0 True True" ]] \
  && pass "--no-verify reads without checking and says so" || fail "no-verify: $(json "$SCRATCH/nv.json" "r['checkpoint']['read']['verify'], r['warnings']")"
# A restore reports what the writes put in the blocks (the folder's manifest records it), not
# its own command line's defaults; a command line that says otherwise is refused.
[[ $(json "$SCRATCH/nv.json" "r['checkpoint']['dedupe_percent'], r['checkpoint']['compress_percent'], r['checkpoint']['scale']") == "50 50 $scale" ]] \
  && pass "the restore reports the percents the checkpoints were written with" || fail "restore content: $(json "$SCRATCH/nv.json" "r['checkpoint']['dedupe_percent'], r['checkpoint']['compress_percent'], r['checkpoint']['scale']")"
[[ $(json "$SCRATCH/dc/dlsize-checkpoint.json" "r['content']['dedupe_percent'], r['content']['compress_percent']") == "50 50" ]] \
  && pass "the manifest records the content" || fail "manifest content: $(cat "$SCRATCH/dc/dlsize-checkpoint.json")"
expect_rc 2 "a restore given other percents than were written is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc" --writes 0 --reads 1 --dedupe-percent 10
expect_text "--dedupe-percent: 10 given, but the checkpoints in" "the refusal names the option and the manifest's figure"
expect_rc 2 "a restore of another workload is refused" -- "$DLSIZE" checkpoint --workload llama3-70b --dir "$SCRATCH/dc" --writes 0 --reads 1 --quiet
[[ $(json "$SCRATCH/dc.json" "r['checkpoint']['read']['verify']['enabled']") == True ]] && pass "verification is on by default" || fail "verify not enabled by default"
# --drop-caches: only when asked and permitted. A control file of the test's own stands in for
# /proc/sys/vm/drop_caches so that the host's cache is left alone.
[[ $(json "$SCRATCH/dc.json" "r['checkpoint']['caches_dropped']") == False ]] && pass "no caches dropped unless asked" || fail "caches dropped unasked"
expect_rc 2 "--drop-caches where the control file is not writable is refused" -- env DLSIZE_DROP_CACHES_FILE="$SCRATCH/none/drop_caches" \
  "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc" --writes 0 --reads 1 --drop-caches --out "$SCRATCH/dd0.json"
expect_text "--drop-caches: refused" "the refusal names the option"
[[ ! -e $SCRATCH/dd0.json ]] && pass "a refused --drop-caches writes no report" || fail "report written"
if [[ $(id -u) -eq 0 ]]; then
  : >"$SCRATCH/drop_caches"
  expect_rc 0 "--drop-caches as root" -- env DLSIZE_DROP_CACHES_FILE="$SCRATCH/drop_caches" \
    "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc" --writes 0 --reads 1 --drop-caches --out "$SCRATCH/dd.json"
  [[ $(cat "$SCRATCH/drop_caches") == 3 && $(json "$SCRATCH/dd.json" "r['checkpoint']['caches_dropped']") == True ]] \
    && pass "the caches were dropped before the read and the report says so" || fail "drop: '$(cat "$SCRATCH/drop_caches")' $(json "$SCRATCH/dd.json" "r['checkpoint']['caches_dropped']")"
else
  expect_rc 2 "--drop-caches as a user is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/dc" --writes 0 --reads 1 --drop-caches
  expect_text "not root" "the refusal says why"
fi
rm -rf "$SCRATCH/dc"

# Safety: a non-empty foreign folder, a file where a folder should be, --writes 0 on a foreign one.
mkdir -p "$SCRATCH/foreign" && echo keep >"$SCRATCH/foreign/mine.txt"
expect_rc 2 "a non-empty foreign folder is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/foreign" --writes 1 --reads 1
expect_text "not empty and is not a dlsize checkpoint folder" "the refusal says why"
expect_rc 2 "--writes 0 on a foreign folder is refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/foreign" --writes 0 --reads 1
expect_text "not a dlsize checkpoint folder" "the refusal names the folder as foreign"
[[ $(ls -A "$SCRATCH/foreign") == mine.txt && $(cat "$SCRATCH/foreign/mine.txt") == keep ]] \
  && pass "the foreign folder is untouched" || fail "foreign folder changed: $(ls -A "$SCRATCH/foreign")"
expect_rc 2 "more reads than kept checkpoints are refused" -- "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/k" --writes 3 --keep-last 1 --reads 2
expect_rc 2 "bench refuses a checkpoint-only profile" -- "$DLSIZE" bench --workload llama3-8b --dataset "$SCRATCH/ds" --quiet
expect_text "checkpoint-only profile" "bench says the profile has no dataset"
expect_rc 2 "datagen refuses a checkpoint-only profile" -- "$DLSIZE" datagen --workload llama3-405b --dataset "$SCRATCH/ds" --size 1MiB
expect_rc 2 "a rank count that does not divide TP x PP is refused" -- "$DLSIZE" checkpoint --workload llama3-70b --dir "$SCRATCH/70" --quiet
expect_text "multiple of 8" "the refusal names the multiple"

# with_tmpfs SIZE DIR -- command...: runs it with a tmpfs of SIZE at DIR: mounted here as root
# (once, unmounted at exit), else in a user and mount namespace of its own; 77 where neither can.
tmpfs_made=()
trap 'for m in "${tmpfs_made[@]}"; do umount "$m" 2>/dev/null; done; rm -rf "$SCRATCH"' EXIT
with_tmpfs() {
  local size=$1 dir=$2
  shift 3
  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]] && { mountpoint -q "$dir" || { mount -t tmpfs -o size="$size" dlsize-test "$dir" 2>/dev/null && tmpfs_made+=("$dir"); }; }; then
    "$@"
  elif unshare -rm true 2>/dev/null; then
    unshare -rm bash -c 'mount -t tmpfs -o size="$0" dlsize-test "$1" && exec "${@:2}"' "$size" "$dir" "$@"
  else
    return 77
  fi
}
# Free space: 2 coexisting checkpoints of 13 MiB do not fit an 8 MiB tmpfs.
mnt=$SCRATCH/small
in_tmpfs() { with_tmpfs 8m "$mnt" -- "$@"; }
if in_tmpfs true; then
  expect_rc 2 "a checkpoint larger than the free space is refused" -- in_tmpfs bash -c '"$0" "${@:2}" --dir "$1/ck"; rc=$?; [[ -z $(ls -A "$1") ]] || { echo "files were written: $(ls -A "$1")" >&2; exit 3; }; exit $rc' "$DLSIZE" "$mnt" "${ck[@]}" --writes 2 --reads 0 --cache buffered
  expect_text "free for this user (statvfs f_bavail)" "the message names the free space"
  expect_text "2 coexisting checkpoint(s) of 13762560 bytes each" "the message names what coexists"
else
  skip_part "free-space refusal: cannot mount a tmpfs here"
fi

# ENOSPC mid-write: a tmpfs of 26880 KiB holds exactly the 2 coexisting checkpoints the
# free-space check counts (2 x 13762560 bytes), but not the folder's manifest beside them, so
# the second checkpoint's last write fails with a real ENOSPC. The run still ends with its report
# (outside the tmpfs): incomplete, the phase, the file and the error named, the first checkpoint's
# figures kept, and nothing of this run left on the file system.
full=$SCRATCH/full
in_full() { with_tmpfs 26880k "$full" -- "$@"; }
if in_full true; then
  out=$SCRATCH/enospc.json
  expect_rc 1 "ENOSPC while writing the second checkpoint" -- in_full bash -c '"$0" "${@:2}" --dir "$1/ck"; rc=$?; [[ -z $(ls -A "$1") ]] || { echo "left on the file system: $(ls -AR "$1")" >&2; exit 3; }; exit $rc' \
    "$DLSIZE" "$full" "${ck[@]}" --writes 2 --reads 1 --cache buffered --out "$out"
  [[ $(json "$out" "r['status'] == 'incomplete' and r['reason'].startswith('failed: writing checkpoint 2: rank 0: write failed: No space left on device. file: ')") == True ]] \
    && pass "ENOSPC: the reason names the phase, the checkpoint, the error and the file" || fail "ENOSPC reason: $(json "$out" "r.get('reason')" 2>&1)"
  [[ $(json "$out" "(lambda f: f['phase'] == 'write' and f['checkpoint'] == 2 and f['file'].endswith('.checkpoint-000002.partial/rank-00000.file-000.shard') and 'No space left on device' in f['error'])(r['checkpoint']['failure'])") == True ]] \
    && pass "ENOSPC: the failure block gives phase, checkpoint, file and error" || fail "ENOSPC failure block: $(json "$out" "r['checkpoint'].get('failure')" 2>&1)"
  [[ $(json "$out" "(lambda c: c['write']['count'] == 1 and c['write']['runs'][0]['checkpoint'] == 1 and c['write']['bytes'] == 13762560 and c['write']['bytes_per_s'] > 0 and c['read']['count'] == 0)(r['checkpoint'])") == True ]] \
    && pass "ENOSPC: the first checkpoint's write figures are kept, no read follows" || fail "ENOSPC write block: $(json "$out" "r['checkpoint']['write']" 2>&1 | head -c 400)"
  expect_text "dlsize: checkpoint incomplete: failed: writing checkpoint 2" "ENOSPC: stderr says why the run is incomplete"
  [[ $(json "$out" "r['fs_separation']['separate'] and r['mlperf_validity']['rules'][3]['verdict'] == 'PASS'") == True ]] \
    && pass "checkpoints on the tmpfs, the report outside it: the file-system rule passes" || fail "separation on a tmpfs: $(json "$out" "(r.get('fs_separation'), r['mlperf_validity']['rules'][3])" 2>&1)"
else
  skip_part "ENOSPC mid-write: cannot mount a tmpfs here"
fi

# SIGINT while writing: exit 1, an incomplete report, the checkpoint being written removed.
"$DLSIZE" checkpoint --workload llama3-8b --scale 0.005 --dir "$SCRATCH/int" --keep --quiet --out "$SCRATCH/int.json" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [[ -n $(ls -A "$SCRATCH/int" 2>/dev/null | grep partial) ]] && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
[[ $rc -eq 1 ]] && pass "interrupted checkpoint exits 1" || fail "interrupted exit $rc"
[[ $(json "$SCRATCH/int.json" "r['status']") == incomplete && $(json "$SCRATCH/int.json" "'signal 2' in r['reason']") == True ]] \
  && pass "the report is incomplete and says why" || fail "report: $(head -c 300 "$SCRATCH/int.json")"
[[ -z $(find "$SCRATCH/int" -name '*.partial*') ]] && pass "no partial shard is left" || fail "partial left: $(find "$SCRATCH/int")"
rm -rf "$SCRATCH/int"

MPIEXEC=${DLSIZE_MPIEXEC:-}
if [[ -z $MPIEXEC ]] || ! "$DLSIZE" --version | grep -q "mpi: yes"; then
  skip_part "mpiexec: this build has no MPI"
  finish
fi
mpi() { local n=$1; shift; timeout -k 5 60 "$MPIEXEC" -np "$n" "$@"; }
for n in 2 4; do
  expect_rc 0 "llama3-8b by $n ranks at once" -- mpi $n "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/mpi$n" --writes 2 --reads 2 --keep --out "$SCRATCH/mpi$n.json"
  share=$((105 * GiB / 8192 / n))
  want=$(python3 -c "print([$share] * $n)")
  [[ $(json "$SCRATCH/mpi$n.json" "r['checkpoint']['bytes_per_rank']") == "$want" ]] \
    && pass "$n ranks: each writes $share bytes" || fail "$n ranks: $(json "$SCRATCH/mpi$n.json" "r['checkpoint']['bytes_per_rank']")"
  on_disk=$(stat -c %s "$SCRATCH/mpi$n"/checkpoint-000002/rank-*.shard | sort -u)
  [[ $on_disk == "$share" && $(ls "$SCRATCH/mpi$n"/checkpoint-000002 | wc -l) == "$n" ]] \
    && pass "$n ranks: the shards on disk have those sizes" || fail "$n ranks on disk: $on_disk"
  [[ $(json "$SCRATCH/mpi$n.json" "(r['checkpoint']['read']['verify']['mismatches'], len(r['checkpoint']['write']['runs'][0]['ranks']), r['checkpoint']['write']['runs'][0]['duration_s'] == max(x['seconds'] for x in r['checkpoint']['write']['runs'][0]['ranks']))") == "(0, $n, True)" ]] \
    && pass "$n ranks: verified, per-rank rows, duration is the slowest rank's" || fail "$n ranks: $(json "$SCRATCH/mpi$n.json" "r['checkpoint']['write']['runs'][0]")"
done

# A kept folder is read again by --writes 0; a corrupted block and a stale one are named.
f1=$SCRATCH/mpi2/checkpoint-000001/rank-00001.file-000.shard
printf 'XYZ' | dd of="$f1" bs=1 seek=$((1048576 + 5000)) conv=notrunc status=none
dd if="$SCRATCH/mpi2/checkpoint-000001/rank-00000.file-000.shard" of="$SCRATCH/mpi2/checkpoint-000002/rank-00000.file-000.shard" \
  bs=1M skip=2 seek=2 count=1 conv=notrunc status=none
expect_rc 1 "reading back damaged checkpoints fails" -- mpi 2 "$DLSIZE" checkpoint --workload llama3-8b --dir "$SCRATCH/mpi2" --writes 0 --reads 2 --quiet --out "$SCRATCH/bad.json"
expect_text "rank-00001.file-000.shard at offset 1048576" "the corrupted block is named with file and offset"
expect_text "(corrupted)" "it is called corrupted"
[[ $(json "$SCRATCH/bad.json" "r['status'], r['checkpoint']['read']['verify']['mismatches']") == "incomplete 2" ]] \
  && pass "the report is incomplete with both mismatches" || fail "bad report: $(json "$SCRATCH/bad.json" "r['status'], r.get('reason')")"
expect_text "written by checkpoint 1, expected 2" "the stale block is named"
[[ -d $SCRATCH/mpi2/checkpoint-000001 ]] && pass "--writes 0 removes nothing" || fail "kept checkpoints removed"
expect_rc 2 "a kept folder is not written over" -- mpi 2 "$DLSIZE" "${ck[@]}" --dir "$SCRATCH/mpi2" --writes 1 --reads 0
expect_text "already holds dlsize checkpoints" "the refusal says so"

# ZeRO 0 (unet3d): rank 0 saves everything; ZeRO 1 subset (llama3-405b): the full job's shares.
expect_rc 0 "unet3d by 2 ranks" -- mpi 2 "$DLSIZE" checkpoint --workload unet3d --scale 0.01 --dir "$SCRATCH/u" --writes 1 --reads 1 --keep --quiet --out "$SCRATCH/u.json"
[[ $(json "$SCRATCH/u.json" "r['checkpoint']['bytes_per_rank']") == "[4991531, 0]" ]] \
  && pass "unet3d: rank 0 writes the published checkpoint, rank 1 nothing" || fail "unet3d: $(json "$SCRATCH/u.json" "r['checkpoint']['bytes_per_rank']")"
# --read-shift 1: rank 1 reads what rank 0 wrote, rank 0 what rank 1 wrote (nothing).
expect_rc 0 "unet3d read back with ranks shifted" -- mpi 2 "$DLSIZE" checkpoint --workload unet3d --dir "$SCRATCH/u" --writes 0 --reads 1 --read-shift 1 --quiet --out "$SCRATCH/u2.json"
[[ $(json "$SCRATCH/u2.json" "[x['bytes'] for x in r['checkpoint']['read']['per_rank']], r['checkpoint']['read']['verify']['mismatches']") == "[0, 4991531] 0" ]] \
  && pass "--read-shift: rank 1 reads and verifies rank 0's shard" || fail "read shift: $(json "$SCRATCH/u2.json" "r['checkpoint']['read']['per_rank']")"
expect_rc 0 "llama3-405b subset by 2 ranks" -- mpi 2 "$DLSIZE" checkpoint --workload llama3-405b --subset --scale $scale --dir "$SCRATCH/s" --writes 1 --reads 1 --quiet --out "$SCRATCH/s.json"
want=$(python3 -c "s=int((755 * 2**30 // 256 + 0) * $scale) + int(4533 * 2**30 // 512 * $scale); print([s, s])")
[[ $(json "$SCRATCH/s.json" "r['checkpoint']['bytes_per_rank']") == "$want" && $(json "$SCRATCH/s.json" "r['checkpoint']['job_ranks']") == 512 ]] \
  && pass "405b subset: the first ranks' shares of the 512-rank job" || fail "405b subset: $(json "$SCRATCH/s.json" "r['checkpoint']['bytes_per_rank']") want $want"
rm -rf "$SCRATCH"/mpi* "$SCRATCH/u" "$SCRATCH/s"
finish
