"""The deck: UID <-> card maps, deck files and the simulated deck."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bank.unit.io import CardId
from drivers.base import DriverError
from drivers.deck import (
    Deck,
    DeckError,
    all_cards,
    load_deck,
    normalize_uid,
    simulated_deck,
    simulated_uid,
)

PROP16 = CardId("prop", 16)
GOOD = """\
[info]
name = "living room"

[cards]
"04A1B2C3D4E5F6" = "prop:16"
"04:c0:ff:ee:00:00:01" = "bank:boat"
"DEADBEEF" = "event:7"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_deck_file_loads(tmp_path: Path) -> None:
    deck = load_deck(write(tmp_path, GOOD))
    assert deck.card_for("04A1B2C3D4E5F6") == PROP16
    assert deck.card_for("04c0ffee000001") == CardId("bank", 3)
    assert deck.card_for("de:ad:be:ef") == CardId("event", 7)
    assert deck.uid_for(CardId("bank", 3)) == "04C0FFEE000001"
    assert deck.info == {"name": "living room"}
    assert len(deck) == 3 and "DEADBEEF" in deck and "0000000000" not in deck


def test_unknown_and_malformed_uids_give_none() -> None:
    deck = Deck({"04A1B2C3D4E5F6": PROP16})
    assert deck.card_for("04A1B2C3D4E5F7") is None
    assert deck.card_for("not hex") is None
    assert deck.uid_for(CardId("prop", 1)) is None


def test_save_then_load_gives_the_same_deck(tmp_path: Path) -> None:
    deck = load_deck(write(tmp_path, GOOD))
    out = tmp_path / "saved.toml"
    deck.save(out)
    again = load_deck(out)
    assert again == deck
    text = out.read_text()
    # cards are written in card order: bank, prop, event
    assert text.index("bank:3") < text.index("prop:16") < text.index("event:7")
    assert not (tmp_path / "saved.toml.tmp").exists()


def test_info_with_quotes_survives_a_round_trip(tmp_path: Path) -> None:
    deck = Deck({"04A1B2C3D4E5F6": PROP16}, {"name": 'Bob\'s "deck"\\1', "made by": "me"})
    deck.save(tmp_path / "d.toml")
    assert load_deck(tmp_path / "d.toml").info == deck.info


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[cards]\n"04A1B2C3D4E5F6" = "prop:16"\n"04a1b2c3d4e5f6" = "prop:2"\n',
            r"deck.toml:3: duplicate UID 04A1B2C3D4E5F6",
        ),
        ('[cards]\n"04A1B2C3D4E5F6" = "prop:16"\n"04A1B2C3D4E5F6" = "prop:2"\n', "not valid TOML"),
        (
            '[cards]\n"04A1B2C3D4E5F6" = "prop:16"\n"0102" = "prop:2"\n',
            r"deck.toml:3: malformed UID",
        ),
        ('[cards]\n\n"04XYZ3" = "prop:16"\n', r"deck.toml:3: malformed UID key '04XYZ3'"),
        ('[cards]\n"04A1B2C3D4E5F6" = "prop:23"\n', r"deck.toml:2: unknown card 'prop:23'"),
        ('[cards]\n"04A1B2C3D4E5F6" = "joker:1"\n', r"deck.toml:2: unknown card 'joker:1'"),
        ('[cards]\n"04A1B2C3D4E5F6" = 16\n', r"deck.toml:2: card for .* must be a string"),
        ('[kards]\n"04A1B2C3D4E5F6" = "prop:1"\n', r"unknown table\(s\) kards"),
        ("cards = 3\n", r"must be tables"),
        ("[cards\n", "not valid TOML"),
    ],
    ids=[
        "duplicate",
        "toml-duplicate",
        "short-uid",
        "bad-hex",
        "out-of-range",
        "bad-kind",
        "not-string",
        "typo-table",
        "not-table",
        "syntax",
    ],
)
def test_bad_deck_files_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DeckError, match=message) as caught:
        load_deck(path)
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, DriverError) and isinstance(caught.value, ValueError)


def test_a_missing_deck_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match=r"no such deck file.*ultibank enroll"):
        load_deck(tmp_path / "nope.toml")


def test_assign_replaces_a_cards_uid_by_default() -> None:
    deck = Deck({"04A1B2C3D4E5F6": PROP16})
    moved = deck.assign("04000000000001", PROP16)
    assert moved.card_for("04A1B2C3D4E5F6") is None
    assert moved.uid_for(PROP16) == "04000000000001"
    spare = deck.assign("04000000000001", PROP16, replace=False)
    assert spare.card_for("04A1B2C3D4E5F6") == PROP16 == spare.card_for("04000000000001")
    assert deck.card_for("04A1B2C3D4E5F6") == PROP16  # the original is untouched
    taken = deck.assign("04A1B2C3D4E5F6", CardId("bank", 1))
    assert taken.card_for("04A1B2C3D4E5F6") == CardId("bank", 1) and len(taken) == 1
    with pytest.raises(DeckError, match="not a hex UID"):
        deck.assign("xyz", PROP16)


def test_missing_lists_the_cards_without_a_tag() -> None:
    deck = Deck({"04A1B2C3D4E5F6": PROP16})
    missing = deck.missing()
    assert len(missing) == 48 and PROP16 not in missing and missing[0] == CardId("bank", 1)


@pytest.mark.parametrize(
    ("text", "uid"),
    [("04a1b2c3", "04A1B2C3"), ("04 A1 B2 C3", "04A1B2C3"), ("04-a1-b2-c3", "04A1B2C3")],
)
def test_uids_are_normalised(text: str, uid: str) -> None:
    assert normalize_uid(text) == uid


@pytest.mark.parametrize("text", ["", "04A", "0102", "04" * 11, "uid:04A1B2C3", "GG112233"])
def test_bad_uids_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        normalize_uid(text)


def test_the_simulated_deck_has_every_card_with_stable_ntag_like_uids() -> None:
    deck = simulated_deck()
    assert len(deck) == 49 and deck.missing() == []
    for card in all_cards():
        uid = deck.uid_for(card)
        assert uid == simulated_uid(card)
        assert uid is not None and len(uid) == 14 and uid.startswith("04")
        assert deck.card_for(uid) == card
    # stable across releases: scripts say `tap uid:...` with these values
    assert simulated_uid(PROP16) == "04044D5254EA94"
    assert simulated_deck() == deck


def test_loading_a_sound_deck_searches_no_line_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading was quadratic because each key's line number was searched (a scan of the whole
    file per key): 10,000 UIDs took 34 s. The search is for error messages only, so a sound
    deck must not run it at all (the time is measured by `python -m bench deck`, not here)."""
    import drivers.deck as deck_module
    from bench.bench_deck import deck_text

    searched: list[str] = []
    real = deck_module._line_of

    def counting(text: str, key: str) -> int | str:
        searched.append(key)
        return real(text, key)

    monkeypatch.setattr(deck_module, "_line_of", counting)
    deck = Deck.from_toml(deck_text(5_000), "big.toml")
    assert len(deck) == 5_000 and searched == []
    with pytest.raises(DeckError, match=r"^bad\.toml:3: "):
        Deck.from_toml('[cards]\n"04A1B2C3" = "prop:1"\n"zz" = "prop:2"\n', "bad.toml")
    assert searched == ["zz"]  # once, for the entry at fault


def test_a_fault_deep_in_a_large_deck_still_names_its_line() -> None:
    from bench.bench_deck import deck_text

    text = re.sub(r'(?m)^"04000000000FA0" = .*$', '"04000000000FA0" = "prop:99"', deck_text(5_000))
    with pytest.raises(DeckError, match=r"^big\.toml:4005: unknown card 'prop:99'"):
        Deck.from_toml(text, "big.toml")
