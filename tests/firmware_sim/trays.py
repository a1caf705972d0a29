"""The wiring's part for the emulator's tests: a game's panel vocabulary from its ruleset (the
tray of a classic game), and the window's clickable areas with it."""

from __future__ import annotations

from bank.app.runtime import panel_labels
from bank.unit.io import Labels
from bank.unit.text import language_of
from board_assets import Edition, load_edition
from firmware_sim import layout as L


def labels_of(edition: Edition | str, lang: str | None = None) -> Labels:
    """The panel vocabulary the wiring gives the window of *edition* in *lang*."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    return panel_labels(ed, language_of(lang, ed.language))


def window_spots(edition: Edition | str) -> list[L.Hotspot]:
    """Every clickable area of the window of *edition*, as the wiring opens it."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    return L.hotspots(ed, labels_of(ed).tray)
