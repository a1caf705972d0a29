"""Snapshots of the game state in the journal: a resume from a snapshot and its tail gives
exactly the game a whole replay gives (state, transaction count, undo), in Ultime and classic
games; a damaged snapshot is reported and never used; a snapshot written by code whose state
has another shape is rebuilt; a power cut after a snapshot loses nothing."""

from __future__ import annotations

import contextlib
import io
import logging
import random
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

import bank.engine.game
import bank.services.journal
from bank.app.runtime import Runtime
from bank.app.script import run_script
from bank.engine import snapshot
from bank.engine.commands import Land, Undo
from bank.engine.errors import BankError
from bank.engine.game import Game
from bank.rulesets.classic import commands as cc
from bank.rulesets.classic.commands import ReceiveBank
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.state import classic
from bank.rulesets.ultime.commands import PassGo
from bank.services.journal import Journal
from bank.services.settings import load_settings
from bank.unit.io import Cue, Input, Screen
from board_assets import Edition, load_edition
from tests.rulesets.classic_support import random_classic_command
from tests.support.crash_game import next_command

ULTIME = load_edition("ultime-fr")
CLASSIC = load_edition("classic-fr")
EVERY = 7  # a snapshot every 7 transactions: many boundaries in a short game


@pytest.fixture(autouse=True)
def _often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bank.engine.game, "SNAPSHOT_EVERY", EVERY)


def _power_cut(journal: Journal) -> None:
    """Close the journal the way a crash leaves it: no snapshot at the stop."""
    journal.before_close.clear()
    journal.close()


def _snapshots(path: Path) -> list[tuple[int, int]]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return list(conn.execute("SELECT game, count FROM snapshots ORDER BY game, seq"))


def _drop_snapshots(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("DELETE FROM snapshots")


def _play_ultime(game: Game, rnd: random.Random, n: int) -> None:
    if not game.state.started:
        game.start((1, 2, 3))
    for _ in range(n):
        if game.state.game_over:
            return
        with contextlib.suppress(BankError):
            game.execute(next_command(rnd, game.state))


def _play_classic(game: Game, rnd: random.Random, n: int) -> None:
    if not game.state.started:
        game.start(range(1, 5))
        for card in range(1, 5):
            game.execute(ReceiveBank(card, 3000))
    for _ in range(n):
        if game.state.game_over:
            return
        command = random_classic_command(rnd, game) if rnd.random() > 0.05 else Undo()
        with contextlib.suppress(BankError):
            game.execute(command)


def _same_game(resumed: Game, other: Game) -> None:
    assert resumed.seq == other.seq
    assert resumed.state == other.state
    assert resumed.undo_available == other.undo_available
    if other.undo_available:  # the undo bookkeeping came through: one undo, the same state
        resumed.execute(Undo())
        other.execute(Undo())
        assert resumed.state == other.state


def _copy(path: Path, folder: Path) -> Path:
    """A copy of a closed journal (checkpointed: the main file holds it all) elsewhere."""
    folder.mkdir()
    for name in (path.name, path.name + ".tip"):
        shutil.copy(path.with_name(name), folder / name)
    return folder / path.name


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("edition", [ULTIME, CLASSIC], ids=["ultime", "classic"])
def test_resume_from_a_snapshot_is_the_whole_replay(
    tmp_path: Path, seed: int, edition: Edition
) -> None:
    rnd = random.Random(seed)
    play = _play_classic if edition.ruleset == "classic" else _play_ultime
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    live = Game(edition, journal=journal)
    play(live, rnd, 40 + 15 * seed)
    _power_cut(journal)  # the tail after the last periodic snapshot is replayed
    assert _snapshots(path), "no snapshot was written"

    other = _copy(path, tmp_path / "copy")
    _drop_snapshots(other)
    with Journal(path) as journal, Journal(other) as journal_copy:
        snap = journal.snapshot()
        assert snap is not None and snap.count <= live.seq < snap.count + EVERY
        assert journal_copy.snapshot() is None
        resumed = Game(edition, journal=journal)
        assert resumed.seq == live.seq and resumed.state == live.state
        whole = Game(edition, journal=journal_copy)  # replayed from the first record
        _same_game(resumed, whole)
    if edition.ruleset == "classic":
        ext = classic(live.state)
        assert ext.rolls > 0, "the game never rolled the dice: the test checks nothing of them"


def test_classic_dice_count_and_decks_come_through_a_snapshot(tmp_path: Path) -> None:
    """Virtual decks on: the unit's dice count and recent rolls and the decks' state (drawn
    cards, their order) are in the snapshot, field by field, whatever the fields are."""
    path = tmp_path / "journal.sqlite"
    rnd = random.Random(5)
    config = ClassicConfig.from_mapping({"variants": {"virtual_decks": True}})
    with Journal(path) as journal:
        live = Game(CLASSIC, config, journal=journal)
        live.start(range(1, 5))
        for _ in range(150):
            if live.state.game_over:
                break
            command = (
                cc.DrawCard(rnd.choice(("chance", "chest")))
                if rnd.random() < 0.3
                else random_classic_command(rnd, live)
            )
            with contextlib.suppress(BankError):
                live.execute(command)
        ext = classic(live.state)
    decks = {
        f.name: getattr(ext, f.name) for f in fields(ext) if "deck" in f.name or "draw" in f.name
    }
    assert ext.rolls > 0 and any(decks.values()), "no roll or no draw: the test checks nothing"
    with Journal(path) as journal:
        snap = journal.snapshot()
        assert snap is not None and snap.count == live.seq  # the clean stop's snapshot
        assert not list(journal.entries(after=snap.seq))  # nothing replayed: all from it
        resumed = Game(CLASSIC, config, journal=journal)
        got = classic(resumed.state)
    for f in fields(ext):
        assert getattr(got, f.name) == getattr(ext, f.name), f.name
    assert resumed.state == live.state


def test_snapshot_is_generic_over_the_state_fields() -> None:
    game = Game(CLASSIC)
    _play_classic(game, random.Random(3), 60)
    snap = snapshot.GameSnapshot(game.seq, game.state, (), None, False, "classic")
    back = snapshot.load(snapshot.dump(snap))
    assert back.state == game.state
    assert snapshot.state_version() == snapshot.state_version()


def test_undo_across_a_snapshot_boundary(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game = Game(ULTIME, journal=journal)
        game.start((1, 2))
        while game.seq % EVERY != EVERY - 1:
            game.execute(Land(1 + game.seq % 2, 1 + game.seq % 3))  # buy, then pay rent
        before = game.state
        game.execute(Land(1, 5))  # this transaction ends on a periodic snapshot
        assert game.seq % EVERY == 0
        _power_cut(journal)
    with Journal(path) as journal:
        snap = journal.snapshot()
        assert snap is not None and snap.count == game.seq
        resumed = Game(ULTIME, journal=journal)
        assert resumed.undo_available
        resumed.execute(Undo())
        assert resumed.state == before
    with Journal(path) as journal:  # and the undo itself resumes
        assert Game(ULTIME, journal=journal).state == before


def test_damaged_snapshot_is_reported_and_the_journal_replayed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        live = Game(CLASSIC, journal=journal)
        _play_classic(live, random.Random(8), 60)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        # a plausible edit: someone's balance made larger, the JSON still sound
        changed = conn.execute(
            "UPDATE snapshots SET payload = replace(payload, '\"balance\":', '\"balance\":9')"
        ).rowcount
    assert changed
    with caplog.at_level(logging.WARNING), Journal(path) as journal:
        assert journal.snapshot() is None
        assert any("snapshot" in m and "failed its check" in m for m in journal.recovery)
        resumed = Game(CLASSIC, journal=journal)
        assert resumed.state == live.state and resumed.seq == live.seq
    assert "failed its check" in caplog.text
    with Journal(path) as journal:  # rebuilt: the next resume has a sound one again
        assert journal.recovery == []
        snap = journal.snapshot()
        assert snap is not None and snap.count == live.seq
        assert Game(CLASSIC, journal=journal).state == live.state


def test_snapshot_of_another_record_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        live = Game(ULTIME, journal=journal)
        _play_ultime(live, random.Random(1), 30)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE snapshots SET seq = seq - 1")  # it claims to follow another record
    with Journal(path) as journal:
        assert journal.snapshot() is None and journal.recovery
        assert Game(ULTIME, journal=journal).state == live.state


def test_state_version_change_rebuilds_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        live = Game(CLASSIC, journal=journal)
        _play_classic(live, random.Random(2), 50)
    old = snapshot.state_version()
    monkeypatch.setattr(bank.engine.game, "state_version", lambda *_: old + "-next")
    with Journal(path) as journal:
        assert journal.snapshot() is not None  # sound, but of the older shape
        resumed = Game(CLASSIC, journal=journal)  # replayed whole, then a new one written
        assert resumed.state == live.state and resumed.seq == live.seq
        assert journal.recovery == []
    with contextlib.closing(sqlite3.connect(path)) as conn:
        versions = {row[0] for row in conn.execute("SELECT version FROM snapshots")}
    assert old + "-next" in versions


def test_power_cut_between_snapshot_and_tail(tmp_path: Path) -> None:
    """Transactions after a snapshot, then a crash: all of them are there after it."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    live = Game(ULTIME, journal=journal)
    _play_ultime(live, random.Random(4), 25)
    assert live.save_snapshot()
    count = live.seq
    for _ in range(5):
        live.execute(Land(1, 9) if live.state.prop(9).owner is None else Land(2, 9))
    _power_cut(journal)
    with Journal(path) as journal:
        snap = journal.snapshot()
        assert snap is not None and snap.count == count
        resumed = Game(ULTIME, journal=journal)
        assert resumed.seq == live.seq == count + 5
        assert resumed.state == live.state


def test_damaged_record_in_the_tail_is_set_aside_and_the_snapshot_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    live = Game(ULTIME, journal=journal)
    live.start((1, 2))
    live.execute(Land(1, 3))
    assert live.save_snapshot()
    at_snapshot = live.state
    live.execute(Land(2, 3))
    live.execute(Land(2, 4))
    _power_cut(journal)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        seq = conn.execute("SELECT max(seq) FROM records").fetchone()[0] - 1
        conn.execute("UPDATE records SET payload = replace(payload, 'land', 'lane') WHERE seq=?",
                     (seq,))  # fmt: skip
    with Journal(path) as journal:
        assert any(f"record {seq}" in m for m in journal.recovery)
        assert journal.snapshot() is not None
        assert Game(ULTIME, journal=journal).state == at_snapshot


@pytest.mark.parametrize("at_open", [True, False], ids=["at open", "deferred"])
def test_damage_before_the_snapshot_is_found_by_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_open: bool
) -> None:
    """A short game's covered records are checked at open; a long one's just after (here: as
    if the game were long). Either way the damage is reported and shown once, nothing is set
    aside, and the history leaves the damaged record out."""
    if not at_open:
        monkeypatch.setattr(bank.services.journal, "AUDIT_AT_OPEN", 0)
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        live = Game(ULTIME, journal=journal)
        _play_ultime(live, random.Random(6), 40)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE records SET at = at + 1 WHERE seq = 3")
    with Journal(path) as journal:
        resumed = Game(ULTIME, journal=journal)  # from the snapshot: the game is whole
        assert resumed.state == live.state and resumed.seq == live.seq
        found = [m for m in journal.recovery if "before the snapshot" in m]
        if not at_open:
            assert found == []
            found = journal.audit()
        assert len(found) == 1 and "damaged or edited: 3)" in found[0]
        assert journal.audit() == []  # once
        assert [d.what for d in journal.damage()] == found  # shown until acknowledged
        assert sum(1 for _ in journal.records()) == live.seq - 1
        assert journal.acknowledge_damage() == 1
    with Journal(path) as journal:  # the record is still damaged: found, not shown again
        Game(ULTIME, journal=journal)
        journal.audit()
        assert journal.damage() == []


def test_a_snapshot_of_another_shape_over_damage_sets_the_tail_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot cannot stand for the damaged record when this code cannot read it: the
    game is then checked and replayed as without snapshots (the damaged record and those
    after it set aside, and counted as lost)."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        live = Game(ULTIME, journal=journal)
        live.start((1, 2))
        for _ in range(6):
            live.execute(PassGo(1))
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE records SET at = at + 1 WHERE seq = 4")
    old = snapshot.state_version()
    monkeypatch.setattr(bank.engine.game, "state_version", lambda *_: old + "-next")
    with Journal(path) as journal:
        resumed = Game(ULTIME, journal=journal)
        assert resumed.seq == 3  # records 4 to 7 set aside
        assert journal.lost == 4


def test_a_script_stop_writes_the_snapshot_the_next_run_resumes_from(tmp_path: Path) -> None:
    """Through the unit: ``ultibank script`` ends with a clean stop, which writes a snapshot
    of the whole game; a second script goes on from it with the same state."""
    example = Path(__file__).parents[2] / "docs" / "example-game.tap"
    data = tmp_path / "data"
    first, second = io.StringIO(), io.StringIO()
    assert run_script(example, "ultime-fr", data, tmp_path / "one.json", first) == 0
    path = data / "journal.sqlite"
    with Journal(path) as journal:
        snap = journal.snapshot()
        records = sum(1 for _ in journal.records())
        journal.before_close.clear()
    assert snap is not None and snap.count == records > 0
    empty = tmp_path / "empty.tap"
    empty.write_text("wait 1\n")
    assert run_script(empty, None, data, tmp_path / "two.json", second) == 0
    assert (tmp_path / "two.json").read_text() == (tmp_path / "one.json").read_text()


def test_the_audit_runs_in_its_own_thread_and_reports_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bank.services.journal, "AUDIT_AT_OPEN", 0)  # as for a long game
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        live = Game(CLASSIC, journal=journal)
        _play_classic(live, random.Random(9), 40)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE records SET payload = payload || ' ' WHERE seq = 5")
    with Journal(path) as journal:
        resumed = Game(CLASSIC, journal=journal)
        assert resumed.state == live.state  # the snapshot holds what record 5 did
        journal.start_audit()
        found = journal.audit()  # waits for the thread
        assert len(found) == 1 and "damaged or edited: 5)" in found[0]
        assert journal.audit_ready() and journal.audit() == []
        # the history reads the game, without the damaged record
        assert sum(1 for _ in journal.records()) == live.seq - 1


def test_closing_stops_a_running_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bank.services.journal, "AUDIT_AT_OPEN", 0)  # as for a long game
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _play_ultime(Game(ULTIME, journal=journal), random.Random(2), 60)
    journal = Journal(path)
    Game(ULTIME, journal=journal)
    journal.start_audit()
    journal.close()  # joins the thread; nothing left running
    assert journal.audit_ready()


def test_an_idle_daemon_writes_a_snapshot(tmp_path: Path) -> None:
    """The daemon's idle hook snapshots a changed game, so a crash after a quiet moment
    replays nothing; the audit started at power on is collected there too."""
    settings = load_settings(None, [f'game.data_dir="{tmp_path}"', 'game.edition="ultime-fr"'])
    rt = Runtime(settings)
    rt.start(control=False)
    try:
        rt.daemon.call(lambda: rt.game.start((1, 2)))
        rt.daemon.call(lambda: rt.game.execute(Land(1, 3)))
        rt.daemon.call(rt._checkpoint)
        count = rt.game.seq
        state = rt.game.state
        assert rt.journal is not None
        rt.journal.before_close.clear()  # as a crash would: no snapshot at the stop
    finally:
        rt.stop()
    with Journal(tmp_path / "journal.sqlite") as journal:
        snap = journal.snapshot()
        assert snap is not None and snap.count == count == 2
        assert Game(ULTIME, journal=journal).state == state


def test_undo_trail_of_rolls_comes_through_a_snapshot(tmp_path: Path) -> None:
    """Classic rolls made after an undoable transaction are replayed by its undo (the undo
    trail); a snapshot taken between them and the undo carries that trail."""
    path = tmp_path / "journal.sqlite"
    live = Game(CLASSIC)
    journal = Journal(path)
    game = Game(CLASSIC, journal=journal)
    for g in (live, game):
        g.start((1, 2))
        g.execute(cc.GoToJail(2))
        g.execute(cc.RollDice(2, (1, 2)))  # a jail try, replayed by the undo
    assert game.save_snapshot()
    _power_cut(journal)
    with Journal(path) as journal:
        snap = journal.snapshot()
        assert snap is not None and snap.count == live.seq
        resumed = Game(CLASSIC, journal=journal)
        assert resumed.state == live.state and resumed.undo_available
        resumed.execute(Undo())
        live.execute(Undo())
        assert resumed.state == live.state
        assert not live.state.player(2).jailed  # type: ignore[union-attr]


class _Screens:
    """A panel that keeps the names of the screens it is shown."""

    def __init__(self) -> None:
        self.shown: list[Screen] = []

    def start(self, post: Callable[[Input], None]) -> None:
        pass

    def show(self, screen: Screen) -> None:
        self.shown.append(screen)

    def play(self, cue: Cue) -> None:
        pass

    def close(self) -> None:
        pass


def test_damage_the_audit_finds_is_shown_on_the_panels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record before the snapshot edited while the daemon was stopped: the game resumes from
    the snapshot at once, and the audit that follows shows *Journal abîmé* on every panel (until
    acknowledged), puts it in ``state``'s journal loss and says which record on stderr."""
    monkeypatch.setattr(bank.services.journal, "AUDIT_AT_OPEN", 0)  # as for a long game
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _play_ultime(Game(ULTIME, journal=journal), random.Random(6), 40)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE records SET at = at + 1 WHERE seq = 4")
    settings = load_settings(None, [f'game.data_dir="{tmp_path}"', 'game.edition="ultime-fr"'])
    rt = Runtime(settings)
    panel = _Screens()
    rt.add_panel(panel)
    rt.start(control=False)
    try:
        assert rt.journal is not None
        for _ in range(500):  # the audit runs in its own thread
            if rt.journal.audit_ready():
                break
            time.sleep(0.01)
        rt.daemon.call(rt._checkpoint)  # what the daemon does when idle
        assert panel.shown[-1].name == "damage"
        assert any("Journal" in line for line in panel.shown[-1].lines)
        assert any("before the snapshot" in m for m in rt.journal_loss)  # `state` says it
    finally:
        rt.stop()
    assert "journal audit" in capsys.readouterr().err
