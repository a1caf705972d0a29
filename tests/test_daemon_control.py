"""The daemon loop and the control socket, imported and driven directly (in this process).

The command-line tests reach them only through subprocesses; these pin down what the
daemon and the socket themselves promise.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.app.runtime import Runtime
from bank.services.control import ControlServer, send_lines
from bank.services.daemon import Daemon
from bank.services.journal import Journal
from bank.services.settings import load_settings
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Output,
    Screen,
    ShowScreen,
)
from drivers.sim import SimPanel
from tests.panels.conftest import wait_until
from tests.support.fakes import FakeClock


@pytest.fixture
def bank(tmp_path: Path) -> Iterator[tuple[Daemon, Journal, SimPanel, FakeClock]]:
    """A daemon loop in its thread, over the unit of a game journalled in *tmp_path*.

    Runtime assembles the game and the unit of the edition's ruleset; the tests then drive
    only its :class:`Daemon`, with a simulated panel and a hand-moved clock.
    """
    clock = FakeClock()
    rt = Runtime(load_settings(None, [f'game.data_dir="{tmp_path}"']), clock=clock)
    panel = SimPanel(clock)
    rt.add_panel(panel)
    rt.start(control=False)
    assert rt.journal is not None
    try:
        yield rt.daemon, rt.journal, panel, clock
    finally:
        rt.stop()


def tap(daemon: Daemon, clock: FakeClock, card: str) -> None:
    cid = CardId.parse(card)
    daemon.post(CardTapped(clock(), cid, f"uid-{card}", "test"))
    daemon.post(CardLifted(clock(), f"uid-{card}", "test"))


def test_inputs_posted_from_other_threads_are_handled_in_posting_order(bank: Any) -> None:
    daemon, _journal, panel, clock = bank
    other = threading.Thread(target=tap, args=(daemon, clock, "bank:3"))
    other.start()
    other.join()
    tap(daemon, clock, "bank:1")
    daemon.call(lambda: None)  # everything posted before is handled
    registered = [s for s in panel.screens if s.name == "new_game" and s.token is not None]
    # bank card 3 was posted first: it is player 1, whatever thread posted it
    assert [s.token for s in registered] == ["boat", "car"]
    assert daemon.last_screen == panel.last_screen == registered[-1]


def test_a_purchase_is_in_the_journal_before_the_unit_shows_it(bank: Any) -> None:
    daemon, journal, _panel, clock = bank
    committed_when_shown: list[int] = []

    def listener(out: Output) -> None:
        if isinstance(out, ShowScreen) and out.screen.name == "bought":
            committed_when_shown.append(journal.last_seq)

    daemon.listeners.append(listener)
    for card in ("bank:1", "bank:2"):
        tap(daemon, clock, card)
    press_ok(daemon, clock)
    before = daemon.call(lambda: journal.last_seq)
    tap(daemon, clock, "prop:22")
    tap(daemon, clock, "bank:1")
    daemon.call(lambda: None)
    assert committed_when_shown == [before + 1]


def press_ok(daemon: Daemon, clock: FakeClock) -> None:
    daemon.post(ButtonPressed(clock(), Button.OK))
    daemon.post(ButtonReleased(clock(), Button.OK))


def test_a_failing_panel_does_not_stop_the_bank(bank: Any) -> None:
    daemon, _journal, panel, clock = bank

    class Broken:
        def show(self, screen: Screen) -> None:
            raise RuntimeError("unplugged")

        def play(self, cue: Cue) -> None:
            raise RuntimeError("unplugged")

    daemon.panels.insert(0, Broken())
    tap(daemon, clock, "bank:1")
    daemon.call(lambda: None)
    assert panel.last_screen is not None and panel.last_screen.name == "new_game"


def test_call_hands_back_the_loops_exception(bank: Any) -> None:
    daemon = bank[0]

    def fail() -> None:
        raise ValueError("inside the loop")

    with pytest.raises(ValueError, match="inside the loop"):
        daemon.call(fail)
    assert daemon.call(lambda: 42) == 42  # the loop goes on


def test_the_loop_ticks_the_units_deadlines_by_itself(bank: Any) -> None:
    daemon, _journal, panel, clock = bank
    for card in ("bank:1", "bank:2"):
        tap(daemon, clock, card)
    press_ok(daemon, clock)
    tap(daemon, clock, "prop:16")  # the property check stays 10 s
    daemon.call(lambda: None)
    assert panel.last_screen is not None and panel.last_screen.name == "property"
    assert daemon.call(daemon.unit.next_deadline) == pytest.approx(clock() + 10)
    clock.advance(10.5)
    daemon.call(lambda: None)  # wake the loop: no Tick is posted, the loop sees the deadline
    wait_until(lambda: panel.last_screen.name == "idle", what="the check screen's timeout")


# ---------------------------------------------------------------------- the control socket


@pytest.fixture
def sock_path(tmp_path: Path) -> Iterator[Path]:
    # AF_UNIX paths are short: keep the socket near the root of the temporary directory
    path = tmp_path / "c.sock"
    yield path


def test_lines_get_one_json_answer_each(sock_path: Path) -> None:
    seen: list[str] = []

    def handler(line: str) -> dict[str, Any]:
        seen.append(line)
        return {"ok": True, "echo": line}

    server = ControlServer(sock_path, handler)
    server.start()
    try:
        answers = list(send_lines(sock_path, ["tap bank:1", "state"]))
    finally:
        server.close()
    assert answers == [{"ok": True, "echo": "tap bank:1"}, {"ok": True, "echo": "state"}]
    assert seen == ["tap bank:1", "state"]
    assert not sock_path.exists()  # closed: the socket file is gone


def test_the_socket_is_only_for_its_owner(sock_path: Path) -> None:
    server = ControlServer(sock_path, lambda line: {"ok": True})
    server.start()
    try:
        assert stat.S_IMODE(os.stat(sock_path).st_mode) == 0o600
    finally:
        server.close()


def test_a_failing_handler_answers_an_error_and_keeps_the_connection(sock_path: Path) -> None:
    def handler(line: str) -> dict[str, Any]:
        if line == "boom":
            raise KeyError("no such card")
        return {"ok": True}

    server = ControlServer(sock_path, handler)
    server.start()
    try:
        first, second = send_lines(sock_path, ["boom", "fine"])
    finally:
        server.close()
    assert first == {"ok": False, "error": "KeyError: 'no such card'"}
    assert second == {"ok": True}


def test_a_second_daemon_on_the_same_socket_is_refused(sock_path: Path) -> None:
    server = ControlServer(sock_path, lambda line: {"ok": True})
    server.start()
    try:
        with pytest.raises(OSError, match="another ultibank daemon"):
            ControlServer(sock_path, lambda line: {"ok": True}).start()
        assert list(send_lines(sock_path, ["x"])) == [{"ok": True}]  # the first still answers
    finally:
        server.close()


def test_a_socket_left_by_a_dead_daemon_is_replaced(sock_path: Path) -> None:
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(sock_path))
    stale.close()  # the file stays, nobody listens
    server = ControlServer(sock_path, lambda line: {"ok": True, "new": True})
    server.start()
    try:
        assert list(send_lines(sock_path, ["x"])) == [{"ok": True, "new": True}]
    finally:
        server.close()


def test_no_daemon_is_a_clear_connection_error(sock_path: Path) -> None:
    with pytest.raises(ConnectionError, match="no ultibank daemon is running"):
        list(send_lines(sock_path, ["state"]))


def test_the_wire_format_is_one_json_object_a_line(sock_path: Path) -> None:
    server = ControlServer(sock_path, lambda line: {"ok": True, "text": "Départ"})
    server.start()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
            raw.connect(str(sock_path))
            raw.sendall(b"\n  \nstate\n")  # blank lines are skipped
            reply = raw.makefile("rb").readline()
    finally:
        server.close()
    assert json.loads(reply) == {"ok": True, "text": "Départ"}
    assert "Départ".encode() in reply  # UTF-8 as is, not \\u escapes
