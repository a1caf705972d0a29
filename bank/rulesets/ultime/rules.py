"""The rules of Monopoly Électronique Ultime / Ultimate Banking (docs/ultime.md §3 and §4).

``UltimeRules.decide`` is the door that checks: it validates a command against the state and
returns a :class:`bank.engine.ruleset.Decision`, the events it causes and an outcome
(:mod:`bank.rulesets.ultime.outcomes`) that says what happened, or raises a
:class:`bank.engine.errors.RuleError` whose ``short`` text fits the LCD. It never touches
the state it was given (states are immutable) and does no I/O. Imports ``board_assets``, the
engine's value types, the Ultime package's own modules and the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bank.engine.commands import AuctionSale, Command, GiveProperty, Land, NewGame, Undo
from bank.engine.errors import GameOver, InDebt, NotEnoughMoney, RuleError
from bank.engine.events import (
    DebtChanged,
    Event,
    GameEnded,
    JailChanged,
    MoneyMoved,
    PlayerBankrupt,
    PlayerJoined,
    PropertyChanged,
)
from bank.engine.ruleset import Decision
from bank.engine.state import Creditor, GameState, PlayerState, PropertyState
from bank.engine.values import frozen_maker
from bank.rulesets.ultime import outcomes as o
from bank.rulesets.ultime.commands import GoToJail, LeaveJail, PassGo, PayLocation, PlayEvent
from bank.rulesets.ultime.config import RulesConfig, WinnerRule
from bank.rulesets.ultime.edition import MAX_LEVEL, ultime_constants
from bank.rulesets.ultime.events import CheapRentsChanged, GroupCompleted, ultime
from board_assets import Edition

# Built by ``frozen_maker`` (same arguments, same values as the classes' own constructors, a
# quarter of their cost): the events and outcomes of the most frequent transactions, and the
# decision itself. Most of a transaction's Python time went into building frozen values.
_money_moved = frozen_maker(MoneyMoved)
_property_changed = frozen_maker(PropertyChanged)
_decision = frozen_maker(Decision)
_bought = frozen_maker(o.Bought)
_rent_paid = frozen_maker(o.RentPaid)
_no_rent = frozen_maker(o.NoRent)
_level_raised = frozen_maker(o.LevelRaised)
_salary_paid = frozen_maker(o.SalaryPaid)

# The cues of a transaction (bank.rulesets.ultime.outcomes.Happened), noted as bits as its
# events are emitted; each combination's Happened made once.
_MONEY, _LEVEL_UP, _JAILED, _GAME_OVER = 1, 2, 4, 8
_HAPPENED = tuple(
    o.Happened(
        bool(cues & _MONEY), bool(cues & _LEVEL_UP), bool(cues & _JAILED), bool(cues & _GAME_OVER)
    )
    for cues in range(16)
)


class _Tx:
    """Events of one transaction, applied to a working state as they are emitted."""

    __slots__ = ("bankrupt", "cues", "events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []
        #: what the transaction amounts to, noted as it happens (the unit's cues): _MONEY...
        self.cues = 0
        #: the player a payment bankrupted, if any
        self.bankrupt: int | None = None

    def pay(self, payer: int | None, payee: int | None, amount: int, reason: str) -> None:
        """Emit ``MoneyMoved(payer, payee, amount, reason)`` (the most frequent event)."""
        event = _money_moved(payer, payee, amount, reason)
        self.events.append(event)
        self.state = event.apply(self.state)
        if amount > 0:
            self.cues |= _MONEY

    def change_property(
        self,
        number: int,
        old_owner: int | None,
        new_owner: int | None,
        old_level: int | None,
        new_level: int | None,
    ) -> None:
        """Emit ``PropertyChanged(number, old_owner, new_owner, old_level, new_level)``."""
        event = _property_changed(number, old_owner, new_owner, old_level, new_level)
        self.events.append(event)
        self.state = event.apply(self.state)
        if new_owner is not None and new_owner == old_owner and (new_level or 0) > (old_level or 0):
            self.cues |= _LEVEL_UP

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = event.apply(self.state)
        if isinstance(event, MoneyMoved):
            if event.amount > 0:
                self.cues |= _MONEY
        elif isinstance(event, PropertyChanged):
            if (
                event.new_owner is not None
                and event.new_owner == event.old_owner
                and (event.new_level or 0) > (event.old_level or 0)
            ):
                self.cues |= _LEVEL_UP
        elif isinstance(event, GroupCompleted):
            if event.completed:
                self.cues |= _LEVEL_UP
        elif isinstance(event, JailChanged):
            if event.jailed:
                self.cues |= _JAILED
        elif isinstance(event, GameEnded):
            if event.ended:
                self.cues |= _GAME_OVER
        elif isinstance(event, PlayerBankrupt) and event.bankrupt:
            self.bankrupt = event.card

    def happened(self) -> o.Happened:
        return _HAPPENED[self.cues]


class UltimeRules:
    """The Ultime ruleset, configured by the edition's constants and the rules' decisions."""

    name = "ultime"

    def __init__(self, edition: Edition, config: RulesConfig | None = None) -> None:
        self.edition = edition
        self.config = config or RulesConfig()
        self.k = ultime_constants(edition)
        #: each colour group's property numbers, as the edition lists them (looked up by every
        #: purchase: worked out once)
        self._members: dict[str, tuple[int, ...]] = {}
        self._handlers: dict[type[Command], Callable[[_Tx, Command], o.UltimeOutcome]] = {
            NewGame: self._new_game,  # type: ignore[dict-item]
            Land: self._land,  # type: ignore[dict-item]
            PassGo: self._pass_go,  # type: ignore[dict-item]
            GoToJail: self._go_to_jail,  # type: ignore[dict-item]
            LeaveJail: self._leave_jail,  # type: ignore[dict-item]
            PayLocation: self._pay_location,  # type: ignore[dict-item]
            AuctionSale: self._auction_sale,  # type: ignore[dict-item]
            GiveProperty: self._give_property,  # type: ignore[dict-item]
            PlayEvent: self._play_event,  # type: ignore[dict-item]
        }

    # ------------------------------------------------------------------ the door

    def decide(self, state: GameState, command: Command) -> Decision:
        """Validate *command*; its events and outcome. Raises RuleError, state untouched."""
        # (the handlers are keyed by exact command class, Undo has none, and no handled class
        # subclasses NewGame or GiveProperty: the type tests below are isinstance's)
        kind = type(command)
        handler = self._handlers.get(kind)
        if handler is None:
            if isinstance(command, Undo):
                raise RuleError(
                    "undo is handled by the game's history, not by the rules", "no undo"
                )
            raise RuleError(f"unknown command {command!r}", "unknown action")
        if kind is not NewGame:
            players = state.players
            if not players:
                raise RuleError("no game in progress: register 2 to 4 bank cards first", "no game")
            if state.game_over:
                raise GameOver("the game is over: hold X for 5 s to start a new one", "game over")
            if kind is not GiveProperty:
                for debtor in players:  # state.debtor(), without the call
                    if debtor.debt > 0:
                        raise InDebt(
                            f"player {debtor.card} owes {debtor.debt}: give up properties first",
                            "settle the debt",
                        )
        tx = _Tx(state)
        # the handler builds its outcome once its last event is emitted (tx.happened())
        outcome = handler(tx, command)
        if tx.bankrupt is not None:  # the outcome names who the payment bankrupted
            outcome = replace(outcome, bankrupt=tx.bankrupt)
        return _decision(tuple(tx.events), outcome, tx.state)

    # ------------------------------------------------------------------ the core's questions

    def joins_undo_group(self, command: Command) -> bool:
        """A property given up settles the debt of the transaction before: one undo group."""
        return isinstance(command, GiveProperty)

    def undo_after_settled_debt(self) -> bool:
        return self.config.undo_settled_debt_whole

    def auction_terms(self) -> tuple[int, float]:
        return self.k.auction_step, self.config.auction_seconds

    def check_bid(self, state: GameState, card: int, price: int) -> None:
        """A named bid: a player in the game, out of jail, who can pay *price*."""
        player = state.player(card)
        if player is None or player.bankrupt:
            raise RuleError(f"bank card {card} is not in this game", "card not in game")
        if player.jailed:
            raise RuleError(f"player {card} is in jail and cannot bid", "in jail")
        if player.balance < price:
            raise NotEnoughMoney(
                f"player {card} has {player.balance}, cannot bid {price}", "not enough money"
            )

    # ------------------------------------------------------------------ lookups

    def _player(self, state: GameState, card: int) -> PlayerState:
        for p in state.players:  # state.player(card), without the call
            if p.card == card:
                if p.bankrupt:
                    raise RuleError(f"player {card} is bankrupt", "bankrupt")
                return p
        raise RuleError(f"bank card {card} is not in this game", "card not in game")

    def _number(self, number: int) -> None:
        if not 1 <= number <= len(self.edition.properties):
            raise RuleError(f"there is no property {number}", "no such property")

    def _owned(self, state: GameState, number: int) -> int:
        self._number(number)
        owner = state.prop(number).owner
        if owner is None:
            raise RuleError(f"property {number} belongs to the bank", "not owned")
        return owner

    def property_value(self, state: GameState, card: int) -> int:
        """Sum of the purchase prices of *card*'s properties."""
        return sum(self.edition.prop(n).price for n in state.owned_by(card))

    def rent_due(self, state: GameState, number: int) -> int:
        """Rent a visitor would pay now on *number* (0 when unowned or the owner is jailed)."""
        self._number(number)
        return self._rent(state, state.prop(number), ultime(state).cheap_rents)

    def _rent(self, state: GameState, prop: PropertyState, cheap_rents: int) -> int:
        """``rent_due`` of the property *prop* of *state* (whose ``cheap_rents`` is given), its
        number known to be valid."""
        if prop.owner is None or prop.level is None:
            return 0
        owner = state.player(prop.owner)
        if owner is not None and owner.jailed and not self.config.jailed_owner_collects:
            return 0
        level = 1 if cheap_rents > 0 else prop.level
        return self.edition.prop(prop.number).rent(level)

    # ------------------------------------------------------------------ building blocks

    def _set_level(self, tx: _Tx, number: int, level: int) -> None:
        prop = tx.state.prop(number)
        level = max(1, min(MAX_LEVEL, level))
        if prop.owner is not None and prop.level != level:
            tx.change_property(number, prop.owner, prop.owner, prop.level, level)

    def _shift_level(self, tx: _Tx, number: int, delta: int) -> None:
        """``_set_level`` to the level *delta* away, when the property is owned."""
        prop = tx.state.properties[number - 1]  # state.prop(number), without the call
        owner, old = prop.owner, prop.level
        if owner is not None and old is not None:
            level = old + delta
            if level > MAX_LEVEL:
                level = MAX_LEVEL
            elif level < 1:
                level = 1
            if level != old:
                tx.change_property(number, owner, owner, old, level)

    def _acquire(self, tx: _Tx, card: int, number: int, price: int, reason: str) -> None:
        """*card* takes an unowned property for *price*, then the colour-set check."""
        if price > 0:
            tx.pay(card, None, price, reason)
        tx.change_property(number, None, card, None, 1)
        self._colour_set(tx, self.edition.prop(number).group)

    def _colour_set(self, tx: _Tx, group: str) -> None:
        """Once per group per game, when its last unowned property is acquired."""
        if group in ultime(tx.state).completed_groups:
            return
        members = self._members.get(group)
        if members is None:
            members = self._members[group] = self.edition.group_members(group)
        owners = {tx.state.prop(n).owner for n in members}
        if None in owners:
            return
        bonus = 2 if len(owners) == 1 else 1
        tx.emit(GroupCompleted(group))
        for n in members:
            self._shift_level(tx, n, bonus)

    def _release(self, tx: _Tx, number: int, to: Creditor) -> None:
        """A property passes to player *to* keeping its level, or back to the bank (reset)."""
        prop = tx.state.prop(number)
        if to is None:
            tx.change_property(number, prop.owner, None, prop.level, None)
        else:
            tx.change_property(number, prop.owner, to, prop.level, prop.level)

    def _charge(self, tx: _Tx, card: int, creditor: Creditor, amount: int, reason: str) -> None:
        """An obligatory payment under the debt rules (rent, jail fee, event payments)."""
        if amount <= 0:
            return
        payer = tx.state.player(card)
        assert payer is not None
        if payer.balance >= amount:
            tx.pay(card, creditor, amount, reason)
            return
        if payer.balance > 0:
            tx.pay(card, creditor, payer.balance, reason)
        rest = amount - payer.balance
        if self.property_value(tx.state, card) < rest:
            self._bankrupt(tx, card, creditor)
        else:
            tx.emit(DebtChanged(card, 0, rest, None, creditor))

    def _bankrupt(self, tx: _Tx, card: int, creditor: Creditor) -> None:
        to = creditor if self.config.bankrupt_assets_to_creditor else None
        for number in tx.state.owned_by(card):
            self._release(tx, number, to)
        tx.emit(PlayerBankrupt(card))
        ranking = self.ranking(tx.state)
        tx.emit(GameEnded(ranking[0] if ranking else None, ranking))

    def ranking(self, state: GameState) -> tuple[int, ...]:
        """Bank cards from first to last: money (or net worth), then property value."""

        def key(p: PlayerState) -> tuple[int, int, int, int]:
            value = self.property_value(state, p.card)
            score = (
                p.balance + value if self.config.winner_rule is WinnerRule.NET_WORTH else p.balance
            )
            return (int(p.bankrupt), -score, -value, p.card)

        return tuple(p.card for p in sorted(state.players, key=key))

    # ------------------------------------------------------------------ commands

    def _new_game(self, tx: _Tx, cmd: NewGame) -> o.UltimeOutcome:
        if tx.state.started and not tx.state.game_over:
            raise RuleError("a game is already in progress: hold X for 5 s to reset", "game on")
        cards = cmd.cards
        k = self.k
        if len(set(cards)) != len(cards):
            raise RuleError("each bank card registers once", "card twice")
        if not k.min_players <= len(cards) <= k.max_players:
            raise RuleError(
                f"a game needs {k.min_players} to {k.max_players} bank cards, got {len(cards)}",
                "players range",
                lo=k.min_players,
                hi=k.max_players,
            )
        for c in cards:
            if not 1 <= c <= k.max_players:
                raise RuleError(f"there is no bank card {c}", "no such card")
        for c in sorted(cards):
            tx.emit(PlayerJoined(c, k.tokens[c - 1], k.start_balance))
        return o.Started(tx.happened(), tuple(cards))

    def _land(self, tx: _Tx, cmd: Land) -> o.UltimeOutcome:
        card, number = cmd.card, cmd.number
        state = tx.state
        player = self._player(state, card)
        self._number(number)
        prop = state.prop(number)
        owner = prop.owner
        if owner is None:
            info = self.edition.prop(number)
            if player.balance < info.price:
                raise NotEnoughMoney(
                    f"player {card} has {player.balance}, {info.name} costs {info.price}",
                    "not enough money",
                )
            return self._buy(tx, card, number, info.price)
        if owner == card:
            self._shift_level(tx, number, 1)
            level = tx.state.prop(number).level or 1
            return _level_raised(tx.happened(), number, level, level > (prop.level or 0), card)
        cheap = ultime(state).cheap_rents
        rent = self._rent(state, prop, cheap)
        if rent == 0:
            # jailed owner: no rent, no rise (decision)
            return _no_rent(tx.happened(), number, card)
        if cheap > 0:
            tx.emit(CheapRentsChanged(cheap, cheap - 1))
        balance = player.balance
        self._charge(tx, card, owner, rent, "rent")
        # the landing rule: the level rises after the payment, even one that bankrupts
        self._shift_level(tx, number, 1)
        paid = min(rent, max(balance, 0))
        state = tx.state
        raised = state.prop(number).level
        after = state.player(card)
        owed = after is not None and after.debt > 0
        return _rent_paid(tx.happened(), number, card, owner, paid, owed, raised)

    def _buy(self, tx: _Tx, card: int, number: int, price: int) -> o.Bought:
        """*card* buys the free property *number* (a landing or an event move)."""
        before = len(ultime(tx.state).completed_groups)
        self._acquire(tx, card, number, price, "purchase")
        grouped = len(ultime(tx.state).completed_groups) > before
        level = tx.state.prop(number).level or 1
        return _bought(tx.happened(), number, card, price, grouped, level)

    def _pass_go(self, tx: _Tx, cmd: PassGo) -> o.UltimeOutcome:
        card = cmd.card
        if self._player(tx.state, card).jailed:
            raise RuleError(f"player {card} is in jail: no salary", "in jail")
        salary = self.k.go_salary
        tx.pay(None, card, salary, "go")
        return _salary_paid(tx.happened(), card, salary)

    def _go_to_jail(self, tx: _Tx, cmd: GoToJail) -> o.UltimeOutcome:
        player = self._player(tx.state, cmd.card)
        if player.jailed:
            raise RuleError(f"player {cmd.card} is already in jail", "already in jail")
        tx.emit(JailChanged(cmd.card, True))
        return o.Jailed(tx.happened(), cmd.card)

    def _leave_jail(self, tx: _Tx, cmd: LeaveJail) -> o.UltimeOutcome:
        player = self._player(tx.state, cmd.card)
        if not player.jailed:
            raise RuleError(f"player {cmd.card} is not in jail", "not in jail")
        tx.emit(JailChanged(cmd.card, False))
        if cmd.paid:
            self._charge(tx, cmd.card, None, self.k.jail_fee, "jail fee")
        return o.LeftJail(tx.happened(), cmd.card, cmd.paid)

    def _pay_location(self, tx: _Tx, cmd: PayLocation) -> o.UltimeOutcome:
        player = self._player(tx.state, cmd.card)
        if player.jailed:
            raise RuleError(f"player {cmd.card} is in jail and does not move", "in jail")
        fee = self.k.location_fee
        if player.balance < fee:
            raise NotEnoughMoney(
                f"player {cmd.card} has {player.balance}, the Location fee is {fee}",
                "not enough money",
            )
        tx.pay(cmd.card, None, fee, "location")
        return o.LocationPaid(tx.happened(), cmd.card, fee)

    def _auction_sale(self, tx: _Tx, cmd: AuctionSale) -> o.UltimeOutcome:
        player = self._player(tx.state, cmd.card)
        self._number(cmd.number)
        if tx.state.prop(cmd.number).owner is not None:
            raise RuleError(f"property {cmd.number} is already owned", "already owned")
        if player.jailed:
            raise RuleError(f"player {cmd.card} is in jail and cannot win", "in jail")
        step = self.k.auction_step
        if cmd.price < step or cmd.price % step:
            raise RuleError(f"an auction price is a multiple of {step}, got {cmd.price}", "bad bid")
        if player.balance < cmd.price:
            raise NotEnoughMoney(
                f"player {cmd.card} has {player.balance}, the bid is {cmd.price}",
                "not enough money",
            )
        self._acquire(tx, cmd.card, cmd.number, cmd.price, "auction")
        return o.AuctionSold(tx.happened(), cmd.number, cmd.card, cmd.price)

    def _give_property(self, tx: _Tx, cmd: GiveProperty) -> o.UltimeOutcome:
        player = self._player(tx.state, cmd.card)
        if player.debt <= 0:
            raise RuleError(f"player {cmd.card} owes nothing", "no debt")
        self._number(cmd.number)
        if tx.state.prop(cmd.number).owner != cmd.card:
            raise RuleError(f"property {cmd.number} is not player {cmd.card}'s", "not yours")
        price = self.edition.prop(cmd.number).price
        self._release(tx, cmd.number, player.creditor)
        rest = player.debt - price
        if rest > 0:
            tx.emit(DebtChanged(cmd.card, player.debt, rest, player.creditor, player.creditor))
            return o.DebtSettled(tx.happened(), cmd.card, cmd.number, 0)
        tx.emit(DebtChanged(cmd.card, player.debt, 0, player.creditor, None))
        change = 0
        if rest < 0 and self.config.debt_change_from_bank:
            change = -rest
            tx.pay(None, cmd.card, change, "change")
        return o.DebtSettled(tx.happened(), cmd.card, cmd.number, change)

    # ------------------------------------------------------------------ event cards

    def check_event_taps(
        self,
        state: GameState,
        event_id: int,
        props: tuple[int, ...] = (),
        cards: tuple[int, ...] = (),
    ) -> None:
        """Validate a partial list of taps for event card *event_id*, in the card's order."""
        if not 1 <= event_id <= len(self.edition.events):
            raise RuleError(f"there is no event card {event_id}", "no such card")
        taps = self.edition.event(event_id).taps
        n_props = sum(1 for t in taps if t.endswith("prop"))
        n_cards = len(taps) - n_props
        if len(props) > n_props or len(cards) > n_cards:
            raise RuleError(f"event {event_id} takes {list(taps)}", "too many cards")
        first_owner: int | None = None
        first_card: int | None = None
        pi = ci = 0
        for kind in taps:
            if kind.endswith("prop"):
                if pi >= len(props):
                    return
                number = props[pi]
                pi += 1
                self._number(number)
                owner = state.prop(number).owner
                if kind == "own_prop" and owner is None:
                    raise RuleError(f"property {number} belongs to nobody", "not owned")
                if kind == "owned_prop" and owner is None:
                    raise RuleError(f"property {number} belongs to nobody", "not owned")
                if kind == "other_prop":
                    if owner is None:
                        raise RuleError(f"property {number} belongs to nobody", "not owned")
                    if owner == first_owner:
                        raise RuleError(
                            f"property {number} belongs to the same player", "same owner"
                        )
                if first_owner is None:
                    first_owner = owner
            else:
                if ci >= len(cards):
                    return
                card = cards[ci]
                ci += 1
                self._player(state, card)
                if kind == "other_bank" and card == first_card:
                    raise RuleError("tap another player's bank card", "another player")
                if first_card is None:
                    first_card = card
                if self.edition.event(event_id).kind == "move":
                    owner = state.prop(props[0]).owner
                    if owner is not None and owner != card:
                        raise RuleError(
                            f"property {props[0]} belongs to player {owner}", "owned by another"
                        )

    def _play_event(self, tx: _Tx, cmd: PlayEvent) -> o.UltimeOutcome:
        self.check_event_taps(tx.state, cmd.event_id, cmd.props, cmd.cards)
        card = self.edition.event(cmd.event_id)
        n_props = sum(1 for t in card.taps if t.endswith("prop"))
        if len(cmd.props) != n_props or len(cmd.cards) != len(card.taps) - n_props:
            raise RuleError(f"event {cmd.event_id} takes {list(card.taps)}", "more cards needed")
        kind = card.kind
        state = tx.state
        number = cmd.props[0] if cmd.props else None
        first = cmd.cards[0] if cmd.cards else None
        # what the card did, said once the events are known (see outcomes.EventPlayed)
        result, amount = f"event.{kind}", None
        if kind == "move":
            assert number is not None and first is not None
            prop = state.prop(number)
            if prop.owner == first:
                self._shift_level(tx, number, 1)
                result = "level"
            else:
                price = self.edition.prop(number).price
                balance = self._player(state, first).balance
                if balance < price:
                    raise NotEnoughMoney(
                        f"player {first} has {balance}, the property costs {price}",
                        "not enough money",
                    )
                bought = self._buy(tx, first, number, price)
                return o.EventPlayed(
                    tx.happened(),
                    cmd.event_id,
                    kind,
                    "bought",
                    number=number,
                    card=first,
                    amount=price,
                    level=bought.level,
                    completed_group=bought.completed_group,
                )
        elif kind in ("group_up", "group_down"):
            group = self.edition.prop(cmd.props[0]).group
            for n in self.edition.group_members(group):
                self._shift_level(tx, n, 1 if kind == "group_up" else -1)
        elif kind == "reset_level":
            self._set_level(tx, cmd.props[0], 1)
            result = "level"
        elif kind == "max_level":
            self._set_level(tx, cmd.props[0], MAX_LEVEL)
            result = "level"
        elif kind == "swap":
            a, b = state.prop(cmd.props[0]), state.prop(cmd.props[1])
            tx.change_property(a.number, a.owner, b.owner, a.level, a.level)
            tx.change_property(b.number, b.owner, a.owner, b.level, b.level)
            result = "swapped"
        elif kind == "tax":
            assert first is not None
            amount = self.k.tax_per_property * len(state.owned_by(first))
            self._charge(tx, first, None, amount, "tax")
            result = "tax"
        elif kind == "neighbours":
            assert number is not None
            self._shift_level(tx, number, 1)
            for n in set(self.edition.neighbours(number)) - {number}:
                self._shift_level(tx, n, -1)
        elif kind == "collect_pair":
            for c in cmd.cards:
                tx.pay(None, c, self.k.collect_amount, "event")
            result, amount = "collected", self.k.collect_amount
        elif kind == "cheap_rent":
            new = self.k.cheap_rent_count
            old = ultime(state).cheap_rents
            if old != new:
                tx.emit(CheapRentsChanged(old, new))
            return o.EventPlayed(tx.happened(), cmd.event_id, kind, "cheap_rent", amount=new)
        elif kind == "jail_other":
            assert first is not None
            if not self._player(state, first).jailed:
                tx.emit(JailChanged(first, True))
            result = "jailed"
        elif kind in ("side_up", "side_down"):
            side = self.edition.prop(cmd.props[0]).side
            for n in self.edition.side_members(side):
                self._shift_level(tx, n, 1 if kind == "side_up" else -1)
        elif kind == "gridlock":
            # everyone free moves to Free Parking: nothing for the bank to change
            return o.EventPlayed(tx.happened(), cmd.event_id, kind, "gridlock")
        else:  # pragma: no cover - the edition schema refuses unknown kinds
            raise RuleError(f"unknown event kind {kind!r}", "unknown card")
        if not tx.events:
            result = "nothing"
        elif result == f"event.{kind}" and not any(
            isinstance(e, PropertyChanged) and e.old_level != e.new_level for e in tx.events
        ):
            result = "unchanged"  # every level was at its bound already
        level = tx.state.prop(number).level if number is not None else None
        return o.EventPlayed(
            tx.happened(),
            cmd.event_id,
            kind,
            result,
            number=number,
            card=first,
            amount=amount,
            level=level,
        )
