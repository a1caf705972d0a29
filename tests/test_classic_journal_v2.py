"""A classic journal written before outcomes were journalled (tests/fixtures/journal_classic_v2/,
records of schema 2) still reads, and tells the same history word for word: each record's
outcome is derived once at read time by the upcaster of outcome version 0."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bank.app.runtime import Runtime
from bank.engine.events import apply
from bank.engine.game import Game
from bank.engine.records import Record, decode, decode_entries, derive_outcome, outcome_of
from bank.engine.state import GameState
from bank.rulesets import find
from bank.rulesets.classic import outcomes as o
from bank.services.journal import Journal
from bank.services.settings import load_settings
from bank.views.narrate import narrator_for
from bank.views.web import _SnapshotBuilder
from board_assets import load_edition
from tests.support.exports import without

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "journal_classic_v2"
EDITION = load_edition("classic-fr")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    shutil.copy(FIXTURE / "journal.sqlite", tmp_path / "journal.sqlite")
    return tmp_path


def records_of(data_dir: Path) -> list[Record]:
    with Journal(data_dir / "journal.sqlite") as journal:
        return decode_entries(journal.entries(1))


def test_the_fixture_holds_classic_records_without_outcomes(data_dir: Path) -> None:
    records = records_of(data_dir)
    assert {r.schema for r in records} == {2}
    assert {r.ruleset for r in records} == {"classic"}
    assert all(r.stored_outcome is None and r.outcome is None for r in records)


@pytest.mark.parametrize(
    "key",
    [
        "show 1 --lang fr",
        "show 1 --lang en",
        "export 1 --json --lang fr",
        "export 1 --csv --lang en",
    ],
)
def test_history_tells_the_old_game_as_the_old_ultibank_did(data_dir: Path, key: str) -> None:
    want = json.loads((FIXTURE / "history.json").read_text(encoding="utf-8"))[key]
    cli = [sys.executable, "-m", "bank.app.cli", "history", *key.split(), "--data-dir"]
    got = subprocess.run(
        [*cli, str(data_dir)],
        env=dict(os.environ, TZ="UTC"),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    if key.startswith("export"):  # the outcome column was added since
        assert without(got, ("outcome",)) == want
        assert got != want
    else:
        assert got == want


def test_the_web_view_tells_the_old_game_as_the_history_did(data_dir: Path) -> None:
    """A daemon resumes the old game; its web view lists the last transactions with the words
    the old ultibank's history wrote for them."""
    shown = json.loads((FIXTURE / "history.json").read_text(encoding="utf-8"))["show 1 --lang fr"]
    # each line: number, date, time, then "title — detail"
    lines = [re.sub(r"^\s*\d+  \S+ \S+  ", "", line) for line in shown.splitlines() if line]
    settings = load_settings(
        None, [f'game.data_dir="{data_dir}"', 'game.edition="classic-fr"', 'unit.language="fr"']
    )
    rt = Runtime(settings)
    rt.start(control=False)
    try:
        snap = rt.daemon.call(_SnapshotBuilder(rt).snapshot)
    finally:
        rt.stop()
    listed = [
        f"{t['title']} — {t['detail']}" if t["detail"] else t["title"]
        for t in reversed(snap["transactions"])
    ]
    assert len(listed) == 12 and lines[0] == "Nouvelle partie : chien, voiture, chapeau"
    assert listed == lines[-len(listed) :]


def test_the_upcaster_of_version_0_gives_each_record_its_outcome(data_dir: Path) -> None:
    """Every record but the undo gets the outcome the rules gave it then: the very outcome a
    new record stores (the rules decide it again on the state it started from)."""
    rules = find("classic").rules(EDITION, None)
    state = GameState.empty(EDITION)
    kinds = []
    for record in records_of(data_dir):
        outcome = outcome_of(record, state, rules)
        if record.name == "undo":
            assert outcome is None
        else:
            assert outcome is not None, record.name
            kinds.append(outcome.kind)
        state = apply(state, record.events)
    assert {"game_started", "bought", "rent", "sold", "built", "building_sold", "go", "tax",
            "paid", "received", "jail", "dice", "jail_out", "mortgaged", "traded", "interest",
            "lifted", "card_done", "bankrupt"} <= set(kinds)  # fmt: skip


def test_a_record_that_the_rules_now_decide_otherwise_is_read_from_its_events(
    data_dir: Path,
) -> None:
    """The upcaster never takes the rules' word over the record's: when the rules give other
    events than the record's (rules changed since), its outcome is what its events show (the
    classic codec's reading of them), and without that reading it has none."""
    records = records_of(data_dir)
    rules = find("classic").rules(EDITION, None)
    state = GameState.empty(EDITION)
    for record in records[:2]:
        state = apply(state, record.events)
    buy = records[2]  # chien buys 2 Rue Lecourbe for 60
    assert isinstance(derive_outcome(buy, state, rules), o.Bought)
    # the same landing, stored with no purchase in its events: the rules would buy
    other = decode(
        {
            "v": 2,
            "ruleset": "classic",
            "edition": EDITION.id,
            "command": buy.command.to_dict(),
            "events": [],
            "undo_group": 3,
        }
    )
    assert derive_outcome(other, state, rules) is None  # no edition: no reading of events
    assert derive_outcome(other, state, rules, EDITION) == o.Short(1, 60, 2)
    assert narrator_for(EDITION, "en").title(other, state) == (
        "dog lands on 2 Rue Lecourbe and cannot buy it"
    )


def test_a_new_record_of_the_same_game_stores_what_the_upcaster_derives(
    data_dir: Path,
) -> None:
    """Decided today, the same commands journal their outcome; the upcaster of an old record
    gives exactly that outcome, and both tell the same words."""

    old = records_of(data_dir)
    game = Game(EDITION)
    narrator = narrator_for(EDITION, "fr")
    rules = find("classic").rules(EDITION, None)
    for record in old:
        before = game.state
        tx = game.execute(record.command)
        assert tx.events == record.events
        new = decode(tx.to_record(EDITION.id, "classic"))
        assert new.outcome == outcome_of(record, before, rules)
        assert narrator.words(new, before) == narrator.words(record, before)
