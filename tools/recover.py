"""Make an interrupted run resumable; `make reproduce` runs this before Snakemake.

After a run is killed (SIGKILL, a lost terminal, a reboot), Snakemake leaves its lock
(`.snakemake/locks/`) and refuses to start ("Directory cannot be locked"). This clears that
lock with `snakemake --unlock`, but only when no Snakemake process - the main one or a job
it started - is still working in this directory; if one is, it refuses in one line and
exits 1, touching nothing. (Incomplete outputs are then re-run by `--rerun-incomplete`,
which the Makefile passes.)

It removes what a killed job left half-written: the hidden ``.<name>.<random>.part`` files
and folders of ``gradedrel.core.io``'s atomic writes under ``results/`` and ``figures/``
(a finished write renames its part into place, so a part left behind is never an output).

It also gives every workflow script that is unchanged since the last commit (`scripts/`,
the files of the rules' `script:`) its last commit's time as its modification time.
Snakemake decides that a rule's code changed when its script file is newer than the
rule's outputs; in a fresh clone every file is as new as the clone, so a finished project
copied into one would re-run every job although no script differs. A script edited since
the commit keeps its own time (and re-runs its rule, as it should).

    python tools/recover.py [--directory DIR] [--snakemake PATH]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import psutil


def _same_or_inside(path: str | None, root: Path) -> bool:
    if not path:
        return False
    try:
        resolved = Path(path).resolve()
    except OSError:
        return False
    return resolved == root or root in resolved.parents


def _directory_argument(cmdline: list[str], cwd: str | None) -> str | None:
    """The value of Snakemake's --directory/-d, made absolute against the process's cwd."""
    for i, arg in enumerate(cmdline):
        value = None
        if arg in ("-d", "--directory") and i + 1 < len(cmdline):
            value = cmdline[i + 1]
        elif arg.startswith("--directory="):
            value = arg.split("=", 1)[1]
        if value is not None:
            return os.path.join(cwd or "/", value)
    return None


def _ancestors() -> set[int]:
    pids, process = set(), psutil.Process()
    while process is not None:
        pids.add(process.pid)
        try:
            process = process.parent()
        except psutil.Error:
            break
    return pids


def live_snakemake(root: Path) -> list[tuple[int, str]]:
    """(pid, command) of every live process that mentions snakemake and works in ``root``:
    Snakemake itself first, then the jobs it started.

    A process whose working directory cannot be read counts as working here: a lock is never
    cleared on a guess.
    """
    root = root.resolve()
    mine = _ancestors()
    found = []
    for process in psutil.process_iter(["pid", "cmdline", "status"]):
        info = process.info
        cmdline = info.get("cmdline") or []
        if info["pid"] in mine or info.get("status") == psutil.STATUS_ZOMBIE:
            continue
        if not any("snakemake" in arg for arg in cmdline):
            continue
        try:
            cwd = process.cwd()
        except psutil.NoSuchProcess:
            continue
        except psutil.Error:
            cwd = None  # unreadable: assume it may be ours
        here = (cwd is None or _same_or_inside(cwd, root)
                or _same_or_inside(_directory_argument(cmdline, cwd), root))
        if here:
            main = any(Path(arg).name == "snakemake" for arg in cmdline)
            found.append((not main, info["pid"], " ".join(cmdline)))
    return [(pid, command) for _, pid, command in sorted(found)]  # the main process first


def lock_files(root: Path) -> list[Path]:
    folder = root / ".snakemake" / "locks"
    return sorted(folder.glob("*.lock")) if folder.is_dir() else []


SCRIPT_FOLDERS = ("scripts",)
#: Where jobs write (atomically, through ``.part`` files): the outputs' folders.
OUTPUT_FOLDERS = ("results", "figures")
_PART = re.compile(r"^\..+\.[A-Za-z0-9_]{6,}\.part$")  # tempfile's ``.<name>.<random>.part``


def stray_parts(root: Path) -> list[Path]:
    """The ``.part`` files and folders under the output folders, outermost only."""
    found: list[Path] = []
    for folder in OUTPUT_FOLDERS:
        for current, dirs, files in os.walk(root / folder):
            for name in sorted(dirs):
                if _PART.match(name):
                    found.append(Path(current) / name)
            dirs[:] = [d for d in dirs if not _PART.match(d)]
            found += [Path(current) / name for name in sorted(files) if _PART.match(name)]
    return found


def remove_stray_parts(root: Path) -> int:
    """Remove what killed jobs left half-written; how many were removed."""
    parts = stray_parts(root)
    for path in parts:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    return len(parts)


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def restore_script_times(root: Path) -> int:
    """Set each unchanged tracked script's mtime back to its last commit's time (never
    forward); returns how many were set. Outside a git checkout: nothing."""
    tracked = _git(root, "ls-files", "-z", "--", *SCRIPT_FOLDERS)
    changed = _git(root, "status", "--porcelain", "-z", "--", *SCRIPT_FOLDERS)
    if tracked is None or changed is None:
        return 0
    edited = {entry[3:] for entry in changed.split("\0") if entry}
    count = 0
    for name in (n for n in tracked.split("\0") if n and n not in edited):
        stamp = (_git(root, "log", "-1", "--format=%ct", "--", name) or "").strip()
        path = root / name
        if not stamp.isdigit() or not path.is_file():
            continue
        if path.stat().st_mtime > int(stamp):
            os.utime(path, (int(stamp), int(stamp)))
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--directory", default=".", help="the workflow's directory")
    parser.add_argument("--snakemake", default=str(Path(sys.executable).with_name("snakemake")),
                        help="the snakemake executable")
    args = parser.parse_args(argv)
    root = Path(args.directory).resolve()

    live = live_snakemake(root)
    if live:
        pid, command = live[0]
        print(f"recover: a Snakemake run is still working in {root} (pid {pid}: "
              f"{command[:80]}); wait for it or stop it (kill {pid}), then run make reproduce "
              "again", file=sys.stderr)
        return 1
    restore_script_times(root)
    removed = remove_stray_parts(root)
    if removed:
        print(f"recover: removed {removed} half-written file(s) of killed jobs (.part)")
    locks = lock_files(root)
    if not locks:
        return 0
    result = subprocess.run([args.snakemake, "--unlock", "--nocolor"], cwd=root,
                            capture_output=True, text=True)
    if result.returncode != 0 or lock_files(root):
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        print(f"recover: snakemake --unlock failed in {root}: {tail[0]}", file=sys.stderr)
        return 1
    print(f"recover: cleared the lock of an interrupted run ({len(locks)} lock files; "
          "no Snakemake process is working here); incomplete outputs will be re-run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
