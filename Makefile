# The two commands a newcomer needs: `make run` and `make test`. Both set up .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast bench clean messages new-language

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

## Set up and start the app for browsers and phones on the LAN (prints the URL and a QR code).
run: $(STAMP)
	$(BIN)/companion serve

## Set up and run every test: rules, store, crash safety, and the real app in headless Chromium.
test: $(STAMP)
	$(BIN)/python -m pytest

## Everything but the browser tests.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not e2e"

## Benchmarks (not part of the test run): startup, apply+commit, load, first frame vs a bare Flet app.
bench: $(STAMP)
	$(BIN)/python -m tests.perf.run_all

## Re-extract every player-visible string into companion/locale/companion.pot (see babel.cfg) and bring each
## language's catalog up to date; then translate what is new or marked fuzzy (tests/test_i18n.py checks).
POT := companion/locale/companion.pot
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --sort-output --add-location=file --project="Table Companion" \
		--copyright-holder="Table Companion contributors" -o $(POT) companion
	$(BIN)/pybabel update -i $(POT) -d companion/locale -D companion --ignore-obsolete

## Start a catalog for a new language: make new-language CODE=fr (then translate companion/locale/fr/...).
new-language: $(STAMP)
	test -n "$(CODE)" || (echo "usage: make new-language CODE=fr" && false)
	$(BIN)/pybabel init -i $(POT) -d companion/locale -D companion -l $(CODE)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis artifacts

## The whole app as a static site for a phone alone (no laptop): build/web/, served by any static host.
## Wheels come from the versions in uv.lock (PyPI, once; then build/.web-cache/). See "On a phone alone".
.PHONY: web
web: $(STAMP)
	$(BIN)/python -m companion.web.build
