"""What "one tap" means on a reader: lifts that split a tap, dwells that are missed (issue 10).

``python -m bench.reader_taps [--reader pcsc|udp] [--trials N] [--rearm S] [--poll-ms MS]``
runs a real stack under :class:`drivers.supervisor.ReaderService` (debouncer included):

* ``pcsc`` (default): a private ``pcscd --foreground`` with vsmartcard-vpcd and
  :class:`drivers.pcsc.PcscBackend`, a virtual NTAG215 (``tests/support/pcscd.py``,
  ``tests/support/vpcd_card.py``);
* ``udp``: nfcpy's real udp driver and tag stack (:class:`drivers.nfcpy_reader.NfcpyBackend`)
  against the strict UDP tag simulator (``tests/support/udp_tag_sim.py``).

It prints two tables:

* **lifts**: lay a card 0.6-1.0 s (a random phase against pcscd's 400 ms poll), lift it for
  L seconds, lay it again 0.6 s, lift it: how often that counted as two taps;
* **dwells**: lay a card for D seconds once, at a random phase: how often it was tapped.

The default re-arm is the backend's own (its ``rearm_s``); ``--rearm`` tries another,
``--poll-ms`` another ``SCardGetStatusChange`` timeout in the PC/SC backend. Not a ``bench_*`` area:
it measures behaviour, not speed, and writes no report. Imports ``drivers``, ``tests.support``
and the standard library.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import random
import time
from collections.abc import Callable, Iterator, Sequence

from bank.unit.io import CardId, CardLifted, CardTapped, Input
from drivers.base import ReaderBackend
from drivers.deck import Deck
from drivers.supervisor import ReaderService

UID = "04A1B2C3D4E5F6"
LIFTS = (0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.4, 1.5)
DWELLS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.45, 0.5)


#: lays the card for so many seconds, then lifts it
Hold = Callable[[float], None]


@contextlib.contextmanager
def pcsc_stack(poll_ms: int) -> Iterator[tuple[ReaderBackend, Hold]]:
    from drivers.pcsc import PcscBackend
    from tests.support.pcscd import PLAIN_PORT, PLAIN_READER, pcscd_session, wait_card_state
    from tests.support.vpcd_card import VirtualNtag

    def hold(seconds: float) -> None:
        card = VirtualNtag(UID, port=PLAIN_PORT)
        card.insert()
        time.sleep(seconds)
        card.remove()

    reader = f"{PLAIN_READER} 00 00"
    with pcscd_session():
        wait_card_state(reader, present=False)
        yield PcscBackend(f"pcsc:{reader}", poll_ms=poll_ms), hold


@contextlib.contextmanager
def udp_stack(poll_ms: int) -> Iterator[tuple[ReaderBackend, Hold]]:
    from drivers.nfcpy_reader import NfcpyBackend
    from tests.support.udp_tag_sim import UdpTagSim

    with UdpTagSim() as sim:

        def hold(seconds: float) -> None:
            sim.place(UID)
            time.sleep(seconds)
            sim.lift()

        yield NfcpyBackend(sim.path), hold


STACKS = {"pcsc": pcsc_stack, "udp": udp_stack}


def _taps(inbox: queue.Queue[Input], settle: float) -> int:
    """Taps posted until every tap's card has been lifted for good and nothing more comes.

    Waiting for the last lift keeps trials apart: a card laid again before the debouncer has
    posted the previous lift would be the same tap as the previous trial's last one.
    """
    taps = lifts = 0
    while True:
        done = taps and lifts >= taps  # every card tapped has been lifted: the trial is over
        try:
            item = inbox.get(timeout=0.3 if done else settle)
        except queue.Empty:
            return taps
        taps += isinstance(item, CardTapped)
        lifts += isinstance(item, CardLifted)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reader_taps", description=__doc__)
    parser.add_argument("--trials", type=int, default=10, help="trials per lift and dwell")
    parser.add_argument("--rearm", type=float, default=None, help="re-arm seconds to try")
    parser.add_argument("--reader", choices=sorted(STACKS), default="pcsc")
    parser.add_argument("--poll-ms", type=int, default=500, help="the PC/SC backend's wait")
    parser.add_argument("--only", choices=("lifts", "dwells"), help="run one table only")
    args = parser.parse_args(argv)
    rng = random.Random(20261201)
    inbox: queue.Queue[Input] = queue.Queue()
    with STACKS[args.reader](args.poll_ms) as (backend, hold):
        deck = Deck({UID: CardId("prop", 16)})
        service = ReaderService(backend, inbox.put, deck, rearm_s=args.rearm)
        rearm = service.debouncer.rearm_s
        settle = rearm + 1.0
        print(f"{backend!r}, re-arm {rearm:g} s")
        with service:
            service.wait_connected(5.0)
            if args.only != "dwells":
                print("lift (s)  two taps")
                for lift in LIFTS:
                    doubled = 0
                    for _ in range(args.trials):
                        hold(0.6 + rng.uniform(0.0, 0.4))
                        time.sleep(lift)
                        hold(0.6)
                        doubled += _taps(inbox, settle) >= 2
                    print(f"{lift:8.2f}  {doubled}/{args.trials}", flush=True)
            if args.only != "lifts":
                print("dwell (s)  seen")
                for dwell in DWELLS:
                    seen = 0
                    for _ in range(args.trials):
                        time.sleep(rng.uniform(0.0, 0.4))
                        hold(dwell)
                        seen += _taps(inbox, settle) >= 1
                    print(f"{dwell:9.2f}  {seen}/{args.trials}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
