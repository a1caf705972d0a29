"""The data directory: made private, and refused where another user could tamper with it.

This is the one door to the data directory: every command that reads or writes it (``run``,
``emulate``, ``tap`` and the other control commands, ``script``, ``enroll``, ``history`` and
its backup and export) calls :func:`open_data_dir` first, and files are created with
:func:`create_new` / :func:`write_atomic` / :func:`open_output` (``O_NOFOLLOW|O_EXCL``), never
through a link.

Like OpenSSH's ``StrictModes``, the daemon refuses a data directory that a group or other
users may write to, or that sits under a directory they may write to (without the sticky
bit), or that belongs to someone else: they could plant a symbolic link where the journal
is written, or replace the control socket. ``game.strict_modes = false`` accepts such a
directory anyway. A new data directory is made with mode 0700. SQLite cannot be told not to
follow links, so a journal file that is a symbolic link is refused here; the lock file is
opened with ``O_NOFOLLOW`` by the journal itself.

Imports the standard library and ``bank.engine.errors`` only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from bank.engine.errors import BankError

TYPE_CHECKING = False  # typing is not imported at start (`ultibank tap` opens the door)
if TYPE_CHECKING:
    from typing import Final

#: files SQLite opens in the data directory (following links: checked before it does)
SQLITE_FILES: Final = ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm")
#: every file ultibank itself reads or writes in the data directory
DATA_FILES: Final = (
    *SQLITE_FILES,
    "journal.sqlite.tip",
    "journal.sqlite.lock",
    "deck.toml",
    "deck.toml.tmp",
    "control.sock",
)


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
    check_files(path)
    return path


def open_data_dir(path: Path, strict: bool = True, create: bool = True) -> Path:
    """The door every command goes through before it reads or writes the data directory.

    With *create*, a missing directory is made (mode 0700); without, a missing one is left
    alone (the caller says there is nothing stored yet). An existing one must be private
    (unless *strict* is off) and none of ultibank's files in it may be a link or another
    user's file."""
    if not create and not os.path.lexists(path):
        return path
    return prepare_data_dir(path, strict)


def check_files(path: Path) -> None:
    """Refuse a data directory where one of ultibank's files is a link or another user's."""
    me = os.geteuid()
    for name in DATA_FILES:
        try:
            st = os.lstat(path / name)
        except FileNotFoundError:
            continue
        except OSError as err:
            raise DataDirError(f"cannot check {path / name}: {err.strerror}") from err
        if stat.S_ISLNK(st.st_mode):
            raise DataDirError(
                f"{path / name} is a symbolic link: refusing to follow it (ultibank writes "
                "only to files of its own in its data directory); remove the link"
            )
        if st.st_uid not in (me, 0):
            raise DataDirError(
                f"{path / name} belongs to uid {st.st_uid}, neither you (uid {me}) nor root: "
                "another user put it there; remove it"
            )


def create_new(path: Path, mode: int = 0o600) -> int:
    """Create *path* as a new file (``O_EXCL|O_NOFOLLOW``) and return its descriptor: never
    an existing file, never through a link."""
    try:
        return os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode
        )
    except FileExistsError as err:
        kind = "a symbolic link" if os.path.islink(path) else "already there"
        raise DataDirError(f"cannot create {path}: {kind}; remove it first") from err
    except OSError as err:
        raise DataDirError(f"cannot create {path}: {err.strerror}") from err


def write_atomic(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Replace *path* with *data* in one step: a new private file beside it (``O_EXCL``), made
    durable, then renamed over it (a rename replaces a link, never writes through it)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    fd = create_new(tmp, mode)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def open_output(path: Path, mode: int = 0o644) -> int:
    """Open a file a user named for output (an export, a state file): a new one is created
    with ``O_EXCL``, an existing regular file is replaced in place; a link is refused."""
    flags = os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        pass
    except OSError as err:
        raise DataDirError(f"cannot write {path}: {err.strerror}") from err
    try:
        fd = os.open(path, flags | os.O_NONBLOCK)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise DataDirError(
                f"cannot write {path}: it is a symbolic link; ultibank does not write through "
                "links (remove it, or name another file)"
            ) from err
        raise DataDirError(f"cannot write {path}: {err.strerror}") from err
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise DataDirError(f"cannot write {path}: it is not a regular file")
    if st.st_uid not in (os.geteuid(), 0):
        os.close(fd)
        raise DataDirError(f"cannot write {path}: it belongs to uid {st.st_uid}, not to you")
    os.set_blocking(fd, True)
    os.ftruncate(fd, 0)
    return fd


def write_output(path: Path, text: str) -> None:
    """Write *text* (UTF-8) to a file a user named, as :func:`open_output` opens it."""
    with os.fdopen(open_output(path), "w", encoding="utf-8") as out:
        out.write(text)


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
