"""The data directory: made private, and refused where another user could tamper with it.

Like OpenSSH's ``StrictModes``, the daemon refuses a data directory that a group or other
users may write to, or that sits under a directory they may write to (without the sticky
bit), or that belongs to someone else: they could plant a symbolic link where the journal
is written, or replace the control socket. ``game.strict_modes = false`` accepts such a
directory anyway. A new data directory is made with mode 0700. SQLite cannot be told not to
follow links, so a journal file that is a symbolic link is refused here; the lock file is
opened with ``O_NOFOLLOW`` by the journal itself.

Imports the standard library and ``bank.errors`` only.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

from bank.errors import BankError

#: files SQLite opens in the data directory (following links: checked before it does)
SQLITE_FILES: Final = ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm")


class DataDirError(BankError, OSError):
    """The data directory is missing and cannot be made, is not a directory, or is unsafe."""


def prepare_data_dir(path: Path, strict: bool = True) -> Path:
    """Make *path* (mode 0700) if missing; refuse it if it is not a safe directory."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(path)
    except (FileExistsError, NotADirectoryError) as err:
        raise DataDirError(
            f"the data directory {path} is not a directory (or is under a file); "
            "choose another --data-dir"
        ) from err
    except OSError as err:
        raise DataDirError(f"cannot make the data directory {path}: {err.strerror}") from err
    if not stat.S_ISDIR(st.st_mode):
        raise DataDirError(
            f"the data directory {path} is not a directory; choose another --data-dir"
        )
    if strict:
        check_private(path)
    for name in SQLITE_FILES:
        try:
            link = stat.S_ISLNK(os.lstat(path / name).st_mode)
        except FileNotFoundError:
            continue
        if link:
            raise DataDirError(
                f"{path / name} is a symbolic link: refusing to follow it (the journal is "
                "written only to a file of its own); remove the link"
            )
    return path


def check_private(path: Path) -> None:
    """Refuse *path* if a user other than us or root could write to it or replace it."""
    me = os.geteuid()
    real = path.resolve()
    for folder in (real, *real.parents):
        st = os.stat(folder)
        mode = stat.S_IMODE(st.st_mode)
        problem = ""
        if st.st_uid not in (me, 0):
            problem = f"{folder} belongs to uid {st.st_uid}, neither you (uid {me}) nor root"
        elif mode & (stat.S_IWGRP | stat.S_IWOTH) and (folder == real or not mode & stat.S_ISVTX):
            who = "its group" if not mode & stat.S_IWOTH else "every user"
            problem = f"{folder} is writable by {who} (mode {mode:o}; chmod go-w {folder})"
        if problem:
            raise DataDirError(
                f"refusing the data directory {path}: {problem}, so another user could "
                "replace the journal or the control socket; fix it, or set "
                "game.strict_modes = false to accept it"
            )
