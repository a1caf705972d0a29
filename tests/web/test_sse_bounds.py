"""The web view's ``/events`` streams are bounded per address and in all (issue 9, item 4).

Each stream holds a file descriptor of the daemon: 1,100 of them, opened by any local user,
used to starve the control socket. Real sockets to the real server, from several loopback
addresses (all of 127.0.0.0/8 reaches a server bound to 127.0.0.1).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from bank.views.web import SSE_PER_ADDRESS, SSE_TOTAL
from tests.web.conftest import Table


def open_stream(table: Table, source: str = "127.0.0.1") -> tuple[socket.socket, int]:
    """GET /events from *source*; returns the socket (left open) and the HTTP status."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.bind((source, 0))
    s.connect(("127.0.0.1", table.web.port))
    s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    return s, int(head.split()[1])


@pytest.fixture
def streams() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for s in opened:
        s.close()


def test_streams_from_one_address_are_bounded_and_a_closed_one_frees_its_place(
    table: Table, streams: list[socket.socket]
) -> None:
    for _ in range(SSE_PER_ADDRESS):
        s, status = open_stream(table)
        streams.append(s)
        assert status == 200
    s, status = open_stream(table)
    streams.append(s)
    assert status == 429
    streams.pop(0).close()
    deadline = time.monotonic() + 5
    while True:  # the server notices the browser left within a second or two
        s, status = open_stream(table)
        streams.append(s)
        if status == 200:
            break
        assert status == 429 and time.monotonic() < deadline
        time.sleep(0.2)
    s, status = open_stream(table, "127.0.0.2")  # another address is not held back
    streams.append(s)
    assert status == 200
    assert table.get("/state")[0] == 200  # the page's other routes still answer


def test_streams_are_bounded_in_all(table: Table, streams: list[socket.socket]) -> None:
    sources = [f"127.0.0.{n}" for n in range(10, 10 + SSE_TOTAL // SSE_PER_ADDRESS + 1)]
    statuses = []
    for source in sources:
        for _ in range(SSE_PER_ADDRESS):
            s, status = open_stream(table, source)
            streams.append(s)
            statuses.append(status)
    assert statuses.count(200) == SSE_TOTAL
    assert set(statuses[SSE_TOTAL:]) == {429}
