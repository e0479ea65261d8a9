# draw-dominoes: `make play` runs the game, `make test` runs every check, `make bench` measures speed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,terminal,tournament,web,rl
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))
CORE := src/draw_dominoes/__init__.py src/draw_dominoes/tiles.py src/draw_dominoes/actions.py \
	src/draw_dominoes/line.py src/draw_dominoes/round.py src/draw_dominoes/match.py \
	src/draw_dominoes/view.py src/draw_dominoes/record.py

.PHONY: play serve test lint typecheck pytest bench tournament clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

play: $(STAMP)
	$(BIN)/draw-dominoes play $(ARGS)

# e.g. make serve ARGS="--host 0.0.0.0 --port 8080 --db tables.sqlite3"
serve: $(STAMP)
	$(BIN)/draw-dominoes serve $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict $(CORE)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_envs.py
	$(BIN)/python benchmarks/bench_bots.py

# e.g. make tournament ARGS="--bots ismcts,greedy --matches 500 --json report.json --chart report.png"
tournament: $(STAMP)
	$(BIN)/draw-dominoes tournament $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
