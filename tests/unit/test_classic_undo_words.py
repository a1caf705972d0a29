"""Issue 19.6: an undo says what it undid (`Annulé : achat` / `28 Rue de la Paix`), on the
unit's screen as every panel shows it; each line within the LCD's 20 cells, amounts whole."""

from __future__ import annotations

import io
from pathlib import Path

from bank.app.script import run_script
from bank.unit.text import LCD_WIDTH

START = "tap bank:1\ntap bank:2\npress ok\n"
UNDO = "hold ok+cancel 5\n"


def _undo_screens(tmp_path: Path, body: str, edition: str = "classic-fr") -> list[str]:
    script = tmp_path / "undo.tap"
    script.write_text(START + body, encoding="utf-8")
    out = io.StringIO()
    assert run_script(script, edition=edition, out=out) == 0
    return [
        line.split(" | ", 1)[1] for line in out.getvalue().splitlines() if " screen undo " in line
    ]


def test_each_undo_names_what_it_undid(tmp_path: Path) -> None:
    body = (
        "tap deed:28\ntap bank:1\n" + UNDO  # a purchase
        + "tap deed:28\ntap bank:1\ntap deed:28\ntap bank:2\n" + UNDO  # a rent
        + "press menu\nkey 6\ntap bank:2\nkey 150\npress ok\n" + UNDO  # from the bank
        + "press menu\nkey 5\ntap bank:1\nkey 1000\npress ok\n" + UNDO  # to the bank
    )  # fmt: skip
    assert _undo_screens(tmp_path, body) == [
        "Annulé : achat / 28 Rue de la Paix",
        "Annulé : loyer / voiture → chien 50 €",
        "Annulé : banque / voiture +150 €",
        "Annulé : amende / chien −1000 €",  # paying the bank counts as a fine
    ]


def test_in_english_and_within_the_lcd(tmp_path: Path) -> None:
    body = "tap deed:28\ntap bank:1\n" + UNDO
    screens = _undo_screens(tmp_path, body, edition="classic-uk")
    assert screens == ["Undone: purchase / 28 Mayfair"]
    for screen in screens:
        assert all(len(line) <= LCD_WIDTH for line in screen.split(" / "))


def test_nothing_to_undo_keeps_its_refusal(tmp_path: Path) -> None:
    script = tmp_path / "none.tap"
    script.write_text(START + UNDO, encoding="utf-8")
    out = io.StringIO()
    assert run_script(script, edition="classic-fr", out=out) == 0
    assert " screen undo " not in out.getvalue()
    assert "Rien à annuler" in out.getvalue()
