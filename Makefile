# Two entry points for a fresh machine:
#   make run    the emulated unit (pygame window, or a terminal view without a display)
#   make test   system packages (when root), the virtual environment, ruff, mypy and pytest
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test venv venv-dev system-deps lint typecheck pytest bench clean

# The package is installed editable once; a stamp in the venv remembers it, and only a
# newer pyproject.toml installs again (so a second `make run` starts the unit at once).
# The dev install includes the emulator's extra, so it stamps both.
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[emu]'
	@touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python system-deps
	$(BIN)/python -m pip install --quiet -e '.[emu,nfc,pcsc,serial,pi,web,dev]'
	@touch $@ $(STAMP_RUN)

venv: $(STAMP_RUN)

venv-dev: $(STAMP_DEV)

system-deps:
	@bash deploy/system-deps.sh test

run: venv
	@$(BIN)/ultibank emulate

lint: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: venv-dev
	$(BIN)/mypy --strict bank/ drivers/ board_assets/ bench/ firmware_sim/

pytest: venv-dev
	$(BIN)/python -m pytest -q

test: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict bank/ drivers/ board_assets/ bench/ firmware_sim/
	$(BIN)/python -m pytest -q

bench: venv-dev
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
