# Slurm on the cluster bed (docs/cluster.md, "Slurm on the bed"), sourced by
# scripts/cluster-bed.sh for `slurm up|down|srun`: slurmctld on the storage host st, one slurmd
# per host h1..hN, one munged (on st) whose socket, in the bed's folder, every host reaches (a
# path socket is not bound to a network namespace). Everything Slurm writes (its config, spool,
# state, logs) stays in the bed's folder; no cgroup, no accounting, no systemd.
# shellcheck shell=bash disable=SC2154 # BED and limit are cluster-bed.sh's

slurm_dir() { echo "$BED/slurm"; }
slurm_nodes() { grep -vx st "$BED/hosts.list"; }
slurm_env() { echo "SLURM_CONF=$(slurm_dir)/slurm.conf"; }

slurm_write_config() {
  local s list
  s=$(slurm_dir)
  list=$(slurm_nodes | tr '\n' ',' | sed 's/,$//')
  cat >"$s/slurm.conf" <<CONF
# Slurm on the cluster bed: one CPU per node, so that -n N puts one task on each of N hosts.
ClusterName=dlsizebed
SlurmctldHost=st
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge/socket
MpiDefault=pmi2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/linear
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool/%n
SlurmctldPidFile=$s/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd-%n.log
NodeName=$list CPUs=1 State=UNKNOWN
PartitionName=bed Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  # Named, not detected: a host's /sys is the fresh sysfs of `ip netns exec`, with no cgroup
  # mounted, and detection fails there; with proctrack/linuxproc and task/none nothing uses it.
  echo "CgroupPlugin=cgroup/v1" >"$s/cgroup.conf"
}

slurm_start_munge() {
  local m
  m=$(slurm_dir)/munge
  mkdir -p "$m" && chmod 700 "$m"
  dd if=/dev/urandom of="$m/key" bs=1024 count=1 status=none && chmod 600 "$m/key"
  on st munged --force --key-file="$m/key" --socket="$m/socket" --pid-file="$m/pid" \
    --log-file="$(slurm_dir)/log/munged.log" --seed-file="$m/seed" ||
    die "munged did not start ($(tail -3 "$(slurm_dir)/log/munged.log" 2>/dev/null))"
  wait_until 10 test -S "$m/socket" || die "munged has no socket ($(tail -3 "$(slurm_dir)/log/munged.log"))"
}

slurm_all_idle() {
  local idle
  idle=$(on st env "$(slurm_env)" sinfo -h -N -o '%N %T' | grep -c ' idle$')
  [[ $idle -eq $(slurm_nodes | wc -l) ]]
}

slurm_up() {
  local tool missing=()
  for tool in slurmctld slurmd srun sinfo munged; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  ((${#missing[@]} == 0)) || unavailable "not installed: ${missing[*]} (scripts/deps.sh --test: slurmctld slurmd slurm-client munge)" \
    "$BED/run/slurm.unavailable"
  local s t0 h
  s=$(slurm_dir)
  [[ -f $s/up ]] && return 0
  t0=$(now_ms)
  mkdir -p "$s"/{state,spool,run,log}
  slurm_write_config
  slurm_start_munge
  on st env "$(slurm_env)" slurmctld -c >>"$s/log/start.log" 2>&1 ||
    die "slurmctld did not start ($(tail -5 "$s/log/slurmctld.log" 2>/dev/null))"
  for h in $(slurm_nodes); do
    mkdir -p "$s/spool/$h"
    on "$h" env "$(slurm_env)" slurmd -N "$h" >>"$s/log/start.log" 2>&1 ||
      die "slurmd did not start on $h ($(tail -5 "$s/log/slurmd-$h.log" 2>/dev/null))"
  done
  wait_until "$limit" slurm_all_idle ||
    die "the nodes are not idle ($(on st env "$(slurm_env)" sinfo -N 2>&1 | tr '\n' ';'); $(tail -3 "$s/log/slurmctld.log"))"
  touch "$s/up"
  log "slurm up in $(($(now_ms) - t0)) ms: slurmctld on st, slurmd on $(slurm_nodes | tr '\n' ' ')($(slurm_env))"
}

# slurm_down: the daemons by their pid files, waited for (5 s), and Slurm's folder removed (the
# bed's down kills whatever is left in its namespaces).
slurm_down() {
  local s h pid pids=() f
  s=$(slurm_dir)
  [[ -d $s ]] || return 0
  for h in $(slurm_nodes); do
    pid=$(on "$h" cat /run/slurmd.pid 2>/dev/null) && pids+=("$pid")
  done
  for f in "$s/run/slurmctld.pid" "$s/munge/pid"; do
    pid=$(cat "$f" 2>/dev/null) && pids+=("$pid")
  done
  ((${#pids[@]} == 0)) || kill "${pids[@]}" 2>/dev/null
  for _ in $(seq 50); do
    kill -0 "${pids[@]}" 2>/dev/null || break
    sleep 0.1
  done
  rm -rf "$s"
}

# slurm_srun ARGS...: srun from st, in the caller's folder (entering st's namespaces would leave
# it at /), as a login node's srun: relative paths mean the same on every host.
slurm_srun() {
  [[ -f $(slurm_dir)/up ]] || die "Slurm is not up on the bed (scripts/cluster-bed.sh slurm up)"
  on st env "$(slurm_env)" UCX_TLS=tcp,self UCX_NET_DEVICES=eth1 srun --chdir="$PWD" "$@"
}

slurm() {
  local what=${1:-}
  shift || true
  case $what in
  up) slurm_up ;;
  down) slurm_down ;;
  srun) slurm_srun "$@" ;;
  *)
    log "slurm up|down|srun ARGS... (got '$what')"
    exit 2
    ;;
  esac
}
