"""The read-only table view: a small aiohttp server that shows the game in a browser.

:func:`attach_web` starts it beside a running :class:`bank.app.runtime.Runtime`, in a thread of
its own with its own asyncio loop. It never touches the game from that thread: every read
goes through ``runtime.daemon.call`` (the daemon's loop is the game's only user), and it learns
that something changed by listening to the daemon's outputs. Each screen or cue marks the
view stale; one snapshot is then read for the whole burst and pushed to every browser over
server-sent events (``/events``), so a page updates within milliseconds of a transaction.

Routes, all ``GET`` (``HEAD`` too): ``/`` the page, ``/state`` the snapshot as JSON,
``/board.json`` the edition's board, ``/events`` the SSE stream, ``/chart.png`` the wealth
chart, ``/static/<file>`` the page's CSS and JavaScript, served from memory. Any other method
is answered 405: the view cannot change the game. It binds 127.0.0.1 unless told otherwise;
bound to another address it prints a line saying it is exposed and read-only.

Imports aiohttp (the ``web`` extra), the bank (game, journal records, the unit shell,
``bank.views.history.describe``, ``bank.views.charts``) and the standard library;
matplotlib only through ``bank.views.charts`` when a chart is asked for.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import itertools
import json
import logging
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bank import rulesets
from bank.engine.errors import BankError
from bank.engine.records import Record, RecordList, last_undo_group
from bank.engine.state import GameState
from bank.services.ratelimit import RateLimitedLog
from bank.unit.shell import UnitShell
from bank.unit.text import damage_summary
from bank.views.charts import (
    PLAYER_COLOURS,
    ChartUnavailable,
    render_wealth_png,
    token_label,
    values_worth,
    wealth_series,
)
from bank.views.history import describe
from bank.views.narrate import Narrator, narrator_for, states_before
from board_assets import Edition

try:
    from aiohttp import web
except ImportError as _err:  # pragma: no cover - exercised only without the extra
    raise ImportError(f"the web view needs aiohttp ({_err}): pip install 'ultibank[web]'") from _err

__all__ = [
    "STATIC_DIR",
    "WebServer",
    "WebViewError",
    "attach_web",
    "board_json",
    "is_loopback",
    "token_label",
]

log = logging.getLogger("ultibank.web")

STATIC_DIR: Final = Path(__file__).resolve().parent / "webview_static"
#: the files the page needs, served from memory (name -> content type)
STATIC_FILES: Final = {
    "app.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
#: transactions listed on the page, newest first
RECENT: Final = 12
#: how many of the current game's last records the view holds (older ones are read back
#: from the journal when asked for: the chart)
WINDOW: Final = 64
#: how long a read may wait for the daemon's loop before the view gives up (seconds)
READ_TIMEOUT: Final = 5.0
#: a comment line keeps idle SSE connections (and proxies) from timing out
KEEPALIVE_S: Final = 15.0
READ_ONLY_METHODS: Final = frozenset({"GET", "HEAD"})
#: open ``/events`` streams allowed from one address, and in all: each holds a descriptor,
#: and the control socket and the readers need some too (a flood must not starve them)
SSE_PER_ADDRESS: Final = 8
SSE_TOTAL: Final = 64
#: how often a waiting stream checks that its browser is still there (seconds)
SSE_CHECK_S: Final = 1.0
#: connections waiting to be accepted, and taken per wake-up (asyncio retries each one that
#: fails for want of descriptors: a large backlog multiplies the retries and their log)
BACKLOG: Final = 16

_SECURITY_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}


class WebViewError(BankError, OSError):
    """The web view cannot start (address in use, unknown host, missing files)."""


def is_loopback(host: str) -> bool:
    """True when every address *host* names is a loopback address (127.0.0.0/8, ::1)."""
    if host in ("", "0.0.0.0", "::"):
        return False
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return False
    addresses = {str(info[4][0]) for info in infos}
    return bool(addresses) and all(ipaddress.ip_address(a).is_loopback for a in addresses)


def board_json(edition: Edition) -> dict[str, Any]:
    """The edition's board for the page: ring, groups with colours, properties, tokens.

    A ruleset adds its own part of the board (its ``board`` hook), as data the page's script
    draws without knowing the ruleset: a ``layout`` (``buildings``: houses, hotels, mortgages,
    the bank's stock and the pot; none: a level's pips), the extra ``buildings`` it draws and
    where, the names of ring spaces (``space_names``), the taxes, the token labels. The page
    draws its ring from ``ring``, whatever its length: 36 Ultime spaces, 40 classic ones, 52
    Méga ones.
    """
    colours = {g.id: g.colour for g in edition.groups}
    own = rulesets.for_edition(edition).board
    extra: dict[str, Any] = own(edition) if own is not None else {}
    return {
        "ruleset": edition.ruleset,
        **extra,
        "edition": edition.id,
        "name": edition.name,
        "language": edition.language,
        "currency": edition.currency,
        "tokens": list(edition.token_names),
        "player_colours": {str(k): v for k, v in PLAYER_COLOURS.items()},
        "ring": list(edition.constants.ring),
        "groups": [{"id": g.id, "name": g.name, "colour": g.colour} for g in edition.groups],
        "properties": [
            {
                "number": p.number,
                "name": p.name,
                "group": p.group,
                "colour": colours[p.group],
                "price": p.price,
                "rents": list(p.rents),
                "position": p.position,
                "side": p.side,
            }
            for p in edition.properties
        ],
    }


# ---------------------------------------------------------------------- the snapshot


@dataclass(slots=True)
class _JournalCache:
    """The current game's last :data:`WINDOW` records, re-read only when the journal moved on:
    the view holds as much for a game of 50,000 transactions as for one of 50."""

    key: tuple[int | None, int] | None = None
    records: RecordList = field(default_factory=RecordList)
    #: how many records the game has (the window holds the last of them)
    count: int = 0


def _last_entries(journal: Any, count: int, want: int) -> list[Any]:
    """The current game's last *want* journal entries (of its *count*), read from the end:
    a window, whatever the length of the game (sequence numbers may have gaps after a loss)."""
    last = int(journal.last_seq)
    span = want
    while True:
        tail = list(journal.entries(after=max(0, last - span)))
        if len(tail) >= min(want, count) or last - span <= 0:
            return tail[-want:] if want else []
        span *= 4


class _SnapshotBuilder:
    """Builds snapshots; every method runs in the daemon's loop thread (via ``call``)."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.edition: Edition = runtime.edition
        self.version = 0
        self._cache = _JournalCache()
        #: the ruleset's state file (classic: houses, mortgages, jail cards, the pot, worth);
        #: None for the Ultime rules, whose page reads the core state only
        self._state_file = rulesets.for_edition(self.edition).state_file
        self._table_view = rulesets.for_edition(self.edition).table_view
        self._narrators: dict[str, Narrator] = {}
        #: (game, record number, language) -> the record's words (they never change)
        self._said: dict[tuple[int | None, int, str], tuple[str, str]] = {}

    def _records(self) -> _JournalCache:
        journal = self.runtime.journal
        if journal is None:  # powered off: the journal is closed, the last reading stands
            return self._cache
        key = (journal.current_game, journal.last_seq)
        old = self._cache
        if key == old.key:
            return old
        if old.key is not None and old.key[0] == key[0]:
            # the same game moved on: read only what was added since, keep the window
            added = list(journal.entries(after=old.key[1]))
            window = old.records.extended(added, keep=WINDOW)
            self._cache = _JournalCache(key, window, old.count + len(added))
        else:
            game_id = key[0]
            count = journal.game(game_id).records if game_id is not None else 0
            tail = _last_entries(journal, count, WINDOW) if count else []
            self._cache = _JournalCache(key, RecordList(tail, count - len(tail) + 1), count)
        return self._cache

    def records(self) -> tuple[int | None, int, list[Record]]:
        """The current game's id, last sequence number and every record (for the chart):
        rebuilt from the journal on demand, never held by the view."""
        cache = self._records()
        game_id, last = cache.key if cache.key is not None else (None, 0)
        journal = self.runtime.journal
        if journal is None or game_id is None:
            return game_id, last, list(cache.records)
        return game_id, last, list(RecordList(journal.entries(game_id)))

    def _narrator(self, lang: str) -> Narrator:
        narrator = self._narrators.get(lang)
        if narrator is None:
            narrator = self._narrators[lang] = narrator_for(self.edition, lang)
        return narrator

    def _transactions(
        self, cache: _JournalCache, undo_available: bool, lang: str
    ) -> list[dict[str, Any]]:
        records = cache.records
        undone_by_undo = last_undo_group(records) if undo_available else range(0)
        first = max(0, len(records) - RECENT)
        recent = records[first:]
        game_id = cache.key[0] if cache.key is not None else None
        words = self._words(recent, game_id, lang)[::-1]
        out = []
        for k, i in enumerate(range(len(records) - 1, first - 1, -1)):
            record = records[i]
            title, detail = words[k]
            out.append(
                {
                    "n": record.number,
                    "at": record.at,
                    "command": record.name,
                    "title": title,
                    "detail": detail,
                    "summary": describe(record),
                    "undoable": i in undone_by_undo,
                }
            )
        return out

    def _words(self, recent: list[Record], game_id: int | None, lang: str) -> list[tuple[str, str]]:
        """The words of *recent* (the game's last records), each worked out once by the
        ruleset's narrator.

        A record's words never change (they say the state it started from), so only the
        records not said yet are narrated, walking back from the game's state to them.
        """
        said = self._said
        if len(said) > 4 * RECENT:
            said.clear()

        def key(record: Record) -> tuple[int | None, int, str]:
            return (game_id, record.number, lang)

        new = [i for i, r in enumerate(recent) if key(r) not in said]
        if new:
            narrator = self._narrator(lang)
            tail = recent[new[0] :]
            now = self.runtime.game.state
            befores: Iterable[GameState] = itertools.repeat(now, len(tail))
            if narrator.walks_back:  # the words say the state each record started from
                befores = states_before(now, tail)
            for record, before in zip(reversed(tail), befores, strict=True):
                if key(record) not in said:
                    said[key(record)] = narrator.words(record, before)
        return [said[key(r)] for r in recent]

    def _ruleset_view(self, data: dict[str, Any], undo: bool, lang: str) -> None:
        """Add what the ruleset's state file says (the classic ruleset: buildings, mortgages,
        jail cards, the pot, the worth the ranking uses) and the unit's step to the snapshot
        *data*: the ruleset fills in its part (its ``table_view`` hook)."""
        assert self._state_file is not None
        rt = self.runtime
        sheet = self._state_file(rt.game.ruleset, rt.game.state, undo)
        narrator = self._narrator(lang)
        for p in data["players"]:
            p["label"] = narrator.who(p["card"], rt.game.state)
        if self._table_view is None:
            return
        view = getattr(rt.unit, "step_view", None)
        self._table_view(sheet, data, view() if view is not None else None)

    def _damage(self, lang: str) -> str | None:
        """Damage found in the journal and not acknowledged yet (``Journal abîmé : …``)."""
        rt = self.runtime
        if not getattr(rt, "journal_loss", None) or rt.journal is None:
            return None
        return damage_summary(rt.journal.lost, lang)

    def _auction(self) -> dict[str, Any] | None:
        unit: UnitShell = self.runtime.unit
        return unit.auction_view(self.runtime.daemon.clock())

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, read at one instant of the daemon's loop."""
        rt = self.runtime
        game = rt.game
        state = game.state
        cache = self._records()
        undo = bool(game.undo_available) if rt.journal is not None else False
        lang = str(getattr(rt.unit, "lang", "en"))
        data: dict[str, Any] = state.to_json()
        rank = {card: i + 1 for i, card in enumerate(state.ranking)}
        for p in data["players"]:
            owned = list(state.owned_by(p["card"]))
            worth = sum(self.edition.prop(n).price for n in owned)
            p.update(
                owned=owned,
                worth=worth,
                wealth=p["balance"] + worth,
                label=token_label(lang, p["token"]),
                winner=state.game_over and state.winner == p["card"],
                rank=rank.get(p["card"]),
            )
        screen = rt.daemon.last_screen
        step = rt.unit.step
        self.version += 1
        game_id = cache.key[0] if cache.key is not None else None
        data.update(
            version=self.version,
            lang=lang,
            time=time.time(),
            on=bool(rt.unit.is_on),
            game_id=game_id,
            seq=cache.count,
            started=state.started,
            undo_available=undo,
            step=type(step).__name__,
            checking=rt.unit.checking(),
            screen=None
            if screen is None
            else {
                "name": screen.name,
                "lines": list(screen.lines),
                "text": screen.text(),
                "amount": screen.amount,
                "number": screen.number,
                "token": screen.token,
                "level": screen.level,
                "countdown": screen.countdown,
                "icons": sorted(i.value for i in screen.icons),
                "off": screen.off,
            },
            auction=self._auction(),
            journal_damage=self._damage(lang),
            transactions=self._transactions(cache, undo, lang),
            chart=f"/chart.png?game={game_id}&seq={cache.count}" if state.game_over else None,
        )
        if self._state_file is not None and state.started:
            self._ruleset_view(data, undo, lang)
        return data


# ---------------------------------------------------------------------- the server


@dataclass(slots=True, eq=False)
class _Client:
    """One browser on ``/events``: woken when a newer snapshot is published."""

    wake: asyncio.Event = field(default_factory=asyncio.Event)


def _bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on *host*:*port* (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as err:
        raise WebViewError(f"web view: unknown host {host!r}: {err}") from err
    last: OSError | None = None
    for family, kind, proto, _name, address in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
        except OSError as err:
            sock.close()
            last = err
            continue
        sock.setblocking(False)
        return sock
    raise WebViewError(
        f"web view: cannot listen on {host}:{port} ({last}); choose another --web-port"
    ) from last


def _url_host(host: str) -> str:
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class WebServer:
    """The view's server, running in its own thread; see :func:`attach_web`."""

    def __init__(self, runtime: Any, host: str = "127.0.0.1", port: int = 8080) -> None:
        self.runtime = runtime
        self.host = host
        self.requested_port = port
        self.port = 0
        self.exposed = not is_loopback(host)
        self.app = self._make_app()
        self._reader = _SnapshotBuilder(runtime)
        self._board = json.dumps(board_json(runtime.edition), ensure_ascii=False)
        self._static = self._load_static()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._runner: web.AppRunner | None = None
        self._closing: asyncio.Event | None = None
        self._closed = False
        # reads wait for the daemon; charts for matplotlib: neither may block the loop
        self._pool = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="ultibank-web")
        self._chart_pool = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="ultibank-chart"
        )
        self._clients: set[_Client] = set()
        self._streams_from: dict[str, int] = {}  # open /events streams per remote address
        self._warn = RateLimitedLog(log)
        self._latest: tuple[int, bytes] | None = None
        self._dirty = False
        self._refresh_task: asyncio.Task[None] | None = None
        self._chart: tuple[tuple[int | None, int], bytes] | None = None
        self._chart_task: asyncio.Future[bytes] | None = None
        self._chart_key: tuple[int | None, int] | None = None

    # ------------------------------------------------------------------ any thread

    @property
    def url(self) -> str:
        """Where a browser on this machine finds the view."""
        return f"http://{_url_host(self.host)}:{self.port}/"

    @property
    def startup_line(self) -> str:
        """The line to print at start: where the view is, and whether it is exposed."""
        if self.exposed:
            return (
                f"ultibank: web view EXPOSED on the network at {self.host}:{self.port} "
                f"(http://<this machine's address>:{self.port}/): read-only, anyone who can "
                "reach it sees the game but no request can change it"
            )
        return f"ultibank: web view (read-only) at {self.url}"

    def start(self, timeout: float = 10.0) -> WebServer:
        """Listen, start the thread, subscribe to the daemon; raises WebViewError on failure."""
        if self._thread is not None:
            raise WebViewError("the web view is already started")
        try:
            self.runtime.daemon.call(lambda: None, min(timeout, READ_TIMEOUT))
        except TimeoutError as err:
            raise WebViewError(
                "the web view needs a started bank: call runtime.start() first"
            ) from err
        sock = _bind(self.host, self.requested_port)
        self.port = int(sock.getsockname()[1])
        self._thread = threading.Thread(
            target=self._run, args=(sock,), name="ultibank-web", daemon=True
        )
        self._thread.start()
        if not self._ready.wait(timeout):
            raise WebViewError(f"the web view did not start within {timeout} s")
        if self._start_error is not None:
            raise WebViewError(f"the web view did not start: {self._start_error}") from (
                self._start_error
            )
        self.runtime.daemon.listeners.append(self._on_output)
        log.info("web view at %s (bound to %s)", self.url, self.host)
        if self.exposed:  # said on stderr whatever the log level: the owner must know
            print(self.startup_line, file=sys.stderr, flush=True)
        return self

    def close(self, timeout: float = 10.0) -> None:
        """Stop serving: browsers are disconnected, the thread ends. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(ValueError):
            self.runtime.daemon.listeners.remove(self._on_output)
        loop = self._loop
        if loop is not None and self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._begin_close)
            self._thread.join(timeout)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._chart_pool.shutdown(wait=False, cancel_futures=True)

    def settled(self, timeout: float = 5.0) -> bool:
        """True when no snapshot is being read or waiting to be pushed (benchmarks, tests)."""
        loop = self._loop
        if loop is None or self._closed:
            return True

        async def check() -> bool:
            task = self._refresh_task
            return not self._dirty and (task is None or task.done())

        return bool(asyncio.run_coroutine_threadsafe(check(), loop).result(timeout))

    def __enter__(self) -> WebServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ daemon thread

    def _on_output(self, out: object) -> None:
        """A screen or a cue went out: the view is stale (runs in the daemon's thread)."""
        loop = self._loop
        if loop is None or self._closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(self._poke)

    # ------------------------------------------------------------------ the web thread

    def _run(self, sock: socket.socket) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(self._loop_error)
        self._loop = loop
        try:
            loop.run_until_complete(self._startup(sock))
        except BaseException as err:
            self._start_error = err
            sock.close()
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._shutdown())
            loop.close()

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's errors (accept failing for want of descriptors...), rate-limited."""
        message = str(context.get("message", "error in the web view"))
        exc = context.get("exception")
        key = f"{message}:{type(exc).__name__}"
        if isinstance(exc, OSError):  # a known condition (no descriptors): no traceback
            message, exc = f"{message}: {exc.strerror or exc}", None
        self._warn(key, logging.ERROR, "web view: %s", message, exc=exc or False)

    async def _startup(self, sock: socket.socket) -> None:
        self._closing = asyncio.Event()
        runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0
        )
        await runner.setup()
        await web.SockSite(runner, sock, backlog=BACKLOG).start()
        self._runner = runner

    def _begin_close(self) -> None:
        assert self._closing is not None
        self._closing.set()
        for client in self._clients:
            client.wake.set()
        assert self._loop is not None
        self._loop.stop()

    async def _shutdown(self) -> None:
        if self._refresh_task is not None:
            self._refresh_task.cancel()
            with contextlib.suppress(BaseException):
                await self._refresh_task
        if self._runner is not None:
            await self._runner.cleanup()

    async def _read(self, fn: Callable[[], Any]) -> Any:
        """Run *fn* in the daemon's loop thread without blocking this loop."""
        loop = asyncio.get_running_loop()
        call = self.runtime.daemon.call
        return await loop.run_in_executor(self._pool, lambda: call(fn, READ_TIMEOUT))

    async def _snapshot_bytes(self) -> tuple[int, bytes]:
        def read() -> tuple[int, bytes]:
            snap = self.runtime.daemon.call(self._reader.snapshot, READ_TIMEOUT)
            text = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
            return int(snap["version"]), text.encode()

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, read)

    def _poke(self) -> None:
        """Mark the view stale; one refresh runs at a time and re-reads until it is fresh."""
        if not self._clients or (self._closing is not None and self._closing.is_set()):
            return  # nobody watches: a browser that connects gets a fresh snapshot anyway
        self._dirty = True
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        while self._dirty:
            self._dirty = False
            try:
                version, body = await self._snapshot_bytes()
            except (TimeoutError, BankError, RuntimeError) as err:
                log.warning("web view: cannot read the game: %s", err)
                return
            self._publish(version, body)

    def _publish(self, version: int, body: bytes) -> None:
        if self._latest is not None and self._latest[0] >= version:
            return
        self._latest = (version, body)
        for client in self._clients:
            client.wake.set()

    # ------------------------------------------------------------------ the application

    def _load_static(self) -> dict[str, bytes]:
        files = {}
        for name in (*STATIC_FILES, "index.html"):
            try:
                files[name] = (STATIC_DIR / name).read_bytes()
            except OSError as err:
                raise WebViewError(f"web view: missing page file {STATIC_DIR / name}") from err
        return files

    def _make_app(self) -> web.Application:
        middlewares = [_read_only] if self.exposed else [_read_only, _loopback_hosts_only]
        app = web.Application(middlewares=middlewares)
        app.on_response_prepare.append(_security_headers)
        app.router.add_get("/", self._index)
        app.router.add_get("/state", self._state)
        app.router.add_get("/board.json", self._board_json)
        app.router.add_get("/events", self._events)
        app.router.add_get("/chart.png", self._chart_png)
        app.router.add_get("/static/{name}", self._static_file)
        return app

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self._static["index.html"],
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def _static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound(text=f"no file {name!r}")
        return web.Response(
            body=self._static[name],
            headers={"Content-Type": STATIC_FILES[name], "Cache-Control": "no-cache"},
        )

    async def _board_json(self, request: web.Request) -> web.Response:
        return web.Response(text=self._board, content_type="application/json")

    async def _state(self, request: web.Request) -> web.Response:
        try:
            version, body = await self._snapshot_bytes()
        except (TimeoutError, RuntimeError) as err:
            raise web.HTTPServiceUnavailable(text=f"the bank does not answer: {err}") from err
        self._publish(version, body)
        return web.Response(
            body=body, content_type="application/json", headers={"Cache-Control": "no-store"}
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        if request.method == "HEAD":  # the headers only: no stream to keep open
            return response
        address = request.remote or "?"
        mine = self._streams_from.get(address, 0)
        if mine >= SSE_PER_ADDRESS or len(self._clients) >= SSE_TOTAL:
            raise web.HTTPTooManyRequests(
                text=f"too many live views open (at most {SSE_PER_ADDRESS} per address, "
                f"{SSE_TOTAL} in all); close one and reload\n",
                headers={"Retry-After": "10"},
            )
        self._streams_from[address] = mine + 1
        client = _Client()
        self._clients.add(client)
        try:
            await response.prepare(request)
            await self._stream(request, response, client)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._clients.discard(client)
            left = self._streams_from.pop(address) - 1
            if left:
                self._streams_from[address] = left
        return response

    async def _stream(
        self, request: web.Request, response: web.StreamResponse, client: _Client
    ) -> None:
        closing = self._closing
        assert closing is not None
        sent = 0
        await response.write(b"retry: 1000\n\n")
        self._poke()  # a newcomer gets a snapshot read now
        quiet = 0.0
        while not closing.is_set():
            client.wake.clear()
            latest = self._latest
            if latest is not None and latest[0] > sent:
                sent = latest[0]
                await response.write(b"id: %d\ndata: %s\n\n" % (sent, latest[1]))
                quiet = 0.0
                continue
            try:
                await asyncio.wait_for(client.wake.wait(), SSE_CHECK_S)
            except TimeoutError:
                if request.transport is None or request.transport.is_closing():
                    return  # the browser left: free its place now, not at the next write
                quiet += SSE_CHECK_S
                if quiet >= KEEPALIVE_S:
                    await response.write(b": keep-alive\n\n")
                    quiet = 0.0

    async def _chart_png(self, request: web.Request) -> web.Response:
        game_id, last, records = await self._read(self._reader.records)
        if not records:
            raise web.HTTPNotFound(text="no game has been played yet: no chart")
        key = (game_id, last)
        if self._chart is None or self._chart[0] != key:
            if self._chart_task is None or self._chart_key != key:
                loop = asyncio.get_running_loop()
                edition = self.runtime.edition
                lang = str(getattr(self.runtime.unit, "lang", "") or edition.language)

                worth = values_worth(edition) is not None

                def draw() -> bytes:
                    series = wealth_series(edition, records)
                    return render_wealth_png(series, lang=lang, worth=worth)

                self._chart_key = key
                self._chart_task = loop.run_in_executor(self._chart_pool, draw)
            task = self._chart_task
            try:
                png = await asyncio.shield(task)
            except ChartUnavailable as err:
                raise web.HTTPServiceUnavailable(text=str(err)) from err
            self._chart = (key, png)
        return web.Response(
            body=self._chart[1], content_type="image/png", headers={"Cache-Control": "no-cache"}
        )


_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _read_only(request: web.Request, handler: _Handler) -> web.StreamResponse:
    """Refuse every method but GET and HEAD, on every path: the view only shows the game."""
    if request.method not in READ_ONLY_METHODS:
        raise web.HTTPMethodNotAllowed(
            request.method,
            sorted(READ_ONLY_METHODS),
            text="this view is read-only: the game is played on the unit\n",
        )
    return await handler(request)


def _loopback_name(host_header: str) -> bool:
    """Whether a Host header names this machine's loopback (``localhost``, 127.x, ``[::1]``)."""
    name = host_header.strip().lower()
    if name.startswith("["):
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    if name in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@web.middleware
async def _loopback_hosts_only(request: web.Request, handler: _Handler) -> web.StreamResponse:
    """On loopback, refuse pages asked for under another name (a DNS rebinding guard)."""
    if not _loopback_name(request.host):
        raise web.HTTPMisdirectedRequest(
            text="this view answers only as localhost or 127.0.0.1 (use --web-host to expose it)\n"
        )
    return await handler(request)


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in _SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def attach_web(runtime: Any, host: str = "127.0.0.1", port: int = 8080) -> WebServer:
    """Serve the read-only view of *runtime*'s game on *host*:*port* (0: a free port).

    The runtime must be started (its daemon answers ``call``). Close the returned server
    before stopping the runtime.
    """
    return WebServer(runtime, host, port).start()
