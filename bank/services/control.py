"""The local control socket: a Unix socket (mode 0600) that takes tap-script lines.

``ultibank tap prop:16``, ``ultibank press ok`` and ``ultibank state`` connect, send one line
each, and read one JSON answer per line: ``{"ok": true, "output": [...], "state": {...}}`` or
``{"ok": false, "error": "..."}``. Only the owner of the data directory can connect (the
socket file is created with mode 0600 inside it). Imports the standard library,
``bank.engine.errors``, ``bank.services.ratelimit`` and its client half
:mod:`bank.services.control_client`; the daemon supplies the function that runs a line.

What it refuses, so that neither a clumsy user nor a flood can hurt the box:

- It deletes nothing it did not make. At start a path that is not a socket (a file, a
  directory, a symlink), or a socket of another user, is refused with a message naming it;
  only a socket of ours that nobody answers on (left by a daemon that died) is replaced.
  At close it unlinks the socket only if the path is still the one it bound.
- At most :data:`MAX_CLIENTS` clients at once, and :data:`MAX_PER_PROCESS` from one process
  (the next one is told so and closed), lines of
  at most :data:`MAX_LINE` bytes (a longer one is refused, neither echoed nor buffered whole,
  and the connection closed), a line cut short by a disconnect is discarded, never run.
- When the process is out of file descriptors, ``accept`` backs off and keeps going, and the
  log says so at most once per :data:`bank.services.ratelimit.LOG_EVERY_S` (with the count of what
  it held back).
- The client (:func:`send_lines`) checks with ``SO_PEERCRED`` that the listener runs as the
  same user or root before it trusts an answer.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import socket
import stat
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from bank.services.control_client import (  # the client's half, light enough for `ultibank tap`
    BUSY_WAIT_S,
    MAX_SOCKET_PATH,
    ControlError,
    _kind,
    check_socket_path,
    send_lines,
)
from bank.services.ratelimit import RateLimitedLog

__all__ = [
    "BUSY_WAIT_S",
    "MAX_CLIENTS",
    "MAX_LINE",
    "MAX_SOCKET_PATH",
    "ControlError",
    "ControlServer",
    "check_socket_path",
    "send_lines",
]

log = logging.getLogger("ultibank.control")

Handler = Callable[[str], dict[str, Any]]

#: clients served at once; one more is answered "too many clients" and closed
MAX_CLIENTS: Final = 16
#: connections one client process may hold at once (``SO_PEERCRED``'s pid): one stuck or
#: hostile program never holds every slot; one more is told so and closed
MAX_PER_PROCESS: Final = 4
#: bytes in one control line (its newline excluded)
MAX_LINE: Final = 4096
#: a client silent this long is hung up on (seconds)
IDLE_TIMEOUT_S: Final = 120.0
#: errors of accept() that mean "no resources right now": back off and try again
_SCARCE: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: errors of accept() about one connection that went away: just go on
_TRANSIENT: Final = frozenset({errno.ECONNABORTED, errno.EINTR, errno.EPROTO, errno.EAGAIN})


class ControlServer:
    """Accepts connections on *path* and answers each line with *handler*'s JSON.

    *trusted_dir*: the socket's directory is known safe (the checked data directory); else
    :meth:`start` refuses a directory others may write to without the sticky bit.
    """

    def __init__(
        self, path: str | os.PathLike[str], handler: Handler, *, trusted_dir: bool = False
    ) -> None:
        self.path = Path(path)
        self.handler = handler
        self.trusted_dir = trusted_dir
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()
        self._made: tuple[int, int] | None = None  # (st_dev, st_ino) of the socket we bound
        self._clients = 0
        self._clients_lock = threading.Lock()
        #: connections held by each client process (pid from SO_PEERCRED)
        self._per_pid: dict[int, int] = {}
        self._warn = RateLimitedLog(log)

    # ------------------------------------------------------------------ start and stop

    def start(self) -> None:
        """Bind and listen; raises :class:`ControlError` naming the path on any refusal."""
        path = self.path
        check_socket_path(path)
        self._prepare_dir(path.parent)
        self._clear_stale(path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket is born 0600: no window where others could connect
        try:
            sock.bind(str(path))
        except OSError as err:
            sock.close()
            if err.errno == errno.EADDRINUSE:
                raise ControlError(
                    f"{path} appeared while the control socket was being made; "
                    "is another ultibank starting with the same --socket?"
                ) from err
            raise ControlError(
                f"cannot make the control socket {path}: {err.strerror or err}"
            ) from err
        finally:
            os.umask(old)
        st = os.lstat(path)
        self._made = (st.st_dev, st.st_ino)
        sock.listen(MAX_CLIENTS)
        self._sock = sock
        self._thread = threading.Thread(target=self._accept, name="ultibank-control", daemon=True)
        self._thread.start()

    def _prepare_dir(self, folder: Path) -> None:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            st = os.stat(folder)
        except OSError as err:
            raise ControlError(
                f"cannot use {folder} for the control socket: {err.strerror or err}"
            ) from err
        if not stat.S_ISDIR(st.st_mode):
            raise ControlError(f"cannot use {folder} for the control socket: not a directory")
        if self.trusted_dir:
            return
        shared = st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        if shared and not st.st_mode & stat.S_ISVTX:
            raise ControlError(
                f"refusing to put the control socket in {folder}: others may write there "
                f"(mode {stat.S_IMODE(st.st_mode):o}) and could replace it; choose another "
                "--socket"
            )

    @staticmethod
    def _clear_stale(path: Path) -> None:
        """Remove a socket of ours nobody answers on; refuse anything else at *path*."""
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return
        except OSError as err:
            raise ControlError(f"cannot check {path}: {err.strerror or err}") from err
        if not stat.S_ISSOCK(st.st_mode):
            raise ControlError(
                f"refusing to use {path} as the control socket: it is {_kind(st.st_mode)}, "
                "not a socket, and ultibank deletes only sockets it made; choose another --socket"
            )
        if st.st_uid != os.geteuid():
            raise ControlError(
                f"refusing to use {path} as the control socket: it is a socket of uid "
                f"{st.st_uid}, not ours; choose another --socket"
            )
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.settimeout(2.0)
        try:
            probe.connect(str(path))
        except ConnectionRefusedError:
            pass  # nobody listens: left by a daemon that died
        except (BlockingIOError, TimeoutError) as err:
            raise ControlError(
                f"another ultibank daemon is listening on {path} (busy); stop it first "
                "or choose another --socket"
            ) from err
        except OSError as err:
            raise ControlError(f"cannot check {path}: {err.strerror or err}") from err
        else:
            raise ControlError(
                f"another ultibank daemon is listening on {path}; stop it first or choose "
                "another --socket"
            )
        finally:
            probe.close()
        again = os.lstat(path)
        if (again.st_dev, again.st_ino) == (st.st_dev, st.st_ino):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            log.info("removed the stale control socket %s", path)

    def close(self) -> None:
        """Stop accepting; remove the socket file if it is still the one we made."""
        self._closing.set()
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
        made, self._made = self._made, None
        if made is None:
            return  # start() failed or never ran: whatever is there is not ours
        with contextlib.suppress(OSError):
            st = os.lstat(self.path)
            if (st.st_dev, st.st_ino) == made and stat.S_ISSOCK(st.st_mode):
                self.path.unlink()

    # ------------------------------------------------------------------ serving

    def _accept(self) -> None:
        assert self._sock is not None
        delay = 0.0
        while not self._closing.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError as err:
                if self._closing.is_set():
                    return
                if err.errno in _TRANSIENT:
                    continue
                if err.errno in _SCARCE:
                    delay = min(max(delay * 2, 0.05), 1.0)
                    self._warn(
                        "scarce",
                        logging.WARNING,
                        "control socket: out of file descriptors or memory (%s); "
                        "waiting for some to be freed, still accepting",
                        err.strerror,
                    )
                else:
                    delay = 1.0
                    self._warn("accept", logging.ERROR, "control socket: accept failed: %s", err)
                self._closing.wait(delay)
                continue
            delay = 0.0
            self._admit(conn)

    def _admit(self, conn: socket.socket) -> None:
        pid = _peer_pid(conn)
        with self._clients_lock:
            full = self._clients >= MAX_CLIENTS
            greedy = not full and self._per_pid.get(pid, 0) >= MAX_PER_PROCESS
            if not full and not greedy:
                self._clients += 1
                self._per_pid[pid] = self._per_pid.get(pid, 0) + 1
        if full:
            self._refuse(conn, f"too many clients ({MAX_CLIENTS}) on the control socket; try again")
            return
        if greedy:
            self._refuse(
                conn,
                f"too many connections from one process ({MAX_PER_PROCESS}) on the control "
                "socket; close one first",
            )
            return
        try:
            threading.Thread(target=self._serve, args=(conn, pid), daemon=True).start()
        except RuntimeError as err:  # no thread to be had: as scarce as a descriptor
            self._left(pid)
            self._warn("thread", logging.WARNING, "control socket: cannot serve a client: %s", err)
            self._refuse(conn, "the daemon cannot serve another client now; try again")

    def _left(self, pid: int) -> None:
        with self._clients_lock:
            self._clients -= 1
            count = self._per_pid.get(pid, 0) - 1
            if count > 0:
                self._per_pid[pid] = count
            else:
                self._per_pid.pop(pid, None)

    @staticmethod
    def _refuse(conn: socket.socket, error: str) -> None:
        with conn:
            conn.settimeout(0.5)
            with contextlib.suppress(OSError):
                conn.sendall(_encode({"ok": False, "error": error}))

    def _serve(self, conn: socket.socket, pid: int) -> None:
        try:
            with conn:
                conn.settimeout(IDLE_TIMEOUT_S)
                self._serve_lines(conn)
        except OSError:
            pass  # the client went away or stalled: nothing of its line was run
        finally:
            self._left(pid)

    def _serve_lines(self, conn: socket.socket) -> None:
        with conn.makefile("rb") as stream:
            while not self._closing.is_set():
                raw = stream.readline(MAX_LINE + 1)
                if not raw:
                    return
                if not raw.endswith(b"\n"):
                    if len(raw) > MAX_LINE:
                        conn.sendall(_encode({"ok": False, "error": _TOO_LONG}))
                    else:
                        log.debug("control socket: a line cut short (%d bytes) discarded", len(raw))
                    return  # hang up: the rest of that line is never read as a new one
                line = raw.decode("utf-8", "replace").strip()
                if not line:
                    continue
                conn.sendall(_encode(self._answer(line)))

    def _answer(self, line: str) -> dict[str, Any]:
        try:
            return self.handler(line)
        except Exception as err:
            self._warn(
                f"line:{type(err).__name__}", logging.ERROR, "control line %r failed",
                line[:200], exc=True,
            )  # fmt: skip
            return {"ok": False, "error": f"{type(err).__name__}: {err}"[:1000]}


_TOO_LONG: Final = f"line too long (over {MAX_LINE} bytes): refused, connection closed"


def _encode(answer: dict[str, Any]) -> bytes:
    return json.dumps(answer, ensure_ascii=False).encode() + b"\n"


def _peer_pid(conn: socket.socket) -> int:
    """The pid of the process at the other end of *conn* (0 when it cannot be told)."""
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return 0
    pid: int = struct.unpack("3i", creds)[0]
    return pid
