"""Issue 19.1: every number on a classic screen whole. Every scenario of tests/scripts/classic
and the spec's examples run with the unit's `fit` watched: a line the unit cuts to its 20
cells must lose no digit (an amount, a player, a deed number) and no currency sign; letters
may go (a long name ends in `…`)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bank.app.cli import main
from bank.unit import text as unit_text
from tests.unit.test_classic_scripts import ALL, EXAMPLES, args_of

SCRIPTS = [*ALL, *sorted(EXAMPLES.glob("*.tap"))]


def _watch(cuts: list[tuple[str, int]], real: Callable[..., str]) -> Callable[..., str]:
    def fit(text: str, width: int = unit_text.LCD_WIDTH) -> str:
        if len(text) > width:
            cuts.append((text, width))
        return real(text, width)

    return fit


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_no_classic_screen_cuts_a_number(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # imported here: at collection the classic texts would join the catalogue that
    # tests/unit/test_text.py parametrises over
    from bank.rulesets.classic import screen_lines as classic_screens
    from bank.rulesets.classic import unit as classic_unit

    # every module of the classic unit's package that fits a text itself
    unit_modules = [
        importlib.import_module(f"{classic_unit.__name__}.{m.name}")
        for m in pkgutil.iter_modules(classic_unit.__path__)
    ]
    fitting = [m for m in unit_modules if hasattr(m, "fit")]
    assert fitting  # the pattern still finds them
    cuts: list[tuple[str, int]] = []
    fit = _watch(cuts, unit_text.fit)
    for module in (unit_text, classic_screens, *fitting):
        monkeypatch.setattr(module, "fit", fit)
    args = args_of(path) if path.parent != EXAMPLES else ["--edition", "classic-fr"]
    assert main(["script", str(path), *args, "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    lost = [
        (text, text[width - 1 :])
        for text, width in cuts
        if re.search(r"[0-9€£$]", text[width - 1 :])
    ]
    assert not lost, "lines cut where a number was: " + "; ".join(
        f"{text!r} loses {gone!r}" for text, gone in lost
    )
