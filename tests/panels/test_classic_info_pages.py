"""Issue 19.2, everyone's money: the `table` info screen pages through every player and
`scores` through the whole ranking (asked again: the next page), in a tap script and on the
terminal view over a real pseudo-terminal (keys `i` and `s`, listed in `?`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bank.app.script import run_script
from bank.engine.config import UnitConfig
from bank.unit.text import LCD_WIDTH
from drivers.terminal_panel import Info
from tests.panels.test_classic_terminal import classic_reader
from tests.panels.test_terminal_panel import Pty

EIGHT = "".join(f"tap bank:{n}\n" for n in range(1, 9)) + "press ok\n"


def _info_screens(tmp_path: Path, body: str, edition: str = "classic-fr") -> list[list[str]]:
    script = tmp_path / "pages.tap"
    script.write_text(body, encoding="utf-8")
    out = io.StringIO()
    assert run_script(script, edition=edition, out=out) == 0
    screens = []
    for line in out.getvalue().splitlines():
        if " screen info | " in line:
            screens.append(line.split(" screen info | ", 1)[1].split(" / "))
    return screens


def test_table_pages_through_eight_players_and_wraps(tmp_path: Path) -> None:
    # the dog receives 12345 from the bank: a five-digit balance must stay whole
    body = EIGHT + "press menu\nkey 6\ntap bank:1\nkey 12345\npress ok\n"
    body += "info table\n" * 3
    pages = _info_screens(tmp_path, body)
    assert pages[0] == ["chie 13845 voit 1500", "chap 1500 bate 1500"]
    # every player's cash shows on some page, whole, and the third ask wraps to the first
    seen = " ".join(" ".join(p) for p in pages[:-1])
    for label in ("chie 13845", "voit 1500", "chap 1500", "bate 1500", "fer 1500", "dé 1500",
                  "chau 1500", "brou 1500"):  # fmt: skip
        assert label in seen, (label, pages)
    assert pages[-1] == pages[0] or len(pages) > 3
    assert all(len(row) <= LCD_WIDTH for page in pages for row in page)


def test_scores_pages_through_the_whole_ranking(tmp_path: Path) -> None:
    pages = _info_screens(tmp_path, EIGHT + "info scores\n" * 6)
    titles = [p[0] for p in pages]
    assert titles[:5] == [f"Classement {n}/5" for n in range(1, 6)]
    assert titles[5] == "Classement 1/5"  # wraps
    places = " ".join(p[1] for p in pages[:5]).split()
    assert [p.split(".")[0] for p in places] == [str(n) for n in range(1, 9)]


def test_a_ranking_that_fits_one_line_has_no_page_number(tmp_path: Path) -> None:
    two = _info_screens(tmp_path, "tap bank:1\ntap bank:2\npress ok\ninfo scores\n")
    assert two == [["Classement", "1.chien 2.voiture"]]
    three = _info_screens(tmp_path, "tap bank:1\ntap bank:2\ntap bank:3\npress ok\n"
                          + "info scores\n" * 2)  # fmt: skip
    assert three == [["Classement 1/2", "1.chien 2.voiture"], ["Classement 2/2", "3.chapeau"]]


def test_the_terminal_keys_ask_for_the_info_screens() -> None:
    k = classic_reader()
    assert k.keys("i") == [Info("table")]
    assert k.keys("s") == [Info("scores")]
    help_text = k.help()
    assert "i = l'argent de chacun" in help_text and "s = le classement" in help_text


@pytest.mark.slow
def test_paging_on_the_terminal_over_a_real_pty(tmp_path: Path) -> None:
    data = tmp_path / "data"
    term = Pty(
        "bank.cli", "run", "--panel", "terminal", "--edition", "classic-fr", "--reader", "sim",
        "--data-dir", str(data),
    )  # fmt: skip
    try:
        term.wait_for(lambda: b"? pour l'aide" in term.screen, what="the hello")

        def typed(keys: bytes, shown: bytes, what: str) -> bytes:
            start = len(term.screen)
            term.type(keys)
            term.wait_for(lambda: shown in term.screen[start:], what=what)
            return term.screen[start:]

        for n, token in enumerate(("chien", "voiture", "chapeau", "bateau", "fer"), 1):
            typed(f"b{n}".encode(), f"|Joueur {n}: {token}".encode(), f"bank card {n}")
        typed(b"\r", b"|5 joueurs, 1500", "the start")
        typed(b"i", b"|chie 1500 voit 1500", "the table's first page")
        typed(b"i", b"|fer 1500", "the table's second page")
        typed(b"s", b"|Classement 1/", "the ranking's first page")
        typed(b"s", b"|Classement 2/", "the ranking's second page")
        helped = typed(b"?", b"q = quitter", "the help")
        assert b"i = l'argent de chacun" in helped
        term.type(b"q")
        assert term.proc.wait(timeout=20) == 0
    finally:
        term.close()


def test_a_box_without_a_keyboard_reads_them_in_the_menu(tmp_path: Path) -> None:
    """With ``unit.info_items`` (the box's configuration), items 17 (Soldes) and 18
    (Classement) at the end of the menu: ✓ shows a page, ✓ again the next, M the next item, X
    back to idle; reached by M alone (three buttons)."""
    body = EIGHT + "press menu\n" + "press menu\n" * 12 + "press ok\npress ok\npress ok\n"
    body += "press menu\npress ok\npress ok\npress cancel\n"
    script = tmp_path / "menu.tap"
    script.write_text(body, encoding="utf-8")
    out = io.StringIO()
    config = UnitConfig(info_items=True)
    assert run_script(script, edition="classic-fr", out=out, config=config) == 0
    shown = [line.split(" | ", 1)[1] for line in out.getvalue().splitlines() if " | " in line]
    at = shown.index("Soldes / ✓ voir · M suivant")
    assert shown[at + 1 : at + 4] == [
        "chie 1500 voit 1500 / chap 1500 bate 1500",
        "fer 1500 dé 1500 / chau 1500 brou 1500",
        "chie 1500 voit 1500 / chap 1500 bate 1500",
    ]
    assert shown[at + 4 : at + 7] == [
        "Classement / ✓ voir · M suivant",
        "Classement 1/5 / 1.chien 2.voiture",
        "Classement 2/5 / 3.chapeau 4.bateau",
    ]
    assert shown[at + 7].startswith("Banque Monopoly")


def test_without_the_setting_the_menu_holds_the_rules_items_only(tmp_path: Path) -> None:
    """By default (docs/classic.md §5.4) M after item 12, the last of classic-fr's rules without the
    pot, goes back to idle, and ``1`` ``7`` typed in the menu is no item (the error cue)."""
    body = EIGHT + "press menu\n" * 13  # items 1 to 12, then idle
    script = tmp_path / "menu.tap"
    script.write_text(body + "press menu\nkey 17\n", encoding="utf-8")
    out = io.StringIO()
    assert run_script(script, edition="classic-fr", out=out) == 0
    lines = [line.split(None, 1)[1] for line in out.getvalue().splitlines()]
    screens = [line for line in lines if line.startswith("screen ")]
    assert screens[-5].startswith("screen menu #12")
    assert screens[-4].startswith("screen idle")  # after item 12: idle, no item 17
    assert screens[-3].startswith("screen menu #1 ") and screens[-2].startswith("screen menu #1 ")
    assert lines[-2:] == ["cue error", "screen error {error} | Refusé / Pas de choix 17"]
    assert "Soldes" not in out.getvalue()
