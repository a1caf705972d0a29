"""An undo's outcome is a fact (issue 18, point 1): ``Undone``, the outcomes of the transactions
it cancelled, first one first, journalled with the undo through the ruleset's codec and read
back; kept by the game with the undo group (in its snapshot too), so that an undo after a
resume, from a snapshot or a whole replay, says what it undid exactly as without the power
cut; and an undo journalled before (no outcome stored) is given one by its upcaster."""

from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from bank.app.script import run_script
from bank.engine.commands import Land, Undo
from bank.engine.errors import BankError
from bank.engine.game import Game
from bank.engine.records import decode, decode_entries, derive_undone, outcome_of, undone_by
from bank.engine.ruleset import Undone
from bank.rulesets import find
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as co
from bank.rulesets.classic.screens import undone_words
from bank.rulesets.ultime import outcomes as uo
from bank.services.journal import Journal
from bank.views.history import outcomes
from bank.views.narrate import narrator_for
from board_assets import load_edition
from tests.rulesets.classic_support import new_game, random_classic_command

CLASSIC = load_edition("classic-fr")
ULTIME = load_edition("ultime-fr")


class PlainJournal:
    """A journal that keeps no snapshots: a resume replays every record."""

    def __init__(self) -> None:
        self.kept: list[dict[str, Any]] = []

    def append(self, record: dict[str, Any]) -> int:
        self.kept.append(json.loads(json.dumps(record)))  # as stored: JSON, read back
        return len(self.kept)

    def records(self) -> Any:
        return iter(self.kept)

    def new_game(self, meta: dict[str, Any]) -> int:
        self.kept = []
        return 1


def test_a_classic_undo_journals_the_outcomes_it_undid(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        game = Game(CLASSIC, journal=journal)
        game.start([1, 2])
        game.execute(c.Visit(1, 28))  # buys Rue de la Paix
        rent = game.execute(c.Visit(2, 28)).outcome  # pays the rent
        tx = game.execute(Undo())
        records = decode_entries(journal.entries())
    assert isinstance(rent, co.RentPaid)
    assert tx.outcome == Undone((rent,))
    undo = records[-1]
    assert undo.stored_outcome is not None and undo.stored_outcome["k"] == "undone"
    assert undo.outcome == Undone((rent,))  # read back through the classic codec
    words = undone_words(undo.outcome)  # the screen: `Annulé : loyer` / `voiture → chien 50 €`
    assert words is not None and words[:2] == ("money", None)
    paid = words[2]
    assert paid is not None and (paid.payer, paid.payee, paid.reason) == (2, 1, "rent")


def test_an_ultime_undo_journals_the_outcome_it_undid() -> None:
    journal = PlainJournal()
    game = Game(ULTIME, journal=journal)
    game.start([1, 2])
    bought = game.execute(Land(1, 1)).outcome
    game.execute(Undo())
    undo = decode(journal.kept[-1])
    assert isinstance(bought, uo.Bought)
    assert undo.outcome == Undone((bought,))


def test_the_steps_that_joined_the_group_are_undone_with_it_first_one_first() -> None:
    game = Game(CLASSIC, journal=PlainJournal())
    game.start([1, 2])
    game.execute(c.Visit(1, 28))  # buys Rue de la Paix
    game.execute(c.Visit(2, 1))  # buys deed 1
    game.execute(c.PayBank(2, 1_400))  # leaves 40
    rent = game.execute(c.Visit(2, 28)).outcome  # 50: 40 paid, 10 owed
    assert isinstance(rent, co.RentPaid) and rent.owed == 10
    mortgaged = game.execute(c.Mortgage(2, 1, for_debt=True)).outcome  # settles it
    assert isinstance(mortgaged, co.Mortgaged) and mortgaged.debt_settled == 2
    done = game.execute(Undo()).outcome
    assert done == Undone((rent, mortgaged))
    assert undone_words(done) is not None
    assert undone_words(done)[0] == "money"  # the rent: what the player did


@pytest.mark.parametrize("keeps_snapshots", [True, False])
def test_an_undo_after_a_resume_says_what_it_undid_as_without_the_power_cut(
    tmp_path: Path, keeps_snapshots: bool
) -> None:
    def play(game: Game) -> None:
        game.start([1, 2])
        game.execute(c.Visit(1, 28))
        game.execute(c.PayBank(2, 1_600))  # a fine: 1,500 paid, 100 owed

    straight = Game(CLASSIC, journal=PlainJournal())
    play(straight)
    expected = straight.execute(Undo()).outcome
    assert isinstance(expected, Undone)
    fine = expected.first
    assert isinstance(fine, co.PaidBank) and (fine.amount, fine.owed) == (1_600, 100)

    if keeps_snapshots:
        with Journal(tmp_path / "journal.sqlite") as journal:
            play(Game(CLASSIC, journal=journal))
            assert Game(CLASSIC, journal=journal).save_snapshot()  # then the power cut
        with Journal(tmp_path / "journal.sqlite") as journal:
            assert journal.snapshot() is not None
            resumed = Game(CLASSIC, journal=journal)
            assert resumed.execute(Undo()).outcome == expected
    else:
        plain = PlainJournal()
        play(Game(CLASSIC, journal=plain))
        resumed = Game(CLASSIC, journal=plain)  # replayed whole
        assert resumed.execute(Undo()).outcome == expected


START = "tap bank:1\ntap bank:2\npress ok\n"
UNDO = "hold ok+cancel 5\n"


def _screens(tmp_path: Path, name: str, body: str, data: Path) -> list[str]:
    script = tmp_path / f"{name}.tap"
    script.write_text(body, encoding="utf-8")
    out = io.StringIO()
    assert run_script(script, edition="classic-fr", data_dir=data, out=out) == 0
    return [
        line.split(" | ", 1)[1] for line in out.getvalue().splitlines() if " screen undo " in line
    ]


@pytest.mark.parametrize(
    "before",
    [
        "tap deed:28\ntap bank:1\n",  # a purchase
        "tap deed:28\ntap bank:1\ntap deed:28\ntap bank:2\n",  # a rent
        "press menu\nkey 5\ntap bank:2\nkey 1600\npress ok\n",  # a fine that opened a debt
    ],
)
def test_the_unit_after_a_power_cut_shows_the_same_undo_screen(tmp_path: Path, before: str) -> None:
    whole = _screens(tmp_path, "whole", START + before + UNDO, tmp_path / "one")
    _screens(tmp_path, "first", START + before, tmp_path / "two")
    after_cut = _screens(tmp_path, "second", UNDO, tmp_path / "two")
    assert len(whole) == 1 and whole[0].startswith("Annulé : ")
    assert after_cut == whole


def test_an_undo_journalled_without_its_outcome_is_told_as_before() -> None:
    """An undo record as written until its outcome was journalled (schema 3, no outcome):
    its upcaster reads what it undid from its events, the history says it word for word,
    and the unit's screen words are those of the undo journalled today."""
    journal = PlainJournal()
    game = Game(CLASSIC, journal=journal)
    game.start([1, 2])
    game.execute(c.Visit(1, 28))
    game.execute(c.Visit(2, 28))
    before = game.state
    today = game.execute(Undo()).outcome
    old = dict(journal.kept[-1])
    del old["outcome"]
    record = decode(old)
    assert not record.stores_outcome and record.outcome is None
    derived = outcome_of(record, before, None, CLASSIC)
    assert isinstance(derived, Undone) and isinstance(today, Undone)
    assert undone_words(derived) == undone_words(today)
    assert derive_undone(record, before) == Undone()  # without the edition: no reading
    for lang, words in (("fr", "Annulation"), ("en", "Undo")):
        narrator = narrator_for(CLASSIC, lang)
        assert narrator.title(record, before) == words
        assert narrator.title(decode(journal.kept[-1]), before) == words


def test_an_old_ultime_undo_is_named_as_before() -> None:
    journal = PlainJournal()
    game = Game(ULTIME, journal=journal)
    game.start([1, 2])
    game.execute(Land(1, 1))
    before = game.state
    game.execute(Undo())
    old = dict(journal.kept[-1])
    del old["outcome"]
    old["v"] = 2
    record = decode(old)
    assert outcome_of(record, before, find("ultime").rules(ULTIME, None), ULTIME) == Undone()
    assert narrator_for(ULTIME, "fr").title(record, before) == "Annulation"
    assert narrator_for(ULTIME, "en").title(decode(journal.kept[-1]), before) == "Undo"


def test_the_classic_screen_names_a_trade_by_its_first_deed() -> None:
    traded = co.Traded(1, 0, 2, (), (3, 5))
    assert undone_words(Undone((traded,))) == ("traded", 3, None)
    # a purchase anywhere in the group wins over the steps before it
    told = undone_words(Undone((co.Received(1, 100), co.Bought(1, 60, 2, False))))
    assert told == ("bought", 2, None)
    assert undone_words(Undone()) is None


@pytest.mark.parametrize("edition", ["classic-fr", "mega-fr", "starwars-ep2-fr"])
def test_the_journalled_undo_says_what_its_events_said_before(edition: str) -> None:
    """Random classic games (no dice: an undo replays none): after every undo, the screen
    words read from the journalled outcome are those the upcaster reads from the undo's
    events, as the unit's screen read them before the undo's outcome was journalled."""
    rnd = random.Random(edition)
    undos = 0
    for _ in range(12):
        game = new_game(rnd.randint(2, 4), edition)
        for _ in range(250):
            undo = rnd.random() < 0.08
            command = Undo() if undo else random_classic_command(rnd, game, rolls=False)
            before = game.state
            try:
                tx = game.execute(command)
            except BankError:
                continue
            if not undo:
                continue
            undos += 1
            stored = tx.to_record(game.edition.id, "classic")
            assert isinstance(tx.outcome, Undone)
            assert decode(stored).outcome == tx.outcome
            del stored["outcome"]  # as written until then
            old = derive_undone(decode(stored), before, game.edition)
            assert undone_words(tx.outcome) == undone_words(old), tx.outcome
    assert undos >= 20


def test_an_undone_outcome_that_cannot_be_read_still_lets_the_undo_undo() -> None:
    journal = PlainJournal()
    game = Game(CLASSIC, journal=journal)
    game.start([1, 2])
    game.execute(c.Visit(1, 28))
    journal.kept[-1]["outcome"] = {"k": "no such kind"}
    resumed = Game(CLASSIC, journal=journal)
    done = resumed.execute(Undo()).outcome
    assert done == Undone()  # it names nothing it cannot read
    owner = resumed.state.prop(28).owner
    assert owner is None  # and the purchase is undone


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("fixture", "edition"), [("journal_v1", "ultime-fr"), ("journal_classic_v2", "classic-fr")]
)
def test_an_old_undo_reads_the_outcomes_of_the_records_it_undid(
    tmp_path: Path, fixture: str, edition: str
) -> None:
    """The frozen journals written before outcomes: a reader that reads the game in order
    (the export's outcome column) gives each undo the outcomes of the records it undid, the
    transaction and the steps that joined it (the Ultime one: a rent and the properties given
    up to pay it)."""
    shutil.copy(ROOT / "tests" / "fixtures" / fixture / "journal.sqlite", tmp_path / "j.sqlite")
    with Journal(tmp_path / "j.sqlite") as journal:
        records = decode_entries(journal.entries())  # the game the undo was made in
    ed = load_edition(edition)
    told = outcomes(records, ed)
    codec = find(ed.ruleset).outcomes
    assert codec is not None
    undos = [i for i, r in enumerate(records) if r.name == "undo"]
    assert undos
    for i in undos:
        group = undone_by(records, i)
        assert group and all(told[k] is not None for k in group)
        undone = told[i]
        assert undone is not None and undone["k"] == "undone"
        assert undone["outcomes"] == [told[k] for k in group]
        if fixture == "journal_v1":
            assert len(group) > 1  # the rent, then what was given up to pay it
