# saikoro: `make serve` sets everything up and serves the site; `make test` sets everything up and
# runs every test (lint, types, unit, doctests, site builds, browser tests in headless Chromium).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := .stamps
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build test lint lint-js bench dist clean

setup: $(STAMPS)/python $(STAMPS)/npm $(STAMPS)/vendor

# The virtual environment with saikoro installed in editable mode and the test tools.
$(STAMPS)/python: pyproject.toml
	@mkdir -p $(STAMPS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

# Pyodide and Mermaid, pinned in package.json / package-lock.json, self-hosted by the site.
$(STAMPS)/npm: package.json package-lock.json
	@mkdir -p $(STAMPS)
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The pinned Pyodide and Mermaid files a site serves, copied into the package
# (plugin/saikoro/site/vendor/, git-ignored) so the editable install and the wheel carry them.
VENDOR := plugin/saikoro/site/vendor
$(STAMPS)/vendor: $(STAMPS)/python $(STAMPS)/npm $(VENDOR)/__init__.py $(wildcard licenses/*)
	$(BIN)/python -m saikoro.site.vendor node_modules licenses
	@touch $@

# Debian's Chromium for the browser tests (installed with apt when running as root).
$(STAMPS)/chromium:
	@mkdir -p $(STAMPS)
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "Chromium is missing: install Debian's 'chromium' package (sudo apt-get install chromium)"; exit 1; \
	  fi; \
	fi
	@touch $@

serve: setup
	$(BIN)/mkdocs serve -a 127.0.0.1:8000

build: setup
	$(BIN)/mkdocs build --strict

lint: $(STAMPS)/python
	$(BIN)/ruff check plugin tests bench examples
	$(BIN)/ruff format --check plugin tests bench examples
	$(BIN)/mypy

# The roller's ES modules (plugin/saikoro/site/assets/roller/, `// @ts-check`) type-checked
# and linted (unused names, missing returns) by the pinned TypeScript: tsconfig.json.
lint-js: $(STAMPS)/npm
	node_modules/.bin/tsc -p tsconfig.json

# One pytest worker more than the cores this process may use: the browser, build and CLI
# tests wait on Chromium, servers and child processes much of the time (a 2-core run kept
# the cores about 60 % busy with one worker per core).
WORKERS ?= $(shell $(PYTHON) -c 'import os; print(len(os.sched_getaffinity(0)) + 1)')

test: setup $(STAMPS)/chromium lint lint-js
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup

bench: setup $(STAMPS)/chromium
	$(BIN)/python bench/bench_odds.py
	$(BIN)/python bench/bench_validate.py
	$(BIN)/python bench/bench_author.py
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_browser.py
	$(BIN)/python bench/bench_differential.py
	$(BIN)/python bench/bench_simulate.py
	$(BIN)/python bench/bench_exact.py
	$(BIN)/python bench/bench_tune.py

# The wheel and sdist in dist/, with the pinned Pyodide and Mermaid inside; metadata checked.
dist: setup
	rm -rf dist build plugin/saikoro.egg-info
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*
	@ls -l dist

clean:
	rm -rf $(STAMPS) site build dist .pytest_cache .mypy_cache .ruff_cache $(VENDOR)/*/ $(VENDOR)/manifest.json
