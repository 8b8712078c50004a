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
