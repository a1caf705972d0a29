"""Benchmark of the nfcpy backend: from a card laid on the reader to the backend's presence event.

Both contestants read through nfcpy's real ``udp`` driver and Type 2 tag stack against the
strict tag simulator (``tests/support/udp_tag_sim.py``), an NTAG215 holding a card record:

* **backend**: :class:`drivers.nfcpy_reader.NfcpyBackend` emitting ``CardPresent(uid, ndef)``;
* **floor** (the baseline): a bare ``clf.connect(rdwr=...)`` whose ``on-connect`` reads the
  UID and NDEF octets and notes the time, with no project code at all.

They run in alternating blocks in the same process. Each tap waits a random 0-0.3 s first,
so the card lands at any phase of the reader's polling. The time runs from ``place()`` to the
event; the lift figure from ``lift()`` to the absence event, which nfcpy's presence check
(three 0.1 s READ timeouts) dominates. Imports ``drivers``, ``bench.common``,
``tests.support.udp_tag_sim``, nfcpy and the standard library.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from bank.unit.io import CardId
from bench.common import Result, at_most, stats
from bench.unit_probe import start_unit_reader, unit_added, wait_seen
from drivers.base import CardAbsent, CardPresent, Presence
from drivers.identity import encode_card_record, type2_ndef_tlv
from drivers.nfcpy_reader import NfcpyBackend
from tests.support.udp_tag_sim import UdpTagSim

AREA = "nfcpy"
UID = "04A1B2C3D4E5F6"
EVENT_TIMEOUT_S = 3.0

#: what a reader reports into the bench: ("present" | "absent", uid, monotonic time)
Seen = tuple[str, str, float]
StartReader = Callable[[UdpTagSim, "queue.Queue[Seen]"], Callable[[], None]]


def start_backend(sim: UdpTagSim, seen: queue.Queue[Seen]) -> Callable[[], None]:
    """Run NfcpyBackend on *sim*; return its stopper."""
    backend = NfcpyBackend(sim.path)
    stop = threading.Event()

    def emit(event: Presence) -> None:
        now = time.monotonic()
        if isinstance(event, CardPresent):
            seen.put(("present", event.uid, now))
        elif isinstance(event, CardAbsent) and event.uid is not None:
            seen.put(("absent", event.uid, now))

    thread = threading.Thread(target=backend.run, args=(emit, stop), daemon=True)
    thread.start()

    def stopper() -> None:
        stop.set()
        backend.wake()
        thread.join(timeout=5.0)

    return stopper


def start_unit(sim: UdpTagSim, seen: queue.Queue[Seen]) -> Callable[[], None]:
    """The whole unit (journal, game, daemon, supervised reader) reading *sim*."""
    return start_unit_reader(sim.path, seen)


def start_floor(sim: UdpTagSim, seen: queue.Queue[Seen]) -> Callable[[], None]:
    """Run a bare nfcpy connect loop on *sim* (UID + NDEF read only); return its stopper."""
    import nfc

    clf: Any = nfc.ContactlessFrontend(sim.path)
    stop = threading.Event()

    def on_connect(tag: Any) -> bool:
        uid = bytes(tag.identifier).hex().upper()
        ndef = tag.ndef
        _octets = ndef.octets if ndef is not None else None
        seen.put(("present", uid, time.monotonic()))
        return True

    def on_release(tag: Any) -> bool:
        seen.put(("absent", bytes(tag.identifier).hex().upper(), time.monotonic()))
        return True

    options = {
        "targets": ["106A"],
        "on-connect": on_connect,
        "on-release": on_release,
        "beep-on-connect": False,
        "interval": 0.05,
        "iterations": 1,
    }

    def loop() -> None:
        while not stop.is_set():
            if clf.connect(rdwr=options, terminate=stop.is_set) is False:
                return

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()

    def stopper() -> None:
        stop.set()
        thread.join(timeout=5.0)
        clf.close()

    return stopper


def tap_block(
    start: StartReader, taps: int, rng: random.Random
) -> tuple[list[float], list[float], int]:
    """Do *taps* taps with a fresh reader; return place latencies, lift latencies, misses (s)."""
    data = type2_ndef_tlv(encode_card_record(CardId("prop", 16)))
    placed: list[float] = []
    lifted: list[float] = []
    missed = 0
    with UdpTagSim() as sim:
        seen: queue.Queue[Seen] = queue.Queue()
        stopper = start(sim, seen)
        try:
            deadline = time.monotonic() + EVENT_TIMEOUT_S
            while not sim.trace and time.monotonic() < deadline:
                threading.Event().wait(0.005)  # until the reader's first SENS_REQ arrives
            for _ in range(taps):
                threading.Event().wait(rng.uniform(0.0, 0.3))
                t0 = time.monotonic()
                sim.place(UID, data)
                at = wait_seen(seen, "present")
                if at is None:
                    missed += 1
                    sim.lift()
                    wait_seen(seen, "absent")
                    continue
                placed.append(at - t0)
                t1 = time.monotonic()
                sim.lift()
                gone = wait_seen(seen, "absent")
                if gone is not None:
                    lifted.append(gone - t1)
        finally:
            stopper()
    return placed, lifted, missed


def run(quick: bool) -> list[Result]:
    """Time place -> presence for the backend and for bare nfcpy, in alternating blocks."""
    taps, rounds = (8, 4) if quick else (40, 8)
    rng = random.Random(20261129)
    contestants: dict[str, StartReader] = {
        "backend": start_backend,
        "unit": start_unit,
        "floor": start_floor,
    }
    placed: dict[str, list[float]] = {name: [] for name in contestants}
    lifted: dict[str, list[float]] = {name: [] for name in contestants}
    missed = dict.fromkeys(contestants, 0)
    for _ in range(rounds):
        for name, start in contestants.items():
            p, lft, m = tap_block(start, taps // rounds, rng)
            placed[name] += p
            lifted[name] += lft
            missed[name] += m
    ms = 1000.0
    ours, floor = stats(placed["backend"]), stats(placed["floor"])
    note = (
        f"{ours.n} taps each, {rounds} alternating blocks, NTAG215 with a card record, "
        f"udp driver on loopback; worst {ours.worst * ms:.1f} ms (floor {floor.worst * ms:.1f})"
    )
    lift_ours, lift_floor = stats(lifted["backend"]), stats(lifted["floor"])
    unit_results = unit_added(
        AREA,
        "place",
        stats(placed["unit"]),
        floor,
        f"{len(placed['unit'])} taps; the whole unit (debouncer, daemon loop, unit, journal) "
        f"behind the nfcpy backend; missed {missed['unit']}",
    )
    return [
        *unit_results,
        Result(
            AREA,
            "place -> CardPresent (UID+NDEF) p50",
            ours.p50 * ms,
            "ms",
            target=at_most(1.5, ratio=True),
            baseline=floor.p50 * ms,
            ratio=ours.p50 / floor.p50,
            note=note,
        ),
        Result(
            AREA,
            "place -> CardPresent (UID+NDEF) p99",
            ours.p99 * ms,
            "ms",
            target=at_most(100.0),
            baseline=floor.p99 * ms,
            ratio=ours.p99 / floor.p99,
        ),
        Result(
            AREA,
            "lift -> CardAbsent p50",
            lift_ours.p50 * ms,
            "ms",
            baseline=lift_floor.p50 * ms,
            ratio=lift_ours.p50 / lift_floor.p50,
            note="nfcpy's Type 2 presence check: a READ every 0.1 s, 3 tries of 0.1 s",
        ),
        Result(
            AREA,
            "taps missed",
            float(missed["backend"]),
            "taps",
            target=at_most(0.0),
            baseline=float(missed["floor"]),
            note=f"of {ours.n + missed['backend']} taps",
        ),
    ]
