"""Journal records: the ruleset and schema they carry, the one decoder that reads them back,
and a journal written by an older ultibank (tests/fixtures/journal_v1/) that still opens the
same way in ``ultibank history``, the web view, the chart and a resumed daemon."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.app.runtime import Runtime
from bank.engine.commands import GiveProperty, Land, NewGame, Undo
from bank.engine.errors import BankError
from bank.engine.events import SCHEMA_VERSION, MoneyMoved
from bank.engine.game import Game
from bank.engine.records import (
    LEGACY_RULESET,
    Record,
    RecordError,
    RecordList,
    decode,
    decode_entries,
    last_undo_group,
)
from bank.services.journal import Journal
from bank.services.settings import load_settings
from bank.views.charts import wealth_series
from bank.views.web import _SnapshotBuilder
from board_assets import load_edition
from tests.support.exports import without
from tests.support.fakes import MemoryJournal

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "journal_v1"
EDITION = load_edition("ultime-fr")


def expected(name: str) -> Any:
    return json.loads((FIXTURE / name).read_text(encoding="utf-8"))


@pytest.fixture
def old_journal(tmp_path: Path) -> Path:
    """A data directory holding a copy of the version-1 journal."""
    shutil.copy(FIXTURE / "journal.sqlite", tmp_path / "journal.sqlite")
    return tmp_path


@pytest.fixture
def runtime(old_journal: Path) -> Iterator[Runtime]:
    """A daemon started on the old journal (no readers, panels or socket)."""
    settings = load_settings(None, [f'game.data_dir="{old_journal}"'])
    rt = Runtime(settings)
    rt.start(control=False)
    try:
        yield rt
    finally:
        rt.stop()


# ---------------------------------------------------------------------- the old journal


def test_the_fixture_is_a_version_1_journal(old_journal: Path) -> None:
    with Journal(old_journal / "journal.sqlite") as journal:
        rows = [e for g in journal.games() for e in journal.entries(g.id)]
    assert {e.version for e in rows} == {1}
    assert not any("ruleset" in e.record for e in rows)


def test_history_reads_the_old_journal_as_before(old_journal: Path) -> None:
    env = dict(os.environ, TZ="UTC")
    cli = [sys.executable, "-m", "bank.app.cli", "history"]
    for args, text in expected("history.json").items():
        out = subprocess.run(
            [*cli, *args.split(), "--data-dir", str(old_journal)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0, out.stderr
        if args.startswith("export"):  # the words and the outcome were added since
            assert without(out.stdout, ("text", "outcome")) == text, args
            assert without(out.stdout, ()) != text, args
        else:
            assert out.stdout == text, args


def test_the_old_journals_exports_tell_each_outcome_in_words(old_journal: Path) -> None:
    """The exports of the version-1 journal gained the Ultime words (the web view's, from the
    outcome each record is read with) and that outcome, derived through the upcaster of
    version 0 since no record of that journal stores one."""
    env = dict(os.environ, TZ="UTC")
    cli = [sys.executable, "-m", "bank.app.cli", "history", "export", "2", "--json"]
    out = subprocess.run(
        [*cli, "--lang", "fr", "--data-dir", str(old_journal)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = {row["seq"]: row for row in json.loads(out)}
    web = expected("web.json")["fr"]["transactions"]
    seqs = [row["seq"] for row in json.loads(out)]
    for shown in web:  # the web view's last records, by their number in the game
        row = rows[seqs[shown["n"] - 1]]
        words = f"{shown['title']} — {shown['detail']}" if shown["detail"] else shown["title"]
        assert row["text"] == words
    kinds = [row["outcome"]["k"] if row["outcome"] else None for row in json.loads(out)]
    assert kinds[-4:] == ["rent_paid", "debt_settled", "debt_settled", "debt_settled"]
    assert all(kind is not None for kind, row in zip(kinds, json.loads(out), strict=True)
               if row["command"] != "undo")  # fmt: skip


def test_the_chart_reads_the_old_journal_as_before(old_journal: Path) -> None:
    with Journal(old_journal / "journal.sqlite") as journal:
        for game, series in expected("chart.json").items():
            stored = list(journal.records(int(game)))
            decoded = decode_entries(journal.entries(int(game)))
            for records in (stored, decoded):
                got = dataclasses.asdict(wealth_series(EDITION, records))
                # the marks were added since: read from the outcomes the upcaster of version
                # 0 derives (the rent that bankrupted the boat ended game 1)
                marks = list(got.pop("marks"))
                assert json.loads(json.dumps(got)) == series
                ended = [
                    {"step": 22, "kind": "eliminated", "card": 3},
                    {"step": 22, "kind": "game_over", "card": 1},
                ]
                ended = ended if game == "1" else []
                assert marks == ended


def test_a_daemon_resumes_the_old_game(runtime: Runtime) -> None:
    state = runtime.state()
    assert state["screen"] is not None
    want = expected("state.json")  # the state file of the script that wrote the journal
    assert {key: state[key] for key in want} == want


def test_the_web_view_reads_the_old_journal_as_before(runtime: Runtime) -> None:
    snap = runtime.daemon.call(_SnapshotBuilder(runtime).snapshot)
    want = expected("web.json")["fr"]
    assert snap["transactions"] == want["transactions"]
    assert (snap["seq"], snap["game_id"], snap["undo_available"]) == (
        want["seq"],
        want["game_id"],
        want["undo_available"],
    )
    # the undo group of the last rent spans the rent and the three properties given up
    assert [t["undoable"] for t in snap["transactions"][:5]] == [True] * 4 + [False]


def test_an_old_game_goes_on_with_new_records(runtime: Runtime, old_journal: Path) -> None:
    """New records name their ruleset beside the old ones; undo reaches across both."""
    runtime.daemon.call(lambda: runtime.game.execute(Land(1, 5)))  # car buys #5 (unowned)
    runtime.stop()
    with Journal(old_journal / "journal.sqlite") as journal:
        entries = list(journal.entries())
    assert [e.version for e in entries[-2:]] == [1, SCHEMA_VERSION]
    assert entries[-1].record["ruleset"] == "ultime"
    records = decode_entries(entries)
    assert {r.ruleset for r in records} == {"ultime"}
    assert [r.schema for r in records[-2:]] == [1, SCHEMA_VERSION]
    # the new record carries its outcome; the old one has none stored
    assert records[-1].outcome is not None and records[-1].outcome.kind == "bought"
    assert records[-2].stored_outcome is None
    with Journal(old_journal / "journal.sqlite") as journal:
        game = Game(EDITION, journal=journal)
        bought = game.state.player(1).balance
        game.execute(Undo())
        assert game.state.player(1).balance == bought + EDITION.prop(5).price
        assert game.state.prop(5).owner is None


# ---------------------------------------------------------------------- the decoder


def _game_records(*commands: Any) -> list[dict[str, Any]]:
    game = Game(EDITION)
    return [game.execute(c).to_record(EDITION.id) for c in commands]


def test_records_carry_their_ruleset_and_schema() -> None:
    (raw,) = _game_records(NewGame((1, 2)))
    assert (raw["v"], raw["ruleset"], raw["edition"]) == (SCHEMA_VERSION, "ultime", "ultime-fr")
    record = decode(raw, number=1)
    assert (record.schema, record.ruleset, record.number) == (SCHEMA_VERSION, "ultime", 1)
    assert record.command == NewGame((1, 2))


def test_a_version_1_record_is_an_ultime_record() -> None:
    (raw,) = _game_records(NewGame((1, 2)))
    old = {k: v for k, v in raw.items() if k != "ruleset"} | {"v": 1}
    record = decode(old)
    assert (record.schema, record.ruleset) == (1, LEGACY_RULESET)


def test_a_record_of_another_ruleset_says_so() -> None:
    (raw,) = _game_records(NewGame((1, 2)))
    assert decode(raw | {"ruleset": "classic"}).ruleset == "classic"


def test_a_version_2_record_without_its_ruleset_is_refused() -> None:
    (raw,) = _game_records(NewGame((1, 2)))
    del raw["ruleset"]
    with pytest.raises(RecordError, match="record 4 cannot be read"):
        decode(raw, number=4)


def test_a_record_newer_than_this_code_is_refused() -> None:
    (raw,) = _game_records(NewGame((1, 2)))
    with pytest.raises(RecordError, match="upgrade ultibank"):
        decode(raw | {"v": SCHEMA_VERSION + 1})


@pytest.mark.parametrize(
    "broken",
    [
        {"command": {"name": "land"}, "events": []},  # a command without its fields
        {"command": {"name": "no_such"}, "events": []},
        {"command": {"name": "pass_go", "card": 1}, "events": [{"kind": "nope"}]},
        {"events": []},
        {"command": {"name": "pass_go", "card": 1}, "events": "money"},
    ],
)
def test_an_unreadable_record_is_named(broken: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="journal record 7 cannot be read"):
        decode(broken, number=7)


def test_decoded_events_are_the_engines_types() -> None:
    records = [decode(r) for r in _game_records(NewGame((1, 2)), Land(1, 22))]
    assert isinstance(records[1].events[0], MoneyMoved)
    assert records[1].arguments() == {"card": 1, "number": 22}
    assert records[1].event_dicts() == _game_records(NewGame((1, 2)), Land(1, 22))[1]["events"]


def _decoded(*commands: Any) -> list[Record]:
    return [decode(r, number=n) for n, r in enumerate(_game_records(*commands), 1)]


def test_the_last_undo_group() -> None:
    assert last_undo_group([]) == range(0)
    assert last_undo_group(_decoded(NewGame((1, 2)))) == range(0)  # a new game is not undone
    assert last_undo_group(_decoded(NewGame((1, 2)), Land(1, 22), Land(2, 3))) == range(2, 3)
    assert last_undo_group(_decoded(NewGame((1, 2)), Land(1, 22), Undo())) == range(0)


def test_the_undo_group_of_a_settled_debt_is_the_rent_and_the_properties_given() -> None:
    records = _decoded(  # as tests/scripts/g22_undo_settled_debt.tap
        NewGame((1, 2)),
        *(Land(1, 14) for _ in range(4)),  # car buys (240), then raises it to level 4
        *(Land(2, n) for n in (3, 4, 21, 22, 18)),  # helicopter has 250 left
        Land(2, 14),  # rent 610: 250 paid, 360 owed
        GiveProperty(2, 18),
        GiveProperty(2, 3),
    )
    assert records[-3].name == "land"
    assert last_undo_group(records) == range(len(records) - 3, len(records))


def test_a_game_of_another_ruleset_is_not_replayed_as_this_one() -> None:
    journal = MemoryJournal()
    Game(EDITION, journal=journal).execute(NewGame((1, 2)))
    journal.rows[0]["ruleset"] = "classic"
    with pytest.raises(BankError, match="'classic' rules"):
        Game(EDITION, journal=journal)


def test_the_game_writes_its_rulesets_name() -> None:
    journal = MemoryJournal()
    game = Game(EDITION, journal=journal)
    game.execute(NewGame((1, 2)))
    assert [r["ruleset"] for r in journal.rows] == [game.ruleset_name] == ["ultime"]


def test_a_record_list_decodes_what_is_read_and_numbers_it_in_its_game(old_journal: Path) -> None:
    with Journal(old_journal / "journal.sqlite") as journal:
        entries = list(journal.entries(2))
    broken = dataclasses.replace(entries[0], record={"v": 1, "events": []})
    records = RecordList([broken, *entries[1:5]])
    assert records[-1].number == 5 and records[-1].seq == entries[4].seq  # the tail reads
    with pytest.raises(RecordError, match="journal record 1 cannot be read"):
        records[0]
    longer = records.extended(entries[5:7])
    assert [r.number for r in longer[1:]] == [2, 3, 4, 5, 6, 7]
    assert len(records) == 5  # the shorter list is unchanged
