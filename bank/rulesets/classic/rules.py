"""The classic rules (docs/classic.md §3, §4): pure decisions, events and a typed outcome.

:class:`ClassicRulesEngine` decides the core's commands (new game, landing, auction sale) and
the classic ones (:mod:`.commands`); a refusal raises :class:`bank.errors.RuleError` with a
reason key and nothing changes. A transaction's events are built by :class:`_Tx`, which applies
each event to a working copy as it goes, so the debt rules (§3.12: a payment the player must
make takes all their cash and leaves the rest as a debt; every amount a debtor receives goes to
the creditor first) hold for every payment in one place. The configuration in force is the one
recorded with the game (§6), read back from the state. Imports the core and its own modules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bank.auction import can_pay_bid
from bank.commands import AuctionSale, Command, Land, NewGame
from bank.errors import GameOver, InDebt, NotEnoughMoney, RuleError, UndoRefused
from bank.events import (
    DebtChanged,
    Event,
    GameEnded,
    JailChanged,
    MoneyMoved,
    PlayerBankrupt,
    PlayerJoined,
    PropertyChanged,
)
from bank.ruleset import Decision
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import force, mega
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import GENERIC_EFFECTS, ClassicEdition, classic_edition
from bank.rulesets.classic.state import (
    ClassicSet,
    ClassicState,
    DeckDrawn,
    DeckOut,
    DeckUnder,
    classic,
    push_roller,
)
from bank.state import Creditor, GameState
from board_assets import Edition

#: the core level of a lot with a hotel
HOTEL = 5
#: the virtual decks (READINGS D2), in the order the state keeps them
DECKS = ("chance", "chest")


def die(seed: int, k: int, i: int) -> int:
    """Die *i* of roll *k* of a game seeded *seed* (docs/readings.md D1)."""
    digest = hashlib.sha256(f"{seed}:{k}:{i}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 6


def interest(mortgage: int, rounding: str = "up") -> int:
    """10 % of a mortgage, rounded up (§3.1) or down."""
    return -(-mortgage // 10) if rounding == "up" else mortgage // 10


class _Tx:
    """The events of one transaction, applied to a working state as they are emitted."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def ext(self) -> ClassicState:
        return classic(self.state)

    def emit(self, event: Event) -> None:
        self.state = event.apply(self.state)
        self.events.append(event)

    def set_field(self, name: str, new: Any) -> None:
        old = getattr(self.ext, name)
        if old != new:
            self.emit(ClassicSet(name, old, new))

    def balance(self, card: int) -> int:
        p = self.state.player(card)
        assert p is not None
        return p.balance

    def move(self, payer: int | None, payee: int | None, amount: int, reason: str) -> None:
        """Money from *payer* to *payee* (None: the bank); a payee in debt pays it first."""
        if amount <= 0:
            return
        self.emit(MoneyMoved(payer, payee, amount, reason))
        if payee is not None:
            self.settle(payee)

    def to_pot(self, amount: int) -> None:
        if amount > 0:
            self.set_field("pot", self.ext.pot + amount)

    def must_pay(
        self, payer: int, creditor: Creditor, amount: int, reason: str, pot: bool = False
    ) -> int:
        """A payment the player must make: what they lack becomes a debt (§3.12)."""
        pay = min(self.balance(payer), amount)
        self.move(payer, creditor, pay, reason)
        if pot and creditor is None:
            self.to_pot(pay)
        rest = amount - pay
        if rest:
            p = self.state.player(payer)
            assert p is not None
            to_pot = pot and creditor is None
            if p.debt and (p.creditor != creditor or (payer in self.ext.pot_debts) != to_pot):
                # a second creditor: that debt waits behind the one being settled (C22)
                self.set_field("queued", (*self.ext.queued, (payer, creditor, rest, to_pot)))
                return rest
            self.emit(DebtChanged(payer, p.debt, p.debt + rest, p.creditor, creditor))
            if payer not in self.ext.debts:
                self.set_field("debts", (*self.ext.debts, payer))
            if to_pot and payer not in self.ext.pot_debts:
                self.set_field("pot_debts", (*self.ext.pot_debts, payer))
        return rest

    def settle(self, card: int) -> None:
        """Pay *card*'s debt from its cash, as far as it goes; a paid debt makes way for the
        next one the player owes another creditor (C22)."""
        p = self.state.player(card)
        assert p is not None
        if not p.debt or p.balance <= 0:
            return
        pay = min(p.balance, p.debt)
        left = p.debt - pay
        to_pot = card in self.ext.pot_debts
        self.emit(DebtChanged(card, p.debt, left, p.creditor, p.creditor if left else None))
        self.move(card, p.creditor, pay, "debt")
        if to_pot and p.creditor is None:
            self.to_pot(pay)
        if not left:
            self.set_field("pot_debts", tuple(d for d in self.ext.pot_debts if d != card))
            waiting = next((q for q in self.ext.queued if q[0] == card), None)
            if waiting is None:
                self.set_field("debts", tuple(d for d in self.ext.debts if d != card))
                return
            queued = list(self.ext.queued)
            queued.remove(waiting)
            self.set_field("queued", tuple(queued))
            _, creditor, amount, pot = waiting
            self.emit(DebtChanged(card, 0, amount, None, creditor))
            if pot:
                self.set_field("pot_debts", (*self.ext.pot_debts, card))
            self.settle(card)

    def owner(self, card: int, number: int, level: int) -> None:
        prop = self.state.prop(number)
        self.emit(PropertyChanged(number, prop.owner, card, prop.level, level))

    def level(self, number: int, level: int | None) -> None:
        prop = self.state.prop(number)
        self.emit(PropertyChanged(number, prop.owner, prop.owner, prop.level, level))

    def decision(self, outcome: o.ClassicOutcome) -> Decision:
        return Decision(tuple(self.events), outcome, self.state)


class ClassicRulesEngine:
    """Decides the classic game's commands for one edition."""

    name = "classic"

    def __init__(self, edition: Edition, config: ClassicConfig | None = None) -> None:
        self.edition = edition
        self.ed: ClassicEdition = classic_edition(edition)
        self.config: ClassicConfig = config or ClassicConfig()
        #: where a new game's dice seed comes from when ``classic.dice_seed`` is not set: 0 (a
        #: tap script, a test), or the operating system's randomness where the bank runs for
        #: players (the daemon sets it: READINGS D1, :class:`bank.ruleset.DrawsSeeds`)
        self.seed_source: Callable[[], int] = lambda: 0

    # ------------------------------------------------------------------ the seam

    def settings(self, state: GameState) -> ClassicConfig:
        """The configuration recorded with the game (the configured one before it starts)."""
        recorded = classic(state).config
        if not recorded:
            return self.config
        return ClassicConfig.from_recorded(recorded, self.config)

    #: a transaction that opened a debt may be undone while nothing was done about the debt
    #: yet (a wrong amount typed must never leave bankruptcy as the only way out); the debt
    #: goes with it
    undo_opens_debt = True

    def joins_undo_group(self, command: Command) -> bool:
        return isinstance(command, c.AnswerInterest) or bool(getattr(command, "for_debt", False))

    def undo_after_settled_debt(self) -> bool:
        return self.config.undo_settled_debt_whole

    def auction_terms(self) -> tuple[int, float]:
        step = self.config.classic.auction_step or self.ed.auction_step
        return step, self.config.auction_seconds

    def check_bid(self, state: GameState, card: int, price: int) -> None:
        cfg = self.settings(state)
        player = state.player(card)
        if player is None or player.bankrupt:
            raise RuleError(f"bank card {card} is not in this game", "card not in game")
        if cfg.classic.bids_within_cash:
            can_pay_bid(state, card, price)
        self._first_lap(state, cfg, card)

    def game_meta(self, state: GameState) -> dict[str, Any]:
        """What the journal's game list says of a new game besides its edition and players:
        the dice seed (``ultibank history`` shows it, READINGS D1)."""
        return {"seed": classic(state).seed}

    def refuse_undo(self, state: GameState) -> None:
        """Undo waits while an interest question is open (§3.16)."""
        if classic(state).interest_due:
            raise UndoRefused("answer the interest question first", "interest first")

    # ------------------------------------------------------------------ helpers

    def hotel_after(self, cfg: ClassicConfig) -> int:
        """Houses a lot needs before a hotel (3 in the fast game)."""
        return 3 if cfg.variants.fast_game else self.ed.houses_per_hotel

    def steps(self, level: int | None, cfg: ClassicConfig) -> int:
        """A lot's building steps: its houses, a hotel one above the most houses (§2.5), a
        Méga skyscraper one above the hotel."""
        if not level:
            return 0
        if level == mega.SKYSCRAPER:
            return self.hotel_after(cfg) + 2
        return self.hotel_after(cfg) + 1 if level == HOTEL else level

    def building_value(self, state: GameState, number: int, cfg: ClassicConfig) -> int:
        """What the buildings on deed *number* cost (§3.14; Méga: E10 and the depot)."""
        if self.ed.mega:
            return mega.building_value(self, state, number, cfg)
        return self.steps(state.prop(number).level, cfg) * self.ed.deed(number).house

    def check_player(self, state: GameState, card: int) -> Any:
        """*card*'s player, refused when not playing (another module's handlers)."""
        return self._player(state, card)

    def _player(self, state: GameState, card: int) -> Any:
        p = state.player(card)
        if p is None or p.bankrupt:
            reason = "eliminated" if p is not None else "card not in game"
            raise RuleError(f"bank card {card} is not playing in this game", reason)
        return p

    def _deed(self, number: int) -> Any:
        if not 1 <= number <= len(self.ed.deeds):
            raise RuleError(f"there is no deed {number}", "no such property")
        return self.ed.deed(number)

    def _first_lap(self, state: GameState, cfg: ClassicConfig, card: int) -> None:
        if cfg.variants.no_buy_first_lap and card not in classic(state).passed_go:
            raise RuleError(f"player {card} has not passed GO yet", "first lap")

    def rent(self, state: GameState, number: int, dice: int | None, cfg: ClassicConfig) -> int:
        """The rent deed *number* charges now (§3.3); a utility needs *dice*."""
        deed = self.ed.deed(number)
        prop = state.prop(number)
        ext = classic(state)
        owner = prop.owner
        if owner is None or number in ext.mortgaged:
            return 0
        owned = [n for n in self.ed.group(deed.group) if state.prop(n).owner == owner]
        if deed.kind == "station":
            if self.ed.mega:
                return mega.station_rent(state, deed, len(owned))
            return deed.rents[len(owned) - 1]
        if deed.kind == "utility":
            assert dice is not None
            if self.ed.mega:
                return mega.utility_multiplier(deed, len(owned), cfg) * dice
            return deed.rents[len(owned) - 1] * dice
        if prop.level:
            return deed.rents[prop.level]
        if self.ed.mega:
            return mega.street_rent(state, self.ed, number, owner, cfg)
        group = self.ed.group(deed.group)
        double = cfg.classic.double_rent_with_mortgaged_lot
        if double is None:
            double = self.ed.double_rent_with_mortgaged_lot
        whole = len(owned) == len(group)
        if whole and (double or not any(n in ext.mortgaged for n in group)):
            return deed.rents[0] * 2
        return deed.rents[0]

    def owed(self, state: GameState, card: int) -> int:
        """All that *card* owes: the debt being settled and those waiting behind it (C22)."""
        p = state.player(card)
        waiting = sum(q[2] for q in classic(state).queued if q[0] == card)
        return (p.debt if p is not None else 0) + waiting

    def liquidation(self, state: GameState, card: int, cfg: ClassicConfig) -> int:
        """What selling every building and mortgaging every deed would raise (§3.12)."""
        ext = classic(state)
        total = 0
        for number in state.owned_by(card):
            deed = self.ed.deed(number)
            total += self.building_value(state, number, cfg) // 2
            if number not in ext.mortgaged:
                total += deed.mortgage
        return total

    def worth(self, state: GameState, card: int, cfg: ClassicConfig) -> int:
        """Cash, deeds (mortgaged at half), buildings at cost (§3.14)."""
        p = state.player(card)
        if p is None or p.bankrupt:
            return 0
        ext = classic(state)
        total = p.balance
        for number in state.owned_by(card):
            deed = self.ed.deed(number)
            total += deed.price // 2 if number in ext.mortgaged else deed.price
            total += self.building_value(state, number, cfg)
        return total

    def player_worth(self, state: GameState, card: int) -> int:
        """:meth:`worth` under the configuration recorded with the game (the chart, the web)."""
        return self.worth(state, card, self.settings(state))

    def _gate(self, state: GameState, command: Command) -> None:
        """What an open interest question or debt still lets through."""
        ext = classic(state)
        if ext.interest_due and not isinstance(command, c.AnswerInterest):
            raise RuleError("answer the interest question first", "interest first")
        debtor = ext.debts[0] if ext.debts else None
        for_debt = bool(getattr(command, "for_debt", False))
        if debtor is None:
            if for_debt:
                raise RuleError("there is no debt to settle", "no debt")
            if isinstance(command, c.DeclareBankruptcy):
                raise RuleError("bankruptcy is declared during a debt", "no debt")
            return
        if isinstance(command, (c.AnswerInterest, c.DeclareBankruptcy)):
            return
        if isinstance(command, (c.SellBuilding, c.Mortgage, c.Trade)) and for_debt:
            parties = (
                (command.first, command.second) if isinstance(command, c.Trade) else (command.card,)
            )
            if debtor in parties:
                return
        raise InDebt(f"player {debtor} must settle a debt first", "settle the debt")

    # ------------------------------------------------------------------ decide

    def decide(self, state: GameState, command: Command) -> Decision:
        if isinstance(command, NewGame):
            return self._new_game(state, command)
        if not state.started:
            raise RuleError("no game in progress", "no game")
        if state.game_over:
            raise GameOver("the game is over", "game over")
        self._gate(state, command)
        cfg = self.settings(state)
        tx = _Tx(state)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"the classic game has no {command.name}", "unknown action")
        return handler(self, tx, cfg, command)

    def _new_game(self, state: GameState, cmd: NewGame) -> Decision:
        if state.started:
            raise RuleError("a game is already in progress", "game on")
        ed = self.ed
        k = self.edition.constants
        if len(set(cmd.cards)) != len(cmd.cards):
            raise RuleError("a bank card was given twice", "card twice")
        if not k.min_players <= len(cmd.cards) <= k.max_players:
            raise RuleError(
                f"{k.min_players} to {k.max_players} players",
                "players range",
                lo=k.min_players,
                hi=k.max_players,
            )
        for card in cmd.cards:
            if not 1 <= card <= k.max_players:
                raise RuleError(f"there is no bank card {card}", "card not in game")
        tx = _Tx(state)
        for card in sorted(cmd.cards):
            tx.emit(PlayerJoined(card, k.tokens[card - 1], ed.start_balance))
        cfg = self.config
        if cfg.classic.double_rent_with_mortgaged_lot is None or cfg.classic.auction_step is None:
            own = replace(
                cfg.classic,
                double_rent_with_mortgaged_lot=ed.double_rent_with_mortgaged_lot
                if cfg.classic.double_rent_with_mortgaged_lot is None
                else cfg.classic.double_rent_with_mortgaged_lot,
                auction_step=cfg.classic.auction_step or ed.auction_step,
            )
            cfg = replace(cfg, classic=own)
        if cfg.classic.dice_seed is None:  # drawn now, and recorded with the game (D1)
            cfg = replace(cfg, classic=replace(cfg.classic, dice_seed=self.seed_source()))
        cfg = force.with_faces(cfg, ed)
        seed = cfg.classic.dice_seed
        assert seed is not None
        tx.set_field("config", cfg.recorded())
        tx.set_field("seed", seed)
        if cfg.variants.virtual_decks and ed.card_table:  # shuffled once per game (D2)
            tx.set_field("decks", tuple((d, self.deck_order(seed, d)) for d in DECKS))
        tx.set_field("houses", ed.houses)
        tx.set_field("hotels", ed.hotels)
        tx.set_field("skyscrapers", ed.skyscrapers)
        tx.set_field("depot_stock", ed.depots)
        tx.set_field(
            "pot", cfg.variants.free_parking_seed if cfg.variants.free_parking != "off" else 0
        )
        return tx.decision(o.Started(None, ed.start_balance))

    # ---- landing, purchase, rent, auctions

    def _land(self, tx: _Tx, cfg: ClassicConfig, cmd: Land) -> Decision:
        return self._visit(tx, cfg, c.Visit(cmd.card, cmd.number))

    def _visit(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Visit, by_card: bool = False) -> Decision:
        self._player(tx.state, cmd.card)
        return tx.decision(self._landing(tx, cfg, cmd.card, cmd.number, cmd.dice, by_card))

    def _landing(
        self, tx: _Tx, cfg: ClassicConfig, card: int, number: int, dice: int | None, by_card: bool
    ) -> o.ClassicOutcome:
        """The landing of *card* on deed *number*: purchase, rent or nothing (§3.2, §3.3)."""
        deed = self._deed(number)
        state = tx.state
        prop = state.prop(number)
        ext = classic(state)
        player = state.player(card)
        assert player is not None
        if prop.owner is None:
            if by_card and cfg.variants.no_buy_first_lap and card not in ext.passed_go:
                # the card is applied; the deed stays unbought, to auction (READINGS E20)
                return o.Short(card, deed.price, number, "first lap")
            self._first_lap(state, cfg, card)
            if player.balance < deed.price:
                if by_card:
                    return o.Short(card, deed.price, number)
                raise NotEnoughMoney(
                    f"player {card} cannot pay {deed.price}", "not enough money", price=deed.price
                )
            tx.move(card, None, deed.price, "purchase")
            tx.owner(card, number, 0)
            group = self.ed.group(deed.group)
            whole = all(tx.state.prop(n).owner == card for n in group)
            return o.Bought(card, deed.price, number, whole)
        if prop.owner == card:
            return o.Own(card, 0, number)
        owner = state.player(prop.owner)
        assert owner is not None
        if number in ext.mortgaged:
            return o.NoRent(card, 0, number, "mortgaged")
        if owner.jailed and cfg.variants.jailed_owner_no_rent:
            return o.NoRent(card, 0, number, "owner in jail")
        if not by_card:
            self._claim_window(ext, cfg, card)
        if deed.kind == "utility" and dice is None:
            last = ext.last_roll
            if last is None or last[0] != card:
                raise RuleError("the dice total is needed for a utility", "dice total needed")
            dice = last[1] + last[2]
        if dice is not None and not 2 <= dice <= 12:
            raise RuleError(f"a dice total runs 2..12, not {dice}", "dice total", value=dice)
        rent = self.rent(state, number, dice, cfg)
        owed = tx.must_pay(card, prop.owner, rent, "rent")
        return o.RentPaid(card, rent, number, prop.owner, owed)

    def _claim_window(self, ext: ClassicState, cfg: ClassicConfig, card: int) -> None:
        """§3.4: refuse a claim the unit's own rolls show to be too late."""
        limit = {"second_roll": 2, "next_roll": 1}.get(cfg.classic.rent_claim_deadline)
        if limit is None or cfg.variants.auto_rent or card not in ext.rollers:
            return
        last = len(ext.rollers) - 1 - ext.rollers[::-1].index(card)
        others = {r for r in ext.rollers[last + 1 :] if r is not None and r != card}
        if len(others) >= limit:
            raise RuleError("the rent was claimed too late", "too late")

    def _auction_sale(self, tx: _Tx, cfg: ClassicConfig, cmd: AuctionSale) -> Decision:
        if not cfg.variants.auction_unbought and not isinstance(cmd, c.SeriesSale):
            raise RuleError("an unbought deed stays unowned in this game", "no auctions")
        self._player(tx.state, cmd.card)
        self._deed(cmd.number)
        if tx.state.prop(cmd.number).owner is not None:
            raise RuleError(f"deed {cmd.number} is owned", "already owned")
        if cmd.price <= 0:
            raise RuleError("no bid was made", "no bid")
        self._first_lap(tx.state, cfg, cmd.card)
        if cfg.classic.bids_within_cash:
            if tx.balance(cmd.card) < cmd.price:
                raise NotEnoughMoney(
                    f"player {cmd.card} cannot pay {cmd.price}", "not enough money"
                )
            tx.move(cmd.card, None, cmd.price, "auction")
        else:
            tx.must_pay(cmd.card, None, cmd.price, "auction")
        tx.owner(cmd.card, cmd.number, 0)
        return tx.decision(o.AuctionWon(cmd.card, cmd.price, cmd.number))

    # ---- GO, jail, taxes, the pot, the bank

    def _salary(self, tx: _Tx, card: int, double: bool) -> int:
        amount = self.ed.go_salary * (2 if double else 1)
        tx.move(None, card, amount, "go")
        if card not in tx.ext.passed_go:
            tx.set_field("passed_go", tuple(sorted((*tx.ext.passed_go, card))))
        return amount

    def _pass_go(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PassGo) -> Decision:
        self._player(tx.state, cmd.card)
        amount = self._salary(tx, cmd.card, cmd.exact and cfg.variants.double_go)
        return tx.decision(o.Salary(cmd.card, amount))

    def _jail(self, tx: _Tx, card: int) -> None:
        tx.emit(JailChanged(card, True))
        tx.set_field("jail_tries", tuple(t for t in tx.ext.jail_tries if t[0] != card))

    def _free(self, tx: _Tx, card: int) -> None:
        tx.emit(JailChanged(card, False))
        tx.set_field("jail_tries", tuple(t for t in tx.ext.jail_tries if t[0] != card))

    def _go_to_jail(self, tx: _Tx, cfg: ClassicConfig, cmd: c.GoToJail) -> Decision:
        p = self._player(tx.state, cmd.card)
        if p.jailed:
            raise RuleError(f"player {cmd.card} is already in jail", "already in jail")
        self._jail(tx, cmd.card)
        return tx.decision(o.Jailed(cmd.card, 0))

    def _fines_to_pot(self, cfg: ClassicConfig) -> bool:
        return cfg.variants.free_parking == "taxes_and_fines"

    def _leave_jail(self, tx: _Tx, cfg: ClassicConfig, cmd: c.LeaveJail) -> Decision:
        p = self._player(tx.state, cmd.card)
        if not p.jailed:
            raise RuleError(f"player {cmd.card} is not in jail", "not in jail")
        amount = 0
        if cmd.how == "fee":
            amount = self.ed.jail_fee
            if p.balance < amount:
                raise NotEnoughMoney(f"player {cmd.card} cannot pay {amount}", "not enough money")
            tx.move(cmd.card, None, amount, "jail")
            if self._fines_to_pot(cfg):
                tx.to_pot(amount)
        elif cmd.how == "card":
            held = tx.ext.cards_of(cmd.card)
            deck = cmd.deck or (held[0] if held else None)
            if deck is None or deck not in held:
                raise RuleError(f"player {cmd.card} holds no jail card", "no jail card")
            self._drop_jail_card(tx, cmd.card, deck)
            self._deck_under(tx, deck)  # used: under its deck (§3.6)
        elif cmd.how != "double":
            raise RuleError(f"no way out of jail called {cmd.how!r}", "unknown action")
        self._free(tx, cmd.card)
        return tx.decision(o.LeftJail(cmd.card, amount, cmd.how))

    def jail_card_number(self, deck: str) -> int | None:
        """The number of *deck*'s "Get out of jail free" card in the edition's table."""
        return next(
            (n for (d, n), e in self.ed.cards.items() if d == deck and e.effect == "jail_card"),
            None,
        )

    def _deck_out(self, tx: _Tx, deck: str, number: int) -> None:
        """A jail card now held leaves its virtual deck (nothing without virtual decks)."""
        if number in tx.ext.deck(deck):
            tx.emit(DeckOut(deck, number))

    def _deck_under(self, tx: _Tx, deck: str) -> None:
        """A jail card used or given back goes under its virtual deck (§3.6, §3.13)."""
        number = self.jail_card_number(deck)
        if tx.ext.deck(deck) and number is not None:
            tx.emit(DeckUnder(deck, number))

    def _drop_jail_card(self, tx: _Tx, card: int, deck: str) -> None:
        cards = list(tx.ext.jail_cards)
        cards.remove((card, deck))
        tx.set_field("jail_cards", tuple(cards))

    def _tax(self, tx: _Tx, cfg: ClassicConfig, card: int, position: int) -> int:
        try:
            tax = self.ed.tax_at(position)
        except KeyError:
            raise RuleError(f"there is no tax at {position}", "no such tax") from None
        tx.must_pay(card, None, tax.amount, "tax", pot=cfg.variants.free_parking != "off")
        return tax.amount

    def _pay_tax(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PayTax) -> Decision:
        self._player(tx.state, cmd.card)
        amount = self._tax(tx, cfg, cmd.card, cmd.position)
        return tx.decision(o.TaxPaid(cmd.card, amount, cmd.position))

    def _amount(self, amount: int) -> None:
        if amount <= 0:
            raise RuleError("an amount is required", "amount required")

    def _pay_bank(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PayBank) -> Decision:
        self._player(tx.state, cmd.card)
        self._amount(cmd.amount)
        tx.must_pay(cmd.card, None, cmd.amount, "fine", pot=self._fines_to_pot(cfg))
        return tx.decision(o.PaidBank(cmd.card, cmd.amount))

    def _receive_bank(self, tx: _Tx, cfg: ClassicConfig, cmd: c.ReceiveBank) -> Decision:
        self._player(tx.state, cmd.card)
        self._amount(cmd.amount)
        tx.move(None, cmd.card, cmd.amount, "bank")
        return tx.decision(o.Received(cmd.card, cmd.amount))

    def _collect_pot(self, tx: _Tx, cfg: ClassicConfig, cmd: c.CollectPot) -> Decision:
        self._player(tx.state, cmd.card)
        if cfg.variants.free_parking == "off":
            raise RuleError("Free Parking pays nothing in this game", "no pot")
        pot = tx.ext.pot
        tx.move(None, cmd.card, pot, "pot")
        tx.set_field("pot", cfg.variants.free_parking_seed)
        return tx.decision(o.PotCollected(cmd.card, pot))

    # ---- buildings and mortgages

    def _street_of(self, state: GameState, card: int, number: int) -> Any:
        deed = self._deed(number)
        if state.prop(number).owner != card:
            raise RuleError(f"player {card} does not own deed {number}", "not your property")
        return deed

    def _build(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Build) -> Decision:
        state = tx.state
        self._player(state, cmd.card)
        deed = self._street_of(state, cmd.card, cmd.number)
        if self.ed.mega:
            return mega.build(self, tx, cfg, cmd.card, cmd.number)
        if deed.kind != "street":
            raise RuleError(f"a {deed.kind} takes no houses", "no houses here")
        group = self.ed.group(deed.group)
        if any(state.prop(n).owner != cmd.card for n in group):
            raise RuleError("the whole group is needed to build", "group incomplete")
        ext = classic(state)
        if any(n in ext.mortgaged for n in group):
            raise RuleError("a lot of the group is mortgaged", "group mortgaged")
        level = state.prop(cmd.number).level or 0
        if level == HOTEL:
            raise RuleError("this lot has a hotel", "hotel already")
        mine = self.steps(level, cfg)
        if any(self.steps(state.prop(n).level, cfg) < mine for n in group):
            raise RuleError("build evenly: another lot has fewer buildings", "build evenly")
        return self.build_house_or_hotel(tx, cfg, cmd.card, cmd.number, level)

    def build_house_or_hotel(
        self, tx: _Tx, cfg: ClassicConfig, card: int, number: int, level: int
    ) -> Decision:
        """The next house (or the hotel) on lot *number*, once the group rules allow it."""
        deed = self.ed.deed(number)
        ext = tx.ext
        hotel = self.steps(level, cfg) == self.hotel_after(cfg)
        stock = cfg.classic.building_stock
        if stock and hotel and ext.hotels < 1:
            raise RuleError("the bank has no hotel left", "no hotel left")
        if stock and not hotel and ext.houses < 1:
            raise RuleError("the bank has no house left", "no house left")
        if tx.balance(card) < deed.house:
            raise NotEnoughMoney(f"player {card} cannot pay {deed.house}", "not enough money")
        tx.move(card, None, deed.house, "building")
        if hotel:
            tx.set_field("hotels", ext.hotels - 1)
            tx.set_field("houses", ext.houses + level)
            tx.level(number, HOTEL)
        else:
            tx.set_field("houses", ext.houses - 1)
            tx.level(number, level + 1)
        return tx.decision(o.Built(card, deed.house, number, hotel))

    def _sell(self, tx: _Tx, cfg: ClassicConfig, cmd: c.SellBuilding) -> Decision:
        state = tx.state
        self._player(state, cmd.card)
        deed = self._street_of(state, cmd.card, cmd.number)
        if deed.kind == "station" and self.ed.mega and not cmd.whole_group:
            return mega.sell_depot(tx, cfg, cmd.card, cmd.number)
        level = state.prop(cmd.number).level or 0
        if not level:
            raise RuleError("no building on this lot", "no building")
        ext = classic(state)
        group = [n for n in self.ed.group(deed.group) if state.prop(n).owner == cmd.card]
        half = deed.house // 2
        if cmd.whole_group:
            refund = 0
            for n in group:
                refund += self.building_value(tx.state, n, cfg) // 2
                self._return_buildings(tx, n)
            tx.move(None, cmd.card, refund, "building sold")
            return tx.decision(o.BuildingSold(cmd.card, refund, cmd.number, True))
        mine = self.steps(level, cfg)
        if any(self.steps(state.prop(n).level, cfg) > mine for n in group):
            raise RuleError("sell evenly: another lot has more buildings", "sell evenly")
        if level == mega.SKYSCRAPER:
            return mega.sell_skyscraper(tx, deed, cfg, cmd.card, cmd.number)
        if level == HOTEL:
            houses = self.hotel_after(cfg)
            if cfg.classic.building_stock and ext.houses < houses:
                raise RuleError("the bank lacks the houses: sell the whole group", "sell group")
            tx.set_field("hotels", ext.hotels + 1)
            tx.set_field("houses", ext.houses - houses)
            tx.level(cmd.number, houses)
        else:
            tx.set_field("houses", ext.houses + 1)
            tx.level(cmd.number, level - 1)
        tx.move(None, cmd.card, half, "building sold")
        return tx.decision(o.BuildingSold(cmd.card, half, cmd.number, False))

    def _return_buildings(self, tx: _Tx, number: int) -> None:
        """Every building on lot *number* back to the bank's stock (a sale of the whole
        group, a bankruptcy): the lot is left bare."""
        lot = tx.state.prop(number).level or 0
        if lot == mega.SKYSCRAPER:
            tx.set_field("skyscrapers", tx.ext.skyscrapers + 1)
        elif lot == HOTEL:
            tx.set_field("hotels", tx.ext.hotels + 1)
        elif lot:
            tx.set_field("houses", tx.ext.houses + lot)
        if lot:
            tx.level(number, 0)
        if number in tx.ext.depots:
            tx.set_field("depots", tuple(n for n in tx.ext.depots if n != number))
            tx.set_field("depot_stock", tx.ext.depot_stock + 1)

    def _mortgage(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Mortgage) -> Decision:
        state = tx.state
        self._player(state, cmd.card)
        deed = self._street_of(state, cmd.card, cmd.number)
        ext = classic(state)
        if cmd.number in ext.mortgaged:
            if cmd.for_debt:
                raise RuleError("lifting a mortgage raises no money", "settle the debt")
            cost = deed.mortgage + interest(deed.mortgage, cfg.classic.interest_rounding)
            if tx.balance(cmd.card) < cost:
                raise NotEnoughMoney(f"player {cmd.card} cannot pay {cost}", "not enough money")
            tx.move(cmd.card, None, cost, "lift")
            tx.set_field("mortgaged", tuple(n for n in ext.mortgaged if n != cmd.number))
            return tx.decision(o.Lifted(cmd.card, cost, cmd.number))
        if self.ed.mega:
            blocked = mega.mortgage_blocked(state, self.ed, deed, cmd.card)
            if blocked:
                raise RuleError("buildings stand on the group or its depot", blocked)
        elif any(state.prop(n).level for n in self.ed.group(deed.group)):
            raise RuleError("a lot of the group carries buildings", "buildings on group")
        tx.set_field("mortgaged", tuple(sorted((*ext.mortgaged, cmd.number))))
        tx.move(None, cmd.card, deed.mortgage, "mortgage")
        return tx.decision(o.Mortgaged(cmd.card, deed.mortgage, cmd.number))

    # ---- trades and the interest question

    def _trade(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Trade) -> Decision:
        state = tx.state
        a, b = cmd.first, cmd.second
        self._player(state, a)
        self._player(state, b)
        if a == b:
            raise RuleError("a trade needs two players", "same player")
        if not (
            cmd.deeds_first or cmd.deeds_second or cmd.cash or cmd.cards_first or cmd.cards_second
        ):
            raise RuleError("the offer is empty", "empty trade")
        given = (*cmd.deeds_first, *cmd.deeds_second)
        if len(set(given)) != len(given):
            raise RuleError("a deed appears twice", "deed twice")
        for giver, deeds in ((a, cmd.deeds_first), (b, cmd.deeds_second)):
            for n in deeds:
                deed = self._street_of(state, giver, n)
                if any(state.prop(m).level for m in self.ed.group(deed.group)):
                    raise RuleError("a deed of a group with buildings", "buildings on group")
                if n in classic(state).depots:  # E9: a station carrying its depot
                    raise RuleError("a station with its depot", "depot on station")
        ext = classic(state)
        for giver, decks in ((a, cmd.cards_first), (b, cmd.cards_second)):
            held = list(ext.cards_of(giver))
            for deck in decks:
                if deck not in held:
                    raise RuleError(f"player {giver} has no {deck} jail card", "no jail card")
                held.remove(deck)
        if cmd.cash < 0 or (cmd.cash and cmd.cash_from not in (a, b)):
            raise RuleError("the cash needs its payer", "cash payer")
        if cmd.cash and tx.balance(cmd.cash_from or a) < cmd.cash:
            raise NotEnoughMoney("the payer has not the cash", "not enough money")
        for taker, deeds in ((b, cmd.deeds_first), (a, cmd.deeds_second)):
            for n in deeds:
                tx.owner(taker, n, 0)
        for giver, taker, decks in ((a, b, cmd.cards_first), (b, a, cmd.cards_second)):
            for deck in decks:
                self._drop_jail_card(tx, giver, deck)
                tx.set_field("jail_cards", (*tx.ext.jail_cards, (taker, deck)))
        if cmd.cash:
            payer = cmd.cash_from or a
            tx.move(payer, b if payer == a else a, cmd.cash, "trade")
        received = sorted(n for n in given if n in ext.mortgaged)
        if received:
            tx.set_field("interest_due", (*tx.ext.interest_due, *received))
        return tx.decision(o.Traded(a, cmd.cash, b, tuple(received)))

    def _interest(self, tx: _Tx, cfg: ClassicConfig, cmd: c.AnswerInterest) -> Decision:
        ext = tx.ext
        if not ext.interest_due or ext.interest_due[0] != cmd.number:
            raise RuleError(f"deed {cmd.number} has no interest question now", "no question")
        owner = tx.state.prop(cmd.number).owner
        assert owner is not None
        deed = self.ed.deed(cmd.number)
        amount = interest(deed.mortgage, cfg.classic.interest_rounding)
        if not cmd.lift and self.ed.mega and mega.must_lift(tx.state, self.ed, cmd.number, owner):
            raise RuleError("buildings on the group: the mortgage must be lifted", "must lift")
        tx.set_field("interest_due", ext.interest_due[1:])
        if cmd.lift:
            amount += deed.mortgage
            tx.set_field("mortgaged", tuple(n for n in ext.mortgaged if n != cmd.number))
        tx.must_pay(owner, None, amount, "interest")
        return tx.decision(o.InterestAnswered(owner, amount, cmd.number, cmd.lift))

    # ---- the unit's dice

    def third_faces(self, cfg: ClassicConfig) -> tuple[str, ...]:
        """The faces of the unit's third die in this game (empty: two dice only)."""
        if self.ed.mega and not cfg.mega.speed_die:
            return ()
        return force.die_faces(cfg, self.ed)

    def _third(self, state: GameState, cfg: ClassicConfig, cmd: c.RollDice, k: int) -> str | None:
        """The third die of roll *k*: the fixed face, else drawn (READINGS D1, die 2); None
        without one, for a ``lancer`` pick, and for a jailed roller where the edition rolls
        only the white dice in jail (E1: a fixed face is then dropped)."""
        faces = self.third_faces(cfg)
        if not faces or cmd.pick:
            return None
        player = state.player(cmd.card) if cmd.card is not None else None
        if player is not None and player.jailed and not self.ed.third_die_in_jail:
            return None
        if cmd.third is not None:
            if cmd.third not in faces:
                raise RuleError(f"the third die has no face {cmd.third!r}", "bad roll")
            return cmd.third
        return faces[die(classic(state).seed, k, 2) - 1]

    def _roll(self, tx: _Tx, cfg: ClassicConfig, cmd: c.RollDice) -> Decision:
        ext = tx.ext
        if cmd.card is not None:
            self._player(tx.state, cmd.card)
        k = ext.rolls + 1
        if cmd.fixed:
            if len(cmd.fixed) != 2 or not all(1 <= d <= 6 for d in cmd.fixed):
                raise RuleError("a roll is two dice of 1..6", "bad roll")
            d1, d2 = cmd.fixed
        else:
            d1, d2 = die(ext.seed, k, 0), die(ext.seed, k, 1)
        third = self._third(tx.state, cfg, cmd, k)
        number = int(third) if third is not None and third.isdigit() else 0
        tx.emit(push_roller(ext.rollers, cmd.card))  # the roll counted (k), its roller kept
        card = cmd.card
        # §7.2: a triple (the speed die's number on a double) is not a double (E2)
        triple = d1 == d2 == number
        double = d1 == d2 and not triple
        doubles = 0
        effect = ""
        if card is None:
            pass
        elif cmd.pick:
            tx.set_field("row", None)
        else:
            player = tx.state.player(card)
            assert player is not None
            if player.jailed:
                tx.set_field("row", None)
                if double:
                    self._free(tx, card)
                    effect = "freed"
                else:
                    tries = ext.tries(card) + 1
                    if tries >= self.ed.jail_tries:
                        self._free(tx, card)
                        tx.must_pay(card, None, self.ed.jail_fee, "jail", self._fines_to_pot(cfg))
                        effect = "fee"
                    else:
                        others = tuple(t for t in ext.jail_tries if t[0] != card)
                        tx.set_field("jail_tries", (*others, (card, tries)))
                        effect = f"try {tries}"
            else:
                row = ext.row
                doubles = (row[1] + 1 if row and row[0] == card else 1) if double else 0
                if doubles >= 3:
                    self._jail(tx, card)
                    tx.set_field("row", None)
                    effect = "three doubles"
                else:
                    tx.set_field("row", (card, doubles) if doubles else None)
        if triple and not effect:
            effect = "triple"
        tx.set_field("last_roll", (card, d1, d2, doubles))
        tx.set_field("third", third)
        return tx.decision(o.Rolled(card, d1 + d2 + number, (d1, d2), doubles, effect, third))

    # ---- Chance and Community Chest (§4)

    def _play_card(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PlayCard) -> Decision:
        self._player(tx.state, cmd.card)
        card = self.ed.cards.get((cmd.deck, cmd.number))
        if card is None:
            raise RuleError(f"no {cmd.deck} card {cmd.number} in this edition", "unknown card")
        effect, args = card.effect, dict(card.args)
        if cmd.deck == "chest" and cmd.number == 14 and cfg.classic.chest14 == "nearest_station":
            effect = "nearest_station"
        spaces = self.ed.spaces(cmd.deck.upper())
        drawer = cmd.card
        fine = self._fines_to_pot(cfg)
        amount = 0
        landing: o.ClassicOutcome | None = None
        draw: str | None = None
        if effect == "advance":
            dest = self.ed.deed(args["deed"]).position
            if args["salary"]:
                self._maybe_salary(tx, cfg, drawer, [dest < s for s in spaces], cmd.passed_go)
            landing = self._landing(tx, cfg, drawer, args["deed"], None, by_card=True)
        elif effect == "go":
            double = cfg.variants.double_go and cfg.variants.double_go_cards
            amount = self._salary(tx, drawer, double)
        elif effect in ("back", "nearest_station"):
            if effect == "back":
                targets = [(s - args["spaces"]) % len(self.ed.ring) for s in spaces]
            else:
                stations = sorted(self.ed.deed(n).position for n in self.ed.of_kind("station"))
                targets = [next((p for p in stations if p > s), stations[0]) for s in spaces]
            if cmd.choice is None or not 0 <= cmd.choice < len(targets):
                raise RuleError("choose where the token went", "choose", options=len(targets))
            target = targets[cmd.choice]
            space = self.ed.ring[target]
            if space == "TAX":
                amount = self._tax(tx, cfg, drawer, target)
            elif space.startswith("P"):
                landing = self._landing(tx, cfg, drawer, int(space[1:]), None, by_card=True)
            elif space in ("CHANCE", "CHEST"):
                draw = space.lower()
        elif effect == "jail":
            if not tx.state.player(drawer).jailed:  # type: ignore[union-attr]
                self._jail(tx, drawer)
        elif effect == "jail_card":
            if any(deck == cmd.deck for _, deck in tx.ext.jail_cards):
                raise RuleError(f"the {cmd.deck} jail card is held already", "card held")
            tx.set_field("jail_cards", (*tx.ext.jail_cards, (drawer, cmd.deck)))
            self._deck_out(tx, cmd.deck, cmd.number)  # kept: out of the virtual deck (E7)
        elif effect == "repairs":
            amount = self._repairs(tx.state, drawer, args)
            tx.must_pay(drawer, None, amount, "repairs", pot=fine)
        elif effect == "pay":
            amount = args["amount"]
            tx.must_pay(drawer, None, amount, "card", pot=fine)
        elif effect == "receive":
            amount = args["amount"]
            tx.move(None, drawer, amount, "card")
        elif effect == "birthday":
            amount = args["amount"]
            self._from_each(tx, drawer, amount)
        elif effect == "pay_or_draw":
            if cmd.choice not in (0, 1):
                raise RuleError("pay or draw a Chance", "choose", options=2)
            if cmd.choice == 0:
                amount = args["amount"]
                tx.must_pay(drawer, None, amount, "card", pot=fine)
            else:
                draw = "chance"
        if landing is not None:
            amount = landing.amount
        return tx.decision(o.CardPlayed(drawer, amount, cmd.deck, cmd.number, landing, draw))

    def _maybe_salary(
        self, tx: _Tx, cfg: ClassicConfig, card: int, passes: list[bool], answer: bool | None
    ) -> None:
        """GO passed on the way: from the ring when it tells, else the player's answer (§4.1)."""
        if all(passes) or not any(passes):
            passed = all(passes)
        elif answer is None:
            raise RuleError("passed GO on the way?", "passed go?")
        else:
            passed = answer
        if passed:
            self._salary(tx, card, False)

    def _repairs(self, state: GameState, card: int, amounts: dict[str, int]) -> int:
        """So much per house and per hotel; Méga: per skyscraper (default: as a hotel) and
        per depot (default: nothing), §4.6."""
        house, hotel = amounts["house"], amounts["hotel"]
        skyscraper, depot = amounts.get("skyscraper", hotel), amounts.get("depot", 0)
        depots = classic(state).depots
        total = 0
        for n in state.owned_by(card):
            level = state.prop(n).level or 0
            if level == mega.SKYSCRAPER:
                total += skyscraper
            else:
                total += hotel if level == HOTEL else level * house
            total += depot if n in depots else 0
        return total

    def _from_each(self, tx: _Tx, drawer: int, amount: int) -> None:
        for p in tx.state.players:
            if p.card != drawer and not p.bankrupt:
                tx.must_pay(p.card, drawer, amount, "birthday")

    def _generic(self, tx: _Tx, cfg: ClassicConfig, cmd: c.GenericCard) -> Decision:
        """§4.5 G1-G8, offered by editions without a card table (A17)."""
        self._player(tx.state, cmd.card)
        if self.ed.card_table:
            raise RuleError("this edition has its card table", "unknown card")
        effect = GENERIC_EFFECTS.get(cmd.effect)
        if effect is None or effect.moves:
            raise RuleError(f"no generic effect G{cmd.effect} from the menu", "unknown card")
        if len(cmd.amounts) != effect.amounts or any(a <= 0 for a in cmd.amounts):
            raise RuleError("an amount is required", "amount required")
        fine = self._fines_to_pot(cfg)
        drawer = cmd.card
        amount = cmd.amounts[0] if cmd.amounts else 0
        if cmd.effect == 1:
            tx.move(None, drawer, amount, "card")
        elif cmd.effect == 2:
            tx.must_pay(drawer, None, amount, "card", pot=fine)
        elif cmd.effect == 3:
            amounts = {"house": cmd.amounts[0], "hotel": cmd.amounts[1]}
            amount = self._repairs(tx.state, drawer, amounts)
            tx.must_pay(drawer, None, amount, "repairs", pot=fine)
        elif cmd.effect == 4:
            self._from_each(tx, drawer, amount)
        elif cmd.effect == 5:
            for p in tx.state.players:
                if p.card != drawer and not p.bankrupt:
                    tx.must_pay(drawer, p.card, amount, "card")
        elif cmd.effect == 6:
            if not tx.state.player(drawer).jailed:  # type: ignore[union-attr]
                self._jail(tx, drawer)
        elif cmd.effect == 7:
            tx.set_field("jail_cards", (*tx.ext.jail_cards, (drawer, cmd.deck)))
        else:
            amount = self._salary(
                tx, drawer, cfg.variants.double_go and cfg.variants.double_go_cards
            )
        return tx.decision(o.GenericPlayed(drawer, amount, cmd.effect))

    def deck_order(self, seed: int, deck: str) -> tuple[int, ...]:
        """The shuffled order of a virtual deck (docs/readings.md D2)."""
        return tuple(
            sorted(
                range(1, 17),
                key=lambda n: hashlib.sha256(f"{seed}:{deck}:{n}".encode()).digest(),
            )
        )

    def _draw(self, tx: _Tx, cfg: ClassicConfig, cmd: c.DrawCard) -> Decision:
        """The top card of a virtual deck, which goes under it at once (D2, E5); a jail card
        held is out of the deck, so it is never drawn."""
        if not cfg.variants.virtual_decks:
            raise RuleError("the unit has no virtual decks in this game", "no virtual decks")
        order = tx.ext.deck(cmd.deck)
        if cmd.deck not in DECKS or not self.ed.card_table or not order:
            raise RuleError(f"no {cmd.deck} table in this edition", "unknown card")
        tx.emit(DeckDrawn(cmd.deck))
        return tx.decision(o.Drawn(None, 0, cmd.deck, order[0]))

    def _time_up(self, tx: _Tx, cfg: ClassicConfig, cmd: c.TimeUp) -> Decision:
        if not cfg.variants.time_limit_minutes:
            raise RuleError("this game has no time limit", "no time limit")
        self._end(tx, cfg, force=True)
        return tx.decision(o.TimeOver(tx.state.winner, 0))

    # ---- bankruptcy and the end (§3.13, §3.14)

    def _bankruptcy(self, tx: _Tx, cfg: ClassicConfig, cmd: c.DeclareBankruptcy) -> Decision:
        ext = tx.ext
        if not ext.debts or ext.debts[0] != cmd.card:
            raise RuleError(f"player {cmd.card} is not the debtor", "not the debtor")
        debtor = tx.state.player(cmd.card)
        assert debtor is not None
        possible = self.liquidation(tx.state, cmd.card, cfg)
        if possible >= self.owed(tx.state, cmd.card):
            raise RuleError("the debt can still be paid", "can still pay", possible=possible)
        creditor = debtor.creditor
        owned = tx.state.owned_by(cmd.card)
        for n in owned:  # the buildings are sold to the bank at half price
            value = self.building_value(tx.state, n, cfg) // 2
            self._return_buildings(tx, n)
            if value:
                tx.move(None, cmd.card, value, "bankruptcy")
        p = tx.state.player(cmd.card)
        assert p is not None
        if p.balance:  # what is left after the sale went to the debt: the rest of the cash
            tx.move(cmd.card, creditor, p.balance, "bankruptcy")
        tx.emit(DebtChanged(cmd.card, p.debt, 0, p.creditor, None))
        tx.set_field("debts", tuple(d for d in tx.ext.debts if d != cmd.card))
        tx.set_field("pot_debts", tuple(d for d in tx.ext.pot_debts if d != cmd.card))
        # the debts the bankrupt still owed other creditors go unpaid (nothing is left); those
        # owed to the bankrupt go to the bank (A18)
        tx.set_field(
            "queued",
            tuple(
                (q[0], None if q[1] == cmd.card else q[1], q[2], q[3])
                for q in tx.ext.queued
                if q[0] != cmd.card
            ),
        )
        held = tx.ext.cards_of(cmd.card)
        kept = tuple(jc for jc in tx.ext.jail_cards if jc[0] != cmd.card)
        received: list[int] = []
        auction: tuple[int, ...] = ()
        if creditor is not None:
            for n in owned:
                tx.owner(creditor, n, 0)
                if n in ext.mortgaged:
                    received.append(n)
            tx.set_field("jail_cards", (*kept, *((creditor, d) for d in held)))
        else:
            for n in owned:
                prop = tx.state.prop(n)
                tx.emit(PropertyChanged(n, prop.owner, None, prop.level, None))
            tx.set_field("mortgaged", tuple(n for n in tx.ext.mortgaged if n not in owned))
            tx.set_field("jail_cards", kept)
            for deck in held:  # back under their decks (§3.13)
                self._deck_under(tx, deck)
            if cfg.classic.bankrupt_to_bank == "auction":
                auction = tuple(sorted(owned))
        if p.jailed:
            tx.emit(JailChanged(cmd.card, False))
        tx.set_field("jail_tries", tuple(t for t in tx.ext.jail_tries if t[0] != cmd.card))
        for other in tx.state.players:  # debts owed to the bankrupt go to the bank (A18)
            if other.debt and other.creditor == cmd.card:
                tx.emit(DebtChanged(other.card, other.debt, other.debt, cmd.card, None))
        tx.emit(PlayerBankrupt(cmd.card))
        tx.set_field("eliminated", (*tx.ext.eliminated, cmd.card))
        ended = self._end(tx, cfg)
        if received and not ended:
            tx.set_field("interest_due", (*tx.ext.interest_due, *sorted(received)))
        if ended:
            auction = ()
        return tx.decision(o.Bankrupt(cmd.card, debtor.debt, creditor, auction, ended))

    def _end(self, tx: _Tx, cfg: ClassicConfig, force: bool = False) -> bool:
        """End the game when it is over (§3.14): the ranking by worth, then the bankrupt."""
        state = tx.state
        active = [p.card for p in state.players if not p.bankrupt]
        out = tuple(reversed(classic(state).eliminated))
        fast = cfg.variants.fast_game and len(out) >= cfg.variants.fast_game_end_after
        if len(active) > 1 and not fast and not force:
            return False
        ranked = sorted(
            active,
            key=lambda card: (-self.worth(state, card, cfg), -tx.balance(card), card),
        )
        ranking = (*ranked, *out)
        tx.emit(GameEnded(ranking[0], ranking))
        tx.set_field("interest_due", ())
        return True


_HANDLERS: dict[type[Command], Callable[..., Decision]] = {
    Land: ClassicRulesEngine._land,
    c.Visit: ClassicRulesEngine._visit,
    AuctionSale: ClassicRulesEngine._auction_sale,
    c.SeriesSale: ClassicRulesEngine._auction_sale,
    c.PassGo: ClassicRulesEngine._pass_go,
    c.GoToJail: ClassicRulesEngine._go_to_jail,
    c.LeaveJail: ClassicRulesEngine._leave_jail,
    c.PayTax: ClassicRulesEngine._pay_tax,
    c.PayBank: ClassicRulesEngine._pay_bank,
    c.ReceiveBank: ClassicRulesEngine._receive_bank,
    c.CollectPot: ClassicRulesEngine._collect_pot,
    c.Build: ClassicRulesEngine._build,
    c.SellBuilding: ClassicRulesEngine._sell,
    c.Mortgage: ClassicRulesEngine._mortgage,
    c.Trade: ClassicRulesEngine._trade,
    c.AnswerInterest: ClassicRulesEngine._interest,
    c.RollDice: ClassicRulesEngine._roll,
    mega.BirthdayGift: mega.gift,
    c.PlayCard: ClassicRulesEngine._play_card,
    c.GenericCard: ClassicRulesEngine._generic,
    c.DeclareBankruptcy: ClassicRulesEngine._bankruptcy,
    c.DrawCard: ClassicRulesEngine._draw,
    c.TimeUp: ClassicRulesEngine._time_up,
    c.ForceBattle: force.battle,
}
