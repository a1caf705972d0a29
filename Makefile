# Two entry points for a fresh machine:
#   make run    the emulated unit (pygame window, or a terminal view without a display);
#               make run EDITION=classic-fr for a classic box
#   make test   system packages (when root), the virtual environment, ruff, mypy, the import
#               contracts (lint-imports) and pytest
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# pytest spreads the tests over worker processes (pytest-xdist), two per core: many tests
# wait on a reader's polling, a daemon or a browser, and another worker uses the core
# meanwhile. tests/conftest.py keeps what cannot be shared (the one pcscd) on one worker.
# At most 8: each worker collects the whole suite. PYTEST_WORKERS=0 runs them in one process.
PYTEST_WORKERS ?= $(shell n=$$((2 * $$(nproc 2>/dev/null || echo 1))); echo $$((n > 8 ? 8 : n)))
PYTEST := $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup
# The tests start `ultibank` and `python -m ...` in subprocesses: the package is compiled to
# bytecode once before them, not in each (nor at every start where PYTHONDONTWRITEBYTECODE
# is set).
COMPILE := $(BIN)/python -m compileall -q bank drivers firmware_sim board_assets bench

.PHONY: run test venv venv-dev system-deps lint typecheck contracts pytest bench help-text clean

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

# make run EDITION=classic-fr: a game of that edition (without it, the stored game goes on in
# its own edition, and a new one is ultime-fr); make run EDITION=mega-fr NEW_GAME=1 archives
# the stored game and starts a new one
run: venv
	@$(BIN)/ultibank emulate$(if $(EDITION), --edition $(EDITION))$(if $(NEW_GAME), --new-game)

lint: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: venv-dev
	$(BIN)/mypy --strict bank/ drivers/ board_assets/ bench/ firmware_sim/

# who may import whom (docs/architecture.md): the contracts in .importlinter
contracts: venv-dev
	$(BIN)/lint-imports

pytest: venv-dev
	@$(COMPILE)
	$(PYTEST)

test: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict bank/ drivers/ board_assets/ bench/ firmware_sim/
	$(BIN)/lint-imports
	@$(COMPILE)
	$(PYTEST)

bench: venv-dev
	$(BIN)/python -m bench

# `ultibank --help` prints a cached copy of the parser's text (bank/app/cached_help.py):
# write it again after changing a command or its help (tests/cli/test_cached_help.py says when)
help-text: venv
	$(BIN)/python -m bank.app.helpgen

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
