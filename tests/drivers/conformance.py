"""A conformance suite every ReaderBackend must pass, run through the real ReaderService.

Use it by subclassing :class:`ReaderConformance` in a test module (pytest collects the
subclass, whose name must start with ``Test``) and providing a ``world`` fixture::

    class TestPcscConformance(ReaderConformance):
        @pytest.fixture
        def world(self, pcscd) -> Iterator[World]:
            yield MyPcscWorld(pcscd)

The fixture contract (:class:`World`): an object with

* ``backend``: a fresh, not yet running :class:`~drivers.base.ReaderBackend`;
* ``place(uid, ndef=None)``: lay a card with this UID (upper-case hex) and optional raw NDEF
  message on the reader; called while another card lies there, it swaps the two as fast as
  the world allows;
* ``lift()``: take the card away (nothing if the reader is empty);
* ``unplug()`` / ``replug()``: make the device disappear (the backend's ``run`` must fail or
  return) and come back (so that reopening it succeeds);
* optionally ``timeout`` (seconds to wait for an expected event; default 3.0),
  ``quiet_s`` (seconds to watch for a repeat that must not come; default 0.8; make it cover a
  few of the stack's polling periods) and ``supports_ndef`` (default True).

The suite builds the service with a short re-arm time and backoff, so recovery is quick; it
waits for events with deadlines, never with sleeps. Each check says what a player would notice
if it failed.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import pytest

from bank.unit.io import CardId, CardLifted, CardTapped, Input, ReaderStatus
from drivers.base import ReaderBackend
from drivers.deck import Deck
from drivers.identity import encode_card_record
from drivers.supervisor import ReaderService

UID_A = "04A1B2C3D4E5F6"
UID_B = "04C0FFEE000001"
UID_UNKNOWN = "04DEADBEEF0042"
CARD_A = CardId("prop", 16)
CARD_B = CardId("bank", 2)
CARD_BY_NDEF = CardId("event", 7)
DECK = Deck({UID_A: CARD_A, UID_B: CARD_B})

T = TypeVar("T")


class World(Protocol):
    """The world side of a reader backend, as the suite drives it."""

    backend: ReaderBackend

    def place(self, uid: str, ndef: bytes | None = None) -> object: ...

    def lift(self) -> None: ...

    def unplug(self) -> None: ...

    def replug(self) -> None: ...


class Inbox:
    """The daemon's inbox as the suite sees it: expect an input, or expect silence."""

    def __init__(self, timeout: float) -> None:
        self.queue: queue.Queue[Input] = queue.Queue()
        self.timeout = timeout
        self.seen: list[Input] = []

    def post(self, item: Input) -> None:
        self.queue.put(item)

    def expect(self, kind: type[T], what: str, pred: Callable[[T], bool] = lambda _: True) -> T:
        """The next input of *kind* matching *pred*; fails with *what* after the timeout."""
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = self.queue.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(item)
            if isinstance(item, kind) and pred(item):
                return item
        pytest.fail(f"{what}: nothing within {self.timeout} s; inputs seen: {self.seen}")

    def silence(self, kind: type[Any], seconds: float, what: str) -> None:
        """Fail if an input of *kind* arrives within *seconds*."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = self.queue.get(timeout=left)
            except queue.Empty:
                return
            self.seen.append(item)
            if isinstance(item, kind):
                pytest.fail(f"{what}: got {item}")


@contextmanager
def running_service(world: World, *, wait_connected: bool = True) -> Iterator[Inbox]:
    """The world's backend under a ReaderService posting into an :class:`Inbox`."""
    inbox = Inbox(float(getattr(world, "timeout", 3.0)))
    service = ReaderService(
        world.backend, inbox.post, DECK, rearm_s=0.05, backoff=(0.05, 0.1, 0.2), settle_s=0.3
    )
    service.start()
    try:
        if wait_connected:
            inbox.expect(ReaderStatus, "the reader never reported connected", _connected)
        yield inbox
    finally:
        stopped = service.stop(timeout=inbox.timeout)
    assert stopped, "ReaderService.stop() did not end the backend's run (does wake() work?)"


def _connected(status: ReaderStatus) -> bool:
    return status.connected


def _lost(status: ReaderStatus) -> bool:
    return not status.connected


def _is(uid: str) -> Callable[[CardTapped | CardLifted], bool]:
    return lambda event: event.uid == uid


class ReaderConformance:
    """The checks; subclass with a ``world`` fixture (see the module docstring)."""

    def test_a_placed_card_is_one_tap(self, world: World) -> None:
        """A card laid on the reader is tapped once, however long it lies there."""
        with running_service(world) as inbox:
            world.place(UID_A)
            tap = inbox.expect(CardTapped, "placing a card gave no tap", _is(UID_A))
            assert tap.card == CARD_A
            quiet = float(getattr(world, "quiet_s", 0.8))
            inbox.silence(CardTapped, quiet, "a card lying still was tapped again")

    def test_lift_and_tap_again_counts_twice(self, world: World) -> None:
        """Lifting a card and tapping it again is a second tap."""
        with running_service(world) as inbox:
            world.place(UID_A)
            inbox.expect(CardTapped, "first tap missing", _is(UID_A))
            world.lift()
            inbox.expect(CardLifted, "lifting the card was never noticed", _is(UID_A))
            world.place(UID_A)
            inbox.expect(CardTapped, "the second tap of the same card was lost", _is(UID_A))

    def test_swapping_cards_taps_the_new_one(self, world: World) -> None:
        """Sliding one card off and another on counts the new card, lifting the old."""
        with running_service(world) as inbox:
            world.place(UID_A)
            inbox.expect(CardTapped, "first tap missing", _is(UID_A))
            world.place(UID_B)
            tap = inbox.expect(CardTapped, "the swapped-in card was not tapped", _is(UID_B))
            assert tap.card == CARD_B
            lifted = [i for i in inbox.seen if isinstance(i, CardLifted) and i.uid == UID_A]
            assert lifted, "the first card was not lifted before the second was tapped"

    def test_the_ndef_record_names_the_card(self, world: World) -> None:
        """A tag the deck does not know is still the card its NDEF record names."""
        if not getattr(world, "supports_ndef", True):
            pytest.skip("this world cannot put NDEF on its cards")
        with running_service(world) as inbox:
            world.place(UID_UNKNOWN, encode_card_record(CARD_BY_NDEF))
            tap = inbox.expect(CardTapped, "the NDEF card gave no tap", _is(UID_UNKNOWN))
            assert tap.card == CARD_BY_NDEF

    def test_an_unknown_card_is_a_tap_without_identity(self, world: World) -> None:
        """An unknown tag still taps (the unit shows its error cue), with its UID."""
        with running_service(world) as inbox:
            world.place(UID_UNKNOWN)
            tap = inbox.expect(CardTapped, "the unknown card gave no tap", _is(UID_UNKNOWN))
            assert tap.card is None

    def test_a_card_on_the_reader_at_start_is_tapped(self, world: World) -> None:
        """A card already lying on the reader when the daemon starts is read."""
        world.place(UID_A)
        with running_service(world, wait_connected=False) as inbox:
            tap = inbox.expect(CardTapped, "the card lying there at start was not read")
            assert tap.uid == UID_A

    def test_unplug_is_reported_and_the_reader_recovers(self, world: World) -> None:
        """Pulling the reader shows 'reader lost'; plugging it back brings taps back."""
        with running_service(world) as inbox:
            world.unplug()
            lost = inbox.expect(ReaderStatus, "unplugging was not reported", _lost)
            assert lost.detail, "the lost-reader report gives no reason"
            world.replug()
            inbox.expect(ReaderStatus, "the replugged reader was not reopened", _connected)
            world.place(UID_A)
            inbox.expect(CardTapped, "no tap after the reader came back", _is(UID_A))
