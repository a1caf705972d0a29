"""The ``ultibank`` command: the one place that wires readers, panels, the unit and the journal.

Only the standard library is imported at start, so ``ultibank --help`` stays fast; each
subcommand imports what it needs.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from bank.settings import Settings

DESCRIPTION = """\
ultibank: the electronic bank unit of Monopoly Électronique Ultime / Ultimate Banking.

Everyday use:
  ultibank emulate              play on this computer: a window with the LCD, the buttons and
                                every card (a terminal view where there is no display)
  ultibank run                  the daemon for a box or a laptop with a real reader
  ultibank tap prop:16          tap a card on a running daemon (also: press ok, state)
  ultibank script game.tap      replay a tap script on a virtual clock (no window, no reader)
  ultibank history              the stored games
  ultibank readers              what readers this machine sees, and why not
"""

EPILOG = """\
Configuration: a TOML file (--config, default ~/.config/ultibank/config.toml) with tables
[game] [rules] [unit] [reader] [panel] [control] [web], and a classic game's [classic] and
[variants]; --set TABLE.KEY=VALUE overrides any value, e.g. --set rules.auction_seconds=15.
See README.md for every key.
"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line: what is wrong and where to read more."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def _card_name(text: str) -> str:
    """A card name as some edition knows it (``prop:16``, ``deed:12``, ``chest:3``,
    ``bank:boat``); refused with the reason. The command checks it against the edition."""
    from bank.unit.io import CardId
    from drivers.deck import record_cards

    kind, _, name = text.strip().lower().partition(":")
    if kind == "bank" and name and not name.isdigit():
        return text  # a token name: the edition's (``bank:dog`` in classic-fr)
    try:
        CardId.parse(text, record_cards())  # within the largest range any edition gives
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def _add_data_dir(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--data-dir",
        type=Path,
        help=f"{what} (default $ULTIBANK_DATA_DIR, else ~/.local/share/ultibank)",
    )


def _add_global_options(p: argparse.ArgumentParser, top: bool) -> None:
    """-v, --config and --set, accepted before or after the subcommand."""
    # A subparser writes every dest it knows over the main parser's, so the copies after the
    # subcommand have their own dests, merged in main().
    tail = "" if top else "_after"
    p.add_argument(
        "-v", "--verbose", dest="verbose" + tail, action="count", default=0,
        help="more log (-vv: debug)",
    )  # fmt: skip
    p.add_argument("--config", dest="config" + tail, type=Path, help="configuration file (TOML)")
    p.add_argument(
        "--set",
        dest="overrides" + tail,
        action="append",
        default=[],
        metavar="TABLE.KEY=VALUE",
        help="override one configuration value (repeatable)",
    )


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", help="edition: ultime-fr (default) or ultimate-uk, or a .toml file")
    _add_data_dir(p, "where the game journal lives")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ultibank",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, **kw: Any) -> argparse.ArgumentParser:
        p = sub.add_parser(name, **kw)
        _add_global_options(p, top=False)
        return p

    p = add(
        "run",
        help="run the bank daemon with the configured readers and panels",
        description="Run the bank daemon: readers and panels post to one loop that owns the "
        "game; every transaction is journalled before the unit confirms it. A control socket "
        "takes `ultibank tap/press/state`. Stops cleanly on SIGTERM or Ctrl-C.",
    )
    _add_game_options(p)
    p.add_argument(
        "--reader",
        action="append",
        help="reader path (repeatable): sim, pcsc[:FILTER], usb[:VID[:PID]], tty:PORT:pn532, "
        "udp[:HOST][:PORT]",
    )
    p.add_argument(
        "--panel",
        action="append",
        help="panel (repeatable): terminal, pygame, serial:PORT, gpio, sim",
    )
    p.add_argument("--deck", type=Path, help="deck file mapping card UIDs (from `ultibank enroll`)")
    p.add_argument(
        "--socket", type=Path, help="control socket path (default DATA_DIR/control.sock)"
    )
    _add_web_options(p)
    _add_speech_option(p)

    p = add(
        "emulate",
        help="play on this computer: the pygame unit (or a terminal view without a display)",
        description="The emulated unit: a window with the LCD, the three buttons and a tray of "
        "every card (click a card to tap it). With --reader, real cards are read too. Without "
        "a display it says so and runs in the terminal.",
    )
    _add_game_options(p)
    p.add_argument(
        "--reader", action="append", help="also read real cards: pcsc, usb, tty:..., udp"
    )
    p.add_argument("--deck", type=Path, help="deck file for real cards")
    p.add_argument(
        "--terminal", action="store_true", help="use the terminal view even with a display"
    )
    p.add_argument(
        "--screenshot",
        type=Path,
        metavar="PNG",
        help="save the window as PNG once drawn, then quit (for automated runs)",
    )
    p.add_argument(
        "--socket", type=Path, help="control socket path (default DATA_DIR/control.sock)"
    )
    _add_web_options(p)
    _add_speech_option(p)

    p = add(
        "script",
        help="run a tap script on a virtual clock and print the transcript",
        description="Run FILE (one action per line: tap bank:N|prop:N|event:N|uid:HEX, press "
        "ok|menu|cancel, hold cancel S, hold ok+cancel S, wait S, power off|on; in a classic "
        "edition also tap deed:N|chance:N|chest:N, key DIGITS|back, roll A B, info NAME) "
        "against the simulated reader and panel on a virtual clock. Prints each screen and "
        "cue; --state writes the final state as JSON (- for stdout). Exit 2 on a line that "
        "does not parse.",
    )
    p.add_argument("file", type=Path)
    p.add_argument(
        "--edition",
        default=None,
        help="ultime-fr (default for a new game), ultimate-uk, or a classic edition: "
        "classic-fr, classic-uk, starwars-ep2-fr, one-piece-fr; a game stored in --data-dir "
        "goes on in its own edition",
    )
    p.add_argument("--data-dir", type=Path)
    p.add_argument("--state", help="write the final state here (- for stdout)")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="a classic edition's dice seed for a new game (default 0); --set "
        "classic.KEY=VALUE and variants.KEY=VALUE choose its decisions and house rules",
    )
    p.add_argument(
        "--say",
        nargs="?",
        const="all",
        choices=("all", "money", "off"),
        help="print what the speaking unit says, a 'say' line each sentence (all: every "
        "transaction and screen a player acts on; money: money and refusals; off: only "
        "after hold menu S switches it on)",
    )
    p.add_argument(
        "--record",
        type=Path,
        metavar="DIR",
        help="say the sentences with espeak-ng into DIR: 0001.wav and 0001.txt for each input "
        "that speaks (implies --say)",
    )

    socket_help = "control socket of the daemon (default DATA_DIR/control.sock)"
    where = "the data directory of the daemon (the one it was started with)"
    for name, helptext in (
        (
            "tap",
            "tap cards on the running daemon, in order: bank:N, bank:car, prop:N, event:N, uid:HEX",
        ),
        ("press", "press buttons on the running daemon, in order: ok, menu or cancel"),
    ):
        p = add(name, help=helptext, description=helptext)
        p.add_argument("what", nargs="+")
        _add_data_dir(p, where)
        p.add_argument("--socket", type=Path, help=socket_help)
    helptext = "hold buttons on the running daemon: hold cancel 5, hold ok+cancel 5"
    p = add(
        "hold",
        help=helptext,
        description="Hold BUTTONS (cancel, or ok+cancel) down for SECONDS on the running "
        "daemon, then release them: hold cancel 5 resets the game, hold ok+cancel 5 undoes "
        "the last transaction.",
    )
    p.add_argument("buttons", help="cancel or ok+cancel")
    p.add_argument("seconds", type=float, help="how long to hold them (the unit wants 5)")
    _add_data_dir(p, where)
    p.add_argument("--socket", type=Path, help=socket_help)
    p = add(
        "state",
        help="print the running daemon's state (JSON)",
        description="Print the running daemon's game state and the screen on its LCD (JSON).",
    )
    _add_data_dir(p, where)
    p.add_argument("--socket", type=Path, help=socket_help)
    p = add(
        "acknowledge",
        help="acknowledge damage found in the journal (shown on the unit until then)",
        description="Damage found when the journal opened (transactions lost with a damaged "
        "or older file, an unreadable tip, a game ended outside ultibank) shows on every "
        "panel, in `state` and on the web view until a person has checked the balances with "
        "the players and runs this. The finding stays in the journal for `history`.",
    )
    _add_data_dir(p, where)
    p.add_argument("--socket", type=Path, help=socket_help)

    p = add(
        "history",
        help="list stored games; `history show N`, `history export N --csv|--json`, "
        "`history backup FILE`",
        description="The games stored in the journal: archived ones (after a reset), a "
        "finished one (game over, not yet reset) and the current one. Works while a daemon "
        "plays on the same data directory: the journal is read, never written. "
        "`history backup FILE` copies the whole journal into FILE, safely, even while the "
        "daemon runs.",
    )
    p.add_argument(
        "action", nargs="?", choices=["list", "show", "export", "backup"], default="list"
    )
    p.add_argument("game", nargs="?", metavar="N|FILE", help="a game number; backup: a file")
    p.add_argument("--overwrite", action="store_true", help="backup: replace an existing FILE")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true")
    fmt.add_argument("--json", action="store_true")
    p.add_argument("--output", "-o", type=Path, help="write the export to a file")
    p.add_argument(
        "--lang",
        choices=["fr", "en"],
        help="the language of a classic game's transactions in words (show, export); "
        "default: the unit's language, else the edition's",
    )
    _add_data_dir(p, "where the game journal lives")

    add(
        "readers",
        help="list the readers each NFC stack sees and explain the usual faults",
        description="Looks for PC/SC readers (pcscd) and nfcpy readers (USB, serial) and says in "
        "plain words what is in the way: pcscd not running, a kernel module holding the "
        "reader, missing permissions, libusb missing, an ACR122U firmware nfcpy cannot drive.",
    )

    p = add(
        "enroll",
        help="teach the bank your cards: tap each card of the deck when asked",
        description="Walks through every card of the edition (ultime-fr: 4 bank, 22 property, "
        "23 event cards; a classic edition: 8 bank cards, 28 deeds, 16 Chance and 16 Community "
        "Chest cards), asking you to tap each one, and writes the deck file of their UIDs.",
    )
    p.add_argument(
        "--edition",
        help="the edition whose cards to enroll (default: the configured one, ultime-fr), e.g. "
        "classic-fr",
    )
    p.add_argument("--reader", default=None, help="reader path (default: the configured one)")
    p.add_argument("--deck", type=Path, help="deck file to write (default DATA_DIR/deck.toml)")
    p.add_argument(
        "--only",
        nargs="*",
        type=_card_name,
        help="enroll only these cards (e.g. prop:3 bank:2; deed:12 chance:3 chest:3)",
    )
    _add_data_dir(p, "where the deck file goes (DATA_DIR/deck.toml)")
    p.add_argument(
        "--panel",
        action="append",
        help="also show the prompts on this panel (gpio, serial:PORT; default: the configured "
        "panels other than the terminal, which the prompts already use)",
    )

    p = add(
        "write-card",
        help="write a card's identity (NDEF record) onto a blank NFC tag",
        description="Writes the project's NDEF record naming CARD (e.g. prop:16, deed:12, "
        "chance:3, chest:3) onto a blank NFC Forum Type 2 tag (NTAG213/215/216) on the reader. "
        "A full, locked or foreign tag is refused with the reason. CARD must be a card of the "
        "edition when one is given (--edition or the configuration), else of any edition.",
    )
    p.add_argument("card", type=_card_name)
    p.add_argument("--edition", help="refuse a CARD this edition does not have (e.g. classic-fr)")
    p.add_argument("--reader", default=None, help="reader path (default: the configured one)")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an NDEF message already on the tag (never a locked tag)",
    )
    return parser


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(
        level=max(level, logging.DEBUG),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _settings(args: argparse.Namespace) -> Settings:
    from bank.settings import load_settings

    # flags go in as typed values, never through TOML text: "/tmp/x\by" keeps its backslash
    flags = [
        (flag, name, value if isinstance(value, int) else str(value))
        for flag, dest, name in _SETTING_FLAGS
        if (value := getattr(args, dest, None)) is not None
    ]
    return load_settings(args.config, args.overrides, flags)


#: the flags that stand for a configuration value: (flag, its dest, TABLE.KEY)
_SETTING_FLAGS = (
    ("--edition", "edition", "game.edition"),
    ("--data-dir", "data_dir", "game.data_dir"),
    ("--socket", "socket", "control.socket"),
    ("--deck", "deck", "reader.deck"),
    ("--web-host", "web_host", "web.host"),
    ("--web-port", "web_port", "web.port"),
)


def _add_speech_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--speak",
        action="store_true",
        help="the unit speaks: every transaction and every screen a player acts on, said "
        "aloud with espeak-ng ([speech] in the configuration: engine, voice, rate, volume, "
        "what is said); at the table, hold M 3 s to switch it on or off, hold ✓ 3 s to hear "
        "the last sentence again",
    )


def _add_web_options(p: argparse.ArgumentParser) -> None:
    """--web, --web-host, --web-port: the read-only table view (bank/web.py)."""
    p.add_argument(
        "--web",
        action="store_true",
        help="also serve the read-only table view in a browser (needs ultibank[web])",
    )
    p.add_argument(
        "--web-host",
        metavar="ADDRESS",
        help="address of the web view (default [web] host, 127.0.0.1; 0.0.0.0 exposes it, "
        "read-only)",
    )
    p.add_argument(
        "--web-port",
        type=int,
        metavar="PORT",
        help="port of the web view (default [web] port, 8080; 0 picks a free one)",
    )


#: the commands that talk to a running daemon through its control socket
CLIENT_COMMANDS = ("tap", "press", "hold", "state", "acknowledge")

#: exit status when standard output was closed early (``ultibank history | head``), as a
#: shell reports a command killed by SIGPIPE
BROKEN_PIPE_EXIT = 128 + 13


def _user_errors() -> tuple[type[BaseException], ...]:
    """The errors that mean the user (or the machine) is in the way, not a bug of ultibank.

    Each is told in one line. OSError covers a file or directory that cannot be read or
    written, and ConnectionError a daemon that is not there.
    """
    from bank.errors import BankError
    from board_assets import EditionError
    from drivers.base import DriverError

    return (BankError, DriverError, EditionError, OSError)


def _quiet_alsa() -> None:
    """Give libasound an error handler that prints nothing, before the mixer opens.

    Without a sound card, opening the mixer makes libasound print eight ``ALSA lib ...`` lines
    on stderr before the emulator says, in one line, that there is no sound. pygame-ce's wheel
    carries its own libasound (``pygame_ce.libs``); a system pygame uses the system one.

    The handler must be C: libasound calls it from SDL's audio threads while the main thread
    holds Python's lock in ``mixer.init``, so a Python callback would deadlock. libc's
    ``getpid`` takes no arguments and changes nothing; C callers clean up their own
    arguments, so it serves as a handler that ignores what it is told.
    """
    import ctypes

    try:
        from firmware_sim.pg import pygame
    except ImportError:
        return
    try:
        silence = ctypes.cast(ctypes.CDLL(None).getpid, ctypes.c_void_p)
    except (OSError, AttributeError):
        return
    libs = Path(pygame.__file__).resolve().parent.parent / "pygame_ce.libs"
    candidates = [str(p) for p in sorted(libs.glob("libasound*.so*"))] + ["libasound.so.2"]
    for name in candidates:
        try:
            set_handler = ctypes.CDLL(name).snd_lib_error_set_handler
        except (OSError, AttributeError):
            continue
        set_handler.argtypes = [ctypes.c_void_p]
        set_handler(silence)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``ultibank`` command.

    A user's mistake ends in one line on stderr and a non-zero exit (1; 2 for a command line
    that does not parse); anything else is a bug and keeps its traceback. ``-vv`` shows the
    traceback of a user error too.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is not None:
        args.verbose += args.verbose_after
        args.config = args.config_after or args.config
        args.overrides += args.overrides_after
    _setup_logging(args.verbose)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        status = _dispatch(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit as "Exception ignored"
        return status
    except BrokenPipeError:
        # the reader of our output has gone (`| head`): say nothing, as cat and grep do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_EXIT
    except KeyboardInterrupt:
        return 130
    except _user_errors() as err:
        logging.getLogger("ultibank").debug("the error in full:", exc_info=True)
        print(f"ultibank: {_one_line(err, args)}", file=sys.stderr)
        return 1


def _one_line(err: BaseException, args: argparse.Namespace) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    if isinstance(err, ConnectionError) and args.command in CLIENT_COMMANDS:
        text += (
            f". For a daemon started with --data-dir DIR: `ultibank {args.command} "
            "--data-dir DIR ...` (or set ULTIBANK_DATA_DIR=DIR); with --socket PATH: "
            f"`ultibank {args.command} --socket PATH ...`"
        )
    return text


def _dispatch(args: argparse.Namespace) -> int:
    handlers = {
        "run": "bank.app.runtime:cmd_run",
        "emulate": "bank.app.runtime:cmd_emulate",
        "script": "bank.app.runtime:cmd_script",
        "tap": "bank.app.runtime:cmd_control",
        "press": "bank.app.runtime:cmd_control",
        "hold": "bank.app.runtime:cmd_control",
        "state": "bank.app.runtime:cmd_control",
        "acknowledge": "bank.app.runtime:cmd_control",
        "history": "bank.history:cmd_history",
        "readers": "bank.app.runtime:cmd_readers",
        "enroll": "bank.app.runtime:cmd_enroll",
        "write-card": "bank.app.runtime:cmd_write_card",
    }
    module_name, func_name = handlers[args.command].split(":")
    import importlib

    if args.command == "emulate" and not args.terminal:
        _quiet_alsa()
    settings = _settings(args) if args.command != "script" else None
    func: Any = getattr(importlib.import_module(module_name), func_name)
    return int(func(args, settings))


if __name__ == "__main__":
    sys.exit(main())
