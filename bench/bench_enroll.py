"""Benchmark of enrolment: a whole classic deck (68 tags, classic-fr) through ``ultibank enroll``.

A bench hand lays the next tag the moment a prompt asks for it, keeps it there until the
enrolment says it was recorded, and lifts it: so each figure is the machine's share of a
session, the time a player never waits less than. Three readers:

* **sim**: :class:`drivers.sim.SimReader` (the supervised, debounced path and the deck file
  saved after every tag, no radio);
* **nfcpy**: nfcpy's real udp driver against the strict UDP tag simulator
  (``tests/support/udp_tag_sim.py``);
* **pcsc**: the real pyscard and a private ``pcscd`` with a vsmartcard-vpcd reader and virtual
  NTAG215s (``tests/support/pcscd.py``); pcscd polls vpcd every 400 ms, which dominates.

A person needs a few seconds per card on top (take a card, find its tag, lay it, put it
aside); the README's "tag your deeds" guide adds that to these figures. Imports ``drivers``,
``bank.app`` (the edition's names for the prompts), ``bench.common``, ``tests.support`` and the
standard library.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator

from bank.app.runtime import deck_cards
from bench.common import Result, scratch_dir, stats
from board_assets import load_edition
from drivers.base import ReaderBackend
from drivers.enroll import enroll

AREA = "enroll"
EDITION = "classic-fr"

#: lays a tag with this UID on the reader / lifts it
Lay = Callable[[str], None]
Lift = Callable[[], None]


def uid_of(i: int) -> str:
    return f"04E0{i:010X}"


def session(backend: ReaderBackend, lay: Lay, lift: Lift, count: int | None) -> list[float]:
    """Enroll the deck (or its first *count* cards): seconds from each prompt to the tag being
    recorded (deck file saved)."""
    cards = deck_cards(load_edition(EDITION))
    only = [str(c) for c in list(cards.cards.cards())[:count]] if count else None
    lines: queue.Queue[str] = queue.Queue()
    times: list[float] = []
    with scratch_dir("ultibank-bench-enroll-") as tmp:
        deck = tmp / "deck.toml"
        done: list[int] = []
        worker = threading.Thread(
            target=lambda: done.append(
                enroll(backend, deck, only=only, say=lines.put, card_timeout=20.0, cards=cards)
            ),
            daemon=True,
        )
        worker.start()
        i = 0
        while worker.is_alive() or not lines.empty():
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if line.startswith("["):  # a prompt: lay the next tag at once
                i += 1
                asked = time.perf_counter()
                lay(uid_of(i))
                while not lines.get(timeout=20.0).endswith(f"= {uid_of(i)}"):
                    pass
                times.append(time.perf_counter() - asked)
                lift()
        worker.join(30)
        if done != [0]:
            raise RuntimeError(f"enrolment did not finish ({done})")
    return times


@contextlib.contextmanager
def sim_reader() -> Iterator[tuple[ReaderBackend, Lay, Lift]]:
    from drivers.sim import SimReader

    reader = SimReader()

    def lay(uid: str) -> None:
        reader.place(f"uid:{uid}")

    yield reader, lay, reader.lift


@contextlib.contextmanager
def nfcpy_reader() -> Iterator[tuple[ReaderBackend, Lay, Lift]]:
    from drivers.nfcpy_reader import NfcpyBackend
    from tests.support.udp_tag_sim import EMPTY_NDEF, UdpTagSim

    with UdpTagSim() as sim:

        def lay(uid: str) -> None:
            sim.place(uid, EMPTY_NDEF)

        def lift() -> None:
            sim.lift()

        yield NfcpyBackend(sim.path), lay, lift


@contextlib.contextmanager
def pcsc_reader() -> Iterator[tuple[ReaderBackend, Lay, Lift]]:
    from drivers.pcsc import PcscBackend
    from tests.support.pcscd import PLAIN_PORT, PLAIN_READER, pcscd_session, wait_card_state
    from tests.support.vpcd_card import VirtualNtag

    reader = f"{PLAIN_READER} 00 00"
    with scratch_dir() as work, pcscd_session(work):
        wait_card_state(reader, present=False)
        on: list[VirtualNtag] = []

        def lay(uid: str) -> None:
            card = VirtualNtag(uid, port=PLAIN_PORT)
            card.insert()
            on.append(card)

        def lift() -> None:
            on.pop().remove()

        yield PcscBackend(f"pcsc:{reader}"), lay, lift


def run(quick: bool) -> list[Result]:
    count = 8 if quick else None
    results = []
    for name, stack in (("sim", sim_reader), ("nfcpy", nfcpy_reader), ("pcsc", pcsc_reader)):
        with stack() as (backend, lay, lift):
            start = time.perf_counter()
            per_tag = stats(session(backend, lay, lift, count))
            total = time.perf_counter() - start
        results += [
            Result(
                AREA,
                f"{name}: 68 tags of {EDITION}, whole session" if not quick else f"{name}: 8 tags",
                total,
                "s",
                note=f"{per_tag.n} tags laid as soon as asked, lifted once recorded",
            ),
            Result(
                AREA,
                f"{name}: prompt -> tag recorded p50",
                per_tag.p50 * 1000.0,
                "ms",
                note=f"p99 {per_tag.p99 * 1000.0:.0f} ms (deck file saved after every tag)",
            ),
        ]
    return results
