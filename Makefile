# The two commands a newcomer needs: `make run` and `make test`. Both set up .venv with exactly the
# versions in uv.lock (hashes checked), and fail when uv.lock and pyproject.toml disagree.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# uv installs from the lock; it lives in its own small venv, apart from the one it syncs.
UV_VERSION := 0.13.9
UV := .uv/bin/uv

.PHONY: run test test-fast bench clean messages new-language lock upgrade

$(UV):
	$(PYTHON) -m venv .uv
	.uv/bin/python -m pip install --quiet "uv==$(UV_VERSION)"

$(STAMP): pyproject.toml uv.lock $(UV)
	$(UV) sync --locked --extra dev --python $(PYTHON) --quiet
	touch $(STAMP)

## After editing pyproject.toml's dependencies: re-resolve only what changed (commit uv.lock).
lock: $(UV)
	$(UV) lock --python $(PYTHON)

## Move every dependency to the newest version pyproject.toml allows, on purpose (then run make test).
upgrade: $(UV)
	$(UV) lock --upgrade --python $(PYTHON)

## Set up and start the app for browsers and phones on the LAN (prints the URL and a QR code).
run: $(STAMP)
	$(BIN)/companion serve

## Set up and run every test: rules, store, crash safety, and the real app in headless Chromium.
test: $(STAMP)
	pg_url=$$(tests/setup/machine.sh) && \
	COMPANION_TEST_POSTGRES_URL="$$pg_url" $(BIN)/python -m pytest

## Everything but the browser tests (needs no Chromium).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not e2e"

## Benchmarks (not part of the test run): store, start-up, first frame, taps, sessions, a phone's open, a phone alone.
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
	rm -rf $(VENV) .uv .pytest_cache .hypothesis artifacts

## The whole app as a static site for a phone alone (no laptop): build/web/, served by any static host.
## Wheels come from the versions in uv.lock (PyPI, once; then build/.web-cache/). See "On a phone alone".
.PHONY: web
web: $(STAMP)
	$(BIN)/python -m companion.web.build
