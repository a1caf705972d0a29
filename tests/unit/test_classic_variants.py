"""Méga and Star Wars are variants of classic, chosen once from the edition (issue 18): the
rules engine holds the variant, and nothing else in the classic package branches on the
edition's ``mega`` or ``sides`` flags."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bank.rulesets.classic.rules import ClassicRulesEngine
from bank.rulesets.classic.variant import (
    MEGA_NOTES,
    NOTES,
    ClassicVariant,
    MegaVariant,
    StarWarsVariant,
)
from board_assets import load_edition

PACKAGE = Path(__file__).resolve().parents[2] / "bank" / "rulesets" / "classic"
#: where the flags may still be read: the edition parses them, the variant is chosen from them
ALLOWED = {"edition.py", "variant.py"}


@pytest.mark.parametrize(
    ("edition", "kind", "items", "notes"),
    [
        ("classic-fr", ClassicVariant, (), NOTES),
        ("mega-fr", MegaVariant, (15,), MEGA_NOTES),
        ("starwars-ep2-fr", StarWarsVariant, (14,), NOTES),
    ],
)
def test_the_engine_plays_its_editions_variant(
    edition: str, kind: type[ClassicVariant], items: tuple[int, ...], notes: tuple[int, ...]
) -> None:
    variant = ClassicRulesEngine(load_edition(edition)).variant
    assert type(variant) is kind
    assert variant.menu_items() == items
    assert variant.notes == notes
    assert set(variant.menu_words("fr")) == set(items)


def test_only_star_wars_cards_have_a_side() -> None:
    sw = ClassicRulesEngine(load_edition("starwars-ep2-fr")).variant
    classic = ClassicRulesEngine(load_edition("classic-fr")).variant
    assert {sw.side_of(1), sw.side_of(2)} <= {"light", "dark"}
    assert sw.side_of(99) is None
    assert classic.side_of(1) is None


def test_no_flag_branching_left_in_the_classic_package() -> None:
    reads = [
        f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name not in ALLOWED
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bed\.(mega|sides)\b", line)
    ]
    assert not reads, "ask the variant instead: " + "; ".join(reads)
