# Quick start: `make run` and `make test` work on a fresh machine with only python3.
# `make test` installs (as root, with apt-get) and starts what the tests need: Chromium
# for the browser tests, nginx for the deployment test and a local PostgreSQL server
# (scripts/ensure-*).
#
# The venv is made from Debian's /usr/bin/python3 when it is 3.11 or newer: Debian builds
# CPython with profile-guided and link-time optimisation, which a default pyenv build
# (often first on PATH) lacks, and the engine runs about a quarter faster on it (README,
# Speed). Otherwise from python3; `make PYTHON=...` chooses another.
DEBIAN_PYTHON := $(shell /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && echo /usr/bin/python3)
PYTHON ?= $(or $(DEBIAN_PYTHON),python3)
VENV := .venv
BIN := $(VENV)/bin
# Named after the interpreter, so that choosing another one makes the venv again.
STAMP := $(VENV)/.installed$(subst /,-,$(PYTHON))
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq >/dev/null


.PHONY: run core demo test lint typecheck services pytest lowest python312 bench load clean

# Debian's python3 lacks ensurepip until python3-venv is installed: install it when root.
# The editable install builds the native core (setup.py) next to its source where a C
# compiler and the interpreter's headers are, which ensure-native-toolchain installs when
# root; a change to the core's source builds it again.
$(STAMP): pyproject.toml setup.py $(wildcard src/triominos/*.pyx)
	test -e $(STAMP) || rm -rf $(VENV)
	test -x $(BIN)/pip || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV) \
		&& { $(APT_INSTALL) python3-venv || { apt-get update -qq && $(APT_INSTALL) python3-venv; }; } \
		&& $(PYTHON) -m venv $(VENV); }
	$(BIN)/pip install --quiet --upgrade pip
	scripts/ensure-native-toolchain $(PYTHON)
	$(BIN)/pip install --quiet -e '.[server,test,rl,cluster]'
	touch $(STAMP)

# One line: which core runs the board, native or pure Python and why (triominos.native).
core: $(STAMP)
	@$(BIN)/python -c 'from triominos import native; print(native.core())'

# The web app on http://127.0.0.1:8000/ (play, watch, the score pad); Ctrl-C stops it.
run: $(STAMP) core
	$(BIN)/triominos serve

demo: $(STAMP)
	$(BIN)/triominos demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

services:
	scripts/ensure-chromium
	scripts/ensure-nginx
	test -n "$$TRIOMINOS_TEST_POSTGRES_URL" || scripts/ensure-postgres >/dev/null

# A server given in TRIOMINOS_TEST_POSTGRES_URL is used as is; else the local test cluster.
pytest: $(STAMP) core services
	TRIOMINOS_TEST_POSTGRES_URL="$${TRIOMINOS_TEST_POSTGRES_URL:-$$(scripts/ensure-postgres)}" \
		$(BIN)/pytest

# The engine's tests in a venv of their own with the core alone, at its lowest versions,
# and on the pure-Python core: with `pytest` on the native one, CI runs the engine's and
# the bots' tests on both cores (the differential tests compare them in both runs).
lowest: $(STAMP)
	TRIOMINOS_NATIVE=0 $(PYTHON) scripts/test-lowest

# The native core's differential tests again on Python 3.12 where one is found (pyenv's
# versions count): its sum() of floats compensates, and the native core follows it there.
python312: $(STAMP)
	$(PYTHON) scripts/test-python312

test: lint typecheck pytest lowest python312

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

load: $(STAMP)
	$(BIN)/python benchmarks/load.py --tables 200 --clients 500

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
