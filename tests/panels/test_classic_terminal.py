"""The terminal view in classic mode (docs/classic.md §5.6): the key reader on its own, then a short
classic game played with typed cards and keypad digits through `ultibank run --panel terminal`
on a real pseudo-terminal, its result read back from the stored game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bank.app.runtime import panel_labels
from bank.unit.io import Button, CardId, CardRanges
from board_assets import load_edition
from drivers.terminal_panel import Click, Hold, Key, KeyReader, Quit, Refuse, Say, Tap
from tests.panels.test_terminal_panel import ROOT, Pty


def classic_reader(edition: str = "classic-fr", lang: str = "fr") -> KeyReader:
    ed = load_edition(edition)
    return KeyReader(lang, CardRanges.of(ed), panel_labels(ed, lang))


def test_digits_are_keypad_keys_and_cards_are_typed_with_a_letter() -> None:
    k = classic_reader()
    assert k.keys("150\x7f") == [Key("1"), Key("5"), Key("0"), Key("back")]
    assert k.keys("\b") == [Key("back")]
    assert k.keys("b5") == [Tap(CardId("bank", 5))]  # one digit: no Enter
    assert k.keys("d1") == [] and k.entering == "d1"
    assert k.keys("2\r") == [Tap(CardId("deed", 12))]
    assert k.keys("c3\n") == [Tap(CardId("chance", 3))]
    assert k.keys("k16\n") == [Tap(CardId("chest", 16))]
    assert k.keys("d12\x7f\x7f7\n") == [Tap(CardId("deed", 7))]  # ⌫ corrects a typed card
    assert k.keys("om\nx\x1b") == [
        Click(Button.OK),
        Click(Button.MENU),
        Click(Button.OK),
        Click(Button.CANCEL),
        Click(Button.CANCEL),
    ]
    assert k.keys("ur") == [Hold((Button.OK, Button.CANCEL)), Hold((Button.CANCEL,))]
    assert k.keys("q") == [Quit()]


def test_every_key_the_help_lists_does_what_the_help_says_in_classic_mode() -> None:
    """No letter is bound twice: the voice key (n) and the deeds info key (v) both act (the
    voice toggle once sat on v, where the info screen hid it), and the help names each once."""
    from drivers.terminal_panel import _SIMPLE, Info

    k = classic_reader()
    assert k.keys("n") == [Hold((Button.MENU,))]  # voice on/off: M held 3 s
    assert k.keys("a") == [Hold((Button.OK,))]  # say it again: ✓ held 3 s
    assert k.keys("v") == [Info("deeds")]
    for letter, action in _SIMPLE.items():
        if letter.isalpha():
            assert k.keys(letter) == [action], letter
    info = {key.letter: key.info for key in k._labels.info_keys}
    assert info == {"i": "table", "s": "scores", "t": "turn", "f": "deed", "v": "deeds",
                    "w": "others"}  # fmt: skip
    for letter, screen in info.items():
        assert k.keys(letter) == [Info(screen)], letter
    assert not set(_SIMPLE) & set(info)
    for lang in ("fr", "en"):
        help_text = KeyReader(lang, k._cards, panel_labels(load_edition("classic-fr"), lang)).help()
        bound = [w.split()[0] for w in help_text.replace("   ", "\n").splitlines() if " = " in w]
        letters = [b for b in bound if len(b) == 1 and b.isalpha()]
        assert len(letters) == len(set(letters)), letters


def test_a_bad_typed_card_is_refused_with_a_clear_message() -> None:
    k = classic_reader()
    assert k.keys("d99\n") == [Refuse("pas de titre 99 : d1 à d28")]
    assert k.keys("c17\n") == [Refuse("pas de carte Chance 17 : c1 à c16")]
    assert k.keys("k0\n") == [Refuse("pas de carte Caisse de communauté 0 : k1 à k16")]
    assert k.keys("b9") == [Refuse("pas de carte banque 9 : b1 à b8")]
    assert k.keys("d\n") == [Say("tapez un numéro après d, par exemple d7")]
    en = classic_reader("classic-uk", "en")
    assert en.keys("d99\n") == [Refuse("no deed 99: d1 to d28")]
    assert en.keys("c17\n") == [Refuse("no Chance card 17: c1 to c16")]


def test_ultime_keys_are_not_classic_keys() -> None:
    """`h` is not help in classic mode (it is the computer game's build key, §5.6); `p` and
    `e` are the Ultime cards' letters."""
    k = classic_reader()
    assert k.keys("h") == [Refuse("touche inconnue 'h' : ? pour l'aide")]
    assert k.keys("p") == [Refuse("touche inconnue 'p' : ? pour l'aide")]
    ultime = KeyReader("en", CardRanges.of(load_edition("ultime-fr")))
    assert ultime.keys("3") == [Tap(CardId("bank", 3))]
    assert ultime.keys("h")[0] == ultime.keys("?")[0]


def test_the_help_names_the_eight_players_and_the_editions_decks() -> None:
    (help_fr,) = classic_reader().keys("?")
    assert isinstance(help_fr, Say)
    assert (
        "b1 chien  b2 voiture  b3 chapeau  b4 bateau  b5 fer  b6 dé  b7 chaussure  b8 brouette"
        in (help_fr.text)
    )
    assert "d1-d28 Entrée = titre" in help_fr.text
    assert "c1-c16 Entrée = Chance   k1-k16 Entrée = Caisse de communauté" in help_fr.text
    (help_sw,) = classic_reader("starwars-ep2-fr").keys("?")
    assert isinstance(help_sw, Say)
    assert "c1-c16 Entrée = Jedi   k1-k16 Entrée = Sith" in help_sw.text
    assert "b1 Obi-Wan" in help_sw.text and "b8 Droïde" in help_sw.text


def test_the_cards_come_from_the_edition() -> None:
    """An edition with 37 deeds (Méga, issue 13) types d37; the keys need no change."""
    mega = CardRanges(bank=8, tokens=tuple("abcdefgh"), deed=37, chance=16, chest=16)
    vocabulary = panel_labels(load_edition("classic-uk"), "en")
    k = KeyReader("en", mega, vocabulary)
    assert k.keys("d37\n") == [Tap(CardId("deed", 37))]
    assert k.keys("d38\n") == [Refuse("no deed 38: d1 to d37")]
    no_decks = CardRanges(bank=6, tokens=tuple("abcdef"), deed=28)
    k = KeyReader("en", no_decks, vocabulary)
    assert k.keys("c") == [Refuse("unknown key 'c': ? for help")]
    assert k.keys("b6") == [Tap(CardId("bank", 6))]
    assert k.keys("b7") == [Refuse("no bank card 7: b1 to b6")]


def test_line_mode_in_classic() -> None:
    k = classic_reader()
    assert k.line("") == [Click(Button.OK)]
    assert k.line("150") == [Key("1"), Key("5"), Key("0")]
    assert k.line("d12") == [Tap(CardId("deed", 12))]
    assert k.line("b2") == [Tap(CardId("bank", 2))]


def _state(data: Path) -> dict[str, object]:
    cont = data.parent / "look.tap"
    cont.write_text("wait 0\n", encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bank.cli",
            "script",
            str(cont),
            "--data-dir",
            str(data),
            "--state",
            "-",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    state: dict[str, object] = json.loads(done.stdout)
    return state


@pytest.mark.slow
def test_a_short_classic_game_on_the_terminal_over_a_real_pty(tmp_path: Path) -> None:
    """`ultibank run --panel terminal --edition classic-fr`, keys typed on a pseudo-terminal:
    two players, a deed bought, 150 received through the menu and typed on the keypad (with
    a ⌫, the status row saying CLAVIER while the entry is open), a Community Chest card, a
    bad typed card refused; the stored game says so."""
    data = tmp_path / "data"
    term = Pty(
        "bank.cli", "run", "--panel", "terminal", "--edition", "classic-fr", "--reader", "sim",
        "--data-dir", str(data),
    )  # fmt: skip
    try:
        term.wait_for(lambda: b"? pour l'aide" in term.screen, what="the hello")

        def typed(keys: bytes, shown: bytes, what: str) -> bytes:
            """Type *keys*, wait for *shown*; what the terminal printed since."""
            start = len(term.screen)
            term.type(keys)
            term.wait_for(lambda: shown in term.screen[start:], what=what)
            return term.screen[start:]

        typed(b"b1", b"|Joueur 1: chien", "bank card 1")
        typed(b"b2", b"|Joueur 2: voiture", "bank card 2")
        typed(b"\r", b"|2 joueurs, 1500 \xe2\x82\xac", "the start")
        typed(b"d1\r", b"|1 Bd de Belleville", "deed 1")
        typed(b"b1", b"|Achat 60 \xe2\x82\xac", "the purchase")
        typed(b"m", b"|D\xc3\xa9part +200", "the menu")
        typed(b"6", b"|Recevoir banque", "menu item 6")
        entry = typed(b"b2", b"|Montant ?", "the amount entry")
        assert b"|CLAVIER" in entry  # the keypad icon's word on the status row
        typed(b"155", b"|155  \xe2\x9c\x93 valider", "the digits")
        typed(b"\x7f0", b"|150  \xe2\x9c\x93 valider", "erase and a digit")
        paid = typed(b"o", b"|Solde 1650 \xe2\x82\xac", "the payment")
        assert b"CLAVIER" not in paid  # the entry is closed
        typed(b"k2\r", b"|Erreur de la banque", "Community Chest 2")
        typed(b"b1", b"|chien +200", "the card's drawer")
        typed(b"d99\r", "pas de titre 99 : d1 à d28".encode(), "the refusal")
        term.type(b"q")
        assert term.proc.wait(timeout=20) == 0
    finally:
        term.close()
    state = _state(data)
    players = {p["card"]: p for p in state["players"]}  # type: ignore[attr-defined]
    assert players[1]["balance"] == 1500 - 60 + 200
    assert players[2]["balance"] == 1650
    deed1 = state["properties"][0]  # type: ignore[index]
    assert deed1["number"] == 1 and deed1["owner"] == 1


def test_emulate_terminal_plays_classic_from_a_pipe(tmp_path: Path) -> None:
    """`ultibank emulate --terminal --edition classic-fr`, keys piped (line mode)."""
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, "-m", "bank.cli", "emulate", "--terminal", "--edition", "classic-fr",
         "--data-dir", str(data)],
        input="b1\nb2\n\nm\n5\nb1\n75\n\n",
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "|chien -75" in done.stdout or "|chien −75" in done.stdout
    players = {p["card"]: p for p in _state(data)["players"]}  # type: ignore[attr-defined]
    assert players[1]["balance"] == 1425


def test_run_plays_classic_headless_on_the_simulated_panel(tmp_path: Path) -> None:
    """`ultibank run --panel sim --edition classic-fr` (no face: cards from `ultibank tap`)."""
    from tests.cli.test_cli import _start_daemon, _stop, ultibank

    data = tmp_path / "d"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ULTIBANK_DATA_DIR": str(data)}
    proc = _start_daemon(
        ["--panel", "sim", "--reader", "sim", "--edition", "classic-fr"], env,
        data / "control.sock",
    )  # fmt: skip
    try:
        ultibank("tap", "bank:1", "bank:2", env=env)
        ultibank("press", "ok", env=env)
        # the daemon reads a control line's cards as its game's (it read the default edition's:
        # `deed cards run 1..0, not 3`)
        ultibank("tap", "deed:3", "bank:2", "bank:dog", env=env)
    finally:
        _stop(proc)
    assert proc.returncode == 0
    state = _state(data)
    assert state["properties"][2]["owner"] == 2  # type: ignore[index]
