"""The commands that play on a running daemon through its control socket: ``ultibank key``,
``roll`` and ``info`` (a classic unit's keypad, dice and info screens), and the part of every
client command's ``--help`` that asks the running game what it takes.

Imports the standard library and the control client (:mod:`bank.services.control_client`) only, so
these commands start fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bank.services.control_client import ControlError, send_lines

if TYPE_CHECKING:
    from bank.services.settings import Settings

#: the dice item of a classic unit's menu (docs/classic.md §5.5): what ``ultibank roll`` opens
DICE_ITEM = 11


def control_lines(args: argparse.Namespace) -> list[str]:
    """The control lines one client command sends, in order."""
    if args.command == "key":
        return [f"key {what}" for what in args.keys]
    if args.command == "info":
        return [f"info {args.name}"]
    # roll: the dice fixed first (if given), then the dice item unless --fix-only
    lines = []
    if args.dice:
        lines.append("roll " + " ".join(args.dice))
    if not args.fix_only:
        lines.append(f"menu {DICE_ITEM}")
    return lines


def check_roll(args: argparse.Namespace) -> str | None:
    """What is wrong with ``roll``'s arguments (None: nothing)."""
    if args.dice and len(args.dice) not in (2, 3):
        return "roll takes no dice (the unit rolls) or two: roll A B (Méga, Star Wars: roll A B T)"
    if args.fix_only and not args.dice:
        return "roll --fix-only needs the dice to fix: roll A B --fix-only"
    return None


def cmd_play(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank key|roll|info``: the lines to the running daemon, its screens and cues out."""
    from bank.services.datadir import open_data_dir
    from bank.unit.text import printable

    if args.command == "roll" and (problem := check_roll(args)) is not None:
        print(f"ultibank: {problem} (see `ultibank roll --help`)", file=sys.stderr)
        return 2
    if settings.control_socket.parent == settings.data_dir:  # the data directory's door
        open_data_dir(settings.data_dir, bool(settings.get("game", "strict_modes")), create=False)
    for answer in send_lines(settings.control_socket, control_lines(args), timeout=60):
        if not answer.get("ok"):
            print(f"ultibank: {answer.get('error')}", file=sys.stderr)
            return 2  # the ones after it are not sent
        for text in answer.get("output", []):
            print(printable(str(text)))  # a house edition's name never drives the terminal
    if args.command == "roll" and args.dice and args.fix_only:
        print(f"next roll fixed: {' + '.join(args.dice)} (rolled at the next dice gesture)")
    return 0


# ---------------------------------------------------------------------- --help


def describe_takes(takes: dict[str, Any]) -> list[str]:
    """The running game's answer to ``takes``, in the help's words."""
    lines = [f"The running game ({takes['edition']}) takes:"]
    lines.append("  tap   " + ", ".join(takes["cards"]) + ", uid:HEX")
    if takes.get("tokens"):
        lines.append("        " + ", ".join(takes["tokens"]))
    lines.append("  press ok, menu, cancel;  hold cancel 5, hold ok+cancel 5")
    if takes.get("keys"):
        lines.append("  key   DIGITS (e.g. 150), back")
    if takes.get("roll"):
        third = takes.get("third") or []
        lines.append(
            "  roll  (the unit rolls), roll A B" + (f" T (T: {', '.join(third)})" if third else "")
        )
    else:
        lines.append(f"  key, roll, info: not in {takes['edition']} (an Ultime unit has no keypad)")
    if takes.get("info"):
        lines.append("  info  " + ", ".join(takes["info"]))
    return lines


def _help_socket(argv: list[str]) -> Path | None:
    """The control socket the command line names (--socket, --data-dir, --config, --set or
    the environment); None when the configuration cannot be read (the help says nothing more)."""
    from bank.services.settings import load_settings

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--socket")
    pre.add_argument("--data-dir")
    pre.add_argument("--config")
    pre.add_argument("--set", action="append", default=[])
    known, _ = pre.parse_known_args(argv)
    flags = [
        (flag, key, value)
        for flag, key, value in (
            ("--data-dir", "game.data_dir", known.data_dir),
            ("--socket", "control.socket", known.socket),
        )
        if value is not None
    ]
    try:
        return load_settings(known.config, known.set, flags).control_socket
    except Exception:
        return None


def running_game_help(argv: list[str]) -> str:
    """The lines a client command's ``--help`` ends with: what the running game takes, or why
    none answered."""
    sock = _help_socket(argv)
    if sock is None:
        return ""
    try:
        answer = next(iter(send_lines(sock, ["takes"], timeout=2.0)))
    except (ControlError, OSError, StopIteration):
        return (
            f"\nNo daemon answers at {sock} now; once one runs (`ultibank run` or `ultibank "
            "emulate`, with the same --data-dir), this help lists what its game takes."
        )
    takes = answer.get("takes")
    if not answer.get("ok") or not isinstance(takes, dict):
        return ""  # a daemon older than `takes`
    return "\n" + "\n".join(describe_takes(takes))


class RunningGameHelp(argparse.Action):
    """``-h/--help`` of a client command: the usual help, then what the running game takes."""

    def __init__(self, option_strings: list[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        parser.print_help()
        from bank.app import cli

        extra = running_game_help(sys.argv[1:] if cli.ARGV is None else cli.ARGV)
        if extra:
            print(extra)
        parser.exit()
