"""The classic edition schema and its typed reading (docs/classic.md §1, §2, §4).

A classic edition file is a shared edition file (``board_assets``) with ``ruleset =
"classic"`` and these fields of its own, all checked here (one fault, naming the field, per
refusal; the loader puts the file's name in front):

- ``[constants]``: ``go_salary``, ``jail_fee``, ``jail_tries``, ``houses``, ``hotels``,
  ``houses_per_hotel`` beside the shared ones; ``levels = 6`` (base rent, 1-4 houses, hotel).
- ``[[groups]] levels``: a station group has 4 rents (by stations owned), a utility group 2
  (the dice multipliers by utilities owned); a street has the edition's 6.
- ``[classic]`` (the ruleset's own table, which the shared loader leaves to this schema):
  ``currency_lcd``, ``double_rent_with_mortgaged_lot``, ``token_labels``, ``chance_name``,
  ``chest_name``, ``card_table``, optional ``sides`` (Star Wars), ``group_kinds`` (group id ->
  ``"station"`` or ``"utility"``; the others are streets), ``deeds`` (each deed's ``number``,
  ``house`` price for a street and ``mortgage`` value), the ``[[classic.taxes]]`` (position,
  name, amount) and, with a card table, the 16 + 16 cards ``[[classic.chance]]`` /
  ``[[classic.chest]]`` (number, title, text, effect and its amounts); optional
  ``third_die`` (the six faces of the unit's third die: Méga's speed die ``["1", "2", "3",
  "mr", "mr", "bus"]``, Star Wars' Force die) with ``third_die_in_jail`` (whether a jailed
  player's roll includes it), and ``mega = true`` (the Méga rules, §7.2).

A user may copy a shipped file and change names and amounts (a house edition); it is checked
like a shipped one: every amount from 1 to ``MAX_AMOUNT`` (10^6), every count within the
rules' ceilings (:data:`COUNT_CEILINGS`; a card's move back 1 to 12 spaces, ``utility_dice``
1 to 20), printable text of bounded length (labels and deck names fit the LCD's 20 cells),
no unknown key in ``[classic]``, its cards and taxes, ring spaces from the classic set
(:data:`RING_SPACES`, with :data:`MEGA_SPACES` in Méga) and a shipped edition's id refused
(by the shared loader).
Imports ``board_assets`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from board_assets import MAX_AMOUNT, MAX_TEXT, Edition, EditionError, text_fault

#: the classic constants beyond those every ruleset has
OWN_CONSTANTS = ("go_salary", "jail_fee", "jail_tries", "houses", "hotels", "houses_per_hotel")
#: the Méga constants (§1.2, §7.2): the skyscrapers and train depots in the bank, the gift
MEGA_CONSTANTS = ("skyscrapers", "depots", "birthday_gift")
KINDS = ("street", "station", "utility")
#: rent levels of a street: base, 1-4 houses, hotel
STREET_LEVELS = 6
DECKS = ("chance", "chest")
DECK_SIZE = 16
#: the faces a third die may carry: a number added to the white dice, or a symbol
THIRD_FACES = ("1", "2", "3", "4", "5", "6", "mr", "bus", "light", "dark", "shift")
#: the spaces of a classic ring beside the properties, and those Méga adds (§7.2)
RING_SPACES = frozenset({"GO", "JAIL", "CHANCE", "CHEST", "TAX", "FREE_PARKING", "GO_TO_JAIL"})
MEGA_SPACES = frozenset({"AUCTION", "BUS_TICKET", "BIRTHDAY_GIFT"})
#: the keys of the ``[classic]`` table, of a card and of a tax; any other is a typo
TABLE_KEYS = frozenset({
    "card_table", "chance", "chance_name", "chest", "chest_name", "currency_lcd", "deeds",
    "double_rent_with_mortgaged_lot", "group_kinds", "mega", "sides", "taxes", "third_die",
    "third_die_in_jail", "token_labels", "utility_dice",
})  # fmt: skip
CARD_KEYS = frozenset({"number", "title", "text", "effect", "deed", "spaces", "house", "hotel",
                       "amount", "salary", "skyscraper", "depot"})  # fmt: skip
TAX_KEYS = frozenset({"position", "name", "amount"})
#: the ceilings of the counts (the amounts' is MAX_AMOUNT): a move card goes back 1 to 12
#: spaces, a utility's rent counts 1 to 20 dice; the bank's buildings and the jail tries
COUNT_CEILINGS: Mapping[str, int] = {
    "jail_tries": 10, "houses": 1000, "hotels": 1000, "houses_per_hotel": 12,
    "skyscrapers": 1000, "depots": 1000, "spaces": 12, "utility_dice": 20,
}  # fmt: skip
#: the constants that are amounts of money (the others are counts)
AMOUNT_KEYS = frozenset({"go_salary", "jail_fee", "birthday_gift", "house", "mortgage",
                         "amount", "hotel", "skyscraper", "depot"})  # fmt: skip
#: the longest LCD texts (a label, a deck's name, the currency) and card or tax texts
LCD_TEXT = 20
CURRENCY_TEXT = 4
TITLE_TEXT = 40
#: card effect -> the whole-number fields it needs (``salary`` is a bool, checked apart)
EFFECTS: Mapping[str, tuple[str, ...]] = {
    "advance": ("deed",),
    "go": (),
    "back": ("spaces",),
    "jail": (),
    "jail_card": (),
    "repairs": ("house", "hotel"),
    "pay": ("amount",),
    "receive": ("amount",),
    "birthday": ("amount",),
    "pay_or_draw": ("amount",),
}


@dataclass(frozen=True, slots=True)
class GenericEffect:
    """A generic card effect of §4.5, for the decks an edition has no table for."""

    number: int
    key: str
    #: how many amounts it asks (keypad or the three-button entry)
    amounts: int
    fr: str
    en: str
    #: a move onto a deed (G9-G11): not offered by the menu (READINGS A17)
    moves: bool = False


#: §4.5: G1-G11, the same for every edition without a card table
GENERIC_EFFECTS: Mapping[int, GenericEffect] = {
    e.number: e
    for e in (
        GenericEffect(1, "receive", 1, "Recevoir de la banque", "Receive from the bank"),
        GenericEffect(2, "pay", 1, "Payer la banque", "Pay the bank"),
        GenericEffect(3, "repairs", 2, "Réparations", "Repairs"),
        GenericEffect(4, "birthday", 1, "Anniversaire", "Birthday"),
        GenericEffect(5, "pay_each", 1, "Payer chaque joueur", "Pay each player"),
        GenericEffect(6, "jail", 0, "Prison", "Go to jail"),
        GenericEffect(7, "jail_card", 0, "Libéré de prison", "Get out of jail free"),
        GenericEffect(8, "go", 0, "Départ", "Advance to GO"),
        GenericEffect(9, "advance", 0, "Aller à un titre", "Go to a deed", moves=True),
        GenericEffect(10, "advance_double", 0, "Titre, loyer double", "Deed, double rent", True),
        GenericEffect(11, "utility_ten", 0, "Compagnie, 10 × dés", "Utility, 10 × dice", True),
    )
}


@dataclass(frozen=True, slots=True)
class Deed:
    number: int
    name: str
    group: str
    kind: str
    price: int
    #: streets: base, 1-4 houses, hotel; stations: by stations owned; utilities: multipliers
    rents: tuple[int, ...]
    house: int
    mortgage: int
    position: int


@dataclass(frozen=True, slots=True)
class Tax:
    position: int
    name: str
    amount: int


@dataclass(frozen=True, slots=True)
class Card:
    deck: str
    number: int
    title: str
    text: str
    effect: str
    #: the effect's amounts and targets (``deed``, ``amount``, ``house``...), and ``salary``
    args: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class ClassicEdition:
    """An edition as the classic rules read it."""

    edition: Edition
    deeds: tuple[Deed, ...]
    start_balance: int
    go_salary: int
    jail_fee: int
    jail_tries: int
    houses: int
    hotels: int
    houses_per_hotel: int
    auction_step: int
    currency_lcd: str
    double_rent_with_mortgaged_lot: bool
    token_labels: tuple[str, ...]
    deck_names: Mapping[str, str]
    card_table: bool
    sides: tuple[str, ...]
    taxes: tuple[Tax, ...]
    cards: Mapping[tuple[str, int], Card]
    ring: tuple[str, ...]
    #: the unit's third die, face 1 to 6 (empty: two dice); a digit face adds to the move
    third_die: tuple[str, ...] = ()
    #: a jailed player's roll includes the third die (Méga: white dice only, READINGS E1)
    third_die_in_jail: bool = False
    #: the Méga rules of §7.2 (majority rule, ×3 rent, skyscrapers, depots, the new spaces)
    mega: bool = False
    #: Méga's skyscrapers and train depots in the bank (0 elsewhere)
    skyscrapers: int = 0
    depots: int = 0
    birthday_gift: int = 0

    def deed(self, number: int) -> Deed:
        return self.deeds[number - 1]

    def group(self, group: str) -> tuple[int, ...]:
        """Numbers of the deeds of *group*."""
        return tuple(d.number for d in self.deeds if d.group == group)

    def of_kind(self, kind: str) -> tuple[int, ...]:
        return tuple(d.number for d in self.deeds if d.kind == kind)

    def tax_at(self, position: int) -> Tax:
        for tax in self.taxes:
            if tax.position == position:
                return tax
        raise KeyError(position)

    def spaces(self, name: str) -> tuple[int, ...]:
        """Positions of the ring's *name* spaces (``CHANCE``, ``CHEST``...)."""
        return tuple(i for i, s in enumerate(self.ring) if s == name)


def _int(
    raw: Mapping[str, Any], key: str, where: str, minimum: int = 0, maximum: int | None = None
) -> int:
    """A whole number from *minimum* to its ceiling: *maximum*, else MAX_AMOUNT for an amount,
    :data:`COUNT_CEILINGS` for a count, else MAX_AMOUNT (no number of an edition is larger)."""
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise EditionError(f"{where}{key}: missing or not a whole number")
    if value < minimum:
        raise EditionError(f"{where}{key}: must be at least {minimum}, got {value}")
    if maximum is None:
        maximum = MAX_AMOUNT if key in AMOUNT_KEYS else COUNT_CEILINGS.get(key, MAX_AMOUNT)
    if value > maximum:
        raise EditionError(f"{where}{key}: at most {maximum:,}, got {value:,}")
    return value


def _text(raw: Mapping[str, Any], key: str, where: str, limit: int = TITLE_TEXT) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value:
        raise EditionError(f"{where}{key}: missing or empty text")
    why = text_fault(value, limit)
    if why:
        raise EditionError(f"{where}{key}: {why}")
    return value


def _known(raw: Mapping[str, Any], keys: frozenset[str], where: str) -> None:
    unknown = sorted(set(raw) - keys)
    if unknown:
        raise EditionError(f"{where}{unknown[0]}: unknown key; known: {', '.join(sorted(keys))}")


def _bool(raw: Mapping[str, Any], key: str, where: str) -> bool:
    value = raw.get(key)
    if not isinstance(value, bool):
        raise EditionError(f"{where}{key}: expected true or false")
    return value


def _list(raw: Mapping[str, Any], key: str, where: str) -> Sequence[Any]:
    value = raw.get(key)
    if not isinstance(value, list):
        raise EditionError(f"{where}{key}: missing list")
    return value


def check_edition(raw: Mapping[str, Any]) -> None:
    """Refuse an edition file the classic rules cannot play (``field: why``)."""
    _read(raw, None)


def classic_edition(edition: Edition) -> ClassicEdition:
    """The classic reading of an edition that passed :func:`check_edition`."""
    result = _read(edition.raw, edition)
    assert result is not None
    return result


def _check_cards(raw: Mapping[str, Any]) -> None:
    """``[edition] cards`` names the classic tags (§1.3): a deed per deed, 16 + 16 cards."""
    head = raw.get("edition")
    deeds = raw.get("properties")
    want = {"deed": len(deeds) if isinstance(deeds, list) else 0, "chance": 16, "chest": 16}
    cards = head.get("cards") if isinstance(head, Mapping) else None
    if not isinstance(cards, Mapping) or dict(cards) != want:
        shown = ", ".join(f"{k} = {v}" for k, v in want.items())
        raise EditionError(f"edition.cards: a classic edition has cards = {{ {shown} }}")


def _read(raw: Mapping[str, Any], edition: Edition | None) -> ClassicEdition | None:
    constants = raw.get("constants")
    if not isinstance(constants, Mapping):
        return None  # the shared checks name it
    own = {k: _int(constants, k, "constants.", 1) for k in OWN_CONSTANTS}
    table = raw.get("classic")
    if not isinstance(table, Mapping):
        raise EditionError("classic: missing table")
    _known(table, TABLE_KEYS, "classic.")
    mega = _bool(table, "mega", "classic.") if "mega" in table else False
    levels = STREET_LEVELS + 1 if mega else STREET_LEVELS
    if constants.get("levels") != levels:
        what = "a Méga street has" if mega else "a classic street has"
        raise EditionError(f"constants.levels: {what} {levels} rent levels")
    # Méga's skyscrapers and train depots in the bank (§2.5); none elsewhere
    for key in MEGA_CONSTANTS:
        if mega:
            own[key] = _int(constants, key, "constants.", 1)
        elif key in constants:
            raise EditionError(f"constants.{key}: only a Méga edition (classic.mega) has them")
    shared = {"start_balance", "auction_step", "min_players", "max_players", "levels",
              "tokens", "ring"}  # fmt: skip
    _known(constants, frozenset(shared | set(OWN_CONSTANTS) | set(MEGA_CONSTANTS)), "constants.")
    _check_cards(raw)
    w = "classic."
    group_kinds = table.get("group_kinds", {})
    if not isinstance(group_kinds, Mapping):
        raise EditionError(f"{w}group_kinds: expected a table of group id = kind")
    group_ids = {str(g.get("id")) for g in raw.get("groups") or () if isinstance(g, Mapping)}
    for gid, kind in group_kinds.items():
        if kind not in KINDS:
            raise EditionError(f"{w}group_kinds.{gid}: one of {', '.join(KINDS)}, got {kind!r}")
        if gid not in group_ids:
            raise EditionError(f"{w}group_kinds.{gid}: no such group")
    own_data: dict[int, Mapping[str, Any]] = {}
    for i, d in enumerate(_list(table, "deeds", w)):
        dw = f"{w}deeds[{i}]."
        if not isinstance(d, Mapping):
            raise EditionError(f"{dw[:-1]}: not a table")
        unknown = sorted(set(d) - {"number", "house", "mortgage"})
        if unknown:
            raise EditionError(f"{dw}{unknown[0]}: unknown key; known: house, mortgage, number")
        number = _int(d, "number", dw, 1)
        if number in own_data:
            raise EditionError(f"{dw}number: duplicate deed {number}")
        own_data[number] = d
    deeds: list[Deed] = []
    for i, p in enumerate(raw.get("properties") or ()):
        if not isinstance(p, Mapping) or not isinstance(p.get("number"), int):
            continue  # the shared checks name it
        number = p["number"]
        kind = str(group_kinds.get(str(p.get("group")), "street"))
        d = own_data.pop(number, None)
        dw = f"{w}deeds[number={number}]."
        if d is None:
            raise EditionError(f"{w}deeds: no house and mortgage for deed {number}")
        price = _int(p, "price", f"properties[{i}].", 1)
        mortgage = _int(d, "mortgage", dw, 1)
        if mortgage > price:
            raise EditionError(f"{dw}mortgage: more than the price ({mortgage} > {price})")
        house = _int(d, "house", dw, 1) if kind == "street" else 0
        if kind != "street" and "house" in d:
            raise EditionError(f"{dw}house: a {kind} takes no houses")
        rents = p.get("rents")
        deeds.append(
            Deed(
                number=number,
                name=str(p.get("name")),
                group=str(p.get("group")),
                kind=kind,
                price=price,
                rents=tuple(rents) if isinstance(rents, list) else (),
                house=house,
                mortgage=mortgage,
                position=int(p.get("position", 0)),
            )
        )
    if own_data:
        raise EditionError(f"{w}deeds: deed {min(own_data)} is not a property of the edition")
    deeds.sort(key=lambda d: d.number)
    max_players = constants.get("max_players")
    labels = _list(table, "token_labels", w)
    if len(labels) != max_players or not all(isinstance(x, str) and x for x in labels):
        raise EditionError(f"{w}token_labels: expected {max_players} labels")
    for i, label in enumerate(labels):
        _text({"label": label}, "label", f"{w}token_labels[{i}].", LCD_TEXT)
    if "utility_dice" in table:
        _int(table, "utility_dice", w, 1)
    sides = tuple(table.get("sides", ()))
    if sides and (len(sides) != max_players or not set(sides) <= {"light", "dark"}):
        raise EditionError(f"{w}sides: expected {max_players} of 'light' or 'dark'")
    ring = tuple(str(s) for s in constants.get("ring") or ())
    spaces = RING_SPACES | MEGA_SPACES if mega else RING_SPACES
    for i, space in enumerate(ring):
        if not space.startswith("P") and space not in spaces:
            raise EditionError(
                f"constants.ring[{i}]: {space!r} is no space of the "
                f"{'Méga' if mega else 'classic'} rules; known: {', '.join(sorted(spaces))}"
            )
    taxes: list[Tax] = []
    for i, t in enumerate(_list(table, "taxes", w)):
        tw = f"{w}taxes[{i}]."
        if not isinstance(t, Mapping):
            raise EditionError(f"{tw[:-1]}: not a table")
        _known(t, TAX_KEYS, tw)
        tax = Tax(_int(t, "position", tw), _text(t, "name", tw), _int(t, "amount", tw, 1))
        if tax.position >= len(ring) or ring[tax.position] != "TAX":
            raise EditionError(f"{tw}position: the ring has no TAX at {tax.position}")
        taxes.append(tax)
    if sorted(t.position for t in taxes) != [i for i, s in enumerate(ring) if s == "TAX"]:
        raise EditionError(f"{w}taxes: one tax per TAX space of the ring")
    card_table = _bool(table, "card_table", w)
    cards: dict[tuple[str, int], Card] = {}
    for deck in DECKS:
        listed = table.get(deck, [])
        if not card_table:
            if listed:
                raise EditionError(f"{w}{deck}: cards given but card_table is false")
            continue
        if not isinstance(listed, list) or len(listed) != DECK_SIZE:
            raise EditionError(f"{w}{deck}: expected {DECK_SIZE} cards")
        for i, c in enumerate(listed):
            card = _card(deck, c, f"{w}{deck}[{i}].", len(deeds))
            if (deck, card.number) in cards:
                raise EditionError(f"{w}{deck}[{i}].number: duplicate card {card.number}")
            cards[deck, card.number] = card
    names = {deck: _text(table, f"{deck}_name", w, LCD_TEXT) for deck in DECKS}
    lcd = _text(table, "currency_lcd", w, CURRENCY_TEXT)
    double = _bool(table, "double_rent_with_mortgaged_lot", w)
    third = _third_die(table, w)
    in_jail = _bool(table, "third_die_in_jail", w) if "third_die_in_jail" in table else False
    if edition is None:
        return None
    k = edition.constants
    return ClassicEdition(
        edition=edition,
        deeds=tuple(deeds),
        start_balance=k.start_balance,
        auction_step=k.auction_step,
        currency_lcd=lcd,
        double_rent_with_mortgaged_lot=double,
        token_labels=tuple(labels),
        deck_names=names,
        card_table=card_table,
        sides=sides,
        taxes=tuple(taxes),
        cards=cards,
        ring=ring,
        third_die=third,
        third_die_in_jail=in_jail,
        mega=mega,
        **own,
    )


def _third_die(table: Mapping[str, Any], w: str) -> tuple[str, ...]:
    """``third_die``: absent, or six faces from :data:`THIRD_FACES`."""
    if "third_die" not in table:
        return ()
    faces = table["third_die"]
    if not isinstance(faces, list) or len(faces) != 6:
        raise EditionError(f"{w}third_die: expected the 6 faces of the die")
    for face in faces:
        if face not in THIRD_FACES:
            raise EditionError(f"{w}third_die: {face!r} is not one of {', '.join(THIRD_FACES)}")
    return tuple(faces)


def third_die_names(edition: Edition) -> tuple[str, ...]:
    """The values a script's ``roll A B T`` may give for T in *edition* (§8.2), in face
    order without repeats; empty when the edition rolls two dice."""
    table = edition.raw.get("classic")
    faces = _third_die(table, "classic.") if isinstance(table, Mapping) else ()
    return tuple(dict.fromkeys(faces))


def _card(deck: str, raw: Any, w: str, deeds: int) -> Card:
    if not isinstance(raw, Mapping):
        raise EditionError(f"{w[:-1]}: not a table")
    _known(raw, CARD_KEYS, w)
    number = _int(raw, "number", w, 1)
    if number > DECK_SIZE:
        raise EditionError(f"{w}number: cards run 1..{DECK_SIZE}, got {number}")
    effect = _text(raw, "effect", w)
    if effect not in EFFECTS:
        raise EditionError(f"{w}effect: unknown effect {effect!r}")
    args = {key: _int(raw, key, w, 1) for key in EFFECTS[effect]}
    if effect == "repairs":  # Méga: a skyscraper (default: as a hotel) and a depot (0)
        for key in ("skyscraper", "depot"):
            if key in raw:
                args[key] = _int(raw, key, w, 1)
    if effect == "advance":
        if args["deed"] > deeds:
            raise EditionError(f"{w}deed: there is no deed {args['deed']}")
        args["salary"] = int(_bool(raw, "salary", w))
    title, text = _text(raw, "title", w), _text(raw, "text", w, MAX_TEXT)
    return Card(deck, number, title, text, effect, args)
