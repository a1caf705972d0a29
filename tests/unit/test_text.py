"""The LCD texts: both languages, and every line fits the 2x20 panel."""

from __future__ import annotations

import string

import pytest

from bank.rulesets.ultime import text as ultime_text
from bank.unit.text import (
    _SHARED,
    ENGINE_SHORTS_FR,
    LANGUAGES,
    LCD_WIDTH,
    MESSAGES,
    TOKEN_NAMES,
    engine_short,
    fit,
    money,
    say,
    short_name,
)
from board_assets import edition_names, load_edition


def _worst_fields(lang: str) -> dict[str, object]:
    token = max((names[lang] for names in TOKEN_NAMES.values()), key=len)
    return {
        "token": token,
        "payer": token,
        "owner": token,
        "amount": 9999,
        "money": money(9999, "M€"),
        "n": 4,
        "lo": 8,
        "hi": 8,
        "level": 5,
        "step": 20,
        "a": "1.voiture",
        "b": "2.bateau",
    }


#: the shared texts and the Ultime unit's, whatever else a worker imported while collecting (the
#: classic unit's texts join MESSAGES when its package is imported; their lines are checked on
#: the classic screens themselves, with the values they are shown with)
_KEYS = sorted(set(_SHARED) | set(ultime_text.MESSAGES))


@pytest.mark.parametrize("key", _KEYS)
def test_every_message_has_both_languages_and_fits(key: str) -> None:
    assert set(MESSAGES[key]) == set(LANGUAGES)
    for lang in LANGUAGES:
        template = MESSAGES[key][lang]
        used = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        fields = _worst_fields(lang)
        assert used <= set(fields), f"{key}/{lang} uses unknown fields {used - set(fields)}"
        text = template.format(**fields)
        assert len(text) <= LCD_WIDTH, f"{key}/{lang}: {text!r} is {len(text)} cells"


@pytest.mark.parametrize(
    "name", [n for n in edition_names() if load_edition(n).ruleset == "ultime"]
)
def test_every_property_name_fits_one_line_without_a_cut(name: str) -> None:
    """The Ultime unit's names (the classic unit, not built yet, abbreviates its own)."""
    for prop in load_edition(name).properties:
        short = short_name(prop.name)
        assert len(short) <= LCD_WIDTH
        assert not short.endswith("…"), f"{prop.name!r} had to be cut: {short!r}"


def test_abbreviations_only_when_needed() -> None:
    assert short_name("Avenue Foch") == "Avenue Foch"
    assert short_name("Avenue des Champs-Élysées") == "Av. Champs-Élysées"
    assert short_name("Northumberland Avenue") == "Northumberland Av."


def test_fit_cuts_with_an_ellipsis() -> None:
    assert fit("Pendaison de crémaillère") == "Pendaison de crémai…"
    assert len(fit("x" * 40)) == LCD_WIDTH


def test_engine_refusals_translated_to_french_and_kept_in_english() -> None:
    assert engine_short("fr", "not enough money") == "Pas assez d'argent"
    assert engine_short("en", "not enough money") == "Not enough money"
    assert engine_short("fr", "some new refusal") == "Some new refusal"
    for text in ENGINE_SHORTS_FR.values():
        assert len(text) <= LCD_WIDTH


def test_engine_shorts_all_have_a_french_wording() -> None:
    """Every short refusal text the engine can raise has a French wording."""
    import ast
    import pathlib

    shorts: set[str] = set()
    for module in (
        "rulesets/ultime/rules.py",
        "engine/game.py",
        "engine/auction.py",
        "rulesets/__init__.py",
    ):
        path = pathlib.Path(__file__).resolve().parents[2] / "bank" / module
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id.endswith(("Error", "Money", "Debt", "Over", "Refused"))
                and len(node.args) == 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                shorts.add(node.args[1].value)
    assert shorts, "no engine refusal found: the scan is broken"
    missing = sorted(s for s in shorts if s not in ENGINE_SHORTS_FR)
    assert not missing


def test_say_formats_and_fits() -> None:
    assert say("fr", "balance.2", money="1500 M€") == "Solde 1500 M€"
    assert say("en", "menu.go", amount=200) == "GO +200"
