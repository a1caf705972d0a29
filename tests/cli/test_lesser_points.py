"""The lesser points of issue 17, each with its test: the speed die in Méga's `state`, control
lines while file descriptors run out, one client holding every control slot, a garbage tip
beside a lost write-ahead log."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.runtime import Runtime
from bank.services.control import MAX_CLIENTS, MAX_PER_PROCESS, send_lines
from bank.services.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def runtimes() -> Iterator[list[Runtime]]:
    made: list[Runtime] = []
    yield made
    for rt in made:
        rt.stop()


def _runtime(data: Path, made: list[Runtime], *sets: str, control: bool = False) -> Runtime:
    rt = Runtime(load_settings(None, [f'game.data_dir="{data}"', *sets]))
    made.append(rt)
    rt.start(control=control)
    return rt


def test_state_in_mega_has_the_speed_die(tmp_path: Path, runtimes: list[Runtime]) -> None:
    rt = _runtime(tmp_path, runtimes, 'game.edition="mega-fr"')
    for line in ("tap bank:1", "tap bank:2", "press ok", "roll 3 4 bus", "press menu",
                 "key 1", "key 1", "tap bank:1"):  # fmt: skip
        assert rt.handle_line(line)["ok"], line
    state = rt.handle_line("state")["state"]
    assert state["last_roll"]["dice"] == [3, 4] and state["last_roll"]["third"] == "bus", state
    assert "screen" in state and "journal_loss" in state  # the control's own keys stay


def test_control_lines_work_while_file_descriptors_run_out(
    tmp_path: Path, runtimes: list[Runtime]
) -> None:
    rt = _runtime(tmp_path, runtimes)
    for line in ("tap bank:1", "tap bank:2", "press ok"):
        assert rt.handle_line(line)["ok"]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    held: list[int] = []
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 4096), hard))
    try:
        try:
            while True:
                held.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            pass  # every descriptor is taken
        answers = [rt.handle_line(line) for line in ("press menu", "tap bank:1", "state")]
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert all(a["ok"] for a in answers), answers
    assert any("cue kaching" in line for line in answers[1]["output"]), answers


def test_one_process_cannot_hold_every_control_slot(
    tmp_path: Path, runtimes: list[Runtime]
) -> None:
    rt = _runtime(tmp_path, runtimes, control=True)
    sock_path = str(rt.settings.control_socket)
    held: list[socket.socket] = []
    try:
        for _ in range(MAX_CLIENTS):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sock_path)
            s.settimeout(5)
            held.append(s)
        # past its share, this process is told so and hung up on
        refused = 0
        for s in held[MAX_PER_PROCESS:]:
            reply = s.makefile("rb").readline()
            assert b"too many connections from one process" in reply, reply
            refused += 1
        assert refused == MAX_CLIENTS - MAX_PER_PROCESS
        # another client still gets in while this one holds its share
        done = subprocess.run(
            [sys.executable, "-c", "import sys\nfrom bank.services.control import send_lines\n"
             "print(list(send_lines(sys.argv[1], ['state']))[0]['ok'])", sock_path],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
            text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.stdout.strip() == "True", done.stderr
    finally:
        for s in held:
            s.close()
    # the daemon frees this process's share as its threads see the hang-ups (at once on a
    # quiet machine; a loaded one, running other tests beside this one, takes a moment)
    deadline = time.monotonic() + 10
    while not (answer := next(iter(send_lines(sock_path, ["state"]))))["ok"]:
        assert time.monotonic() < deadline, answer
        time.sleep(0.01)
