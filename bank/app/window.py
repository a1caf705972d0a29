"""``python -m bank.app.window``: the emulator window on its own (``python -m firmware_sim``),
with the panel vocabulary the edition's ruleset gives it (a classic edition's keypad window,
its tray and hover lines), and no bank behind it: it prints each input the window posts.

Imports the emulator's entry point, the wiring's panel vocabulary and the unit's words.
"""

from __future__ import annotations

import sys

from bank.app.runtime import panel_labels
from bank.unit.io import Labels
from bank.unit.text import language_of
from board_assets import Edition
from firmware_sim.__main__ import main as window_main


def labels_for(edition: Edition) -> Labels:
    """The panel vocabulary of *edition* in its language, as its ruleset gives it."""
    return panel_labels(edition, language_of(None, edition.language))


def main(argv: list[str] | None = None) -> int:
    return window_main(argv, labels_for=labels_for, prog="python -m bank.app.window")


if __name__ == "__main__":
    sys.exit(main())
