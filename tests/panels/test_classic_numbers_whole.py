"""Issue 19.1, every number whole on every panel: each screen of each classic scenario of
tests/scripts/classic, as the 20x4 and the 16x2 character LCDs lay it out and as the
emulator's glass wraps it, keeps every number of the unit's lines (amounts, players, deed
numbers) whole. Scenarios that need --set or --seed are left to their own tests."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bank import rulesets
from bank.app.runtime import panel_labels
from bank.app.script import ScriptRunner, parse_script
from bank.unit.io import CardRanges, Output, Screen, ShowScreen
from board_assets import load_edition
from drivers import charlcd
from drivers.deck import with_foreign
from firmware_sim.dotfont import wrap
from firmware_sim.lcd import TEXT_COLS, TEXT_ROWS
from tests.unit.test_classic_scripts import ALL, args_of

PLAIN = [p for p in ALL if args_of(p)[:2] == ["--edition", args_of(p)[1]] and len(args_of(p)) == 2]


def _screens(path: Path, tmp_path: Path) -> tuple[str, list[Screen]]:
    edition = args_of(path)[1]
    ed = load_edition(edition)
    spec = rulesets.for_edition(ed)
    third = spec.third_die(ed) if spec.third_die is not None else ()
    shown: list[Screen] = []

    class Recording(ScriptRunner):
        def _emit(self, outputs: list[Output]) -> None:
            shown.extend(o.screen for o in outputs if isinstance(o, ShowScreen))
            super()._emit(outputs)

    runner = Recording(edition, tmp_path, io.StringIO())
    try:
        text = path.read_text(encoding="utf-8")
        runner.run(parse_script(text, str(path), with_foreign(CardRanges.of(ed)), third))
    finally:
        runner.close()
    return edition, shown


def test_the_plain_scenarios_are_most_of_them() -> None:
    assert len(PLAIN) >= 40


@pytest.mark.parametrize("path", PLAIN, ids=[p.stem for p in PLAIN])
def test_every_number_whole_on_every_panel(path: Path, tmp_path: Path) -> None:
    edition, screens = _screens(path, tmp_path)
    ed = load_edition(edition)
    labels = panel_labels(ed, ed.language)
    if not labels.classic:
        pytest.skip(f"{edition} is an Ultime edition")
    lost = []
    for screen in screens:
        if screen.off:
            continue
        numbers = re.findall(r"\d+", " ".join(screen.lines))
        shown = {
            "20x4": charlcd.layout(screen, 20, 4, labels=labels),
            "16x2": charlcd.layout(screen, 16, 2, labels=labels),
            "glass": tuple(wrap(screen.lines, TEXT_COLS, TEXT_ROWS)),
        }
        for panel, rows in shown.items():
            got = re.findall(r"\d+", " ".join(rows))
            missing = [n for n in numbers if n not in got]
            if missing:
                lost.append(f"{panel}: {' / '.join(screen.lines)!r} shows {rows!r}")
    assert not lost, "\n".join(lost)
