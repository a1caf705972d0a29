"""The evening after: ``ultibank emulate`` and ``ultibank run`` without ``--edition`` go on
with the game stored in the data directory, in its own edition, and say so; ``--new-game``
archives it (it stays in ``ultibank history``) and starts a new one in the edition asked.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from bank.engine.errors import BankError
from bank.services.journal import Journal
from bank.services.settings import Settings
from board_assets import edition_names

JOURNAL_FILE = "journal.sqlite"


@dataclass(frozen=True, slots=True)
class Stored:
    """The game in a data directory's journal: its edition and how many records it has."""

    edition: str | None
    records: int


def stored_game(data_dir: Path) -> Stored | None:
    """The current game of *data_dir*'s journal (None: no journal, no game in it, or one that
    cannot be read now).

    The journal is opened read-only, without its lock (as ``ultibank history`` does): this
    look changes nothing, so a damaged tail or a lost WAL is still found, repaired and
    reported by the daemon that opens the journal next, and a daemon already running on the
    same data directory is no obstacle."""
    import logging
    import sqlite3

    from bank.views.history import ReadOnlyJournal

    path = data_dir / JOURNAL_FILE
    if not path.is_file():
        return None
    quiet = logging.getLogger("bank.views.history")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # what the reader finds, the daemon reports
    try:
        with ReadOnlyJournal(path) as journal:
            current = journal.current_game
            if current is None:
                return None
            info = journal.game(current)
            edition = info.meta.get("edition")
            if not isinstance(edition, str):
                first = next(iter(journal.records()), None)
                edition = first.get("edition") if first is not None else None
            return Stored(edition if isinstance(edition, str) else None, info.records)
    except (BankError, OSError, sqlite3.Error):
        return None
    finally:
        quiet.setLevel(level)


def edition_on_command_line(args: argparse.Namespace) -> bool:
    """Whether the command line names the edition (``--edition``, ``--set game.edition=``):
    the configuration file's edition is only the one of a new game."""
    if getattr(args, "edition", None) is not None:
        return True
    return any(o.replace(" ", "").startswith("game.edition=") for o in args.overrides)


def choose_edition(args: argparse.Namespace, settings: Settings) -> Stored | None:
    """Set *settings*' edition to the stored game's when the command line names none (or
    ``--new-game`` asks for a new one); returns the stored game that goes on (None: none)."""
    from bank.services.datadir import open_data_dir

    if getattr(args, "new_game", False):
        return None
    # the data directory's door first: a directory others may tamper with is refused before
    # anything in it is read
    open_data_dir(settings.data_dir, bool(settings.get("game", "strict_modes")), create=False)
    stored = stored_game(settings.data_dir)
    if stored is None or not stored.records:
        return None
    known = stored.edition is not None and (
        stored.edition in edition_names() or stored.edition.endswith(".toml")
    )
    if known and not edition_on_command_line(args):
        settings.raw["game"]["edition"] = stored.edition
    return stored


def start_new_game(journal: Journal, edition: str) -> bool:
    """``--new-game``: archive the stored game (kept for ``ultibank history``) and open an
    empty one of *edition*; False when there was nothing to archive."""
    current = journal.current_game
    if current is None or not journal.game(current).records:
        return False
    journal.new_game({"edition": edition})
    return True


def other_edition(err: BankError, edition: str) -> BankError:
    """The refusal of a game stored in another edition, with the two ways on."""
    return BankError(
        f"{err}; or add --new-game to start a new game of {edition} (the stored one stays "
        "in `ultibank history`)",
        err.key,
    )


_WORDS = {
    "fr": ("Partie reprise", "joueur", "joueurs", "Nouvelle partie", "partie archivée"),
    "en": ("Game resumed", "player", "players", "New game", "game archived"),
}


def resumed_line(edition: str, players: int, lang: str) -> str:
    """``Partie reprise · classic-fr · 3 joueurs`` (the unit's language)."""
    title, one, many, _, _ = _WORDS.get(lang, _WORDS["en"])
    return f"{title} · {edition} · {players} {one if players == 1 else many}"


def resumed_words(players: int, lang: str) -> tuple[str, str]:
    """The LCD's two lines for a game that goes on: ``Partie reprise`` / ``3 joueurs``."""
    title, one, many, _, _ = _WORDS.get(lang, _WORDS["en"])
    return title, f"{players} {one if players == 1 else many}"


def new_game_line(edition: str, lang: str) -> str:
    """``Nouvelle partie · classic-fr (partie archivée)``."""
    _, _, _, title, archived = _WORDS.get(lang, _WORDS["en"])
    return f"{title} · {edition} ({archived})"
