"""Classic edition files: the four shipped ones load with docs/classic.md's numbers; a house
edition may change names and amounts; a malformed file is refused naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from bank import rulesets
from bank.rulesets.classic.edition import classic_edition
from board_assets import EDITIONS_DIR, EditionError, load_edition, load_edition_file
from tests.support.editions import house_copy

CLASSIC = ["classic-fr", "classic-uk", "one-piece-fr", "starwars-ep2-fr"]

#: §2.1 spot checks: number -> (price, base, 1 h, 4 h, hotel, house, mortgage)
SPOT = {
    1: (60, 2, 10, 160, 250, 50, 30),
    6: (120, 8, 40, 450, 600, 50, 60),
    10: (160, 12, 60, 700, 900, 100, 80),
    17: (240, 20, 100, 925, 1100, 150, 120),
    22: (280, 24, 120, 1025, 1200, 150, 140),
    25: (320, 28, 150, 1200, 1400, 200, 160),
    28: (400, 50, 200, 1700, 2000, 200, 200),
}


@pytest.mark.parametrize("name", CLASSIC)
def test_every_classic_edition_loads_with_the_classic_board(name: str) -> None:
    edition = load_edition(name)
    assert edition.ruleset == "classic" and rulesets.for_edition(edition).name == "classic"
    ed = classic_edition(edition)
    assert len(ed.deeds) == 28 and len(edition.constants.ring) == 40
    assert (ed.start_balance, ed.go_salary, ed.jail_fee, ed.jail_tries) == (1500, 200, 50, 3)
    assert (ed.houses, ed.hotels, ed.houses_per_hotel, ed.auction_step) == (32, 12, 4, 10)
    for number, (price, base, h1, h4, hotel, house, mortgage) in SPOT.items():
        d = ed.deed(number)
        assert (d.price, d.rents[0], d.rents[1], d.rents[4], d.rents[5]) == (
            price,
            base,
            h1,
            h4,
            hotel,
        )
        assert (d.house, d.mortgage) == (house, mortgage)
    assert ed.of_kind("station") == (3, 11, 18, 26) and ed.of_kind("utility") == (8, 21)
    assert ed.deed(3).rents == (25, 50, 100, 200) and ed.deed(8).rents == (4, 10)
    assert [ed.deed(n).position for n in (1, 3, 12, 28)] == [1, 5, 16, 39]
    assert ed.group("pink") == (7, 9, 10) and ed.group("dark_blue") == (27, 28)
    assert [(t.position, t.amount) for t in ed.taxes] == [(4, 200), (38, 100)]
    assert ed.spaces("CHANCE") == (7, 22, 36) and ed.spaces("CHEST") == (2, 17, 33)


def test_names_labels_and_decks_per_edition() -> None:
    fr, uk = (
        classic_edition(load_edition("classic-fr")),
        classic_edition(load_edition("classic-uk")),
    )
    assert fr.deed(28).name == "Rue de la Paix" and uk.deed(28).name == "Mayfair"
    assert fr.deed(18).name == "Gare du Nord" and uk.deed(18).name == "Fenchurch St. Station"
    assert fr.token_labels[:3] == ("chien", "voiture", "chapeau")
    assert uk.token_labels[-1] == "barrow" and fr.edition.constants.tokens[-1] == "wheelbarrow"
    assert fr.deck_names == {"chance": "Chance", "chest": "Caisse de communauté"}
    assert fr.card_table and len(fr.cards) == 32 and len(uk.cards) == 32
    assert fr.cards["chance", 9].args == {"house": 25, "hotel": 100}
    assert uk.cards["chest", 7].title == "Old Kent Road"


def test_reskins_use_placeholders_never_invented_names() -> None:
    sw = classic_edition(load_edition("starwars-ep2-fr"))
    assert all(d.name == f"Titre {d.number}" for d in sw.deeds)
    assert sw.sides == ("light",) * 5 + ("dark",) * 3 and not sw.card_table
    assert sw.deck_names == {"chance": "Jedi", "chest": "Sith"} and sw.currency_lcd == "cr"
    op = classic_edition(load_edition("one-piece-fr"))
    assert op.edition.constants.max_players == 6 and op.currency_lcd == "B"
    assert [op.deed(n).name for n in (3, 11, 18, 26, 8, 21)] == [
        "Scarabée",
        "Fighting Bull",
        "Sunny",
        "Navire 4",
        "Koala",
        "Soldat Jouet",
    ]
    assert op.deed(1).name == "Titre 1"
    assert op.taxes[0].name == "Tu as détruit l'usine de Smile"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = house_copy((EDITIONS_DIR / "classic-fr.toml").read_text(encoding="utf-8"))
    assert old in text, old
    path = tmp_path / "maison.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_house_edition_changes_names_and_amounts(tmp_path: Path) -> None:
    path = _edited(
        tmp_path,
        'name = "Rue de la Paix"\ngroup = "dark_blue"\nprice = 400',
        'name = "Rue de Chez Nous"\ngroup = "dark_blue"\nprice = 420',
    )
    ed = classic_edition(load_edition_file(path))
    assert ed.deed(28).name == "Rue de Chez Nous" and ed.deed(28).price == 420


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("number = 1, house = 50, ", "number = 1, ", r"classic\.deeds\[number=1\]\.house"),
        ("mortgage = 30 }", "mortgage = 70 }", r"classic\.deeds\[number=1\]\.mortgage: more than"),
        ('station = "station"', 'station = "airport"', r"classic\.group_kinds\.station"),
        (
            "{ number = 28, ",
            "{ number = 29, ",
            r"classic\.deeds: no house and mortgage for deed 28",
        ),
        (
            "number = 1, house",
            "number = 1, hous = 5, house",
            r"classic\.deeds\[0\]\.hous: unknown key",
        ),
        (
            "rents = [25, 50, 100, 200]",
            "rents = [25, 50, 100]",
            r"properties\[2\]\.rents: expected 4",
        ),
        ("houses_per_hotel = 4\n", "", r"constants\.houses_per_hotel"),
        ("card_table = true", "card_table = 1", r"classic\.card_table"),
        ('effect = "repairs"', 'effect = "teleport"', r"classic\.chance\[8\]\.effect"),
        ("number = 16\ntitle", "number = 15\ntitle", r"classic\.chance\[15\]\.number: duplicate"),
        ('"chien", ', "", r"classic\.token_labels"),
        ("position = 38\n", "position = 37\n", r"classic\.taxes\[1\]\.position"),
        ("[classic]", "[classique]", r"classic\.deeds: missing list"),
    ],
)
def test_a_malformed_classic_file_is_refused_naming_file_and_field(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    with pytest.raises(EditionError, match=rf"^maison\.toml: {field}"):
        load_edition_file(_edited(tmp_path, old, new))


def test_only_the_files_own_ruleset_may_have_its_table(tmp_path: Path) -> None:
    text = house_copy((EDITIONS_DIR / "ultime-fr.toml").read_text(encoding="utf-8"))
    path = tmp_path / "ultime-plus.toml"
    path.write_text(text + '\n[classic]\ncurrency_lcd = "€"\n', encoding="utf-8")
    with pytest.raises(EditionError, match=r"^ultime-plus\.toml: classic: unknown key"):
        load_edition_file(path)


def test_the_card_kinds_come_from_the_edition_file(tmp_path: Path) -> None:
    """The tags a game reads are the edition's (``[edition] cards``), not a ruleset's name in
    the core: the classic file names deed, chance and chest; a file that disagrees with its
    own deeds, or names a bad kind, is refused with the field."""
    edition = load_edition("classic-fr")
    assert edition.card_counts == {"bank": 8, "deed": 28, "chance": 16, "chest": 16}
    assert load_edition("ultime-fr").card_counts == {"bank": 4, "prop": 22, "event": 23}
    old = "cards = { deed = 28, chance = 16, chest = 16 }"
    wrong = _edited(tmp_path, old, "cards = { deed = 27, chance = 16, chest = 16 }")
    with pytest.raises(EditionError, match=r"edition\.cards: a classic edition has cards"):
        load_edition_file(wrong)
    text = house_copy((EDITIONS_DIR / "ultime-fr.toml").read_text(encoding="utf-8"))
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("[edition]\n", "[edition]\ncards = { Bank = 2 }\n", 1))
    with pytest.raises(EditionError, match=r"edition\.cards\.Bank: a card kind"):
        load_edition_file(bad)


def test_a_panel_that_cannot_play_a_ruleset_refuses_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A ruleset's spec names the panel kinds that can play it; `run` and `emulate` refuse
    the others in one line naming the panel and the ways that do play, instead of a tray of
    cards the ruleset would refuse (every panel plays classic today: the check is exercised
    with a narrower spec)."""
    import dataclasses

    from bank import rulesets
    from bank.app import runtime
    from bank.engine.errors import BankError
    from bank.services.settings import load_settings

    settings = load_settings(None, [f'game.data_dir="{tmp_path}"', 'game.edition="classic-fr"'])
    for kinds in (["pygame"], ["terminal", "reader"], ["serial", "gpio", "sim"]):
        runtime._on_panels(settings, kinds)  # classic plays on every panel and reader
    real = rulesets.for_edition
    narrow = lambda edition: dataclasses.replace(real(edition), on_panels=("pygame",))  # noqa: E731
    monkeypatch.setattr(rulesets, "for_edition", narrow)
    runtime._on_panels(settings, ["pygame"])
    with pytest.raises(BankError) as refused:
        runtime._on_panels(settings, ["pygame", "serial", "reader"])
    assert str(refused.value) == (
        "classic-fr: the classic rules cannot be played with the serial front panel, the card "
        "readers yet; play them with the emulator window (`ultibank emulate --edition "
        "classic-fr`) or tap scripts (`ultibank script FILE --edition classic-fr`)"
    )


def _edited_mega(tmp_path: Path, old: str, new: str) -> Path:
    text = house_copy((EDITIONS_DIR / "mega-fr.toml").read_text(encoding="utf-8"))
    assert old in text
    path = tmp_path / "maison-mega.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("levels = 7\n", "levels = 6\n", r"constants\.levels: a Méga street has 7 rent levels"),
        ("skyscrapers = 8\n", "", r"constants\.skyscrapers: missing"),
        ("birthday_gift = 100\n", "birthday_gift = 0\n", r"constants\.birthday_gift: must be"),
        ('third_die = ["1", "2", "3", "mr", "mr", "bus"]', 'third_die = ["1", "2"]',
         r"classic\.third_die: expected the 6 faces"),
        ('"mr", "mr", "bus"]', '"mr", "mr", "taxi"]', r"classic\.third_die: 'taxi' is not one"),
    ],
)  # fmt: skip
def test_a_malformed_mega_file_is_refused_naming_the_field(
    old: str, new: str, message: str, tmp_path: Path
) -> None:
    with pytest.raises(EditionError, match=r"maison-mega\.toml: " + message):
        load_edition_file(_edited_mega(tmp_path, old, new))


def test_skyscrapers_and_depots_belong_to_a_mega_edition(tmp_path: Path) -> None:
    path = _edited(tmp_path, "houses_per_hotel = 4\n", "houses_per_hotel = 4\nskyscrapers = 8\n")
    with pytest.raises(EditionError, match=r"constants\.skyscrapers: only a Méga edition"):
        load_edition_file(path)
