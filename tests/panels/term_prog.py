"""A small program using the terminal panel, for the pty tests.

``python -m tests.panels.term_prog HOLD_SECONDS``: shows one screen, prints every posted
input to stderr (one ``repr`` a line), and exits 0 when the panel's on_quit fires.
"""

from __future__ import annotations

import sys
import threading

from bank.unit.io import Icon, Input, Screen
from drivers.terminal_panel import TerminalPanel


def main() -> int:
    hold = float(sys.argv[1]) if len(sys.argv) > 1 else 5.5
    done = threading.Event()

    def post(item: Input) -> None:
        sys.stderr.write(repr(item) + "\n")
        sys.stderr.flush()

    panel = TerminalPanel(on_quit=done.set, hold_seconds=hold, clock=lambda: 7.0)
    panel.start(post)
    panel.show(
        Screen(
            "balance", lines=("Joueur 3",), token="boat", amount=1500, icons=frozenset({Icon.GO})
        )
    )
    done.wait(30)
    panel.close()
    sys.stdout.write("bye\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
