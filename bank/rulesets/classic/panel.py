"""The classic ruleset's panel vocabulary: what the panels name and draw for a classic game.

The wiring asks the ruleset (``RulesetSpec.labels``) and hands the result to every panel, so
no panel reads the edition's ``[classic]`` table or tests Méga or Star Wars itself: the token
labels and the currency as the unit writes them, the decks' names, classic mode (the keypad),
the faces of the third die as the unit says them and the menu items the edition adds; and
the classic part of the web page's board.
Imports the classic edition and texts, and the unit's types.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bank.rulesets.classic import text as _texts  # noqa: F401  (registers the classic texts)
from bank.rulesets.classic.edition import classic_edition
from bank.unit.io import Labels
from bank.unit.text import language_of, say
from board_assets import Edition


def panel_labels(edition: Edition, lang: str) -> Labels:
    """The panels' vocabulary for a game of the classic *edition* in *lang*."""
    ed = classic_edition(edition)
    tokens = dict(zip(edition.token_names, ed.token_labels, strict=False))
    labels = Labels(lang, tokens, ed.currency_lcd, dict(ed.deck_names), classic=True)
    if not (ed.third_die or ed.sides or ed.mega):
        return labels
    speak = language_of(lang, edition.language)
    faces = (
        face
        if face.isdigit()
        else say(speak, f"c.force.die.{face}" if face == "shift" else f"c.die.{face}")
        for face in ed.third_die
    )
    menu = {14: say(speak, "c.menu.14")} if ed.sides else {}
    if ed.mega:
        menu[15] = say(speak, "c.menu.gift", amount=ed.birthday_gift)
    return replace(labels, third_die=tuple(dict.fromkeys(faces)), menu=menu)


def board(edition: Edition) -> dict[str, Any]:
    """The classic part of the web page's board: the decks' names, the taxes by ring position,
    which groups are stations and utilities, the token labels, whether it plays the Méga rules
    (skyscrapers, depots), its third die's faces and the characters' sides (Star Wars)."""
    raw = edition.raw.get("classic") if edition.raw else None
    if not isinstance(raw, dict):
        return {}
    return {
        "classic": {
            "chance": raw.get("chance_name", "Chance"),
            "chest": raw.get("chest_name", "Chest"),
            "taxes": {
                str(t["position"]): {"name": t["name"], "amount": t["amount"]}
                for t in raw.get("taxes", ())
            },
            "kinds": dict(raw.get("group_kinds", {})),
            "token_labels": list(raw.get("token_labels", ())),
            "mega": bool(raw.get("mega", False)),
            "third_die": list(raw.get("third_die", ())),
            "sides": list(raw.get("sides", ())),
        }
    }
