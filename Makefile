# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast lint system-deps bench bench-1m bench-virtuoso bench-copies bench-graphs bench-timing stress fuzz eval eval-real eval-orgs clean

# Parallel test processes (pytest-xdist): `auto` is one per core; `make test JOBS=1` runs in one.
# --dist loadgroup, as tests/conftest.py schedules it, keeps a file's tests in one process, so its
# module fixtures (a built store, a server) are made once, and the files of one xdist_group (those
# using the session's Virtuoso) in one process, so the server starts once.
JOBS ?= auto
DIST := --dist loadgroup
# The tiers (docs/testing.md): test-fast leaves out every test with one of these marks.
SLOW_TIERS := slow or browser or server or packaging or realdata
# Files `ruff format --check` holds to the formatter's layout; the rest of the tree joins once
# `ruff format` has run over it.
FORMATTED := .

# The install's output (pip's notices and warnings) goes to a log, shown only when the install fails.
INSTALL_LOG := $(VENV)/install.log

$(STAMP): pyproject.toml setup.py
	@echo "Installing kg and its dependencies into $(VENV)/ (log: $(INSTALL_LOG))"
	@$(PYTHON) -m venv $(VENV)
	@( $(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e '.[test]' ) \
	  >$(INSTALL_LOG) 2>&1 || { cat $(INSTALL_LOG); echo "install failed: see $(INSTALL_LOG)"; exit 1; }
	@touch $(STAMP)

## Build the knowledge graph of the bundled sample listings into exports/.
demo: $(STAMP)
	@$(BIN)/kg build

## Install what the tests need (Python packages, rapper, roqet, Chromium), lint, and run every test.
test: $(STAMP) system-deps lint
	$(BIN)/python -m pytest -n $(JOBS) $(DIST)

## The unit tier: no slow, browser, server, packaging or real-data test (under 2 minutes).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) $(DIST) -m "not ($(SLOW_TIERS))"

## ruff's checks over the tree, its layout over the files in FORMATTED, radon's complexity over kg/.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(if $(strip $(FORMATTED)),$(BIN)/ruff format --check $(FORMATTED))
	$(BIN)/python scripts/complexity.py --max 15 kg

## Debian packages the tests use: an independent RDF parser and SPARQL engine, a headless browser, xmllint (GEXF schema),
## and Virtuoso (a second SPARQL server for the remote store, with its isql for the bulk loader).
system-deps:
	@if ! command -v rapper >/dev/null || ! command -v roqet >/dev/null || ! command -v chromium >/dev/null || ! command -v xmllint >/dev/null \
	  || ! command -v virtuoso-t >/dev/null || ! command -v isql-vt >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends \
	    raptor2-utils rasqal-utils chromium libxml2-utils virtuoso-opensource >/dev/null; \
	fi

## The baseline release the benchmark measures beside this one: a worktree of its tag with its own venv.
BASELINE_TAG ?= v0.1.0
BASELINE     ?= .bench/$(BASELINE_TAG)
# The tag's commit, for a clone that did not fetch tags.
BASELINE_COMMIT := b757193

$(BASELINE)/.venv/.installed:
	@git worktree add --detach $(BASELINE) $(BASELINE_TAG) >/dev/null 2>&1 || \
	  git worktree add --detach $(BASELINE) $(BASELINE_COMMIT) >/dev/null 2>&1 || test -d $(BASELINE)
	@$(MAKE) --no-print-directory -C $(BASELINE) .venv/.installed

## Throughput, memory and first pages beside the engine, the naive route and the baseline release, in one run.
bench: $(STAMP) $(BASELINE)/.venv/.installed
	$(BIN)/python bench/run.py --baseline $(BASELINE)

bench-graphs: $(STAMP)
	$(BIN)/python bench/graphs.py

## kg stats / kg query run beside 5 rebuilds of a 2,000-paper store: failures (0 expected).
stress: $(STAMP)
	$(BIN)/python bench/stress_readers.py

## 500 mutants of a file in each input format: tracebacks, hangs, records lost (0 expected).
fuzz: $(STAMP)
	$(BIN)/python bench/fuzz_readers.py --field-mb 10

## The timing checks: every `kg … --help`, hostile inputs beside ordinary ones, a 20,000-author page.
bench-timing: $(STAMP)
	$(BIN)/python bench/cli_help.py
	$(BIN)/python bench/hostile_inputs.py
	$(BIN)/python bench/page_load.py

## The same at 1,000,000 papers (hours on a 2-core machine; not run in CI).
bench-1m: $(STAMP)
	$(BIN)/python bench/run.py --sizes 1000000

## N papers through the bulk path into a private Virtuoso, every query's first page there and embedded
## (docs/performance.md, "Scale: embedded vs Virtuoso"); needs virtuoso-opensource (make system-deps).
PAPERS ?= 100000
bench-virtuoso: $(STAMP)
	mkdir -p .bench
	$(BIN)/python bench/virtuoso.py --papers $(PAPERS) --json .bench/virtuoso-$(PAPERS).json --max-minutes 240

## COPIES disjoint copies of the store STORE (a corpus COPIES times its size) into Virtuoso and an embedded
## store, every query's first page on both (bench/virtuoso_copies.py); the copies stay in SCRATCH until removed.
COPIES ?= 10
SCRATCH ?= .bench/copies
bench-copies: $(STAMP)
	mkdir -p .bench
	$(BIN)/python bench/virtuoso.py --from-store $(STORE) --copies $(COPIES) --scratch $(SCRATCH) \
		--json .bench/virtuoso-copies-$(COPIES).json --query-seconds 300 --max-minutes 300

## Precision/recall of topics and introduced artifacts on the held-out gold set (eval/GUIDELINES.md).
eval: $(STAMP)
	$(BIN)/python -m eval.evaluate

## Scorecard of kg on the real conferences in ../shared/realdata/ (skipped when absent; KG_REALDATA overrides).
eval-real: $(STAMP)
	$(BIN)/python -m eval.realdata

## Precision and coverage of the organisation registry match: eval/orgs_gold.tsv, and ../shared/realdata/ when present.
eval-orgs: $(STAMP)
	$(BIN)/python -m eval.orgs

clean:
	rm -rf $(VENV) .kg-store exports/*.ttl exports/*.nt exports/*.jsonld exports/*.html exports/*.tsv exports/*.gexf exports/*.graphml exports/*.csv
