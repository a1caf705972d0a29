"""``python -m firmware_sim``: the emulator window on its own, without a bank behind it.

It shows a fixed screen (or the last input, with ``--echo``) and prints every input the
window posts, one line each, so the window can be tried and scripted (xdotool) without the
daemon. The real game is ``ultibank emulate``. Contains no rule. The window draws the
panel vocabulary it is given (``labels_for``): ``python -m bank.app.window`` is the same
window with the vocabulary the edition's ruleset gives (a classic edition's keypad window and
tray); on its own it shows the window's own tray of bank, property and event cards.

Imports the emulator, ``bank.unit.io``, ``board_assets`` and the standard library.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from bank.unit.io import (
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Icon,
    InfoAsked,
    Input,
    KeyPressed,
    KeyReleased,
    Labels,
    MenuAsked,
    Screen,
)
from board_assets import Edition, load_edition
from firmware_sim.emulator import PygamePanel, display_available
from firmware_sim.layout import TapCard, hotspots
from firmware_sim.pg import pygame

DEMO_SCREENS = {
    "property": Screen(
        name="property",
        lines=("Place de la Bourse", "Loyer 280 M€"),
        amount=280,
        number=16,
        token="boat",
        level=2,
        colour="#f2c80f",
    ),
    "balance": Screen(name="balance", lines=("Bateau", "Solde"), amount=1500, token="boat"),
    "auction": Screen(
        name="auction",
        lines=("Enchères #11", "✓ +20   X annule"),
        amount=240,
        number=11,
        countdown=7,
        icons=frozenset({Icon.AUCTION}),
        colour="#f28c28",
    ),
    "off": Screen(name="off", off=True),
    # a title card (a classic edition's deed, docs/classic.md §5.5): its owner's label, 2
    # houses, the rent; named as the ruleset's vocabulary names its title cards
    "title": Screen(
        name="title",
        lines=("12 Avenue Mozart", "chien loyer 200 €"),
        amount=200,
        number=12,
        token="dog",
        level=2,
        colour="#f28c28",
    ),
}


def describe(item: Input) -> str:
    """One line for an input: ``tap bank:1``, ``lift``, ``press ok``, ``release ok``."""
    if isinstance(item, CardTapped):
        return f"tap {item.card}"
    if isinstance(item, CardLifted):
        return "lift"
    if isinstance(item, ButtonPressed):
        return f"press {item.button.value}"
    if isinstance(item, ButtonReleased):
        return f"release {item.button.value}"
    if isinstance(item, KeyPressed):
        return f"key {item.key}"
    if isinstance(item, KeyReleased):
        return f"key-up {item.key}"
    if isinstance(item, InfoAsked):
        return f"info {item.name}"
    if isinstance(item, MenuAsked):
        return f"menu {item.item}"
    return type(item).__name__


def main(
    argv: list[str] | None = None,
    labels_for: Callable[[Edition], Labels] | None = None,
    prog: str = "python -m firmware_sim",
) -> int:
    """Run the window until it is closed; 0 on a clean stop. *labels_for* gives the panel
    vocabulary of the edition (the wiring's: its ruleset's)."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--screen", choices=sorted(DEMO_SCREENS), default="property")
    parser.add_argument("--echo", action="store_true", help="show each input on the LCD")
    parser.add_argument("--edition", default="ultime-fr")
    parser.add_argument("--no-sound", action="store_true")
    parser.add_argument("--screenshot", metavar="FILE", help="save a PNG after the first frame")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--on-reader", metavar="CARD", help="start with this card (e.g. prop:16) held on the reader"
    )
    parser.add_argument("--hover", metavar="CARD", help="start with the mouse over this card")
    parser.add_argument("--keys", action="store_true", help="start with the help (F1) shown")
    args = parser.parse_args(argv)

    if not display_available():
        print("no display: set DISPLAY (X11) or WAYLAND_DISPLAY", file=sys.stderr)
        return 2
    stop = threading.Event()
    edition = load_edition(args.edition)
    labels = labels_for(edition) if labels_for is not None else None
    panel = PygamePanel(edition, sound=not args.no_sound, on_quit=stop.set, labels=labels)

    def post(item: Input) -> None:
        print(describe(item), flush=True)
        if args.echo:
            panel.show(Screen(name="echo", lines=(describe(item),)))
            panel.play(Cue.READ)

    panel.start(post)
    demo = DEMO_SCREENS[args.screen]
    if args.screen == "title" and labels is not None and labels.title is not None:
        demo = replace(demo, name=labels.title.screen)
    panel.show(demo)
    # Installed before SDL starts, so SDL keeps them (it only replaces default handlers).
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    panel.open()
    tray = panel.tray_view.tray if panel.tray_view else None
    if args.on_reader:
        card = CardId.parse(args.on_reader)
        spot = next(s for s in hotspots(panel.edition, tray) if s.action == TapCard(card))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.centre, button=1))
    if args.hover:
        card = CardId.parse(args.hover)
        spot = next(s for s in hotspots(panel.edition, tray) if s.action == TapCard(card))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=spot.centre, rel=(0, 0),
                                             buttons=(0, 0, 0)))  # fmt: skip
    if args.keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, unicode="", mod=0))
    panel.step()
    if args.screenshot:
        panel.save_screenshot(args.screenshot)
    print("ready", flush=True)
    if args.seconds is not None:
        threading.Timer(args.seconds, stop.set).start()
    started = time.monotonic()
    panel.run_ui(stop)
    print(f"stopped after {time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
