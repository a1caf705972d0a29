"""Fixtures of the web view tests: a started bank on a virtual clock with a simulated reader."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bank.runtime import Runtime
from bank.services.settings import load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId, Tick
from bank.views.web import WebServer, attach_web
from drivers.sim import SimReader, VirtualClock, start_sim_reader
from drivers.supervisor import ReaderService


@dataclass
class Table:
    """A running bank, its simulated reader, and the web view in front of it."""

    rt: Runtime
    clock: VirtualClock
    reader: SimReader
    service: ReaderService
    web: WebServer

    def sync(self) -> None:
        """Wait until the daemon has handled everything posted so far."""
        self.rt.daemon.call(lambda: None)

    def tap(self, *cards: str) -> None:
        for card in cards:
            self.reader.tap(CardId.parse(card))
        self.sync()

    def press(self, *buttons: Button) -> None:
        for b in buttons:
            self.rt.daemon.post(ButtonPressed(self.clock(), b))
            self.rt.daemon.post(ButtonReleased(self.clock(), b))
        self.sync()

    def hold(self, *buttons: Button, seconds: float = 5.0) -> None:
        """Hold *buttons* for *seconds* of the virtual clock (undo: OK + CANCEL)."""
        for b in buttons:
            self.rt.daemon.post(ButtonPressed(self.clock(), b))
        self.clock.advance(seconds)
        self.rt.daemon.post(Tick(self.clock()))
        for b in reversed(buttons):
            self.rt.daemon.post(ButtonReleased(self.clock(), b))
        self.sync()

    def start_game(self, *cards: int) -> None:
        self.tap(*(f"bank:{c}" for c in cards))
        self.press(Button.OK)

    def get(self, path: str, timeout: float = 10.0) -> tuple[int, bytes, dict[str, str]]:
        return http(self.web.url + path.lstrip("/"), timeout=timeout)

    def state(self) -> dict[str, Any]:
        status, body, _ = self.get("/state")
        assert status == 200
        data: dict[str, Any] = json.loads(body)
        return data

    def play_to_bankruptcy(self) -> None:
        """car owns the dark blues (level 3); helicopter lands on Rue de la Paix until broke."""
        self.start_game(1, 2)
        self.tap("prop:22", "bank:1", "prop:21", "bank:1")
        for _ in range(3):
            self.tap("prop:22", "bank:2")


def need_matplotlib() -> None:
    """Skip without matplotlib, except under CI where the ``web`` extra must be installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI is set but matplotlib is missing: pip install 'ultibank[web]'")
        pytest.skip("matplotlib is not installed (pip install 'ultibank[web]')")


def http(
    url: str, method: str = "GET", timeout: float = 10.0, headers: dict[str, str] | None = None
) -> tuple[int, bytes, dict[str, str]]:
    """One request; returns status, body and headers (error statuses included)."""
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as err:
        return err.code, err.read(), dict(err.headers)


def start_table(root: Path, host: str = "127.0.0.1", overrides: list[str] | None = None) -> Table:
    clock = VirtualClock(1000.0)
    settings = load_settings(None, [f'game.data_dir="{root}"', *(overrides or [])])
    rt = Runtime(settings, clock=clock)
    rt.start(control=False)
    reader, service = start_sim_reader(rt.daemon.post, clock, deck=rt.deck)
    try:
        web = attach_web(rt, host=host, port=0)
    except BaseException:
        service.stop()
        rt.stop()
        raise
    return Table(rt, clock, reader, service, web)


def stop_table(table: Table) -> None:
    table.web.close()
    table.service.stop()
    table.rt.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = start_table(tmp_path)
    try:
        yield t
    finally:
        stop_table(t)


# ---------------------------------------------------------------------- a classic table

#: an 8-player classic-fr game: a hotel, houses, a mortgage, the pot, jail, a jail card, a trade
CLASSIC_SCRIPT = Path(__file__).resolve().parent / "classic_table.tap"
CLASSIC_ARGS = ["--edition", "classic-fr", "--set", "variants.free_parking=taxes"]


#: a 4-player Méga game: skyscraper, hotels, a depot, three utilities, the speed die
MEGA_SCRIPT = Path(__file__).resolve().parent / "mega_table.tap"
#: an 8-player Star Wars II game: the sides, the Force die, a Force battle won and one lost
STARWARS_SCRIPT = Path(__file__).resolve().parent / "starwars_table.tap"


def play_script(data_dir: Path, script: Path, args: list[str]) -> None:
    """Play *script* through ``ultibank script`` into *data_dir*'s journal (and state file)."""
    from bank.cli import main

    data_dir.mkdir(parents=True, exist_ok=True)
    argv = ["script", str(script), *args, "--data-dir", str(data_dir)]
    assert main([*argv, "--state", str(data_dir / "state.json")]) == 0


def play_classic_script(data_dir: Path) -> None:
    """Play ``classic_table.tap`` through ``ultibank script`` into *data_dir*'s journal."""
    play_script(data_dir, CLASSIC_SCRIPT, CLASSIC_ARGS)


def start_classic_table(root: Path, overrides: list[str] | None = None) -> Table:
    """The classic game of ``classic_table.tap``, resumed by a real daemon with the web view."""
    play_classic_script(root)
    return start_table(root, overrides=['game.edition="classic-fr"', *(overrides or [])])


def start_script_table(
    root: Path, script: Path, edition: str, overrides: list[str] | None = None
) -> Table:
    """The game of *script* on *edition*, resumed by a real daemon with the web view."""
    play_script(root, script, ["--edition", edition])
    return start_table(root, overrides=[f'game.edition="{edition}"', *(overrides or [])])


def key(table: Table, digits: str) -> None:
    """Press and release keypad keys on the running unit."""
    from bank.unit.io import KeyPressed, KeyReleased

    for k in digits:
        table.rt.daemon.post(KeyPressed(table.clock(), k))
        table.rt.daemon.post(KeyReleased(table.clock(), k))
    table.sync()


@pytest.fixture
def classic_table(tmp_path: Path) -> Iterator[Table]:
    t = start_classic_table(tmp_path)
    try:
        yield t
    finally:
        stop_table(t)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Quit the Chromium the browser tests shared (tests/web/browser.py)."""
    from tests.web.browser import close_browser

    close_browser()
