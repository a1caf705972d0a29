"""``ultibank tap|press|hold|state|acknowledge``: lines to a running daemon through its control
socket.

Kept apart from :mod:`bank.app.runtime` so that these commands import only the control
client and the settings, never a ruleset, the journal or a driver. The answers are printed
by :func:`bank.app.quick.tell`, the end of the entry point's short way too (``json`` for
``state``, the data directory's door and the control client are loaded when used).
"""

from __future__ import annotations

from bank.app.quick import tell

TYPE_CHECKING = False  # argparse is not imported at start; mypy reads this name as typing's
if TYPE_CHECKING:
    import argparse

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
