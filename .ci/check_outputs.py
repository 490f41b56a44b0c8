"""After the main job: every output Snakemake plans exists (files non-empty), and a re-run is a no-op."""
import subprocess
import sys
from pathlib import Path

# Extra arguments (e.g. --configfile config/config.yaml config/nfcorpus/testbed.yaml) are
# passed to Snakemake: the outputs of that configuration are checked.
SNAKEMAKE = [".venv/bin/snakemake", "--cores", "1", "--nocolor", *sys.argv[1:]]

dry = subprocess.run(SNAKEMAKE + ["--dry-run"], capture_output=True, text=True)
if dry.returncode != 0 or "Nothing to be done" not in dry.stdout + dry.stderr:
    sys.exit("main job incomplete: a dry run still has work to do\n" + dry.stdout[-2000:])

summary = subprocess.run(SNAKEMAKE + ["--summary"], capture_output=True, text=True, check=True)
rows = [line.split("\t") for line in summary.stdout.splitlines() if "\t" in line][1:]
bad = [row[0] for row in rows
       if row[4] != "ok" or not Path(row[0]).exists()
       or (Path(row[0]).is_file() and Path(row[0]).stat().st_size == 0)]
if not rows or bad:
    sys.exit(f"main job outputs missing, empty or stale: {bad or 'no outputs listed'}")
print(f"main job: {len(rows)} outputs present and up to date; a re-run is a no-op")

# Every run file is TREC as written (issue 43): its first line six fields, not an ir_metadata
# header; its record is the file beside it (docs/ir-metadata.md).
sys.path.insert(0, ".")
from gradedrel.core import ir_metadata  # noqa: E402

runs = [Path(row[0]) for row in rows if row[0].endswith(".run")]


def first_line(path: Path) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.readline()


bad = [str(p) for p in runs if len(first_line(p).split()) != 6
       or first_line(p).startswith("#") or not ir_metadata.record_path(p).is_file()]
if not runs or bad:
    sys.exit(f"run files not plain TREC, or without their ir_metadata record beside them: "
             f"{bad[:5] or 'no run files listed'}")
print(f"run files: {len(runs)}, each six TREC columns with its ir_metadata record beside it")

# The README's results region is rendered from a frozen copy of the verdict tables
# (docs/results/, checked against the README by tests/integrity/test_claims.py); the copy must be
# what this main job wrote, byte for byte, or a claim in the README is stale.
from gradedrel.integrity import claims  # noqa: E402


# The config files of this main job (the arguments after --configfile), as Snakemake layers them.
files = sys.argv[sys.argv.index("--configfile") + 1:] if "--configfile" in sys.argv \
    else ["config/config.yaml"]
config = claims.load_config(files)
stale = []
for collection in config["active_collections"]:
    for frozen, source in claims.sources(collection, config).items():
        fresh = Path("results") / collection / source
        if Path(f"docs/results/{collection}/{frozen}").read_bytes() != fresh.read_bytes():
            stale.append(f"docs/results/{collection}/{frozen} differs from {fresh}")
if "nfcorpus" in config["active_collections"]:  # the headline needs both testbeds
    fresh = claims.headline_path("results", config)
    if Path("docs/results/headline.md").read_bytes() != fresh.read_bytes():
        stale.append(f"docs/results/headline.md differs from {fresh}")
if stale:
    sys.exit("README claims are stale (refresh with python -m gradedrel.integrity.claims): "
             + "; ".join(stale))
print("README claims: the frozen verdict tables equal the main job's")
