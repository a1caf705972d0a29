"""The client's half of the control socket: what ``ultibank tap``, ``press``, ``hold`` and
``state`` need to reach a running daemon, and nothing more.

See :mod:`bank.services.control` for the protocol and the server. This module imports only the
standard library and ``bank.engine.errors``, so a client command starts without the daemon's
logging, threads and rate limits. The client checks with ``SO_PEERCRED`` that the listener
runs as the same user or root before it trusts an answer.
"""

from __future__ import annotations

import json
import os
import stat
import struct
import time

# the C socket module: ``socket`` would add ``selectors`` and its enum conversions to every
# `ultibank tap` (a client needs connect, send, recv and SO_PEERCRED, all here)
from _socket import AF_UNIX, SO_PEERCRED, SOCK_STREAM, SOL_SOCKET
from _socket import socket as _Socket
from pathlib import Path

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


def check_socket_path(path: Path) -> None:
    """Refuse a path a Unix socket cannot have (too long), naming it."""
    size = len(os.fsencode(path))
    if size > MAX_SOCKET_PATH:
        raise ControlError(
            f"control socket path too long: {path} is {size} bytes and a Unix socket path "
            f"holds at most {MAX_SOCKET_PATH}; choose a shorter --socket"
        )


def _connect(path: Path, timeout: float) -> _Socket:
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


def _check_peer(sock: _Socket, path: Path) -> None:
    """Refuse a listener that runs as neither this user nor root (someone else's socket)."""
    creds = sock.getsockopt(SOL_SOCKET, SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
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
    where = Path(path)
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
                answer: dict[str, Any] = json.loads(reply)
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
