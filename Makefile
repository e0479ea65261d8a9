# draw-dominoes: `make play` runs the game, `make test` runs every check (what CI runs),
# `make test-fast` skips the slow, browser and Ray tests, `make bench` measures speed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The extras installed into .venv: the test suite, the developer tools and every interface.
EXTRAS ?= test,dev,all
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))
FAST := not slow and not browser and not ray

.PHONY: play serve test test-fast lint typecheck bench tournament clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

# Playing needs only the core and one interface: seconds to install, not the whole set.
$(VENV)/.installed-only-%: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$*]"
	touch $@

play: $(VENV)/.installed-only-terminal
	$(BIN)/draw-dominoes play $(ARGS)

# e.g. make serve ARGS="--host 0.0.0.0 --port 8080 --db tables.sqlite3"
serve: $(VENV)/.installed-only-web
	$(BIN)/draw-dominoes serve $(ARGS)

test: lint typecheck
	$(BIN)/pytest

test-fast: lint typecheck
	$(BIN)/pytest -m "$(FAST)"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

# All of src strictly; the tests with their own, non-strict settings (tests/mypy.ini).
typecheck: $(STAMP)
	$(BIN)/mypy --strict src/draw_dominoes
	$(BIN)/mypy --config-file tests/mypy.ini tests

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_envs.py
	$(BIN)/python benchmarks/bench_jax.py
	$(BIN)/python benchmarks/bench_bots.py
	$(BIN)/python benchmarks/bench_inference.py

# e.g. make tournament ARGS="--bots ismcts,greedy --matches 500 --json report.json --chart report.png"
tournament: $(STAMP)
	$(BIN)/draw-dominoes tournament $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
