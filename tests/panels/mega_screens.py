"""Méga and Star Wars II screens as the classic unit shows them (tests/scripts/classic/mega_*
and sw_* transcripts), for the panels' tests."""

from __future__ import annotations

from bank.unit.io import Icon, Screen


def skyscraper_deed(name: str, owner: str, money: str, token: str = "dog") -> Screen:
    """The deed check of deed 35 with a skyscraper (level 6): ``35 NAME`` / ``OWNER loyer
    MONEY`` (the caller writes line 2 in its language)."""
    return Screen(
        "deed",
        (f"35 {name}", f"{owner} {money}"),
        number=35,
        token=token,
        level=6,
        amount=2500,
        icons=frozenset({Icon.SKYSCRAPER}),
    )


def depot_deed(name: str, line2: str) -> Screen:
    """The deed check of station 4 with its depot, owned by dog, rent 100."""
    return Screen(
        "deed",
        (f"4 {name}", line2),
        number=4,
        token="dog",
        level=0,
        amount=100,
        icons=frozenset({Icon.DEPOT}),
    )


#: Méga: a skyscraper built on deed 35 (the build session's result)
SKYSCRAPER_BUILT = Screen(
    "built",
    ("35 Bleu foncé 1", "Gratte-ciel −200"),
    number=35,
    level=6,
    amount=200,
    icons=frozenset({Icon.SKYSCRAPER}),
)

#: Star Wars: Dooku loses a Force battle
FORCE_LOST = Screen(
    "force",
    ("Vaincu par la Force", "Dooku −200"),
    amount=200,
    token="dooku",
    icons=frozenset({Icon.FORCE}),
)
