"""An Ultime game's transactions in words, in French or English (the Ultime ruleset's
narrator, reached through the ruleset: :func:`bank.views.narrate.narrator_for`).

The sentences of the web view's list, of the unit's voice and of the history's words: one
per outcome the rules journalled (a landing that bought, paid a rent or raised a level, a Go,
jail, an auction, a debt settled, an event card...), read from the record
(:attr:`bank.engine.records.Record.outcome`, derived once for a record older than outcomes),
never from its command; with what moved (the record's events, listed) and, for the voice, the
payments said one by one. An undo, which has no outcome, is named as such. Imports the core,
the Ultime outcomes and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from bank.engine.events import DebtChanged, GameEnded, MoneyMoved, PlayerBankrupt, PropertyChanged
from bank.engine.records import Record, RecordError, outcome_of
from bank.engine.ruleset import Outcome, Ruleset
from bank.engine.state import GameState
from bank.rulesets.ultime import outcomes as o
from board_assets import Edition

__all__ = ["TOKEN_LABELS", "SpokenUltimeNarrator", "UltimeNarrator", "narrator"]

#: the Ultime tokens as the chart, the web page and the history name them
TOKEN_LABELS: Mapping[str, Mapping[str, str]] = {
    "car": {"fr": "voiture", "en": "car"},
    "helicopter": {"fr": "hélicoptère", "en": "helicopter"},
    "boat": {"fr": "bateau", "en": "boat"},
    "jet": {"fr": "jet", "en": "jet"},
}


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


#: the sentence (a key of the titles above) that tells each kind of outcome
_TITLE_OF: Final[dict[type[Outcome], str]] = {
    o.Started: "new_game",
    o.Bought: "land",
    o.RentPaid: "land",
    o.NoRent: "land",
    o.LevelRaised: "land",
    o.SalaryPaid: "pass_go",
    o.Jailed: "go_to_jail",
    o.LocationPaid: "pay_location",
    o.AuctionSold: "auction_sale",
    o.DebtSettled: "give_property",
    o.EventPlayed: "event",
}


def _ultime_word(lang: str, word: str) -> str:
    return _ULTIME_WORDS.get(lang, {}).get(word, word)


class UltimeNarrator:
    """Says an Ultime game's transactions in *lang*: the sentences of the web view's list and
    of the unit's voice (``bank.views.speech``), one table for both."""

    #: the words name players by their tokens, which a game never changes, and say the
    #: journalled outcome; but the outcome of a record written before outcomes were is
    #: derived from the very state it started from
    walks_back = True

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang if lang in ("fr", "en") else "en"
        #: the rules that derive the outcome of a record written without one (built when
        #: the first such record is read)
        self._rules: Ruleset | None = None

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
        return TOKEN_LABELS[token][self.lang] if token in TOKEN_LABELS else token

    def who(self, card: int | None, state: GameState | None = None) -> str:
        """A player by their token's name; None: the bank."""
        return self._who(card, _tokens(state) if state is not None else {})

    def _who(self, card: Any, tokens: Mapping[int, str]) -> str:
        if card is None:
            return _ultime_word(self.lang, "bank")
        return self.token(int(card), tokens)

    # ------------------------------------------------------------------ sentences

    def words(self, record: Record, before: GameState) -> tuple[str, str]:
        """:meth:`title` and :meth:`detail` at once."""
        tokens = _tokens(before)
        done = self.outcome(record, before)
        return self.title_with(record, tokens, done), self.detail_with(record, tokens)

    def title(self, record: Record, before: GameState) -> str:
        """The transaction in one sentence, told from its outcome; *before* is the state it
        started from."""
        return self.title_with(record, _tokens(before), self.outcome(record, before))

    def detail(self, record: Record, before: GameState) -> str:
        return self.detail_with(record, _tokens(before))

    def outcome(self, record: Record, before: GameState) -> Outcome | None:
        """The record's journalled outcome (derived once, with the rules, for a record written
        before outcomes were: *before* must then be the state it started from)."""
        if not record.stores_outcome and self._rules is None:
            from bank import rulesets  # the rules, only for a record older than outcomes

            self._rules = rulesets.find("ultime").rules(self.edition, None)
        try:
            return outcome_of(record, before, self._rules, self.edition)
        except RecordError:  # an outcome that cannot be read: the command's name is said
            return None

    def title_with(
        self, record: Record, tokens: Mapping[int, str], done: Outcome | None = None
    ) -> str:
        """:meth:`title` with the players' tokens by card, told from the outcome *done* (the
        record's); a record without one (an undo) is named by its command."""
        lang = self.lang
        fields: dict[str, Any] = {}
        key = _TITLE_OF.get(type(done)) if done is not None else None
        if isinstance(done, o.Started):
            fields["players"] = ", ".join(self.token(c, tokens) for c in done.cards)
        elif isinstance(done, o.Bought | o.NoRent | o.LevelRaised):
            fields["who"], fields["prop"] = self.token(done.card, tokens), self.prop(done.number)
        elif isinstance(done, o.RentPaid):
            fields["who"], fields["prop"] = self.token(done.payer, tokens), self.prop(done.number)
        elif isinstance(done, o.SalaryPaid | o.Jailed | o.LocationPaid):
            fields["who"] = self.token(done.card, tokens)
        elif isinstance(done, o.LeftJail):
            fields["who"] = self.token(done.card, tokens)
            key = "leave_jail.paid" if done.paid else "leave_jail.double"
        elif isinstance(done, o.AuctionSold | o.DebtSettled):
            fields["who"], fields["prop"] = self.token(done.card, tokens), self.prop(done.number)
            if isinstance(done, o.AuctionSold):
                fields["price"] = self.money(done.price)
        elif isinstance(done, o.EventPlayed):
            eid = done.event_id
            known = 1 <= eid <= len(self.edition.events)
            fields["id"], fields["title"] = eid, self.edition.event(eid).title if known else "?"
        elif done is None and record.name == "undo":
            key = "undo"
        template = _ULTIME_TITLES.get(key) if key is not None else None
        if template is None:
            return record.name
        return template[lang if lang in template else "en"].format(**fields)

    def detail_with(self, record: Record, tokens: Mapping[int, str]) -> str:
        """What moved, like ``bank.views.history.describe`` but with tokens and the unit's words."""
        lang = self.lang

        def who(card: Any) -> str:
            return self._who(card, tokens)

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

    def aloud(self, record: Record, before: GameState, title: str) -> list[str]:
        """What the voice says, in parts: the title names the gesture (``voiture arrive sur
        …``); the money it moved is said after it, and a purchase or a rent says the deed
        itself, so it replaces it."""
        done = self.outcome(record, before)
        if isinstance(done, o.AuctionSold):  # the title says the winner and the price
            return [title]
        deed = getattr(done, "number", None) if not isinstance(done, o.EventPlayed) else None
        clauses = [
            self.payment(e, before, deed)
            for e in record.events
            if isinstance(e, MoneyMoved) and e.amount
        ]
        # a purchase, or a rent of which something was paid, says the deed in its payment
        own = isinstance(done, o.Bought) or (isinstance(done, o.RentPaid) and done.paid > 0)
        return clauses if own and deed is not None else [title, *clauses]

    def token_name(self, token: str) -> str:
        """A token as the players call it (``voiture``)."""
        return TOKEN_LABELS[token][self.lang] if token in TOKEN_LABELS else token

    def balance_more(self, token: str, state: GameState) -> str | None:
        """An Ultime balance is said alone."""
        return None

    def screen_words(self, screen: str, number: int | None) -> str | None:
        """Every Ultime screen is said from its lines."""
        return None

    def payment(self, e: MoneyMoved, before: GameState, number: int | None = None) -> str:
        """One payment as a clause: ``chien paie 200 à voiture (loyer)``."""
        tokens = _tokens(before)
        why = _ultime_word(self.lang, e.reason) if e.reason else ""
        pay = _ULTIME_PAY[self.lang]
        if e.reason in ("purchase", "rent") and e.payer is not None and number:
            return pay[e.reason].format(
                who=self._who(e.payer, tokens),
                money=self.money(e.amount),
                payee=self._who(e.payee, tokens),
                prop=self.prop(number),
            )
        if e.payer is None:
            text = _ULTIME_PAY[self.lang]["receive"].format(
                who=self._who(e.payee, tokens), money=self.money(e.amount)
            )
        else:
            text = _ULTIME_PAY[self.lang]["pay"].format(
                who=self._who(e.payer, tokens),
                money=self.money(e.amount),
                payee=self._who(e.payee, tokens),
            )
        return f"{text} ({why})" if why else text

    def transfer(self, e: PropertyChanged, before: GameState) -> str:
        tokens = _tokens(before)
        return _ULTIME_PAY[self.lang]["transfer"].format(
            prop=self.prop(e.number), who=self._who(e.new_owner, tokens)
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


class SpokenUltimeNarrator(UltimeNarrator):
    """The Ultime sentences of the history and the web view, for the ear: the bank named,
    a deed by its name, amounts as the voice says them (*say_money*)."""

    def __init__(self, edition: Edition, lang: str, say_money: Callable[[int], str]) -> None:
        super().__init__(edition, lang)
        self._say_money = say_money

    def _who(self, card: Any, tokens: Mapping[int, str]) -> str:
        if card is None:
            return "la banque" if self.lang == "fr" else "the bank"
        return super()._who(card, tokens)

    def money(self, amount: int) -> str:
        return self._say_money(amount)

    def prop(self, number: int) -> str:
        if 1 <= number <= len(self.edition.properties):
            return self.edition.prop(number).name
        return super().prop(number)


def narrator(
    edition: Edition, lang: str, say_money: Callable[[int], str] | None = None
) -> UltimeNarrator:
    """The Ultime narrator of *edition* in *lang*; with *say_money* (how the voice says an
    amount), the voice's."""
    if say_money is not None:
        return SpokenUltimeNarrator(edition, lang, say_money)
    return UltimeNarrator(edition, lang)
