"""What the emulator's window shows of a classic edition: its tray and its hover lines.

A classic edition (``ruleset = "classic"``, docs/classic.md §1-§4) is read from the edition file as
the shared loader gives it (:class:`board_assets.Edition` and its ``[classic]`` table in
``raw``), never from the classic ruleset's modules: the emulator contains no rule. What it
needs is data: the token labels of the 8 bank cards, the deeds in one column per group
(stations and utilities in their own columns, the edition's group order), each deed's price,
rents, house price and mortgage value for the hover line, and the two decks' names and cards'
titles when the edition has a card table. The ruleset's schema has checked the file before a
game starts; here a missing field falls back to something sensible (a label is the token's
script name, a deck is called by its kind), so the window never fails on a house edition.

Imports ``bank.unit.io``, ``bank.unit.text``, ``board_assets`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bank.unit.io import CardId, CardRanges
from bank.unit.text import money
from board_assets import Edition

CLASSIC = "classic"
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


def is_classic(edition: Edition) -> bool:
    """Whether *edition* is played with the classic rules (its window has the classic tray)."""
    return edition.ruleset == CLASSIC


def _say(lang: str, key: str, **fields: object) -> str:
    templates = _WORDS[key]
    return templates.get(lang, templates["en"]).format(**fields)


@dataclass(frozen=True, slots=True)
class DeedInfo:
    """One deed as the window shows it."""

    number: int
    name: str
    group: str
    colour: str
    kind: str  # street, station, utility
    price: int
    rents: tuple[int, ...]
    house: int
    mortgage: int


@dataclass(frozen=True, slots=True)
class ClassicTray:
    """The classic edition's tray: bank cards, deed columns, decks; and its hover lines."""

    edition: Edition
    lang: str
    #: the LCD label of each seat's token (``chien``), by token script name (``dog``)
    labels: Mapping[str, str]
    #: the deeds in columns: one per group, in the edition's group order
    columns: tuple[tuple[int, ...], ...]
    deeds: Mapping[int, DeedInfo]
    #: deck kind (``chance``, ``chest``) -> the edition's name (``Caisse de communauté``)
    deck_names: Mapping[str, str]
    #: whether the edition prints the 16 + 16 cards (a tray of them is shown)
    card_table: bool
    #: (deck, number) -> the card's title, with a card table
    titles: Mapping[tuple[str, int], str]
    #: Méga (``classic.mega``): a street's last rent is its skyscraper's, a station takes a
    #: depot that doubles its rent
    mega: bool = False
    #: Star Wars (``classic.sides``): each seat's side, ``light`` or ``dark`` (empty: none)
    sides: tuple[str, ...] = ()

    @classmethod
    def of(cls, edition: Edition, lang: str) -> ClassicTray:
        table: Mapping[str, Any] = edition.raw.get("classic") or {}
        tokens = edition.token_names
        raw_labels = table.get("token_labels") or ()
        labels = {
            tok: str(raw_labels[i]) if i < len(raw_labels) else tok for i, tok in enumerate(tokens)
        }
        kinds: Mapping[str, str] = table.get("group_kinds") or {}
        own = {
            int(d["number"]): d
            for d in table.get("deeds") or ()
            if isinstance(d, Mapping) and isinstance(d.get("number"), int)
        }
        deeds: dict[int, DeedInfo] = {}
        for p in edition.properties:
            group = edition.group(p.group)
            data = own.get(p.number, {})
            deeds[p.number] = DeedInfo(
                p.number, p.name, group.name, group.colour, str(kinds.get(p.group, "street")),
                p.price, p.rents, int(data.get("house", 0)), int(data.get("mortgage", 0)),
            )  # fmt: skip
        columns = tuple(members for g in edition.groups if (members := edition.group_members(g.id)))
        deck_names = {
            "chance": str(table.get("chance_name") or "Chance"),
            "chest": str(table.get("chest_name") or "Community Chest"),
        }
        titles = {
            (deck, int(card["number"])): str(card.get("title", ""))
            for deck in DECKS
            for card in table.get(deck) or ()
            if isinstance(card, Mapping) and isinstance(card.get("number"), int)
        }
        sides = tuple(str(s) for s in table.get("sides") or ())
        return cls(
            edition, lang, labels, columns, deeds, deck_names,
            bool(table.get("card_table", False)), titles, bool(table.get("mega", False)),
            sides if set(sides) <= {"light", "dark"} else (),
        )  # fmt: skip

    @property
    def cards(self) -> CardRanges:
        return CardRanges.of(self.edition)

    def label(self, token: str) -> str:
        """The LCD label of *token* (``dog`` -> ``chien``)."""
        return self.labels.get(token, token)

    def seat_label(self, seat: int) -> str:
        return self.label(self.cards.token(seat))

    def side(self, seat: int) -> str | None:
        """Star Wars: the side of the character of bank card *seat* (``light``, ``dark``)."""
        return self.sides[seat - 1] if 1 <= seat <= len(self.sides) else None

    def side_name(self, side: str) -> str:
        """``côté clair`` / ``light side``."""
        return _say(self.lang, "side", side=_say(self.lang, f"side.{side}"))

    def money(self, amount: int) -> str:
        return money(amount, self.edition.currency)

    def describe(self, card: CardId) -> tuple[str, ...]:
        """What hovering *card* shows: one line, or a deed's three (name and price; rents;
        house price and mortgage value)."""
        lang = self.lang
        if card.kind == "bank":
            label, side = self.seat_label(card.number), self.side(card.number)
            if side is not None:
                return (_say(lang, "bank.side", n=card.number, label=label,
                             side=self.side_name(side)),)  # fmt: skip
            return (_say(lang, "bank", n=card.number, label=label),)
        if card.kind in DECKS:
            deck = self.deck_names[card.kind]
            title = self.titles.get((card.kind, card.number))
            if title:
                return (_say(lang, "card", deck=deck, n=card.number, title=title),)
            return (_say(lang, "card.generic", deck=deck, n=card.number),)
        d = self.deeds[card.number]
        first = _say(lang, "deed", n=d.number, name=d.name, group=d.group,
                     price=self.money(d.price))  # fmt: skip
        mortgage = self.money(d.mortgage)
        costs = "costs.mega" if self.mega else "costs"
        last = (
            _say(lang, costs, house=self.money(d.house), mortgage=mortgage)
            if d.kind == "street"
            else _say(lang, "mortgage", mortgage=mortgage)
        )
        return first, self.rent_line(d), last

    def rent_line(self, d: DeedInfo) -> str:
        """A deed's rents in one line (the amounts in the edition's currency)."""
        lang = self.lang
        if d.kind == "station":
            rents = " / ".join(str(r) for r in d.rents)
            if self.mega:  # §7.2: a depot doubles its station's rent
                depot = " / ".join(str(2 * r) for r in d.rents)
                return _say(lang, "station.mega", rents=rents, depot=depot)
            return _say(lang, "station", rents=rents)
        if d.kind == "utility":
            counts = [str(n) for n in range(1, len(d.rents) + 1)]
            owned = f"{', '.join(counts[:-1])} {_say(lang, 'or')} {counts[-1]}"
            return _say(lang, "utility", mults=" / ".join(f"×{r}" for r in d.rents), owned=owned)
        amounts = d.rents or (0, 0)
        if self.mega and len(amounts) > 2:  # base, 1-4 houses, hotel, skyscraper
            base, *houses, hotel, sky = amounts
            return _say(
                lang, "street.mega", base=self.money(base),
                houses=" / ".join(str(h) for h in houses), hotel=hotel, sky=self.money(sky),
            )  # fmt: skip
        base, *houses, hotel = amounts
        return _say(
            lang, "street", base=self.money(base), houses=" / ".join(str(h) for h in houses),
            hotel=self.money(hotel),
        )  # fmt: skip
