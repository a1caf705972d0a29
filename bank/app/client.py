"""``ultibank tap|press|hold|state|acknowledge``: lines to a running daemon through its control
socket.

Kept apart from :mod:`bank.app.runtime` so that these commands import only the control
client and the settings, never a ruleset, the journal or a driver. At start this module
imports only ``sys`` and the control client: :func:`tell` is also the end of the short way
of :mod:`bank.app.quick` (``json`` for ``state`` and the data directory's door are loaded
when used).
"""

from __future__ import annotations

import sys

from bank.services.control_client import send_lines

TYPE_CHECKING = False  # argparse is not imported at start; mypy reads this name as typing's
if TYPE_CHECKING:
    import argparse
    import os

    from bank.services.settings import Settings

#: the control line that acknowledges the damage found in the journal
ACK_LINE = "acknowledge damage"


def cmd_control(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank tap|press|hold|state|acknowledge``: one line to the running daemon."""
    if settings.control_socket.parent == settings.data_dir:
        from bank.services.datadir import open_data_dir

        # game.strict_modes: refuse a data directory other users could tamper with
        open_data_dir(settings.data_dir, bool(settings.get("game", "strict_modes")), create=False)
    if args.command == "state":
        lines = ["state"]
    elif args.command == "acknowledge":
        lines = [ACK_LINE]
    elif args.command == "hold":
        lines = [f"hold {args.buttons} {args.seconds}"]
    else:  # `tap bank:1 bank:2`: one line each, in order, over one connection
        lines = [f"{args.command} {what}" for what in args.what]
    return tell(settings.control_socket, lines)


def tell(socket: str | os.PathLike[str], lines: list[str]) -> int:
    """Send *lines* to the daemon behind *socket* and print its answers: the screens on
    stdout, a refusal in one line on stderr (status 2, the lines after it not sent)."""
    for answer in send_lines(socket, lines, timeout=60):
        if not answer.get("ok"):
            print(f"ultibank: {answer.get('error')}", file=sys.stderr)
            return 2  # the ones after it are not sent
        if "state" in answer:
            import json

            print(json.dumps(answer["state"], indent=2, ensure_ascii=False))
        for text in answer.get("output", []):
            text = str(text)
            if not text.isprintable():
                from bank.unit.text import printable

                text = printable(text)  # a house edition's name never drives the terminal
            print(text)
    return 0
