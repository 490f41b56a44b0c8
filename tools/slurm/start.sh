#!/usr/bin/env bash
# Start a single-node SLURM (Debian's munge, slurmctld, slurmd) on this machine, as root.
#
# Idempotent: daemons already running are reused and left alone; only the daemons this
# script starts are recorded (pid files under $STATE) so that tools/slurm/stop.sh stops
# those and nothing else. Writes /etc/slurm/slurm.conf only when there is none or when it
# is one this script wrote (first line below); an administrator's slurm.conf is never
# overwritten. Install the packages first:
#   apt-get install -y slurmctld slurmd slurm-client munge
# Recipe and its measurements: docs/cluster.md.
set -euo pipefail

STATE=${GRADEDREL_SLURM_STATE:-/run/gradedrel-slurm}
CONF=/etc/slurm/slurm.conf
MARK="# written by gradedrel tools/slurm/start.sh"

die() { echo "tools/slurm/start.sh: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (it starts system daemons)"
for tool in munged slurmctld slurmd sinfo scontrol sbatch; do
  command -v "$tool" >/dev/null ||
    die "no $tool: apt-get install -y slurmctld slurmd slurm-client munge"
done
mkdir -p "$STATE"

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# --- munge: authentication between the SLURM daemons and clients ----------------------
mkdir -p /run/munge && chown munge:munge /run/munge && chmod 755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  head -c 1024 /dev/urandom > /etc/munge/munge.key
fi
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  echo "munged: already running (left alone)"
else
  su -s /bin/sh munge -c "munged --pid-file=/run/munge/munged.pid" 2>"$STATE/munged.err" ||
    { cat "$STATE/munged.err" >&2; die "munged did not start"; }
  for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
  cp /run/munge/munged.pid "$STATE/munged.pid"
  echo "munged: started (pid $(cat "$STATE/munged.pid"))"
fi

# --- slurm.conf: one node, every core, 80 % of the memory ------------------------------
HOST=$(hostname -s)
CPUS=$(nproc)
MEM_MB=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 80 / 100 ))
if [ -e "$CONF" ] && ! head -n 1 "$CONF" | grep -qF "$MARK"; then
  echo "slurm.conf: $CONF exists and was not written here: using it as it is"
else
  # No cgroup.conf: SLURM 22.05 has no 'CgroupPlugin=disabled', and runs without one.
  # No accounting database (slurmdbd): sacct reads the job-completion file instead
  # (JobCompType=jobcomp/filetxt), which is also the test's proof that jobs ran here.
  mkdir -p /etc/slurm
  cat > "$CONF.new" <<EOF
$MARK
ClusterName=gradedrel
SlurmctldHost=$HOST
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
SlurmUser=root
ReturnToService=2
MinJobAge=600
SchedulerParameters=sched_interval=2
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$CONF.new" "$CONF"
  echo "slurm.conf: written ($HOST, $CPUS CPUs, $MEM_MB MB)"
fi
mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm

# --- slurmctld, then slurmd ----------------------------------------------------------------
start_daemon() {  # name, pid file of the daemon
  local name=$1 pidfile=$2
  if pgrep -x "$name" >/dev/null; then
    echo "$name: already running (left alone)"
    return
  fi
  "$name" || die "$name did not start: see /var/log/slurm/$name.log"
  for _ in $(seq 50); do alive "$pidfile" && break; sleep 0.1; done
  alive "$pidfile" || die "$name exited: see /var/log/slurm/$name.log"
  cp "$pidfile" "$STATE/$name.pid"
  echo "$name: started (pid $(cat "$STATE/$name.pid"))"
}
start_daemon slurmctld /run/slurmctld.pid
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q "UP" && break; sleep 0.2; done
start_daemon slurmd /run/slurmd.pid

# --- ready when the node is idle (or mixed/allocated: already running jobs) -------------
for _ in $(seq 150); do
  state=$(sinfo -h -N -o "%T" 2>/dev/null | head -n 1)
  case "$state" in
    idle*|mixed*|allocated*) echo "sinfo: node $HOST $state"; exit 0 ;;
    down*|drain*) scontrol update nodename="$HOST" state=resume 2>/dev/null || true ;;
  esac
  sleep 0.2
done
sinfo >&2 || true
die "the node did not become idle within 30 s: see /var/log/slurm/"
