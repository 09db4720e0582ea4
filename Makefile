# gamehall — the two commands: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint unit integration e2e browser bench mutants fuzz probes docs install clean help

help:
	@echo "make run    - create .venv, install, start the whole stack (embedded nats-server + SQLite)"
	@echo "make test   - create .venv if needed, install, run lint + type checks + the test suite"
	@echo "make bench  - benchmarks, reported as ratios to the reference pipeline in ../shared/bench"
	@echo "make mutants - mutation testing of domain/ packages (slow; PKG=domain/games/ugolki for one)"
	@echo "make lint   - ruff, mypy (strict on contracts/ and domain/), import-linter"
	@echo "make unit | integration | e2e | browser - one folder of tests/ (ARGS='-k name' to narrow)"
	@echo "make fuzz   - a long schemathesis run against the gateway's OpenAPI, and the WebSocket fuzz"
	@echo "make probes - the hostile-client probes against the stack \`make run\` started (DATA=.gamehall)"
	@echo "make docs   - write docs/api.md and the TypeScript client's sources (clients/ts/src) again"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Playing needs only the service's own dependencies (make run); the suite, linters, mutation
# testing and benchmarks need the development extras too (every other target).
RUN_STAMP := $(VENV)/.installed-run

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

# The project's bytecode, written even where PYTHONDONTWRITEBYTECODE is set: without it every
# service start compiles the sources again (0.6 s of CPU of a referee's restart, docs/benchmarks.md).
# compileall skips what is up to date.
BYTECODE := $(BIN)/python -m compileall -q contracts domain services gamehall >/dev/null

# The TypeScript client (clients/ts): TypeScript, pinned in its package-lock.json, installed with
# `npm ci` and the package built to clients/ts/dist, where node and npm are installed; without npm
# this says so and tests/integration/test_ts_client.py fails with what to install.
TS := clients/ts
TS_STAMP := $(TS)/node_modules/.installed
TS_DIST := $(TS)/dist/index.js

$(TS_STAMP): $(TS)/package.json $(TS)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd $(TS) && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else \
		echo "npm not found: clients/ts (the TypeScript client) is not installed, its test will fail; install node 20+ and npm"; \
	fi

$(TS_DIST): $(TS_STAMP) $(wildcard $(TS)/src/*.ts) $(TS)/tsconfig.json
	@if [ -f $(TS_STAMP) ]; then cd $(TS) && npm run --silent build; fi

install: $(STAMP) $(TS_DIST)
	$(BYTECODE)

run: $(RUN_STAMP)
	$(BYTECODE)
	$(BIN)/gamehall up

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy contracts domain
	$(BIN)/lint-imports

test: $(STAMP) $(TS_DIST)
	$(BYTECODE)
	bash scripts/test.sh

# One folder of the suite each: pure rules (unit), a real nats-server (integration), every
# service as a process (e2e), the web client in headless Chromium (browser).
unit: $(STAMP)
	$(BIN)/python -m pytest -q tests/unit $(ARGS)

integration: $(STAMP) $(TS_DIST)
	$(BIN)/python -m pytest -q tests/integration $(ARGS)

e2e: $(STAMP)
	bash scripts/ensure-prometheus.sh
	$(BIN)/python -m pytest -q tests/e2e $(ARGS)

browser: $(STAMP)
	bash scripts/ensure-chromium.sh
	$(BIN)/python -m pytest -q tests/browser $(ARGS)

fuzz: $(STAMP)
	GAMEHALL_FUZZ_EXAMPLES=$${GAMEHALL_FUZZ_EXAMPLES:-400} nice -n 19 $(BIN)/python -m pytest -q -s -p no:cacheprovider \
		tests/fuzz tests/integration/test_websocket_edge.py tests/property/test_command_codec.py

bench: $(STAMP)
	$(BIN)/python bench/run.py

# The hostile-client probe set (tests/support/hostile.py) against a running stack.
probes: $(STAMP)
	$(BIN)/python -m tests.support.hostile --data-dir $${DATA:-.gamehall}

# Mutation testing (mutmut) of the domain packages with their own tests; see docs/testing.md.
mutants: $(STAMP)
	bash scripts/mutants.sh $(PKG)

docs: $(STAMP)
	$(BIN)/python scripts/api_docs.py
	$(BIN)/python scripts/ts_client.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(TS)/node_modules $(TS)/dist $(TS)/test/build
