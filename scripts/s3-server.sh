#!/usr/bin/env bash
# A throwaway S3 server for the tests (docs/s3.md): a single-host Ceph cluster (one mon, one
# memstore OSD, no mgr) with radosgw on 127.0.0.1 (or S3_SERVER_ADDR: the storage host's address
# in scripts/cluster-bed.sh), everything under DIR, on free ports.
# radosgw checks SigV4 signatures as AWS does, so the signing code is really tested.
#
# Usage: scripts/s3-server.sh start DIR   starts it (stopping one left in DIR first), prints the
#                                         endpoint and the test keys, writes DIR/env
#        scripts/s3-server.sh env DIR     prints DIR/env: `eval "$(scripts/s3-server.sh env DIR)"`
#        scripts/s3-server.sh stop DIR    stops its daemons (only the pids in DIR/run) and
#                                         removes DIR
# Exit: 0 done; 1 it did not start (the logs' tails are printed); 2 usage; 77 the Ceph packages
# are missing (scripts/deps.sh --test installs them); under CI=true, missing packages exit 1.
# Every wait has a time limit (S3_SERVER_TIMEOUT seconds per daemon, default 45).
set -uo pipefail
usage() {
  echo "usage: scripts/s3-server.sh start|stop|env DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
cmd=$1
D=$(realpath -m "$2")
marker=$D/.dlsize-s3-server
limit=${S3_SERVER_TIMEOUT:-45}
addr=${S3_SERVER_ADDR:-127.0.0.1}
AK=DLSIZETESTACCESSKEY1
SK=dlsizeTestSecretKey0000000000000000000001
log() { echo "s3-server: $*" >&2; }

# The daemons of this DIR, by the pid files they wrote; a pid is signalled only while its
# command line still names this DIR's ceph.conf (a pid reused by another process is left alone).
stop_daemons() {
  local p pid
  for p in "$D"/run/client.rgw.a.pid "$D"/run/osd.*.pid "$D"/run/mon.a.pid; do
    [[ -f $p ]] || continue
    pid=$(cat "$p")
    [[ $pid =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$D/ceph.conf" \
      || continue
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
}

stop() {
  [[ -e $D ]] || return 0
  if [[ ! -f $marker ]]; then
    log "$D was not made by this script (no $marker); not touched"
    exit 2
  fi
  stop_daemons
  rm -rf "$D"
}

# wait_for WHAT PIDFILE COMMAND...: runs COMMAND until it succeeds, at most $limit seconds, and
# gives up at once when the daemon of PIDFILE (once written) has died.
wait_for() {
  local what=$1 pidfile=$2 t0=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [[ -f $pidfile ]] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      log "$what died"
      return 1
    fi
    if ((SECONDS - t0 >= limit)); then
      log "$what not ready after $limit s"
      return 1
    fi
    sleep 0.2
  done
}

# A port nothing listens on at the server's address, from a range the kernel does not hand out
# by itself.
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 12000))
    (exec 3<>"/dev/tcp/$addr/$p") 2>/dev/null || { echo "$p"; return 0; }
  done
  return 1
}

failed() {
  log "FAILED: $1; logs in $D/log"
  local f
  for f in "$D"/log/*; do
    [[ -s $f ]] && { echo "--- $f" >&2; tail -5 "$f" >&2; }
  done
  stop_daemons
  exit 1
}

write_conf() {
  cat >"$D/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = [v2:$addr:$MON_V2,v1:$addr:$MON_V1]
public addr = $addr
cluster addr = $addr
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $D/keyring
run dir = $D/run
admin socket = $D/run/\$name.asok
pid file = $D/run/\$name.pid
log file = $D/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
mon data avail warn = 2
mon data avail crit = 1
debug ms = 0/0
debug osd = 0/0
debug rgw = 0/0
debug objecter = 0/0
debug rados = 0/0
debug memstore = 0/0
[mon]
mon data = $D/mon
[osd]
osd data = $D/osd
osd objectstore = memstore
osd memory target = 1073741824
memstore device bytes = ${S3_SERVER_MEMSTORE_BYTES:-2147483648}
[client.rgw.a]
keyring = $D/rgw/keyring
rgw frontends = beast endpoint=$addr:$RGW_PORT
rgw data = $D/rgw
CONF
}

start() {
  if [[ -e $D && ! -f $marker ]]; then
    log "$D exists and was not made by this script (no $marker); give a new folder"
    exit 2
  fi
  local tool missing=()
  for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph ceph-authtool monmaptool curl; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  if ((${#missing[@]})); then
    local why="not installed: ${missing[*]} (scripts/deps.sh --test installs ceph-mon ceph-osd radosgw)"
    mkdir -p "$D" && touch "$marker" && echo "$why" >"$D/unavailable"
    if [[ ${CI:-} == true ]]; then
      log "FAILED: $why; under CI=true the S3 server must start"
      exit 1
    fi
    log "skipped: $why"
    exit 77
  fi
  stop
  local t0
  t0=$(date +%s%N)
  mkdir -p "$D"/{mon,osd,rgw,log,run} && touch "$marker"
  FSID=$(cat /proc/sys/kernel/random/uuid)
  MON_V2=${S3_MON_V2_PORT:-$(free_port)} && MON_V1=${S3_MON_V1_PORT:-$(free_port)} &&
    RGW_PORT=${S3_PORT:-$(free_port)} || failed "no free loopback port"
  write_conf
  local C=(-c "$D/ceph.conf") T=(timeout 60)

  ceph-authtool --create-keyring "$D/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null &&
    ceph-authtool "$D/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' \
      --cap mgr 'allow *' --cap mds 'allow *' >/dev/null &&
    monmaptool --create --fsid "$FSID" --addv a "[v2:$addr:$MON_V2,v1:$addr:$MON_V1]" \
      "$D/monmap" >/dev/null &&
    "${T[@]}" ceph-mon "${C[@]}" --mkfs -i a --monmap "$D/monmap" --keyring "$D/keyring" \
      2>"$D/log/mon-mkfs.err" &&
    "${T[@]}" ceph-mon "${C[@]}" -i a 2>>"$D/log/daemons.err" || failed "ceph-mon did not start"
  wait_for "ceph-mon" "$D/run/mon.a.pid" "${T[@]}" ceph "${C[@]}" --connect-timeout 5 mon stat ||
    failed "ceph-mon did not answer"

  local uuid id
  uuid=$(cat /proc/sys/kernel/random/uuid)
  id=$("${T[@]}" ceph "${C[@]}" osd new "$uuid" 2>>"$D/log/setup.err") || failed "ceph osd new"
  # --no-mon-config: without it mkfs tries to fetch its config from the mon and fails.
  "${T[@]}" ceph-osd "${C[@]}" -i "$id" --mkfs --mkkey --osd-uuid "$uuid" \
    --keyring "$D/osd/keyring" --no-mon-config 2>"$D/log/osd-mkfs.err" &&
    "${T[@]}" ceph "${C[@]}" auth add "osd.$id" osd 'allow *' mon 'allow profile osd' \
      -i "$D/osd/keyring" 2>>"$D/log/setup.err" &&
    "${T[@]}" ceph-osd "${C[@]}" -i "$id" --keyring "$D/osd/keyring" 2>>"$D/log/daemons.err" ||
    failed "ceph-osd did not start"
  osd_up() { "${T[@]}" ceph "${C[@]}" osd dump 2>/dev/null | grep -q "^osd.$id up"; }
  wait_for "ceph-osd" "$D/run/osd.$id.pid" osd_up || failed "ceph-osd did not come up"

  "${T[@]}" ceph "${C[@]}" auth get-or-create client.rgw.a mon 'allow rw' osd 'allow rwx' \
    -o "$D/rgw/keyring" 2>>"$D/log/setup.err" &&
    "${T[@]}" radosgw "${C[@]}" -n client.rgw.a 2>>"$D/log/daemons.err" || failed "radosgw did not start"
  wait_for "radosgw" "$D/run/client.rgw.a.pid" curl -fs -o /dev/null "http://$addr:$RGW_PORT/" ||
    failed "radosgw did not answer"
  "${T[@]}" radosgw-admin "${C[@]}" user create --uid=dlsize-test --display-name=dlsize-test \
    --access-key="$AK" --secret-key="$SK" >/dev/null 2>>"$D/log/setup.err" ||
    failed "radosgw-admin user create"

  local ms=$((($(date +%s%N) - t0) / 1000000))
  echo "$ms" >"$D/start_ms"
  # What dlsize reads, as the AWS CLI does (docs/s3.md, "Settings and their precedence").
  cat >"$D/env" <<ENV
export AWS_ENDPOINT_URL_S3=http://$addr:$RGW_PORT
# The tests' and bench scripts' name for the same endpoint.
export DLSIZE_S3_ENDPOINT=http://$addr:$RGW_PORT
export AWS_ACCESS_KEY_ID=$AK
export AWS_SECRET_ACCESS_KEY=$SK
export AWS_DEFAULT_REGION=us-east-1
ENV
  echo "s3-server: radosgw ready in $ms ms: endpoint http://$addr:$RGW_PORT, region us-east-1," \
    "AWS_ACCESS_KEY_ID=$AK AWS_SECRET_ACCESS_KEY=$SK (test keys; env: scripts/s3-server.sh env $D)"
}

case $cmd in
start) start ;;
stop) stop ;;
env)
  [[ -f $D/env ]] || { log "no server in $D (scripts/s3-server.sh start $D)"; exit 1; }
  cat "$D/env"
  ;;
*) usage ;;
esac
