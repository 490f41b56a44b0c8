"""Adopt results copied into a fresh clone of the same commit (`make adopt`).

Results copied into a new clone (`results/`, `figures/`, with or without their times) are
not current for Snakemake: the clone's scripts are newer than them ("code has changed"),
and a copy that did not keep times leaves outputs older than their inputs ("updated input
files"); Snakemake would re-run them. This checks every provenance record under results/
and figures/ against the clone (gradedrel.core.adoption: the commit, the package
versions, the workflow configuration the config files given make, after all their layers,
and the sha256 of every file a record names: the inputs its job read, the outputs it
covers) and that Snakemake finds every output present; any difference refuses the whole adoption, one line per record that differs,
and changes nothing. When everything matches, it marks the results current with
`snakemake --touch --forceall`: every job's outputs touched in the jobs' order (so each is
newer than its inputs and its script) and every job's metadata recorded (so a later
change of params still re-runs it); then `snakemake --summary` must plan no update.

    python tools/adopt.py [--directory DIR] [--snakemake PATH] [--configfile FILE ...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recover import live_snakemake  # noqa: E402

from gradedrel.core import adoption, config, provenance  # noqa: E402

#: Passes of `snakemake --touch --forceall` before giving up (one is enough: a second pass
#: would only be needed if Snakemake planned again after touching every job).
MAX_PASSES = 2
#: Snakemake's own records say the results were made otherwise: never adopted.
REFUSED_STATUS = {"params changed": "made with other params (Snakemake's records)",
                  "set of input files changed": "made from another set of input files "
                                                "(Snakemake's records)"}


def config_files(root: Path, configfiles: list[str]) -> list[Path]:
    """The config files the workflow layers for ``--configfile configfiles``: the Snakefile's
    config/config.yaml, then the given ones in order (relative to the project folder)."""
    return [root / "config" / "config.yaml", *(root / f for f in configfiles)]


def workflow_config(root: Path, configfiles: list[str]) -> dict:
    """The configuration the workflow runs with for these config files: layered, checked
    and completed by the schema's defaults, as the Snakefile does (gradedrel.core.config)."""
    return config.layered(config_files(root, configfiles))


def ir_datasets_home(root: Path, configfiles: list[str]) -> Path:
    """The ir_datasets home the workflow uses with these config files: data.ir_datasets_home,
    else $IR_DATASETS_HOME, else ~/.ir_datasets (relative paths from the project folder)."""
    files = config_files(root, configfiles)
    home = (config.layered(files, validated=False).get("data") or {}).get("ir_datasets_home")
    home = home or os.environ.get("IR_DATASETS_HOME") or "~/.ir_datasets"
    return root / Path(home).expanduser()


def snakemake(command: str, root: Path, configfiles: list[str], *args: str) -> str:
    """Run Snakemake on the project at ``root`` (its own Snakefile and package); stdout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    argv = [command, "--snakefile", str(root / "Snakefile"), "--directory", str(root),
            "--cores", "1", "--nocolor", *args]
    if configfiles:
        argv += ["--configfile", *configfiles]
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"adopt: snakemake {' '.join(args)} failed in {root}: {tail[0]}")
    return done.stdout


def check(root: Path, configfiles: list[str], command: str) -> tuple[int, list[str], list]:
    """(records checked, refusals, Snakemake's summary rows): every check, nothing changed."""
    commit, changed = adoption.git_state(root)
    if changed:
        return 0, [f"{changed}: differs from commit {commit} (uncommitted changes in this "
                   "clone; results are checked against a commit)"], []
    try:
        sections = provenance.config_sections(workflow_config(root, configfiles))
    except ValueError as error:  # ConfigError, InputError: one line naming file and line
        return 0, [str(error)], []
    clone = adoption.Clone(root, commit, provenance.package_versions(),
                           ir_datasets_home(root, configfiles), config_sections=sections,
                           config_files=tuple(os.path.relpath(f, root)
                                              for f in config_files(root, configfiles)))
    count, problems = adoption.refusals(root, clone)
    if count == 0:
        problems.append("results/: no provenance record (provenance.json) to check; "
                        "copy the results with their records")
    rows = adoption.summary_rows(snakemake(command, root, configfiles, "--summary"))
    for row in rows:
        if row.status == "missing":
            problems.append(f"{row.path}: missing (rule {row.rule}); adopt marks only "
                            "complete results")
        elif row.status in REFUSED_STATUS:
            problems.append(f"{row.path}: {REFUSED_STATUS[row.status]}")
    return count, problems, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--directory", default=".", help="the clone's folder")
    parser.add_argument("--snakemake", default=str(Path(sys.executable).with_name("snakemake")),
                        help="the snakemake executable")
    parser.add_argument("--configfile", nargs="*", default=[],
                        help="the config files the results were made with (as for snakemake)")
    args = parser.parse_args(argv)
    root = Path(args.directory).resolve()

    live = live_snakemake(root)
    if live:
        pid, command = live[0]
        print(f"adopt: a Snakemake run is working in {root} (pid {pid}: {command[:80]}); "
              "wait for it to end, then adopt", file=sys.stderr)
        return 1
    count, problems, rows = check(root, args.configfile, args.snakemake)
    if problems:
        for line in problems[:20]:
            print(f"adopt: {line}", file=sys.stderr)
        more = f" ({len(problems) - 20} more not shown)" if len(problems) > 20 else ""
        print(f"adopt: refused{more}: {len(problems)} difference(s) from this clone; "
              "nothing was changed", file=sys.stderr)
        return 1
    passes = 0
    while any(row.pending for row in rows):
        if passes == MAX_PASSES:
            left = next(row for row in rows if row.pending)
            print(f"adopt: {left.path} is still planned ({left.status}) after {passes} "
                  "passes of snakemake --touch", file=sys.stderr)
            return 1
        snakemake(args.snakemake, root, args.configfile, "--touch", "--forceall")
        passes += 1
        rows = adoption.summary_rows(snakemake(args.snakemake, root, args.configfile,
                                               "--summary"))
    print(f"adopt: {count} provenance records match this clone; {len(rows)} outputs current "
          f"({passes} pass(es) of snakemake --touch); snakemake -n plans nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
