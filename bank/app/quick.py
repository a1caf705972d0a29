"""The ``ultibank`` command's entry point: a plain ``tap`` or ``press`` goes straight to the
running daemon; every other command line goes to :func:`bank.app.cli.main`.

``ultibank tap bank:1 prop:16`` is typed many times a game, and the time it takes is mostly
the interpreter's start and the imports. A command line made only of ``tap`` or ``press``, its
cards or buttons, and ``--data-dir DIR`` / ``--socket PATH`` is read here without building
the argument parser (``argparse``, the command list, the running game's ``--help``): the
same settings (:func:`bank.services.settings.load_settings`, configuration file included), the same
control client (:func:`bank.app.client.cmd_control`), the same one-line errors. Anything
else (``--help``, ``-v``, ``--config``, ``--set``, an abbreviated option, no card) is left to
the full parser, which says what is wrong the usual way. Imports only ``sys`` at start.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported at start; mypy reads this name as typing's
if TYPE_CHECKING:
    from collections.abc import Sequence

#: the commands read here, and the settings their options stand for (as in bank.app.cli)
FAST_COMMANDS = ("tap", "press")
_FLAGS = {"--data-dir": "game.data_dir", "--socket": "control.socket"}


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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ultibank`` command (see the module's docstring)."""
    args = sys.argv[1:] if argv is None else list(argv)
    plain = plain_command_line(args)
    if plain is None:
        from bank.app.cli import main as full_main

        return full_main(None if argv is None else list(argv))
    command, what, flags = plain
    from types import SimpleNamespace

    namespace = SimpleNamespace(command=command, what=what, verbose=0)
    try:
        from pathlib import Path

        from bank.app.client import cmd_control
        from bank.services.settings import load_settings

        # a flag's value as the parser gives it (a Path, so "dir/" reads as "dir")
        settings = load_settings(
            None, (), [(flag, _FLAGS[flag], str(Path(value))) for flag, value in flags]
        )
        status = cmd_control(namespace, settings)  # type: ignore[arg-type]  # a Namespace's fields
        sys.stdout.flush()
        return status
    except BaseException as err:  # the full command's handling, loaded only when needed
        from bank.app.cli import finish_with

        return finish_with(err, namespace)  # type: ignore[arg-type]  # (argparse unloaded)


if __name__ == "__main__":
    sys.exit(main())
