"""Issue 19.8, paper for the table: `ultibank print-deck` writes a sheet of every card of the
edition, its number, its name, its colour and whether a tag is enrolled for it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bank.unit.io import CardId
from drivers.deck import Deck

ROOT = Path(__file__).resolve().parents[2]


class Cards(HTMLParser):
    """The sheet's cards: name -> (status, texts, swatch colour)."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, dict[str, object]] = {}
        self._current: dict[str, object] | None = None
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "div" and a.get("data-card"):
            self._current = {"status": a["data-status"], "texts": [], "colour": ""}
            self.cards[str(a["data-card"])] = self._current
            self._depth = 0
        if self._current is not None and tag == "div":
            self._depth += 1
            if a.get("class") == "swatch":
                self._current["colour"] = str(a.get("style", "")).removeprefix("background:")

    def handle_endtag(self, tag: str) -> None:
        if self._current is not None and tag == "div":
            self._depth -= 1
            if self._depth == 0:
                self._current = None

    def handle_data(self, data: str) -> None:
        if self._current is not None and data.strip():
            texts = self._current["texts"]
            assert isinstance(texts, list)
            texts.append(data.strip())


def ultibank(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path / "home"))
    env.update(XDG_CONFIG_HOME=str(tmp_path / "home"), ULTIBANK_DATA_DIR=str(tmp_path / "data"))
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60, check=False,
    )  # fmt: skip


def _sheet(path: Path) -> dict[str, dict[str, object]]:
    parser = Cards()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.cards


def test_the_classic_sheet_lists_68_cards_and_which_are_tagged(tmp_path: Path) -> None:
    deck = tmp_path / "data" / "deck.toml"
    deck.parent.mkdir(parents=True)
    tagged = (
        Deck()
        .assign("04A1B2C3D4E5F6", CardId("deed", 28))
        .assign("04A1B2C3D4E5F7", CardId("chest", 3))
    )
    tagged.save(deck)
    done = ultibank(tmp_path, "print-deck", "--edition", "classic-fr")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "deck-classic-fr.html"
    assert done.stdout.strip() == (
        f"wrote {out.name}: 68 cards of classic-fr, 2 with a tag; print it from a browser"
    )
    cards = _sheet(out)
    assert len(cards) == 68
    assert sum(1 for n in cards if n.startswith("deed:")) == 28
    assert sum(1 for n in cards if n.startswith("chance:")) == 16
    assert sum(1 for n in cards if n.startswith("chest:")) == 16
    paix = cards["deed:28"]
    assert paix["status"] == "enrolled" and "Rue de la Paix" in paix["texts"]  # type: ignore[operator]
    assert "étiquette 04A1B2C3D4E5F6" in paix["texts"]  # type: ignore[operator]
    assert str(paix["colour"]).startswith("#")  # its group's colour
    assert cards["chest:3"]["status"] == "enrolled"
    belleville = cards["deed:1"]
    assert belleville["status"] == "missing" and "pas d'étiquette" in belleville["texts"]  # type: ignore[operator]
    assert "chien" in cards["bank:1"]["texts"]  # type: ignore[operator]


def test_mega_has_77_cards_and_ultime_49(tmp_path: Path) -> None:
    for edition, count in (("mega-fr", 77), ("ultime-fr", 49), ("classic-uk", 68)):
        out = tmp_path / f"{edition}.html"
        done = ultibank(tmp_path, "print-deck", "--edition", edition, "-o", str(out))
        assert done.returncode == 0, done.stderr
        assert len(_sheet(out)) == count, edition


def test_without_an_edition_the_stored_games_is_printed(tmp_path: Path) -> None:
    script = tmp_path / "g.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\n")
    ultibank(tmp_path, "script", str(script), "--edition", "mega-fr", "--data-dir",
             str(tmp_path / "data"))  # fmt: skip
    done = ultibank(tmp_path, "print-deck", "-o", "-")
    assert done.returncode == 0 and "(mega-fr)" in done.stdout


@pytest.mark.slow
def test_the_sheet_prints_to_pdf_in_headless_chromium(tmp_path: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no chromium on this machine")
    done = ultibank(tmp_path, "print-deck", "--edition", "classic-fr")
    assert done.returncode == 0, done.stderr
    pdf = tmp_path / "deck.pdf"
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--print-to-pdf={pdf}",
         (tmp_path / "deck-classic-fr.html").as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert data.count(b"/Type /Page") - data.count(b"/Type /Pages") >= 2  # 68 cards: 2+ pages
