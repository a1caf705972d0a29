"""Faults the unit reports instead of dying: a journal that cannot be written, a loop input that
raises. Real journals (SQLite's own SQLITE_FULL through ``max_page_count``), a real daemon loop."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import pytest

from bank.engine.config import UnitConfig
from bank.engine.game import Game
from bank.rulesets.ultime.config import RulesConfig
from bank.rulesets.ultime.unit import Unit
from bank.services.daemon import FAILURE_BACKOFF, Daemon
from bank.services.journal import Journal
from bank.unit.io import CardId, CardTapped, Cue, Screen, ShowScreen, Tick
from bank.unit.shell import FAULT_RETRY
from board_assets import load_edition
from tests.unit.harness import Harness, cues_of, screens_of


def _journalled(tmp_path: Path) -> tuple[Harness, Journal]:
    journal = Journal(tmp_path / "journal.sqlite")
    h = Harness(Game(load_edition("ultime-fr"), RulesConfig(), journal=journal))
    h.start(1, 2)
    return h, journal


def _fill(journal: Journal) -> None:
    """The journal's file may not grow any more: the next commits meet SQLITE_FULL."""
    conn = journal._db()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages}")


def _go_until_fault(h: Harness) -> tuple[int, list[Screen], list[Cue]]:
    for _ in range(500):
        before = h.balance(1)
        h.press("menu")
        out = h.tap("bank:1")
        if h.unit.fault is not None:
            return before, screens_of(out), cues_of(out)
    raise AssertionError("the journal never filled up")


def test_a_full_journal_is_shown_refuses_transactions_then_recovers_by_itself(
    tmp_path: Path,
) -> None:
    h, journal = _journalled(tmp_path)
    _fill(journal)
    before, shown, cues = _go_until_fault(h)
    # the failed transaction is not confirmed: no money moved, the fault and the error cue
    assert h.balance(1) == before
    assert shown[-1].name == "fault" and shown[-1].lines == ("Banque en panne", "Disque plein")
    assert cues[-1] is Cue.ERROR and Cue.KACHING not in cues
    assert h.unit.fault is not None and "full" in h.unit.fault
    committed = journal.last_seq
    # while the file cannot grow, a transaction tried again meets the fault again
    h.press("menu")
    out = h.tap("bank:1")
    assert screens_of(out)[-1].name == "fault" and Cue.ERROR in cues_of(out)
    assert h.balance(1) == before and journal.last_seq == committed
    # space comes back: the unit finds out by itself within FAULT_RETRY, no input needed
    journal._db().execute("PRAGMA max_page_count=1000000")
    h.wait(FAULT_RETRY + 0.1)
    assert h.unit.fault is None and h.screen.name == "idle"
    h.press("menu")
    h.tap("bank:1")
    assert h.balance(1) == before + 200 and journal.last_seq == committed + 1


def test_a_tap_retries_the_journal_at_once(tmp_path: Path) -> None:
    h, journal = _journalled(tmp_path)
    _fill(journal)
    before, _, _ = _go_until_fault(h)
    journal._db().execute("PRAGMA max_page_count=1000000")
    h.press("menu")  # long before the periodic retry: this press tries the journal itself
    h.tap("bank:1")
    assert h.unit.fault is None and h.balance(1) == before + 200


def _loop(unit: object) -> tuple[Daemon, threading.Thread]:
    daemon = Daemon(unit)  # type: ignore[arg-type]
    return daemon, daemon.start_thread()


def test_the_loop_survives_an_infinite_idle_time(tmp_path: Path) -> None:
    game = Game(load_edition("ultime-fr"), RulesConfig())
    unit = Unit(game, UnitConfig(idle_seconds=math.inf))
    daemon, thread = _loop(unit)
    seen: list[object] = []
    daemon.listeners.append(seen.append)
    daemon.call(lambda: daemon.dispatch(unit.power_on(time.monotonic())))
    h = Harness(game)  # registration through the same game, then taps through the loop
    h.start(1, 2)
    daemon.call(lambda: daemon.dispatch(unit.power_on(time.monotonic(), game)))
    daemon.post(CardTapped(time.monotonic(), CardId("prop", 1), "UID"))
    assert daemon.call(lambda: "alive", timeout=5) == "alive"
    assert thread.is_alive() and daemon.failure is None
    assert any(isinstance(o, ShowScreen) and o.screen.name == "property" for o in seen)
    daemon.stop()
    thread.join(5)


class _TickFails:
    """A unit whose deadline is always due and whose tick always raises."""

    def __init__(self) -> None:
        self.ticks = 0

    def handle(self, inp: object) -> list[object]:
        if isinstance(inp, Tick):
            self.ticks += 1
            raise OverflowError("a tick that cannot be run")
        return []

    def next_deadline(self) -> float:
        return 0.0


def test_a_failing_tick_neither_ends_nor_spins_the_loop() -> None:
    unit = _TickFails()
    daemon, thread = _loop(unit)
    time.sleep(4 * FAILURE_BACKOFF)
    assert daemon.call(lambda: "alive", timeout=5) == "alive"
    assert thread.is_alive() and daemon.failure is None
    assert 1 <= unit.ticks <= 6, unit.ticks  # backed off, not thousands of tries a second
    daemon.stop()
    thread.join(5)


class _Deadline:
    """A unit whose next deadline is *value*, counting how often the loop asks."""

    def __init__(self, value: float) -> None:
        self.value = value
        self.asked = 0

    def handle(self, inp: object) -> list[object]:
        return []

    def next_deadline(self) -> float:
        self.asked += 1
        return self.value


@pytest.mark.parametrize("value", [math.inf, math.nan])
def test_a_deadline_that_never_comes_neither_ends_nor_spins_the_loop(value: float) -> None:
    unit = _Deadline(value)
    daemon, thread = _loop(unit)
    time.sleep(0.5)
    assert daemon.call(lambda: "alive", timeout=5) == "alive"
    assert thread.is_alive() and daemon.failure is None
    assert unit.asked < 20, unit.asked  # it sleeps until an input, not thousands of turns
    daemon.stop()
    thread.join(5)


def test_a_tick_that_does_not_move_its_deadline_does_not_spin_the_loop() -> None:
    unit = _Deadline(0.0)  # always due, and a tick changes nothing
    daemon, thread = _loop(unit)
    time.sleep(4 * FAILURE_BACKOFF)
    assert daemon.call(lambda: "alive", timeout=5) == "alive"
    assert unit.asked < 40, unit.asked
    daemon.stop()
    thread.join(5)


def test_a_unit_switched_off_while_faulted_waits_quietly(tmp_path: Path) -> None:
    h, journal = _journalled(tmp_path)
    _fill(journal)
    _go_until_fault(h)
    h.unit.power_off(h.now)
    assert h.unit.next_deadline() is None  # no retry tick for a unit that is off


def test_a_loop_that_fails_every_turn_makes_run_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bank.cli import main

    def broken(self: Unit) -> float | None:
        raise RuntimeError("a bug on every turn")

    monkeypatch.setattr(Unit, "next_deadline", broken)
    code = main(["run", "--reader", "sim", "--panel", "sim", "--data-dir", str(tmp_path)])
    assert code == 1
    assert "the daemon loop stopped" in capsys.readouterr().err


def test_a_stopped_loop_answers_calls_at_once() -> None:
    """A web view's read queued as the daemon stops must not hold the process's exit for
    its whole timeout (a SIGTERM right after start took more than 10 s to end the daemon)."""
    game = Game(load_edition("ultime-fr"), RulesConfig())
    daemon, thread = _loop(Unit(game, UnitConfig()))
    release = threading.Event()
    blocked = threading.Thread(target=lambda: daemon.call(release.wait, timeout=5))
    blocked.start()  # the loop is busy in this call while the rest queue up
    answers: list[BaseException] = []

    def late() -> None:
        try:
            daemon.call(lambda: "late", timeout=30)
        except TimeoutError as err:
            answers.append(err)

    time.sleep(0.1)
    daemon.stop()  # queued behind the busy call; the late read is queued behind the stop
    waiting = threading.Thread(target=late)
    waiting.start()
    time.sleep(0.1)
    started = time.monotonic()
    release.set()
    waiting.join(5)
    thread.join(5)
    assert answers and "stopped" in str(answers[0])
    assert time.monotonic() - started < 2
    with pytest.raises(TimeoutError, match="stopped"):
        daemon.call(lambda: "after", timeout=30)


def test_a_stop_that_hangs_ends_the_process_and_says_where(tmp_path: Path) -> None:
    """Asked to stop, the process ends within the watchdog's grace even when a thread never
    ends (the interpreter would wait for it forever at exit); stderr holds every thread's
    stack, so the log says what hung."""
    import subprocess
    import sys

    program = (
        "import threading\n"
        "from bank.app.runtime import stop_watchdog\n"
        "def stuck_for_good():\n"
        "    threading.Event().wait()\n"
        "threading.Thread(target=stuck_for_good, name='stuck').start()\n"
        "stop_watchdog(0.5)\n"
    )
    root = Path(__file__).resolve().parents[2]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=root, capture_output=True, text=True, timeout=30,
        check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert time.monotonic() - started < 20
    assert "ultibank: stopping took more than 0.5 s; ending now. The threads:" in done.stderr
    assert "stuck_for_good" in done.stderr
