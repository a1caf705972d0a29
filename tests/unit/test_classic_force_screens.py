"""The Star Wars screens (docs/classic.md §7.1, §5.5) in French and English: the Force die on the
dice screen (how far each symbol moves on a shift) and the Force battle's result, in 20 cells."""

from __future__ import annotations

from typing import Any

import pytest

from bank.rulesets.classic import outcomes as o
from board_assets import load_edition
from tests.rulesets.classic_support import new_game

SW = load_edition("starwars-ep2-fr")


def screens(lang: str) -> Any:
    """The classic screens, imported when a test runs: importing them registers the classic
    texts, which tests/unit/test_text.py (Ultime's catalogue check) must not collect."""
    from bank.rulesets.classic.screens import ClassicScreens

    return ClassicScreens(SW, lang)


@pytest.mark.parametrize(
    ("lang", "dice", "second", "third", "want"),
    [
        ("fr", (3, 4), "", "shift", "clair +3 · obscur +4"),
        ("en", (3, 4), "", "shift", "light +3 · dark +4"),
        ("fr", (2, 2), "double", "shift", "double · bascule +2"),
        ("en", (2, 2), "double", "shift", "double · shift +2"),
        ("fr", (5, 6), "", "light", "carré clair"),
        ("fr", (5, 6), "", "dark", "carré obscur"),
        ("en", (5, 6), "", "dark", "dark square"),
        ("fr", (1, 1), "double", "dark", "double · obscur"),
        ("fr", (1, 1), "double", "light", "double · carré clair"),
        ("fr", (1, 2), "Pas de double (1/3)", "shift", "Pas de double (1/3)"),
    ],
)
def test_the_force_die_on_the_dice_screen(
    lang: str, dice: tuple[int, int], second: str, third: str, want: str
) -> None:
    game = new_game(2, "starwars-ep2-fr")
    screen = screens(lang).dice(game.state, 1, dice, second, third)
    assert screen.lines[1] == want
    assert all(len(line) <= 20 for line in screen.lines)


@pytest.mark.parametrize(
    ("lang", "won", "want"),
    [
        ("fr", True, ("Force vaincue", "déplacez le symbole")),
        ("en", True, ("Force beaten", "move the symbol")),
        ("fr", False, ("Vaincu par la Force", "Mace Windu −200")),
        ("en", False, ("Beaten by the Force", "Mace Windu −200")),
    ],
)
def test_the_force_battles_result(lang: str, won: bool, want: tuple[str, str]) -> None:
    game = new_game(8, "starwars-ep2-fr")
    done = o.ForceFought(4, 0 if won else 200, won, "light" if won else "dark", 0, False)
    screen = screens(lang).force(game.state, done)
    assert (screen.name, screen.lines) == ("force", want)
    assert screen.token == "mace"
