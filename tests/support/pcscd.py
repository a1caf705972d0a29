"""Run a private pcscd with vsmartcard-vpcd readers for tests and benchmarks.

Only one pcscd can run per machine (pcscd 1.9.9 always binds ``/run/pcscd/pcscd.comm``), so
:func:`pcscd_session` holds an exclusive ``flock`` on :data:`LOCK_PATH` for its whole life and
refuses to start while a pcscd it did not start is running. The daemon is started with
``subprocess.Popen`` and reaped with ``wait()`` (backgrounded from a shell it becomes a zombie
on machines whose PID 1 does not reap). Its reader configuration offers two vpcd readers: the
stock ``Virtual PCD`` on port 35963 and one named like an ACR122U on port 40000 (served by a
copy of the vpcd driver), so the backend's ACR122U-only feedback can be tested.

Test support only: imports the standard library and, lazily, pyscard and pytest.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LOCK_PATH = Path("/tmp/ultibank-pcscd.lock")
VPCD_DRIVER = Path("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")

PLAIN_READER = "Virtual PCD"
PLAIN_PORT = 35963  # channel 0x8C7B, as in Debian's /etc/reader.conf.d/vpcd
ACR122_READER = "ACS ACR122U PICC Interface (vpcd)"
ACR122_PORT = 40000  # channel 0x9C40

_READER_ENTRY = """\
FRIENDLYNAME "{name}"
DEVICENAME   /dev/null:0x{port:04X}
LIBPATH      {driver}
CHANNELID    0x{port:04X}
"""


class PcscdUnavailable(Exception):
    """pcscd cannot be run here; the message says why (skip locally, fail under CI)."""


def skip_or_fail(reason: str) -> None:
    """Skip the test, or fail it when the ``CI`` environment variable is set."""
    import pytest

    if os.environ.get("CI"):
        pytest.fail(f"pcscd tests must run under CI: {reason}")
    pytest.skip(reason)


def foreign_pcscd(ours: int | None = None) -> list[int]:
    """Pids of live pcscd processes other than *ours* (zombies do not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == ours:
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if comm == "pcscd" and state != "Z":
            found.append(int(entry.name))
    return found


def list_readers() -> list[str] | None:
    """The readers pcscd offers now, or None when pcscd does not answer."""
    from smartcard import scard

    rc, ctx = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if rc != scard.SCARD_S_SUCCESS:
        return None
    try:
        rc, readers = scard.SCardListReaders(ctx, [])
        if rc == scard.SCARD_E_NO_READERS_AVAILABLE:
            return []
        return list(readers) if rc == scard.SCARD_S_SUCCESS else None
    finally:
        scard.SCardReleaseContext(ctx)


def reader_event(reader: str, timeout: float = 0.0) -> tuple[int, int] | None:
    """(event counter, state flags) of *reader* as pcscd sees it now, None without pcscd."""
    from smartcard import scard

    rc, ctx = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if rc != scard.SCARD_S_SUCCESS:
        return None
    try:
        rc, states = scard.SCardGetStatusChange(ctx, 0, [(reader, scard.SCARD_STATE_UNAWARE)])
        if rc != scard.SCARD_S_SUCCESS:
            return None
        state = int(states[0][1])
        return (state >> 16) & 0xFFFF, state & 0xFFFF
    finally:
        scard.SCardReleaseContext(ctx)


def wait_until(predicate: Any, timeout: float, interval: float = 0.01) -> bool:
    """Poll *predicate* until it is true or *timeout* seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def wait_card_state(reader: str, present: bool, timeout: float = 3.0) -> int:
    """Wait until pcscd sees a card on *reader* (or none); return the event counter."""
    from smartcard import scard

    seen: list[int] = []

    def check() -> bool:
        event = reader_event(reader)
        if event is None:
            return False
        counter, flags = event
        seen[:] = [counter]
        return bool(flags & scard.SCARD_STATE_PRESENT) == present

    if not wait_until(check, timeout):
        raise AssertionError(
            f"pcscd did not see {reader!r} {'with' if present else 'without'} a card"
        )
    return seen[0]


class Pcscd:
    """One pcscd process with the vpcd readers; start, stop, kill, restart."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.config = workdir / "reader.conf.d"
        self.config.mkdir(parents=True, exist_ok=True)
        # vpcd keeps its sockets in globals indexed by slot, so two readers on one loaded copy
        # of the driver clobber each other; a second copy of the file is loaded separately.
        acr122_driver = workdir / "libifdvpcd-acr122.so"
        shutil.copyfile(VPCD_DRIVER, acr122_driver)
        (self.config / "vpcd").write_text(
            _READER_ENTRY.format(name=PLAIN_READER, port=PLAIN_PORT, driver=VPCD_DRIVER)
            + "\n"
            + _READER_ENTRY.format(name=ACR122_READER, port=ACR122_PORT, driver=acr122_driver)
        )
        self.log_path = workdir / "pcscd.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.binary = shutil.which("pcscd") or "/usr/sbin/pcscd"

    @property
    def readers(self) -> list[str]:
        """Both slots of both readers, as pyscard lists them."""
        return [
            f"{name} 00 {slot:02d}" for name in (PLAIN_READER, ACR122_READER) for slot in (0, 1)
        ]

    def start(self, timeout: float = 5.0) -> None:
        """Start pcscd and wait until it lists the vpcd readers."""
        if self.proc is not None:
            raise RuntimeError("pcscd is already running")
        others = foreign_pcscd()
        if others:
            raise PcscdUnavailable(f"another pcscd is running (pid {others[0]}); stop it first")
        with self.log_path.open("ab") as log:
            # --auto-exit: if this process dies without stopping pcscd, it quits after 60 s idle.
            self.proc = subprocess.Popen(
                [self.binary, "--foreground", "--auto-exit", "--config", str(self.config)],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        want = {f"{PLAIN_READER} 00 00", f"{ACR122_READER} 00 00"}
        proc = self.proc

        def ready() -> bool:
            return proc.poll() is not None or want <= set(list_readers() or ())

        if not wait_until(ready, timeout) or proc.poll() is not None:
            rc = self.proc.poll()
            self.stop()
            raise PcscdUnavailable(
                f"pcscd did not offer the vpcd readers within {timeout} s (exit code {rc}): "
                f"{self.log_tail()}"
            )

    def stop(self) -> None:
        """Stop pcscd cleanly (SIGTERM) and reap it."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill pcscd hard (SIGKILL), as a crash would, and reap it."""
        self._end(signal.SIGKILL)

    def restart(self) -> None:
        """Stop and start again."""
        self.stop()
        self.start()

    def _end(self, sig: int) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(sig)
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, lines: int = 15) -> str:
        """The end of pcscd's log, for failure messages."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def check_installed() -> None:
    """Raise PcscdUnavailable if pcscd, the vpcd driver or pyscard is missing."""
    if shutil.which("pcscd") is None and not Path("/usr/sbin/pcscd").exists():
        raise PcscdUnavailable("pcscd is not installed (apt-get install pcscd)")
    if not VPCD_DRIVER.exists():
        raise PcscdUnavailable("vsmartcard-vpcd is not installed (apt-get install vsmartcard-vpcd)")
    try:
        import smartcard.scard  # noqa: F401
    except ImportError as err:
        raise PcscdUnavailable(f"pyscard is not importable: {err}") from err


@contextlib.contextmanager
def machine_lock(timeout: float = 60.0) -> Iterator[None]:
    """Hold the machine-wide pcscd lock; PcscdUnavailable if another run keeps it."""
    # read-only is enough for flock, and works on a lock file another user created
    fd = os.open(LOCK_PATH, os.O_RDONLY | os.O_CREAT, 0o666)
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o666)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as err:
                if time.monotonic() >= deadline:
                    raise PcscdUnavailable(
                        f"another test run holds {LOCK_PATH} (only one pcscd per machine)"
                    ) from err
                time.sleep(0.1)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.contextmanager
def pcscd_session(workdir: Path | None = None) -> Iterator[Pcscd]:
    """A running private pcscd, under the machine-wide lock; stopped and reaped on exit."""
    check_installed()
    with machine_lock(), contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pcscd-")))
        daemon = Pcscd(workdir)
        daemon.start()
        try:
            yield daemon
        finally:
            daemon.stop()
