"""The web view's server without a browser: snapshots, SSE, read-only routes, binding, chart."""

from __future__ import annotations

import http.client as httpclient
import ipaddress
import json
import re
import socket
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bank.unit.io import Button, ButtonPressed, ButtonReleased
from bank.views.charts import EndChartWriter, chart_path_for
from bank.views.web import (
    STATIC_DIR,
    STATIC_FILES,
    WebServer,
    WebViewError,
    attach_web,
    is_loopback,
)
from tests.web.conftest import Table, http, need_matplotlib, start_table, stop_table

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class SSEClient:
    """Reads the ``/events`` stream one message at a time."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        parts = urlsplit(url)
        self.conn = httpclient.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        self.conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")

    def next(self) -> dict[str, Any]:
        """The next snapshot pushed by the server (raises on the socket timeout)."""
        data = []
        while True:
            line = self.response.fp.readline()
            if not line:
                raise ConnectionError("the stream ended")
            line = line.rstrip(b"\r\n")
            if line.startswith(b"data:"):
                data.append(line[5:].strip())
            elif not line and data:
                result: dict[str, Any] = json.loads(b"\n".join(data))
                return result

    def until(self, pred: Any, timeout: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            snap = self.next()
            if pred(snap):
                return snap
        raise AssertionError("no snapshot matched in time")

    def close(self) -> None:
        self.conn.close()


def balances(snap: dict[str, Any]) -> dict[int, int]:
    return {p["card"]: p["balance"] for p in snap["players"]}


# ---------------------------------------------------------------------- what it shows


def test_state_shows_players_properties_and_transactions(table: Table) -> None:
    table.start_game(1, 2, 3)
    table.tap("prop:22", "bank:1")
    snap = table.state()
    assert balances(snap) == {1: 1100, 2: 1500, 3: 1500}
    car = snap["players"][0]
    assert car["token"] == "car" and car["owned"] == [22]
    assert car["worth"] == 400 and car["wealth"] == 1500
    assert snap["properties"][21] == {"number": 22, "owner": 1, "level": 1}
    assert [t["command"] for t in snap["transactions"]] == ["land", "new_game"]
    land = snap["transactions"][0]
    assert land["title"] == "voiture arrive sur #22 Rue de la Paix"  # the unit speaks French
    assert land["detail"] == "voiture → banque 400 (achat); #22 → voiture"
    assert land["summary"].startswith("land card=1 number=22")  # bank.views.history.describe
    assert snap["undo_available"] is True
    assert [t["undoable"] for t in snap["transactions"]] == [True, False]
    assert snap["screen"]["name"] == "bought"


def test_english_when_the_unit_speaks_english(tmp_path: Path) -> None:
    table = start_table(tmp_path, overrides=['unit.language="en"'])
    try:
        table.start_game(1, 2)
        table.tap("prop:22", "bank:2")
        snap = table.state()
        assert snap["lang"] == "en" and snap["players"][1]["label"] == "helicopter"
        land = snap["transactions"][0]
        assert land["title"] == "helicopter lands on #22 Rue de la Paix"
        assert land["detail"] == "helicopter → bank 400 (purchase); #22 → helicopter"
    finally:
        stop_table(table)


def test_jail_and_debt_status(table: Table) -> None:
    table.start_game(1, 2)
    table.press(Button.MENU, Button.MENU)  # the jail icon
    table.tap("bank:2")
    snap = table.state()
    assert [p["jailed"] for p in snap["players"]] == [False, True]
    assert snap["undo_available"] is True


def test_undo_group_marks_the_payment_and_the_properties_given_up(table: Table) -> None:
    table.start_game(1, 2)
    table.tap("prop:22", "bank:1", "prop:21", "bank:1")  # dark blue complete: level 3
    table.tap("prop:12", "bank:2", "prop:13", "bank:2")  # helicopter: 1060 left
    table.tap("prop:22", "bank:2")  # rent 560: 500 left
    table.tap("prop:22", "bank:2")  # rent 810: 500 paid, 310 owed
    snap = table.state()
    heli = snap["players"][1]
    assert heli["debt"] == 310 and heli["creditor"] == 1
    assert snap["undo_available"] is False  # never while a debt is being settled
    assert not any(t["undoable"] for t in snap["transactions"])
    table.tap("prop:12", "prop:13")  # gives up both reds
    snap = table.state()
    assert snap["players"][1]["debt"] == 0
    marked = [(t["command"], t["undoable"]) for t in snap["transactions"][:4]]
    assert marked == [
        ("give_property", True),
        ("give_property", True),
        ("land", True),
        ("land", False),
    ]
    table.hold(Button.OK, Button.CANCEL)  # undo cancels the whole group
    snap = table.state()
    assert snap["transactions"][0]["command"] == "undo"
    assert not any(t["undoable"] for t in snap["transactions"])
    assert balances(snap) == {1: 1310, 2: 500}


def test_power_cycle_and_reset(table: Table) -> None:
    table.start_game(1, 2)
    table.tap("prop:3", "bank:1")
    assert len(table.state()["transactions"]) == 2  # a page is watching
    table.rt.handle_line("power off")
    snap = table.state()
    assert snap["on"] is False and snap["undo_available"] is False
    assert balances(snap) == {1: 1400, 2: 1500}
    assert [t["command"] for t in snap["transactions"]] == ["land", "new_game"]
    table.rt.handle_line("power on")
    snap = table.state()
    assert snap["on"] is True and snap["undo_available"] is True
    game = snap["game_id"]
    table.hold(Button.CANCEL)  # reset: the game is archived, a new one starts
    snap = table.state()
    assert snap["started"] is False and snap["players"] == []
    assert snap["transactions"] == [] and snap["game_id"] != game


def test_auction_in_progress_with_its_countdown(table: Table) -> None:
    table.start_game(1, 2)
    table.tap("prop:15")
    table.press(Button.MENU)
    assert table.state()["auction"]["phase"] == "offer"
    table.press(Button.OK)
    table.clock.advance(3.0)
    snap = table.state()
    auction = snap["auction"]
    assert auction["phase"] == "running" and auction["number"] == 15
    assert auction["price"] == 0 and auction["seconds"] == 10.0
    assert auction["remaining"] == pytest.approx(7.0)
    table.tap("bank:2")
    auction = table.state()["auction"]
    assert (auction["price"], auction["bidder"], auction["remaining"]) == (20, 2, 10.0)


def test_sse_pushes_a_snapshot_after_each_tap(table: Table) -> None:
    table.start_game(1, 2)
    client = SSEClient(table.web.url)
    try:
        first = client.next()
        assert balances(first) == {1: 1500, 2: 1500}
        started = time.monotonic()
        table.tap("prop:1", "bank:2")
        snap = client.until(lambda s: balances(s)[2] == 1440)
        assert time.monotonic() - started < 2.0  # speed is measured in bench/bench_web.py
        assert snap["properties"][0]["owner"] == 2
        assert snap["version"] > first["version"]
    finally:
        client.close()


def test_a_burst_of_outputs_is_coalesced(table: Table) -> None:
    table.start_game(1, 2)
    client = SSEClient(table.web.url)
    outputs: list[object] = []
    try:
        client.next()
        table.rt.daemon.listeners.append(outputs.append)
        before = table.rt.daemon.call(lambda: table.web._reader.version)
        for _ in range(41):  # M cycles GO, jail, Location, idle: 41 presses end on GO
            table.rt.daemon.post(ButtonPressed(table.clock(), Button.MENU))
            table.rt.daemon.post(ButtonReleased(table.clock(), Button.MENU))
        table.sync()
        deadline = time.monotonic() + 5
        while not table.web.settled():
            assert time.monotonic() < deadline
        after = table.rt.daemon.call(lambda: table.web._reader.version)
        last = client.until(lambda s: s["version"] == after)
        assert last["step"] == "Menu" and "go" in last["screen"]["icons"]
        assert len(outputs) >= 41
        assert 1 <= after - before < len(outputs) / 2  # far fewer reads than outputs
    finally:
        client.close()


def test_board_json_has_the_ring_and_the_colours(table: Table) -> None:
    status, body, _ = table.get("/board.json")
    board = json.loads(body)
    assert status == 200 and len(board["ring"]) == 36 and len(board["properties"]) == 22
    p22 = board["properties"][21]
    assert (p22["name"], p22["position"], p22["colour"]) == ("Rue de la Paix", 35, "#1d3c8f")


# ---------------------------------------------------------------------- read-only


def _game_fingerprint(table: Table) -> tuple[Any, ...]:
    def read() -> tuple[Any, ...]:
        journal = table.rt.journal
        assert journal is not None
        return (
            table.rt.game.state,
            table.rt.game.undo_available,
            journal.last_seq,
            type(table.rt.unit.step).__name__,
            table.rt.unit.step,
        )

    result: tuple[Any, ...] = table.rt.daemon.call(read)
    return result


def _concrete_paths(table: Table) -> list[str]:
    paths = []
    for resource in table.web.app.router.resources():
        info = resource.get_info()
        if "path" in info:
            paths.append(info["path"])
        else:
            formatter = info["formatter"]
            assert formatter == "/static/{name}", f"unexpected dynamic route {formatter}"
            paths += [f"/static/{name}" for name in STATIC_FILES]
    return paths


def test_every_route_answers_get_and_none_changes_the_game(table: Table) -> None:
    table.start_game(1, 2)
    table.tap("prop:15")
    table.press(Button.MENU, Button.OK)  # an auction running: a step in progress
    table.tap("bank:1")
    methods = {route.method for route in table.web.app.router.routes()}
    assert methods <= {"GET", "HEAD"}
    before = _game_fingerprint(table)
    paths = _concrete_paths(table)
    assert {"/", "/state", "/events", "/chart.png", "/board.json"} <= set(paths)
    for path in paths:
        if path == "/events":
            client = SSEClient(table.web.url)
            client.next()
            client.close()
        else:
            status, _, _ = table.get(path)
            assert status == 200, path
        assert http(table.web.url + path.lstrip("/"), "HEAD", timeout=5)[0] == 200, path
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
            status, body, headers = http(table.web.url + path.lstrip("/"), method)
            assert status == 405, (method, path)
            assert headers["Allow"] == "GET,HEAD"
            assert b"read-only" in body
        assert _game_fingerprint(table) == before, path
    # and a path that does not exist is no way in either
    assert http(table.web.url + "undo", "POST")[0] == 405
    assert table.get("/static/../../bank/engine/game.py")[0] == 404


def test_page_assets_are_local_and_locked_down(table: Table) -> None:
    status, html, headers = table.get("/")
    assert status == 200 and b"<svg" in html
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    for name in ("index.html", *STATIC_FILES):
        text = (STATIC_DIR / name).read_text(encoding="utf-8")
        urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"')]*", text))
        assert urls <= {"http://www.w3.org/2000/svg"}, (name, urls)
        assert "<script>" not in text and "style=" not in text  # nothing inline: CSP holds


# ---------------------------------------------------------------------- binding


def _other_addresses() -> list[str]:
    """This machine's addresses that are not loopback (IPv4 and IPv6, no link-local)."""
    found: set[str] = set()
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5)
        found.update(out.stdout.split())
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]))
    except OSError:
        pass
    keep = []
    for text in sorted(found):
        try:
            address = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.is_unspecified):
            keep.append(str(address))
    return keep


def _connects(address: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(2.0)
        try:
            sock.connect((address, port))
        except OSError:
            return False
    return True


def test_loopback_by_default_and_unreachable_from_another_address(table: Table) -> None:
    assert table.web.host == "127.0.0.1" and not table.web.exposed
    assert _connects("127.0.0.1", table.web.port)
    others = _other_addresses()
    if not others:
        pytest.skip("this machine has no address other than loopback")
    for address in others:
        assert not _connects(address, table.web.port), address


def test_exposed_on_the_network_says_so_and_stays_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = start_table(tmp_path, host="0.0.0.0")
    try:
        line = capsys.readouterr().err
        assert "EXPOSED" in line and "read-only" in line and str(table.web.port) in line
        assert table.web.exposed
        others = [a for a in _other_addresses() if ":" not in a]
        if others:
            url = f"http://{others[0]}:{table.web.port}/"
            assert http(url + "state")[0] == 200
            assert http(url + "state", "POST")[0] == 405
        # exposed on purpose: any name of the machine is fine
        local = table.web.url + "state"
        assert http(local, headers={"Host": f"bank.home:{table.web.port}"})[0] == 200
    finally:
        stop_table(table)


def test_loopback_view_refuses_other_host_names(table: Table) -> None:
    """A page of another site rebound to 127.0.0.1 by DNS must not read the game."""
    url = table.web.url + "state"
    port = table.web.port
    assert http(url, headers={"Host": f"ultibank.evil.example:{port}"})[0] == 421
    assert http(url, headers={"Host": f"192.0.2.99:{port}"})[0] == 421
    for name in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost"):
        assert http(url, headers={"Host": name})[0] == 200, name


def test_is_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert is_loopback("127.0.0.2")
    assert not is_loopback("0.0.0.0") and not is_loopback("::") and not is_loopback("")
    assert not is_loopback("192.0.2.7")


def test_a_bank_not_started_is_a_clear_error(tmp_path: Path) -> None:
    from bank.runtime import Runtime
    from bank.services.settings import load_settings

    rt = Runtime(load_settings(None, [f'game.data_dir="{tmp_path}"']))
    try:
        with pytest.raises(WebViewError, match=r"runtime\.start\(\)"):
            WebServer(rt, port=0).start(timeout=0.2)
    finally:
        rt.stop()


def test_port_in_use_is_a_clear_error(table: Table) -> None:
    with pytest.raises(WebViewError, match="--web-port"):
        attach_web(table.rt, port=table.web.port)


def test_close_stops_serving(tmp_path: Path) -> None:
    table = start_table(tmp_path)
    port = table.web.port
    client = SSEClient(table.web.url)
    client.next()
    started = time.monotonic()
    table.web.close()
    assert time.monotonic() - started < 5.0
    assert not _connects("127.0.0.1", port)
    with pytest.raises((ConnectionError, OSError)):
        client.next()
    table.web.close()  # twice is fine
    table.service.stop()
    table.rt.stop()


# ---------------------------------------------------------------------- game over


def test_game_over_serves_the_chart_and_writes_it_beside_the_journal(table: Table) -> None:
    need_matplotlib()
    writer = EndChartWriter(table.rt).attach()
    assert table.get("/chart.png")[0] == 404  # no game yet
    table.play_to_bankruptcy()
    snap = table.state()
    assert snap["game_over"] is True and snap["winner"] == 1
    assert [p["winner"] for p in snap["players"]] == [True, False]
    assert snap["players"][1]["bankrupt"] is True
    assert snap["chart"] is not None and snap["chart"].startswith("/chart.png?")
    status, png, headers = table.get(snap["chart"], timeout=60)
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert png.startswith(PNG_MAGIC)
    writer.wait()
    journal = table.rt.journal
    assert journal is not None
    path = chart_path_for(table.rt.settings.data_dir, journal.current_game)
    assert writer.written == [path]
    assert path.parent == (table.rt.settings.data_dir / "journal.sqlite").parent
    assert path.read_bytes().startswith(PNG_MAGIC)
