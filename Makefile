# Banmen: `make test` and `make run` are all a newcomer needs (see README.md).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-fast run bench lint typecheck pytest font postgres chromium sandbox lock clean docs-images vendor

$(STAMP): requirements/main.txt requirements/dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --require-hashes \
		-r requirements/main.txt -r requirements/dev.txt
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

font:
	@sh scripts/install-font.sh

## PostgreSQL's programs: the store and service tests run on SQLite and on a throwaway cluster.
postgres:
	@sh scripts/install-postgres.sh

## Chromium for the web pages' browser tests (Playwright drives Debian's package by its path).
chromium:
	@sh scripts/install-chromium.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check engines render bot tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

## pytest-xdist workers: one per core (PYTEST_WORKERS=0 runs the tests in pytest's own process).
PYTEST_WORKERS ?= auto

## The tests marked alone (tests/conftest.py: several bot processes at once) run after the others,
## by themselves (exit status 5: none of them was selected by PYTEST_ARGS).
pytest: $(STAMP) font postgres chromium
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m "not alone" $(PYTEST_ARGS)
	$(BIN)/pytest -m alone $(PYTEST_ARGS) || [ $$? -eq 5 ]

## The test command: lint, types, then the whole suite.
test: $(STAMP) font postgres chromium lint typecheck pytest

## While iterating: no lint, SQLite only, without the tests marked slow (processes started and
## killed, the browser, the AI ladder: tests/conftest.py). `make test` before pushing.
test-fast: $(STAMP) font
	BANMEN_TEST_BACKENDS=sqlite $(BIN)/pytest -n $(PYTEST_WORKERS) -m "not slow" $(PYTEST_ARGS)

## The main job: the Discord bot when DISCORD_TOKEN is set, else the terminal sandbox.
run: $(STAMP) font
	$(BIN)/python -m bot $(ARGS)

sandbox: $(STAMP) font
	$(BIN)/python -m bot sandbox $(ARGS)

## Benchmarks print tables; they assert nothing about time.
bench: $(STAMP) font postgres
	$(BIN)/python -m bench $(ARGS)

docs-images: $(STAMP) font
	$(BIN)/python -m render.samples docs/images

## Rebuild the Activity page's bundle of Discord's Embedded App SDK from scripts/vendor's lock
## (needs node and npm; its output, bot/web/static/vendor/discord-sdk.js, is committed).
vendor:
	sh scripts/vendor/build.sh

## Re-pin the dependencies (needs pip-tools; run by a developer, never by CI).
lock:
	$(PYTHON) -m piptools compile -q --generate-hashes --allow-unsafe --strip-extras -o requirements/main.txt requirements/main.in
	$(PYTHON) -m piptools compile -q --generate-hashes --allow-unsafe --strip-extras -o requirements/dev.txt requirements/dev.in

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
