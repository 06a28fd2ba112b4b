#!/usr/bin/env bash
# slurm_cluster.sh: a throw-away single-node Slurm cluster on this machine,
# for the study runner's Slurm test (tests/study/slurm_test.sh).
#
#   source tests/study/slurm_cluster.sh
#   slurm_install            # slurmctld, slurmd, munge, slurm-client from Debian, if missing
#   slurm_start DIR          # munged, slurmctld, slurmd with everything under DIR;
#                            # exports SLURM_CONF; waits until the node is idle
#   slurm_logs               # the daemons' log tails (for a failure message)
#   slurm_stop               # stops what slurm_start started (safe to call twice)
#
# Nothing outside DIR is touched: munged gets its own key and socket, the
# daemons their own state, spool, pid and log files and free ports, so the
# test neither needs nor disturbs a Slurm or munge already on the machine.
# The daemons talk over 127.0.0.1, so the host name need not resolve.
# Needs root (slurmd runs jobs as their user); CI runs as root.

slurm_install() {
  local p missing=()
  for p in slurmctld slurmd munge slurm-client; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "slurm: error: need root to install ${missing[*]}" >&2
    return 1
  fi
  echo "slurm: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
}

# A TCP port nothing listens on (the kernel picks it).
slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_start() {
  SLURM_DIR=$1
  SLURM_PIDS=()
  local d=$SLURM_DIR host
  host=$(hostname -s)
  mkdir -p "$d/state" "$d/spool" "$d/munge"
  chmod 700 "$d/munge"
  dd if=/dev/urandom of="$d/munge/munge.key" bs=1 count=128 status=none
  chmod 400 "$d/munge/munge.key"
  munged --force --socket="$d/munge/munge.sock" --key-file="$d/munge/munge.key" \
    --pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" \
    --seed-file="$d/munge/munged.seed" || { echo "slurm: munged did not start"; return 1; }
  SLURM_PIDS+=("$(cat "$d/munge/munged.pid")")
  cat >"$d/slurm.conf" <<CONF
ClusterName=simtlab-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(slurm_free_port)
SlurmdPort=$(slurm_free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=study Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$d/slurm.conf
  slurmctld -D -c -f "$SLURM_CONF" >>"$d/slurmctld.out" 2>&1 &
  SLURM_PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" >>"$d/slurmd.out" 2>&1 &
  SLURM_PIDS+=($!)
  local i state
  for i in $(seq 1 60); do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1)
    case $state in idle*|mix*) return 0 ;; esac
    sleep 1
  done
  echo "slurm: the node did not become idle in 60 s (state '${state:-none}')"
  return 1
}

slurm_logs() {
  [ -n "${SLURM_DIR:-}" ] || return 0
  local f
  for f in "$SLURM_DIR"/slurmctld.log "$SLURM_DIR"/slurmd.log "$SLURM_DIR"/slurmctld.out \
           "$SLURM_DIR"/slurmd.out "$SLURM_DIR"/munge/munged.log; do
    [ -s "$f" ] || continue
    echo "---- tail of $f"
    tail -n 15 "$f"
  done
}

slurm_stop() {
  local p
  for p in "${SLURM_PIDS[@]:-}"; do
    kill "$p" 2>/dev/null
  done
  for p in "${SLURM_PIDS[@]:-}"; do
    # not our child (munged forks): poll until gone
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
  SLURM_PIDS=()
}
