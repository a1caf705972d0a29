"""The real daemon against a full disk, a damaged write-ahead log, and a backup taken while it runs.

The full disk is a real 1 MB tmpfs (skipped where mounting is not allowed; the unit-level tests
in tests/unit/test_faults.py reach SQLITE_FULL through SQLite's own ``max_page_count``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.services.control import send_lines
from bank.services.daemon import IDLE_AFTER
from bank.services.journal import Journal

ROOT = Path(__file__).resolve().parents[2]


class Box:
    """``ultibank run`` on a data directory, driven through its control socket."""

    def __init__(self, data: Path, *options: str) -> None:
        self.data = data
        self.env = dict(os.environ, ULTIBANK_DATA_DIR=str(data), PYTHONPATH=str(ROOT))
        self.options = options
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        cmd = [sys.executable, "-m", "bank.cli", *self.options, "run"]
        self.proc = subprocess.Popen(
            [*cmd, "--reader", "sim", "--panel", "sim"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:  # a killed daemon leaves its socket behind: wait for an answer
            assert self.proc.poll() is None, self.proc.communicate()[1]
            assert time.monotonic() < deadline, "the daemon did not open its control socket"
            try:
                self.lines("state")
                return self.proc
            except ConnectionError:
                time.sleep(0.05)

    def lines(self, *lines: str) -> list[dict[str, object]]:
        return list(send_lines(self.data / "control.sock", list(lines), timeout=30))

    def state(self) -> dict[str, object]:
        answer = self.lines("state")[0]
        state = answer["state"]
        assert isinstance(state, dict)
        return state

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bank.cli", *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip

    def stop(self) -> tuple[int, str]:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, err

    def kill(self) -> str:
        assert self.proc is not None
        self.proc.kill()
        return self.proc.communicate(timeout=20)[1]


@pytest.fixture
def boxes() -> Iterator[list[Box]]:
    made: list[Box] = []
    yield made
    for box in made:
        if box.proc is not None and box.proc.poll() is None:
            box.proc.kill()
            box.proc.wait()


def _balance(state: dict[str, object], card: int) -> int:
    players = state["players"]
    assert isinstance(players, list)
    return int(next(p["balance"] for p in players if p["card"] == card))


START = ("tap bank:1", "tap bank:2", "press ok")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "data"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(mount)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a 1 MB tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass  # no space left: that was the point
    finally:
        os.close(fd)


def test_a_full_disk_during_a_reset_hold_is_shown_then_recovered_without_restart(
    small_disk: Path, boxes: list[Box]
) -> None:
    box = Box(small_disk, "--set", "unit.hold_seconds=0.3")
    boxes.append(box)
    proc = box.start()
    box.lines(*START, "press menu", "tap bank:1")
    _fill(small_disk / "fill")
    # the hold commits the reset from the loop's deadline path: the disk is full
    out = box.lines("hold cancel 0.5")[0]["output"]
    assert isinstance(out, list)
    assert "cue error" in out and any("Disque plein" in line for line in out), out
    assert proc.poll() is None, "the full disk killed the daemon"
    state = box.state()
    assert len(state["players"]) == 2  # not archived: the reset was not recorded
    assert "full" in str(state["fault"]) and str(state["screen"]).startswith("fault")
    # every transaction is refused with the fault while the disk is full
    before = _balance(state, 1)
    out = box.lines("press menu", "tap bank:1")[1]["output"]
    assert isinstance(out, list) and "cue error" in out and "cue kaching" not in out, out
    assert _balance(box.state(), 1) == before
    # space is freed: the unit finds out by itself, without a restart
    (small_disk / "fill").unlink()
    deadline = time.monotonic() + 15
    while box.state()["fault"] is not None:
        assert time.monotonic() < deadline, "the unit did not recover"
        time.sleep(0.3)
    out = box.lines("press menu", "tap bank:1")[1]["output"]
    assert isinstance(out, list) and "cue kaching" in out, out
    assert _balance(box.state(), 1) == before + 200
    assert proc.poll() is None
    code, err = box.stop()
    assert code == 0, err
    assert "Traceback" not in err


def _damage(wal: Path, how: str) -> None:
    size = wal.stat().st_size
    if how == "deleted":
        wal.unlink()
    elif how == "truncated":
        os.truncate(wal, size // 2)
    else:
        offset = 12 if how == "header" else size // 2  # 12: the WAL header's checkpoint number
        with open(wal, "r+b") as f:
            f.seek(offset)
            byte = f.read(1)
            f.seek(offset)
            f.write(bytes([byte[0] ^ 0x41]))


@pytest.mark.parametrize("how", ["deleted", "truncated", "header", "flipped"])
def test_acknowledged_transactions_lost_with_the_wal_are_reported(
    tmp_path: Path, boxes: list[Box], how: str
) -> None:
    data = tmp_path / "data"
    box = Box(data)
    boxes.append(box)
    box.start()
    answers = box.lines(*START, *(["press menu", "tap bank:1"] * 8))
    assert all(a["ok"] for a in answers)
    acknowledged = _balance(box.state(), 1)
    box.kill()  # at once: the WAL still holds the transactions (no idle checkpoint yet)
    wal = data / "journal.sqlite-wal"
    assert wal.stat().st_size > 0
    _damage(wal, how)
    box.start()
    state = box.state()
    assert state["journal_loss"], state
    assert "acknowledged" in str(state["journal_loss"])
    shown = str(state["screen"])
    assert shown.startswith("damage") and "Journal abîmé" in shown, shown
    assert str(state["journal_damage"]).startswith("Journal abîmé :"), state
    if state["players"]:
        assert _balance(state, 1) < acknowledged  # really lost: the report is not a false alarm
    code, err = box.stop()
    assert code == 0 and "JOURNAL LOSS" in err and "acknowledged" in err, err
    history = box.cli("history")
    assert history.returncode == 0 and "lost:" in history.stderr, history.stderr
    # shown at every start until a person acknowledges it; then kept for `history` only
    box.start()
    assert box.state()["journal_loss"] and str(box.state()["screen"]).startswith("damage")
    done = box.cli("acknowledge")
    assert done.returncode == 0, done.stderr
    assert box.state()["journal_loss"] == [] and box.state()["journal_damage"] is None
    box.stop()
    box.start()
    assert box.state()["journal_loss"] == []
    box.stop()


def test_an_idle_daemon_folds_the_wal_into_the_main_file(tmp_path: Path, boxes: list[Box]) -> None:
    data = tmp_path / "data"
    box = Box(data)
    boxes.append(box)
    box.start()
    box.lines(*START, *(["press menu", "tap bank:1"] * 4))
    wal = data / "journal.sqlite-wal"
    assert wal.stat().st_size > 0
    deadline = time.monotonic() + IDLE_AFTER + 10
    while wal.exists() and wal.stat().st_size > 0:  # idle: checkpointed, WAL emptied
        assert time.monotonic() < deadline, "no checkpoint while idle"
        time.sleep(0.2)
    box.kill()
    if wal.exists():
        wal.unlink()  # even losing the WAL now loses nothing: journal.sqlite alone is complete
    box.start()
    state = box.state()
    assert state["journal_loss"] == [] and _balance(state, 1) == 1500 + 4 * 200
    box.stop()


def test_backup_while_the_daemon_runs_is_a_complete_journal(
    tmp_path: Path, boxes: list[Box]
) -> None:
    data = tmp_path / "data"
    box = Box(data)
    boxes.append(box)
    box.start()
    box.lines(*START, *(["press menu", "tap bank:1"] * 5))
    copy = tmp_path / "backup.sqlite"
    done = box.cli("history", "backup", str(copy))
    assert done.returncode == 0, done.stderr
    assert "6 transaction(s)" in done.stdout  # the start and five GO
    assert not Path(f"{copy}-wal").exists()  # one self-contained file
    with Journal(copy) as journal:
        records = list(journal.records())
    assert len(records) == 6 and records[-1]["command"]["name"] == "pass_go"
    again = box.cli("history", "backup", str(copy))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert "--overwrite" in again.stderr
    box.lines("press menu", "tap bank:1")
    newer = box.cli("history", "backup", str(copy), "--overwrite")
    assert newer.returncode == 0 and "7 transaction(s)" in newer.stdout
    nowhere = box.cli("history", "backup", str(tmp_path / "missing" / "b.sqlite"))
    assert nowhere.returncode == 2 and "does not exist" in nowhere.stderr
    assert "Traceback" not in nowhere.stderr
    code, err = box.stop()
    assert code == 0, err
