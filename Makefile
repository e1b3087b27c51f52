# Two commands for a fresh machine with Python 3.11+ and make:
#   make run   - create .venv, install, start the bot
#   make test  - create .venv, install with dev extras, lint, type check, run every test
#                (the storage tests on SQLite and on a throwaway PostgreSQL 15 cluster that
#                tests/postgres_cluster.py starts when the server is installed)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck pytest validate bench report screenshots clean catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[preview]"
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/anima-bot

test: $(DEV_STAMP) lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check engine bot words wording replay_viewer tests benchmarks docs/screenshots
	$(BIN)/ruff format --check engine bot words wording replay_viewer tests benchmarks docs/screenshots

typecheck: $(DEV_STAMP)
	$(BIN)/mypy engine bot words wording replay_viewer
	$(BIN)/lint-imports

pytest: $(DEV_STAMP)
	$(BIN)/anima cards validate
	$(BIN)/pytest -q

validate: $(STAMP)
	$(BIN)/anima cards validate

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/engine_speed.py

# docs/report/: the simulation report of 300 four-player base games, a normal AI in every seat
# (read in docs/simulation.md); deterministic: run it again after changing cards or the AI.
report: $(DEV_STAMP)
	$(BIN)/anima simulate --games 300 --seats normal,normal,normal,normal --seed 1 --report docs/report

# The README's pictures of a game in the offline preview; needs chromium (not needed by CI).
screenshots: $(STAMP)
	$(BIN)/python docs/screenshots/take_screenshots.py

# words/locales/en/LC_MESSAGES/cards.po: the English mirror of cards.json that translators of
# the cards work from (a test fails when it is not current).
catalogs: $(STAMP)
	$(BIN)/python -m words.extract

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
