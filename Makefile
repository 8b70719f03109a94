# OpenGuru — the two commands: `make run` and `make test`. Everything else is optional.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
API_PORT ?= 8000
UI_PORT ?= 3000
MILVUS_PORT ?= 19530
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/openguru
PYTEST := $(VENV)/bin/pytest -c backend/pyproject.toml --rootdir=.
EVAL_ARGS ?=
BENCH_ARGS ?=

.PHONY: run dev test test-fast openapi-snapshot install install-dev frontend-install lint typecheck pytest eval bench fmt clean

$(VENV)/bin/python:
	python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.runtime: $(VENV)/bin/python backend/requirements.txt
	$(PIP) install --no-compile -r backend/requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime backend/requirements-dev.txt
	$(PIP) install --no-compile -r backend/requirements-dev.txt
	touch $@

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	touch $@

# The embeddable widget (served by Django at /widget.js): rebuilt only when its sources or the
# locked packages change.
WIDGET_JS := frontend/widget/dist/widget.js
$(WIDGET_JS): frontend/node_modules/.installed frontend/package-lock.json frontend/widget/tsconfig.json $(wildcard frontend/widget/src/*.ts) $(wildcard frontend/lib/markdown/*.ts)
	cd frontend && npm run --silent build:widget

install: $(VENV)/.runtime frontend/node_modules/.installed $(WIDGET_JS)
install-dev: $(VENV)/.dev frontend/node_modules/.installed $(WIDGET_JS)

## run: install, migrate, create the admin, start Milvus Lite + worker + beat + API + UI on loopback.
## The UI is its production build (`next start`), built again only when frontend/ changed.
run: install
	$(PY) backend/scripts/run_embedded.py --api-port $(API_PORT) --ui-port $(UI_PORT) --milvus-port $(MILVUS_PORT)

## dev: as run, with `next dev` (compiles on request, reloads on save) for changing the UI
dev: install
	$(PY) backend/scripts/run_embedded.py --ui dev --api-port $(API_PORT) --ui-port $(UI_PORT) --milvus-port $(MILVUS_PORT)

## test: lint, format check, import contracts and types (backend and UI: ruff, lint-imports, mypy,
## eslint, prettier, tsc), the UI's unit tests (vitest), and the whole suite on PostgreSQL plus a
## SQLite smoke run
test: install-dev
	bash backend/scripts/services_up.sh
	bash backend/scripts/browser_up.sh
	bash backend/scripts/nginx_up.sh
	$(VENV)/bin/ruff check --config backend/pyproject.toml backend tests
	$(VENV)/bin/ruff format --config backend/pyproject.toml --check backend tests
	cd backend && ../$(VENV)/bin/lint-imports
	cd backend && ../$(VENV)/bin/mypy .
	cd frontend && npm run --silent lint && npm run --silent format:check
	cd frontend && npm run --silent typecheck && npm run --silent test
	DATABASE_URL=$(TEST_DATABASE_URL) $(PYTEST) tests -m "not sqlite" -n 2 --dist loadfile --no-loadscope-reorder --durations=25
	env -u DATABASE_URL $(PYTEST) tests -m sqlite

## test-fast: the engine, fusion, gate, metrics, chunking and memory-store tests (marked `fast`),
## on SQLite in memory with the in-memory vector store: no Milvus, PostgreSQL or broker
FAST_TESTS := tests/answers tests/evaluation/test_metrics.py tests/evaluation/test_refusal_summary.py tests/contracts/test_vectorstore_analyzer_contract.py tests/contracts/test_vectorstore_lookup_contract.py tests/contracts/test_vectorstore_specifics.py tests/sources/test_chunking.py tests/sources/test_chunk_sizes.py tests/contracts/test_vectorstore_contract.py
test-fast: install-dev
	env -u DATABASE_URL VECTOR_STORE=memory $(PYTEST) $(FAST_TESTS) -m "fast and not slow" -p no:cacheprovider -p no:langsmith_plugin -p no:schemathesis -p no:hypothesispytest

lint:
	$(VENV)/bin/ruff check --config backend/pyproject.toml backend tests
	$(VENV)/bin/ruff format --config backend/pyproject.toml --check backend tests
	cd backend && ../$(VENV)/bin/lint-imports

fmt:
	$(VENV)/bin/ruff check --config backend/pyproject.toml --fix backend tests
	$(VENV)/bin/ruff format --config backend/pyproject.toml backend tests

eval: install-dev
	$(PY) backend/manage.py eval $(EVAL_ARGS)

bench: install-dev
	bash backend/scripts/services_up.sh
	bash backend/scripts/browser_up.sh
	$(PY) backend/scripts/bench.py $(BENCH_ARGS)

## openapi-snapshot: after an intended API change, refresh the schema snapshot the tests compare with
## (and the UI's types generated from it)
openapi-snapshot: install-dev
	env -u DATABASE_URL OPENAPI_SNAPSHOT_WRITE=1 $(PYTEST) tests/core/test_openapi_snapshot.py -q
	cd frontend && npm run --silent api:types

clean:
	rm -rf data reports/*.json reports/*.md reports/*.png
