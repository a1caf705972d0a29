"""A classic game's transactions in words, in French or English (the classic ruleset's
narrator, reached through the ruleset: :func:`bank.views.narrate.narrator_for`).

Used by ``ultibank history``, the web view and the unit's voice: a purchase, a rent with the
houses it was charged for, a build, a mortgage, a trade, a Chance or Community Chest card,
jail, a bankruptcy, an auction; Méga's skyscrapers, depots, ×2 / ×3 rents and Birthday Gift,
the third die (the speed die, the Force die) and Star Wars' Force battle with the
character's side... Each sentence says the transaction's journalled outcome
(:mod:`.outcomes`, read by :func:`bank.engine.records.outcome_of`: derived once for a record written
before outcomes were journalled) and names things as they stood in the state the
transaction started from (the houses on a deed when the rent was paid), never as they are
now. Names (deeds, decks, taxes, tokens) come from the edition; what moved (the detail) is
the record's events, listed; the words themselves are in :mod:`.narrate_words`. Imports the
core, the classic outcomes and words, and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from bank.engine.events import (
    DebtChanged,
    GameEnded,
    MoneyMoved,
    PlayerBankrupt,
    PropertyChanged,
    apply,
)
from bank.engine.records import Record, outcome_of
from bank.engine.ruleset import Outcome, Ruleset
from bank.engine.state import GameState
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.narrate_words import GENERIC, REASONS, SCREENS, TOKEN_LABELS, WORDS
from board_assets import Edition

__all__ = [
    "TOKEN_LABELS",
    "ClassicNarrator",
    "SpokenClassicNarrator",
    "narrator",
]

#: the core level of a lot with a hotel in the classic rules (0-4 houses, 5 a hotel), and of
#: a Méga skyscraper (6)
HOTEL: Final = 5
SKYSCRAPER: Final = 6
#: the Force die's faces and the symbols (Star Wars II, §7.1)
FORCE_FACES: Final = frozenset({"light", "dark", "shift"})


class ClassicNarrator:
    """Says a classic game's transactions in *lang* (``fr`` or ``en``) for one edition."""

    #: the words say the state each transaction started from (a deed's houses at its rent)
    walks_back = True

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang if lang in WORDS else "en"
        self._table = WORDS[self.lang]
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
        #: the rules that derive the outcome of a record written without one (built when
        #: the first such record is read)
        self._rules: Ruleset | None = None

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
            return TOKEN_LABELS[token][self.lang]
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
        return REASONS[self.lang].get(reason, reason)

    # ------------------------------------------------------------------ sentences

    def outcome(self, record: Record, before: GameState) -> Outcome | None:
        """The record's journalled outcome (derived once for an older record)."""
        if not record.stores_outcome and self._rules is None:
            from bank import rulesets  # the rules, only for a record older than outcomes

            self._rules = rulesets.find("classic").rules(self.edition, None)
        return outcome_of(record, before, self._rules, self.edition)

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

    def aloud(self, record: Record, before: GameState, title: str) -> list[str]:
        """The voice says the history's sentence."""
        return [title]

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
        if name == "undo":
            return self.say("undo")
        args = record.arguments()
        card = args.get("card")
        who = self.who(card, before) if isinstance(card, int) else ""
        if name == "new_game":  # the players are the command's (a game whose dice seed
            # was drawn at random derives no outcome for its first record)
            players = ", ".join(self.who(int(c), after) for c in args.get("cards", ()))
            return self.say("new_game", players=players)
        out = self.outcome(record, before)
        if isinstance(out, o.Bought | o.RentPaid | o.Short | o.Own | o.NoRent):
            return self._landing(record, before, who, out)
        if isinstance(out, o.AuctionWon):
            key = "series" if name == "series_sale" else "auction"
            return self.say(
                key, who=self.who(out.card, before), deed=self.deed(out.number),
                money=self.money(out.amount),
            )  # fmt: skip
        if isinstance(out, o.Salary):
            key = "go_exact" if args.get("exact") else "go"
            return self.say(key, who=who, money=self.money(out.amount))
        if isinstance(out, o.Jailed):
            return self.say("jail", who=who)
        if isinstance(out, o.LeftJail):
            if out.how == "fee":
                return self.say("leave_fee", who=who, money=self.money(out.amount))
            return self.say("leave_card" if out.how == "card" else "leave_double", who=who)
        if isinstance(out, o.TaxPaid):
            tax = self._taxes.get(out.position, "?")
            return self.say("tax", who=who, tax=tax, money=self.money(out.amount))
        if isinstance(out, o.PaidBank):
            return self.say("pay_bank", who=who, money=self.money(out.amount))
        if isinstance(out, o.Received):
            return self.say("receive_bank", who=who, money=self.money(out.amount))
        if isinstance(out, o.PotCollected):
            return self.say("pot", who=who, money=self.money(out.amount))
        if isinstance(out, o.Built):
            return self._built(out, who, after)
        if isinstance(out, o.BuildingSold):
            return self._sold(out, who, after)
        if isinstance(out, o.Mortgaged):
            return self.say(
                "mortgage", who=who, deed=self.deed(out.number), money=self.money(out.amount)
            )
        if isinstance(out, o.Lifted):
            return self.say(
                "lift", who=who, deed=self.deed(out.number), money=self.money(out.amount)
            )
        if isinstance(out, o.Traded):
            return self._trade(args, before)
        if isinstance(out, o.InterestAnswered):
            return self.say(
                "lift" if out.lifted else "keep",
                who=self.who(out.card, before),
                deed=self.deed(out.number),
                money=self.money(out.amount),
            )
        if isinstance(out, o.Rolled):
            return self._roll(out, who)
        if isinstance(out, o.CardPlayed):
            title = self._cards.get((out.deck, out.number), "")
            text = self.say("card", who=who, deck=self.deck(out.deck), n=out.number, title=title)
            return text.rstrip(" :")
        if isinstance(out, o.GenericPlayed):
            effect = GENERIC[self.lang].get(out.effect, "?")
            deck = self.deck(str(args["deck"]))
            return self.say("generic", who=who, deck=deck, n=out.effect, effect=effect)
        if isinstance(out, o.Drawn):
            title = self._cards.get((out.deck, out.number), "")
            text = self.say("drawn", deck=self.deck(out.deck), n=out.number, title=title)
            return text.rstrip(" :")
        if isinstance(out, o.Gift):
            return self.say("gift", who=who, money=self.money(out.amount))
        if isinstance(out, o.ForceFought):
            return self._force(out, before, who)
        if isinstance(out, o.TimeOver):
            return self.say("time_up")
        if isinstance(out, o.Bankrupt):
            return self.say("bankrupt", who=who, creditor=self.who(out.creditor, before))
        return name

    def _landing(
        self,
        record: Record,
        before: GameState,
        who: str,
        out: o.Bought | o.RentPaid | o.Short | o.Own | o.NoRent,
    ) -> str:
        deed = self.deed(out.number)
        if isinstance(out, o.Bought):
            return self.say("buy", who=who, deed=deed, money=self.money(out.amount))
        if isinstance(out, o.RentPaid):
            return self.say(
                "rent",
                who=who,
                money=self.money(out.amount),
                owner=self.who(out.owner, before),
                deed=deed,
                what=self._what(record, before, out),
            )
        if isinstance(out, o.Short):
            return self.say("short", who=who, deed=deed)
        return self.say("no_rent", who=who, deed=deed)

    def _built(self, out: o.Built, who: str, after: GameState) -> str:
        if out.building == "depot":
            return self.say(
                "build_depot", who=who, deed=self.deed(out.number), money=self.money(out.amount)
            )
        level = self.level(after.prop(out.number).level)
        return self.say("build", who=who, deed=self.deed(out.number), level=level)

    def _sold(self, out: o.BuildingSold, who: str, after: GameState) -> str:
        if out.whole_group:
            group = self._groups.get(self.edition.prop(out.number).group)
            return self.say(
                "sell_group",
                who=who,
                group=group.name if group else "?",
                money=self.money(out.amount),
            )
        if out.building == "depot":
            return self.say(
                "sell_depot", who=who, deed=self.deed(out.number), money=self.money(out.amount)
            )
        key = "sell_skyscraper" if out.building == "skyscraper" else "sell"
        level = self.level(after.prop(out.number).level)
        return self.say(key, who=who, deed=self.deed(out.number), level=level)

    def _what(self, record: Record, before: GameState, out: o.RentPaid) -> str:
        """Why the rent is what it is: the houses, the hotel, the stations, the dice, as the
        rules said it (:class:`.outcomes.RentBasis`)."""
        why = out.basis
        if why is None:  # a rent journalled before the rules said it
            return self._what_then(record, before, out.number, out.amount)
        if why.deed == "station":
            depot = self.say("w_depot") if why.depot else ""
            if why.owned == 1:
                return self.say("w_station", depot=depot)
            return self.say("w_stations", n=why.owned, depot=depot)
        if why.deed == "utility":
            return self.say("w_dice", dice=why.dice, times=why.times)
        if why.level == SKYSCRAPER:
            return self.say("w_skyscraper")
        if why.level == HOTEL:
            return self.say("w_hotel")
        if why.level:
            return self.say("w_house") if why.level == 1 else self.say("w_houses", n=why.level)
        if self._mega and why.factor in (2, 3):
            # Méga (§3.3): ×2 with all lots of the group but one, ×3 with all of them
            return self.say("w_majority") if why.factor == 2 else self.say("w_triple")
        return self.say("w_double") if why.factor == 2 else ""

    def _what_then(self, record: Record, before: GameState, number: int, rent: int) -> str:
        """:meth:`_what` for a rent whose outcome does not say it (journalled at version 1):
        the deed as the state the record started from shows it."""
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

    def _roll(self, out: o.Rolled, who: str) -> str:
        a, b = out.dice
        dice = self._dice(a, b, out.third)
        if out.card is None:
            return self.say("roll_anon", dice=dice)
        effect = out.effect
        extra = ""
        if effect is o.RollEffect.THREE_DOUBLES:
            extra = self.say("x_three")
        elif effect is o.RollEffect.FEE:
            extra = self.say("x_fee")
        elif effect is o.RollEffect.FREED:
            extra = self.say("x_freed")
        elif effect is o.RollEffect.TRY:
            extra = self.say("x_try", n=out.jail_try)
        elif out.doubles:
            extra = self.say("x_double")
        elif effect is o.RollEffect.TRIPLE:
            extra = self.say("x_triple")
        return self.say("roll", who=who, dice=dice, extra=extra)

    def _force(self, out: o.ForceFought, before: GameState, who: str) -> str:
        """A Force battle (§7.1): won, or lost with its penalty (paid and owed), with the face
        it was judged on."""
        card = out.card or 0
        side = self._sides[card - 1] if 1 <= card <= len(self._sides) else None
        rule = dict(_classic_field(before, "config", ())).get("starwars.force_rule", "die")
        word = ("symbol_" if rule == "symbol" else "face_") + str(out.face)
        fields = {
            "who": who,
            "side": self.say("side_" + side) if side in ("light", "dark") else "",
            "face": self.say(word) if word in self._table else "?",
        }
        if out.amount:
            return self.say("force_lost", money=self.money(out.amount), **fields)
        return self.say("force_won", **fields)

    def token_name(self, token: str) -> str:
        """A token as the players call it: the edition's label (``chien``, ``Obi-Wan``)."""
        names = list(self.edition.token_names)
        if token in names and names.index(token) < len(self._labels):
            return str(self._labels[names.index(token)])
        return TOKEN_LABELS[token][self.lang] if token in TOKEN_LABELS else token

    def balance_more(self, token: str, state: GameState) -> str | None:
        """A classic balance is said with the deeds its player holds (``3 titres``)."""
        cards = [p.card for p in state.players if p.token == token]
        n = sum(1 for prop in state.properties if cards and prop.owner == cards[0])
        words = SCREENS[self.lang]
        return words["deed"] if n == 1 else words["deeds"].format(n=n)

    def screen_words(self, screen: str, number: int | None) -> str | None:
        """A classic landing that moves nothing is not a transaction (READINGS E18): it is
        said from its screen (whose second line the LCD cuts short), naming the deed."""
        if screen in ("no_rent", "own") and number:
            return SCREENS[self.lang][screen].format(deed=self.deed(number))
        return None


class SpokenClassicNarrator(ClassicNarrator):
    """The history's classic sentences, for the ear: a deed by its name, amounts as the voice
    says them (*say_money*)."""

    def __init__(self, edition: Edition, lang: str, say_money: Callable[[int], str]) -> None:
        super().__init__(edition, lang)
        self._say_money = say_money

    def money(self, amount: int) -> str:
        return self._say_money(amount)

    def deed(self, number: int) -> str:
        if 1 <= number <= len(self.edition.properties):
            return self.edition.prop(number).name
        return super().deed(number)


def narrator(
    edition: Edition, lang: str, say_money: Callable[[int], str] | None = None
) -> ClassicNarrator:
    """The classic narrator of *edition* in *lang*; with *say_money* (how the voice says an
    amount), the voice's."""
    if say_money is not None:
        return SpokenClassicNarrator(edition, lang, say_money)
    return ClassicNarrator(edition, lang)


def _classic_field(state: GameState, field: str, default: Any) -> Any:
    """A field of a classic game's state extension (*default* before the game has one)."""
    return getattr(state.extension, field, default)
