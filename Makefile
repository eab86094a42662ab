# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test system-deps bench eval clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

## Build the knowledge graph of the bundled sample listings into exports/.
demo: $(STAMP)
	$(BIN)/kg build

## Install what the tests need (Python packages, rapper, roqet, Chromium) and run them all.
test: $(STAMP) system-deps
	$(BIN)/python -m pytest

## Debian packages the tests use: an independent RDF parser and SPARQL engine, a headless browser.
system-deps:
	@if ! command -v rapper >/dev/null || ! command -v xmllint >/dev/null || ! command -v roqet >/dev/null || ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends \
	    raptor2-utils rasqal-utils libxml2-utils chromium >/dev/null; \
	fi

## Throughput and memory beside baselines measured in the same run.
bench: $(STAMP)
	$(BIN)/python bench/run.py

## Precision/recall of topics and introduced artifacts on the held-out gold set (eval/GUIDELINES.md).
eval: $(STAMP)
	$(BIN)/python -m eval.evaluate

clean:
	rm -rf $(VENV) .kg-store exports/*.ttl exports/*.nt exports/*.jsonld exports/*.html exports/*.tsv exports/*.gexf exports/*.graphml exports/*.csv
