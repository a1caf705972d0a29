"""The "coins" toy ruleset: the proof that a ruleset brings everything it says, from this
folder alone (no file of the bank changes to add it).

A game of two players and one property (landing on the free property buys it, landing on
another player's pays its owner 1), with what the bank has never heard of before this ruleset
is registered: a card kind of its own (``coin:1`` to ``coin:3``: a coin then a bank card gives
that player the coin's number in money), an icon of its own (a star, lit on a wish; its art
travels in the ruleset's panel vocabulary), a menu item (M, then OK: the rules), its
transactions told in words from their journalled outcomes, in English and French (``ultibank
history show``), and its panel
vocabulary (its coin key ``c`` on the terminal, the star's bitmap for the emulator's glass,
the star's word for character LCDs).

It reuses the smallest ruleset of the tests (:mod:`tests.support.toy`) for buying and rent, and
plugs in through the registry's hook (:func:`install`, which the tests call).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from bank import rulesets
from bank.engine.commands import Command, register_commands
from bank.engine.config import UnitConfig
from bank.engine.errors import RuleError
from bank.engine.events import MoneyMoved, apply
from bank.engine.game import Game, Transaction
from bank.engine.records import Record
from bank.engine.ruleset import Decision, Outcome, OutcomeCodec
from bank.engine.state import GameState
from bank.unit.io import Button, CardId, Cue, Icon, IconArt, Labels, Screen
from bank.unit.shell import Idle, UnitShell
from board_assets import Edition
from tests.support import toy

NAME = "coins"
EDITION_FILE = Path(__file__).with_name("coins.toml")
SCRIPT = Path(__file__).with_name("game.tap")

#: the ruleset's own icon, lit when a coin is wished on
STAR = Icon("star")
STAR_ART = IconArt(
    STAR,
    (
        "....#....",
        "....#....",
        "...###...",
        "#########",
        ".#######.",
        "..#####..",
        ".###.###.",
        ".##...##.",
        "#.......#",
    ),
    (("en", "STAR"), ("fr", "ETOILE")),
)

_WORDS = {
    "en": {
        "coin": "Coin",
        "rules": "Rules",
        "menu": "1 {rules}",
        "rules.1": "Land pays 1",
        "rules.2": "Coin N gives N",
        "wish": "Coin {n}",
        "wish.2": "Tap a bank card",
        "wished": "Wished {amount}",
        "started": "A game of coins for {players}",
        "bought": "{who} bought {name} for {money}",
        "paid": "{who} paid {owner} {money}",
        "broke": "{who} could not pay {owner}: the game is over",
        "home": "{who} landed at home",
        "wished.title": "{who} wished on coin {n}: {money}",
        "undone": "undone",
    },
    "fr": {
        "coin": "Pièce",
        "rules": "Règles",
        "menu": "1 {rules}",
        "rules.1": "Atterrir coûte 1",
        "rules.2": "Pièce N donne N",
        "wish": "Pièce {n}",
        "wish.2": "Carte banque ?",
        "wished": "Vœu {amount}",
        "started": "Une partie de pièces pour {players}",
        "bought": "{who} achète {name} pour {money}",
        "paid": "{who} paie {money} à {owner}",
        "broke": "{who} ne peut pas payer {owner} : la partie est finie",
        "home": "{who} est chez lui",
        "wished.title": "{who} fait un vœu sur la pièce {n} : {money}",
        "undone": "annulé",
    },
}


def _say(lang: str, key: str, **fields: object) -> str:
    return _WORDS.get(lang, _WORDS["en"])[key].format(**fields)


@dataclass(frozen=True, slots=True)
class Wish(Command):
    """A coin then a bank card: the bank gives that player the coin's number."""

    name: ClassVar[str] = "coins_wish"
    card: int
    coin: int


register_commands(Wish)


@dataclass(frozen=True, slots=True)
class Wished(Outcome):
    kind: ClassVar[str] = "coins_wished"
    card: int
    amount: int


class CoinsRules(toy.ToyRules):
    """The toy's rules, and the wish."""

    name = NAME

    def decide(self, state: GameState, command: Command) -> Decision:
        if isinstance(command, Wish):
            if not state.started or state.game_over:
                raise RuleError("no game in progress", "no game")
            if state.player(command.card) is None:
                raise RuleError(f"bank card {command.card} is not in this game", "card not in game")
            gift = MoneyMoved(None, command.card, command.coin, "wish")
            return Decision((gift,), Wished(command.card, command.coin))
        return super().decide(state, command)


@dataclass(frozen=True, slots=True)
class Wishing:
    """A coin was tapped: waiting for the bank card of the player who wishes."""

    coin: int
    expires: float


@dataclass(frozen=True, slots=True)
class Menu:
    """M was pressed at idle: the menu's one item shows; OK opens it."""

    expires: float


class CoinsUnit(toy.ToyUnit):
    """The toy's gestures, the coin and the menu."""

    @property
    def _lang(self) -> str:
        return str(self.screens.lang)

    def _on_button(self, button: Button) -> None:
        step = self.step
        if isinstance(step, Idle) and button is Button.MENU:
            self.step = Menu(self._now + self.config.idle_seconds)
            rules = _say(self._lang, "rules")
            self._show(Screen("coins_menu", (_say(self._lang, "menu", rules=rules),), number=1))
        elif isinstance(step, Menu) and button is Button.OK:
            self.step = Idle(self._now + self.config.idle_seconds)
            lines = (_say(self._lang, "rules.1"), _say(self._lang, "rules.2"))
            self._show(Screen("coins_rules", lines))
        elif isinstance(step, Menu | Wishing):
            self._to_idle()
        else:
            super()._on_button(button)

    def _step_tap(self, card: CardId) -> None:
        step = self.step
        if isinstance(step, Idle | Menu) and card.kind == "coin":
            self.step = Wishing(card.number, self._now + self.config.idle_seconds)
            lines = (_say(self._lang, "wish", n=card.number), _say(self._lang, "wish.2"))
            self._show(Screen("coins_wish", lines, number=card.number, icons=frozenset({STAR})))
        elif isinstance(step, Wishing) and card.kind == "bank":
            tx = self._execute(Wish(card.number, step.coin))
            if tx is not None:
                self.step = Idle()
                self._after(tx, self._result(tx))
        elif isinstance(step, Menu):
            self.step = Idle()
            super()._step_tap(card)
        else:
            super()._step_tap(card)

    def _result(self, tx: Transaction) -> Screen:
        done = tx.outcome
        if isinstance(done, Wished):
            words = (_say(self._lang, "wished", amount=done.amount),)
            return Screen("coins_wished", words, amount=done.amount, icons=frozenset({STAR}))
        return super()._result(tx)

    def _cues(self, tx: Transaction) -> list[Cue]:
        if isinstance(tx.outcome, Wished):
            return [Cue.KACHING]
        return super()._cues(tx)


class CoinsNarrator:
    """Tells the coins game's transactions in words, from each record's journalled outcome
    (the core's narrator protocol: ``words``, ``title``, ``money``, ``who``, ``aloud``)."""

    #: its words need no state from before each record (a coin's record says it all)
    walks_back = False

    def __init__(
        self, edition: Edition, lang: str, say_money: Callable[[int], str] | None = None
    ) -> None:
        self.edition = edition
        self.lang = lang if lang in _WORDS else "en"
        #: how the voice says an amount (None: written)
        self.say_money = say_money

    def who(self, card: int | None, state: GameState | None = None) -> str:
        tokens = self.edition.constants.tokens
        return tokens[card - 1].capitalize() if card and 1 <= card <= len(tokens) else "?"

    def money(self, amount: int) -> str:
        if self.say_money is not None:
            return self.say_money(amount)
        return f"{amount} {self.edition.currency}"

    def token_name(self, token: str) -> str:
        return token.capitalize()

    def balance_more(self, token: str, state: GameState) -> str | None:
        return None

    def screen_words(self, screen: str, number: int | None) -> str | None:
        return None

    def title(self, record: Record, before: GameState) -> str:
        """The transaction in one sentence, said from its outcome."""
        lang, done = self.lang, record.outcome
        if isinstance(done, toy.Started):
            players = ", ".join(self.who(p.card) for p in apply(before, record.events).players)
            return _say(lang, "started", players=players)
        if isinstance(done, Wished):
            coin = record.arguments()["coin"]
            return _say(lang, "wished.title", who=self.who(done.card), n=coin,
                        money=self.money(done.amount))  # fmt: skip
        if isinstance(done, toy.Bought):
            name = self.edition.prop(int(record.arguments()["number"])).name
            return _say(lang, "bought", who=self.who(done.card), name=name,
                        money=self.money(done.price))  # fmt: skip
        if isinstance(done, toy.Paid):
            who, owner = self.who(done.payer), self.who(done.owner)
            if done.amount:
                return _say(lang, "paid", who=who, owner=owner, money=self.money(done.amount))
            return _say(lang, "broke", who=who, owner=owner)
        if isinstance(done, toy.Stayed):
            return _say(lang, "home", who=self.who(record.arguments().get("card")))
        return record.name

    def words(self, record: Record, before: GameState) -> tuple[str, str]:
        """The sentence, and nothing more to detail."""
        return self.title(record, before), ""

    def aloud(self, record: Record, before: GameState, title: str) -> list[str]:
        return [title]


def _labels(edition: Edition, lang: str) -> Labels:
    """The panels' vocabulary for a coins game."""
    speak = lang if lang in _WORDS else "en"
    return Labels(
        lang,
        {t: t for t in edition.token_names},
        edition.currency,
        decks={"coin": _say(speak, "coin")},
        menu={1: _say(speak, "rules")},
        icons=(STAR_ART,),
        keys={"c": "coin"},
    )


def _unit(game: Game, config: UnitConfig | None) -> UnitShell:
    return CoinsUnit(game, config)


def _schema(raw: Any) -> None:
    toy.RULESET.schema(raw)


RULESET = replace(
    toy.RULESET,
    name=NAME,
    rules=CoinsRules,
    unit=_unit,
    schema=_schema,
    labels=_labels,
    narrator=CoinsNarrator,
    outcomes=OutcomeCodec([toy.Started, toy.Bought, toy.Paid, toy.Stayed, Wished]),
)


def install() -> None:
    """Register the coins ruleset (the registry's hook for rulesets outside the bank)."""
    rulesets.register(RULESET)


def uninstall() -> None:
    rulesets.unregister(NAME)
