# One entry point for people and CI. Every target sets up what it needs first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CONSTRAINTS := .ci/constraints.txt
# litellm pins openai below 3: it gets an environment of its own, for the tests that run
# its client and its proxy (an OpenAI-compatible server nobody on this project wrote).
LITELLM_VENV ?= .venv-litellm
LITELLM_STAMP := $(LITELLM_VENV)/.installed

.PHONY: setup setup-litellm lab test test-fast lint bench browser-deps proxy-deps clean

$(STAMP): pyproject.toml $(CONSTRAINTS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -U pip
	$(BIN)/pip install -q -c $(CONSTRAINTS) -e ".[dev]"
	touch $(STAMP)

$(LITELLM_STAMP): .ci/constraints-litellm.txt
	$(PYTHON) -m venv $(LITELLM_VENV)
	$(LITELLM_VENV)/bin/pip install -q -U pip
	$(LITELLM_VENV)/bin/pip install -q -c .ci/constraints-litellm.txt "litellm[proxy]"
	touch $(LITELLM_STAMP)

setup: $(STAMP)

setup-litellm: $(LITELLM_STAMP)

# Jupyter refuses to run as root unless told; CI machines and containers run as root.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root,)

## JupyterLab on the quickstart notebook, against the embedded service.
lab: setup
	$(BIN)/jupyter lab $(LAB_FLAGS) notebooks/quickstart.ipynb

## Debian's Chromium for the browser tests (Playwright's own download cannot work here).
browser-deps:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	  else sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; fi; }

## Debian's nginx for the replica tests (tests/support/replicas.py runs deploy/nginx.conf).
proxy-deps:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx; \
	  else sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx; fi; }

lint: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python scripts/unasync_client.py --check

## The whole suite: lint, types, unit and integration tests, browser tests, notebooks (nbval),
## then the service tests again on PostgreSQL and S3 (servers from wheels, started by the tests).
test: setup setup-litellm browser-deps proxy-deps lint
	$(BIN)/python -m pytest
	$(BIN)/python -m pytest tests/service --engine postgres -m "not replicas"
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg \
	  --nbval-cell-timeout=120 notebooks

test-fast: setup setup-litellm
	$(BIN)/python -m pytest -m "not browser and not slow" -x -q

bench: setup
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) $(LITELLM_VENV) build dist
