"""The unit shell: what every ruleset's unit behaviour stands on.

The shell turns timestamped inputs (taps, buttons, ticks, reader and panel status) into screens
and cues. It owns power, the buttons and their holds (✓+X undo, X reset), every timeout, the
lost-device screen, the steps that follow from the game state (registering a new game, a debt
being settled, a finished game) and the plumbing of a transaction (execute, then show its
outcome and cues). A ruleset's unit (``bank/rulesets/<name>/unit.py``) subclasses
:class:`UnitShell` and adds its own steps and gestures by overriding :meth:`~UnitShell._on_tap`,
:meth:`~UnitShell._on_button`, :meth:`~UnitShell._step_deadline`, :meth:`~UnitShell._timeout`
and :meth:`~UnitShell._cues`. A ruleset's step with an ``expires`` field (a time, or None for
no timeout) goes back to idle at that time unless the unit's ``_timeout`` says otherwise.

The shell also runs the auction's countdown on the LCD over the core's timer
(:class:`bank.engine.auction.Auction`): ``_start_auction`` starts it, :class:`Bidding` counts the
seconds down (a tick and its cue each second, every bid restarts it), a bank card or ✓ bids, X
gives it up before any bid, and at zero the hammer falls: the named last bidder buys, a button
bid waits for the winner's card (:class:`AwaitWinner`), no bid cancels. The ruleset's unit gives
what differs: the screens (``_auction_screen``, ``_auction_won_screen``,
``_auction_sold_screen``, ``_auction_cancelled_screen``), the words of the refusals, the sale's
command and what follows the auction (``_sale_command``, ``_auction_closed``), the step that
offers one (``_auction_offered``, for the web view); a bid typed on a keypad
(:attr:`Bidding.typed`) is bid by the next bank card. The ruleset says the bid step, the
countdown and who may bid (:meth:`bank.engine.game.Game.new_auction`).

Every confirmed action goes through :meth:`bank.engine.game.Game.execute`, which commits it to the
journal before the unit shows or plays anything about it. Steps that follow from the game state
are re-derived from it, so they survive a power cycle; the other steps are abandoned by it.

Time is an input: every input carries its timestamp, :meth:`UnitShell.next_deadline` says when
the next timeout falls due (check screen, auction second, 5 s hold) and a :class:`Tick` runs
it, so a virtual clock can jump from deadline to deadline. Buttons act on release; a hold fires
at the tick when it reaches :attr:`UnitConfig.hold_seconds`.

A journal that cannot be written (a full disk, a read-only or failing one) is a *fault*: the
transaction is not confirmed, the error cue plays and every panel shows the fault; the step in
progress is abandoned. Until the journal takes a write again (tried on each tap or press, and
every :data:`FAULT_RETRY` seconds) the unit refuses every tap and press with that fault, then
it recovers by itself. :attr:`UnitShell.fault` holds the complete message (``ultibank state``).

Imports the engine (game, commands, errors, state, auction), :mod:`bank.unit.io`,
:mod:`bank.unit.screens` and :mod:`bank.unit.text`; never pygame, drivers or the disk.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from bank import rulesets
from bank.engine.auction import Auction
from bank.engine.commands import AuctionSale, Command, NewGame, Undo
from bank.engine.config import UnitConfig
from bank.engine.errors import JournalError, JournalFull, RuleError
from bank.engine.game import Game, Transaction
from bank.engine.ruleset import Undone
from bank.engine.state import GameState
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    Cue,
    Icon,
    InfoAsked,
    Input,
    KeyPressed,
    KeyReleased,
    MenuAsked,
    Output,
    PanelStatus,
    PlayCue,
    ReaderStatus,
    Screen,
    ShowScreen,
    SpeechAsked,
    Tick,
)
from bank.unit.screens import Screens
from bank.unit.text import engine_short, language_of, say

__all__ = [
    "FAULT_RETRY",
    "AwaitWinner",
    "Bidding",
    "Finished",
    "Idle",
    "JailChoice",
    "Off",
    "Registration",
    "Settling",
    "UnitShell",
    "build_unit",
]

log = logging.getLogger(__name__)

#: seconds between two tries to write the journal again while it fails
FAULT_RETRY: Final = 5.0

#: a safety net: no input can make the unit run more timeouts than this at once
_MAX_TIMEOUTS_PER_INPUT: Final = 100_000


# ---------------------------------------------------------------- the shell's steps


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
class Settling:
    """A player is in debt (from the game state): property taps until it is covered."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The game is over (from the game state): the ranking shows until a reset."""


@dataclass(frozen=True, slots=True)
class Bidding:
    """An auction's countdown runs; *shown* is the number of seconds on the LCD, *typed* a bid
    being typed on a keypad (the next bank card bids it)."""

    auction: Auction
    shown: int
    typed: str = ""


@dataclass(frozen=True, slots=True)
class AwaitWinner:
    """The countdown is over after a button bid: the winner taps their bank card."""

    auction: Auction


@dataclass(frozen=True, slots=True)
class JailChoice:
    """A jailed player asked how they leave (the ruleset's unit says what each button does)."""

    card: int


# ---------------------------------------------------------------- the shell


class UnitShell:
    """A bank unit over one :class:`Game`, before any ruleset's gestures. Starts powered off."""

    #: the current step: one of the shell's, or one of the ruleset's unit
    step: object
    screens: Screens
    #: the message ids of an auction's refusals (a ruleset's unit may word them its own way):
    #: X or M once a bid is made, and a card that is not a bank card
    _ERR_BIDS: ClassVar[str] = "err.bids"
    _ERR_NEED_BANK: ClassVar[str] = "err.need_bank"
    #: a script's ``hold`` line takes no time on the virtual clock (the runner calls
    #: :meth:`held` instead of letting the hold's seconds pass): a classic unit's holds
    TIMELESS_HOLDS: ClassVar[bool] = False
    #: X held at least this long (seconds) and released before its hold fired is no press of
    #: X (None: every release is a press, as in Ultime)
    _LONG_PRESS: ClassVar[float | None] = None

    def __init__(self, game: Game, config: UnitConfig | None = None) -> None:
        self.game = game
        self.config = config or UnitConfig()
        self.screens = self._screens(game, language_of(self.config.language, game.edition.language))
        #: the cards this game has; a tap of any other is refused like an unknown card
        self._cards = CardRanges.of(game.edition)
        self.step = Off()
        #: the last screen shown by a step or result (what comes back after a lost reader)
        self.screen: Screen = self.screens.off()
        self._now = 0.0
        self._out: list[Output] = []
        self._down: dict[Button, float] = {}
        self._consumed: set[Button] = set()
        #: the button pressed with no other down, while no other joins it (a speech hold)
        self._alone: Button | None = None
        self._hold: tuple[str, float] | None = None
        #: whether the unit speaks (hold M to switch; panels with a voice follow it)
        self.speech_on = self.config.speech
        self._lost: set[str] = set()
        #: why the journal cannot take a transaction now (None: it can), complete for logs
        self.fault: str | None = None
        self._fault_retry_at: float | None = None
        #: damage found when the journal opened and not acknowledged yet: the idle screen gives
        #: way to it (``Journal abîmé`` / how many transactions were lost) until a person
        #: acknowledges it (:meth:`show_damage`)
        self.damage: int | None = None
        self._damage_shown = False

    def _screens(self, game: Game, lang: str) -> Screens:
        """The screen builders for *game*'s edition (a ruleset gives its own)."""
        return Screens(game.edition, lang)

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
            self.screens = self._screens(game, self.screens.lang)
            self._cards = CardRanges.of(game.edition)
        self._clear_buttons()
        self.step = Idle()
        self._sync()
        self._show(self._step_screen())
        return self._end()

    def show_damage(self, at: float, damaged: bool, lost: int | None = None) -> list[Output]:
        """Show (or, once acknowledged, stop showing) damage found in the journal: *lost*
        acknowledged transactions (None: a number that cannot be told). While *damaged*, the
        idle and new-game screens give way to the damage on every panel; play goes on."""
        self._begin(at)
        self._damage_shown = damaged
        self.damage = lost if damaged else None
        if self.is_on:
            if damaged:
                self._play(Cue.ERROR)
            self._show(self._step_screen())
        return self._end()

    def damage_screen(self) -> Screen:
        """``Journal abîmé`` and how many acknowledged transactions were lost."""
        if self.damage:
            second = say(self.lang, "fault.lost_n", n=self.damage)
        else:
            second = say(self.lang, "fault.check")
        return Screen("damage", (say(self.lang, "fault.damaged"), second),
                      icons=frozenset({Icon.ERROR}))  # fmt: skip

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

    def held(self, seconds: float) -> list[Output]:
        """The buttons down now have been held *seconds*, on a clock that did not run: the hold
        fires when it lasted ``hold_seconds``; a shorter one does nothing, not even a press on
        release. For the scripts of a unit with :attr:`TIMELESS_HOLDS`."""
        self._begin(self._now)
        try:
            if self.is_on and self._hold is not None and seconds >= self.config.hold_seconds:
                self._fire_hold()
            else:
                self._hold = None
                self._consumed |= set(self._down)
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
        elif isinstance(inp, KeyReleased):
            self._on_key(inp.key)
        elif isinstance(inp, InfoAsked):
            self._on_info(inp.name)
        elif isinstance(inp, MenuAsked):
            self._on_menu(inp.item)
        elif isinstance(inp, CardLifted | Tick | KeyPressed):
            pass

    def _on_key(self, key: str) -> None:
        """A keypad key released (``0``-``9``, ``back``): a ruleset without a keypad refuses it."""
        self._refuse("err.not_now")

    def _on_info(self, name: str) -> None:
        """An info screen asked by a keyboard panel: nothing in a ruleset without them."""

    def _on_menu(self, item: int) -> None:
        """A menu item asked by a keyboard panel: a ruleset without a numbered menu refuses."""
        self._refuse("err.not_now")

    def queue_roll(self, dice: tuple[int, ...], third: str | None = None) -> None:
        """Fix the next roll the unit makes (a script's ``roll`` line): nothing in a ruleset
        whose unit does not roll."""

    def auction_view(self, now: float) -> dict[str, Any] | None:
        """The auction offered, running or waiting for its winner's card, for the web view
        (None: none)."""
        step = self.step
        if isinstance(step, Bidding | AwaitWinner):
            a = step.auction
            running = isinstance(step, Bidding)
            return {
                "phase": "running" if running else "await_winner",
                "number": a.number,
                "price": a.price,
                "bidder": a.bidder,
                "bids": a.bids,
                "remaining": a.remaining(now) if running else 0.0,
                "seconds": a.seconds,
                **self._auction_where(),
            }
        number = self._auction_offered()
        if number is None:
            return None
        return {"phase": "offer", "number": number, "price": 0, "bidder": None, "bids": 0,
                "remaining": None, "seconds": None, **self._auction_where()}  # fmt: skip

    def checking(self) -> int | None:
        """The property shown and waiting for a bank card, if any (a ruleset's unit says)."""
        return None

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
        if self._damage_shown and screen.name in ("idle", "new_game"):
            screen = self.damage_screen()
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
        self._show(self.screens.refused(engine_short(self.lang, err.key, **err.fields)))

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
        """When the current step times out: a check screen's return, the auction's next second,
        a ruleset's step's ``expires`` (a ruleset's unit may add other deadlines)."""
        step = self.step
        if isinstance(step, Idle):
            return step.revert_at
        if isinstance(step, Bidding):
            deadline = step.auction.deadline
            return None if deadline is None else deadline - (step.shown - 1)
        expires: float | None = getattr(step, "expires", None)
        return expires

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
        """The current step's deadline passed: the auction's next second, else back to idle (a
        ruleset may do more)."""
        step = self.step
        if isinstance(step, Bidding):
            self._auction_tick(step)
        else:
            self._to_idle()

    # ------------------------------------------------------------ buttons and holds

    def _on_press(self, button: Button) -> None:
        if button in self._down:
            return
        self._down[button] = self._now
        if Button.OK in self._down and Button.CANCEL in self._down:
            self._hold = ("undo", self._now)
            self._consumed |= {Button.OK, Button.CANCEL}
        elif self._damage_shown and Button.OK in self._down and Button.MENU in self._down:
            # M + ✓ held while damage to the journal shows: a person acknowledges it
            self._hold = ("acknowledge", self._now)
            self._consumed |= {Button.OK, Button.MENU}
        elif button is Button.CANCEL:
            self._hold = ("reset", self._now)
        if len(self._down) > 1:  # a chord: no button of it is a speech hold
            self._alone = None
        else:
            self._alone = button

    def _on_release(self, button: Button) -> None:
        if button not in self._down:
            return
        pressed_at = self._down.pop(button)
        if self._hold is not None and (
            button is Button.CANCEL
            or (self._hold[0] == "undo" and button is Button.OK)
            or (self._hold[0] == "acknowledge" and button in (Button.OK, Button.MENU))
        ):
            self._hold = None
        if button in self._consumed:
            self._consumed.discard(button)
            return
        alone, self._alone = self._alone == button, None
        if (
            button is Button.CANCEL
            and self._LONG_PRESS is not None
            and self._now - pressed_at >= self._LONG_PRESS
        ):
            return  # a reset hold let go early: nothing
        if (
            alone
            and button in (Button.MENU, Button.OK)
            and self._now - pressed_at >= self.config.speech_hold_seconds
        ):
            self._speech_gesture(button)
            return
        self._on_button(button)

    def _speech_gesture(self, button: Button) -> None:
        """M or ✓ held alone (released after ``speech_hold_seconds``): the voice on or off, or
        the latest sentence again. Acts on release, like every button, so a ✓ that becomes
        ✓ + X (undo) is never taken for a speech hold."""
        if button is Button.MENU:
            self.speech_on = not self.speech_on
            self._out.append(SpeechAsked(self._now, "on" if self.speech_on else "off"))
            self._play(Cue.READ)
        else:
            self._out.append(SpeechAsked(self._now, "again"))

    def _fire_hold(self) -> None:
        assert self._hold is not None
        kind = self._hold[0]
        self._hold = None
        # the buttons still held must not also act as short presses when released
        self._consumed |= set(self._down)
        if kind == "undo":
            self._undo()
        elif kind == "acknowledge":
            self._acknowledge_damage()
        else:
            self._reset()

    def _acknowledge_damage(self) -> None:
        """M + ✓ held on the damage: the journal keeps that a person saw it; it stops showing."""
        acknowledge = getattr(self.game.journal, "acknowledge_damage", None)
        if acknowledge is not None:
            acknowledge()
        self._damage_shown = False
        self.damage = None
        self._play(Cue.READ)
        self._show(self._step_screen())

    def _undo(self) -> None:
        try:
            tx = self.game.execute(Undo())
        except RuleError as err:
            self._refuse_rule(err)
            return
        # a step in progress is abandoned; the game state decides where we are
        self.step = Idle()
        self._sync()
        done = tx.outcome if isinstance(tx.outcome, Undone) else Undone()
        self._show(self._undone_screen(done))
        self._play(Cue.UNDO)

    def _undone_screen(self, done: Undone) -> Screen:
        """The screen after an undo whose outcome is *done* (the undone transactions'
        outcomes): ``Annulé / Dernière opération``; a ruleset's unit may say what it undid."""
        return self.screens.undone()

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
        """A short press in the shell's steps; a ruleset's unit handles its own first."""
        step = self.step
        if isinstance(step, Registration):
            self._registration_button(step, button)
        elif isinstance(step, Settling):
            self._refuse("err.debt")
        elif isinstance(step, Finished):
            self._show(self.screens.game_over(self._state))
        elif isinstance(step, Idle):
            self._to_idle()
        elif isinstance(step, Bidding):
            self._bidding_button(step, button)
        elif isinstance(step, AwaitWinner):
            if button is Button.CANCEL:
                self._auction_cancelled(step.auction, no_bid=False)
            else:
                self._refuse(self._ERR_NEED_BANK)

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
        """A tap: cards the deck or the edition does not know are refused; the shell's steps
        handle theirs."""
        if card is not None and self._cards.foreign_kind(card):
            # a card of the other ruleset (docs/classic.md §1.3): the step stays as it was
            self._play(Cue.ERROR)
            self._show(self.screens.other_edition())
            return
        if card is None or not self._cards.fits(card):
            self._refuse("err.unknown_card")
            return
        self._play(Cue.READ)
        self._step_tap(card)

    def _step_tap(self, card: CardId) -> None:
        """A known card tapped in the current step (a ruleset's unit handles its own steps)."""
        step = self.step
        if isinstance(step, Registration):
            self._registration_tap(step, card)
        elif isinstance(step, Finished):
            player = self._state.player(card.number) if card.kind == "bank" else None
            if player is not None:
                self._show(self.screens.balance(self._state, player))
            else:
                self._refuse("err.game_over")
        elif isinstance(step, Settling):
            self._refuse("err.debt")
        elif isinstance(step, Bidding | AwaitWinner) and card.kind != "bank":
            self._refuse(self._ERR_NEED_BANK)
        elif isinstance(step, Bidding):
            self._bid(step, card.number)
        elif isinstance(step, AwaitWinner):
            self._sell(step.auction, card.number)
        else:
            self._refuse("err.not_now")

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

    def _cues(self, tx: Transaction) -> list[Cue]:
        """The cues a committed transaction deserves, from its outcome (none by default)."""
        return []

    # ------------------------------------------------------------ auctions

    def _start_auction(self, number: int) -> None:
        """Start the countdown of an auction of the free property *number*."""
        try:
            auction = self.game.new_auction(number, self._now)
            auction.start(self._now)
        except RuleError as err:
            self._refuse_rule(err)
            return
        self._show_bidding(auction)

    def _show_bidding(self, auction: Auction, typed: str = "") -> None:
        """The countdown from its whole seconds left (a bid or a typed digit restarted it)."""
        shown = self._seconds_left(auction)
        self.step = Bidding(auction, shown, typed)
        self._show(self._auction_screen(auction, shown, typed))

    def _seconds_left(self, auction: Auction) -> int:
        """Whole seconds left on the countdown, as the LCD shows them."""
        # rounded to microseconds first: (6.1 + 10) - 6.1 is a hair over 10 in floats and
        # must not show 11 s on a 10 s countdown
        return math.ceil(round(auction.remaining(self._now), 6))

    def _auction_tick(self, step: Bidding) -> None:
        """One second of the countdown passed: the next one shows, or the hammer falls."""
        left = step.shown - 1
        if left > 0:
            self.step = replace(step, shown=left)
            self._show(self._auction_screen(step.auction, left, step.typed))
            self._play(Cue.AUCTION_TICK)
        else:
            self._auction_over(step.auction)

    def _bidding_button(self, step: Bidding, button: Button) -> None:
        """✓ raises by the step; X gives the auction up before any bid."""
        auction = step.auction
        if button is Button.OK:
            self._bid(step, None)
        elif button is Button.CANCEL and not auction.bids:
            auction.cancel()
            self._auction_cancelled(auction, no_bid=False)
        else:
            self._refuse(self._ERR_BIDS)

    def _bid(self, step: Bidding, card: int | None) -> None:
        """A bid by ✓ (*card* None) or by a bank card: the typed amount, else one step more."""
        auction = step.auction
        auction.update_state(self._state)
        try:
            if step.typed and card is not None:
                auction.bid_amount(self._now, card, int(step.typed))
            else:
                auction.bid(self._now, card)
        except RuleError as err:
            self._refuse_rule(err)
            return
        self._show_bidding(auction)

    def _auction_over(self, auction: Auction) -> None:
        self._play(Cue.HAMMER)
        if not auction.bids:
            self._auction_cancelled(auction, no_bid=True)
        elif auction.bidder is not None:
            self.step = Idle()
            self._sell(auction, auction.bidder)
        else:
            self.step = AwaitWinner(auction)
            self._show(self._auction_won_screen(auction))

    def _sell(self, auction: Auction, card: int) -> None:
        try:
            sale = auction.sale(card)
        except RuleError as err:
            self._refuse_rule(err)
            return
        tx = self._execute(self._sale_command(sale))
        if tx is None:
            return
        self.step = Idle()
        self._after(tx, self._auction_sold_screen(sale))
        self._auction_closed()

    def _auction_cancelled(self, auction: Auction, no_bid: bool) -> None:
        """X, or the countdown over with no bid (*no_bid*): nothing is sold."""
        self.step = Idle()
        self._show(self._auction_cancelled_screen(auction, no_bid))
        self._auction_closed()

    # the ruleset's part of an auction

    def _auction_offered(self) -> int | None:
        """The property the current step offers at auction (before ✓ starts it), if any."""
        return None

    def _auction_where(self) -> dict[str, Any]:
        """What the web view's auction adds (the classic series' place), for a ruleset."""
        return {}

    def _sale_command(self, sale: AuctionSale) -> Command:
        """The command that records the sale (the core's :class:`AuctionSale` by default)."""
        return sale

    def _auction_closed(self) -> None:
        """After a sale or a cancelled auction (the unit is idle): nothing more by default."""

    def _auction_screen(self, auction: Auction, shown: int, typed: str = "") -> Screen:
        """The countdown: price, last bidder, *shown* seconds (and the bid being typed)."""
        raise NotImplementedError(f"{type(self).__name__} runs an auction without its screens")

    def _auction_won_screen(self, auction: Auction) -> Screen:
        """The countdown is over after a button bid: the winner's card is wanted."""
        raise NotImplementedError(f"{type(self).__name__} runs an auction without its screens")

    def _auction_sold_screen(self, sale: AuctionSale) -> Screen:
        """The sale, committed (the state is the one after it)."""
        raise NotImplementedError(f"{type(self).__name__} runs an auction without its screens")

    def _auction_cancelled_screen(self, auction: Auction, no_bid: bool) -> Screen:
        """Nothing sold: X before any bid, or no bid in time (*no_bid*)."""
        raise NotImplementedError(f"{type(self).__name__} runs an auction without its screens")


def build_unit(game: Game, config: UnitConfig | None = None) -> UnitShell:
    """The unit behaviour of *game*'s ruleset (from its edition, through the registry)."""
    unit = rulesets.for_edition(game.edition).unit(game, config)
    if not isinstance(unit, UnitShell):
        raise TypeError(f"ruleset {game.edition.ruleset!r} built {unit!r}, not a unit shell")
    return unit
