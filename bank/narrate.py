"""Transactions in words: one sentence a player understands, in French or English.

Used by ``ultibank history`` and the web view for games of the classic rules (docs/classic.md): a
purchase, a rent with the houses it was charged for, a build, a mortgage, a trade, a Chance or
Community Chest card, jail, a bankruptcy, an auction; Méga's skyscrapers, depots, ×2 / ×3 rents
and Birthday Gift, the third die (the speed die, the Force die) and Star Wars' Force battle with
the character's side... Each sentence is read from the decoded
record (:class:`bank.records.Record`: the command and its events) and the state the
transaction started from, so the words say what the rules did at that moment (the houses on a
deed when the rent was paid), never what they would do now. Names (deeds, decks, taxes,
tokens) come from the edition. An Ultime game keeps its own words (``bank.history.describe``
and the web view's titles), unchanged.

Reads the classic ruleset's records by their stored names and fields (the command names, the
``classic`` event's field and values), so this module needs no ruleset package: the records
are the contract (``docs/journal.md``). Imports the engine's event and state types,
``board_assets`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

from bank.events import (
    DebtChanged,
    Event,
    GameEnded,
    JailChanged,
    MoneyMoved,
    PlayerBankrupt,
    PropertyChanged,
    apply,
    invert,
)
from bank.records import Record
from bank.state import GameState
from board_assets import Edition

__all__ = [
    "LANGUAGES",
    "TOKEN_LABELS",
    "Narrator",
    "UltimeNarrator",
    "states_before",
    "token_label",
]

LANGUAGES: Final = ("fr", "en")
#: the core level of a lot with a hotel in the classic rules (0-4 houses, 5 a hotel), and of
#: a Méga skyscraper (6)
HOTEL: Final = 5
SKYSCRAPER: Final = 6
#: the Force die's faces and the symbols (Star Wars II, §7.1)
FORCE_FACES: Final = frozenset({"light", "dark", "shift"})

#: the tokens as the chart, the web page and the history name them (the LCD's are shorter)
TOKEN_LABELS: Mapping[str, Mapping[str, str]] = {
    "car": {"fr": "voiture", "en": "car"},
    "helicopter": {"fr": "hélicoptère", "en": "helicopter"},
    "boat": {"fr": "bateau", "en": "boat"},
    "jet": {"fr": "jet", "en": "jet"},
    # the classic boxes (docs/classic.md §1.5)
    "dog": {"fr": "chien", "en": "dog"},
    "racecar": {"fr": "voiture", "en": "racing car"},
    "tophat": {"fr": "chapeau", "en": "top hat"},
    "ship": {"fr": "bateau", "en": "ship"},
    "iron": {"fr": "fer", "en": "iron"},
    "thimble": {"fr": "dé", "en": "thimble"},
    "boot": {"fr": "chaussure", "en": "boot"},
    "wheelbarrow": {"fr": "brouette", "en": "wheelbarrow"},
}


def token_label(lang: str, token: str) -> str:
    """A token's name in *lang* (``voiture``); an unknown token as it is."""
    return TOKEN_LABELS.get(token, {}).get(lang, token)


_WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "fr": {
        "new_game": "Nouvelle partie : {players}",
        "buy": "{who} achète {deed} pour {money}",
        "rent": "{who} paie {money} de loyer à {owner} pour {deed}{what}",
        "no_rent": "{who} s'arrête sur {deed} : pas de loyer",
        "short": "{who} s'arrête sur {deed} sans pouvoir l'acheter",
        "auction": "{who} remporte {deed} aux enchères pour {money}",
        "series": "{who} remporte {deed} pour {money} (vente après faillite)",
        "go": "{who} passe par la case Départ : +{money}",
        "go_exact": "{who} s'arrête sur Départ : +{money}",
        "jail": "{who} va en prison",
        "leave_fee": "{who} sort de prison en payant {money}",
        "leave_card": "{who} sort de prison avec une carte",
        "leave_double": "{who} sort de prison (double)",
        "tax": "{who} paie {tax} : {money}",
        "pay_bank": "{who} paie {money} à la banque",
        "receive_bank": "{who} reçoit {money} de la banque",
        "pot": "{who} ramasse le Parc gratuit : {money}",
        "build": "{who} construit sur {deed} : {level}",
        "build_depot": "{who} construit un dépôt sur {deed} : −{money}",
        "sell": "{who} vend un bâtiment de {deed} (reste : {level})",
        "sell_skyscraper": "{who} vend le gratte-ciel de {deed} (reste : {level})",
        "sell_depot": "{who} vend le dépôt de {deed} : +{money}",
        "gift": "{who} reçoit le cadeau d'anniversaire : +{money}",
        "force_won": "{who}{side} remporte la bataille de la Force : {face}",
        "force_lost": "{who}{side} perd la bataille de la Force : {face}, pénalité {money}",
        "side_light": " (côté clair)",
        "side_dark": " (côté obscur)",
        "face_light": "carré clair",
        "face_dark": "carré obscur",
        "face_shift": "bascule",
        "symbol_light": "symbole clair",
        "symbol_dark": "symbole obscur",
        "die_mr": "M. Monopoly",
        "die_bus": "bus",
        "die_force": "dé de Force : {face}",
        "die_light": "carré clair",
        "die_dark": "carré obscur",
        "die_shift": "bascule",
        "sell_group": "{who} vend tous les bâtiments du groupe {group} : +{money}",
        "mortgage": "{who} hypothèque {deed} : +{money}",
        "lift": "{who} lève l'hypothèque de {deed} : −{money}",
        "keep": "{who} garde {deed} hypothéqué : intérêts {money}",
        "trade": "Échange : {first} donne {gives_first} ; {second} donne {gives_second}",
        "roll": "{who} lance les dés : {dice}{extra}",
        "roll_anon": "Les dés : {dice}",
        "card": "{who} tire {deck} {n} : {title}",
        "generic": "{who} : carte {deck}, {effect} (G{n})",
        "draw": "La banque tire une carte {deck}",
        "drawn": "La banque tire {deck} {n} : {title}",
        "time_up": "Temps écoulé : fin de la partie",
        "bankrupt": "{who} fait faillite envers {creditor}",
        "undo": "Annulation",
        # pieces
        "bank": "la banque",
        "nothing": "rien",
        "jail_card": "une carte prison",
        "jail_cards": "{n} cartes prison",
        "and": " et ",
        "houses": "{n} maisons",
        "house": "1 maison",
        "no_house": "aucune maison",
        "hotel": "un hôtel",
        "skyscraper": "un gratte-ciel",
        "w_houses": " ({n} maisons)",
        "w_house": " (1 maison)",
        "w_hotel": " (hôtel)",
        "w_skyscraper": " (gratte-ciel)",
        "w_double": " (groupe complet)",
        "w_majority": " (tous les terrains du groupe sauf un : ×2)",
        "w_triple": " (groupe complet : ×3)",
        "w_stations": " ({n} gares{depot})",
        "w_station": " (1 gare{depot})",
        "w_depot": ", dépôt",
        "w_dice": " (dés {dice} × {times})",
        "x_double": " (double)",
        "x_three": " (3 doubles : prison)",
        "x_freed": " (double : libéré)",
        "x_fee": " (3e essai : paie l'amende)",
        "x_try": " (pas de double, essai {n})",
        "x_triple": " (triple)",
        "chance": "Chance",
        "chest": "Caisse de communauté",
        "card_word": "carte",
        "owes": "doit",
        "bankrupt_word": "en faillite",
        "winner_is": "gagnant : {who}",
    },
    "en": {
        "new_game": "New game: {players}",
        "buy": "{who} buys {deed} for {money}",
        "rent": "{who} pays {owner} {money} rent for {deed}{what}",
        "no_rent": "{who} lands on {deed}: no rent",
        "short": "{who} lands on {deed} and cannot buy it",
        "auction": "{who} wins {deed} at auction for {money}",
        "series": "{who} wins {deed} for {money} (bankruptcy sale)",
        "go": "{who} passes GO: +{money}",
        "go_exact": "{who} lands on GO: +{money}",
        "jail": "{who} goes to jail",
        "leave_fee": "{who} leaves jail paying {money}",
        "leave_card": "{who} leaves jail with a card",
        "leave_double": "{who} leaves jail (double)",
        "tax": "{who} pays {tax}: {money}",
        "pay_bank": "{who} pays the bank {money}",
        "receive_bank": "{who} receives {money} from the bank",
        "pot": "{who} collects the Free Parking pot: {money}",
        "build": "{who} builds on {deed}: {level}",
        "build_depot": "{who} builds a depot on {deed}: −{money}",
        "sell": "{who} sells a building on {deed} (now {level})",
        "sell_skyscraper": "{who} sells the skyscraper on {deed} (now {level})",
        "sell_depot": "{who} sells the depot on {deed}: +{money}",
        "gift": "{who} receives the Birthday Gift: +{money}",
        "force_won": "{who}{side} wins the Force battle: {face}",
        "force_lost": "{who}{side} loses the Force battle: {face}, penalty {money}",
        "side_light": " (light side)",
        "side_dark": " (dark side)",
        "face_light": "light square",
        "face_dark": "dark square",
        "face_shift": "Force shift",
        "symbol_light": "light symbol",
        "symbol_dark": "dark symbol",
        "die_mr": "Mr Monopoly",
        "die_bus": "bus",
        "die_force": "Force die: {face}",
        "die_light": "light square",
        "die_dark": "dark square",
        "die_shift": "shift",
        "sell_group": "{who} sells every building of the {group} group: +{money}",
        "mortgage": "{who} mortgages {deed}: +{money}",
        "lift": "{who} lifts the mortgage on {deed}: −{money}",
        "keep": "{who} keeps {deed} mortgaged: interest {money}",
        "trade": "Trade: {first} gives {gives_first}; {second} gives {gives_second}",
        "roll": "{who} rolls {dice}{extra}",
        "roll_anon": "Dice: {dice}",
        "card": "{who} draws {deck} {n}: {title}",
        "generic": "{who}: {deck} card, {effect} (G{n})",
        "draw": "The bank draws a {deck} card",
        "drawn": "The bank draws {deck} {n}: {title}",
        "time_up": "Time is up: the game ends",
        "bankrupt": "{who} goes bankrupt to {creditor}",
        "undo": "Undo",
        "bank": "the bank",
        "nothing": "nothing",
        "jail_card": "a jail card",
        "jail_cards": "{n} jail cards",
        "and": " and ",
        "houses": "{n} houses",
        "house": "1 house",
        "no_house": "no house",
        "hotel": "a hotel",
        "skyscraper": "a skyscraper",
        "w_houses": " ({n} houses)",
        "w_house": " (1 house)",
        "w_hotel": " (hotel)",
        "w_skyscraper": " (skyscraper)",
        "w_double": " (whole group)",
        "w_majority": " (all lots but one: ×2)",
        "w_triple": " (whole group: ×3)",
        "w_stations": " ({n} stations{depot})",
        "w_station": " (1 station{depot})",
        "w_depot": ", depot",
        "w_dice": " (dice {dice} × {times})",
        "x_double": " (double)",
        "x_three": " (3 doubles: jail)",
        "x_freed": " (double: free)",
        "x_fee": " (3rd try: pays the fee)",
        "x_try": " (no double, try {n})",
        "x_triple": " (triple)",
        "chance": "Chance",
        "chest": "Community Chest",
        "card_word": "card",
        "owes": "owes",
        "bankrupt_word": "is bankrupt",
        "winner_is": "winner: {who}",
    },
}

#: the generic effects of docs/classic.md §4.5 the menu offers (editions without a card table)
_GENERIC: Final[Mapping[str, Mapping[int, str]]] = {
    "fr": {1: "recevoir de la banque", 2: "payer la banque", 3: "réparations", 4: "anniversaire",
           5: "payer chaque joueur", 6: "prison", 7: "libéré de prison", 8: "départ"},
    "en": {1: "receive from the bank", 2: "pay the bank", 3: "repairs", 4: "birthday",
           5: "pay each player", 6: "go to jail", 7: "get out of jail free", 8: "advance to GO"},
}  # fmt: skip

#: the money reasons of the rules, as the details say them
_REASONS: Final[Mapping[str, Mapping[str, str]]] = {
    "fr": {
        "purchase": "achat",
        "rent": "loyer",
        "auction": "enchère",
        "go": "départ",
        "jail": "prison",
        "tax": "taxe",
        "fine": "amende",
        "bank": "banque",
        "pot": "parc gratuit",
        "building": "construction",
        "building sold": "bâtiment vendu",
        "lift": "levée",
        "mortgage": "hypothèque",
        "trade": "échange",
        "interest": "intérêts",
        "repairs": "réparations",
        "card": "carte",
        "birthday": "anniversaire",
        "bankruptcy": "faillite",
        "gift": "cadeau d'anniversaire",
        "force": "pénalité de la Force",
        "debt": "dette",
    },
    "en": {"gift": "Birthday Gift", "force": "Force penalty"},
}


def states_before(state: GameState, records: Sequence[Record]) -> Iterator[GameState]:
    """The state each of *records* started from, last first, walking back from *state*.

    *state* is the state after the last record (the game now): each record's events are
    undone in turn, so only the records asked for are read (the web view's last few).
    """
    for record in reversed(records):
        state = apply(state, invert(record.events))
        yield state


class Narrator:
    """Says a classic game's transactions in *lang* (``fr`` or ``en``) for one edition."""

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang if lang in LANGUAGES else "en"
        self._table = _WORDS[self.lang]
        raw: Mapping[str, Any] = edition.raw.get("classic", {}) if edition.raw else {}
        self._labels: Sequence[str] = raw.get("token_labels", ())
        self._kinds: Mapping[str, str] = raw.get("group_kinds", {})
        self._sides: Sequence[str] = raw.get("sides", ())
        self._mega = bool(raw.get("mega", False))
        self._decks = {"chance": raw.get("chance_name"), "chest": raw.get("chest_name")}
        self._taxes = {int(t["position"]): str(t["name"]) for t in raw.get("taxes", ())}
        self._cards = {
            (deck, int(c["number"])): str(c.get("title", ""))
            for deck in ("chance", "chest")
            for c in raw.get(deck, ())
        }
        self._groups = {g.id: g for g in edition.groups}

    # ------------------------------------------------------------------ names

    def say(self, key: str, **fields: Any) -> str:
        return self._table[key].format(**fields)

    def money(self, amount: int) -> str:
        """``60 €``, ``£60``: the edition's currency where a player of *lang* writes it."""
        currency = self.edition.currency
        if self.lang == "en" and currency in ("£", "$"):
            return f"{currency}{amount}"
        return f"{amount} {currency}"

    def who(self, card: int | None, state: GameState | None = None) -> str:
        """A player by their token (``chien``); None: the bank."""
        if card is None:
            return self.say("bank")
        player = state.player(card) if state is not None else None
        tokens = self.edition.constants.tokens
        token = (
            player.token
            if player is not None
            else (tokens[card - 1] if 1 <= card <= len(tokens) else None)
        )
        if token is not None and token in TOKEN_LABELS:
            return token_label(self.lang, token)
        if 1 <= card <= len(self._labels):
            return str(self._labels[card - 1])
        return token or f"{self.say('card_word')} {card}"

    def deed(self, number: int) -> str:
        if 1 <= number <= len(self.edition.properties):
            return f"{number} {self.edition.prop(number).name}"
        return f"#{number}"

    def deck(self, deck: str) -> str:
        name = self._decks.get(deck)
        return str(name) if name else self._table.get(deck, deck)

    def level(self, level: int | None) -> str:
        if level == SKYSCRAPER:
            return self.say("skyscraper")
        if level == HOTEL:
            return self.say("hotel")
        if not level:
            return self.say("no_house")
        return self.say("house") if level == 1 else self.say("houses", n=level)

    def reason(self, reason: str) -> str:
        return _REASONS[self.lang].get(reason, reason)

    # ------------------------------------------------------------------ sentences

    def words(self, record: Record, before: GameState) -> tuple[str, str]:
        """:meth:`title` and :meth:`detail` at once (the events applied once)."""
        after = apply(before, record.events)
        return self._safe_title(record, before, after), self._detail(record, after)

    def title(self, record: Record, before: GameState) -> str:
        """The transaction in one sentence; *before* is the state it started from."""
        return self._safe_title(record, before, apply(before, record.events))

    def detail(self, record: Record, before: GameState) -> str:
        """What moved: money (with its reason), deeds, debts, the end of the game."""
        return self._detail(record, apply(before, record.events))

    def _safe_title(self, record: Record, before: GameState, after: GameState) -> str:
        try:
            return self._title(record, before, after)
        except (KeyError, IndexError, TypeError, ValueError):  # a record missing a field
            return record.name

    def _detail(self, record: Record, state: GameState) -> str:
        def who(card: int | None) -> str:
            return self.who(card, state)

        moves = []
        for e in record.events:
            if isinstance(e, MoneyMoved):
                why = f" ({self.reason(e.reason)})" if e.reason else ""
                moves.append(f"{who(e.payer)} → {who(e.payee)} {self.money(e.amount)}{why}")
            elif isinstance(e, PropertyChanged) and e.old_owner != e.new_owner:
                moves.append(f"{self.deed(e.number)} → {who(e.new_owner)}")
            elif isinstance(e, DebtChanged) and e.new_debt and e.new_debt != e.old_debt:
                moves.append(f"{who(e.card)} {self.say('owes')} {self.money(e.new_debt)}")
            elif isinstance(e, PlayerBankrupt) and e.bankrupt:
                moves.append(f"{who(e.card)} {self.say('bankrupt_word')}")
            elif isinstance(e, GameEnded) and e.ended:
                moves.append(self.say("winner_is", who=who(e.winner)))
        return "; ".join(moves)

    def _title(self, record: Record, before: GameState, after: GameState) -> str:
        name = record.name
        args = record.arguments()
        card = args.get("card")
        who = self.who(card, before) if isinstance(card, int) else ""
        paid = _paid(record.events)
        if name == "new_game":
            players = ", ".join(self.who(int(c), after) for c in args.get("cards", ()))
            return self.say("new_game", players=players)
        if name in ("visit", "land"):
            return self._landing(record, before, who, int(args["number"]))
        if name in ("auction_sale", "series_sale"):
            key = "series" if name == "series_sale" else "auction"
            return self.say(
                key,
                who=who,
                deed=self.deed(int(args["number"])),
                money=self.money(int(args["price"])),
            )
        if name == "classic_go":
            received = _received(record.events, card)
            key = "go_exact" if args.get("exact") else "go"
            return self.say(key, who=who, money=self.money(received))
        if name == "classic_jail":
            return self.say("jail", who=who)
        if name == "classic_leave_jail":
            how = args.get("how")
            if how == "fee":
                return self.say("leave_fee", who=who, money=self.money(paid.get(card, 0)))
            return self.say("leave_card" if how == "card" else "leave_double", who=who)
        if name == "tax":
            position = int(args["position"])
            tax = self._taxes.get(position, "?")
            return self.say("tax", who=who, tax=tax, money=self.money(_due(record.events, card)))
        if name == "pay_bank":
            return self.say("pay_bank", who=who, money=self.money(int(args["amount"])))
        if name == "receive_bank":
            return self.say("receive_bank", who=who, money=self.money(int(args["amount"])))
        if name == "collect_pot":
            return self.say("pot", who=who, money=self.money(_received(record.events, card)))
        if name == "build":
            number = int(args["number"])
            if self._is_depot(number):
                cost = self.money(paid.get(card, 0))
                return self.say("build_depot", who=who, deed=self.deed(number), money=cost)
            return self.say(
                "build", who=who, deed=self.deed(number), level=self.level(after.prop(number).level)
            )
        if name == "sell_building":
            number = int(args["number"])
            if self._is_depot(number) and not args.get("whole_group"):
                refund = self.money(_received(record.events, card))
                return self.say("sell_depot", who=who, deed=self.deed(number), money=refund)
            if args.get("whole_group"):
                group = self._groups.get(self.edition.prop(number).group)
                return self.say(
                    "sell_group",
                    who=who,
                    group=group.name if group else "?",
                    money=self.money(_received(record.events, card)),
                )
            key = "sell_skyscraper" if before.prop(number).level == SKYSCRAPER else "sell"
            return self.say(
                key, who=who, deed=self.deed(number), level=self.level(after.prop(number).level)
            )
        if name == "mortgage":
            number = int(args["number"])
            if number in _mortgaged(after):
                return self.say(
                    "mortgage",
                    who=who,
                    deed=self.deed(number),
                    money=self.money(_received(record.events, card)),
                )
            return self.say(
                "lift", who=who, deed=self.deed(number), money=self.money(paid.get(card, 0))
            )
        if name == "trade":
            return self._trade(args, before)
        if name == "interest":
            number = int(args["number"])
            owner = before.prop(number).owner
            holder = self.who(owner, before)
            key = "lift" if args.get("lift") else "keep"
            return self.say(
                key,
                who=holder,
                deed=self.deed(number),
                money=self.money(_due(record.events, owner)),
            )
        if name == "roll":
            return self._roll(record, before, who)
        if name == "card":
            deck, number = str(args["deck"]), int(args["number"])
            title = self._cards.get((deck, number), "")
            return self.say("card", who=who, deck=self.deck(deck), n=number, title=title).rstrip(
                " :"
            )
        if name == "generic_card":
            n = int(args["effect"])
            effect = _GENERIC[self.lang].get(n, "?")
            deck = self.deck(str(args["deck"]))
            return self.say("generic", who=who, deck=deck, n=n, effect=effect)
        if name == "draw":
            deck = str(args["deck"])
            # the virtual deck's top card before the draw is the card drawn (READINGS D2)
            order = dict(_classic_field(before, "decks", ())).get(deck, ())
            if not order:
                return self.say("draw", deck=self.deck(deck))
            number = int(order[0])
            title = self._cards.get((deck, number), "")
            return self.say("drawn", deck=self.deck(deck), n=number, title=title).rstrip(" :")
        if name == "birthday_gift":
            return self.say("gift", who=who, money=self.money(_received(record.events, card)))
        if name == "force":
            return self._force(record, before, int(args["card"]), who)
        if name == "time_up":
            return self.say("time_up")
        if name == "bankruptcy":
            debtor = before.player(int(card)) if isinstance(card, int) else None
            creditor = debtor.creditor if debtor is not None else None
            return self.say("bankrupt", who=who, creditor=self.who(creditor, before))
        if name == "undo":
            return self.say("undo")
        return name

    def _landing(self, record: Record, before: GameState, who: str, number: int) -> str:
        deed = self.deed(number)
        for e in record.events:
            if isinstance(e, MoneyMoved) and e.reason == "purchase":
                return self.say("buy", who=who, deed=deed, money=self.money(e.amount))
        owner = before.prop(number).owner
        rent = _due(record.events, record.arguments().get("card"), "rent")
        if rent:
            what = self._what(record, before, number, rent)
            return self.say(
                "rent",
                who=who,
                money=self.money(rent),
                owner=self.who(owner, before),
                deed=deed,
                what=what,
            )
        if owner is None:
            return self.say("short", who=who, deed=deed)
        return self.say("no_rent", who=who, deed=deed)

    def _what(self, record: Record, before: GameState, number: int, rent: int) -> str:
        """Why the rent is what it is: the houses, the hotel, the stations, the dice."""
        prop = self.edition.prop(number)
        kind = self._kinds.get(prop.group, "street")
        owner = before.prop(number).owner
        owned = sum(
            1
            for p in self.edition.properties
            if p.group == prop.group and before.prop(p.number).owner == owner
        )
        if kind == "station":
            depot = self.say("w_depot") if number in _classic_field(before, "depots", ()) else ""
            if owned == 1:
                return self.say("w_station", depot=depot)
            return self.say("w_stations", n=owned, depot=depot)
        if kind == "utility":
            times = prop.rents[owned - 1] if 0 < owned <= len(prop.rents) else 0
            dice = record.arguments().get("dice")
            if dice is None and times:
                dice = rent // times
            return self.say("w_dice", dice=dice, times=times)
        level = before.prop(number).level or 0
        if level == SKYSCRAPER:
            return self.say("w_skyscraper")
        if level == HOTEL:
            return self.say("w_hotel")
        if level:
            return self.say("w_house") if level == 1 else self.say("w_houses", n=level)
        base = prop.rents[0] if prop.rents else 0
        if self._mega and base and rent in (2 * base, 3 * base):
            # Méga (§3.3): ×2 with all lots of the group but one, ×3 with all of them
            return self.say("w_majority") if rent == 2 * base else self.say("w_triple")
        return self.say("w_double") if base and rent == 2 * base else ""

    def _trade(self, args: Mapping[str, Any], before: GameState) -> str:
        first, second = int(args["first"]), int(args["second"])
        cash, cash_from = int(args.get("cash", 0)), args.get("cash_from")

        def gives(card: int, deeds: Iterable[int], cards: Sequence[str]) -> str:
            parts = [self.deed(int(n)) for n in deeds]
            if cash and cash_from == card:
                parts.append(self.money(cash))
            if cards:
                parts.append(
                    self.say("jail_card")
                    if len(cards) == 1
                    else self.say("jail_cards", n=len(cards))
                )
            if not parts:
                return self.say("nothing")
            return (
                ", ".join(parts[:-1]) + self.say("and") + parts[-1] if len(parts) > 1 else parts[0]
            )

        return self.say(
            "trade",
            first=self.who(first, before),
            second=self.who(second, before),
            gives_first=gives(first, args.get("deeds_first", ()), args.get("cards_first", ())),
            gives_second=gives(second, args.get("deeds_second", ()), args.get("cards_second", ())),
        )

    def _dice(self, a: int, b: int, third: Any) -> str:
        """``3 + 4 = 7``; the speed die's number added (``3 + 4 + 1 = 8``), its symbol or the
        Force die's face named after the total (``1 + 2 = 3, M. Monopoly``)."""
        if isinstance(third, str) and third.isdigit():
            return f"{a} + {b} + {third} = {a + b + int(third)}"
        dice = f"{a} + {b} = {a + b}"
        if third in ("mr", "bus"):
            return f"{dice}, {self.say('die_' + third)}"
        if third in FORCE_FACES:
            return f"{dice}, {self.say('die_force', face=self.say('die_' + third))}"
        return dice

    def _roll(self, record: Record, before: GameState, who: str) -> str:
        roll = _classic_new(record.events, "last_roll")
        if not roll:
            return record.name
        card, a, b, doubles = roll
        # the third die of this roll (Méga's speed die, the Force die): None without one
        third = _classic_field(apply(before, record.events), "third", None)
        dice = self._dice(a, b, third)
        if card is None:
            return self.say("roll_anon", dice=dice)
        extra = ""
        jail = [e.jailed for e in record.events if isinstance(e, JailChanged) and e.card == card]
        if jail and jail[-1]:
            extra = self.say("x_three")
        elif jail:
            extra = self.say("x_fee") if _due(record.events, card, "jail") else self.say("x_freed")
        else:
            tries = _classic_new(record.events, "jail_tries")
            mine = [t for t in (tries or ()) if t[0] == card]
            if mine:
                extra = self.say("x_try", n=mine[0][1])
            elif doubles:
                extra = self.say("x_double")
            elif isinstance(third, str) and third.isdigit() and a == b == int(third):
                extra = self.say("x_triple")
        return self.say("roll", who=who, dice=dice, extra=extra)

    def _force(self, record: Record, before: GameState, card: int, who: str) -> str:
        """A Force battle (§7.1): won, or lost with its penalty (paid and owed), with the face
        it was judged on: the lander's own latest roll's Force die, else the face asked."""
        side = self._sides[card - 1] if 1 <= card <= len(self._sides) else None
        rule = dict(_classic_field(before, "config", ())).get("starwars.force_rule", "die")
        face = record.arguments().get("face")
        last = _classic_field(before, "last_roll", None)
        third = _classic_field(before, "third", None)
        if rule == "die" and last is not None and last[0] == card and third in FORCE_FACES:
            face = third  # the unit knew the face: what was asked, if anything, is not it
        word = ("symbol_" if rule == "symbol" else "face_") + str(face)
        fields = {
            "who": who,
            "side": self.say("side_" + side) if side in ("light", "dark") else "",
            "face": self.say(word) if word in self._table else "?",
        }
        penalty = _due(record.events, card, "force")
        if penalty:
            return self.say("force_lost", money=self.money(penalty), **fields)
        return self.say("force_won", **fields)

    def _is_depot(self, number: int) -> bool:
        """Whether a building on deed *number* is a Méga train depot (a station's building)."""
        if not self._mega or not 1 <= number <= len(self.edition.properties):
            return False
        return self._kinds.get(self.edition.prop(number).group) == "station"


# ---------------------------------------------------------------------- reading the events


def _paid(events: Iterable[Event]) -> dict[int | None, int]:
    """What each payer paid the bank in these events."""
    out: dict[int | None, int] = {}
    for e in events:
        if isinstance(e, MoneyMoved) and e.payee is None:
            out[e.payer] = out.get(e.payer, 0) + e.amount
    return out


def _received(events: Iterable[Event], card: Any) -> int:
    return sum(e.amount for e in events if isinstance(e, MoneyMoved) and e.payee == card)


def _due(events: Iterable[Event], card: Any, reason: str | None = None) -> int:
    """What *card* was charged: paid now plus the debt the charge left."""
    paid = sum(
        e.amount
        for e in events
        if isinstance(e, MoneyMoved) and e.payer == card and reason in (None, e.reason)
    )
    owed = sum(
        e.new_debt - e.old_debt
        for e in events
        if isinstance(e, DebtChanged) and e.card == card and e.new_debt > e.old_debt
    )
    return paid + owed


def _classic_new(events: Iterable[Event], field: str) -> Any:
    """The last new value the classic state's *field* took in these events (None: unchanged)."""
    value = None
    for e in events:
        if e.kind == "classic" and getattr(e, "field", None) == field:
            value = getattr(e, "new", None)
    return value


def _classic_field(state: GameState, field: str, default: Any) -> Any:
    """A field of a classic game's state extension (*default* in any other game)."""
    return getattr(state.extension, field, default)


def _mortgaged(state: GameState) -> tuple[int, ...]:
    ext = state.extension
    return tuple(getattr(ext, "mortgaged", ()))


#: one sentence per kind of transaction (``str.format`` fields: who, prop, players, ...)
_ULTIME_TITLES: Final[dict[str, dict[str, str]]] = {
    "new_game": {"fr": "Nouvelle partie : {players}", "en": "New game: {players}"},
    "land": {"fr": "{who} arrive sur {prop}", "en": "{who} lands on {prop}"},
    "pass_go": {"fr": "{who} passe par la case départ", "en": "{who} passes GO"},
    "go_to_jail": {"fr": "{who} va en prison", "en": "{who} goes to jail"},
    "leave_jail.paid": {
        "fr": "{who} sort de prison (paie l'amende)",
        "en": "{who} leaves jail (pays the fee)",
    },
    "leave_jail.double": {
        "fr": "{who} sort de prison (double)",
        "en": "{who} leaves jail (rolled a double)",
    },
    "pay_location": {"fr": "{who} paie la Location", "en": "{who} pays the Location fee"},
    "auction_sale": {
        "fr": "{who} remporte {prop} aux enchères pour {price}",
        "en": "{who} wins the auction of {prop} for {price}",
    },
    "give_property": {"fr": "{who} cède {prop}", "en": "{who} gives up {prop}"},
    "event": {"fr": "Carte événement {id} : {title}", "en": "Event card {id}: {title}"},
    "undo": {"fr": "Annulation", "en": "Undo"},
}

#: the words of the details (money reasons from the rules, and a few more)
_ULTIME_WORDS: Final[dict[str, dict[str, str]]] = {
    "fr": {
        "bank": "banque",
        "card": "carte",
        "purchase": "achat",
        "rent": "loyer",
        "go": "départ",
        "location": "Location",
        "change": "monnaie rendue",
        "event": "événement",
        "auction": "enchère",
        "tax": "taxe",
        "jail fee": "amende de prison",
        "owes": "doit",
        "bankrupt": "en faillite",
        "winner": "gagnant",
    },
    "en": {"go": "GO", "bankrupt": "is bankrupt"},
}


def _ultime_word(lang: str, word: str) -> str:
    return _ULTIME_WORDS.get(lang, {}).get(word, word)


class UltimeNarrator:
    """Says an Ultime game's transactions in *lang*: the sentences of the web view's list and
    of the spoken unit (``bank.speech``), one table for both."""

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang if lang in LANGUAGES else "en"

    # ------------------------------------------------------------------ names

    def money(self, amount: int) -> str:
        """An amount as the web view's list writes it (a bare number)."""
        return str(amount)

    def prop(self, number: int) -> str:
        if 1 <= number <= len(self.edition.properties):
            return f"#{number} {self.edition.prop(number).name}"
        return f"#{number}"

    def token(self, card: int, tokens: Mapping[int, str]) -> str:
        token = tokens.get(card)
        if token is None:
            names = self.edition.token_names
            token = names[card - 1] if 1 <= card <= len(names) else None
        if token is None:
            return _ultime_word(self.lang, "card") + f" {card}"
        return token_label(self.lang, token)

    def who(self, card: Any, tokens: Mapping[int, str]) -> str:
        if card is None:
            return _ultime_word(self.lang, "bank")
        return self.token(int(card), tokens)

    # ------------------------------------------------------------------ sentences

    def title(self, record: Record, before: GameState) -> str:
        """The transaction in one sentence; *before* is the state it started from."""
        return self.title_with(record, _tokens(before))

    def detail(self, record: Record, before: GameState) -> str:
        return self.detail_with(record, _tokens(before))

    def title_with(self, record: Record, tokens: Mapping[int, str]) -> str:
        """:meth:`title` with the players' tokens by card."""
        lang = self.lang
        name = record.name
        cmd = record.arguments()
        fields: dict[str, Any] = {}
        if "card" in cmd:
            fields["who"] = self.token(int(cmd["card"]), tokens)
        if "number" in cmd:
            fields["prop"] = self.prop(int(cmd["number"]))
        key = name
        if name == "new_game":
            cards = cmd.get("cards", [])
            fields["players"] = ", ".join(self.token(int(c), tokens) for c in cards)
        elif name == "leave_jail":
            key = "leave_jail.paid" if cmd.get("paid") else "leave_jail.double"
        elif name == "auction_sale":
            price = cmd.get("price")
            fields["price"] = self.money(price) if isinstance(price, int) else price
        elif name == "event":
            eid = int(cmd.get("event_id", 0))
            fields["id"] = eid
            known = 1 <= eid <= len(self.edition.events)
            fields["title"] = self.edition.event(eid).title if known else "?"
        template = _ULTIME_TITLES.get(key)
        if template is None:
            return name
        try:
            return template[lang if lang in template else "en"].format(**fields)
        except (KeyError, IndexError):  # a record without the fields its command needs
            return name

    def detail_with(self, record: Record, tokens: Mapping[int, str]) -> str:
        """What moved, like ``bank.history.describe`` but with tokens and the unit's words."""
        lang = self.lang

        def who(card: Any) -> str:
            return self.who(card, tokens)

        moves = []
        for e in record.events:
            if isinstance(e, MoneyMoved):
                why = f" ({_ultime_word(lang, e.reason)})" if e.reason else ""
                moves.append(f"{who(e.payer)} → {who(e.payee)} {self.money(e.amount)}{why}")
            elif isinstance(e, PropertyChanged) and e.old_owner != e.new_owner:
                moves.append(f"#{e.number} → {who(e.new_owner)}")
            elif isinstance(e, DebtChanged) and e.new_debt:
                moves.append(f"{who(e.card)} {_ultime_word(lang, 'owes')} {self.money(e.new_debt)}")
            elif isinstance(e, PlayerBankrupt) and e.bankrupt:
                moves.append(f"{who(e.card)} {_ultime_word(lang, 'bankrupt')}")
            elif isinstance(e, GameEnded) and e.ended:
                moves.append(f"{_ultime_word(lang, 'winner')}: {who(e.winner)}")
        return "; ".join(moves)

    def payment(self, e: MoneyMoved, before: GameState, number: int | None = None) -> str:
        """One payment as a clause: ``chien paie 200 à voiture (loyer)``."""
        tokens = _tokens(before)
        why = _ultime_word(self.lang, e.reason) if e.reason else ""
        pay = _ULTIME_PAY[self.lang]
        if e.reason in ("purchase", "rent") and e.payer is not None and number:
            return pay[e.reason].format(
                who=self.who(e.payer, tokens),
                money=self.money(e.amount),
                payee=self.who(e.payee, tokens),
                prop=self.prop(number),
            )
        if e.payer is None:
            text = _ULTIME_PAY[self.lang]["receive"].format(
                who=self.who(e.payee, tokens), money=self.money(e.amount)
            )
        else:
            text = _ULTIME_PAY[self.lang]["pay"].format(
                who=self.who(e.payer, tokens),
                money=self.money(e.amount),
                payee=self.who(e.payee, tokens),
            )
        return f"{text} ({why})" if why else text

    def transfer(self, e: PropertyChanged, before: GameState) -> str:
        tokens = _tokens(before)
        return _ULTIME_PAY[self.lang]["transfer"].format(
            prop=self.prop(e.number), who=self.who(e.new_owner, tokens)
        )


_ULTIME_PAY: Final[Mapping[str, Mapping[str, str]]] = {
    "fr": {
        "pay": "{who} paie {money} à {payee}",
        "purchase": "{who} achète {prop} pour {money}",
        "rent": "{who} paie {money} de loyer à {payee}",
        "receive": "{who} reçoit {money}",
        "transfer": "{prop} va à {who}",
    },
    "en": {
        "pay": "{who} pays {payee} {money}",
        "purchase": "{who} buys {prop} for {money}",
        "rent": "{who} pays {payee} {money} rent",
        "receive": "{who} receives {money}",
        "transfer": "{prop} goes to {who}",
    },
}


def _tokens(state: GameState) -> dict[int, str]:
    return {p.card: p.token for p in state.players if p.token}
