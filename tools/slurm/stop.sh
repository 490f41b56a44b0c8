#!/usr/bin/env bash
# Stop the single-node SLURM daemons that tools/slurm/start.sh started, and only those
# (by the pids it recorded); daemons it found running are left alone. Idempotent.
set -euo pipefail

STATE=${GRADEDREL_SLURM_STATE:-/run/gradedrel-slurm}
[ "$(id -u)" -eq 0 ] || { echo "tools/slurm/stop.sh: run as root" >&2; exit 1; }
[ -d "$STATE" ] || { echo "nothing started by tools/slurm/start.sh"; exit 0; }

for name in slurmd slurmctld munged; do  # reverse order of start
  pidfile=$STATE/$name.pid
  [ -s "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  # the pid must still be that daemon (not a reused number)
  if kill -0 "$pid" 2>/dev/null && [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$name" ]; then
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      echo "$name: killed (pid $pid did not stop within 10 s)"
    else
      echo "$name: stopped (pid $pid)"
    fi
  else
    echo "$name: pid $pid no longer running"
  fi
  rm -f "$pidfile"
done
rm -f "$STATE/munged.err"
rmdir "$STATE" 2>/dev/null || true
