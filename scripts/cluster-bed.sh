#!/usr/bin/env bash
# A small cluster on this machine, for the tests and benches (docs/cluster.md, "A cluster on one
# machine"): hosts h1..hN and a storage host st, each a network + UTS + mount namespace with its
# own hostname, /etc/hosts, /run and FUSE mounts; eth0 on a data network (storage traffic, capped
# by tc tbf), eth1 on an uncapped management network (hydra and MPI, UCX forced to TCP on it);
# the stores (radosgw S3, GlusterFS, CephFS) served from st over its data NIC. The bridges live in
# a switch namespace of their own: nothing but the namespaces appears in the machine's, and
# `down` removes them (and checks it).
#
# Usage: scripts/cluster-bed.sh up N              N hosts (1-8) and st; a bed left in the folder
#                                                 is taken down first
#        scripts/cluster-bed.sh down              everything removed (safe to run again)
#        scripts/cluster-bed.sh exec HOST CMD...  CMD on a host (h1.., st)
#        scripts/cluster-bed.sh mpiexec ARGS...   mpiexec.mpich from st over ssh stand-ins;
#                                                 without -f/-hosts, the bed's hostfile
#        scripts/cluster-bed.sh cap HOST RATE     HOST's data NIC capped both ways (tc's units:
#                                                 200mbit; 0 or none: uncapped)
#        scripts/cluster-bed.sh cut HOST data|mgmt|all   the links pulled (at the switch)
#        scripts/cluster-bed.sh heal              every link back, store mounts that do not
#                                                 answer mounted anew
#        scripts/cluster-bed.sh store s3|gluster|cephfs up|down
#        scripts/cluster-bed.sh env               the bed's variables (eval them): DLSIZE_BED_*,
#                                                 the S3 endpoint and keys, the mounts
#        scripts/cluster-bed.sh status            hosts, links, caps, stores, mounts
# The bed's folder is DLSIZE_BED_DIR (default /tmp/dlsize-cluster-bed); its names carry a random
# prefix (dzbXXXX) kept there, so two beds never share a namespace.
# Exit: 0 done; 1 a step failed (its log is printed); 2 usage; 77 the machine cannot hold a bed
# (not root, no network namespaces, no tbf, no FUSE, a package missing: scripts/deps.sh --test);
# under CI=true, 77 becomes 1.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BED=$(realpath -m "${DLSIZE_BED_DIR:-/tmp/dlsize-cluster-bed}")
marker=$BED/.dlsize-cluster-bed
DATA_NET=10.200.0
MGMT_NET=10.201.0
ST_DATA=$DATA_NET.254
limit=${DLSIZE_BED_TIMEOUT:-60}
log() { echo "cluster-bed: $*" >&2; }
die() {
  log "FAILED: $*"
  exit 1
}
usage() {
  sed -n '/^# Usage/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }

# --- the bed's state ------------------------------------------------------------------------

prefix() { cat "$BED/prefix" 2>/dev/null; }
ns_of() { echo "$(prefix)$1"; }
sw() { echo "$(prefix)sw"; }
hosts() { cat "$BED/hosts.list" 2>/dev/null; }
holder() {
  local pid
  pid=$(cat "$BED/run/$1.pid" 2>/dev/null) || return 1
  [[ -d /proc/$pid ]] && echo "$pid"
}
require_up() { [[ -f $BED/prefix && -f $BED/hosts.list ]] || die "no bed in $BED (scripts/cluster-bed.sh up N)"; }
known_host() { grep -qx "$1" "$BED/hosts.list" 2>/dev/null || die "no host '$1' (valid: $(hosts | tr '\n' ' '))"; }

# on HOST CMD...: CMD in HOST's namespaces (network, hostname, mounts).
on() {
  local pid
  pid=$(holder "$1") || die "host $1 is not running"
  shift
  nsenter -t "$pid" -n -u -m -- "$@"
}

# --- what the machine must have --------------------------------------------------------------

# unavailable WHY [FILE]: the bed (or a store) cannot run here; WHY is kept in FILE (default
# the bed's `unavailable`) for the tests to say.
unavailable() {
  local file=${2:-$BED/unavailable}
  mkdir -p "$(dirname "$file")" && echo "$1" >"$file"
  if [[ ${CI:-} == true ]]; then
    log "FAILED: $1; under CI=true the cluster bed must come up"
    exit 1
  fi
  log "skipped: $1"
  exit 77
}

check_machine() {
  [[ $(id -u) -eq 0 ]] || unavailable "not root (network namespaces and tc need root)"
  local tool missing=()
  for tool in ip tc nsenter unshare mpiexec.mpich hydra_pmi_proxy; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  ((${#missing[@]} == 0)) || unavailable "not installed: ${missing[*]} (scripts/deps.sh --test)"
  [[ -e /dev/fuse ]] || unavailable "/dev/fuse is missing (the file stores are FUSE clients)"
  local probe="dzbprobe$$"
  ip netns add "$probe" 2>/dev/null || unavailable "network namespaces refused (ip netns add)"
  local ok=1
  ip -n "$probe" link set lo up &&
    ip netns exec "$probe" tc qdisc add dev lo root tbf rate 100mbit burst 32kb latency 50ms \
      2>/dev/null || ok=0
  ip netns del "$probe"
  ((ok)) || unavailable "tc tbf is not in this kernel (sch_tbf)"
}

# --- up and down -----------------------------------------------------------------------------

write_hosts_file() {
  local n=$1 i
  {
    echo "127.0.0.1 localhost"
    for i in $(seq "$n"); do echo "$MGMT_NET.$i h$i"; done
    echo "$MGMT_NET.254 st"
    for i in $(seq "$n"); do echo "$DATA_NET.$i h$i-data"; done
    echo "$ST_DATA st-data"
  } >"$BED/etc/hosts"
  for i in $(seq "$n"); do echo "h$i"; done >"$BED/hostfile"
}

# start_host NAME INDEX: its namespaces (held by a sleeping process), hostname, /etc/hosts,
# private /run and /var/log/glusterfs (and st's /var/lib/glusterd), and its two NICs.
start_host() {
  local name=$1 idx=$2 ns
  ns=$(ns_of "$name")
  ip netns add "$ns" || return 1
  ip netns exec "$ns" unshare --uts --mount --propagation private sleep infinity \
    </dev/null >/dev/null 2>&1 &
  echo $! >"$BED/run/$name.pid"
  local pid=$!
  for _ in $(seq 100); do
    [[ $(readlink "/proc/$pid/ns/uts") != "$(readlink /proc/self/ns/uts)" ]] && break
    sleep 0.02
  done
  mkdir -p "$BED/var/$name"/{run,log}
  nsenter -t "$pid" -u hostname "$name" &&
    nsenter -t "$pid" -m -- sh -c "mount --bind '$BED/etc/hosts' /etc/hosts &&
      mount -t tmpfs -o size=64m,mode=755 dlsize-bed-run /run &&
      mkdir -p /var/log/glusterfs && mount --bind '$BED/var/$name/log' /var/log/glusterfs" ||
    return 1
  if [[ $name == st ]]; then
    mkdir -p "$BED/var/st/glusterd"
    nsenter -t "$pid" -m -- mkdir -p /var/lib/glusterd &&
      nsenter -t "$pid" -m -- mount --bind "$BED/var/st/glusterd" /var/lib/glusterd || return 1
  fi
  local s
  s=$(sw)
  ip -n "$s" link add "${name}d" type veth peer name eth0 netns "$ns" &&
    ip -n "$s" link add "${name}m" type veth peer name eth1 netns "$ns" &&
    ip -n "$s" link set "${name}d" master data up &&
    ip -n "$s" link set "${name}m" master mgmt up &&
    ip -n "$ns" addr add "$DATA_NET.$idx/24" dev eth0 &&
    ip -n "$ns" addr add "$MGMT_NET.$idx/24" dev eth1 &&
    ip -n "$ns" link set lo up && ip -n "$ns" link set eth0 up && ip -n "$ns" link set eth1 up
}

up() {
  local n=${1:-}
  [[ $n =~ ^[1-8]$ ]] || {
    log "up N: N hosts, 1 to 8 (got '${n}')"
    exit 2
  }
  if [[ -e $BED && ! -f $marker ]]; then
    log "$BED exists and was not made by this script (no $marker); set DLSIZE_BED_DIR"
    exit 2
  fi
  [[ -f $marker ]] && down >/dev/null
  mkdir -p "$BED" && touch "$marker"
  check_machine
  local t0
  t0=$(now_ms)
  mkdir -p "$BED"/{run,etc,log,mnt/gluster,mnt/cephfs,bin,store}
  printf 'dzb%04x' $((RANDOM % 65536)) >"$BED/prefix"
  write_hosts_file "$n"
  { for i in $(seq "$n"); do echo "h$i"; done; echo st; } >"$BED/hosts.list"
  write_ssh_stand_in
  local s
  s=$(sw)
  ip netns add "$s" && ip -n "$s" link set lo up &&
    ip -n "$s" link add data type bridge forward_delay 0 &&
    ip -n "$s" link add mgmt type bridge forward_delay 0 &&
    ip -n "$s" link set data up && ip -n "$s" link set mgmt up || die "the switch namespace"
  local i
  for i in $(seq "$n"); do start_host "h$i" "$i" || die "host h$i"; done
  start_host st 254 || die "the storage host"
  wait_until 10 reaches h1 "$ST_DATA" && wait_until 10 reaches h1 "$MGMT_NET.254" ||
    die "h1 does not reach st"
  log "up: $n host(s) and st in $(($(now_ms) - t0)) ms (prefix $(prefix); $BED)"
}

# reaches HOST ADDR: a TCP connection from HOST to a closed port of ADDR is refused (not timed
# out): the address answers.
reaches() {
  local said
  said=$(on "$1" timeout 2 bash -c "exec 3<>/dev/tcp/$2/9" 2>&1)
  [[ $said == *"Connection refused"* ]]
}

# The launcher's ssh: hydra runs `ssh [-x] HOST COMMAND`; this runs COMMAND on HOST through
# nsenter (no sshd anywhere).
write_ssh_stand_in() {
  cat >"$BED/bin/ssh" <<EOF
#!/bin/bash
[[ \$1 == -x ]] && shift
host=\$1
shift
pid=\$(cat "$BED/run/\$host.pid" 2>/dev/null) || { echo "ssh stand-in: no host \$host" >&2; exit 255; }
exec nsenter -t "\$pid" -n -u -m -- /bin/sh -c "\$*"
EOF
  chmod +x "$BED/bin/ssh"
}

# Every process in the bed's network namespaces, TERM then KILL; FUSE mounts lazily unmounted
# inside their hosts first so that nothing waits on a dead server.
stop_namespace_processes() {
  local ns pids
  for ns in $(ip netns list 2>/dev/null | awk -v p="$(prefix)" 'index($1, p) == 1 {print $1}'); do
    ip netns pids "$ns" 2>/dev/null
  done | sort -u >"$BED/run/pids.all" 2>/dev/null || true
  pids=$(cat "$BED/run/pids.all" 2>/dev/null)
  [[ -n $pids ]] || return 0
  kill -TERM $pids 2>/dev/null
  for _ in $(seq 30); do
    kill -0 $pids 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL $pids 2>/dev/null
  sleep 0.2
}

unmount_host_mounts() {
  local h m
  for h in $(hosts); do
    holder "$h" >/dev/null || continue
    for m in $(on "$h" awk -v b="$BED/mnt/" 'index($2, b) == 1 {print $2}' /proc/mounts); do
      on "$h" umount -l "$m" 2>/dev/null
    done
  done
}

down() {
  if [[ ! -e $BED ]]; then
    log "down: no bed in $BED"
    return 0
  fi
  [[ -f $marker ]] || {
    log "$BED was not made by this script (no $marker); not touched"
    exit 2
  }
  local t0 p
  t0=$(now_ms)
  p=$(prefix)
  if [[ -n $p ]]; then
    # The stores are thrown away with their namespaces: no orderly stop (seconds per daemon).
    heal >/dev/null 2>&1
    unmount_host_mounts
    stop_namespace_processes
    local h pid
    for h in $(hosts); do
      pid=$(cat "$BED/run/$h.pid" 2>/dev/null) && kill -KILL "$pid" 2>/dev/null
    done
    local ns
    for ns in $(ip netns list 2>/dev/null | awk -v p="$p" 'index($1, p) == 1 {print $1}'); do
      ip netns del "$ns" 2>/dev/null
    done
  fi
  local left
  left=$(leftovers "$p")
  [[ -z $left ]] || die "down left: $left"
  rm -rf "$BED"
  log "down in $(($(now_ms) - t0)) ms: no namespace, mount or process of the bed left"
}

# What of a bed (by its prefix) is still on the machine: namespaces, mounts under its folder,
# processes in its namespaces or naming its folder.
leftovers() {
  local p=$1 out=()
  if [[ -n $p ]]; then
    local ns
    ns=$(ip netns list 2>/dev/null | awk -v p="$p" 'index($1, p) == 1 {print $1}' | tr '\n' ' ')
    [[ -z $ns ]] || out+=("namespaces: $ns")
  fi
  local mounts
  mounts=$(awk -v b="$BED/" 'index($2, b) == 1 {print $2}' /proc/mounts | tr '\n' ' ')
  [[ -z $mounts ]] || out+=("mounts: $mounts")
  local procs
  procs=$(pgrep -f -- "$BED/" | grep -vx "$$" | tr '\n' ' ')
  [[ -z $procs ]] || out+=("processes: $procs")
  echo "${out[*]}"
}

# --- links -----------------------------------------------------------------------------------

cap() {
  local host=$1 rate=$2 s ns
  known_host "$host"
  s=$(sw)
  ns=$(ns_of "$host")
  if [[ $rate == 0 || $rate == none ]]; then
    ip -n "$s" link show "${host}d" >/dev/null || die "no link of $host"
    tc -n "$s" qdisc del dev "${host}d" root 2>/dev/null
    tc -n "$ns" qdisc del dev eth0 root 2>/dev/null
    rm -f "$BED/run/$host.cap"
    return 0
  fi
  # Download (switch → host) on the switch's side, upload on the host's. A burst of 1/50 s of the
  # rate (at least 32 KB) keeps the cap within a few percent at these rates.
  local q=(tbf rate "$rate" burst 64kb latency 50ms)
  tc -n "$s" qdisc replace dev "${host}d" root "${q[@]}" &&
    tc -n "$ns" qdisc replace dev eth0 root "${q[@]}" || die "tc tbf on $host ($rate)"
  echo "$rate" >"$BED/run/$host.cap"
}

cut_link() {
  local host=$1 which=$2 s
  known_host "$host"
  s=$(sw)
  case $which in
  data) ip -n "$s" link set "${host}d" down ;;
  mgmt) ip -n "$s" link set "${host}m" down ;;
  all) ip -n "$s" link set "${host}d" down && ip -n "$s" link set "${host}m" down ;;
  *)
    log "cut HOST data|mgmt|all (got '$which')"
    exit 2
    ;;
  esac
}

heal() {
  local s h
  s=$(sw)
  for h in $(hosts); do
    ip -n "$s" link set "${h}d" up 2>/dev/null
    ip -n "$s" link set "${h}m" up 2>/dev/null
  done
  return 0
}

# --- stores ----------------------------------------------------------------------------------

# wait_until SECONDS CMD...: CMD until it succeeds, or fails after SECONDS.
wait_until() {
  local t=$1 t0=$SECONDS
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS - t0 < t)) || return 1
    sleep 0.2
  done
}

s3_dir() { echo "$BED/store/s3"; }

s3_up() {
  [[ -f $BED/run/s3.up ]] && return 0
  local t0 rc
  t0=$(now_ms)
  on st env S3_SERVER_ADDR="$ST_DATA" S3_MON_V2_PORT=3300 S3_MON_V1_PORT=6789 S3_PORT=7480 \
    S3_SERVER_MEMSTORE_BYTES="${DLSIZE_BED_MEMSTORE_BYTES:-4294967296}" \
    bash "$ROOT/scripts/s3-server.sh" start "$(s3_dir)" >"$BED/log/s3.log" 2>&1
  rc=$?
  ((rc == 0)) || {
    cat "$BED/log/s3.log" >&2
    ((rc == 77)) && unavailable "the S3 store: $(cat "$(s3_dir)/unavailable" 2>/dev/null)" \
      "$BED/run/s3.unavailable"
    die "the S3 store did not start"
  }
  touch "$BED/run/s3.up"
  log "store s3 up in $(($(now_ms) - t0)) ms: $(grep -o 'endpoint [^,]*' "$BED/log/s3.log")"
}

s3_down() {
  [[ -d $(s3_dir) ]] || return 0
  cephfs_down
  rm -f "$BED/run/s3.up"
  if holder st >/dev/null; then
    on st bash "$ROOT/scripts/s3-server.sh" stop "$(s3_dir)" >/dev/null 2>&1
  else
    rm -rf "$(s3_dir)"
  fi
}

# gluster_mount HOST: the volume's FUSE client on HOST, mounted once it answers.
gluster_mount() {
  local h=$1
  on "$h" glusterfs --volfile-server="$ST_DATA" --volfile-id=/dlsize \
    --log-file="$BED/log/gluster-$h.log" --pid-file="/run/glusterfs-client.pid" \
    "$BED/mnt/gluster" || die "mounting GlusterFS on $h"
  wait_until 20 on "$h" sh -c "grep -q ' $BED/mnt/gluster fuse.glusterfs' /proc/mounts && stat -f '$BED/mnt/gluster'" ||
    die "GlusterFS not mounted on $h ($(tail -3 "$BED/log/gluster-$h.log"))"
}

# cephfs_mount HOST: a ceph-fuse client on HOST (its own pid file and admin socket, or a second
# mount on the machine fails).
cephfs_mount() {
  local h=$1 d
  d=$(s3_dir)
  on "$h" ceph-fuse -c "$d/ceph.conf" --id admin -k "$d/keyring" --pid-file /run/ceph-fuse.pid \
    --admin-socket "/run/ceph-fuse.asok" --log-file "$BED/log/ceph-fuse-$h.log" \
    "$BED/mnt/cephfs" >>"$BED/log/cephfs.log" 2>&1 || die "ceph-fuse on $h ($(tail -3 "$BED/log/cephfs.log"))"
  wait_until 20 on "$h" sh -c "grep -q ' $BED/mnt/cephfs fuse' /proc/mounts" ||
    die "CephFS not mounted on $h"
}

# After a cut the FUSE clients may not come back by themselves (GlusterFS's says "Transport
# endpoint is not connected" until remounted): each store mount that does not answer within a
# few seconds is unmounted, its client stopped and mounted anew.
remount_stores() {
  local h kind pidfile
  for h in $(hosts); do
    [[ $h == st ]] && continue
    for kind in gluster cephfs; do
      [[ -f $BED/run/$kind.up ]] || continue
      on "$h" timeout 5 stat "$BED/mnt/$kind/." >/dev/null 2>&1 && continue
      [[ $kind == gluster ]] && pidfile=/run/glusterfs-client.pid || pidfile=/run/ceph-fuse.pid
      on "$h" umount -l "$BED/mnt/$kind" 2>/dev/null
      on "$h" sh -c "kill -9 \$(cat $pidfile) 2>/dev/null; rm -f $pidfile"
      "${kind}_mount" "$h"
    done
  done
}

gluster_up() {
  [[ -f $BED/run/gluster.up ]] && return 0
  command -v glusterd >/dev/null && command -v glusterfs >/dev/null ||
    unavailable "GlusterFS is not installed (scripts/deps.sh --test: glusterfs-server glusterfs-client)" \
      "$BED/run/gluster.unavailable"
  local t0 g=$BED/store/gluster
  t0=$(now_ms)
  mkdir -p "$g/brick"
  on st glusterd -p /run/glusterd.pid -l "$BED/log/glusterd.log" || die "glusterd did not start"
  wait_until "$limit" on st gluster --mode=script pool list ||
    die "glusterd does not answer ($(tail -3 "$BED/log/glusterd.log"))"
  on st gluster --mode=script volume create dlsize "$ST_DATA:$g/brick" force >>"$BED/log/gluster.log" 2>&1 &&
    on st gluster --mode=script volume set dlsize network.ping-timeout 10 >>"$BED/log/gluster.log" 2>&1 &&
    on st gluster --mode=script volume start dlsize >>"$BED/log/gluster.log" 2>&1 ||
    die "the GlusterFS volume ($(tail -3 "$BED/log/gluster.log"))"
  local h
  for h in $(hosts); do
    [[ $h == st ]] || gluster_mount "$h"
  done
  touch "$BED/run/gluster.up"
  log "store gluster up in $(($(now_ms) - t0)) ms: $BED/mnt/gluster on every host"
}

unmount_store() {
  local mnt=$1 h
  for h in $(hosts); do
    holder "$h" >/dev/null || continue
    on "$h" sh -c "grep -q ' $mnt ' /proc/mounts" && on "$h" umount -l "$mnt"
  done
  return 0
}

gluster_down() {
  [[ -f $BED/run/gluster.up || -d $BED/store/gluster ]] || return 0
  unmount_store "$BED/mnt/gluster"
  if holder st >/dev/null; then
    on st gluster --mode=script volume stop dlsize force >/dev/null 2>&1
    local p
    for p in $(on st pgrep -x 'glusterd|glusterfsd|glusterfs'); do
      # only processes in st's own network namespace
      [[ $(readlink "/proc/$p/ns/net") == "$(readlink "/proc/$(holder st)/ns/net")" ]] && kill "$p"
    done
  fi
  # the clients on the hosts
  local h pid
  for h in $(hosts); do
    pid=$(on "$h" cat /run/glusterfs-client.pid 2>/dev/null) && kill "$pid" 2>/dev/null
  done
  rm -rf "$BED/store/gluster" "$BED/var/st/glusterd"/* "$BED/run/gluster.up"
}

cephfs_up() {
  [[ -f $BED/run/cephfs.up ]] && return 0
  command -v ceph-mds >/dev/null && command -v ceph-fuse >/dev/null && command -v ceph-mgr >/dev/null ||
    unavailable "CephFS is not installed (scripts/deps.sh --test: ceph-mds ceph-fuse ceph-mgr)" \
      "$BED/run/cephfs.unavailable"
  s3_up
  local t0 d c T=(timeout 60)
  t0=$(now_ms)
  d=$(s3_dir)
  c=(-c "$d/ceph.conf")
  mkdir -p "$d/mgr" "$d/mds"
  # A mgr (without it statfs says 0 bytes free), an MDS, two pools, one file system.
  on st "${T[@]}" ceph "${c[@]}" auth get-or-create mgr.x mon 'allow profile mgr' osd 'allow *' \
    mds 'allow *' -o "$d/mgr/keyring" >>"$BED/log/cephfs.log" 2>&1 &&
    on st "${T[@]}" ceph-mgr "${c[@]}" -i x --keyring "$d/mgr/keyring" --mgr-data "$d/mgr" \
      >>"$BED/log/cephfs.log" 2>&1 &&
    on st "${T[@]}" ceph "${c[@]}" auth get-or-create mds.a mon 'allow profile mds' osd 'allow rwx' \
      mds 'allow' mgr 'allow profile mds' -o "$d/mds/keyring" >>"$BED/log/cephfs.log" 2>&1 &&
    on st "${T[@]}" ceph-mds "${c[@]}" -i a --keyring "$d/mds/keyring" --mds-data "$d/mds" \
      >>"$BED/log/cephfs.log" 2>&1 &&
    on st "${T[@]}" ceph "${c[@]}" osd pool create cephfs_meta 8 >>"$BED/log/cephfs.log" 2>&1 &&
    on st "${T[@]}" ceph "${c[@]}" osd pool create cephfs_data 8 >>"$BED/log/cephfs.log" 2>&1 &&
    on st "${T[@]}" ceph "${c[@]}" fs new dlsize cephfs_meta cephfs_data >>"$BED/log/cephfs.log" 2>&1 ||
    die "CephFS ($(tail -3 "$BED/log/cephfs.log"))"
  mds_active() { on st timeout 10 ceph -c "$d/ceph.conf" mds stat | grep -q 'up:active'; }
  wait_until "$limit" mds_active || die "the MDS did not become active ($(on st timeout 10 ceph -c "$d/ceph.conf" mds stat 2>&1))"
  local h
  for h in $(hosts); do
    [[ $h == st ]] || cephfs_mount "$h"
  done
  touch "$BED/run/cephfs.up"
  log "store cephfs up in $(($(now_ms) - t0)) ms (over the S3 store's Ceph): $BED/mnt/cephfs on every host"
}

cephfs_down() {
  [[ -f $BED/run/cephfs.up ]] || return 0
  unmount_store "$BED/mnt/cephfs"
  local h pid d
  for h in $(hosts); do
    pid=$(on "$h" cat /run/ceph-fuse.pid 2>/dev/null) && kill "$pid" 2>/dev/null
  done
  d=$(s3_dir)
  for pid in $(pgrep -f -- "$d/ceph.conf -i [ax] "); do kill "$pid" 2>/dev/null; done
  rm -f "$BED/run/cephfs.up"
}

store() {
  local kind=${1:-} what=${2:-}
  require_up
  case $kind/$what in
  s3/up) s3_up ;;
  s3/down) s3_down ;;
  gluster/up) gluster_up ;;
  gluster/down) gluster_down ;;
  cephfs/up) cephfs_up ;;
  cephfs/down) cephfs_down ;;
  *)
    log "store s3|gluster|cephfs up|down (got '$kind $what')"
    exit 2
    ;;
  esac
}

bed_env() {
  require_up
  echo "export DLSIZE_BED_DIR=$BED"
  echo "export DLSIZE_BED_HOSTS=\"$(grep -vx st "$BED/hosts.list" | tr '\n' ' ' | sed 's/ $//')\""
  echo "export DLSIZE_BED_GLUSTER=$BED/mnt/gluster"
  echo "export DLSIZE_BED_CEPHFS=$BED/mnt/cephfs"
  [[ -f $BED/run/s3.up ]] && cat "$(s3_dir)/env"
  return 0
}

status() {
  require_up
  local s h
  s=$(sw)
  echo "bed $BED (prefix $(prefix))"
  for h in $(hosts); do
    local state=down cap_text=none links=""
    holder "$h" >/dev/null && state=up
    [[ -f $BED/run/$h.cap ]] && cap_text=$(cat "$BED/run/$h.cap")
    for l in d m; do
      ip -n "$s" link show "$h$l" 2>/dev/null | grep -q 'state UP' && links+="$l:up " || links+="$l:down "
    done
    echo "$h: $state; data cap $cap_text; links ${links% }"
  done
  [[ -f $BED/run/s3.up ]] && echo "store s3: up ($(grep ENDPOINT "$(s3_dir)/env" | cut -d= -f2))"
  [[ -f $BED/run/gluster.up ]] && echo "store gluster: up ($BED/mnt/gluster)"
  [[ -f $BED/run/cephfs.up ]] && echo "store cephfs: up ($BED/mnt/cephfs)"
  return 0
}

bed_mpiexec() {
  require_up
  local has_hosts=0 a
  for a in "$@"; do
    [[ $a == -f || $a == -hostfile || $a == -hosts || $a == -host || $a == -machinefile ]] && has_hosts=1
  done
  local hostargs=()
  ((has_hosts)) || hostargs=(-f "$BED/hostfile")
  on st mpiexec.mpich -launcher ssh -launcher-exec "$BED/bin/ssh" -iface eth1 \
    -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES eth1 "${hostargs[@]}" "$@"
}

cmd=${1:-}
shift || true
case $cmd in
up) up "$@" ;;
down) down ;;
exec)
  require_up
  (($# >= 2)) || usage
  known_host "$1"
  on "$@"
  ;;
mpiexec) bed_mpiexec "$@" ;;
cap)
  require_up
  (($# == 2)) || usage
  cap "$@"
  ;;
cut)
  require_up
  (($# == 2)) || usage
  cut_link "$@"
  ;;
heal)
  require_up
  heal
  remount_stores
  ;;
store) store "$@" ;;
env) bed_env ;;
status) status ;;
*) usage ;;
esac
