# Sourced by what needs a file system of its own (scripts/coverage.sh, the fsync test): a loop
# image formatted and mounted, and a cleanup for the caller's exit trap. Needs root, losetup,
# mkfs.ext4 or mkfs.xfs (scripts/deps.sh --bench) and mount.
# made_mounts and made_loops list what was mounted and attached, for unmount_made.
made_mounts=()
made_loops=()
# loop_fs FS DIR SIZE: a SIZE image at DIR/image, attached with --direct-io=on (so the host's
# page cache does not stand between O_DIRECT and the disk), formatted as FS (ext4 or xfs) and
# mounted at DIR/mnt. Not a subshell, so that the trap sees every mount and loop device.
# Returns non-zero at the first step that fails.
loop_fs() {
  local fs=$1 dir=$2 size=$3 dev
  mkdir -p "$dir/mnt" && truncate -s "$size" "$dir/image" || return
  dev=$(losetup --find --show --direct-io=on "$dir/image") || return
  made_loops+=("$dev")
  if [[ $fs == ext4 ]]; then mkfs.ext4 -q -F "$dev"; else mkfs.xfs -q -f "$dev"; fi || return
  mount "$dev" "$dir/mnt" || return
  made_mounts+=("$dir/mnt")
}
# unmount_made: unmounts (lazily if busy) and detaches everything made above; never fails.
unmount_made() {
  local m l
  for m in "${made_mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  for l in "${made_loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
  made_mounts=()
  made_loops=()
}
# Cgroups of the caller's own, each holding a limit (the tests that need a slower disk or a
# smaller CPU budget than the machine's): made_cgroups lists them, for remove_cgroups.
made_cgroups=()
cgroup_dir=
# new_cgroup CONTROLLER: a new cgroup under the v1 hierarchy of CONTROLLER (blkio, cpu) or, on a
# v2-only host, under the root where that controller is enabled for children (io, cpu); sets
# cgroup_dir and cgroup_version. Returns non-zero where neither exists.
new_cgroup() {
  local v1=$1 v2=$1 name="dlsize-test-$$-$RANDOM"
  [[ $v1 == io ]] && v1=blkio
  [[ $v2 == blkio ]] && v2=io
  if [[ -d /sys/fs/cgroup/$v1 && -w /sys/fs/cgroup/$v1/cgroup.procs ]]; then
    cgroup_dir=/sys/fs/cgroup/$v1/$name cgroup_version=1
  elif grep -qw "$v2" /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    cgroup_dir=/sys/fs/cgroup/$name cgroup_version=2
  else
    return 1
  fi
  mkdir "$cgroup_dir" || return
  made_cgroups+=("$cgroup_dir")
}
# io_cap_cgroup DEV BYTES_PER_S: a cgroup whose reads from block device DEV are capped.
io_cap_cgroup() {
  local majmin
  majmin=$(lsblk -dno MAJ:MIN "$1" | tr -d ' ') && [[ -n $majmin ]] || return
  new_cgroup blkio || return
  if ((cgroup_version == 1)); then
    echo "$majmin $2" >"$cgroup_dir/blkio.throttle.read_bps_device"
  else
    echo "$majmin rbps=$2" >"$cgroup_dir/io.max"
  fi
}
# cpu_quota_cgroup CORES_X100000: a cgroup whose CPU time is capped (50000: half a core).
cpu_quota_cgroup() {
  new_cgroup cpu || return
  if ((cgroup_version == 1)); then
    echo 100000 >"$cgroup_dir/cpu.cfs_period_us" && echo "$1" >"$cgroup_dir/cpu.cfs_quota_us"
  else
    echo "$1 100000" >"$cgroup_dir/cpu.max"
  fi
}
# in_cgroup DIR CMD...: runs CMD inside cgroup DIR.
in_cgroup() {
  local dir=$1
  shift
  bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' in_cgroup "$dir" "$@"
}
# remove_cgroups: removes the cgroups made above once their processes have left; never fails.
remove_cgroups() {
  local c
  for c in "${made_cgroups[@]}"; do rmdir "$c" 2>/dev/null || true; done
  made_cgroups=()
}
