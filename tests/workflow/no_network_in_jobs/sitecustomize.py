"""No network inside a SLURM job (tests/workflow/test_slurm_cluster.py puts this folder on
PYTHONPATH for its SLURM run): every Python process a SLURM job starts — the job step's
Snakemake and the rule's script — refuses Internet sockets, so a compute job that tried to
download (ir_datasets, PyTerrier's jar resolver, urllib, requests) fails. Outside a SLURM
job (the Snakemake process and its local rules, which do the downloads) nothing changes.
Python imports ``sitecustomize`` at start-up from the first folder on sys.path that has
one."""
import os
import socket

if os.environ.get("SLURM_JOB_ID") and os.environ.get("GRADEDREL_NO_NETWORK_IN_JOBS"):
    _connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex
    _UNIX = getattr(socket, "AF_UNIX", None)

    def _refuse(sock, address):
        if sock.family != _UNIX:
            raise OSError(f"no network in a SLURM job (test guard): connect to {address!r} "
                          f"refused in job {os.environ['SLURM_JOB_ID']}")

    def connect(self, address):
        _refuse(self, address)
        return _connect(self, address)

    def connect_ex(self, address):
        _refuse(self, address)
        return _connect_ex(self, address)

    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
