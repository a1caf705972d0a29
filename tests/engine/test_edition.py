"""Edition files: the shipped ones load; malformed ones are refused naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from board_assets import EDITIONS_DIR, EditionError, edition_names, load_edition, load_edition_file


def test_shipped_editions_load() -> None:
    assert edition_names() == [
        "classic-fr",
        "classic-uk",
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
    text = (EDITIONS_DIR / "ultime-fr.toml").read_text(encoding="utf-8")
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
