"""The local control socket: a Unix socket (mode 0600) that takes tap-script lines.

``ultibank tap prop:16``, ``ultibank press ok`` and ``ultibank state`` connect, send one line
each, and read one JSON answer per line: ``{"ok": true, "output": [...], "state": {...}}`` or
``{"ok": false, "error": "..."}``. Only the owner of the data directory can connect (the
socket file is created with mode 0600 inside it). Imports the standard library only; the
daemon supplies the function that runs a line.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger("ultibank.control")

Handler = Callable[[str], dict[str, Any]]


class ControlServer:
    """Accepts connections on *path* and answers each line with *handler*'s JSON."""

    def __init__(self, path: str | os.PathLike[str], handler: Handler) -> None:
        self.path = Path(path)
        self.handler = handler
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()

    def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(self.path))
            except OSError:
                self.path.unlink()  # left by a daemon that died
            else:
                probe.close()
                raise OSError(f"another ultibank daemon is listening on {self.path}")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket is born 0600: no window where others could connect
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        sock.listen(8)
        self._sock = sock
        self._thread = threading.Thread(target=self._accept, name="ultibank-control", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        assert self._sock is not None
        while not self._closing.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rwb") as stream:
            for raw in stream:
                line = raw.decode("utf-8", "replace").strip()
                if not line:
                    continue
                try:
                    answer = self.handler(line)
                except Exception as err:
                    log.exception("control line %r failed", line)
                    answer = {"ok": False, "error": f"{type(err).__name__}: {err}"}
                stream.write(json.dumps(answer, ensure_ascii=False).encode() + b"\n")
                stream.flush()

    def close(self) -> None:
        self._closing.set()
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def send_lines(
    path: str | os.PathLike[str], lines: list[str], timeout: float = 30.0
) -> Iterator[dict[str, Any]]:
    """Send lines to a running daemon; yields one JSON answer per line."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(os.fspath(path))
    except FileNotFoundError as err:
        raise ConnectionError(
            f"no ultibank daemon is running here (no control socket at {path}); "
            "start one with `ultibank run` or `ultibank emulate`"
        ) from err
    except PermissionError as err:
        raise ConnectionError(f"permission denied on {path}: run as the daemon's user") from err
    except ConnectionRefusedError as err:
        raise ConnectionError(f"the daemon behind {path} is not answering (stale socket?)") from err
    with sock, sock.makefile("rwb") as stream:
        for line in lines:
            stream.write(line.encode() + b"\n")
            stream.flush()
            reply = stream.readline()
            if not reply:
                raise ConnectionError("the daemon closed the connection")
            yield json.loads(reply)
