#!/usr/bin/env bash
# CI: prove the set-up (not the whole suite) on the supported Pythons besides the one `make`
# uses (.ci/run runs the README's commands on the distribution's /usr/bin/python3, Debian 12's
# 3.11.2): the newest pyenv (or PATH) 3.13 and 3.12.
# For each: the set-up check, a fresh venv, `pip install -r requirements.lock`, the editable
# install as the Makefile does it (its output must carry no warning), and the imports.
# Prints one line per interpreter; exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# Debian ships the venv module (ensurepip) separately: install it where it is missing.
if [ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
  echo "setup: /usr/bin/python3 has no venv module; installing Debian's python3-venv"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi

newest() {  # the newest pyenv interpreter of a minor version, else pythonX.Y on PATH
  local root=${PYENV_ROOT:-$HOME/.pyenv} minor=$1 candidate
  candidate=$(ls -d "$root"/versions/"$minor".*/bin/python 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$candidate" ]; then candidate=$(command -v "python$minor" || true); fi
  echo "$candidate"
}
INTERPRETERS=()
for minor in 3.13 3.12; do
  found=$(newest "$minor")
  if [ -n "$found" ]; then INTERPRETERS+=("$found"); fi
done
if [ "${#INTERPRETERS[@]}" -eq 0 ]; then
  echo "setup: no Python 3.13 or 3.12 found (pyenv or PATH) to prove the set-up on" >&2
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Run from $WORK, not the repository: the installed package, not the source folder, is imported.
cat > "$WORK/imports.py" <<'PY'
import platform
from importlib.metadata import version

import gradedrel, pyterrier, snakemake, ir_datasets, ir_measures, rdata  # noqa: F401

print("Python {}: gradedrel {}, pyterrier {}, snakemake {}, soupsieve {}".format(
    platform.python_version(), gradedrel.__version__, version("pyterrier"),
    version("snakemake"), version("soupsieve")))
PY
for PY in "${INTERPRETERS[@]}"; do
  start=$SECONDS
  name=$(basename "$(dirname "$(dirname "$PY")")")-$(basename "$PY")
  venv=$WORK/$name
  log=$WORK/$name.log
  if ! "$PY" tools/check_setup.py >"$log" 2>&1 \
     || ! "$PY" -m venv "$venv" >>"$log" 2>&1 \
     || ! "$venv/bin/python" -m pip install --quiet --upgrade "pip>=24" >>"$log" 2>&1 \
     || ! "$venv/bin/python" -m pip install --quiet -r requirements.lock >>"$log" 2>&1; then
    echo "setup FAILED on $PY:" >&2; tail -n 20 "$log" >&2; exit 1
  fi
  # The editable install exactly as the Makefile runs it: no setuptools warning may get through.
  if ! PYTHONWARNINGS="ignore:Editable installation" "$venv/bin/python" -m pip install --quiet \
       --no-deps -e . >"$log.e" 2>&1 || grep -qiE "warning|deprecat" "$log.e"; then
    echo "setup FAILED on $PY (editable install, or warnings in its output):" >&2
    cat "$log.e" >&2; exit 1
  fi
  summary=$(cd "$WORK" && "$venv/bin/python" "$WORK/imports.py") \
    || { echo "import FAILED on $PY" >&2; exit 1; }
  version=$("$venv/bin/gradedrel" --version)
  echo "setup ok on $PY: $summary; '$version'; lock installed and imported in $((SECONDS - start)) s"
done
