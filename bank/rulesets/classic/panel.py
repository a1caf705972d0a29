"""The classic ruleset's panel vocabulary: what the panels name and draw for a classic game.

The wiring asks the ruleset (``RulesetSpec.labels``) and hands the result to every panel, so
no panel reads the edition's ``[classic]`` table or tests Méga or Star Wars itself: the token
labels and the currency as the unit writes them, the decks' names, classic mode (the keypad),
the faces of the third die as the unit says them and the menu items the edition adds; and
the classic part of the web page's board.
Imports the classic edition and texts, and the unit's types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bank.rulesets import DeckSheet
from bank.rulesets.classic import text as _texts  # noqa: F401  (registers the classic texts)
from bank.rulesets.classic.edition import classic_edition
from bank.rulesets.classic.variant import variant_of
from bank.unit.io import CardId, CardRanges, Labels, Tray
from bank.unit.text import language_of, money, say
from board_assets import Edition


def panel_labels(edition: Edition, lang: str) -> Labels:
    """The panels' vocabulary for a game of the classic *edition* in *lang*."""
    ed = classic_edition(edition)
    tokens = dict(zip(edition.token_names, ed.token_labels, strict=False))
    labels = Labels(
        lang, tokens, ed.currency_lcd, dict(ed.deck_names), classic=True,
        tray=tray(edition, language_of(lang, edition.language)),
    )  # fmt: skip
    variant = variant_of(ed)
    if not (ed.third_die or variant.menu_items()):
        return labels
    speak = language_of(lang, edition.language)
    faces = (
        face
        if face.isdigit()
        else say(speak, f"c.force.die.{face}" if face == "shift" else f"c.die.{face}")
        for face in ed.third_die
    )
    menu = variant.menu_words(speak)
    return replace(labels, third_die=tuple(dict.fromkeys(faces)), menu=menu)


DECKS = ("chance", "chest")

_WORDS: Mapping[str, Mapping[str, str]] = {
    "deed": {"fr": "titre {n} : {name} ({group}) · prix {price}",
             "en": "deed {n}: {name} ({group}) · price {price}"},
    "street": {"fr": "loyer {base} · 1-4 maisons {houses} · hôtel {hotel}",
               "en": "rent {base} · 1-4 houses {houses} · hotel {hotel}"},
    "street.mega": {"fr": "loyer {base} · maisons {houses} · hôtel {hotel} · gratte-ciel {sky}",
                    "en": "rent {base} · houses {houses} · hotel {hotel} · skyscraper {sky}"},
    "station": {"fr": "loyer selon les gares possédées : {rents}",
                "en": "rent by stations owned: {rents}"},
    "station.mega": {"fr": "loyer par gares possédées : {rents} · avec dépôt : {depot}",
                     "en": "rent by stations owned: {rents} · with a depot: {depot}"},
    "utility": {"fr": "loyer : {mults} fois les dés ({owned} compagnies)",
                "en": "rent: {mults} times the dice ({owned} utilities)"},
    "costs": {"fr": "maison {house} · hypothèque {mortgage}",
              "en": "house {house} · mortgage {mortgage}"},
    "costs.mega": {"fr": "maison, hôtel, gratte-ciel {house} · hypothèque {mortgage}",
                   "en": "house, hotel, skyscraper {house} · mortgage {mortgage}"},
    "or": {"fr": "ou", "en": "or"},
    "side": {"fr": "côté {side}", "en": "{side} side"},
    "side.light": {"fr": "clair", "en": "light"},
    "side.dark": {"fr": "obscur", "en": "dark"},
    "mortgage": {"fr": "hypothèque {mortgage}", "en": "mortgage {mortgage}"},
    "card": {"fr": "{deck} {n} : {title}", "en": "{deck} {n}: {title}"},
    "card.generic": {"fr": "{deck} {n} (effet choisi sur l'unité)",
                     "en": "{deck} {n} (its effect is chosen on the unit)"},
    "bank": {"fr": "carte banque {n} : {label}", "en": "bank card {n}: {label}"},
    "bank.side": {"fr": "carte banque {n} : {label} ({side})",
                  "en": "bank card {n}: {label} ({side})"},
}  # fmt: skip


def _say(lang: str, key: str, **fields: object) -> str:
    templates = _WORDS[key]
    return templates.get(lang, templates["en"]).format(**fields)


def tray(edition: Edition, lang: str) -> Tray:
    """The classic table of the emulator's window in *lang*: the deeds in one column per group
    (stations and utilities are groups of their own), the two decks when the edition prints
    their cards, and what hovering a card says: a bank card's label (and its character's side,
    Star Wars), a deed's name and price, its rents and its costs (the Méga rents and depots),
    a printed card's title. Read from the edition's ``[classic]`` table as the file gives it:
    a missing field falls back to something sensible (a label is the token's name, a deck is
    called by its kind)."""
    table: Mapping[str, Any] = edition.raw.get("classic") or {}
    cards = CardRanges.of(edition)
    mega = bool(table.get("mega", False))
    cur = edition.currency
    raw_labels = table.get("token_labels") or ()
    tokens = edition.token_names
    labels = {
        tok: str(raw_labels[i]) if i < len(raw_labels) else tok for i, tok in enumerate(tokens)
    }
    raw_sides = tuple(str(s) for s in table.get("sides") or ())
    sides = raw_sides if set(raw_sides) <= {"light", "dark"} else ()
    hover: dict[CardId, tuple[str, ...]] = {}
    names: dict[CardId, str] = {}
    marks: dict[int, str] = {}
    for seat in range(1, cards.bank + 1):
        token = cards.token(seat)
        label = labels.get(token, token)
        side = sides[seat - 1] if seat <= len(sides) else None
        if side is not None:
            marks[seat] = side
            named = _say(lang, "side", side=_say(lang, f"side.{side}"))
            hover[CardId("bank", seat)] = (
                _say(lang, "bank.side", n=seat, label=label, side=named),
            )
        else:
            hover[CardId("bank", seat)] = (_say(lang, "bank", n=seat, label=label),)
    kinds: Mapping[str, str] = table.get("group_kinds") or {}
    own = {
        int(d["number"]): d
        for d in table.get("deeds") or ()
        if isinstance(d, Mapping) and isinstance(d.get("number"), int)
    }
    for p in edition.properties:
        group = edition.group(p.group)
        data = own.get(p.number, {})
        kind = str(kinds.get(p.group, "street"))
        first = _say(lang, "deed", n=p.number, name=p.name, group=group.name,
                     price=money(p.price, cur))  # fmt: skip
        mortgage = money(int(data.get("mortgage", 0)), cur)
        costs = "costs.mega" if mega else "costs"
        last = (
            _say(lang, costs, house=money(int(data.get("house", 0)), cur), mortgage=mortgage)
            if kind == "street"
            else _say(lang, "mortgage", mortgage=mortgage)
        )
        card = CardId("deed", p.number)
        hover[card] = (first, _rent_line(lang, kind, p.rents, mega, cur), last)
        names[card] = p.name
    columns = tuple(members for g in edition.groups if (members := edition.group_members(g.id)))
    deck_names = {
        "chance": str(table.get("chance_name") or "Chance"),
        "chest": str(table.get("chest_name") or "Community Chest"),
    }
    titles = {
        (deck, int(c["number"])): str(c.get("title", ""))
        for deck in DECKS
        for c in table.get(deck) or ()
        if isinstance(c, Mapping) and isinstance(c.get("number"), int)
    }
    for deck in DECKS:
        for n in range(1, cards.count(deck) + 1):
            title = titles.get((deck, n))
            card = CardId(deck, n)
            if title:
                hover[card] = (_say(lang, "card", deck=deck_names[deck], n=n, title=title),)
                names[card] = title
            else:
                hover[card] = (_say(lang, "card.generic", deck=deck_names[deck], n=n),)
    decks = DECKS if table.get("card_table") else ()
    return Tray("deed", columns, decks, hover, names, marks)


def _rent_line(lang: str, kind: str, rents: tuple[int, ...], mega: bool, cur: str) -> str:
    """A deed's rents in one line (the amounts in the edition's currency)."""
    if kind == "station":
        shown = " / ".join(str(r) for r in rents)
        if mega:  # §7.2: a depot doubles its station's rent
            depot = " / ".join(str(2 * r) for r in rents)
            return _say(lang, "station.mega", rents=shown, depot=depot)
        return _say(lang, "station", rents=shown)
    if kind == "utility":
        counts = [str(n) for n in range(1, len(rents) + 1)]
        owned = f"{', '.join(counts[:-1])} {_say(lang, 'or')} {counts[-1]}"
        return _say(lang, "utility", mults=" / ".join(f"×{r}" for r in rents), owned=owned)
    amounts = rents or (0, 0)
    if mega and len(amounts) > 2:  # base, 1-4 houses, hotel, skyscraper
        base, *houses, hotel, sky = amounts
        return _say(
            lang, "street.mega", base=money(base, cur),
            houses=" / ".join(str(h) for h in houses), hotel=hotel, sky=money(sky, cur),
        )  # fmt: skip
    base, *houses, hotel = amounts
    return _say(
        lang, "street", base=money(base, cur), houses=" / ".join(str(h) for h in houses),
        hotel=money(hotel, cur),
    )  # fmt: skip


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


def table_view(sheet: dict[str, Any], data: dict[str, Any], step: Any) -> None:
    """Add the classic part of the web page's table to the snapshot *data* from the classic
    state file *sheet*: each player's jail cards and tries, passed GO, side (Star Wars) and
    worth; each property's buildings and mortgage; and the ``classic`` key (the bank's houses
    and hotels, the pot, the turn, the last roll, the eliminated, the configuration, and the
    unit's *step* as the unit shows it)."""
    for p, q in zip(data["players"], sheet["players"], strict=True):
        p.update(
            jail_cards=q["jail_cards"],
            jail_tries=q["jail_tries"],
            passed_go=q["passed_go"],
            side=q["side"],
            worth=q["worth"] - p["balance"] if not p["bankrupt"] else 0,
            wealth=q["worth"],
        )
    for p, q in zip(data["properties"], sheet["properties"], strict=True):
        p.update(houses=q["houses"], hotel=q["hotel"], mortgaged=q["mortgaged"],
                 interest_due=q["interest_due"], skyscraper=q.get("skyscraper", False),
                 depot=q.get("depot", False))  # fmt: skip
    config = sheet["config"]
    data["classic"] = {
        "bank": sheet["bank"],
        "pot": sheet["pot"],
        "pot_on": config["variants"]["free_parking"] != "off",
        "turn": sheet["turn"],
        "last_roll": sheet["last_roll"],
        "eliminated": sheet["eliminated"],
        "step": step,
        "config": config,
    }


def deck_sheet(edition: Edition) -> DeckSheet:
    """The printed deck sheet of a classic edition: title deeds priced in the unit's currency,
    then the Chance and Community Chest cards with the texts the edition prints."""
    ed = classic_edition(edition)
    decks = {
        deck: {n: (c.title, c.text) for (d, n), c in ed.cards.items() if d == deck}
        for deck in ("chance", "chest")
    }
    return DeckSheet("deed", ed.currency_lcd, decks)
