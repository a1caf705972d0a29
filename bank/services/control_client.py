"""The client's half of the control socket: what ``ultibank tap``, ``press``, ``hold`` and
``state`` need to reach a running daemon, and nothing more.

See :mod:`bank.services.control` for the protocol and the server. This module imports only the
standard library's ``os``, ``stat``, ``sys``, ``time`` and ``_socket``, and
``bank.engine.errors``, at start (no ``pathlib``, ``json``, ``struct`` or ``socket``:
``ultibank tap`` pays for every import), so a client command starts without the daemon's
logging, threads and rate limits; an answer is read with the C scanner ``json`` itself uses
(:func:`decode_answer`). The client checks with ``SO_PEERCRED`` that the listener runs as the
same user or root before it trusts an answer.
"""

from __future__ import annotations

import os
import stat
import sys
import time

# the C socket module: ``socket`` would add ``selectors`` and its enum conversions to every
# `ultibank tap` (a client needs connect, send, recv and SO_PEERCRED, all here)
from _socket import AF_UNIX, SO_PEERCRED, SOCK_STREAM, SOL_SOCKET
from _socket import socket as _Socket

from bank.engine.errors import BankError

TYPE_CHECKING = False  # typing is not imported at start; mypy reads this name as typing's
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, Final

#: a Unix socket path holds at most this many bytes (108 with its terminating NUL)
MAX_SOCKET_PATH: Final = 107
#: how long a client retries when the daemon's connection queue is full (seconds)
BUSY_WAIT_S: Final = 5.0


class ControlError(BankError, ConnectionError):
    """The control socket cannot be set up, or a daemon cannot be trusted or reached."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "a device or special file"


def check_socket_path(path: str | os.PathLike[str]) -> None:
    """Refuse a path a Unix socket cannot have (too long), naming it."""
    size = len(os.fsencode(path))
    if size > MAX_SOCKET_PATH:
        raise ControlError(
            f"control socket path too long: {path} is {size} bytes and a Unix socket path "
            f"holds at most {MAX_SOCKET_PATH}; choose a shorter --socket"
        )


def _connect(path: str | os.PathLike[str], timeout: float) -> _Socket:
    check_socket_path(path)
    deadline = time.monotonic() + min(timeout, BUSY_WAIT_S)
    while True:
        sock = _Socket(AF_UNIX, SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(os.fspath(path))
        except BlockingIOError as err:  # the daemon's queue of connections is full
            sock.close()
            if time.monotonic() >= deadline:
                raise ControlError(
                    f"the daemon behind {path} is busy (its queue of connections is full); "
                    "try again in a moment"
                ) from err
            time.sleep(0.05)
            continue
        except FileNotFoundError as err:
            sock.close()
            raise ControlError(
                f"no ultibank daemon is running here (no control socket at {path}); "
                "start one with `ultibank run` or `ultibank emulate`"
            ) from err
        except PermissionError as err:
            sock.close()
            raise ControlError(f"permission denied on {path}: run as the daemon's user") from err
        except ConnectionRefusedError as err:
            sock.close()
            raise ControlError(
                f"the daemon behind {path} is not answering (stale socket?)"
            ) from err
        except OSError as err:
            sock.close()
            raise ControlError(f"cannot reach a daemon at {path}: {err.strerror or err}") from err
        return sock


def _check_peer(sock: _Socket, path: str | os.PathLike[str]) -> None:
    """Refuse a listener that runs as neither this user nor root (someone else's socket)."""
    # struct ucred: three C ints (pid, uid, gid) in the machine's byte order
    creds = sock.getsockopt(SOL_SOCKET, SO_PEERCRED, 12)
    uid = int.from_bytes(creds[4:8], sys.byteorder, signed=True)
    me = os.geteuid()
    if uid not in (me, 0):
        raise ControlError(
            f"refusing to talk to {path}: it is served by uid {uid}, neither you (uid {me}) "
            "nor root, so it is not your ultibank daemon"
        )


def send_lines(
    path: str | os.PathLike[str], lines: list[str], timeout: float = 30.0
) -> Iterator[dict[str, Any]]:
    """Send lines to a running daemon; yields one JSON answer per line.

    Raises :class:`ControlError` (a ``ConnectionError``) with a one-line reason when the
    daemon cannot be reached, is someone else's, or does not answer in *timeout* seconds.
    """
    where = os.fspath(path)
    sock = _connect(where, timeout)
    try:
        _check_peer(sock, where)
        pending = b""  # what the daemon sent after the last answer's newline
        for line in lines:
            try:
                sock.sendall(line.encode() + b"\n")
            except BrokenPipeError:
                pass  # hung up at once: its reason may be waiting to be read
            except OSError as err:
                raise ControlError(
                    f"cannot send to the daemon behind {path}: {err.strerror or err}"
                ) from err
            try:
                reply, pending = _read_line(sock, pending)
            except TimeoutError as err:
                raise ControlError(
                    f"the daemon behind {path} did not answer within {timeout:g} s"
                ) from err
            except OSError as err:
                raise ControlError(
                    f"the daemon behind {path} closed the connection ({err.strerror or err})"
                ) from err
            if not reply:
                raise ControlError(f"the daemon behind {path} closed the connection")
            try:
                answer = decode_answer(reply)
            except ValueError as err:
                raise ControlError(f"{path} did not answer as an ultibank daemon") from err
            yield answer
    finally:
        sock.close()


def _read_line(sock: _Socket, pending: bytes) -> tuple[bytes, bytes]:
    """One line from *sock* (with its newline; what came before the end if the daemon hung
    up; empty: hung up at once) and what was read after it. Each ``recv`` waits at most
    the socket's timeout (TimeoutError)."""
    chunks = [pending]
    while b"\n" not in chunks[-1]:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks), b""
        chunks.append(chunk)
    line, _, rest = b"".join(chunks).partition(b"\n")
    return line + b"\n", rest


#: the constants ``json.loads`` reads besides numbers (as its parse_constant does)
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _JsonContext:
    """What ``json``'s C scanner reads of its decoder: ``json.loads``'s defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


def decode_answer(reply: bytes) -> dict[str, Any]:
    """The daemon's JSON answer, as ``json.loads`` reads it (ValueError when it is not a JSON
    object), without importing ``json`` and its ``re``: ``json``'s own C scanner reads a
    plain UTF-8 line; anything else (no C scanner, another encoding, a BOM, extra text) is
    handed to ``json.loads`` itself, so the answer or the error is always the one it gives."""
    try:
        from _json import make_scanner

        text = reply.decode("utf-8")
        start = len(text) - len(text.lstrip(" \t\n\r"))
        value, end = make_scanner(_JsonContext())(text, start)  # type: ignore[arg-type]  # duck-typed
        plain = not text[end:].strip(" \t\n\r") and not text.startswith("\ufeff")
    except (ImportError, ValueError, StopIteration):
        plain = False
    if not plain:
        import json

        value = json.loads(reply)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value
