"""Behavioural doubles of a reader and a panel, driven from the world side (as gpiozero's MockPin).

:class:`SimReader` is a real :class:`~drivers.base.ReaderBackend` (path ``sim``): its *hands*
(``place``, ``lift``, ``tap``, ``unplug``, ``replug``) change what lies in its field, and its
``run`` loop reports that as presence events, so a :class:`~drivers.supervisor.ReaderService`
debounces and supervises it exactly as it does a real reader. While ``run`` is active, each
hand returns only once its event has gone through ``emit``, so a tap's ``CardTapped`` is already
posted when ``tap()`` returns. Its *eyes*: ``emitted`` (what it reported) and ``cues`` (the
feedback it was asked to give).

:class:`SimPanel` is a :class:`~drivers.base.Panel`: hands ``press``, ``release``, ``click``,
``hold``, ``unplug``, ``replug``; eyes ``shown``, ``screens``, ``cues``, ``last_screen`` and
``assert_*`` helpers with readable failures. Both keep the last :data:`HISTORY` records of
each kind, so a daemon run with ``--panel sim`` does not grow.

:class:`VirtualClock` is the time both share in tests and scripts.

:func:`start_sim_reader` wires a SimReader under a started service, ready for a script runner.

Imports ``bank.unit.io``, ``drivers.base``, ``drivers.deck``, ``drivers.supervisor`` and the
standard library only.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    Cue,
    Input,
    PanelStatus,
    PlayCue,
    Screen,
    ShowScreen,
    Tick,
)
from drivers.base import CardAbsent, CardPresent, PanelError, Presence, ReaderError
from drivers.deck import Deck, default_cards, normalize_uid, simulated_deck
from drivers.supervisor import ReaderService

__all__ = ["HISTORY", "SimPanel", "SimReader", "VirtualClock", "start_sim_reader"]

#: how many of each kind of record (screens, cues, inputs) the doubles keep by default: a
#: daemon run with ``--panel sim`` for days must not keep every screen it ever showed
HISTORY = 1000


def _keep(records: list[Any], limit: int | None) -> None:
    """Forget the oldest of *records* beyond *limit* (None: keep everything)."""
    if limit is not None and len(records) > limit:
        del records[: len(records) - limit]


class VirtualClock:
    """A clock that only moves when told to: ``clock()`` reads it, ``advance(s)`` moves it."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward by *seconds* (never back) and return the new time."""
        if seconds < 0:
            raise ValueError(f"time cannot go back ({seconds} s)")
        with self._lock:
            self._now += seconds
            return self._now


class AdvancingClock(Protocol):
    def __call__(self) -> float: ...

    def advance(self, seconds: float) -> float: ...


# ---------------------------------------------------------------- reader


class SimReader:
    """A simulated reader: hands put cards in its field, ``run`` reports them."""

    def __init__(
        self,
        deck: Deck | None = None,
        *,
        path: str = "sim",
        clock: Callable[[], float] = time.monotonic,
        handshake_s: float = 5.0,
        history: int | None = HISTORY,
    ) -> None:
        self.path = path
        self.history = history
        self.deck = deck if deck is not None else simulated_deck()
        self._clock = clock
        self._handshake_s = handshake_s
        self._cond = threading.Condition()
        self._field: CardPresent | None = None
        self._plugged = True
        self._running = False
        self._pending: deque[Presence] = deque()
        self._queued = 0
        self._done = 0
        self._woken = False
        #: the presence events ``run`` emitted, in order, the last *history* of them (eyes)
        self.emitted: list[Presence] = []
        #: the cues passed to :meth:`feedback`, the last *history* of them (eyes)
        self.cues: list[Cue] = []

    # ---------------------------------------------------------------- eyes

    @property
    def on_reader(self) -> str | None:
        """The UID lying in the field, if any."""
        with self._cond:
            return self._field.uid if self._field else None

    @property
    def plugged(self) -> bool:
        with self._cond:
            return self._plugged

    @property
    def running(self) -> bool:
        """Whether a ``run`` loop (a service) is reading this reader now."""
        with self._cond:
            return self._running

    # ---------------------------------------------------------------- hands

    def uid_of(self, card: CardId | str) -> str:
        """The UID for a card (``CardId``, ``prop:16``, ``uid:04AB..`` or bare hex)."""
        if isinstance(card, CardId):
            uid = self.deck.uid_for(card)
            if uid is None:
                raise ValueError(f"{card} has no UID in the deck {self.deck.source}")
            return uid
        text = card.strip()
        if text.lower().startswith("uid:"):
            return normalize_uid(text[4:])
        if text.split(":", 1)[0].lower() in ("bank", "prop", "event"):
            return self.uid_of(CardId.parse(text, default_cards()))
        return normalize_uid(text)

    def place(self, card: CardId | str, ndef: bytes | None = None) -> str:
        """Lay a card on the reader (replacing any card there, as a quick swap does)."""
        uid = self.uid_of(card)
        self._change(CardPresent(uid, ndef, self._clock()))
        return uid

    def lift(self) -> None:
        """Take the card off the reader (nothing happens if it is empty)."""
        with self._cond:
            if self._field is None:
                return
            uid = self._field.uid
        self._change(CardAbsent(uid, self._clock()))

    def tap(self, card: CardId | str, ndef: bytes | None = None) -> str:
        """Place a card and lift it again; any card already there is lifted first."""
        self.lift()
        uid = self.place(card, ndef)
        self.lift()
        return uid

    def unplug(self) -> None:
        """Pull the reader's cable: a running ``run`` fails, and opening fails until replug."""
        with self._cond:
            self._plugged = False
            self._cond.notify_all()
            deadline = time.monotonic() + self._handshake_s
            while self._running and self._cond.wait(max(0.0, deadline - time.monotonic())):
                pass

    def replug(self) -> None:
        """Plug the reader back in; the supervisor reopens it on its next attempt."""
        with self._cond:
            self._plugged = True
            self._cond.notify_all()

    def wait_running(self, timeout: float = 5.0) -> bool:
        """Wait until a service has the reader open (True) or *timeout* passes (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._running, timeout)

    def _change(self, event: Presence) -> None:
        with self._cond:
            self._field = event if isinstance(event, CardPresent) else None
            if not (self._running and self._plugged):
                return  # nobody reads the field now; a later open reports what lies there
            self._pending.append(event)
            self._queued += 1
            ticket = self._queued
            self._cond.notify_all()
            # hands wait for the reader to pass the event on, so callers see its effect
            self._cond.wait_for(
                lambda: self._done >= ticket or not self._running, self._handshake_s
            )

    # ---------------------------------------------------------------- ReaderBackend

    def run(self, emit: Callable[[Presence], None], stop: threading.Event) -> None:
        """Report the field until *stop* is set; ReaderError when unplugged."""
        with self._cond:
            if not self._plugged:
                raise ReaderError(f"simulated reader {self.path} is unplugged (no such device)")
            if self._running:
                raise ReaderError(f"simulated reader {self.path} is already open")
            self._running = True
            self._woken = False
            # a fresh open reports the field as it is, like a real reader's first poll
            self._pending.clear()
            opening: list[Presence] = [CardAbsent(None, self._clock())]
            if self._field is not None:
                opening.append(self._field)
            self._cond.notify_all()
        try:
            for event in opening:
                self._deliver(emit, event)
            while True:
                with self._cond:
                    self._cond.wait_for(
                        lambda: (
                            bool(self._pending) or stop.is_set() or self._woken or not self._plugged
                        )
                    )
                    self._woken = False
                    if stop.is_set():
                        return
                    if not self._plugged:
                        raise ReaderError(f"simulated reader {self.path} was unplugged")
                    if not self._pending:
                        continue
                    event = self._pending.popleft()
                try:
                    self._deliver(emit, event)
                finally:
                    with self._cond:
                        self._done += 1
                        self._cond.notify_all()
        finally:
            with self._cond:
                self._running = False
                self._pending.clear()
                self._done = self._queued
                self._cond.notify_all()

    def _deliver(self, emit: Callable[[Presence], None], event: Presence) -> None:
        emit(event)
        with self._cond:
            self.emitted.append(event)
            _keep(self.emitted, self.history)

    def wake(self) -> None:
        """Make ``run`` look at its stop event now."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def feedback(self, cue: Cue) -> None:
        """Record the cue (a real reader would beep or flash)."""
        with self._cond:
            self.cues.append(cue)
            _keep(self.cues, self.history)


def start_sim_reader(
    post: Callable[[Input], None],
    clock: Callable[[], float] = time.monotonic,
    *,
    deck: Deck | None = None,
    rearm_s: float = 0.0,
    timeout: float = 5.0,
) -> tuple[SimReader, ReaderService]:
    """A SimReader under a started ReaderService, already reported connected.

    Its hands then post ``CardTapped``/``CardLifted`` before they return, so a script runner
    on a virtual clock sees every tap in order. *rearm_s* defaults to 0 because a simulated
    hand does not bounce: two ``tap`` lines at the same virtual instant are two taps.
    """
    reader = SimReader(deck, clock=clock)
    service = ReaderService(reader, post, reader.deck, clock, rearm_s=rearm_s, backoff=(0.01,))
    service.start()
    if not service.wait_connected(timeout):
        service.stop()
        raise ReaderError(f"the simulated reader did not open within {timeout} s")
    return reader, service


# ---------------------------------------------------------------- panel


def _buttons(spec: Button | str | Iterable[Button | str]) -> list[Button]:
    if isinstance(spec, Button):
        return [spec]
    if isinstance(spec, str):
        spec = spec.split("+")
    out = []
    for item in spec:
        if isinstance(item, Button):
            out.append(item)
            continue
        try:
            out.append(Button(item.strip().lower()))
        except ValueError:
            names = ", ".join(b.value for b in Button)
            raise ValueError(f"unknown button {item!r} (buttons: {names})") from None
    return out


class SimPanel:
    """A simulated panel: hands press buttons, eyes keep the screens and cues shown.

    Each record list keeps its last *history* entries (None: every one).
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        name: str = "sim",
        history: int | None = HISTORY,
    ) -> None:
        self.name = name
        self.history = history
        self._clock = clock
        self._post: Callable[[Input], None] | None = None
        self._plugged = True
        self.closed = False
        #: the screens shown, timestamped (eyes)
        self.shown: list[ShowScreen] = []
        #: the cues played, timestamped (eyes)
        self.played: list[PlayCue] = []
        #: what was sent while unplugged or closed and never reached the panel
        self.dropped: list[Screen | Cue] = []
        #: the inputs this panel posted
        self.posted: list[Input] = []
        self.held: set[Button] = set()

    # ---------------------------------------------------------------- Panel

    def start(self, post: Callable[[Input], None]) -> None:
        """Begin posting button inputs through *post*."""
        self._post = post

    def show(self, screen: Screen) -> None:
        """Show a screen (recorded; dropped while unplugged or closed)."""
        if not self._plugged or self.closed:
            self.dropped.append(screen)
            _keep(self.dropped, self.history)
            return
        self.shown.append(ShowScreen(self._clock(), screen))
        _keep(self.shown, self.history)

    def play(self, cue: Cue) -> None:
        """Play a cue (recorded; dropped while unplugged or closed)."""
        if not self._plugged or self.closed:
            self.dropped.append(cue)
            _keep(self.dropped, self.history)
            return
        self.played.append(PlayCue(self._clock(), cue))
        _keep(self.played, self.history)

    def close(self) -> None:
        self.closed = True

    # ---------------------------------------------------------------- eyes

    @property
    def screens(self) -> list[Screen]:
        return [s.screen for s in self.shown]

    @property
    def cues(self) -> list[Cue]:
        return [p.cue for p in self.played]

    @property
    def last_screen(self) -> Screen | None:
        return self.shown[-1].screen if self.shown else None

    def clear(self) -> None:
        """Forget what was seen so far (to assert on what comes next)."""
        self.shown.clear()
        self.played.clear()
        self.dropped.clear()

    def assert_cue(self, cue: Cue, *, last: bool = False) -> None:
        """Fail unless *cue* was played (with *last*: was the latest cue)."""
        cues = self.cues
        ok = bool(cues) and cues[-1] is cue if last else cue in cues
        if not ok:
            seen = ", ".join(c.value for c in cues) or "no cue at all"
            where = " as the last cue" if last else ""
            raise AssertionError(f"expected cue {cue.value}{where}; played: {seen}")

    def assert_screen(self, *, last: bool = True, **fields: Any) -> Screen:
        """Fail unless the last screen (or, with ``last=False``, any) has these field values."""
        unknown = set(fields) - set(Screen.__dataclass_fields__)
        if unknown:
            raise TypeError(f"Screen has no field(s) {', '.join(sorted(unknown))}")
        candidates = self.screens[-1:] if last else self.screens
        for screen in reversed(candidates):
            if all(getattr(screen, k) == v for k, v in fields.items()):
                return screen
        wanted = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        if not self.shown:
            raise AssertionError(f"expected a screen with {wanted}; no screen was shown")
        shown = "\n  ".join(s.text() for s in candidates)
        which = "the last screen" if last else "any screen"
        raise AssertionError(f"expected {which} to have {wanted}; got:\n  {shown}")

    # ---------------------------------------------------------------- hands

    def press(self, button: Button | str) -> None:
        """Press a button (it stays down until released)."""
        for b in _buttons(button):
            self.held.add(b)
            self._send(ButtonPressed(self._clock(), b))

    def release(self, button: Button | str) -> None:
        """Release a button."""
        for b in _buttons(button):
            self.held.discard(b)
            self._send(ButtonReleased(self._clock(), b))

    def click(self, button: Button | str) -> None:
        """Press and release at once (a script's ``press ok``)."""
        self.press(button)
        self.release(button)

    def hold(
        self,
        buttons: Button | str | Iterable[Button | str],
        seconds: float,
        clock: AdvancingClock | None = None,
        *,
        tick: bool = True,
    ) -> None:
        """Hold buttons down together for *seconds* of virtual time, then release them.

        The clock (by default the panel's own, which must then be a :class:`VirtualClock`) is
        advanced; with *tick* a ``Tick`` is posted before the release so timeouts due during
        the hold fire while the buttons are still down.
        """
        chosen = _buttons(buttons)
        clk: Any = clock if clock is not None else self._clock
        if not hasattr(clk, "advance"):
            raise TypeError("hold() needs a clock with advance(), such as VirtualClock")
        for b in chosen:
            self.press(b)
        clk.advance(seconds)
        if tick:
            self._send(Tick(clk()))
        for b in chosen:
            self.release(b)

    def unplug(self) -> None:
        """Cut the panel's link: report it, and drop screens and button presses until replug."""
        if self._plugged:
            self._plugged = False
            self._status(False, "simulated panel unplugged")

    def replug(self) -> None:
        """Restore the panel's link and report it."""
        if not self._plugged:
            self._plugged = True
            self._status(True, "")

    def _status(self, connected: bool, detail: str) -> None:
        if self._post is None:
            raise PanelError("SimPanel: start(post) must be called before using its hands")
        status = PanelStatus(self._clock(), connected, self.name, detail)
        self.posted.append(status)
        _keep(self.posted, self.history)
        self._post(status)

    def _send(self, event: Input) -> None:
        if self._post is None:
            raise PanelError("SimPanel: start(post) must be called before using its hands")
        if not self._plugged:
            return  # an unplugged panel's buttons reach nobody
        self.posted.append(event)
        _keep(self.posted, self.history)
        self._post(event)
