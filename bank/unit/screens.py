"""The unit's screens that every ruleset shares: builds the :class:`~bank.unit.io.Screen` model
of the shell's steps (power, idle, registration, balance, debt, game over, undo, lost devices,
refusals). A ruleset's screens subclass :class:`Screens` (the Ultime ones:
:mod:`bank.rulesets.ultime.screens`).

One :class:`Screens` per unit, bound to an edition and a language; each method returns a
screen whose lines are already fitted to the 2x20 LCD. Imports the engine's state and
edition types, :mod:`bank.unit.io` and :mod:`bank.unit.text`.
"""

from __future__ import annotations

from bank.engine.state import GameState, PlayerState
from bank.unit.io import Icon, Screen
from bank.unit.text import fit, money, say, short_name, token_name
from board_assets import Edition


class Screens:
    """Screen builders for one edition in one language."""

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang

    # ------------------------------------------------------------ helpers

    def money(self, amount: int) -> str:
        """An amount with the edition's currency."""
        return money(amount, self.edition.currency)

    def say(self, key: str, **fields: object) -> str:
        """A message in the unit's language."""
        return say(self.lang, key, **fields)

    def token(self, state: GameState, card: int | None) -> str:
        """The LCD name of bank card *card*'s token."""
        if card is None:
            return "?"
        player = state.player(card)
        return token_name(self.lang, player.token if player else self.card_token(card))

    def card_token(self, card: int) -> str:
        """The token id of bank card *card* (``car`` for 1)."""
        tokens = self.edition.constants.tokens
        return tokens[card - 1] if 1 <= card <= len(tokens) else str(card)

    def colour(self, number: int) -> str:
        """The colour of property *number*'s group."""
        return self.edition.group(self.edition.prop(number).group).colour

    def prop_name(self, number: int) -> str:
        """Property *number*'s name, fitted to one line."""
        return short_name(self.edition.prop(number).name)

    def _how_many(self) -> str:
        """How many bank cards a new game takes (the edition says)."""
        c = self.edition.constants
        return self.say("new.2", lo=c.min_players, hi=c.max_players)

    # ------------------------------------------------------------ screens

    def off(self) -> Screen:
        """The dark screen of a unit without power."""
        return Screen("off", off=True)

    def idle(self) -> Screen:
        """Nothing in progress."""
        return Screen("idle", (self.say("idle.1"), self.say("idle.2")))

    def registration(self, state: GameState, cards: tuple[int, ...]) -> Screen:
        """A new game: the bank cards tapped so far."""
        if not cards:
            return Screen("new_game", (self.say("new.1"), self._how_many()))
        last = cards[-1]
        return Screen(
            "new_game",
            (
                self.say("new.joined.1", n=len(cards), token=self.token(state, last)),
                self.say("new.joined.2"),
            ),
            number=None,
            token=self.card_token(last),
        )

    def game_started(self, state: GameState) -> Screen:
        """The players are registered and credited."""
        start = self.edition.constants.start_balance
        return Screen(
            "game_started",
            (
                self.say("new.started.1"),
                self.say("new.started.2", n=len(state.players), money=self.money(start)),
            ),
            amount=start,
        )

    def balance(self, state: GameState, player: PlayerState) -> Screen:
        """A player's balance (a check)."""
        key = "balance.1.jailed" if player.jailed else "balance.1"
        icons = frozenset({Icon.JAIL}) if player.jailed else frozenset()
        return Screen(
            "balance",
            (
                self.say(key, token=self.token(state, player.card)),
                self.say("balance.2", money=self.money(player.balance)),
            ),
            amount=player.balance,
            token=player.token,
            icons=icons,
        )

    def debt(self, state: GameState, debtor: PlayerState) -> Screen:
        """A debt being settled: the debtor taps properties."""
        return Screen(
            "debt",
            (
                self.say("debt.1", token=self.token(state, debtor.card), amount=debtor.debt),
                self.say("debt.2"),
            ),
            amount=debtor.debt,
            token=debtor.token,
            icons=frozenset({Icon.DEBT}),
        )

    def game_over(self, state: GameState) -> Screen:
        """The ranking, the winner's token and the trophy."""
        ranked = list(state.ranking) or [p.card for p in state.players]
        places = [f"{i}.{self.token(state, card)}" for i, card in enumerate(ranked, 1)]
        lines = tuple(fit("  ".join(places[i : i + 2])) for i in range(0, min(len(places), 4), 2))
        winner = state.player(state.winner) if state.winner is not None else None
        return Screen(
            "game_over",
            lines,
            amount=winner.balance if winner else None,
            token=winner.token if winner else None,
            icons=frozenset({Icon.TROPHY}),
        )

    def undone(self) -> Screen:
        """The last transaction was undone."""
        return Screen(
            "undo", (self.say("undo.1"), self.say("undo.2")), icons=frozenset({Icon.UNDO})
        )

    def archived(self) -> Screen:
        """The game was archived by a reset."""
        return Screen("new_game", (self.say("reset.1"), self._how_many()))

    def device_lost(self, kind: str) -> Screen:
        """A reader or panel link is lost."""
        first = self.say("reader.lost.1") if kind == "reader" else self.say("panel.lost.1")
        return Screen(
            f"{kind}_lost", (first, self.say("lost.2")), icons=frozenset({Icon.READER_LOST})
        )

    def fault(self, reason: str, title: str = "fault.title") -> Screen:
        """The unit cannot take transactions (or lost some): *reason* on the second line."""
        return Screen("fault", (self.say(title), fit(reason)), icons=frozenset({Icon.ERROR}))

    def other_edition(self) -> Screen:
        """A card of the other ruleset tapped (docs/classic.md §1.3)."""
        return Screen(
            "error",
            (self.say("err.other_edition.1"), self.say("err.other_edition.2")),
            icons=frozenset({Icon.ERROR}),
        )

    def refused(self, reason: str) -> Screen:
        """A refusal with its short reason."""
        return Screen("error", (self.say("err.title"), fit(reason)), icons=frozenset({Icon.ERROR}))
