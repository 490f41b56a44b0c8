# Two entry points (see README): `make reproduce` and `make test`.
# Both create .venv with the pinned dependencies on first use, after a set-up check
# (tools/check_setup.py: Python >= 3.11, the venv module, a Java 17 JDK) that says in one line
# what to install when something is missing. PYTHON picks the interpreter for .venv.
PYTHON ?= python3
VENV ?= .venv
CORES ?= 2
BIN := $(VENV)/bin
# setuptools prints an informational notice on every editable install; silence only that one.
QUIET_EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

.PHONY: check setup reproduce reproduce-nfcorpus adopt test test-fast lint format-check clean dist

check:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "setup: $(PYTHON) not found: install Python 3.11 or newer (tested: 3.11, 3.12, 3.13) and run make PYTHON=python3.11 (or 3.12, 3.13)" >&2; exit 1; }
	@$(PYTHON) tools/check_setup.py

setup: check $(VENV)/.installed

$(VENV)/.installed: requirements.lock pyproject.toml | check
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(QUIET_EDITABLE) $(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# The report's own style additions: job parameters out of an item's pane, a narrower pane
# so that tables fit 1,400 px (workflow/report/report.css). Before it is made, the pages of
# results written by an older gradedrel are rewritten (tools/refresh_report_pages.py).
REPORT_STYLE := --report-stylesheet workflow/report/report.css

# Resumes an interrupted run: tools/recover.py clears the stale lock of a dead run (never
# the lock of a live one), and --rerun-incomplete re-runs the jobs it left half-done.
reproduce: setup
	$(BIN)/python tools/recover.py --snakemake $(BIN)/snakemake
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete
	$(BIN)/python tools/refresh_report_pages.py results
	$(BIN)/snakemake --report results/report.html $(REPORT_STYLE)

# The main job with the second testbed, NFCorpus (MeSH and WordNet), beside Cranfield.
NFCORPUS := --configfile config/config.yaml config/nfcorpus/testbed.yaml
reproduce-nfcorpus: setup
	$(BIN)/python tools/recover.py --snakemake $(BIN)/snakemake
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(NFCORPUS)
	$(BIN)/python tools/refresh_report_pages.py results
	$(BIN)/snakemake --report results/report.html $(REPORT_STYLE) $(NFCORPUS)

# Results copied into a fresh clone of the same commit: checked against their provenance
# records, then marked current (tools/adopt.py; docs/setup.md, "Results made elsewhere").
# The config files the results were made with: CONFIGFILES="config/config.yaml x.yaml"
# (as --configfile takes them), or CONFIG=nfcorpus, the config files of reproduce-nfcorpus.
CONFIG ?=
CONFIGFILES ?=
ADOPT_CONFIG := $(if $(filter nfcorpus,$(CONFIG)),$(NFCORPUS),$(if $(strip $(CONFIGFILES)),--configfile $(CONFIGFILES)))
adopt: setup
	@test -z "$(CONFIG)" -o "$(CONFIG)" = nfcorpus || { echo "adopt: CONFIG=$(CONFIG): expected nothing or CONFIG=nfcorpus (other config files: CONFIGFILES=\"...\")" >&2; exit 1; }
	@test -z "$(CONFIG)" -o -z "$(strip $(CONFIGFILES))" || { echo "adopt: CONFIG=$(CONFIG) and CONFIGFILES=$(CONFIGFILES): expected one of them" >&2; exit 1; }
	$(BIN)/python tools/adopt.py --snakemake $(BIN)/snakemake $(ADOPT_CONFIG)

# Two workers (pytest-xdist), a test file at a time each: module fixtures are made once, and
# the session's shared set-ups (the finished fixture project, the Cranfield index) are built
# by one worker and reused by the other (tests/conftest.py: built_once).
test: setup
	$(BIN)/python -m pytest -n 2 --dist loadfile

# The package's own tests: no workflow run, no Java, no full-data test (under a minute).
test-fast: setup
	$(BIN)/python -m pytest -q -m "not workflow and not terrier and not slow and not slurm"

lint: setup
	$(BIN)/snakemake --lint

# The Snakefile and rule files as snakefmt formats them (pinned in requirements-format.txt,
# installed in a venv of its own: .venv-format).
.venv-format/.installed: requirements-format.txt | check
	$(PYTHON) -m venv .venv-format
	.venv-format/bin/python -m pip install --quiet -r requirements-format.txt
	touch $@

format-check: .venv-format/.installed
	.venv-format/bin/snakefmt --check Snakefile workflow/

clean:
	rm -rf results/* figures/* .snakemake

# A release's files: the sdist and the wheel in dist/ (python -m build, checked by twine), with
# the pinned build tools in a venv of their own. Cutting a release: docs/setup.md.
dist:
	test -x .venv-release/bin/twine || (python3 -m venv .venv-release && \
	  .venv-release/bin/python -m pip install --quiet -r requirements-release.txt)
	rm -rf dist
	.venv-release/bin/python -m build --outdir dist .
	.venv-release/bin/twine check --strict dist/*
