# Two entry points for a fresh machine:
#   make run    the emulated unit (pygame window, or a terminal view without a display)
#   make test   system packages (when root), the virtual environment, ruff, mypy, the import
#               contracts (lint-imports) and pytest
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test venv venv-dev system-deps lint typecheck contracts pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

venv: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[emu]'

venv-dev: $(BIN)/python system-deps
	$(BIN)/pip install --quiet -e '.[emu,nfc,pcsc,serial,pi,web,dev]'

system-deps:
	@bash deploy/system-deps.sh test

run: venv
	$(BIN)/ultibank emulate

lint: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: venv-dev
	$(BIN)/mypy --strict bank/ drivers/ board_assets/ bench/ firmware_sim/

# who may import whom (ARCHITECTURE.md): the contracts in .importlinter
contracts: venv-dev
	$(BIN)/lint-imports

pytest: venv-dev
	$(BIN)/python -m pytest -q

test: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict bank/ drivers/ board_assets/ bench/ firmware_sim/
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q

bench: venv-dev
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
