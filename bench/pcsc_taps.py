"""What "one tap" means on PC/SC: lifts that split a tap, dwells that are missed (issue 10).

``python -m bench.pcsc_taps [--trials N] [--rearm S] [--poll-ms MS]`` runs the real stack: a
private ``pcscd --foreground`` with vsmartcard-vpcd, :class:`drivers.pcsc.PcscBackend` under
:class:`drivers.supervisor.ReaderService` (debouncer included), and a virtual NTAG215
(``tests/support/pcscd.py``, ``tests/support/vpcd_card.py``). It prints two tables:

* **lifts**: lay a card 0.6-1.0 s (a random phase against pcscd's 400 ms poll), lift it for
  L seconds, lay it again 0.6 s, lift it: how often that counted as two taps;
* **dwells**: lay a card for D seconds once, at a random phase: how often it was tapped.

The default re-arm is the backend's own (``PcscBackend.rearm_s``); ``--rearm`` tries another,
``--poll-ms`` another ``SCardGetStatusChange`` timeout in the backend. Not a ``bench_*`` area:
it measures behaviour, not speed, and writes no report. Imports ``drivers``, ``tests.support``
and the standard library.
"""

from __future__ import annotations

import argparse
import queue
import random
import time
from collections.abc import Sequence

from bank.unit.io import CardLifted, CardTapped, Input
from drivers.deck import Deck
from drivers.pcsc import POLL_MS, PcscBackend
from drivers.supervisor import ReaderService
from tests.support.pcscd import PLAIN_PORT, PLAIN_READER, pcscd_session, wait_card_state
from tests.support.vpcd_card import VirtualNtag

UID = "04A1B2C3D4E5F6"
READER = f"{PLAIN_READER} 00 00"
LIFTS = (0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.4)
DWELLS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.45, 0.5)


def _hold(seconds: float) -> None:
    card = VirtualNtag(UID, port=PLAIN_PORT)
    card.insert()
    time.sleep(seconds)
    card.remove()


def _taps(inbox: queue.Queue[Input], settle: float) -> int:
    """Taps posted until nothing has come for *settle* seconds."""
    taps = 0
    while True:
        try:
            item = inbox.get(timeout=settle)
        except queue.Empty:
            return taps
        taps += isinstance(item, CardTapped)
        if isinstance(item, CardLifted):
            settle = min(settle, 0.5)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pcsc_taps", description=__doc__)
    parser.add_argument("--trials", type=int, default=10, help="trials per lift and dwell")
    parser.add_argument("--rearm", type=float, default=None, help="re-arm seconds to try")
    parser.add_argument("--poll-ms", type=int, default=POLL_MS, help="the backend's wait")
    parser.add_argument("--only", choices=("lifts", "dwells"), help="run one table only")
    args = parser.parse_args(argv)
    rng = random.Random(20261201)
    backend = PcscBackend(f"pcsc:{READER}", poll_ms=args.poll_ms)
    inbox: queue.Queue[Input] = queue.Queue()
    with pcscd_session():
        wait_card_state(READER, present=False)
        service = ReaderService(backend, inbox.put, Deck(), rearm_s=args.rearm)
        rearm = service.debouncer.rearm_s
        settle = rearm + 1.0
        print(f"pcscd + vpcd, re-arm {rearm:g} s, SCardGetStatusChange {args.poll_ms} ms")
        with service:
            service.wait_connected(5.0)
            if args.only != "dwells":
                print("lift (s)  two taps")
                for lift in LIFTS:
                    doubled = 0
                    for _ in range(args.trials):
                        _hold(0.6 + rng.uniform(0.0, 0.4))
                        time.sleep(lift)
                        _hold(0.6)
                        doubled += _taps(inbox, settle) >= 2
                    print(f"{lift:8.2f}  {doubled}/{args.trials}", flush=True)
            if args.only != "lifts":
                print("dwell (s)  seen")
                for dwell in DWELLS:
                    seen = 0
                    for _ in range(args.trials):
                        time.sleep(rng.uniform(0.0, 0.4))
                        _hold(dwell)
                        seen += _taps(inbox, settle) >= 1
                    print(f"{dwell:9.2f}  {seen}/{args.trials}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
