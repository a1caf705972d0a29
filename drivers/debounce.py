"""The debouncer: reader presence in, exactly one ``CardTapped`` per physical tap out.

Backends report what the field holds (:class:`~drivers.base.CardPresent` /
:class:`~drivers.base.CardAbsent`), and real fields flicker. The rules:

* a card lying on the reader is one tap, however often the backend repeats it;
* an absent/present bounce of the same UID shorter than ``rearm_s`` is ignored;
* a different UID is always a new tap (a swap lifts the old card first);
* a present with no NDEF followed by the same card with NDEF is still one tap;
* a card lying on a reader that is lost and reopened is still one tap (:meth:`suspend`).

``CardLifted`` is posted once the card has stayed away for ``rearm_s`` (so a bounce posts
nothing), either when the next event arrives or when :meth:`Debouncer.poll` is called; the
supervisor polls it. Its ``at`` is when the card left. Time comes from the injected clock,
never from sleeping. Identity is resolved through the deck (NDEF record first, then UID).

Imports ``bank.unit.io``, ``drivers.base``, ``drivers.deck``, ``drivers.identity`` and the
standard library only.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from bank.unit.io import CardLifted, CardTapped, Input
from drivers.base import CardAbsent, CardPresent, Presence
from drivers.deck import Deck
from drivers.identity import identify

log = logging.getLogger(__name__)

#: the shortest re-arm of any reader: a hand that lifts a card and lays it straight back
DEFAULT_REARM_S = 0.4


def rearm_for_poll(poll_s: float) -> float:
    """The re-arm time a reader needs when its stack looks at the field every *poll_s* seconds.

    A polling stack sees a lift, however short, as an absence of one or two whole poll
    periods (pcscd's poll of vpcd: a 0.1 s lift reads as 0.4 s or 0.8 s away), so the re-arm
    must outlast two periods, with half a period to spare for the read that follows; and it
    is never shorter than a hand's flicker (:data:`DEFAULT_REARM_S`).
    """
    return round(max(DEFAULT_REARM_S, 2.5 * poll_s), 3)


def backend_rearm(backend: object) -> float:
    """The re-arm time *backend* declares (its ``rearm_s``), else :data:`DEFAULT_REARM_S`."""
    value = getattr(backend, "rearm_s", None)
    return float(value) if isinstance(value, int | float) else DEFAULT_REARM_S


class Debouncer:
    """Turns presence events into taps and lifts; thread-safe (the backend and poller share it)."""

    def __init__(
        self,
        deck: Deck,
        post: Callable[[Input], None],
        clock: Callable[[], float],
        *,
        reader: str = "",
        rearm_s: float = DEFAULT_REARM_S,
        warn_unknown: bool = True,
    ) -> None:
        if rearm_s < 0:
            raise ValueError(f"rearm_s must be >= 0, not {rearm_s}")
        self.deck = deck
        self.rearm_s = rearm_s
        self.reader = reader
        # log "unknown card UID ...; run ultibank enroll" (not while enrolling: every tag is)
        self.warn_unknown = warn_unknown
        self._post = post
        self._clock = clock
        self._lock = threading.Lock()
        # the card the unit has been told about (tapped, not yet lifted)
        self._current: str | None = None
        self._had_ndef = False
        # when the current card left the field, if it has (a lift not yet confirmed)
        self._away_since: float | None = None
        # the reader was lost: what lay on it is unknown until the reopened reader says
        self._suspended = False

    @property
    def current(self) -> str | None:
        """The UID of the card the unit believes is on the reader, if any."""
        with self._lock:
            return self._current

    @property
    def leaving(self) -> bool:
        """Whether the card the unit knows of has left the field, its lift waiting for the
        re-arm time (a test on a virtual clock moves the clock on then)."""
        with self._lock:
            return self._current is not None and self._away_since is not None

    def feed(self, event: Presence) -> None:
        """Take one presence event from a backend (stamped with the clock on arrival)."""
        with self._lock:
            now = self._clock()
            if self._suspended:
                # the first word of the reopened reader: the same card is still the same tap;
                # an empty field starts the lift's re-arm time from now
                self._suspended = False
                if isinstance(event, CardAbsent) and self._current is not None:
                    self._away_since = now
                    return
            self._expire(now)
            if isinstance(event, CardPresent):
                self._present(event, now)
            else:
                self._absent(event, now)

    def suspend(self) -> None:
        """The reader was lost: keep the card the unit knows of until the reader reopens.

        A card still lying there when the reader comes back must not count as a second tap
        (a rent paid twice is worse than a tap the player repeats: no read sound means not
        read). A departure not yet confirmed is in doubt too (a dying backend reports its
        card gone), so the reopened reader decides: the same card, or an empty field.
        """
        with self._lock:
            self._away_since = None
            self._suspended = self._current is not None

    def poll(self) -> None:
        """Post the lift of a card that has stayed away for ``rearm_s``."""
        with self._lock:
            self._expire(self._clock())

    def _present(self, event: CardPresent, now: float) -> None:
        uid = event.uid.upper()
        if uid == self._current:
            if self._away_since is not None:
                log.debug("bounce of %s (away %.3f s) ignored", uid, now - self._away_since)
            self._away_since = None
            if event.ndef and not self._had_ndef:
                # the first read missed the NDEF; the tap was already counted
                log.debug("NDEF of %s read late; still one tap", uid)
                self._had_ndef = True
            return
        if self._current is not None:
            log.debug("swap %s -> %s", self._current, uid)
            self._lift(self._away_since if self._away_since is not None else now)
        card = identify(uid, event.ndef, self.deck)
        if card is None and self.warn_unknown:
            log.warning("unknown card UID %s; run `ultibank enroll` to teach it", uid)
        self._current = uid
        self._had_ndef = bool(event.ndef)
        self._away_since = None
        self._post(CardTapped(at=now, card=card, uid=uid, reader=self.reader))

    def _absent(self, event: CardAbsent, now: float) -> None:
        if self._current is None or self._away_since is not None:
            return
        if event.uid is not None and event.uid.upper() != self._current:
            log.debug("absence of %s while %s is down: ignored", event.uid, self._current)
            return
        self._away_since = now
        self._expire(now)

    def _expire(self, now: float) -> None:
        if (
            not self._suspended
            and self._current is not None
            and self._away_since is not None
            and now - self._away_since >= self.rearm_s
        ):
            self._lift(self._away_since)

    def _lift(self, at: float) -> None:
        uid = self._current
        self._current = None
        self._away_since = None
        self._had_ndef = False
        if uid is not None:
            self._post(CardLifted(at=at, uid=uid, reader=self.reader))
