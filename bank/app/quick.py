"""The ``ultibank`` command's entry point: ``ultibank --help`` and a plain ``tap`` or ``press``
start with almost nothing imported; every other command line goes to :func:`bank.app.cli.main`.

``ultibank tap bank:1 prop:16`` is typed many times a game, and the time it takes is mostly
the interpreter's start and the imports: the budget above ``python -c pass`` is a few
milliseconds. So:

- ``ultibank``, ``ultibank -h`` and ``ultibank --help`` print the help text kept in
  :mod:`bank.app.cached_help`, made by the real parser (``python -m bank.app.helpgen``
  writes it again; a test fails when it differs from what the parser prints), in a terminal
  of 80 columns or more (the help is never wider) or when the output is not a terminal; in a
  narrower terminal the parser prints it.
- A command line made only of ``tap`` or ``press``, its cards or buttons, and
  ``--data-dir DIR`` / ``--socket PATH`` is read here without the argument parser. When no
  configuration file exists and the paths are plain (no ``~``, no leading ``//``), the
  control socket is found here as :class:`bank.services.settings.Settings` finds it (the
  flags, ``$ULTIBANK_DATA_DIR``, ``$XDG_DATA_HOME``, ``~/.local/share``), the data
  directory's door (:func:`bank.services.datadir.open_data_dir`) is checked with ``os``
  alone, and the lines go out through the control client (:func:`tell`), which imports
  only ``_socket`` and json's C scanner.
  Whenever one of those checks is in doubt (a configuration file, a path to normalise, a
  data directory the door would refuse), nothing has been sent yet and the settings and
  the door themselves are used, which say what is wrong in the usual words.
- Anything else (``-v``, ``--config``, ``--set``, an abbreviated option, no card, another
  command) is left to the full parser.

Imports only ``sys`` and ``os`` (loaded by the interpreter anyway) at start.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing is not imported at start; mypy reads this name as typing's
if TYPE_CHECKING:
    from collections.abc import Sequence

#: the commands read here, and the settings their options stand for (as in bank.app.cli)
FAST_COMMANDS = ("tap", "press")
_FLAGS = {"--data-dir": "game.data_dir", "--socket": "control.socket"}
#: the command lines that print the main help (the bare command prints it too)
HELP_LINES: tuple[list[str], ...] = ([], ["-h"], ["--help"])
#: ultibank's own files in its data directory, as bank.services.datadir.DATA_FILES (a test
#: holds them equal)
DATA_FILES = (
    "journal.sqlite",
    "journal.sqlite-wal",
    "journal.sqlite-shm",
    "journal.sqlite.tip",
    "journal.sqlite.lock",
    "deck.toml",
    "deck.toml.tmp",
    "control.sock",
)


#: the widest terminal the help fills: wider, its lines stay this short (as click's help), so
#: that every terminal at least this wide gets the cached text
MAX_COLUMNS = 80


def help_width() -> int:
    """The width of the help's lines: ``$COLUMNS``, else the terminal's width, else 80, at most
    :data:`MAX_COLUMNS`; minus two, as argparse's own (without importing ``shutil``)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return min(columns or 80, MAX_COLUMNS) - 2


def plain_command_line(argv: Sequence[str]) -> tuple[str, list[str], list[tuple[str, str]]] | None:
    """``(command, cards or buttons, [(flag, value)])`` for a plain ``tap``/``press`` command
    line, or None for anything the full parser has to read."""
    if not argv or argv[0] not in FAST_COMMANDS:
        return None
    what: list[str] = []
    flags: list[tuple[str, str]] = []
    rest = iter(argv[1:])
    for arg in rest:
        if not arg.startswith("-"):
            what.append(arg)
            continue
        flag, eq, value = arg.partition("=")
        if flag not in _FLAGS:
            return None
        if not eq:
            value = next(rest, "")
        if not value or value.startswith("-"):
            return None  # the parser's own message for a missing value
        flags.append((flag, value))
    return (argv[0], what, flags) if what else None


def plain_path(text: str) -> str | None:
    """``str(pathlib.Path(text))`` for a path with nothing to expand or to keep (no ``~``, not
    starting with exactly two slashes), without importing pathlib; None for the others."""
    if not text or text.startswith("~") or (text.startswith("//") and text[2:3] != "/"):
        return None
    root = "/" if text.startswith("/") else ""
    return root + "/".join(p for p in text.split("/") if p and p != ".") or "."


def _join(folder: str, name: str) -> str:
    """``str(Path(folder) / name)`` for a plain *folder*."""
    if folder == ".":
        return name
    return folder + name if folder.endswith("/") else f"{folder}/{name}"


def _parent(path: str) -> str:
    """``str(Path(path).parent)`` for a plain *path*."""
    head, slash, _ = path.rpartition("/")
    return (head or "/") if slash else "."


def socket_without_settings(flags: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """``(control socket, data directory)`` as the settings give them for these flags, when
    no configuration file is there to read and every path is plain; else None."""
    env = os.environ
    found = {"--data-dir": "", "--socket": ""}
    for flag, value in flags:  # the last one given wins, as in argparse
        path = plain_path(value)
        if path is None:
            return None
        found[flag] = path
    if not env.get("XDG_CONFIG_HOME") and "HOME" not in env:
        return None  # Path.home() from the password database: the settings' business
    base = env.get("XDG_CONFIG_HOME") or f"{env['HOME'].rstrip('/')}/.config"
    try:
        os.stat(f"{base}/ultibank/config.toml")
        return None  # a configuration file to read and check: the settings' business
    except (FileNotFoundError, NotADirectoryError):
        pass
    except (OSError, ValueError):
        return None
    data_dir: str | None = found["--data-dir"]
    if not data_dir:
        if env.get("ULTIBANK_DATA_DIR"):
            data_dir = plain_path(env["ULTIBANK_DATA_DIR"])
        elif env.get("XDG_DATA_HOME") or env.get("HOME"):
            base = env.get("XDG_DATA_HOME") or f"{env['HOME'].rstrip('/')}/.local/share"
            data_dir = plain_path(f"{base}/ultibank")
        else:
            data_dir = None  # Path.home() from the password database: the settings' business
        if data_dir is None:
            return None
    return found["--socket"] or _join(data_dir, "control.sock"), data_dir


def door_is_open(path: str) -> bool:
    """True when :func:`bank.services.datadir.open_data_dir` (strict, ``create=False``) lets
    the data directory *path* through; False when it might refuse it (it then says why)."""
    import stat

    if not os.path.lexists(path):
        return True
    me = os.geteuid()
    try:
        if not stat.S_ISDIR(os.stat(path).st_mode):
            return False
        real = folder = os.path.realpath(path)
        while True:
            st = os.stat(folder)
            mode = stat.S_IMODE(st.st_mode)
            if st.st_uid not in (me, 0):
                return False
            if mode & (stat.S_IWGRP | stat.S_IWOTH) and (folder == real or not mode & stat.S_ISVTX):
                return False
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for name in DATA_FILES:
            try:
                st = os.lstat(_join(path, name))
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(st.st_mode) or st.st_uid not in (me, 0):
                return False
    except (OSError, ValueError):
        return False
    return True


def tell(socket: str | os.PathLike[str], lines: list[str]) -> int:
    """Send *lines* to the daemon behind *socket* and print its answers: the screens on
    stdout, a refusal in one line on stderr (status 2, the lines after it not sent)."""
    from bank.services.control_client import send_lines

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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ultibank`` command (see the module's docstring)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args in HELP_LINES:
        from bank.app.cached_help import HELP, WIDTH

        if help_width() == WIDTH:
            sys.stdout.write(HELP)
            return 0
    plain = plain_command_line(args)
    if plain is None:
        from bank.app.cli import main as full_main

        return full_main(None if argv is None else list(argv))
    command, what, flags = plain
    try:
        found = socket_without_settings(flags)
        if found is not None and (_parent(found[0]) != found[1] or door_is_open(found[1])):
            status = tell(found[0], [f"{command} {one}" for one in what])
        else:  # the settings and the door themselves, which say what is wrong
            from pathlib import Path
            from types import SimpleNamespace

            from bank.app.client import cmd_control
            from bank.services.settings import load_settings

            # a flag's value as the parser gives it (a Path, so "dir/" reads as "dir")
            settings = load_settings(
                None, (), [(flag, _FLAGS[flag], str(Path(value))) for flag, value in flags]
            )
            namespace = SimpleNamespace(command=command, what=what, verbose=0)
            status = cmd_control(namespace, settings)  # type: ignore[arg-type]  # its fields
        sys.stdout.flush()
        return status
    except BaseException as err:  # the full command's handling, loaded only when needed
        from types import SimpleNamespace

        from bank.app.cli import finish_with

        namespace = SimpleNamespace(command=command, what=what, verbose=0)
        return finish_with(err, namespace)  # type: ignore[arg-type]  # (argparse unloaded)


if __name__ == "__main__":
    sys.exit(main())
