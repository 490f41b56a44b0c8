# Two entry points (see README): `make reproduce` and `make test`.
# Both create .venv with the pinned dependencies on first use.
PYTHON ?= python3
VENV ?= .venv
CORES ?= 2
BIN := $(VENV)/bin

.PHONY: setup reproduce test test-fast lint clean

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

reproduce: setup
	$(BIN)/snakemake --cores $(CORES)
	$(BIN)/snakemake --report results/report.html

test: setup
	$(BIN)/python -m pytest

# The package's own tests: no workflow run, no Java, no full-data test (under a minute).
test-fast: setup
	$(BIN)/python -m pytest -q -m "not workflow and not terrier and not slow"

lint: setup
	$(BIN)/snakemake --lint

clean:
	rm -rf results/* figures/* .snakemake
