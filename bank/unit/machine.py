"""The unit's behaviour: a state machine from taps, buttons and ticks to screens and cues.

:class:`Unit` owns the *step in progress* (a property tapped and waiting for a bank card, an
open menu, an auction, an event waiting for its taps); the game owns everything else. Every
confirmed action goes through :meth:`bank.game.Game.execute`, which commits it to the journal
before the unit shows or plays anything about it. Steps that follow from the game state (a
new game to register, a debt to settle, a finished game) are re-derived from that state, so
they survive a power cycle; the other steps are abandoned by it.

Time is an input: every input carries its timestamp, :meth:`Unit.next_deadline` says when the
next timeout falls due (check screen, auction second, 5 s hold) and a :class:`Tick` runs it, so
a virtual clock can jump from deadline to deadline. Buttons act on release; a hold fires at the
tick when it reaches :attr:`UnitConfig.hold_seconds`.

A journal that cannot be written (a full disk, a read-only or failing one) is a *fault*: the
transaction is not confirmed, the error cue plays and every panel shows the fault; the step in
progress is abandoned. Until the journal takes a write again (tried on each tap or press, and
every :data:`FAULT_RETRY` seconds) the unit refuses every tap and press with that fault, then
it recovers by itself. :attr:`Unit.fault` holds the complete message (``ultibank state``).

Imports the engine (game, commands, events, errors, state), :mod:`bank.unit.io`,
:mod:`bank.unit.screens` and :mod:`bank.unit.text`; never pygame, drivers or the disk.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from typing import Final, TypeAlias

from bank.auction import Auction
from bank.commands import (
    Command,
    GiveProperty,
    GoToJail,
    Land,
    LeaveJail,
    NewGame,
    PassGo,
    PayLocation,
    PlayEvent,
    Undo,
)
from bank.config import UnitConfig
from bank.errors import JournalError, JournalFull, NotEnoughMoney, RuleError
from bank.events import (
    DebtChanged,
    GameEnded,
    GroupCompleted,
    JailChanged,
    MoneyMoved,
    PropertyChanged,
)
from bank.game import Game, Transaction
from bank.state import GameState
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Icon,
    Input,
    Output,
    PanelStatus,
    PlayCue,
    ReaderStatus,
    Screen,
    ShowScreen,
    Tick,
)
from bank.unit.screens import Screens
from bank.unit.text import engine_short, language_of, say

__all__ = ["FAULT_RETRY", "Step", "Unit"]

log = logging.getLogger(__name__)

#: seconds between two tries to write the journal again while it fails
FAULT_RETRY: Final = 5.0

#: a safety net: no input can make the unit run more timeouts than this at once
_MAX_TIMEOUTS_PER_INPUT: Final = 100_000
_MENU_ORDER: Final = (Icon.GO, Icon.JAIL, Icon.LOCATION)


# ---------------------------------------------------------------- steps


@dataclass(frozen=True, slots=True)
class Off:
    """Powered off: only a button press does something (it switches the unit on)."""


@dataclass(frozen=True, slots=True)
class Registration:
    """No game: bank cards tapped so far, waiting for more or for ✓."""

    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Idle:
    """Nothing in progress; a check screen (balance) goes back to idle at *revert_at*."""

    revert_at: float | None = None


@dataclass(frozen=True, slots=True)
class Checking:
    """A property tapped: waiting for a bank card (land), M (auction) or X.

    *mover* is set after a Location fee: only that player's card may land.
    """

    number: int
    expires: float | None
    mover: int | None = None


@dataclass(frozen=True, slots=True)
class AuctionOffer:
    """The auction icon over a free property: ✓ starts the countdown."""

    number: int
    expires: float | None
    mover: int | None = None


@dataclass(frozen=True, slots=True)
class Bidding:
    """The countdown runs; *shown* is the number of seconds on the LCD."""

    auction: Auction
    shown: int


@dataclass(frozen=True, slots=True)
class AwaitWinner:
    """The countdown is over after a button bid: the winner taps their bank card."""

    auction: Auction


@dataclass(frozen=True, slots=True)
class Menu:
    icon: Icon
    expires: float


@dataclass(frozen=True, slots=True)
class JailChoice:
    """A jailed player asked: ✓ pay the fee, X leave free after a double."""

    card: int


@dataclass(frozen=True, slots=True)
class LocationDest:
    """The Location fee is paid: waiting for the destination property."""

    card: int


@dataclass(frozen=True, slots=True)
class EventTaps:
    """An event card waiting for its taps (those given so far are valid)."""

    event_id: int
    props: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MoveShort:
    """An event move to a free property the mover cannot pay: M offers the auction."""

    event_id: int
    number: int
    expires: float


@dataclass(frozen=True, slots=True)
class Settling:
    """A player is in debt (from the game state): property taps until it is covered."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The game is over (from the game state): the ranking shows until a reset."""


Step: TypeAlias = (
    Off
    | Registration
    | Idle
    | Checking
    | AuctionOffer
    | Bidding
    | AwaitWinner
    | Menu
    | JailChoice
    | LocationDest
    | EventTaps
    | MoveShort
    | Settling
    | Finished
)


# ---------------------------------------------------------------- the unit


class Unit:
    """The bank unit's behaviour over one :class:`Game`. Starts powered off."""

    def __init__(self, game: Game, config: UnitConfig | None = None) -> None:
        self.game = game
        self.config = config or UnitConfig()
        self.screens = Screens(
            game.edition, language_of(self.config.language, game.edition.language)
        )
        self.step: Step = Off()
        #: the last screen shown by a step or result (what comes back after a lost reader)
        self.screen: Screen = self.screens.off()
        self._now = 0.0
        self._out: list[Output] = []
        self._down: dict[Button, float] = {}
        self._consumed: set[Button] = set()
        self._hold: tuple[str, float] | None = None
        self._lost: set[str] = set()
        #: why the journal cannot take a transaction now (None: it can), complete for logs
        self.fault: str | None = None
        self._fault_retry_at: float | None = None

    # ------------------------------------------------------------ public API

    @property
    def is_on(self) -> bool:
        return not isinstance(self.step, Off)

    @property
    def lang(self) -> str:
        return self.screens.lang

    def power_on(self, at: float, game: Game | None = None) -> list[Output]:
        """Switch on (with *game*, re-opened from the journal, if given) and show the step."""
        self._begin(at)
        if game is not None:
            self.game = game
            self.screens = Screens(game.edition, self.screens.lang)
        self._clear_buttons()
        self.step = Idle()
        self._sync()
        self._show(self._step_screen())
        return self._end()

    def power_off(self, at: float) -> list[Output]:
        """Cut the power: the screen goes dark and a step in progress is abandoned."""
        self._begin(at)
        if self.is_on:
            self.step = Off()
            self._clear_buttons()
            self._show(self.screens.off())
        return self._end()

    def handle(self, inp: Input) -> list[Output]:
        """Feed one input; returns the screens and cues it causes, in order."""
        self._begin(inp.at)
        try:
            self._handle(inp)
        except JournalError as err:
            self._journal_failed(err)
        return self._end()

    def alert(self, title: str, key: str) -> list[Output]:
        """The error cue and a fault screen (message ids *title*, *key*) until the next input."""
        self._play(Cue.ERROR)
        screen = self.screens.fault(say(self.lang, key), title)
        self._out.append(ShowScreen(self._now, screen))
        return self._end()

    def _handle(self, inp: Input) -> None:
        if isinstance(inp, ReaderStatus | PanelStatus):
            self._run_due(self._now)
            self._on_device(inp)
            return
        if not self.is_on:
            if isinstance(inp, ButtonPressed):
                # the press only switches on; its release must not act
                self._out = self.power_on(self._now)
                self._down[inp.button] = self._now
                self._consumed.add(inp.button)
            return
        if self.fault is not None and not self._journal_back(inp):
            return
        self._run_due(self._now)
        self._sync()
        if isinstance(inp, CardTapped):
            self._on_tap(inp.card)
        elif isinstance(inp, ButtonPressed):
            self._on_press(inp.button)
        elif isinstance(inp, ButtonReleased):
            self._on_release(inp.button)
        elif isinstance(inp, CardLifted | Tick):
            pass

    def next_deadline(self) -> float | None:
        """The next time a :class:`Tick` will change something, or None."""
        times = [
            t
            for t in (
                self._hold_deadline(),
                self._step_deadline(),
                self._fault_retry_at if self.is_on else None,
            )
            if t is not None
        ]
        return min(times) if times else None

    # ------------------------------------------------------------ faults

    def _journal_failed(self, err: JournalError) -> None:
        """The journal refused a write: nothing was confirmed; show the fault, abandon the step."""
        if self.fault is None:
            log.error("the unit cannot record transactions: %s", err)
        self.fault = str(err)
        self._fault_retry_at = self._now + FAULT_RETRY
        self._clear_buttons()
        if self.is_on:
            self.step = Idle()
            self._sync()
        self._play(Cue.ERROR)
        key = "fault.full" if isinstance(err, JournalFull) else "fault.journal"
        self._show(self.screens.fault(say(self.lang, key)))

    def _journal_back(self, inp: Input) -> bool:
        """While faulted: try the journal on a tap, a press or the retry tick. True: go on."""
        retry_due = self._fault_retry_at is not None and self._now >= self._fault_retry_at
        if not isinstance(inp, CardTapped | ButtonPressed) and not (
            isinstance(inp, Tick) and retry_due
        ):
            return False  # a release, a lift, an early tick: nothing happens while faulted
        probe = getattr(self.game.journal, "probe", None)
        if probe is not None:
            try:
                probe()
            except JournalError as err:
                if isinstance(inp, Tick):  # still failing: try again later, quietly
                    self.fault = str(err)
                    self._fault_retry_at = self._now + FAULT_RETRY
                else:
                    self._journal_failed(err)
                return False
        log.warning("the journal takes transactions again (was: %s)", self.fault)
        self.fault = None
        self._fault_retry_at = None
        if isinstance(inp, Tick):
            self._sync()
            self._show(self._step_screen())
        return True

    # ------------------------------------------------------------ plumbing

    def _begin(self, at: float) -> None:
        # an input from the past is taken as happening now: time never runs backwards
        self._now = max(self._now, at)
        self._out = []

    def _end(self) -> list[Output]:
        out, self._out = self._out, []
        return out

    def _show(self, screen: Screen) -> None:
        self.screen = screen
        if self._lost and not screen.off:
            screen = replace(screen, icons=screen.icons | {Icon.READER_LOST})
        self._out.append(ShowScreen(self._now, screen))

    def _play(self, cue: Cue) -> None:
        self._out.append(PlayCue(self._now, cue))

    def _refuse(self, key: str, **fields: object) -> None:
        """The error cue and a short reason; the step stays as it was."""
        self._play(Cue.ERROR)
        self._show(self.screens.refused(say(self.lang, key, **fields)))

    def _refuse_rule(self, err: RuleError) -> None:
        self._play(Cue.ERROR)
        self._show(self.screens.refused(engine_short(self.lang, err.short)))

    def _clear_buttons(self) -> None:
        self._down.clear()
        self._consumed.clear()
        self._hold = None

    @property
    def _state(self) -> GameState:
        return self.game.state

    def _sync(self) -> None:
        """Re-derive the steps that live in the game state (registration, debt, game over)."""
        if isinstance(self.step, Off):
            return
        s = self._state
        if not s.started:
            if not isinstance(self.step, Registration):
                self.step = Registration()
        elif s.game_over:
            self.step = Finished()
        elif s.debtor() is not None:
            self.step = Settling()
        elif isinstance(self.step, Registration | Finished | Settling):
            self.step = Idle()

    def _step_screen(self) -> Screen:
        """The screen of the current step when nothing more specific is to be shown."""
        s = self._state
        step = self.step
        if isinstance(step, Off):
            return self.screens.off()
        if isinstance(step, Registration):
            return self.screens.registration(s, step.cards)
        if isinstance(step, Finished):
            return self.screens.game_over(s)
        if isinstance(step, Settling):
            debtor = s.debtor()
            if debtor is not None:
                return self.screens.debt(s, debtor)
        return self.screens.idle()

    def _to_idle(self) -> None:
        self.step = Idle()
        self._show(self.screens.idle())

    # ------------------------------------------------------------ time

    def _hold_deadline(self) -> float | None:
        if self._hold is None or not self.is_on:
            return None
        return self._hold[1] + self.config.hold_seconds

    def _step_deadline(self) -> float | None:
        step = self.step
        if isinstance(step, Idle):
            return step.revert_at
        if isinstance(step, Checking | AuctionOffer):
            return step.expires
        if isinstance(step, Menu | MoveShort):
            return step.expires
        if isinstance(step, Bidding):
            deadline = step.auction.deadline
            return None if deadline is None else deadline - (step.shown - 1)
        return None

    def _run_due(self, at: float) -> None:
        for _ in range(_MAX_TIMEOUTS_PER_INPUT):
            due = self.next_deadline()
            if due is None or due > at:
                return
            self._now = max(self._now, due)
            hold = self._hold_deadline()
            if hold is not None and hold <= due:
                self._fire_hold()
            else:
                self._timeout()
            self._sync()
        raise AssertionError("timeouts did not settle")  # pragma: no cover - a bug if reached

    def _timeout(self) -> None:
        step = self.step
        if isinstance(step, Bidding):
            left = step.shown - 1
            if left > 0:
                self.step = Bidding(step.auction, left)
                self._show(self._auction_screen(step.auction, left))
                self._play(Cue.AUCTION_TICK)
            else:
                self._auction_over(step.auction)
            return
        self._to_idle()

    # ------------------------------------------------------------ buttons and holds

    def _on_press(self, button: Button) -> None:
        if button in self._down:
            return
        self._down[button] = self._now
        if Button.OK in self._down and Button.CANCEL in self._down:
            self._hold = ("undo", self._now)
            self._consumed |= {Button.OK, Button.CANCEL}
        elif button is Button.CANCEL:
            self._hold = ("reset", self._now)

    def _on_release(self, button: Button) -> None:
        if button not in self._down:
            return
        del self._down[button]
        if self._hold is not None and (
            button is Button.CANCEL or (self._hold[0] == "undo" and button is Button.OK)
        ):
            self._hold = None
        if button in self._consumed:
            self._consumed.discard(button)
            return
        self._on_button(button)

    def _fire_hold(self) -> None:
        assert self._hold is not None
        kind = self._hold[0]
        self._hold = None
        # the buttons still held must not also act as short presses when released
        self._consumed |= set(self._down)
        if kind == "undo":
            self._undo()
        else:
            self._reset()

    def _undo(self) -> None:
        try:
            self.game.execute(Undo())
        except RuleError as err:
            self._refuse_rule(err)
            return
        # a step in progress is abandoned; the game state decides where we are
        self.step = Idle()
        self._sync()
        self._show(self.screens.undone())
        self._play(Cue.UNDO)

    def _reset(self) -> None:
        if self._state.started:
            self.game.reset()
            self.step = Registration()
            self._show(self.screens.archived())
        else:
            self.step = Registration()
            self._show(self.screens.registration(self._state, ()))
        self._play(Cue.UNDO)

    def _on_button(self, button: Button) -> None:
        step = self.step
        if isinstance(step, Registration):
            self._registration_button(step, button)
        elif isinstance(step, Idle):
            if button is Button.MENU:
                self._open_menu(Icon.GO)
            else:
                self._to_idle()
        elif isinstance(step, Checking):
            self._checking_button(step, button)
        elif isinstance(step, AuctionOffer):
            self._offer_button(step, button)
        elif isinstance(step, Bidding):
            self._bidding_button(step, button)
        elif isinstance(step, AwaitWinner):
            if button is Button.CANCEL:
                self._auction_cancelled(step.auction, no_bid=False)
            else:
                self._refuse("err.need_bank")
        elif isinstance(step, Menu):
            self._menu_button(step, button)
        elif isinstance(step, JailChoice):
            if button is Button.MENU:
                self._refuse("err.not_now")
            else:
                self._leave_jail(step.card, paid=button is Button.OK)
        elif isinstance(step, LocationDest):
            if button is Button.CANCEL:
                self._to_idle()
            else:
                self._refuse("err.need_prop")
        elif isinstance(step, EventTaps):
            self._event_button(step, button)
        elif isinstance(step, MoveShort):
            if button is Button.MENU:
                self._offer_auction(step.number, None)
            else:
                self._to_idle()
        elif isinstance(step, Settling):
            self._refuse("err.debt")
        elif isinstance(step, Finished):
            self._show(self.screens.game_over(self._state))

    def _registration_button(self, step: Registration, button: Button) -> None:
        if button is Button.OK:
            needed = self.game.edition.constants.min_players
            if len(step.cards) < needed:
                self._refuse("err.players", n=needed)
                return
            tx = self._execute(NewGame(step.cards))
            if tx is None:
                return
            self.step = Idle()
            self._after(tx, self.screens.game_started(self._state), extra=(Cue.KACHING,))
        elif button is Button.CANCEL:
            self.step = Registration()
            self._show(self.screens.registration(self._state, ()))
        else:
            self._refuse("err.not_now")

    def _checking_button(self, step: Checking, button: Button) -> None:
        if button is Button.MENU:
            if self._state.prop(step.number).owner is not None:
                self._refuse("err.owned")
            else:
                self._offer_auction(step.number, step.mover)
        elif button is Button.OK:
            self._refuse("err.need_bank")
        else:
            self._to_idle()

    def _offer_button(self, step: AuctionOffer, button: Button) -> None:
        if button is Button.OK:
            try:
                auction = self.game.new_auction(step.number, self._now)
                auction.start(self._now)
            except RuleError as err:
                self._refuse_rule(err)
                return
            shown = self._seconds_left(auction)
            self.step = Bidding(auction, shown)
            self._show(self._auction_screen(auction, shown))
        elif button is Button.MENU or step.mover is not None:
            self._check(step.number, step.mover)
        else:
            self._to_idle()

    def _bidding_button(self, step: Bidding, button: Button) -> None:
        auction = step.auction
        if button is Button.OK:
            self._bid(auction, None)
        elif button is Button.CANCEL:
            if auction.bids:
                self._refuse("err.bids")
            else:
                auction.cancel()
                self._auction_cancelled(auction, no_bid=False)
        else:
            self._refuse("err.bids")

    def _menu_button(self, step: Menu, button: Button) -> None:
        if button is Button.MENU:
            at = _MENU_ORDER.index(step.icon) + 1
            if at < len(_MENU_ORDER):
                self._open_menu(_MENU_ORDER[at])
            else:
                self._to_idle()
        elif button is Button.OK:
            # accepted, changes nothing: the icon stays until a bank card applies it
            self._open_menu(step.icon)
        else:
            self._to_idle()

    def _event_button(self, step: EventTaps, button: Button) -> None:
        card = self.game.edition.event(step.event_id)
        if button is Button.CANCEL:
            self._to_idle()
        elif (
            button is Button.MENU
            and card.kind == "move"
            and len(step.props) == 1
            and self._state.prop(step.props[0]).owner is None
        ):
            self._offer_auction(step.props[0], None)
        else:
            ask = card.taps[len(step.props) + len(step.cards)]
            self._refuse("err.need_prop" if ask.endswith("prop") else "err.need_bank")

    # ------------------------------------------------------------ devices

    def _on_device(self, inp: ReaderStatus | PanelStatus) -> None:
        kind = "reader" if isinstance(inp, ReaderStatus) else "panel"
        key = f"{kind}:{inp.reader if isinstance(inp, ReaderStatus) else inp.panel}"
        if not inp.connected:
            if key in self._lost:
                return
            self._lost.add(key)
            if self.is_on:
                self._out.append(ShowScreen(self._now, self.screens.device_lost(kind)))
        elif key in self._lost:
            self._lost.discard(key)
            if self.is_on and not self._lost:
                self._show(self.screen)

    # ------------------------------------------------------------ taps

    def _on_tap(self, card: CardId | None) -> None:
        if card is None:
            self._refuse("err.unknown_card")
            return
        self._play(Cue.READ)
        step = self.step
        if isinstance(step, Registration):
            self._registration_tap(step, card)
        elif isinstance(step, Idle | MoveShort):
            self._idle_tap(card)
        elif isinstance(step, Checking):
            self._checking_tap(step, card)
        elif isinstance(step, AuctionOffer):
            # the icon waits for ✓ (or M, X): a card does not fit, the step stays
            self._refuse("err.not_now")
        elif isinstance(step, Bidding):
            if card.kind == "bank":
                self._bid(step.auction, card.number)
            else:
                self._refuse("err.need_bank")
        elif isinstance(step, AwaitWinner):
            if card.kind == "bank":
                self._sell(step.auction, card.number)
            else:
                self._refuse("err.need_bank")
        elif isinstance(step, Menu):
            if card.kind == "bank":
                self._apply_menu(step.icon, card.number)
            else:
                self._refuse("err.need_bank")
        elif isinstance(step, JailChoice):
            self._refuse("err.not_now")
        elif isinstance(step, LocationDest):
            if card.kind == "prop":
                self._check(card.number, step.card)
            else:
                self._refuse("err.need_prop")
        elif isinstance(step, EventTaps):
            self._event_tap(step, card)
        elif isinstance(step, Settling):
            if card.kind == "prop":
                self._give(card.number)
            else:
                self._refuse("err.debt")
        elif isinstance(step, Finished):
            player = self._state.player(card.number) if card.kind == "bank" else None
            if player is not None:
                self._show(self.screens.balance(self._state, player))
            else:
                self._refuse("err.game_over")

    def _registration_tap(self, step: Registration, card: CardId) -> None:
        if card.kind != "bank":
            self._refuse("err.no_game")
        elif card.number in step.cards:
            self._refuse("err.registered")
        elif len(step.cards) >= self.game.edition.constants.max_players:
            self._refuse("err.not_now")
        else:
            self.step = Registration((*step.cards, card.number))
            self._show(self.screens.registration(self._state, self.step.cards))

    def _idle_tap(self, card: CardId) -> None:
        """A tap taken as from idle: balance, property check or event card."""
        if card.kind == "bank":
            player = self._state.player(card.number)
            if player is None:
                self._refuse("err.not_player")
                return
            self.step = Idle(self._now + self.config.idle_seconds)
            self._show(self.screens.balance(self._state, player))
        elif card.kind == "prop":
            self._check(card.number, None)
        else:
            self._start_event(card.number)

    def _checking_tap(self, step: Checking, card: CardId) -> None:
        if card.kind == "bank":
            if step.mover is not None and card.number != step.mover:
                self._refuse("err.mover")
            else:
                self._land(card.number, step.number)
        else:
            # property and event cards are idle gestures (ULTIME.md §5): while a property waits
            # for its bank card they do not fit, so the step (and its timeout) stays as it was
            self._refuse("err.need_bank")

    def _check(self, number: int, mover: int | None) -> None:
        """Show a property (number, owner, level, rent or price) and wait for a bank card."""
        expires = None if mover is not None else self._now + self.config.idle_seconds
        self.step = Checking(number, expires, mover)
        owned = self._state.prop(number).owner is not None
        rent = self.game.rent_due(number) if owned else None
        self._show(self.screens.property_check(self._state, number, rent, mover))

    # ------------------------------------------------------------ transactions

    def _execute(self, command: Command) -> Transaction | None:
        """Execute (and commit) *command*; on a refusal show why and return None."""
        try:
            return self.game.execute(command)
        except RuleError as err:
            self._refuse_rule(err)
            return None

    def _after(self, tx: Transaction, screen: Screen, extra: tuple[Cue, ...] = ()) -> None:
        """Show a committed transaction's result and play its cues (debt and game over first)."""
        cues = [*extra, *self._cues(tx)]
        self._sync()
        if isinstance(self.step, Finished | Settling):
            screen = self._step_screen()
        self._show(screen)
        for cue in dict.fromkeys(cues):
            self._play(cue)

    @staticmethod
    def _cues(tx: Transaction) -> list[Cue]:
        cues: list[Cue] = []
        events = tx.events
        if any(isinstance(e, MoneyMoved) and e.amount > 0 for e in events):
            cues.append(Cue.KACHING)
        if any(
            (isinstance(e, GroupCompleted) and e.completed)
            or (
                isinstance(e, PropertyChanged)
                and e.new_owner is not None
                and e.new_owner == e.old_owner
                and (e.new_level or 0) > (e.old_level or 0)
            )
            for e in events
        ):
            cues.append(Cue.LEVEL_UP)
        if any(isinstance(e, JailChanged) and e.jailed for e in events):
            cues.append(Cue.JAIL)
        if any(isinstance(e, GameEnded) and e.ended for e in events):
            cues.append(Cue.GAME_OVER)
        return cues

    def _land(self, card: int, number: int) -> None:
        before = self._state.prop(number)
        tx = self._execute(Land(card, number))
        if tx is None:
            return
        self.step = Idle()
        after = self._state
        if before.owner is None:
            grouped = any(isinstance(e, GroupCompleted) for e in tx.events)
            price = self.game.edition.prop(number).price
            screen = self.screens.bought(after, number, card, price, grouped)
        elif before.owner == card:
            raised = (after.prop(number).level or 0) > (before.level or 0)
            screen = self.screens.own_level(after, number, raised)
        else:
            paid = sum(e.amount for e in tx.events if isinstance(e, MoneyMoved) and e.payer == card)
            owed = any(isinstance(e, DebtChanged) and e.new_debt > 0 for e in tx.events)
            if paid == 0 and not owed:
                screen = self.screens.no_rent(after, number)
            else:
                screen = self.screens.rent_paid(after, number, card, paid)
        self._after(tx, screen)

    def _open_menu(self, icon: Icon) -> None:
        self.step = Menu(icon, self._now + self.config.idle_seconds)
        self._show(self.screens.menu(icon))

    def _apply_menu(self, icon: Icon, card: int) -> None:
        player = self._state.player(card)
        if player is None:
            self._refuse("err.not_player")
            return
        if icon is Icon.GO:
            tx = self._execute(PassGo(card))
            if tx is not None:
                self.step = Idle()
                self._after(tx, self.screens.passed_go(self._state, card))
        elif icon is Icon.JAIL:
            if player.jailed:
                self.step = JailChoice(card)
                self._show(self.screens.jail_choice(self._state, card))
                return
            tx = self._execute(GoToJail(card))
            if tx is not None:
                self.step = Idle()
                self._after(tx, self.screens.jailed(self._state, card))
        else:
            tx = self._execute(PayLocation(card))
            if tx is not None:
                self.step = LocationDest(card)
                self._after(tx, self.screens.location_paid(self._state, card))

    def _leave_jail(self, card: int, paid: bool) -> None:
        tx = self._execute(LeaveJail(card, paid))
        if tx is not None:
            self.step = Idle()
            self._after(tx, self.screens.left_jail(self._state, card, paid))

    def _give(self, number: int) -> None:
        debtor = self._state.debtor()
        if debtor is None:  # pragma: no cover - _sync keeps Settling only while in debt
            self._to_idle()
            return
        tx = self._execute(GiveProperty(debtor.card, number))
        if tx is None:
            return
        change = sum(
            e.amount
            for e in tx.events
            if isinstance(e, MoneyMoved) and e.payer is None and e.payee == debtor.card
        )
        self.step = Idle()
        self._after(tx, self.screens.debt_settled(self._state, debtor.card, change))

    # ------------------------------------------------------------ auctions

    def _offer_auction(self, number: int, mover: int | None) -> None:
        expires = None if mover is not None else self._now + self.config.idle_seconds
        self.step = AuctionOffer(number, expires, mover)
        self._show(self.screens.auction_offer(self._state, number))

    def _seconds_left(self, auction: Auction) -> int:
        """Whole seconds left on the countdown, as the LCD shows them."""
        # rounded to microseconds first: (6.1 + 10) - 6.1 is a hair over 10 in floats and
        # must not show 11 s on a 10 s countdown
        return math.ceil(round(auction.remaining(self._now), 6))

    def _auction_screen(self, auction: Auction, shown: int) -> Screen:
        return self.screens.auction(auction.number, auction.price, auction.bidder, shown)

    def _bid(self, auction: Auction, card: int | None) -> None:
        auction.update_state(self._state)
        try:
            auction.bid(self._now, card)
        except RuleError as err:
            self._refuse_rule(err)
            return
        shown = self._seconds_left(auction)
        self.step = Bidding(auction, shown)
        self._show(self._auction_screen(auction, shown))

    def _auction_over(self, auction: Auction) -> None:
        self._play(Cue.HAMMER)
        if not auction.bids:
            self._auction_cancelled(auction, no_bid=True)
        elif auction.bidder is not None:
            self.step = Idle()
            self._sell(auction, auction.bidder)
        else:
            self.step = AwaitWinner(auction)
            self._show(self.screens.auction_won(auction.number, auction.price))

    def _sell(self, auction: Auction, card: int) -> None:
        try:
            sale = auction.sale(card)
        except RuleError as err:
            self._refuse_rule(err)
            return
        tx = self._execute(sale)
        if tx is None:
            return
        self.step = Idle()
        self._after(tx, self.screens.auction_sold(self._state, auction.number, card, sale.price))

    def _auction_cancelled(self, auction: Auction, no_bid: bool) -> None:
        self.step = Idle()
        self._show(self.screens.auction_cancelled(auction.number, no_bid))

    # ------------------------------------------------------------ event cards

    def _ask(self, event_id: int, index: int) -> str:
        """The message id of the prompt for tap *index* of an event card."""
        card = self.game.edition.event(event_id)
        kind = card.taps[index]
        if kind == "bank" and card.kind == "move":
            return "event.ask.bank.move"
        if kind == "bank" and card.kind == "jail_other":
            return "event.ask.bank.jail"
        return f"event.ask.{kind}"

    def _start_event(self, event_id: int) -> None:
        card = self.game.edition.event(event_id)
        if not card.taps:
            self._play_event(EventTaps(event_id))
            return
        self.step = EventTaps(event_id)
        self._show(self.screens.event_prompt(event_id, self._ask(event_id, 0)))

    def _event_tap(self, step: EventTaps, card: CardId) -> None:
        event = self.game.edition.event(step.event_id)
        index = len(step.props) + len(step.cards)
        wants_prop = event.taps[index].endswith("prop")
        if wants_prop != (card.kind == "prop") or card.kind == "event":
            self._refuse("err.need_prop" if wants_prop else "err.need_bank")
            return
        props = (*step.props, card.number) if wants_prop else step.props
        cards = step.cards if wants_prop else (*step.cards, card.number)
        try:
            self.game.check_event_taps(step.event_id, props, cards)
        except RuleError as err:
            self._refuse_rule(err)
            return
        taken = EventTaps(step.event_id, props, cards)
        if index + 1 < len(event.taps):
            self.step = taken
            number = props[-1] if props else None
            self._show(
                self.screens.event_prompt(
                    step.event_id, self._ask(step.event_id, index + 1), number
                )
            )
        else:
            self._play_event(taken)

    def _play_event(self, taps: EventTaps) -> None:
        event = self.game.edition.event(taps.event_id)
        before = self._state
        try:
            tx = self.game.execute(PlayEvent(taps.event_id, taps.props, taps.cards))
        except NotEnoughMoney as err:
            if event.kind == "move" and before.prop(taps.props[0]).owner is None:
                # the mover cannot buy: M offers the property at auction instead
                number = taps.props[0]
                self.step = MoveShort(taps.event_id, number, self._now + self.config.idle_seconds)
                self._play(Cue.ERROR)
                self._show(self.screens.move_short(taps.event_id, number))
            else:
                self._refuse_rule(err)
            return
        except RuleError as err:
            self._refuse_rule(err)
            return
        self.step = Idle()
        self._after(tx, self._event_result(taps, before, tx))

    def _event_result(self, taps: EventTaps, before: GameState, tx: Transaction) -> Screen:
        """The screen that says what an event card did."""
        eid = taps.event_id
        event = self.game.edition.event(eid)
        kind = event.kind
        after = self._state
        s = self.screens
        k = self.game.edition.constants
        number = taps.props[0] if taps.props else None
        if kind == "gridlock":
            return s.event_done(eid, s.say("event.gridlock"))
        if kind == "cheap_rent":
            return s.event_done(eid, s.say("event.cheap", n=k.cheap_rent_count))
        if not tx.events:
            return s.event_done(eid, s.say("event.none"), number=number)
        if kind == "move" and number is not None:
            mover = taps.cards[0]
            prop = after.prop(number)
            if before.prop(number).owner is None:
                grouped = any(isinstance(e, GroupCompleted) for e in tx.events)
                price = self.game.edition.prop(number).price
                text = s.say("land.set") if grouped else s.say("land.bought", money=s.money(price))
            else:
                text = s.say("land.level", level=prop.level)
            return s.event_done(
                eid, text, number=number, token=s.card_token(mover), level=prop.level
            )
        if kind == "tax":
            card = taps.cards[0]
            amount = k.tax_per_property * len(before.owned_by(card))
            return s.event_done(
                eid,
                s.say("event.tax", money=s.money(amount)),
                token=s.card_token(card),
                amount=amount,
            )
        if kind == "collect_pair":
            return s.event_done(
                eid, s.say("event.collect", amount=k.collect_amount), amount=k.collect_amount
            )
        if kind == "jail_other":
            card = taps.cards[0]
            return s.event_done(
                eid, s.say("jail.in", token=s.token(after, card)), token=s.card_token(card)
            )
        if kind == "swap":
            return s.event_done(eid, s.say("event.swap"), number=number)
        if kind in ("reset_level", "max_level") and number is not None:
            level = after.prop(number).level
            return s.event_done(eid, s.say("land.level", level=level), number=number, level=level)
        changed = any(
            isinstance(e, PropertyChanged) and e.old_level != e.new_level for e in tx.events
        )
        text = s.say(f"event.{kind}") if changed else s.say("event.none")
        level = after.prop(number).level if number is not None else None
        return s.event_done(eid, text, number=number, level=level)
