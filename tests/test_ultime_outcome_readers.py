"""An Ultime game's readers tell its journalled outcomes (issue 18, point 1): the web view's
titles, the voice and the history's words come from the outcome each record stores, read
through the Ultime codec and its upcasters, never from the command."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from bank.cli import main
from bank.engine.commands import AuctionSale, Land, NewGame, Undo
from bank.engine.events import apply
from bank.engine.game import Game
from bank.engine.records import Record, decode, decode_entries
from bank.engine.state import GameState
from bank.rulesets import find
from bank.rulesets.ultime import outcomes as o
from bank.rulesets.ultime.commands import GoToJail, LeaveJail, PassGo, PayLocation
from bank.services.journal import Journal
from bank.views.narrate import narrator_for
from bank.views.speech import Announcer
from board_assets import load_edition

ULTIME = load_edition("ultime-fr")
ROOT = Path(__file__).resolve().parent.parent


def _played(*commands: Any) -> tuple[list[Record], list[GameState]]:
    """The records of *commands* as the journal stores them, and the state each started from."""
    game = Game(ULTIME)
    records, befores = [], []
    for command in commands:
        befores.append(game.state)
        raw = game.execute(command).to_record(ULTIME.id, "ultime")
        records.append(decode(raw, number=len(records) + 1))
    return records, befores


def _with_outcome(record: Record, stored: dict[str, Any]) -> Record:
    raw = {
        "v": record.schema,
        "ruleset": record.ruleset,
        "edition": record.edition,
        "command": record.command.to_dict(),
        "events": record.event_dicts(),
        "outcome": stored,
        "undo_group": record.undo_group,
    }
    return decode(raw, number=record.number)


def test_every_ultime_title_is_told_from_the_outcome() -> None:
    records, befores = _played(
        NewGame((1, 2)),
        Land(1, 1),  # car buys
        Land(2, 1),  # helicopter pays the rent
        Land(1, 1),  # car on its own: the level rises
        PassGo(2),
        PayLocation(2),
        GoToJail(1),
        LeaveJail(1, True),
        AuctionSale(2, 3, 40),
        Undo(),
    )
    fr, en = narrator_for(ULTIME, "fr"), narrator_for(ULTIME, "en")
    titles = [fr.title(r, b) for r, b in zip(records, befores, strict=True)]
    assert titles == [
        "Nouvelle partie : voiture, hélicoptère",
        "voiture arrive sur #1 Boulevard de Belleville",
        "hélicoptère arrive sur #1 Boulevard de Belleville",
        "voiture arrive sur #1 Boulevard de Belleville",
        "hélicoptère passe par la case départ",
        "hélicoptère paie la Location",
        "voiture va en prison",
        "voiture sort de prison (paie l'amende)",
        "hélicoptère remporte #3 Rue de Vaugirard aux enchères pour 40",
        "Annulation",
    ]
    assert (
        en.title(records[8], befores[8])
        == "helicopter wins the auction of #3 Rue de Vaugirard for 40"
    )
    assert [type(r.outcome) for r in records[:4]] == [
        o.Started,
        o.Bought,
        o.RentPaid,
        o.LevelRaised,
    ]


def test_the_title_follows_the_journalled_outcome_not_the_command() -> None:
    """A record whose stored outcome says another player and deed than its command is told
    as its outcome says: the outcome is the fact."""
    records, befores = _played(NewGame((1, 2)), Land(1, 1))
    codec = find("ultime").outcomes
    assert codec is not None
    fr = narrator_for(ULTIME, "fr")
    bought = records[1].outcome
    assert isinstance(bought, o.Bought)
    told = _with_outcome(records[1], codec.encode(o.Bought(bought.happened, 3, 2, 60, False, 1)))
    assert fr.title(told, befores[1]) == "hélicoptère arrive sur #3 Rue de Vaugirard"
    started = _with_outcome(records[0], codec.encode(o.Started(o.Happened(), (2, 1))))
    assert fr.title(started, befores[0]) == "Nouvelle partie : hélicoptère, voiture"


def test_an_ultime_outcome_of_version_1_reads_its_card_from_the_command() -> None:
    """``started``, ``level`` and ``no_rent`` gained the cards they name in version 2; a
    version-1 outcome (journalled before) is upcast with its record's command."""
    records, befores = _played(NewGame((1, 2)), Land(1, 1), Land(1, 1))
    level = records[2].outcome
    assert isinstance(level, o.LevelRaised) and level.card == 1
    stored = dict(records[2].stored_outcome or {})
    assert stored.pop("v") == 2 and stored.pop("card") == 1
    old = _with_outcome(records[2], stored)  # as version 1 stored it
    assert old.outcome == level
    first = dict(records[0].stored_outcome or {})
    assert first.pop("v") == 2 and first.pop("cards") == [1, 2]
    assert _with_outcome(records[0], first).outcome == records[0].outcome
    fr = narrator_for(ULTIME, "fr")
    assert fr.title(old, befores[2]) == "voiture arrive sur #1 Boulevard de Belleville"


def test_the_voice_says_the_outcome() -> None:
    records, befores = _played(NewGame((1, 2)), Land(1, 1), Land(2, 1), AuctionSale(2, 3, 40))
    speaker = Announcer(ULTIME, "en")
    said = [speaker.transaction(r, b) for r, b in zip(records, befores, strict=True)]
    texts = [s.text if s is not None else None for s in said]
    # a purchase and a rent say the deed in their payment; an auction says its title alone
    assert texts[1] is not None and "buys Boulevard de Belleville" in texts[1]
    assert texts[2] is not None and "rent" in texts[2] and "lands on" not in texts[2]
    assert texts[3] is not None and texts[3].startswith("helicopter wins the auction")


ULTIME_SCRIPTS = [
    *sorted((ROOT / "tests" / "scripts").glob("*.tap")),
    ROOT / "docs" / "example-game.tap",
]


def test_the_outcome_read_from_the_events_is_the_journalled_one(tmp_path: Path) -> None:
    """The last step of the upcaster of version 0 for an Ultime record (one the rules no
    longer decide the same way: a game played under other decisions) reads the outcome from
    the events: for every Ultime scenario, every kind of transaction and event card, it is
    the outcome the rules journalled, and it tells the same words."""
    codec = find("ultime").outcomes
    assert codec is not None and codec.from_events is not None
    seen: set[str] = set()
    for n, script in enumerate(ULTIME_SCRIPTS):
        data = tmp_path / str(n)
        assert main(["script", str(script), "--data-dir", str(data)]) == 0
        with Journal(data / "journal.sqlite") as journal:
            records = decode_entries(journal.entries())
        fr = narrator_for(ULTIME, "fr")
        state = GameState.empty(ULTIME)
        for record in records:
            after = apply(state, record.events)
            read = codec.from_events(ULTIME, record, state, after)
            if record.name != "undo":
                assert read is not None and read == record.outcome, (script.name, record.number)
                seen.add(read.kind if not isinstance(read, o.EventPlayed) else read.effect)
                again = dataclasses.replace(
                    record, stored_outcome=codec.encode(read), _outcome=None
                )
                assert fr.words(again, state) == fr.words(record, state)
            state = after
    assert seen >= {
        "started", "bought", "rent_paid", "level", "salary", "jailed", "left_jail",
        "location_paid", "auction_sold", "debt_settled", "move", "group_up", "group_down",
        "reset_level", "max_level", "swap", "tax", "neighbours", "collect_pair", "cheap_rent",
        "jail_other", "side_up", "side_down", "gridlock",
    }  # fmt: skip


def test_an_outcome_that_cannot_be_read_is_named_by_its_command() -> None:
    """The web view and the voice go on: a record whose stored outcome does not read (a kind
    this ultibank does not know) is named by its command, the rest of the list is told."""
    records, befores = _played(NewGame((1, 2)), Land(1, 1))
    broken = _with_outcome(records[1], {"k": "no_such_kind"})
    fr = narrator_for(ULTIME, "fr")
    assert fr.words(broken, befores[1]) == ("land", "voiture → banque 60 (achat); #1 → voiture")
