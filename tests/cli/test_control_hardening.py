"""The control socket and the data directory under attack or misuse (issue 9, items 2, 4-6, 9).

Real daemons in subprocesses, real Unix sockets, real symlinks; a second user is a forked
child that drops to ``nobody`` (the tests run as root).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.services.control import send_lines

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="a second user needs root to setuid")


def ultibank(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=timeout, check=False,
        env=env or dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip


def one_line_error(out: Any) -> str:
    """The refusal: a non-zero exit, one line on stderr, no traceback."""
    assert out.returncode != 0, out.stdout
    assert "Traceback" not in out.stderr, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("ultibank: "), lines[0]
    return lines[0]


class Daemon:
    """``ultibank run`` in a subprocess, until :meth:`stop`."""

    def __init__(self, data: Path, *extra: str, socket_path: Path | None = None) -> None:
        self.data = data
        self.sock = socket_path or data / "control.sock"
        args = ["run", "--reader", "sim", "--panel", "sim", "--data-dir", str(data)]
        if socket_path is not None:
            args += ["--socket", str(socket_path)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bank.cli", *args, *extra],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while not self._listening():
            if self.proc.poll() is not None:
                raise AssertionError(f"the daemon exited: {self.proc.communicate()[1]}")
            assert time.monotonic() < deadline, "the daemon did not open its control socket"
            time.sleep(0.05)

    def _listening(self) -> bool:
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(str(self.sock))
            except OSError:
                return False
        return True

    def send(self, *lines: str, timeout: float = 10.0) -> list[dict[str, Any]]:
        return list(send_lines(self.sock, list(lines), timeout=timeout))

    def state(self, timeout: float = 10.0) -> dict[str, Any]:
        (answer,) = self.send("state", timeout=timeout)
        assert answer["ok"], answer
        result: dict[str, Any] = answer["state"]
        return result

    def stop(self) -> str:
        """SIGTERM; returns what the daemon wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.communicate()[1]


@pytest.fixture
def daemons() -> Iterator[Callable[..., Daemon]]:
    started: list[Daemon] = []

    def start(data: Path, *extra: str, socket_path: Path | None = None) -> Daemon:
        d = Daemon(data, *extra, socket_path=socket_path)
        started.append(d)
        return d

    yield start
    for d in started:
        if d.proc.poll() is None:
            d.proc.kill()
            d.proc.wait()


def run_briefly(*args: str) -> Any:
    """``ultibank run`` expected to refuse at once (killed after 20 s if it does not)."""
    return ultibank("run", "--reader", "sim", "--panel", "sim", *args, timeout=20)


@contextlib.contextmanager
def shared_dir() -> Iterator[Path]:
    """A directory ``nobody`` can reach and write (pytest's own tmp dirs are root-only)."""
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="ultibank-shared-") as top:
        os.chmod(top, 0o755)
        inner = Path(top) / "shared"
        inner.mkdir()
        os.chmod(inner, 0o777)
        yield inner


def as_nobody(fn: Callable[[], None]) -> int:
    """Run *fn* in a forked child as ``nobody``; returns the child's pid (it exits after fn)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            fn()
        except BaseException:
            code = 1
        os._exit(code)
    return pid


# ---------------------------------------------------------------------- item 2: deletes


def test_socket_on_a_file_it_did_not_make_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    notes = data / "notes.txt"
    notes.write_text("my notes\n")
    line = one_line_error(run_briefly("--data-dir", str(data), "--socket", str(notes)))
    assert str(notes) in line and "not a socket" in line
    assert notes.read_text() == "my notes\n"
    # the open journal itself: refused, and the game is still there after
    script = tmp_path / "g.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\ntap prop:16\ntap bank:1\n")
    assert ultibank("script", str(script), "--data-dir", str(data)).returncode == 0
    journal = data / "journal.sqlite"
    size = journal.stat().st_size
    line = one_line_error(run_briefly("--data-dir", str(data), "--socket", str(journal)))
    assert str(journal) in line
    assert journal.exists() and journal.stat().st_size == size
    state = ultibank("script", os.devnull, "--data-dir", str(data), "--state", "-")
    assert json.loads(state.stdout)["properties"][15]["owner"] == 1


def test_a_second_daemon_on_the_same_socket_leaves_the_first_alone(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    sock = tmp_path / "shared.sock"
    first = daemons(tmp_path / "a", socket_path=sock)
    first.send("tap bank:1", "tap bank:2", "press ok")
    line = one_line_error(run_briefly("--data-dir", str(tmp_path / "b"), "--socket", str(sock)))
    assert "another ultibank daemon is listening on" in line and str(sock) in line
    assert sock.exists(), "the second daemon deleted the first one's socket"
    assert first.state()["players"][0]["card"] == 1  # still reachable, same game
    first.stop()
    assert not sock.exists()  # its own socket, removed at a clean stop


def test_a_stale_socket_left_by_a_dead_daemon_is_replaced(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(data / "control.sock"))
    dead.close()  # the file stays: a daemon killed with SIGKILL
    assert stat.S_ISSOCK(os.lstat(data / "control.sock").st_mode)
    d = daemons(data)
    assert d.state()["players"] == []


def test_socket_path_a_directory_too_long_or_a_data_dir_that_is_a_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = tmp_path / "folder"
    folder.mkdir()
    line = one_line_error(run_briefly("--data-dir", str(data), "--socket", str(folder)))
    assert str(folder) in line and "directory" in line
    assert folder.is_dir()
    long_path = tmp_path / ("x" * 120) / "control.sock"
    line = one_line_error(run_briefly("--data-dir", str(data), "--socket", str(long_path)))
    assert "too long" in line and "107" in line
    a_file = tmp_path / "file"
    a_file.write_text("not a directory\n")
    line = one_line_error(run_briefly("--data-dir", str(a_file)))
    assert str(a_file) in line and "not a directory" in line
    assert a_file.read_text() == "not a directory\n"


# ---------------------------------------------------------------------- item 4: the flood


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _settled_fds(pid: int) -> int:
    """The daemon's open descriptors once the last client's connection has closed (its thread
    sees the hang-up when it gets a core, later on a loaded machine): unchanged for 0.3 s."""
    count, since = _open_fds(pid), time.monotonic()
    deadline = since + 5
    while time.monotonic() < deadline and time.monotonic() - since < 0.3:
        time.sleep(0.02)
        now = _open_fds(pid)
        if now != count:
            count, since = now, time.monotonic()
    return count


def test_a_connection_flood_that_exhausts_fds_does_not_kill_the_control_socket(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    d = daemons(tmp_path / "data")
    assert d.state()["players"] == []
    pid = d.proc.pid
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    limit = _settled_fds(pid) + 4  # room for a few clients only
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (limit, hard))
    flood: list[socket.socket] = []
    try:
        for _ in range(1100):
            s = socket.socket(socket.AF_UNIX)
            s.setblocking(False)
            try:
                s.connect(str(d.sock))
            except BlockingIOError:  # the backlog is full: the daemon is out of descriptors
                s.close()
                time.sleep(0.002)
                continue
            flood.append(s)
        # wait until the daemon has used every descriptor it may (on a loaded machine it can
        # be slow to get a core), then give its accept loop a second to meet the limit
        deadline = time.monotonic() + 15
        while _open_fds(pid) < limit:
            assert time.monotonic() < deadline, "the daemon never used its descriptors up"
            time.sleep(0.01)
        time.sleep(1.0)
    finally:
        for s in flood:
            s.close()
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
    deadline = time.monotonic() + 15
    while True:  # the queued connections drain; then the daemon answers again
        try:
            assert d.state(timeout=5)["players"] == []
            break
        except (ConnectionError, TimeoutError):
            assert time.monotonic() < deadline, "the control socket never answered again"
            time.sleep(0.2)
    log = d.stop()
    assert "Traceback" not in log
    assert "out of file descriptors" in log
    assert len(log.splitlines()) < 30, log[-3000:]  # repeated errors are rate-limited


def test_clients_are_bounded_and_a_refused_one_is_told_why(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    from bank.services.control import MAX_CLIENTS, MAX_PER_PROCESS

    d = daemons(tmp_path / "data")
    # the slots filled by several programs, each holding its share of connections
    hold = (
        "import socket, sys\n"
        "held = [socket.socket(socket.AF_UNIX) for _ in range(int(sys.argv[2]))]\n"
        "for s in held: s.connect(sys.argv[1])\n"
        "print('ready', flush=True)\n"
        "sys.stdin.read()\n"
    )
    holders = []
    try:
        for _ in range(MAX_CLIENTS // MAX_PER_PROCESS):
            p = subprocess.Popen(
                [sys.executable, "-c", hold, str(d.sock), str(MAX_PER_PROCESS)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            holders.append(p)
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        (answer,) = d.send("state", timeout=5)
        assert answer["ok"] is False and "too many clients" in answer["error"]
    finally:
        for p in holders:
            p.kill()
            p.wait()
    time.sleep(0.3)
    assert d.state()["players"] == []


# ---------------------------------------------------------------------- item 5: bad input


def test_a_hold_too_long_to_sleep_is_refused_and_nothing_stays_pressed(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    d = daemons(tmp_path / "data", "--set", "unit.hold_seconds=0.5")
    d.send("tap bank:1", "tap bank:2", "press ok")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = ultibank("hold", "cancel", "1e308", "--socket", str(d.sock), env=env)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "at most" in out.stderr
    time.sleep(1.0)  # X held that long would archive the game
    state = d.state()
    assert [p["card"] for p in state["players"]] == [1, 2], state


def test_a_partial_line_is_discarded_not_executed(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    d = daemons(tmp_path / "data")
    idle = d.state()["screen"]
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(d.sock))
        s.sendall(b"tap bank:1")  # no newline: the client died mid-line
    time.sleep(0.5)
    assert d.state()["screen"] == idle
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(d.sock))
        s.sendall(b"tap bank:1\ntap bank:2")  # a whole line, then one cut short
        s.shutdown(socket.SHUT_WR)
        answers = s.makefile("rb").read().splitlines()
    assert len(answers) == 1 and json.loads(answers[0])["ok"]
    time.sleep(0.5)
    assert d.state()["screen"].startswith("new_game [car]")


def test_an_overlong_line_is_refused_without_echo(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    from bank.services.control import MAX_LINE

    d = daemons(tmp_path / "data")
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(10)
        s.connect(str(d.sock))
        chunk = b"x" * 65536
        s.sendall(b"tap prop:" + chunk)
        with contextlib.suppress(OSError):  # the daemon may hang up before the rest is sent
            for _ in range(64):  # 4 MB more on the same line
                s.sendall(chunk)
        reply = s.makefile("rb").readline(4096)
    answer = json.loads(reply)
    assert answer["ok"] is False and "too long" in answer["error"]
    assert str(MAX_LINE) in answer["error"] and "xxxxxxxx" not in answer["error"]
    assert d.state()["players"] == []


def test_answers_go_only_to_the_client_that_asked(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    d = daemons(tmp_path / "data")
    waited: list[dict[str, Any]] = []
    waiter = threading.Thread(target=lambda: waited.extend(d.send("wait 1.5")))
    waiter.start()
    time.sleep(0.3)
    tapped = d.send("tap bank:1", "tap bank:2")
    waiter.join(10)
    assert waited == [{"ok": True, "output": []}], waited
    assert all(a["ok"] and any("cue" in o for o in a["output"]) for a in tapped), tapped


# ---------------------------------------------------------------------- item 6: privileges


def test_a_group_or_world_writable_data_dir_is_refused_unless_configured(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.chmod(data, 0o770)
    line = one_line_error(run_briefly("--data-dir", str(data)))
    assert str(data) in line and "writable" in line and "game.strict_modes" in line
    assert not (data / "journal.sqlite").exists()
    d = daemons(data, "--set", "game.strict_modes=false")
    assert d.state()["players"] == []


@needs_root
def test_a_symlinked_lock_file_is_refused_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "root-only.conf"
    victim.write_text("secret settings\n")
    os.chmod(victim, 0o600)
    with shared_dir() as data:
        # nobody plants a symlink where the daemon takes its lock
        pid = as_nobody(lambda: os.symlink(victim, data / "journal.sqlite.lock"))
        assert os.waitpid(pid, 0)[1] == 0
        out = run_briefly("--data-dir", str(data), "--set", "game.strict_modes=false")
        line = one_line_error(out)
        assert "journal.sqlite.lock" in line and "symbolic link" in line
        assert victim.read_text() == "secret settings\n"
        # the same directory with the default settings: refused before anything is opened
        line = one_line_error(run_briefly("--data-dir", str(data)))
        assert "writable" in line


@needs_root
def test_the_client_does_not_trust_a_socket_another_user_listens_on(tmp_path: Path) -> None:
    with shared_dir() as place:
        path = place / "control.sock"
        ready = place / "ready"

        def impostor() -> None:
            with socket.socket(socket.AF_UNIX) as srv:
                srv.bind(str(path))
                os.chmod(path, 0o777)
                srv.listen(4)
                ready.touch()
                srv.settimeout(20)
                conn, _ = srv.accept()
                with conn:
                    conn.recv(1024)
                    conn.sendall(b'{"ok": true, "output": ["screen PAY 9999 TO NOBODY"]}\n')

        pid = as_nobody(impostor)
        try:
            deadline = time.monotonic() + 10
            while not ready.exists():
                assert time.monotonic() < deadline
                time.sleep(0.02)
            out = ultibank("tap", "bank:1", "--socket", str(path))
            line = one_line_error(out)
            assert "uid 65534" in line and str(path) in line
            assert "NOBODY" not in out.stdout
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


# ---------------------------------------------------------------------- item 9: the backlog


def test_state_when_the_backlog_is_full_is_a_one_line_message(tmp_path: Path) -> None:
    path = tmp_path / "busy.sock"
    with socket.socket(socket.AF_UNIX) as srv:  # a daemon stuck: it never accepts
        srv.bind(str(path))
        srv.listen(0)
        queued = []
        for _ in range(64):
            s = socket.socket(socket.AF_UNIX)
            s.setblocking(False)
            try:
                s.connect(str(path))
            except BlockingIOError as err:
                assert err.errno == errno.EAGAIN
                s.close()
                break
            queued.append(s)
        else:
            pytest.fail("the backlog never filled")
        try:
            out = ultibank("state", "--socket", str(path))
        finally:
            for s in queued:
                s.close()
    line = one_line_error(out)
    assert "busy" in line and str(path) in line


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_a_web_flood_neither_kills_the_control_socket_nor_floods_the_log(
    tmp_path: Path, daemons: Callable[..., Daemon]
) -> None:
    pytest.importorskip("aiohttp")
    port = _free_port()
    d = daemons(tmp_path / "data", "--web", "--web-port", str(port))
    deadline = time.monotonic() + 15
    while True:  # the web view starts just after the control socket
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            break
        assert time.monotonic() < deadline, "the web view did not start"
        time.sleep(0.05)
    pid = d.proc.pid
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (_open_fds(pid) + 8, hard))
    flood: list[socket.socket] = []
    try:
        failures = 0
        while failures < 5:  # any local user can do this: the view has no login
            s = socket.socket()
            s.settimeout(0.2)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            except OSError:  # its queue is full too
                s.close()
                failures += 1
                continue
            flood.append(s)
        time.sleep(3.0)  # the daemon out of descriptors for a while
        assert len(flood) > 8
    finally:
        for s in flood:
            s.close()
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
    deadline = time.monotonic() + 15
    while True:
        try:
            assert d.state(timeout=5)["players"] == []
            break
        except (ConnectionError, TimeoutError):
            assert time.monotonic() < deadline, "the control socket never answered again"
            time.sleep(0.2)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert s.recv(12) == b"HTTP/1.1 200"
    log = d.stop()
    assert "out of system resource" in log
    assert "Traceback" not in log
    assert len(log) < 5000, log[-3000:]  # was megabytes: one line per 10 s, with a count
