#!/usr/bin/env bash
# The fault suite: a run always ends and writes its report. Hung reads (and datagen's hung
# writes) come from a FUSE file system that never answers (tests/fault_fs), stopped by SIGINT or
# by --stall-timeout (bench, verify, datagen, checkpoint, index: hung stat and readdir too); read
# errors from the same file system; a 1 B/s rate cap stops at once on SIGINT and at
# --time-limit. Skips (77) where the fault file system is not built or cannot mount.
# labels: faults
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --layout files --dataset "$ds" --size 24MiB --quiet >/dev/null \
  || { echo "datagen failed"; exit 1; }

# Both engines where the kernel takes io_uring rings; psync alone (and the test skipped in part)
# where it does not, since bench would fall back and test psync twice.
engines=(io_uring psync)
have_io_uring || { skip_part "io_uring: the kernel refuses rings, so only psync ran"; engines=(psync); }

# --- no FUSE needed ---------------------------------------------------------------------------
expect_rc 2 "--time-limit 0s is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --time-limit 0s
expect_text "--time-limit" "the message names --time-limit"
expect_rc 2 "--stall-timeout below 1s is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --stall-timeout 200ms
# 1 B/s: a request reserves ~68 minutes; SIGINT must not wait it out.
for engine in "${engines[@]}"; do
  interrupt_after 1.0 -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --engine $engine --max-read-rate 1B/s --quiet --out "$SCRATCH/slow-$engine.json"
  [[ $(json "$SCRATCH/slow-$engine.json" "r['status']") == incomplete ]] && pass "1 B/s + SIGINT ($engine): incomplete report" || fail "1 B/s + SIGINT ($engine): no incomplete report"
done
# The same interrupt delivered twice (timeout and launchers signal the process and its group):
# still one stop with its report; a second Ctrl-C a second later ends the process at once.
"$DLSIZE" bench --workload resnet50 --dataset "$ds" --max-read-rate 1B/s --quiet --out "$SCRATCH/twice.json" 2>/dev/null &
pid=$!
for _ in $(seq 200); do compgen -G "$SCRATCH/twice.json.partial-*" >/dev/null && break; sleep 0.05; done
sleep 0.5
kill -INT $pid; kill -INT $pid
wait $pid
rc=$?
[[ $rc -eq 1 && $(json "$SCRATCH/twice.json" "r['status']") == incomplete ]] && pass "a signal delivered twice at once: exit 1, incomplete report" \
  || fail "a signal delivered twice: exit $rc"
t0=$(date +%s.%N)
expect_rc 0 "1 B/s with --time-limit 3s ends" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --max-read-rate 1B/s --time-limit 3s --quiet --out "$SCRATCH/limit.json"
t1=$(date +%s.%N)
$PY -c "import sys; d=float(sys.argv[2])-float(sys.argv[1]); sys.exit(0 if d < 6 else 1)" "$t0" "$t1" \
  && pass "--time-limit 3s at 1 B/s ends in about 3 s" || fail "--time-limit 3s at 1 B/s took $t0..$t1"

# Seeds: every value up to 2^64 - 1 is recorded exactly; negative or larger ones are refused.
expect_rc 0 "--seed 2^64-1 runs" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --seed 18446744073709551615 --time-limit 1s --quiet --out "$SCRATCH/seed.json"
[[ $(json "$SCRATCH/seed.json" "r['config']['seed']") == 18446744073709551615 ]] && pass "the seed is recorded exactly" || fail "seed recorded as $(json "$SCRATCH/seed.json" "r['config']['seed']")"
expect_rc 2 "--seed -1 is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --seed -1
expect_rc 2 "--seed 2^64 is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --seed 18446744073709551616

# Thread limits: root ignores RLIMIT_NPROC, so as nobody with `ulimit -u 8`. nobody may not reach
# the build folder (a private parent such as a CI checkout's): the binary and a small dataset go
# to a folder of their own under /tmp, removed afterwards.
if command -v setpriv >/dev/null && [[ $(id -u) -eq 0 ]]; then
  nobody=$(mktemp -d /tmp/dlsize-nobody.XXXXXX)
  chmod 755 "$nobody"
  cp "$DLSIZE" "$nobody/dlsize"
  "$DLSIZE" datagen --workload resnet50 --layout files --dataset "$nobody/ds" --size 2MiB --quiet >/dev/null
  chmod -R a+rX "$nobody"
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  if "${as_nobody[@]}" "$nobody/dlsize" --version >/dev/null 2>&1; then
    expect_rc 2 "--readers 64 under ulimit -u 8 is refused up front" -- "${as_nobody[@]}" \
      bash -c 'ulimit -u 8 && exec "$0" bench --workload resnet50 --dataset "$1" --readers 64 --quiet' "$nobody/dlsize" "$nobody/ds"
    expect_text "ulimit -u" "the message names the limit"
  else
    skip_part "the thread-limit case: an unprivileged user cannot run dlsize from /tmp here"
  fi
  rm -rf "$nobody"
else
  skip_part "the thread-limit case needs root and setpriv to drop to an unprivileged user"
fi

# --- the fault file system --------------------------------------------------------------------
FAULT_FS=${DLSIZE_FAULT_FS:-}
if [[ -z $FAULT_FS || ! -x $FAULT_FS ]]; then
  echo "skip: the fault file system is not built (libfuse3-dev missing at configure time)"
  finish; rc=$?; [[ $rc -eq 0 ]] && exit 77 || exit $rc
fi
if [[ ! -e /dev/fuse ]]; then
  echo "skip: no /dev/fuse"
  finish; rc=$?; [[ $rc -eq 0 ]] && exit 77 || exit $rc
fi
mnt=$SCRATCH/mnt
mkdir -p "$mnt"
FS_PID=
CONN=
# Releases the mount even with reads hung in it, so that CTest never hangs.
release_mount() {
  [[ -n $FS_PID ]] || return 0
  # The connection was noted at mount time: a stat of a mount with hung requests may hang too.
  [[ -n $CONN && -e /sys/fs/fuse/connections/$CONN/abort ]] && echo 1 >"/sys/fs/fuse/connections/$CONN/abort"
  # Where fusectl is not mounted (containers), the server's end aborts the connection too: the
  # kernel fails every request still waiting for it.
  kill -KILL "$FS_PID" 2>/dev/null
  wait "$FS_PID" 2>/dev/null
  fusermount3 -u -z "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
  FS_PID=
}
trap 'release_mount; rm -rf "$SCRATCH"' EXIT
# mount_faults RULE...: mounts $ds (or $FAULT_SRC, ready when it shows $FAULT_READY) at $mnt with
# these faults; exits 77 when it cannot.
mount_faults() {
  release_mount
  "$FAULT_FS" "${FAULT_SRC:-$ds}" "$mnt" "$@" 2>"$SCRATCH/fs.err" &
  FS_PID=$!
  for _ in $(seq 50); do
    if [[ -f $mnt/${FAULT_READY:-dlsize-dataset.json} ]]; then
      CONN=$($PY -c "import os,sys; print(os.minor(os.stat(sys.argv[1]).st_dev))" "$mnt")
      return 0
    fi
    kill -0 "$FS_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "skip: the fault file system did not mount: $(cat "$SCRATCH/fs.err")"
  FS_PID=
  finish; rc=$?; [[ $rc -eq 0 ]] && exit 77 || exit $rc
}
# run_timed SECONDS_MAX DESCRIPTION SIGNAL_AFTER REPORT -- command...: runs it in the background
# (killed after 60 s in any case), sends SIGINT after SIGNAL_AFTER s (0: none), and waits until
# it exits or has written REPORT and named its stuck readers (a thread in D state holds the
# process until the mount is released, which is done then); sets RC and TOOK (s from the signal,
# or from the start, to that moment). A command that writes no report is given $SCRATCH/run.err
# as REPORT: its signal then waits SIGNAL_AFTER s alone.
run_timed() {
  local max=$1 what=$2 after=$3 report=$4
  shift 5
  timeout -s KILL 60 "$@" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err" &
  local pid=$! t0 t1
  t0=$(date +%s.%N)
  if [[ $after != 0 ]]; then
    # The signal must find dlsize started (its stop handlers in place): wait for the report's
    # reservation (REPORT.partial-PID, made at start), which a loaded machine can delay.
    for _ in $(seq 200); do
      [[ $report == "$SCRATCH/run.err" ]] && break
      compgen -G "$report.partial-*" >/dev/null && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.05
    done
    sleep "$after"
    t0=$(date +%s.%N)
    kill -INT $pid
  fi
  for _ in $(seq 600); do
    kill -0 $pid 2>/dev/null || break
    [[ -f $report ]] && grep -q "stuck in the kernel" "$SCRATCH/run.err" && break
    sleep 0.05
  done
  t1=$(date +%s.%N)
  kill -0 $pid 2>/dev/null && release_mount
  wait $pid
  RC=$?
  TOOK=$($PY -c "import sys; print(round(float(sys.argv[2])-float(sys.argv[1]), 1))" "$t0" "$t1")
  $PY -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$TOOK" "$max" \
    && pass "$what: report written in $TOOK s (exit $RC)" || fail "$what: took $TOOK s (exit $RC): $(cat "$SCRATCH/run.err")"
}

for engine in "${engines[@]}"; do
  mount_faults "hang:file-:0"
  out=$SCRATCH/hang-int-$engine.json
  run_timed 5 "hung read + SIGINT ($engine)" 1.5 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --engine $engine --quiet --out "$out"
  [[ $RC -eq 1 ]] && pass "hung read + SIGINT ($engine) exits 1" || fail "hung read + SIGINT ($engine) exit $RC"
  [[ $(json "$out" "r['status'] == 'incomplete' and 'interrupted' in r['reason']") == True ]] \
    && pass "hung read + SIGINT ($engine): incomplete report" || fail "hung read + SIGINT ($engine): report $(cat "$out" 2>/dev/null | head -c 300)"
  [[ $(json "$out" "any('file-' in w and 'kernel' in w for w in r['warnings'])") == True ]] \
    && pass "the report names the stuck read ($engine)" || fail "no stuck read in the warnings ($engine)"
  grep -q "stuck in the kernel: reader 0 has waited" "$SCRATCH/run.err" \
    && pass "stderr names the stuck reader ($engine)" || fail "stderr: $(cat "$SCRATCH/run.err")"
  mount_faults "hang:file-:0"
  out=$SCRATCH/hang-stall-$engine.json
  run_timed 8 "hung read + --stall-timeout 2s ($engine)" 0 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --engine $engine --stall-timeout 2s --quiet --out "$out"
  [[ $RC -eq 1 ]] && pass "stall exits 1 ($engine)" || fail "stall exit $RC ($engine)"
  [[ $(json "$out" "r['status'] == 'incomplete' and 'stalled' in r['reason'] and 'file-' in r['reason'] and 'waited' in r['reason']") == True ]] \
    && pass "stall report names the file and the wait ($engine)" || fail "stall report: $(json "$out" "r.get('reason')" 2>&1)"
done
# The training pipeline stops the same way.
mount_faults "hang:file-:0"
out=$SCRATCH/hang-train.json
run_timed 8 "hung read in training + --stall-timeout 2s" 0 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --accelerator emulated:h100 --batch-size 8 --compute-time 1ms --stall-timeout 2s --quiet --out "$out"
[[ $(json "$out" "r['status'] == 'incomplete' and 'stalled' in r['reason']") == True ]] \
  && pass "training stall: incomplete report naming the stall" || fail "training stall report: $(json "$out" "r.get('reason')" 2>&1)"

mount_faults "eio:file-00000003:0"
expect_rc 1 "EIO from the file system" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --quiet --out "$SCRATCH/eio.json"
[[ $(json "$SCRATCH/eio.json" "r['status'] == 'incomplete' and 'file-00000003' in r['reason'] and 'offset' in r['reason']") == True ]] \
  && pass "EIO: the reason names the file and offset" || fail "EIO report: $(json "$SCRATCH/eio.json" "r.get('reason')" 2>&1)"

mount_faults "short:file-"
expect_rc 0 "short reads are completed" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --verify --quiet --out "$SCRATCH/short.json"
[[ $(json "$SCRATCH/short.json" "r['io']['short_reads'] > 0") == True ]] && pass "short reads counted" || fail "no short reads counted"

# verify stops the same way: a hung read ends it after --stall-timeout, naming the file and the
# wait (it writes no report: run_timed waits for its stderr, then for the stuck reader named).
mount_faults "hang:file-00000002:0"
run_timed 8 "verify: hung read + --stall-timeout 2s" 0 "$SCRATCH/run.err" -- "$DLSIZE" verify "$mnt" --threads 2 --stall-timeout 2s --quiet
[[ $RC -eq 1 ]] && pass "verify stall exits 1" || fail "verify stall exit $RC"
grep -q "verify stalled: no read finished for 2 s (--stall-timeout); reader [0-9] has waited [0-9.]* s for a read of .*file-00000002.* at offset 0" "$SCRATCH/run.err" \
  && pass "verify's stall message names the file, the offset and the wait" || fail "verify stall stderr: $(cat "$SCRATCH/run.err")"
grep -q "STALLED" "$SCRATCH/run.out" && pass "verify's summary says STALLED" || fail "verify stdout: $(cat "$SCRATCH/run.out")"
# A hung read before any run: the dataset's manifest (a hung NFS server is hit there first). A
# signal, --stall-timeout and --time-limit end bench and verify as they end the run's reads,
# naming the file; bench writes its incomplete report (it reserved --out before the read).
mount_faults "hang:dlsize-dataset.json:0"
out=$SCRATCH/manifest-int.json
run_timed 2.5 "bench: hung manifest read + SIGINT" 1 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --quiet --out "$out"
[[ $RC -eq 1 ]] && pass "bench: hung manifest read + SIGINT exits 1" || fail "bench: hung manifest read + SIGINT exit $RC"
[[ $(json "$out" "r['status'] == 'incomplete' and 'dlsize-dataset.json' in r['reason'] and 'interrupted by signal 2' in r['reason']") == True ]] \
  && pass "bench: the incomplete report names the manifest and the signal" || fail "bench manifest + SIGINT report: $(json "$out" "r.get('reason')" 2>&1)"
mount_faults "hang:dlsize-dataset.json:0"
out=$SCRATCH/manifest-stall.json
run_timed 3.5 "bench: hung manifest read + --stall-timeout 2s" 0 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --stall-timeout 2s --quiet --out "$out"
[[ $RC -eq 1 ]] && pass "bench: hung manifest read + stall exits 1" || fail "bench: hung manifest read + stall exit $RC"
[[ $(json "$out" "r['status'] == 'incomplete' and \"dlsize-dataset.json': no progress for 2 s (--stall-timeout)\" in r['reason']") == True ]] \
  && pass "bench: the incomplete report names the manifest and the stall" || fail "bench manifest + stall report: $(json "$out" "r.get('reason')" 2>&1)"
grep -q "dlsize: bench incomplete: stopped before the run: reading '.*dlsize-dataset.json': no progress for 2 s (--stall-timeout)" "$SCRATCH/run.err" \
  && pass "bench: stderr names the manifest and the stall" || fail "bench manifest + stall stderr: $(cat "$SCRATCH/run.err")"
mount_faults "hang:dlsize-dataset.json:0"
out=$SCRATCH/manifest-limit.json
run_timed 4.5 "bench: hung manifest read + --time-limit 3s" 0 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --time-limit 3s --quiet --out "$out"
[[ $RC -eq 1 && $(json "$out" "r['status'] == 'incomplete' and 'dlsize-dataset.json' in r['reason'] and '--time-limit 3 s' in r['reason']") == True ]] \
  && pass "bench: hung manifest read + --time-limit: exit 1, the report names the manifest and the limit" || fail "bench manifest + time limit: exit $RC, $(json "$out" "r.get('reason')" 2>&1)"
mount_faults "hang:dlsize-dataset.json:0"
run_timed 2.5 "verify: hung manifest read + SIGINT" 1 "$SCRATCH/run.err" -- "$DLSIZE" verify "$mnt" --threads 2 --quiet
[[ $RC -eq 1 ]] && grep -q "dlsize: failed: reading '.*dlsize-dataset.json': interrupted by signal 2" "$SCRATCH/run.err" \
  && pass "verify: hung manifest read + SIGINT: exit 1 naming the manifest" || fail "verify manifest + SIGINT: exit $RC, $(cat "$SCRATCH/run.err")"
mount_faults "hang:dlsize-dataset.json:0"
run_timed 3.5 "verify: hung manifest read + --stall-timeout 2s" 0 "$SCRATCH/run.err" -- "$DLSIZE" verify "$mnt" --threads 2 --stall-timeout 2s --quiet
[[ $RC -eq 1 ]] && grep -q "dlsize: failed: reading '.*dlsize-dataset.json': no progress for 2 s (--stall-timeout)" "$SCRATCH/run.err" \
  && pass "verify: hung manifest read + stall: exit 1 naming the manifest" || fail "verify manifest + stall: exit $RC, $(cat "$SCRATCH/run.err")"
# A hung lookup (stat) of the manifest, met before its read: the same watch ends it. The mount
# is ready when a data file shows (a stat of the manifest would hang the test too).
FAULT_READY=$(cd "$ds" && find . -name 'file-*' -type f | head -1) mount_faults "hangstat:dlsize-dataset.json"
out=$SCRATCH/manifest-stat.json
run_timed 3.5 "bench: hung manifest lookup + --stall-timeout 2s" 0 "$out" -- "$DLSIZE" bench --workload resnet50 --dataset "$mnt" --cache buffered --stall-timeout 2s --quiet --out "$out"
[[ $RC -eq 1 && $(json "$out" "r['status'] == 'incomplete' and \"looking up '\" in r['reason'] and \"dlsize-dataset.json': no progress for 2 s\" in r['reason']") == True ]] \
  && pass "bench: hung manifest lookup: exit 1, the report names the lookup and the manifest" || fail "bench manifest lookup: exit $RC, $(json "$out" "r.get('reason')" 2>&1), $(cat "$SCRATCH/run.err")"
# datagen too: with a hangw rule the file system is writable and the first write of a data file
# never returns; the generation stops after --stall-timeout naming the file, and leaves the
# writers the kernel holds behind.
mount_faults "hangw:file-:0"
run_timed 8 "datagen: hung write + --stall-timeout 2s" 0 "$SCRATCH/run.err" -- "$DLSIZE" datagen --workload resnet50 --layout files --dataset "$mnt/new" --size 4MiB --threads 2 --stall-timeout 2s --quiet
[[ $RC -eq 1 ]] && pass "datagen stall exits 1" || fail "datagen stall exit $RC"
grep -q "datagen stalled: no write finished for 2 s (--stall-timeout); writer [0-9] has waited [0-9.]* s for a write of .*file-.* at offset 0; rerun the same command" "$SCRATCH/run.err" \
  && pass "datagen's stall message names the file, the offset and the wait" || fail "datagen stall stderr: $(cat "$SCRATCH/run.err")"
grep -q "stuck in the kernel: writer" "$SCRATCH/run.err" && pass "datagen names the writers left in the kernel" || fail "datagen stderr: $(cat "$SCRATCH/run.err")"
release_mount
rm -rf "$ds/new"
# checkpoint too: a hung write (hangw) and a hung read (hang) of a shard end the run after
# --stall-timeout with an incomplete report naming the file, the offset and the wait; what the
# kernel holds is named, and the folder on the hung mount is left as it is.
ckp=(checkpoint --workload llama3-8b --scale 0.0001220703125 --cache buffered --stall-timeout 2s --quiet)
# checkpoint_stall PHASE RULE STARTS -- OPTIONS...: a checkpoint run on the mount with RULE ends
# within 8 s, exit 1, with an incomplete report whose reason starts with STARTS and names the
# shard, offset 0 and the wait.
checkpoint_stall() {
  local phase=$1 rule=$2 starts=$3 out=$SCRATCH/ck-$1.json
  shift 4
  mount_faults "$rule"
  run_timed 8 "checkpoint: hung $phase + --stall-timeout 2s" 0 "$out" -- "$DLSIZE" "${ckp[@]}" --dir "$mnt/ck" --out "$out" "$@"
  [[ $RC -eq 1 ]] && pass "checkpoint $phase stall exits 1" || fail "checkpoint $phase stall exit $RC"
  [[ $(json "$out" "r['status'] == 'incomplete' and r['reason'].startswith('$starts') and 'rank-00000.file-000.shard at offset 0' in r['reason'] and 'waited' in r['reason']") == True ]] \
    && pass "checkpoint $phase stall: the report names the file, the offset and the wait" || fail "checkpoint $phase stall report: $(json "$out" "r.get('reason')" 2>&1)"
}
checkpoint_stall write "hangw:file-:0" "stalled: writing checkpoint 1: rank 0: no write or fsync finished for 2 s" -- --writes 1 --reads 0
grep -q "stuck in the kernel: rank 0: .*rank-00000.file-000.shard" "$SCRATCH/run.err" && pass "checkpoint names what the kernel holds" || fail "checkpoint stderr: $(cat "$SCRATCH/run.err")"
release_mount
[[ -f $ds/ck/dlsize-checkpoint.json ]] && pass "a stalled checkpoint leaves its folder as it is" || fail "the stalled checkpoint's folder was removed"
rm -rf "$ds/ck"
"$DLSIZE" "${ckp[@]}" --dir "$ds/ck" --writes 1 --reads 0 --keep --out "$SCRATCH/ck-keep.json" || fail "checkpoint --keep for the restore case failed"
checkpoint_stall read "hang:file-:0" "stalled: reading checkpoint 1: rank 0: no read finished for 2 s" -- --writes 0 --reads 1
# SIGINT during the last read of a run (slowed reads, nothing hung): the read was cut short, so
# the run is incomplete and says so, though no later checkpoint's check follows to catch it.
mount_faults "slow:file-:700"
"$DLSIZE" "${ckp[@]}" --dir "$mnt/ck" --writes 0 --reads 1 --out "$SCRATCH/ck-int.json" 2>/dev/null &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[[ $rc -eq 1 && $(json "$SCRATCH/ck-int.json" "r['status'] == 'incomplete' and 'while reading checkpoint 1' in r['reason']") == True ]] \
  && pass "SIGINT during the last checkpoint read: exit 1, incomplete, the read named" \
  || fail "SIGINT during the last read: exit $rc, $(json "$SCRATCH/ck-int.json" "(r['status'], r.get('reason'))" 2>&1)"
release_mount
rm -rf "$ds/ck"
# EIO on restore: the second checkpoint's shard fails at offset 0. The run still ends with its
# report: incomplete, the phase, the checkpoint, the file and the error named, and the first
# restore's figures (read and verified) kept.
"$DLSIZE" "${ckp[@]}" --dir "$ds/ck" --writes 2 --reads 0 --keep --out "$SCRATCH/ck-eio-w.json" || fail "checkpoint --keep for the EIO case failed"
mount_faults "eio:checkpoint-000002/rank-00000.file-000.shard:0"
out=$SCRATCH/ck-eio.json
expect_rc 1 "checkpoint: EIO on the second restore" -- "$DLSIZE" "${ckp[@]}" --dir "$mnt/ck" --writes 0 --reads 2 --out "$out"
[[ $(json "$out" "r['status'] == 'incomplete' and r['reason'].startswith('failed: reading checkpoint 2: rank 0: read failed: Input/output error. file: ') and 'offset: 0' in r['reason']") == True ]] \
  && pass "checkpoint EIO: the reason names the phase, the file, the offset and the error" || fail "checkpoint EIO reason: $(json "$out" "r.get('reason')" 2>&1)"
f=$(json "$out" "r['checkpoint']['failure']" 2>&1)
[[ $(json "$out" "(lambda f: f['phase'] == 'read' and f['checkpoint'] == 2 and f['rank'] == 0 and f['file'].endswith('checkpoint-000002/rank-00000.file-000.shard') and 'Input/output error' in f['error'])(r['checkpoint']['failure'])") == True ]] \
  && pass "checkpoint EIO: the report's failure block gives phase, checkpoint, rank, file and error" || fail "checkpoint EIO failure block: $f"
[[ $(json "$out" "(lambda c: c['read']['count'] == 1 and c['read']['runs'][0]['checkpoint'] == 1 and c['read']['bytes'] == c['bytes_per_checkpoint'] and c['read']['verify']['blocks'] > 0 and c['read']['verify']['mismatches'] == 0)(r['checkpoint'])") == True ]] \
  && pass "checkpoint EIO: the first restore's figures, verified, are kept" || fail "checkpoint EIO read block: $(json "$out" "r['checkpoint']['read']" 2>&1 | head -c 400)"
expect_text "dlsize: checkpoint incomplete: failed: reading checkpoint 2" "checkpoint EIO: stderr says why the run is incomplete"
release_mount
rm -rf "$ds/ck"

# dlsize index: a hung stat or readdir ends the scan after --stall-timeout naming the path and
# the wait, and leaves its resume state beside --out; a SIGKILL mid-scan (reads slowed) and the
# rerun of the same command give the index an uninterrupted scan gives (lines and digest).
FAULT_SRC=$SCRATCH/tree FAULT_READY=ready
$PY - "$FAULT_SRC" <<'PYEOF'
import os, sys
root = sys.argv[1]
for d in range(40):
    os.makedirs(os.path.join(root, "d%02d" % d, "sub"))
    for f in range(50):
        with open(os.path.join(root, "d%02d" % d, "f%03d.bin" % f), "wb") as o:
            o.write(bytes([d, f]) * (f + 1))
    with open(os.path.join(root, "d%02d" % d, "sub", "x.bin"), "wb") as o:
        o.write(b"x")
open(os.path.join(root, "ready"), "w").write("1")
PYEOF
for hang in "hangstat:d07/f010:a stat of" "hangdir:d05/sub:a readdir of"; do
  rule=${hang%:*} what=${hang##*:}
  mount_faults "$rule"
  out=$SCRATCH/${rule%%:*}.json
  run_timed 8 "index: ${rule%%:*} + --stall-timeout 2s" 0 "$SCRATCH/run.err" -- "$DLSIZE" index "$mnt" --out "$out" --threads 2 --stall-timeout 2s --quiet
  [[ $RC -eq 1 ]] && pass "index stall (${rule%%:*}) exits 1" || fail "index stall (${rule%%:*}) exit $RC"
  grep -q "index stalled: no metadata call or probe read finished for 2 s (--stall-timeout); reader [0-9] has waited [0-9.]* s for $what .*${rule#*:}" "$SCRATCH/run.err" \
    && pass "index's stall message names the call, the path and the wait (${rule%%:*})" || fail "index stall stderr: $(cat "$SCRATCH/run.err")"
  [[ ! -e $out && -s $out.resume ]] && grep -q "resume state $out.resume: rerun the same command" "$SCRATCH/run.err" \
    && pass "a stalled index leaves its resume state beside --out, and says so" || fail "resume state after the stall: $(ls "$SCRATCH")"
done
release_mount
mount_faults
expect_rc 0 "the stalled index, rerun once the mount answers, completes" -- "$DLSIZE" index "$mnt" --out "$out" --threads 2 --quiet
[[ $(head -1 "$out" | json /dev/stdin 'r["counts"]["files"]') -eq 2041 && ! -e $out.resume ]] && grep -q "resumed (" "$SCRATCH/stdout" \
  && pass "the rerun resumed, indexed every file and removed its resume state" || fail "rerun after the stall: $(cat "$SCRATCH/stdout")"
# Before a scan or a run: the resume state of an index on a hung mount, and bench --index whose
# change check looks up a file of a hung folder; both end after --stall-timeout naming the file.
mount_faults "hangstat:ix.json.resume"
run_timed 3.5 "index: hung lookup of the resume state + --stall-timeout 2s" 0 "$SCRATCH/run.err" -- "$DLSIZE" index "$mnt/d00" --out "$mnt/ix.json" --stall-timeout 2s --quiet
[[ $RC -eq 1 ]] && grep -q "reading '.*ix.json.resume': no progress for 2 s (--stall-timeout); stuck in the kernel" "$SCRATCH/run.err" \
  && pass "index: a hung resume state ends the command, named" || fail "index resume state stall: exit $RC, $(cat "$SCRATCH/run.err")"
mount_faults "hangstat:d07/f010"
run_timed 3.5 "bench --index: hung lookup of a listed file + --stall-timeout 2s" 0 "$SCRATCH/hix.json" -- "$DLSIZE" bench --index "$out" --dataset "$mnt" --workload resnet50 --accelerator none --stall-timeout 2s --quiet --out "$SCRATCH/hix.json"
[[ $RC -eq 1 && $(json "$SCRATCH/hix.json" "r['status'] == 'incomplete' and 'no progress for 2 s' in r['reason'] and 'a lookup of a file it lists' in r['reason']") == True ]] \
  && pass "bench --index: a hung lookup of a listed file ends the command, the report says so" || fail "bench --index lookup stall: exit $RC, $(json "$SCRATCH/hix.json" "r.get('reason')" 2>&1), $(cat "$SCRATCH/run.err")"
mount_faults "slow:/f0:2"
expect_rc 0 "index of the slowed tree, uninterrupted" -- "$DLSIZE" index "$mnt" --out "$SCRATCH/whole.json" --threads 2 --quiet
"$DLSIZE" index "$mnt" --out "$SCRATCH/killed.json" --threads 2 --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
  [[ $(grep -c '"~chunk"' "$SCRATCH/killed.json.resume" 2>/dev/null) -ge 8 ]] && break
  sleep 0.05
done
kill -KILL $pid
wait $pid 2>/dev/null
[[ ! -e $SCRATCH/killed.json && -s $SCRATCH/killed.json.resume ]] && pass "SIGKILL mid-scan leaves the resume state, no index" \
  || fail "after SIGKILL: $(ls "$SCRATCH")"
expect_rc 0 "the killed index, rerun" -- "$DLSIZE" index "$mnt" --out "$SCRATCH/killed.json" --threads 2 --quiet
[[ $OUT =~ resumed\ \(([0-9]+)\ folders ]] && (( BASH_REMATCH[1] >= 8 )) && pass "the rerun says it resumed, with the folders it did not read again" || fail "rerun summary: $OUT"
expect_text "resuming from $SCRATCH/killed.json.resume" "the rerun names the state it continues"
same=$($PY - "$SCRATCH/whole.json" "$SCRATCH/killed.json" <<'PYEOF'
import json, sys
a, b = (open(p).read().splitlines() for p in sys.argv[1:])
ha, hb = json.loads(a[0]), json.loads(b[0])
print(ha["digest"] == hb["digest"] and ha["counts"] == hb["counts"] and sorted(a[1:]) == sorted(b[1:]) and ha["counts"]["files"] == 2041)
PYEOF
)
[[ $same == True ]] && pass "the resumed index equals the uninterrupted one (lines, counts, digest)" || fail "resumed index differs: $same"
expect_rc 2 "verify --stall-timeout below 1s is refused" -- "$DLSIZE" verify "$ds" --stall-timeout 200ms
expect_rc 2 "checkpoint --stall-timeout below 1s is refused" -- "$DLSIZE" checkpoint --workload llama3-8b --dir "$SCRATCH/never" --stall-timeout 200ms
expect_rc 2 "datagen --stall-timeout below 1s is refused" -- "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/never" --files 1 --stall-timeout 200ms
release_mount
finish
