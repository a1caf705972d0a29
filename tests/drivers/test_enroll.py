"""Enrolment through the real supervised, debounced reader path, driven by the simulated reader."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from bank.unit.io import CardId
from drivers.base import ReaderError
from drivers.deck import Deck, load_deck, with_foreign
from drivers.enroll import DeckCards, enroll, plan, write_card
from drivers.sim import SimPanel, SimReader


def _run_enroll(
    reader: SimReader, deck: Path, only: list[str], lines: list[str]
) -> threading.Thread:
    kwargs = {"only": only, "say": lines.append, "card_timeout": 10.0, "rearm_s": 0.0}
    t = threading.Thread(target=enroll, args=(reader, deck), kwargs=kwargs, daemon=True)
    t.start()
    return t


def _wait_for(lines: list[str], text: str, timeout: float = 5.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not any(text in line for line in lines):
        assert time.monotonic() < deadline, f"never saw {text!r} in {lines}"
        time.sleep(0.01)


def test_enroll_records_each_tag_and_refuses_a_tag_used_twice(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    reader = SimReader()
    lines: list[str] = []
    t = _run_enroll(reader, deck, ["bank:1", "prop:16"], lines)
    _wait_for(lines, "tap bank card 1 (car)")
    assert reader.wait_running()
    reader.tap("uid:04AAAAAAAAAA01")
    _wait_for(lines, "tap property card 16")
    reader.tap("uid:04AAAAAAAAAA01")  # the same sticker again: refused
    _wait_for(lines, "already bank card 1")
    reader.tap("uid:04AAAAAAAAAA16")
    t.join(10)
    assert not t.is_alive()
    saved = load_deck(deck)
    assert saved.card_for("04AAAAAAAAAA01") == CardId("bank", 1)
    assert saved.card_for("04AAAAAAAAAA16") == CardId("prop", 16)
    assert plan(saved, ["bank:1", "prop:16", "event:7"]) == [CardId("event", 7)]


def test_interrupted_enrolment_keeps_progress(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    reader = SimReader()
    lines: list[str] = []
    t = _run_enroll(reader, deck, ["bank:2", "bank:3"], lines)
    _wait_for(lines, "tap bank card 2")
    assert reader.wait_running()
    reader.tap("uid:04BBBBBBBBBB02")
    _wait_for(lines, "tap bank card 3")
    assert load_deck(deck).card_for("04BBBBBBBBBB02") == CardId("bank", 2)
    reader.tap("uid:04BBBBBBBBBB03")
    t.join(10)
    assert len(load_deck(deck)) == 2


def test_enrolment_prompts_on_the_lcd_with_cues(tmp_path: Path) -> None:
    from bank.unit.io import Cue
    from drivers.sim import SimPanel

    deck = tmp_path / "deck.toml"
    reader, panel = SimReader(), SimPanel()
    lines: list[str] = []
    kwargs = {"only": ["bank:4", "prop:7"], "say": lines.append, "card_timeout": 10.0,
              "rearm_s": 0.0, "panels": [panel]}  # fmt: skip
    t = threading.Thread(target=enroll, args=(reader, deck), kwargs=kwargs, daemon=True)
    t.start()
    _wait_for(lines, "tap bank card 4")
    assert reader.wait_running()
    assert (
        panel.screens[-1].lines == ("Tap bank card 4", "1/2") and panel.screens[-1].token == "jet"
    )
    reader.tap("uid:04CCCCCCCCCC04")
    _wait_for(lines, "tap property card 7")
    assert panel.screens[-1].number == 7
    reader.tap("uid:04CCCCCCCCCC04")  # used already
    _wait_for(lines, "already bank card 4")
    reader.tap("uid:04CCCCCCCCCC07")
    t.join(10)
    assert [c for c in panel.cues] == [Cue.READ, Cue.ERROR, Cue.READ, Cue.KACHING]
    assert panel.screens[-1].lines == ("Deck complete", "2 cards")


def test_enrolment_does_not_call_the_tags_it_enrolls_unknown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every tag is unknown while it is being enrolled: telling the player to run
    ``ultibank enroll`` from inside ``ultibank enroll`` is noise."""
    reader = SimReader()
    lines: list[str] = []
    with caplog.at_level(logging.INFO):
        t = _run_enroll(reader, tmp_path / "deck.toml", ["bank:1"], lines)
        _wait_for(lines, "tap bank card 1")
        assert reader.wait_running()
        reader.tap("uid:04DDDDDDDDDD01")
        t.join(10)
    assert any("bank card 1 (car) = 04DDDDDDDDDD01" in line for line in lines), lines
    assert not [r.getMessage() for r in caplog.records if "unknown card" in r.getMessage()]


def test_write_card_through_a_reader_that_cannot_write_asks_for_no_tag() -> None:
    """`ultibank write-card prop:1 --reader sim` said "lay a blank tag on the reader" and then,
    on the next line, that it cannot write through sim: the refusal comes alone."""
    said: list[str] = []
    with pytest.raises(ReaderError, match="cannot write tags through 'sim'"):
        write_card("sim", "prop:1", say=said.append)
    assert said == []


# ------------------------------------------------------------------ classic decks (issue 12)


def _classic(edition: str = "classic-fr") -> DeckCards:
    from bank.app.runtime import deck_cards
    from board_assets import load_edition

    return deck_cards(load_edition(edition))


def _enroll_classic(
    reader: SimReader,
    deck: Path,
    lines: list[str],
    *,
    cards: DeckCards,
    only: list[str] | None = None,
    panels: list[SimPanel] | None = None,
    card_timeout: float = 10.0,
) -> threading.Thread:
    kwargs = {"only": only, "say": lines.append, "card_timeout": card_timeout, "rearm_s": 0.0,
              "panels": panels or [], "cards": cards}  # fmt: skip
    t = threading.Thread(target=enroll, args=(reader, deck), kwargs=kwargs, daemon=True)
    t.start()
    return t


def test_a_classic_deck_is_68_tags_named_as_the_edition_prints_them(tmp_path: Path) -> None:
    """classic-fr: 8 bank cards, 28 deeds, 16 Chance, 16 Caisse de communauté, in that order,
    each prompt naming the card as the player sees it, the deck file recording each identity."""
    deck = tmp_path / "deck.toml"
    reader, panel = SimReader(), SimPanel()
    lines: list[str] = []
    t = _enroll_classic(reader, deck, lines, cards=_classic(), panels=[panel])
    for i in range(1, 69):
        _wait_for(lines, f"[{i}/68] tap ")
        assert reader.wait_running()
        reader.tap(f"uid:04EE0000000{i:03X}")
    t.join(10)
    assert not t.is_alive()
    prompts = [line for line in lines if line.startswith("[")]
    assert prompts[0] == "[1/68] tap bank card 1 (chien)"
    assert prompts[7] == "[8/68] tap bank card 8 (brouette)"
    assert prompts[8] == "[9/68] tap deed 1 (Boulevard de Belleville)"
    assert prompts[19] == "[20/68] tap deed 12 (Avenue Mozart)"
    assert prompts[36] == "[37/68] tap Chance 1"
    assert prompts[54] == "[55/68] tap Caisse de communauté 3"
    saved = load_deck(deck, with_foreign(_classic().cards))
    assert len(saved) == 68
    assert saved.card_for("04EE0000000014") == CardId("deed", 12)
    assert saved.card_for("04EE0000000027") == CardId("chance", 3)  # tag 39
    assert saved.card_for("04EE0000000037") == CardId("chest", 3)  # tag 55
    text = deck.read_text()
    assert '"04EE0000000014" = "deed:12"' in text and '"04EE0000000037" = "chest:3"' in text
    # the LCD: what to tap, the progress, the number; the deck's name cut to keep the number
    deed12 = next(s for s in panel.screens if s.lines[:1] == ("Tap deed 12",))
    assert deed12.lines == ("Tap deed 12", "20/68 Avenue Mozart") and deed12.number == 12
    chest3 = next(s for s in panel.screens if s.name == "enroll" and s.lines[1] == "55/68")
    assert chest3.lines[0] == "Tap Caisse de com… 3" and chest3.number == 3
    assert panel.screens[-1].lines == ("Deck complete", "68 cards")


def test_an_edition_without_a_card_table_still_has_its_32_cards_to_tag(tmp_path: Path) -> None:
    """Star Wars II's Jedi and Sith decks have no table (generic effects, docs/classic.md §4.5),
    but the cards exist and are tagged; the deck names are the edition's."""
    cards = _classic("starwars-ep2-fr")
    assert [
        cards.describe(c)
        for c in plan(Deck(), ["bank:1", "deed:12", "chance:3", "chest:16"], cards)
    ] == [
        "bank card 1 (Obi-Wan)",
        "deed 12 (Titre 12)",
        "Jedi 3",
        "Sith 16",
    ]
    assert len(plan(Deck(), None, cards)) == 68
    assert len(plan(Deck(), None, _classic("one-piece-fr"))) == 6 + 28 + 32


def test_only_and_a_resumed_enrolment_show_the_progress_in_the_whole_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    cards = _classic()
    done = Deck({f"04EE00000000{i:02X}": c for i, c in enumerate(list(cards.cards.cards())[:11])})
    done.save(deck)
    reader = SimReader()
    lines: list[str] = []
    t = _enroll_classic(reader, deck, lines, cards=cards, only=["deed:12", "chest:3"])
    _wait_for(lines, "[1/2] tap deed 12 (Avenue Mozart)")
    assert reader.wait_running()
    reader.tap("uid:04AB000000000C")
    _wait_for(lines, "[2/2] tap Caisse de communauté 3")
    reader.tap("uid:04AB0000000033")
    t.join(10)
    lines.clear()
    t = _enroll_classic(reader, deck, lines, cards=cards, card_timeout=1.0)
    _wait_for(lines, "[14/68] tap deed 4 (Rue de Vaugirard)")
    assert "enrolling 55 cards of classic-fr" in lines[0] and "(13 already there)" in lines[0]
    reader.tap("uid:04AB0000000104")
    _wait_for(lines, "[15/68] tap deed 5")
    t.join(5)  # no tap for deed 5: enrolment stops, keeping what it has
    assert any("no tap for deed 5" in line for line in lines)
    saved = load_deck(deck, with_foreign(cards.cards))
    assert saved.card_for("04AB0000000104") == CardId("deed", 4) and len(saved) == 14


def test_a_tag_of_another_edition_or_written_for_another_card_is_refused(tmp_path: Path) -> None:
    """The prompt stays when the tag is already another card of the deck file (here an Ultime
    property, enrolled in the same file), carries another edition's record (the LCD says it as
    the unit does in a game), or carries the record of another card of this edition; a tag
    written for the card asked is taken."""
    from bank.unit.io import Cue
    from drivers.identity import encode_card_record

    deck = tmp_path / "deck.toml"
    Deck({"04AAAAAAAAAA16": CardId("prop", 16)}).save(deck)  # the Ultime box's tags
    reader, panel = SimReader(), SimPanel()
    lines: list[str] = []
    t = _enroll_classic(reader, deck, lines, cards=_classic(), only=["deed:12"], panels=[panel])
    _wait_for(lines, "[1/1] tap deed 12 (Avenue Mozart)")
    assert reader.wait_running()
    reader.tap("uid:04AAAAAAAAAA16")
    _wait_for(lines, "is already property card 16 (a card of another edition)")
    assert panel.screens[-1].lines == ("Already enrolled", "prop:16")
    reader.tap("uid:04BBBBBBBBBB01", encode_card_record(CardId("event", 3)))
    _wait_for(lines, "carries the record of event:3, a card of another edition")
    assert panel.screens[-1].lines == ("Carte d'une autre", "édition")
    reader.tap("uid:04BBBBBBBBBB02", encode_card_record(CardId("deed", 3)))
    _wait_for(lines, "carries the record of deed 3 (Gare Montparnasse); lay it aside")
    assert panel.screens[-1].lines == ("Written as", "deed:3")
    reader.tap("uid:04BBBBBBBBBB03", encode_card_record(CardId("deed", 12)))
    t.join(10)
    assert not t.is_alive()
    assert panel.cues == [Cue.ERROR, Cue.ERROR, Cue.ERROR, Cue.READ, Cue.KACHING]
    saved = load_deck(deck, with_foreign(_classic().cards))
    assert saved.card_for("04BBBBBBBBBB03") == CardId("deed", 12)
    assert saved.card_for("04AAAAAAAAAA16") == CardId("prop", 16)  # the Ultime tag is kept
    assert saved.card_for("04BBBBBBBBBB02") is None


@pytest.mark.parametrize(
    ("edition", "name", "why"),
    [
        ("classic-fr", "deed:99", "deed:99: deed cards run 1..28, not 99"),
        ("classic-fr", "chance:17", "chance:17: chance cards run 1..16, not 17"),
        ("classic-fr", "bank:9", "bank:9: bank cards run 1..8, not 9"),
        (
            "classic-fr",
            "prop:3",
            "prop:3: not a card of classic-fr, whose cards are bank:1-8, deed:1-28, "
            "chance:1-16, chest:1-16 (choose the edition with --edition)",
        ),
        (
            "ultime-fr",
            "deed:12",
            "deed:12: not a card of ultime-fr, whose cards are bank:1-4, prop:1-22, "
            "event:1-23 (choose the edition with --edition)",
        ),
    ],
)
def test_a_card_the_edition_does_not_have_is_refused_in_one_line(
    edition: str, name: str, why: str
) -> None:
    from drivers.enroll import CardNameError

    with pytest.raises(CardNameError) as err:
        plan(Deck(), [name], _classic(edition))
    assert str(err.value) == why


def test_a_classic_bank_card_is_named_by_its_token(tmp_path: Path) -> None:
    assert plan(Deck(), ["bank:dog", "bank:wheelbarrow"], _classic()) == [
        CardId("bank", 1),
        CardId("bank", 8),
    ]


@pytest.mark.parametrize(
    ("argv", "status", "said"),
    [
        (
            ["write-card", "deed:99", "--reader", "udp:127.0.0.1:9"],
            2,
            "ultibank: deed:99: deed cards run 1..37, not 99",
        ),
        (
            ["write-card", "deed:12", "--edition", "ultime-fr", "--reader", "udp:127.0.0.1:9"],
            2,
            "ultibank: deed:12: not a card of ultime-fr, whose cards are bank:1-4, prop:1-22, "
            "event:1-23 (choose the edition with --edition)",
        ),
        (
            ["write-card", "bank:9", "--edition", "classic-fr", "--reader", "udp:127.0.0.1:9"],
            2,
            "ultibank: bank:9: bank cards run 1..8, not 9",
        ),
        (
            ["enroll", "--edition", "classic-fr", "--only", "chest:17", "--reader", "pcsc"],
            2,
            "ultibank: chest:17: chest cards run 1..16, not 17",
        ),
        (
            ["enroll", "--only", "deed:12", "--reader", "pcsc"],
            2,
            "ultibank: deed:12: not a card of ultime-fr, whose cards are bank:1-4, prop:1-22, "
            "event:1-23 (choose the edition with --edition)",
        ),
        (
            ["enroll", "--edition", "classic-fr", "--only", "bank:cat", "--reader", "pcsc"],
            2,
            "ultibank: bank:cat: classic-fr has no token 'cat' (bank:1 to bank:8, or dog, "
            "racecar, tophat, ship, iron, thimble, boot, wheelbarrow)",
        ),
    ],
)
def test_a_card_the_edition_lacks_is_one_line_from_the_command(
    argv: list[str],
    status: int,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bank.app.cli import main

    monkeypatch.setenv("ULTIBANK_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))  # no configuration file
    try:
        got = main(argv)
    except SystemExit as exit_:
        got = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert (got, err.strip().splitlines()) == (status, [said])


@pytest.mark.nfcpy
def test_a_classic_enrolment_through_nfcpys_udp_driver(tmp_path: Path) -> None:
    """The real nfcpy stack: a tag written for the Ultime box is refused as a card of another
    edition, blank tags are enrolled as the deed and the Community Chest card asked for."""
    from drivers.identity import encode_card_record, type2_ndef_tlv
    from drivers.nfcpy_reader import NfcpyBackend
    from tests.support.udp_tag_sim import EMPTY_NDEF, UdpTagSim

    deck = tmp_path / "deck.toml"
    lines: list[str] = []
    with UdpTagSim() as sim:
        kwargs = {"only": ["deed:12", "chest:3"], "say": lines.append, "card_timeout": 10.0,
                  "cards": _classic()}  # fmt: skip
        t = threading.Thread(
            target=enroll, args=(NfcpyBackend(sim.path), deck), kwargs=kwargs, daemon=True
        )
        t.start()
        _wait_for(lines, "[1/2] tap deed 12 (Avenue Mozart)")
        sim.place("04AAAAAAAAAA16", type2_ndef_tlv(encode_card_record(CardId("prop", 16))))
        _wait_for(lines, "carries the record of prop:16, a card of another edition")
        sim.lift()
        sim.place("04BBBBBBBBBB12", EMPTY_NDEF)
        _wait_for(lines, "[2/2] tap Caisse de communauté 3")
        sim.lift()
        sim.place("04BBBBBBBBBB03", EMPTY_NDEF)
        t.join(10)
        sim.lift()
    assert not t.is_alive() and lines[-1] == f"done: 2 cards in {deck}"
    saved = load_deck(deck, with_foreign(_classic().cards))
    assert saved.card_for("04BBBBBBBBBB12") == CardId("deed", 12)
    assert saved.card_for("04BBBBBBBBBB03") == CardId("chest", 3)
    assert saved.card_for("04AAAAAAAAAA16") is None


def test_the_reader_is_mentioned_only_when_it_comes_and_goes(tmp_path: Path) -> None:
    """Issue 19: enrolment printed a stray `reader back` when the reader service started;
    only a loss, and the return after it, are news."""
    deck = tmp_path / "deck.toml"
    reader = SimReader()
    lines: list[str] = []
    t = _run_enroll(reader, deck, ["bank:1", "bank:2"], lines)
    _wait_for(lines, "tap bank card 1 (car)")
    assert reader.wait_running()
    reader.tap("uid:04AAAAAAAAAA01")
    _wait_for(lines, "tap bank card 2")
    assert not any("reader" in line.split(" ", 1)[0] for line in lines), lines
    reader.unplug()
    _wait_for(lines, "reader lost")
    reader.replug()
    _wait_for(lines, "reader back")
    assert reader.wait_running()
    reader.tap("uid:04AAAAAAAAAA02")
    t.join(10)
    assert not t.is_alive()
    assert sum("reader back" in line for line in lines) == 1, lines
