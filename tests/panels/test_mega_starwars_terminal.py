"""The terminal view in Méga and Star Wars II (issue 13, docs/classic.md §7): the typed deeds run to
d37, the help names the third die and the editions' own menu items, and a short game of each
is played with typed keys through `ultibank run --panel terminal` on a real pseudo-terminal,
its result read back from the stored game."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.unit.io import CardId
from drivers.terminal_panel import Refuse, Say, Tap
from tests.panels.test_classic_terminal import _state, classic_reader
from tests.panels.test_terminal_panel import Pty


def test_mega_deeds_are_typed_up_to_d37() -> None:
    for edition, lang, refusal in (
        ("mega-fr", "fr", "pas de titre 38 : d1 à d37"),
        ("mega-uk", "en", "no deed 38: d1 to d37"),
    ):
        k = classic_reader(edition, lang)
        assert k.keys("d37\r") == [Tap(CardId("deed", 37))]
        assert k.keys("d29\r") == [Tap(CardId("deed", 29))]  # beyond the classic 28
        assert k.keys("d38\r") == [Refuse(refusal)]
        assert k.keys("b8") == [Tap(CardId("bank", 8))]


def _help(edition: str, lang: str) -> str:
    (said,) = classic_reader(edition, lang).keys("?")
    assert isinstance(said, Say)
    return said.text


def test_the_help_names_the_third_die_and_the_editions_menu_items() -> None:
    """The unit rolls the speed die or the Force die (nothing to type for it); Méga's Birthday
    Gift is menu item 15, Star Wars' Force battle item 14, both typed as digits after m."""
    mega = _help("mega-fr", "fr")
    assert "d1-d37 Entrée = titre" in mega
    assert "m 1 5 = Cadeau +100" in mega
    assert "troisième dé (1, 2, 3, M. Monopoly, Bus) : rien à taper" in mega
    assert "Force" not in mega
    uk = _help("mega-uk", "en")
    assert "m 1 5 = Gift +100" in uk
    assert "third die (1, 2, 3, Mr Monopoly, Bus): nothing to type" in uk
    sw = _help("starwars-ep2-fr", "fr")
    assert "m 1 4 = Force" in sw
    assert "troisième dé (bascule, carré clair, carré obscur)" in sw
    assert "Cadeau" not in sw
    classic = _help("classic-fr", "fr")
    assert "m 1 1 = les dés" in classic
    assert "troisième dé" not in classic and "m 1 4" not in classic and "m 1 5" not in classic


class _Game:
    """`ultibank run --panel terminal` on a pseudo-terminal, typed into key by key."""

    def __init__(self, edition: str, data: Path) -> None:
        self.term = Pty(
            "bank.cli", "run", "--panel", "terminal", "--edition", edition, "--reader", "sim",
            "--data-dir", str(data),
        )  # fmt: skip

    def typed(self, keys: bytes, *shown: str) -> str:
        """Type *keys*; wait until everything in *shown* is on the terminal after them;
        return what the terminal printed since."""
        start = len(self.term.screen)

        def new() -> str:
            return self.term.screen[start:].decode("utf-8", errors="replace")

        self.term.type(keys)
        for text in shown:
            self.term.wait_for(lambda t=text: t in new(), what=f"{text!r} after {keys!r}")
        return new()


@contextlib.contextmanager
def terminal_game(edition: str, data: Path) -> Iterator[_Game]:
    """A game of *edition* on the terminal, from its hello to `q` (the program must exit 0)."""
    game = _Game(edition, data)
    try:
        game.term.wait_for(lambda: b"? pour l'aide" in game.term.screen, what="the hello")
        yield game
        game.term.type(b"q")
        assert game.term.proc.wait(timeout=20) == 0
    finally:
        game.term.close()


@pytest.mark.slow
def test_a_short_mega_game_on_the_terminal_over_a_real_pty(tmp_path: Path) -> None:
    """mega-fr: 2500 to start, a station bought (d4), its depot built through menu item 7
    (the status row says DEPOT, the deed check `chien  dépôt`), the depot's double rent, the
    Birthday Gift by typing m 1 5, a roll of the unit's dice with the speed die (m 1 1); the
    stored game ends with the balances the screens showed."""
    data = tmp_path / "data"
    with terminal_game("mega-fr", data) as game:
        game.typed(b"b1", "|Joueur 1: chien")
        game.typed(b"b2", "|Joueur 2: voiture")
        game.typed(b"\r", "|2 joueurs, 2500 €")
        game.typed(b"d4\r", "|4 Gare Montparnasse", "|à vendre")
        game.typed(b"b1", "|Achat 200 €")
        game.typed(b"m", "|Départ +200")
        game.typed(b"7", "|Construire")
        game.typed(b"b1", "|Construire : chien")
        built = game.typed(b"d4\r", "|Dépôt −100")
        assert "|DEPOT" in built  # the icon's word on the status row
        game.typed(b"o", "|Touchez une carte")
        check = game.typed(b"d4\r", "|carte paie le loyer")
        assert "|chien  dépôt" in check and "|Loyer 50 €" in check  # 25, doubled by the depot
        game.typed(b"b2", "|voiture paie 50")
        game.typed(b"m", "|Départ +200")
        game.typed(b"1", "|Départ +200")
        game.typed(b"5", "|Cadeau +100")
        game.typed(b"b1", "|chien +100", "|Solde 2350 €")
        game.typed(b"m11", "|Dés")
        game.typed(b"b2", "|voiture : ")
        game.typed(b"d38\r", "pas de titre 38 : d1 à d37")
    state = _state(data)
    players = {p["card"]: p for p in state["players"]}  # type: ignore[attr-defined]
    assert players[1]["balance"] == 2500 - 200 - 100 + 50 + 100
    assert players[2]["balance"] == 2500 - 50
    station = next(d for d in state["properties"] if d["number"] == 4)  # type: ignore[attr-defined]
    assert station["owner"] == 1 and station["depot"] is True
    roll = state["last_roll"]
    assert isinstance(roll, dict) and roll["third"] is not None  # the speed die was rolled


@pytest.mark.slow
def test_a_short_star_wars_game_on_the_terminal_over_a_real_pty(tmp_path: Path) -> None:
    """starwars-ep2-fr: Obi-Wan (light) and Dooku (dark) registered with their labels, a Force
    battle typed as m 1 4 that Dooku loses on a light square (FORCE on the status row, -200),
    one Obi-Wan wins on his own square (no money), the dice with the Force die (m 1 1)."""
    data = tmp_path / "data"
    with terminal_game("starwars-ep2-fr", data) as game:
        game.typed(b"b1", "|Joueur 1: Obi-Wan")
        game.typed(b"b6", "|Joueur 2: Dooku")
        game.typed(b"\r", "|2 joueurs, 1500 cr")
        game.typed(b"m14", "|Force")
        game.typed(b"b6", "|Dé de Force ?", "|carré clair")
        lost = game.typed(b"o", "|Vaincu par la Force", "|Dooku −200")
        assert "|FORCE" in lost
        game.typed(b"m14", "|Force")
        game.typed(b"b1", "|Dé de Force ?", "|carré clair")
        game.typed(b"o", "|Force vaincue", "|déplacez le symbole")
        game.typed(b"m11", "|Dés")
        game.typed(b"b1", "|Obi-Wan : ")
    state = _state(data)
    players = {p["card"]: p for p in state["players"]}  # type: ignore[attr-defined]
    assert players[1]["balance"] == 1500 and players[1]["side"] == "light"
    assert players[6]["balance"] == 1300 and players[6]["side"] == "dark"
    roll = state["last_roll"]
    assert isinstance(roll, dict) and roll["third"] in ("light", "dark", "shift")
