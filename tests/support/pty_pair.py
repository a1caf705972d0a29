"""A serial cable for tests: two linked pseudo-terminals, one for the daemon, one for the panel.

:class:`SocatPair` runs ``socat pty,raw,echo=0,link=HOST pty,raw,echo=0,link=PANEL``: both
ends are real ttys and both sides open them with pyserial exactly as in production. Killing
socat pulls the cable (the daemon's next read raises ``SerialException``); :meth:`restart`
plugs it back in on the same link paths. :class:`RelayPair` is the same thing without the
socat binary: two ``pty.openpty()`` pairs and a relay thread, with symlinks at the same paths.

``make_pair(dir)`` picks socat when it is installed (and insists on it when ``CI`` is set).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import threading
import time
import tty
from pathlib import Path
from typing import Protocol


class PtyPair(Protocol):
    """Two linked ttys at fixed paths; ``kill`` pulls the cable, ``restart`` plugs it back."""

    host_path: str
    panel_path: str

    def start(self) -> None: ...
    def kill(self) -> None: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


def _wait_for(paths: list[Path], deadline: float, what: str) -> None:
    """Poll until every path exists (socat creates its links asynchronously)."""
    while not all(p.exists() for p in paths):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: links {', '.join(map(str, paths))} did not appear")
        time.sleep(0.005)


class SocatPair:
    """A socat pty pair at ``DIR/host`` and ``DIR/panel``."""

    def __init__(self, directory: Path, timeout: float = 5.0) -> None:
        self._dir = Path(directory)
        self.host_path = str(self._dir / "host")
        self.panel_path = str(self._dir / "panel")
        self._timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start socat and wait for both links."""
        for p in (self.host_path, self.panel_path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)
        self._proc = subprocess.Popen(
            [
                "socat",
                f"pty,raw,echo=0,link={self.host_path}",
                f"pty,raw,echo=0,link={self.panel_path}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for(
                [Path(self.host_path), Path(self.panel_path)],
                time.monotonic() + self._timeout,
                "socat",
            )
        except RuntimeError:
            self.kill()
            raise

    def kill(self) -> None:
        """Pull the cable: SIGKILL socat (its links dangle, as a vanished /dev node would)."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=5)
            self._proc = None

    def restart(self) -> None:
        """Plug the cable back in on the same paths."""
        self.kill()
        self.start()

    def close(self) -> None:
        """Stop socat and remove the links."""
        self.kill()
        for p in (self.host_path, self.panel_path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)


class RelayPair:
    """The socat pair rebuilt from two ``pty.openpty()`` pairs and a relay thread."""

    def __init__(self, directory: Path) -> None:
        self._dir = Path(directory)
        self.host_path = str(self._dir / "host")
        self.panel_path = str(self._dir / "panel")
        self._fds: list[int] = []
        self._stop_r = -1
        self._stop_w = -1
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Open the ptys, link them and start relaying."""
        masters: list[int] = []
        for link in (self.host_path, self.panel_path):
            master, slave = os.openpty()
            tty.setraw(slave)
            name = os.ttyname(slave)
            # Keep our slave fd open: a master whose slaves are all closed reads as EIO.
            self._fds += [master, slave]
            masters.append(master)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(link)
            os.symlink(name, link)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._relay, args=(masters,), daemon=True)
        self._thread.start()

    def _relay(self, masters: list[int]) -> None:
        a, b = masters
        peer = {a: b, b: a}
        while True:
            try:
                ready, _, _ = select.select([a, b, self._stop_r], [], [])
            except (OSError, ValueError):
                return
            if self._stop_r in ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                    os.write(peer[fd], data)
                except OSError:
                    return

    def kill(self) -> None:
        """Pull the cable: close the masters, so the daemon's tty reads fail with EIO."""
        if self._thread is None:
            return
        os.write(self._stop_w, b"x")
        self._thread.join(timeout=5)
        self._thread = None
        for fd in [*self._fds, self._stop_r, self._stop_w]:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = []

    def restart(self) -> None:
        """Plug the cable back in: new ptys behind the same link paths."""
        self.kill()
        self.start()

    def close(self) -> None:
        """Stop relaying and remove the links."""
        self.kill()
        for p in (self.host_path, self.panel_path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)


def have_socat() -> bool:
    """True if the socat binary is on PATH."""
    return shutil.which("socat") is not None


def make_pair(directory: Path) -> PtyPair:
    """A started pair: socat when available (required under CI), else the relay."""
    pair: PtyPair
    if have_socat():
        pair = SocatPair(directory)
    elif os.environ.get("CI"):
        raise RuntimeError("socat is required under CI (apt-get install socat)")
    else:
        pair = RelayPair(directory)
    pair.start()
    return pair
