"""The ``ultibank`` command: the one place that wires readers, panels, the unit and the journal.

Only ``argparse`` and what the interpreter loads anyway are imported at start, so
``ultibank --help`` stays fast: each subcommand is one :class:`Subcommand` in
:data:`COMMANDS`, whose arguments are added only when that subcommand is parsed and whose
handler (``module:function``) is imported only when it runs. ``tap``, ``press``, ``hold``
and ``state`` import the control client and the settings, never a ruleset
(``tests/cli/test_startup_imports.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bank.app.quick import help_width

# typing costs an import at start; mypy reads this name as typing's own flag
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, NoReturn

    from bank.services.settings import Settings

#: every edition shipped, as the help texts name them (a test holds it to board_assets)
EDITIONS = (
    "ultime-fr, ultimate-uk (Ultime: bank cards, property and event cards), classic-fr, "
    "classic-uk, mega-fr, mega-uk, starwars-ep2-fr, one-piece-fr (classic boxes: title deeds, "
    "Chance and Community Chest cards, a keypad)"
)

DESCRIPTION = """\
ultibank: the electronic bank unit of Monopoly Électronique Ultime / Ultimate Banking, and
of the classic Monopoly boxes played with a bank unit (title deeds tagged, a keypad).

Editions: ultime-fr, ultimate-uk (Ultime: bank cards, property and event cards),
  classic-fr, classic-uk, mega-fr, mega-uk, starwars-ep2-fr, one-piece-fr (classic boxes:
  title deeds, Chance and Community Chest cards, a keypad).

Everyday use:
  ultibank emulate --edition classic-fr
                                play on this computer: a window with the LCD, the buttons,
                                the keypad and every card (a terminal view without a display);
                                without --edition the stored game goes on in its own edition
  ultibank run                  the daemon for a box or a laptop with a real reader
  ultibank tap deed:12          tap a card on a running daemon (prop:16 in Ultime; also
                                press ok, key 150, roll, info table, state)
  ultibank script game.tap      replay a tap script on a virtual clock (no window, no reader)
  ultibank history              the stored games
  ultibank readers              what readers this machine sees, and why not
  ultibank print-deck           a sheet of every card of an edition, to tag a deck
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
        self.exit(2, f"ultibank: {message} (see `{self.prog} --help`)\n")


def _card_name(text: str) -> str:
    """A card name's form (``prop:16``, ``deed:12``, ``chest:3``, ``bank:boat``); refused with
    the reason. The command checks its number against the edition in use (``deed:40`` on
    classic-fr: 1..28), not here, where the edition is not known yet."""
    from bank.unit.io import CardId

    kind, _, name = text.strip().lower().partition(":")
    if kind == "bank" and name and not name.isdigit():
        return text  # a token name: the edition's (``bank:dog`` in classic-fr)
    try:
        CardId.parse(text)
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
    p.add_argument(
        "--edition",
        help=f"edition: {EDITIONS}, or a .toml file. Default: the game stored in the data "
        "directory goes on in its own edition; a new game is ultime-fr (or [game] edition)",
    )
    p.add_argument(
        "--new-game",
        action="store_true",
        help="start a new game (of --edition) even if the data directory holds one: the "
        "stored game is archived, and stays in `ultibank history`",
    )
    _add_data_dir(p, "where the game journal lives")


class Subcommand:
    """One subcommand of ``ultibank``.

    *arguments* adds the command's own arguments to its parser; it runs only when the command
    is used (or for a full parser, :func:`build_parser`), so ``ultibank --help`` and
    ``ultibank tap`` build only what they show or use. *handler* is ``"module:function"``,
    imported when the command runs and called with the parsed arguments and the settings
    (None when *settings* is False: the command reads its configuration itself). A command
    for the running daemon (*running_game*) has a ``--help`` that ends with what the running
    game takes, asked of the daemon (:class:`bank.app.play.RunningGameHelp`).

    Adding a command is one entry in :data:`COMMANDS` and, if it takes arguments, one function.
    """

    __slots__ = ("arguments", "description", "handler", "help", "name", "running_game", "settings")

    def __init__(
        self,
        name: str,
        help: str,
        handler: str,
        arguments: Callable[[argparse.ArgumentParser], None] | None = None,
        description: str | None = None,
        settings: bool = True,
        running_game: bool = False,
    ) -> None:
        self.name = name
        self.help = help
        self.handler = handler
        self.arguments = arguments
        self.description = description or help
        self.settings = settings
        self.running_game = running_game


def _run_arguments(p: argparse.ArgumentParser) -> None:
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


def _emulate_arguments(p: argparse.ArgumentParser) -> None:
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


def _script_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path)
    p.add_argument(
        "--edition",
        default=None,
        help=f"{EDITIONS}; default: a game stored in --data-dir goes on in its own "
        "edition, else ultime-fr",
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


_SOCKET_HELP = "control socket of the daemon (default DATA_DIR/control.sock)"
_DAEMON_DIR = "the data directory of the daemon (the one it was started with)"


def _client_options(p: argparse.ArgumentParser) -> None:
    _add_data_dir(p, _DAEMON_DIR)
    p.add_argument("--socket", type=Path, help=_SOCKET_HELP)


def _tap_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", nargs="+", metavar="CARD")
    _client_options(p)


def _press_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", nargs="+", metavar="BUTTON")
    _client_options(p)


def _key_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keys", nargs="+", metavar="DIGITS|back")
    _client_options(p)


def _roll_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dice", nargs="*", metavar="A B [T]")
    p.add_argument(
        "--fix-only",
        action="store_true",
        help="only fix the next roll the unit makes; open nothing",
    )
    _client_options(p)


def _info_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", metavar="NAME")
    _client_options(p)


def _hold_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("buttons", help="cancel or ok+cancel")
    p.add_argument("seconds", type=float, help="how long to hold them (the unit wants 5)")
    _client_options(p)


def _history_arguments(p: argparse.ArgumentParser) -> None:
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
        help="the language of the transactions in words (a classic game's show, every export); "
        "default: the unit's language, else the edition's",
    )
    _add_data_dir(p, "where the game journal lives")


def _enroll_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--edition",
        help=f"the edition whose cards to enroll: {EDITIONS} (default: the configured one, "
        "else ultime-fr)",
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


def _write_card_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("card", type=_card_name)
    p.add_argument("--edition", help=f"refuse a CARD this edition does not have: {EDITIONS}")
    p.add_argument("--reader", default=None, help="reader path (default: the configured one)")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an NDEF message already on the tag (never a locked tag)",
    )


def _print_deck_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--edition",
        help=f"the edition: {EDITIONS} (default: the stored game's, else the configured one)",
    )
    p.add_argument("--deck", type=Path, help="deck file (default DATA_DIR/deck.toml)")
    p.add_argument(
        "--output", "-o", type=Path,
        help="the sheet to write (default deck-EDITION.html here; - for standard output)",
    )  # fmt: skip
    _add_data_dir(p, "where the deck file is (DATA_DIR/deck.toml) and the stored game")


_RUNTIME = "bank.app.runtime"
_CONTROL = "bank.app.client:cmd_control"
_PLAY = "bank.app.play:cmd_play"

#: every subcommand, in the order ``ultibank --help`` lists them
COMMANDS: tuple[Subcommand, ...] = (
    Subcommand(
        "run",
        "run the bank daemon with the configured readers and panels",
        f"{_RUNTIME}:cmd_run",
        _run_arguments,
        description="Run the bank daemon: readers and panels post to one loop that owns the "
        "game; every transaction is journalled before the unit confirms it. A control socket "
        "takes `ultibank tap/press/state`. Stops cleanly on SIGTERM or Ctrl-C.",
    ),
    Subcommand(
        "emulate",
        "play on this computer: the pygame unit (or a terminal view without a display)",
        f"{_RUNTIME}:cmd_emulate",
        _emulate_arguments,
        description="The emulated unit: a window with the LCD, the three buttons and a tray of "
        "every card (click a card to tap it). With --reader, real cards are read too. Without "
        "a display it says so and runs in the terminal.",
    ),
    Subcommand(
        "script",
        "run a tap script on a virtual clock and print the transcript",
        f"{_RUNTIME}:cmd_script",
        _script_arguments,
        description="Run FILE (one action per line: tap bank:N|prop:N|event:N|uid:HEX, press "
        "ok|menu|cancel, hold cancel S, hold ok+cancel S, wait S, power off|on; in a classic "
        "edition also tap deed:N|chance:N|chest:N, key DIGITS|back, roll A B, info NAME) "
        "against the simulated reader and panel on a virtual clock. Prints each screen and "
        "cue; --state writes the final state as JSON (- for stdout). Exit 2 on a line that "
        "does not parse.",
        settings=False,
    ),
    Subcommand(
        "tap",
        "tap cards on the running daemon, in order: bank:N or bank:TOKEN, and prop:N, "
        "event:N (Ultime) or deed:N, chance:N, chest:N (classic), or uid:HEX",
        _CONTROL,
        _tap_arguments,
        description="Tap CARDS on the running daemon's reader, in order, as if each were laid "
        "on it and lifted: bank:N (a player's bank card, or bank:TOKEN such as bank:chien), "
        "uid:HEX (a tag by its UID, looked up in the deck); in an Ultime game prop:N and "
        "event:N; in a classic game deed:N (a title deed), chance:N and chest:N.",
        running_game=True,
    ),
    Subcommand(
        "press",
        "press buttons on the running daemon, in order: ok, menu or cancel",
        _CONTROL,
        _press_arguments,
        description="Press BUTTONS on the running daemon, in order: ok (✓), menu (M) or "
        "cancel (X).",
        running_game=True,
    ),
    Subcommand(
        "hold",
        "hold buttons on the running daemon: hold cancel 5, hold ok+cancel 5",
        _CONTROL,
        _hold_arguments,
        description="Hold BUTTONS (cancel, or ok+cancel) down for SECONDS on the running "
        "daemon, then release them: hold cancel 5 resets the game, hold ok+cancel 5 undoes "
        "the last transaction.",
        running_game=True,
    ),
    Subcommand(
        "state",
        "print the running daemon's state (JSON)",
        _CONTROL,
        _client_options,
        description="Print the running daemon's game state and the screen on its LCD (JSON).",
        running_game=True,
    ),
    Subcommand(
        "acknowledge",
        "acknowledge damage found in the journal (shown on the unit until then)",
        _CONTROL,
        _client_options,
        description="Damage found when the journal opened (transactions lost with a damaged "
        "or older file, an unreadable tip, a game ended outside ultibank) shows on every "
        "panel, in `state` and on the web view until a person has checked the balances with "
        "the players and runs this. The finding stays in the journal for `history`.",
        running_game=True,
    ),
    Subcommand(
        "key",
        "type on the running classic unit's keypad: key 150, key back",
        _PLAY,
        _key_arguments,
        description="Type KEYS on the running daemon's keypad (a classic game), in order: "
        "DIGITS (an amount, a deed number, a menu item: key 150 types 1, 5, 0) or back (⌫, "
        "the last digit typed). ✓ and X are `ultibank press ok` and `ultibank press cancel`.",
        running_game=True,
    ),
    Subcommand(
        "roll",
        "the running classic unit rolls its dice: roll, or roll A B to fix them",
        _PLAY,
        _roll_arguments,
        description="The dice of the running classic unit (menu item 11, D on a keyboard): "
        "`roll` opens them, then tap the roller's bank card (or press ok for nobody). "
        "`roll A B` fixes the two white dice of that roll first (Star Wars: white, black), "
        "and `roll A B T` the third die too (Méga: 1, 2, 3, mr, bus; Star Wars: light, dark, "
        "shift). --fix-only fixes the next roll and opens nothing (for a utility's `lancer`).",
        running_game=True,
    ),
    Subcommand(
        "info",
        "show an info screen on the running classic unit: info table, info scores ...",
        _PLAY,
        _info_arguments,
        description="Show the info screen NAME on the running daemon's LCD (a classic game, "
        "from idle): table (every player's cash, a page of four; again: the next page), "
        "turn (the last roller), cash (the last roller's cash), deed (the last deed "
        "tapped), deeds (the last roller's deeds), others (the other players' deeds), "
        "scores (the ranking, a page at a time).",
        running_game=True,
    ),
    Subcommand(
        "history",
        "list stored games; `history show N`, `history export N --csv|--json`, "
        "`history backup FILE`",
        "bank.views.history:cmd_history",
        _history_arguments,
        description="The games stored in the journal: archived ones (after a reset), a "
        "finished one (game over, not yet reset) and the current one. Works while a daemon "
        "plays on the same data directory: the journal is read, never written. "
        "`history backup FILE` copies the whole journal into FILE, safely, even while the "
        "daemon runs.",
    ),
    Subcommand(
        "readers",
        "list the readers each NFC stack sees and explain the usual faults",
        f"{_RUNTIME}:cmd_readers",
        description="Looks for PC/SC readers (pcscd) and nfcpy readers (USB, serial) and says in "
        "plain words what is in the way: pcscd not running, a kernel module holding the "
        "reader, missing permissions, libusb missing, an ACR122U firmware nfcpy cannot drive.",
    ),
    Subcommand(
        "enroll",
        "teach the bank your cards: tap each card of the deck when asked",
        f"{_RUNTIME}:cmd_enroll",
        _enroll_arguments,
        description="Walks through every card of the edition (ultime-fr: 4 bank, 22 property, "
        "23 event cards; classic-fr: 8 bank cards, 28 deeds, 16 Chance and 16 Community "
        "Chest cards; mega-fr: 37 deeds), asking you to tap each one, and writes the deck file "
        "of their UIDs.",
    ),
    Subcommand(
        "write-card",
        "write a card's identity (NDEF record) onto a blank NFC tag",
        f"{_RUNTIME}:cmd_write_card",
        _write_card_arguments,
        description="Writes the project's NDEF record naming CARD (e.g. prop:16, deed:12, "
        "chance:3, chest:3) onto a blank NFC Forum Type 2 tag (NTAG213/215/216) on the reader. "
        "A full, locked or foreign tag is refused with the reason. CARD must be a card of the "
        "edition when one is given (--edition or the configuration), else of any edition.",
    ),
    Subcommand(
        "print-deck",
        "write a printable sheet of every card of an edition and whether it has a tag",
        "bank.app.print_deck:cmd_print_deck",
        _print_deck_arguments,
        description="Write an HTML sheet (A4, print it or save it as PDF from a browser) of "
        "every card of the edition: its number as the bank knows it (deed:12, chance:3), the "
        "name printed on the real card, its colour group and price, and whether a tag is "
        "enrolled for it in the deck file: to stick the tags on, or to keep beside the box.",
    ),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def _add_parser(sub: argparse._SubParsersAction, command: Subcommand, **kw: Any) -> None:  # type: ignore[type-arg]
    """Make *command*'s parser, with its arguments."""
    p = sub.add_parser(
        command.name,
        description=command.description,
        formatter_class=_Formatter,
        add_help=not command.running_game,
        **kw,
    )
    _complete(p, command)


def _complete(p: argparse.ArgumentParser, command: Subcommand) -> None:
    """Give a command's parser its arguments (once)."""
    if command.running_game:
        from bank.app.play import RunningGameHelp

        p.add_argument(
            "-h", "--help", action=RunningGameHelp,
            help="show this help, then what the running game takes, and exit",
        )  # fmt: skip
    _add_global_options(p, top=False)
    if command.arguments is not None:
        command.arguments(p)


class _LazySubParsers(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Subcommands listed by name and help alone; a subcommand's parser is made, with its
    arguments, only when its command is parsed (an ``ArgumentParser`` costs a quarter of a
    millisecond to make, its arguments more)."""

    #: the commands listed but not made yet
    pending: set[str]

    def add_listed(self, command: Subcommand) -> None:
        """List *command* (``--help``, the choices a mistake names) without its parser."""
        pseudo = argparse._SubParsersAction._ChoicesPseudoAction
        self._choices_actions.append(pseudo(command.name, (), command.help))
        self._name_parser_map[command.name] = None  # its parser is made when used
        self.pending.add(command.name)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if isinstance(values, list) and values and values[0] in self.pending:
            name = values[0]
            self.pending.discard(name)
            del self._name_parser_map[name]  # the placeholder: add_parser refuses a name twice
            _add_parser(self, _BY_NAME[name])  # no help: it is listed already
        super().__call__(parser, namespace, values, option_string)


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, sized to the terminal as argparse does but at most 80 columns
    (:func:`bank.app.quick.help_width`) and without importing shutil (and its compression
    modules) at every start."""

    def __init__(self, prog: str, **kw: Any) -> None:
        if kw.get("width") is None:
            kw["width"] = help_width()
        super().__init__(prog, **kw)

    # help text wrapped between words only: an edition's name (``classic-uk``) is never cut
    # at its hyphen

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(
            " ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
            break_on_hyphens=False,
        )  # fmt: skip


class _RawFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter sized to the terminal, at most 80 columns (as :class:`_Formatter`),
    keeping the line breaks of the main description."""

    def __init__(self, prog: str, **kw: Any) -> None:
        if kw.get("width") is None:
            kw["width"] = help_width()
        super().__init__(prog, **kw)


def build_parser(lazy: bool = False) -> argparse.ArgumentParser:
    """The ``ultibank`` parser. *lazy*: a subcommand's arguments are added only when that
    subcommand is parsed (``main`` uses it, so that ``--help`` builds only the list)."""
    parser = _Parser(
        prog="ultibank",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=_RawFormatter,
    )
    _add_global_options(parser, top=True)
    parser.register("action", "parsers", _LazySubParsers)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    assert isinstance(sub, _LazySubParsers)
    sub.pending = set()
    for command in COMMANDS:
        if lazy:
            sub.add_listed(command)
            continue
        _add_parser(sub, command, help=command.help)
    return parser


def _setup_logging(verbose: int) -> None:
    import logging

    level = logging.WARNING - 10 * verbose
    logging.basicConfig(
        level=max(level, logging.DEBUG),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _settings(args: argparse.Namespace) -> Settings:
    from bank.services.settings import load_settings

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
    """--web, --web-host, --web-port: the read-only table view (bank/views/web.py)."""
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


#: the command line main() parses (None: sys.argv), read by a client command's --help
ARGV: list[str] | None = None

#: the commands that talk to a running daemon through its control socket
CLIENT_COMMANDS = tuple(command.name for command in COMMANDS if command.running_game)

#: exit status of every user error (a mistake in the command line, a value, a file)
USER_ERROR = 2

#: exit status when standard output was closed early (``ultibank history | head``), as a
#: shell reports a command killed by SIGPIPE
BROKEN_PIPE_EXIT = 128 + 13


def _user_errors() -> tuple[type[BaseException], ...]:
    """The errors that mean the user (or the machine) is in the way, not a bug of ultibank.

    Each is told in one line. OSError covers a file or directory that cannot be read or
    written, and ConnectionError a daemon that is not there.
    """
    from bank.engine.errors import BankError
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

    A user's mistake ends in one line on stderr, ``ultibank: what is wrong``, and exit status 2
    (a command line that does not parse, a value refused, a daemon not there: one voice);
    anything else is a bug and keeps its traceback. ``-vv`` shows the traceback of a user
    error too.
    """
    global ARGV
    ARGV = argv
    parser = build_parser(lazy=True)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    args.verbose += args.verbose_after
    args.config = args.config_after or args.config
    args.overrides += args.overrides_after
    if args.command not in CLIENT_COMMANDS:  # a client logs nothing: spare it the import
        _setup_logging(args.verbose)
    try:
        status = _dispatch(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit as "Exception ignored"
        return status
    except BaseException as err:
        return finish_with(err, args)


def finish_with(err: BaseException, args: argparse.Namespace) -> int:
    """How the command ends when *err* stopped it (called in its ``except`` block): the exit
    status of a user's mistake, told in one line, or *err* raised again (a bug keeps its
    traceback). :mod:`bank.app.quick` ends its fast ``tap`` the same way."""
    if isinstance(err, BrokenPipeError):
        # the reader of our output has gone (`| head`): say nothing, as cat and grep do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_EXIT
    if isinstance(err, KeyboardInterrupt):
        return 130
    if not isinstance(err, _user_errors()):
        raise err
    import logging

    _setup_logging(args.verbose)  # once: a no-op when the command set it up
    logging.getLogger("ultibank").debug("the error in full:", exc_info=err)
    print(f"ultibank: {_one_line(err, args)}", file=sys.stderr)
    return USER_ERROR


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
    command = _BY_NAME[args.command]
    module_name, func_name = command.handler.split(":")
    import importlib

    if args.command == "emulate" and not args.terminal:
        _quiet_alsa()
    settings = _settings(args) if command.settings else None
    func: Any = getattr(importlib.import_module(module_name), func_name)
    return int(func(args, settings))


if __name__ == "__main__":
    sys.exit(main())
