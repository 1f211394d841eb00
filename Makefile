# Two commands on a fresh machine:  make run   and   make test
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
ARGS   ?=

.PHONY: run test screenshots lint bench soak print clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

## make run: set up the virtual environment, install, start the app (ARGS="--port 9000" to pass options)
run: $(VENV)/.installed
	$(BIN)/companion $(ARGS)

## make test: set up, then run every test (rules, table, printing, browser tests in headless Chromium);
## writes nothing into the tree (screenshots go to pytest's scratch folder). The tests without a browser run
## on two workers (pytest-xdist), the browser tests one at a time after them. A browser test that fails
## is run once more (pytest-rerunfailures): a real browser on a shared machine has timing of its own; the
## summary lists each RERUN – each one is a race to find, never a pass to forget
test: $(VENV)/.installed-test
	$(BIN)/ruff check companion tests
	$(BIN)/python -m pytest -n 2 --ignore=tests/browser $(PYTEST_ARGS)
	$(BIN)/python -m pytest tests/browser --reruns 1 --reruns-delay 2 $(PYTEST_ARGS)

## make screenshots: the documentation's pictures, docs/screenshots/*.png, from the browser tests that
## take them (marker "screenshots"); look at them (git diff) before committing
screenshots: $(VENV)/.installed-test
	COMPANION_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/python -m pytest -m screenshots tests/browser $(PYTEST_ARGS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check companion tests

## make bench: every benchmark of docs/BENCHMARKS.md (about 15 minutes; raw figures in /tmp/companion-bench/*.json,
## or BENCH_OUT=benchmarks/results to keep them with the committed ones)
BENCH_OUT ?=
bench: $(VENV)/.installed-test
	export COMPANION_BENCH_OUT="$(BENCH_OUT)"; \
	$(BIN)/python -m benchmarks.phone_join $(BENCH_ARGS) && \
	$(BIN)/python -m benchmarks.fanout && \
	$(BIN)/python -m benchmarks.capacity && \
	$(BIN)/python -m benchmarks.restart && \
	$(BIN)/python -m benchmarks.printing && \
	$(BIN)/python -m benchmarks.history && \
	$(BIN)/python -m benchmarks.shared_seats

## make soak: 50 tables x 6 simulated phones, 20,000 actions (docs/RELIABILITY.md)
soak: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.soak --tables 50 --phones 6 --actions 20000

print: $(VENV)/.installed
	$(BIN)/companion print --all

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
