"""A game driven in a child process, killed with SIGKILL at random moments, then resumed.

Used by ``tests/engine/test_crash.py`` (a handful of kills) and ``bench/bench_engine.py``
(at least 100). The child plays a deterministic stream of random commands (legal and
illegal) and prints ``ok N`` after each transaction the game confirmed, that is after the
journal's commit. The parent replays the same stream in memory, so it knows the exact state
after every prefix.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import bank.engine.game
from bank.engine.commands import AuctionSale, Command, GiveProperty, Land, NewGame, Undo
from bank.engine.errors import RuleError
from bank.engine.game import Game
from bank.engine.state import GameState
from bank.rulesets.ultime.commands import GoToJail, LeaveJail, PassGo, PayLocation, PlayEvent
from bank.services.journal import Journal
from board_assets import load_edition

EDITION = "ultime-fr"


def next_command(rnd: random.Random, state: GameState) -> Command:
    """A random command, mostly legal: the debtor gives up properties, others play."""
    debtor = state.debtor()
    if debtor is not None and rnd.random() < 0.9:
        owned = state.owned_by(debtor.card) or (1,)
        return GiveProperty(debtor.card, rnd.choice(owned))
    card, number = rnd.randint(1, 3), rnd.randint(1, 22)
    kind = rnd.random()
    if kind < 0.45:
        return Land(card, number)
    if kind < 0.6:
        return PassGo(card)
    if kind < 0.64:
        return GoToJail(card)
    if kind < 0.7:
        return LeaveJail(card, rnd.random() < 0.5)
    if kind < 0.74:
        return PayLocation(card)
    if kind < 0.8:
        return AuctionSale(card, number, 20 * rnd.randint(1, 10))
    if kind < 0.95:
        eid = rnd.randint(1, 23)
        props = tuple(rnd.randint(1, 22) for _ in range(rnd.randint(0, 2)))
        cards = tuple(rnd.randint(1, 3) for _ in range(rnd.randint(0, 2)))
        return PlayEvent(eid, props, cards)
    return Undo()


Key = tuple[int, int]  # (game number, transactions in that game)


def play(game: Game, seed: int, n: int, confirmed: dict[Key, GameState] | None = None) -> None:
    """Run *commands*, skipping refused ones; a finished game is reset and a new one started.

    Prints (child) or records (parent) each confirmed transaction as (game number, seq).
    """
    number = 1
    rnd = random.Random(seed)
    if not game.state.started:
        game.execute(NewGame((1, 2, 3)))
    for _ in range(n):
        cmd = next_command(rnd, game.state)
        if game.state.game_over:
            game.reset()
            number += 1
            cmd = NewGame((1, 2, 3))
        try:
            tx = game.execute(cmd)
        except RuleError:
            continue
        if confirmed is None:
            print(f"ok {number} {tx.seq}", flush=True)
        else:
            confirmed[(number, tx.seq)] = game.state


def expected_states(seed: int, n: int) -> dict[Key, GameState]:
    """The state after each confirmed transaction, by (game number, seq)."""
    game = Game(load_edition(EDITION))
    states: dict[Key, GameState] = {}
    play(game, seed, n, states)
    return states


@dataclass(frozen=True, slots=True)
class CrashResult:
    confirmed: Key  # the last "ok G N" the child printed before dying
    resumed: Key  # the game and transaction count found in the journal after restart
    state_ok: bool
    resume_seconds: float


def crash_once(
    data_dir: Path,
    seed: int,
    n: int,
    kill_after: float,
    states: dict[Key, GameState],
    snapshot_every: int | None = None,
) -> CrashResult:
    """Start the child, SIGKILL it *kill_after* seconds after its first commit, resume.

    *snapshot_every*: the child snapshots its game that often (default: as the game does).
    """
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    if snapshot_every is not None:
        env[_SNAPSHOT_EVERY] = str(snapshot_every)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.crash_game", str(data_dir), str(seed), str(n)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert child.stdout is not None
    confirmed: Key = (1, 0)
    first = child.stdout.readline()
    if first.startswith("ok "):
        confirmed = (int(first.split()[1]), int(first.split()[2]))
    deadline = time.monotonic() + kill_after
    os.set_blocking(child.stdout.fileno(), False)
    while time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.001)
    child.send_signal(signal.SIGKILL)
    child.wait()
    rest = child.stdout.read() or ""
    for line in rest.splitlines():
        if line.startswith("ok "):
            confirmed = (int(line.split()[1]), int(line.split()[2]))
    t0 = time.perf_counter()
    with Journal(data_dir / "journal.sqlite") as journal:
        game = Game(load_edition(EDITION), journal=journal)
        resume = time.perf_counter() - t0
        resumed = (max(1, len(journal.games())), game.seq)
    expected = states.get(resumed)
    if resumed[1] == 0:  # killed between a reset and the new game's first commit
        expected = GameState.empty(load_edition(EDITION))
    ok = expected is not None and game.state == expected
    return CrashResult(confirmed, resumed, ok, resume)


_SNAPSHOT_EVERY = "ULTIBANK_CRASH_SNAPSHOT_EVERY"


def _child(data_dir: str, seed: int, n: int) -> None:
    every = os.environ.get(_SNAPSHOT_EVERY)
    if every is not None:  # many snapshot boundaries in a short run
        setattr(bank.engine.game, "SNAPSHOT_EVERY", int(every))  # noqa: B010
    with Journal(Path(data_dir) / "journal.sqlite") as journal:
        game = Game(load_edition(EDITION), journal=journal)
        play(game, seed, n)


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
