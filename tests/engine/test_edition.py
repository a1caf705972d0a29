"""Edition files: the shipped ones load; malformed ones are refused naming file and field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bank.rulesets.ultime.edition import UNIT_CARDS
from bank.unit.io import CardRanges
from board_assets import (
    EDITIONS_DIR,
    EditionError,
    edition_names,
    load_edition,
    load_edition_file,
)
from tests.support.editions import house_copy


def test_shipped_editions_load() -> None:
    assert edition_names() == [
        "classic-fr",
        "classic-uk",
        "mega-fr",
        "mega-uk",
        "one-piece-fr",
        "starwars-ep2-fr",
        "ultimate-uk",
        "ultime-fr",
    ]
    fr, uk = load_edition("ultime-fr"), load_edition("ultimate-uk")
    assert fr.prop(16).name == "Place de la Bourse" and uk.prop(16).name == "Coventry Street"
    assert fr.prop(22).rents == (300, 400, 560, 810, 1600) and fr.prop(22).price == 400
    assert len(fr.properties) == 22 and len(fr.events) == 23 and fr.currency == "M€"
    assert [p.price for p in fr.properties] == [p.price for p in uk.properties]
    assert fr.neighbours(1) == (22, 2)


def test_unknown_edition() -> None:
    with pytest.raises(EditionError, match="ultime-fr"):
        load_edition("nope")


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = house_copy((EDITIONS_DIR / "ultime-fr.toml").read_text(encoding="utf-8"))
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "rents = [70, 130, 220, 370, 750]",
            "rents = [70, 130, 220, 370]",
            r"properties\[0\]\.rents: expected 5",
        ),
        ("rents = [70, 130, 220, 370, 750]", "", r"properties\[0\]\.rents: missing"),
        ('group = "brown"', 'group = "purple"', r"properties\[0\]\.group: unknown group"),
        ("number = 2\n", "number = 1\n", r"properties\[1\]\.number: duplicate"),
        ("levels = 5", "levels = 4", r"constants\.levels"),
        ('kind = "tax"', 'kind = "lottery"', r"events\[6\]\.kind: unknown"),
        ("price = 60", 'price = "sixty"', r"properties\[0\]\.price"),
        ("id = 23\n", "id = 22\n", r"events\[22\]\.id: duplicate"),
        ("[constants]", "[constantz]", r"constants: missing"),
        # gaps that broke a game later (issue 9): colours, tokens, unknown keys, amounts
        (
            'colour = "#8b4513"',
            'colour = "brown"',
            r"groups\[0\]\.colour: 'brown' is not .*#rrggbb",
        ),
        ('colour = "#8b4513"', 'colour = "#8b451"', r"groups\[0\]\.colour: .*#rrggbb"),
        ('"car", "helicopter"', '"car$", "helicopter"', r"constants\.tokens\[0\]: 'car\$'"),
        ('"car", "helicopter"', '"", "helicopter"', r"constants\.tokens\[0\]: ''"),
        ('"car", "helicopter"', '"car", "car"', r"constants\.tokens\[1\]: duplicate token 'car'"),
        ('"car", "helicopter"', '"car", "heli<b>"', r"constants\.tokens\[1\]"),
        ("price = 60", "price = 60\nprise = 60", r"properties\[0\]\.prise: unknown key"),
        ('currency = "M€"', 'currency = "M€"\ncurency = "M€"', r"edition\.curency: unknown key"),
        ("go_salary = 200", "go_salary = 200\nsalary = 200", r"constants\.salary: unknown key"),
        ('kind = "tax"', 'kind = "tax"\nkinds = "tax"', r"events\[6\]\.kinds: unknown key"),
        ("[[groups]]", "[board]\nsize = 1\n\n[[groups]]", r"board: unknown key"),
        (
            "start_balance = 1500",
            "start_balance = 4611686018427387904",
            r"constants\.start_balance: at most 1,000,000",
        ),
        ("price = 60", "price = 3000000000", r"properties\[0\]\.price: at most"),
        (
            "rents = [70, 130, 220, 370, 750]",
            "rents = [70, 130, 220, 370, 2147483648]",
            r"properties\[0\]\.rents\[4\]: not an amount",
        ),
        ("max_players = 4", "max_players = 5", r"constants\.tokens: expected 5"),
    ],
)
def test_malformed_files_name_file_and_field(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(EditionError, match=r"broken\.toml: " + message):
        load_edition_file(_broken(tmp_path, old, new))


def test_not_toml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [ not toml", encoding="utf-8")
    with pytest.raises(EditionError, match=r"bad\.toml: not valid TOML"):
        load_edition_file(bad)


# ---------------------------------------------------------------- gaps that broke a game later


def _three_events(tmp_path: Path) -> Path:
    """ultime-fr with only its first 3 event cards."""
    text = house_copy((EDITIONS_DIR / "ultime-fr.toml").read_text(encoding="utf-8"))
    cut = [i for i in range(len(text)) if text.startswith("[[events]]", i)][3]
    path = tmp_path / "three.toml"
    path.write_text(text[:cut], encoding="utf-8")
    return path


def test_an_edition_must_cover_the_units_event_cards(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match=r"three\.toml: events: .*event:1\.\.23.* has 3"):
        load_edition_file(_three_events(tmp_path))


def test_script_on_an_edition_with_3_event_cards_is_a_message_not_a_traceback(
    tmp_path: Path,
) -> None:
    script = tmp_path / "game.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\ntap bank:1\ntap event:10\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bank.cli",
            "script",
            str(script),
            "--edition",
            str(_three_events(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "events" in done.stderr


def test_the_units_card_counts_are_the_loaders() -> None:
    """Every shipped Ultime edition has exactly the Ultime unit's cards (the game's ranges)."""
    for name in edition_names():
        if load_edition(name).ruleset != "ultime":
            continue  # the classic unit and its card kinds are not built yet
        cards = CardRanges.of(load_edition(name))
        assert {k: cards.count(k) for k in UNIT_CARDS} == dict(UNIT_CARDS)


def test_more_players_than_bank_cards_is_refused(tmp_path: Path) -> None:
    path = _broken(tmp_path, '"boat", "jet"]', '"boat", "jet", "hat"]')
    path.write_text(path.read_text().replace("max_players = 4", "max_players = 5"))
    with pytest.raises(EditionError, match=r"constants\.max_players: .*bank:1\.\.4.* has 5"):
        load_edition_file(path)
