"""Benchmarks of the classic ruleset (issue 12), each beside the Ultime figure measured the same
way in the same run: tap to new screen with the durable commit, a whole 8-player game of 2,000
gestures replayed by ``ultibank script``, and the resume of a 10,000-transaction journal.

- **Tap → new screen**: the path of ``bench unit`` (a simulated reader under the supervisor
  and debouncer, the daemon's inbox and loop, the unit, the game and its journal on disk, then
  the panel's ``show``): M shows menu item 1 (GO), a bank card collects +200 in one durable
  transaction; the time from the tap to the new screen. A classic-fr game of 8 players and an
  Ultime game of 4, alternating blocks.
- **A whole game through ``ultibank script``**, as a process: the seeded game of
  ``bench/classic_game.py`` (8 players, 2,000 gestures) against the Ultime example game
  (``docs/example-game.tap``) played as many times in a row (a reset between: as many
  gestures), and once, alternating runs; the time per gesture.
- **Resume**: a runtime (what ``ultibank run`` builds: journal opened and verified, the game
  replayed, the unit powered on, the daemon's loop started) from its start to the panel's first
  screen, on a journal of 10,000 classic transactions (the generator's game, played on) and on
  one of 10,000 Ultime transactions (``bench engine``'s game).

Imports the bank, ``drivers``, ``bench.common``, ``bench.classic_game``, ``bench.bench_engine``
and the standard library.
"""

from __future__ import annotations

import gc
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bank.app.runtime import Runtime
from bank.engine.commands import Command
from bank.engine.errors import BankError
from bank.engine.game import Game
from bank.rulesets.classic import commands as cc
from bank.rulesets.classic.state import classic
from bank.services.journal import Journal
from bank.services.settings import load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId, Cue, Input, Screen
from bench.bench_engine import EDITION as ULTIME_EDITION
from bench.bench_engine import Collector, long_game, resume_results, store_after_crash
from bench.classic_game import ClassicGame, classic_game
from bench.common import Result, at_most, percentile, scratch_dir, stats
from board_assets import load_edition
from drivers.sim import start_sim_reader

AREA = "classic"
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_GAME = ROOT / "docs" / "example-game.tap"
CLASSIC = "classic-fr"
#: the Méga game of issue 13 (37 deeds, the speed die, skyscrapers, depots)
MEGA = "mega-fr"
ULTIME = "ultime-fr"
SEED = 1
JOURNAL_FILE = "journal.sqlite"


def _noop() -> None:
    pass


class _Probe:
    """A panel that notes when each screen arrives, and the first one that is not the menu."""

    def __init__(self) -> None:
        self.screens: list[tuple[float, Screen]] = []
        self.armed = 0
        self.seen = threading.Event()

    def start(self, post: Callable[[Input], None]) -> None:
        pass

    def show(self, screen: Screen) -> None:
        self.screens.append((time.perf_counter(), screen))
        if len(self.screens) > self.armed and screen.name != "menu":
            self.seen.set()

    def play(self, cue: Cue) -> None:
        pass

    def close(self) -> None:
        pass

    def arm(self) -> None:
        self.armed = len(self.screens)
        self.seen.clear()

    def first_after_arm(self) -> tuple[float, Screen]:
        return next((t, s) for t, s in self.screens[self.armed :] if s.name != "menu")


class _GoTable:
    """A running unit of *edition* with *players* registered; :meth:`tap` times one GO."""

    def __init__(self, root: Path, edition: str, players: int) -> None:
        settings = load_settings(None, [f'game.data_dir="{root}"', f'game.edition="{edition}"'])
        self.rt = Runtime(settings)
        self.probe = _Probe()
        self.rt.add_panel(self.probe)
        self.rt.start(control=False)
        self.post = self.rt.daemon.post
        self.reader, self.service = start_sim_reader(self.post, self.rt.clock, deck=self.rt.deck)
        self.players = players
        for card in range(1, players + 1):
            self.reader.tap(CardId("bank", card))
        self._press(Button.OK)
        self.rt.daemon.call(_noop)
        if not self.rt.game.state.started:
            self.close()
            raise RuntimeError(f"{edition}: the game did not start")
        self.taps = 0

    def _press(self, button: Button) -> None:
        now = time.monotonic()
        self.post(ButtonPressed(now, button))
        self.post(ButtonReleased(now, button))

    def tap(self) -> float:
        """M (menu item 1, GO), then a bank card: seconds from the tap to the new screen."""
        self._press(Button.MENU)
        self.rt.daemon.call(_noop)
        self.probe.arm()
        seq = self.rt.game.seq
        t0 = time.perf_counter()
        self.reader.tap(CardId("bank", 1 + self.taps % self.players))
        if not self.probe.seen.wait(5):
            raise RuntimeError("no new screen after a GO tap")
        at, screen = self.probe.first_after_arm()
        self.taps += 1
        self.rt.daemon.call(_noop)
        if self.rt.game.seq != seq + 1:  # one durable transaction per tap, or no figure
            raise RuntimeError(f"a GO tap made no transaction (screen {screen.name})")
        return at - t0

    def close(self) -> None:
        self.service.stop()
        self.rt.stop()


def _tap_latency(root: Path, n: int, rounds: int) -> list[Result]:
    tables = {
        "classic": _GoTable(root / "taps-classic", CLASSIC, 8),
        "ultime": _GoTable(root / "taps-ultime", ULTIME, 4),
    }
    samples: dict[str, list[float]] = {name: [] for name in tables}
    try:
        for table in tables.values():  # warm-up, untimed
            for _ in range(20):
                table.tap()
        for _ in range(rounds):
            for name, table in tables.items():
                samples[name].extend(table.tap() for _ in range(max(1, n // rounds)))
    finally:
        for table in tables.values():
            table.close()
    c, u = stats(samples["classic"]), stats(samples["ultime"])
    ms = 1e3
    note = (
        f"{c.n} taps each, {rounds} alternating blocks (each a durable +200 GO transaction: M, "
        f"then a bank card), sim reader → debouncer → daemon; {CLASSIC} with 8 players, "
        f"baseline {ULTIME} with 4; {_load()}"
    )
    return [
        Result(AREA, "tap → new screen p50 (incl. durable commit)", c.p50 * ms, "ms",
               baseline=u.p50 * ms, ratio=c.p50 / u.p50, note=note),
        Result(AREA, "tap → new screen p99 (incl. durable commit)", c.p99 * ms, "ms",
               baseline=u.p99 * ms, ratio=c.p99 / u.p99, target=at_most(5.0),
               note=f"worst {c.worst * ms:.2f} ms (Ultime {u.worst * ms:.2f} ms)"),
    ]  # fmt: skip


# ---------------------------------------------------------------- a whole game, as a process


def _script_command(path: Path, edition: str, data_dir: Path) -> list[str]:
    exe = Path(sys.executable).with_name("ultibank")
    head = [str(exe)] if exe.exists() else [sys.executable, "-m", "bank.app.cli"]
    return [*head, "script", str(path), "--edition", edition, "--data-dir", str(data_dir)]


def _run_script(path: Path, edition: str, data_dir: Path) -> float:
    """Wall seconds of one ``ultibank script`` process on a new data directory."""
    shutil.rmtree(data_dir, ignore_errors=True)
    cmd = _script_command(path, edition, data_dir)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr[-400:]!r}")
    return took


def _gestures(path: Path) -> int:
    """The lines of a script that act (not blank, not a comment)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return sum(1 for ln in lines if ln.strip() and not ln.lstrip().startswith("#"))


def _kinds(game: ClassicGame) -> str:
    s = game.screens
    parts = [
        f"{s['bought']} purchases",
        f"{s['rent']} rents",
        f"{s['sold']} auctions",
        f"{s['built']} houses/hotels",
        f"{s['building_sold']} sold back",
        f"{s['mortgaged']} mortgages",
        f"{s['lifted']} lifts",
        f"{s['traded']} trades",
        f"{s['card_done']} cards",
        f"{s['jail']} jailings",
        f"{s['dice']} rolls",
        f"{game.eliminated} bankruptcies",
    ]
    return ", ".join(parts)


def _whole_game(root: Path, gestures: int, runs: int) -> list[Result]:
    game = classic_game(SEED, gestures, CLASSIC, 8)
    script = root / "classic-game.tap"
    script.write_text(game.script(), encoding="utf-8")
    mega = classic_game(SEED, gestures, MEGA, 8)
    mega_script = root / "mega-game.tap"
    mega_script.write_text(mega.script(), encoding="utf-8")
    # the Ultime example game again and again, a reset (X held) between: as many gestures
    example = EXAMPLE_GAME.read_text(encoding="utf-8")
    times = max(1, round(gestures / _gestures(EXAMPLE_GAME)))
    repeated = root / "ultime-repeated.tap"
    repeated.write_text(f"\n{example}\nhold cancel 5.5\n" * times, encoding="utf-8")
    work = root / "script-data"
    jobs = {
        "classic": (script, CLASSIC),
        "mega": (mega_script, MEGA),
        "ultime": (EXAMPLE_GAME, ULTIME),
        "ultime repeated": (repeated, ULTIME),
    }
    samples: dict[str, list[float]] = {name: [] for name in jobs}
    for path, edition in jobs.values():  # warm-up: the page cache, the .pyc files
        _run_script(path, edition, work)
    for _ in range(runs):
        for name, (path, edition) in jobs.items():
            samples[name].append(_run_script(path, edition, work))
    _run_script(EXAMPLE_GAME, ULTIME, work)  # kept: its transactions are counted
    tx_ultime = _transactions(work, ULTIME)
    shutil.rmtree(work, ignore_errors=True)
    p50 = {name: percentile(values, 50) for name, values in samples.items()}
    n = {"classic": game.gestures, "mega": mega.gestures, "ultime": _gestures(EXAMPLE_GAME),
         "ultime repeated": _gestures(repeated)}  # fmt: skip
    per = {name: p50[name] / n[name] for name in jobs}
    ms = 1e3
    return [
        Result(AREA, f"8-player game of {n['classic']:,} gestures by `ultibank script`, whole "
               "process p50", p50["classic"], "s", baseline=p50["ultime repeated"],
               ratio=p50["classic"] / p50["ultime repeated"],
               note=f"{runs} runs each, alternating; seed {SEED} (bench/classic_game.py): "
               f"{_kinds(game)}; {game.refusals} refused; {game.transactions} durable "
               f"transactions; baseline: the Ultime example game (docs/example-game.tap, "
               f"{n['ultime']} gestures, {tx_ultime} transactions) played {times} times in a "
               f"row with a reset between ({n['ultime repeated']:,} gestures); {_load()}"),
        Result(AREA, "per gesture (whole process / gestures)", per["classic"] * ms, "ms",
               baseline=per["ultime repeated"] * ms,
               ratio=per["classic"] / per["ultime repeated"],
               note=f"baseline: the Ultime example game {times} times in a row; a durable "
               f"commit every {n['classic'] / game.transactions:.1f} gestures in classic, "
               f"{n['ultime'] / tx_ultime:.1f} in Ultime"),
        Result(AREA, f"8-player Méga game ({MEGA}) of {n['mega']:,} gestures by `ultibank "
               "script`, whole process p50", p50["mega"], "s", baseline=p50["ultime repeated"],
               ratio=p50["mega"] / p50["ultime repeated"],
               note=f"seed {SEED}: {_kinds(mega)}; {mega.refusals} refused; "
               f"{mega.transactions} durable transactions; the same baseline"),
        Result(AREA, "Méga, per gesture (whole process / gestures)", per["mega"] * ms, "ms",
               baseline=per["ultime repeated"] * ms,
               ratio=per["mega"] / per["ultime repeated"],
               note="baseline: the Ultime example game played as many gestures in a row"),
        Result(AREA, "per gesture, against the Ultime example game played once",
               per["classic"] * ms, "ms", baseline=per["ultime"] * ms,
               ratio=per["classic"] / per["ultime"],
               note=f"the example game alone: {p50['ultime']:.3f} s for {n['ultime']} "
               "gestures, mostly the process's start-up"),
    ]  # fmt: skip


def _transactions(data_dir: Path, edition: str) -> int:
    with Journal(data_dir / JOURNAL_FILE) as journal:
        return Game(load_edition(edition), journal=journal).seq


def _load() -> str:
    """The machine's load when a figure was taken (other work on it slows every figure)."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


# ---------------------------------------------------------------- resume


def _ultime_journal(directory: Path, n: int) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    with Journal(directory / JOURNAL_FILE) as journal:
        game = Game(ULTIME_EDITION, journal=journal)
        long_game(game, n)
        return game.seq


def _first_screen(directory: Path, edition: str, expect_seq: int) -> float:
    """Seconds from a runtime's start on *directory* to its panel's first screen."""
    settings = load_settings(None, [f'game.data_dir="{directory}"', f'game.edition="{edition}"'])
    probe = _Probe()
    gc.collect()  # the garbage of the bench's earlier steps is not the resume's
    t0 = time.perf_counter()
    rt = Runtime(settings)
    try:
        rt.add_panel(probe)
        rt.start(control=False)
        if not probe.seen.wait(30):
            raise RuntimeError("no first screen")
        took = probe.screens[0][0] - t0
        if rt.game.seq != expect_seq or not rt.game.state.started:
            raise RuntimeError(f"resumed {rt.game.seq} transactions, not {expect_seq}")
    finally:
        rt.stop()
    return took


def _resume(root: Path, n: int, runs: int) -> list[Result]:
    classic_dir, ultime_dir = root / "resume-classic", root / "resume-ultime"
    classic_dir.mkdir()
    game = classic_game(SEED, edition=CLASSIC, players=8, data_dir=classic_dir, transactions=n)
    if game.over:
        raise RuntimeError("the generated game ended before its journal was long enough")
    ultime_n = _ultime_journal(ultime_dir, n)
    size = (classic_dir / JOURNAL_FILE).stat().st_size // 1024
    samples: dict[str, list[float]] = {"classic": [], "ultime": []}
    _first_screen(classic_dir, CLASSIC, game.transactions)  # warm-up: the page cache
    _first_screen(ultime_dir, ULTIME, ultime_n)
    for _ in range(runs):
        samples["classic"].append(_first_screen(classic_dir, CLASSIC, game.transactions))
        samples["ultime"].append(_first_screen(ultime_dir, ULTIME, ultime_n))
    c, u = stats(samples["classic"]), stats(samples["ultime"])
    note = (
        f"{runs} runs each, alternating; runtime start (journal opened and verified, game "
        f"replayed, unit on, loop started) → the panel's first screen; {game.transactions:,} "
        f"transactions of an 8-player game ({game.gestures:,} gestures, seed {SEED}), "
        f"{size:,} KiB, warm page cache; baseline: {ultime_n:,} Ultime transactions; "
        f"{_load()}"
    )
    return [
        Result(AREA, f"resume a classic journal of {game.transactions:,} transactions p50",
               c.p50, "s", baseline=u.p50, ratio=c.p50 / u.p50, target=at_most(0.05),
               note=note + "; every run but the first resumes from the snapshot the clean "
               "stop before it wrote"),
        Result(AREA, f"resume a classic journal of {game.transactions:,} transactions p99",
               c.p99, "s", baseline=u.p99, ratio=c.p99 / u.p99, target=at_most(0.05),
               note=f"worst {c.worst:.3f} s (Ultime {u.worst:.3f} s)"),
    ]  # fmt: skip


def _continued(rows: list[dict[str, object]], total: int, seed: int) -> list[dict[str, object]]:
    """*rows* (a classic game's records) and more of the same game until it holds *total*:
    the unit's dice for each player, salaries, payments to and from the bank, the interest
    questions answered (a game that never ends, played in memory)."""
    collector = Collector()
    collector.rows = list(rows)
    game = Game(load_edition(CLASSIC), journal=collector)
    rnd = random.Random(seed)
    cards = [p.card for p in game.state.players if not p.bankrupt]
    refused = 0
    while len(collector.rows) < total:
        if game.state.game_over:
            raise RuntimeError("the continued classic game ended")
        ext = classic(game.state)
        card = rnd.choice(cards)
        player = game.state.player(card)
        assert player is not None
        kind = rnd.random()
        command: Command
        if ext.interest_due:
            command = cc.AnswerInterest(ext.interest_due[0], False)
        elif kind < 0.5:
            command = cc.RollDice(card)
        elif kind < 0.7:
            command = cc.PassGo(card)
        elif kind < 0.85 or player.balance < 500:
            command = cc.ReceiveBank(card, rnd.randint(1, 200))
        else:
            command = cc.PayBank(card, rnd.randint(1, 200))
        try:
            game.execute(command)
            refused = 0
        except BankError:
            refused += 1
            if refused > 1000:
                raise RuntimeError("the continued classic game is stuck") from None
    return collector.rows


def _classic_crash_resume(
    root: Path, source: Path, sizes: tuple[int, ...], runs: int
) -> list[Result]:
    """Resume (journal + game, no unit) of classic games after a crash, at each size."""
    with Journal(source) as journal:
        rows = list(journal.records())
        journal.before_close.clear()
    edition = load_edition(CLASSIC)
    paths = {}
    for n in sizes:
        path = root / f"classic-{n}.sqlite"
        store_after_crash(path, edition, _continued(rows, n, SEED) if n > len(rows) else rows)
        paths[max(n, len(rows))] = path
    return resume_results(
        "a classic game", edition, paths, runs,
        note=f"the first {len(rows):,} transactions from the 8-player game above, the rest "
        "dice, salaries and bank payments of the same game", area=AREA,
    )  # fmt: skip


def run(quick: bool) -> list[Result]:
    """Tap latency, a whole game by ``ultibank script``, resume of 10,000 transactions."""
    with scratch_dir() as root:
        results = _tap_latency(root, n=100 if quick else 600, rounds=2 if quick else 6)
        results += _whole_game(root, gestures=2000, runs=2 if quick else 7)
        results += _resume(root, n=1000 if quick else 10_000, runs=3 if quick else 21)
        results += _classic_crash_resume(
            root,
            root / "resume-classic" / JOURNAL_FILE,
            (1000, 20_000) if quick else (10_000, 100_000),
            runs=3 if quick else 15,
        )
    return results
