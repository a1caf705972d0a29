"""The outcome is journalled with its transaction (record schema 3): stored compactly through
its ruleset's codec, read back typed, each kind versioned with an upcaster chain, and read
through the journal by every reader (the history, the web view, the voice)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bank.engine.commands import Land, NewGame, Undo
from bank.engine.events import SCHEMA_VERSION
from bank.engine.game import Game
from bank.engine.records import RecordError, decode, decode_entries
from bank.engine.ruleset import Outcome, OutcomeCodec, OutcomeError
from bank.rulesets import find
from bank.rulesets.classic import outcomes as co
from bank.rulesets.ultime import outcomes as uo
from bank.services.journal import Journal
from board_assets import load_edition

ULTIME = load_edition("ultime-fr")


def test_every_transaction_journals_its_outcome(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        game = Game(ULTIME, journal=journal)
        game.start([1, 2])
        game.execute(Land(1, 1))  # buys
        game.execute(Land(2, 1))  # pays the rent
        game.execute(Undo())
        records = decode_entries(journal.entries())
    assert [r.schema for r in records] == [SCHEMA_VERSION] * 4
    assert [type(r.outcome) for r in records] == [uo.Started, uo.Bought, uo.RentPaid, type(None)]
    rent = records[2].outcome
    assert isinstance(rent, uo.RentPaid)
    assert (rent.payer, rent.owner, rent.paid, rent.level) == (2, 1, 70, 2)
    assert rent.happened.money_moved and not rent.happened.jailed
    assert records[3].stored_outcome is None  # an undo stores none
    # stored compactly: the kind, then only the fields that differ from their defaults
    assert records[2].stored_outcome == {
        "k": "rent_paid",
        "v": 2,  # the version that may name a bankruptcy
        "happened": {"money_moved": True, "level_up": True},
        "number": 1,
        "payer": 2,
        "owner": 1,
        "paid": 70,
        "owed": False,
        "level": 2,
    }


@pytest.mark.parametrize(
    "outcome",
    [
        co.Rolled(None, 7, (3, 4), 0, co.RollEffect.NONE),
        co.Rolled(2, 9, (4, 4), 1, co.RollEffect.NONE, third="1"),
        co.Rolled(3, 7, (2, 5), 0, co.RollEffect.TRY, jail_try=2),
        co.CardPlayed(1, 0, "chance", 3, landing=co.RentPaid(1, 30, 3, 2, 10), draw="chest"),
        co.Traded(1, 40, 2, (3, 5)),
        co.Bankrupt(3, 120, None, (4, 7), True),
        co.Built(1, 100, 11, False, "depot"),
        co.ForceFought(1, 100, False, "dark", 20, True),
    ],
)
def test_a_classic_outcome_reads_back_as_it_was(outcome: Outcome) -> None:
    codec = find("classic").outcomes
    assert codec is not None
    stored = codec.encode(outcome)
    assert json.loads(json.dumps(stored)) == stored  # plain JSON
    assert codec.decode(stored) == outcome


def test_an_outcome_field_at_its_default_is_left_out() -> None:
    codec = find("classic").outcomes
    assert codec is not None
    assert codec.encode(co.Built(1, 100, 11, False)) == {
        "k": "built",
        "card": 1,
        "amount": 100,
        "number": 11,
        "hotel": False,
    }


# ---------------------------------------------------------------------- versions and upcasters


@dataclass(frozen=True, slots=True)
class PaidV3(Outcome):
    """A made-up kind at its third version: v1 had ``sum``, v2 renamed it ``amount``, v3 added
    ``reason``."""

    kind: ClassVar[str] = "paid_test"
    version: ClassVar[int] = 3
    card: int
    amount: int
    reason: str


def _v1_to_v2(fields: dict[str, Any]) -> dict[str, Any]:
    fields = dict(fields)
    fields["amount"] = fields.pop("sum")
    return fields


def _v2_to_v3(fields: dict[str, Any]) -> dict[str, Any]:
    return {**fields, "reason": "unknown"}


CODEC = OutcomeCodec([PaidV3], upcasters={("paid_test", 1): _v1_to_v2, ("paid_test", 2): _v2_to_v3})


def test_an_older_version_of_a_kind_is_upcast_step_by_step() -> None:
    assert CODEC.decode({"k": "paid_test", "card": 1, "sum": 50}) == PaidV3(1, 50, "unknown")
    assert CODEC.decode({"k": "paid_test", "v": 2, "card": 1, "amount": 50}) == PaidV3(
        1, 50, "unknown"
    )
    now = PaidV3(1, 50, "rent")
    assert CODEC.encode(now) == {"k": "paid_test", "v": 3, "card": 1, "amount": 50,
                                 "reason": "rent"}  # fmt: skip
    assert CODEC.decode(CODEC.encode(now)) == now


def test_a_kind_newer_than_this_code_or_unknown_or_without_its_upcaster_is_refused() -> None:
    with pytest.raises(OutcomeError, match="newer than this ultibank reads"):
        CODEC.decode({"k": "paid_test", "v": 4, "card": 1, "amount": 5, "reason": "x"})
    with pytest.raises(OutcomeError, match="unknown outcome kind 'nope'"):
        CODEC.decode({"k": "nope"})
    gap = OutcomeCodec([PaidV3], upcasters={("paid_test", 2): _v2_to_v3})
    with pytest.raises(OutcomeError, match="no upcaster for outcome 'paid_test' version 1"):
        gap.decode({"k": "paid_test", "card": 1, "sum": 50})


def test_a_record_whose_outcome_cannot_be_read_is_named() -> None:
    game = Game(ULTIME)
    raw = game.execute(NewGame((1, 2))).to_record(ULTIME.id, "ultime")
    record = decode(raw | {"outcome": {"k": "no_such_kind"}}, number=9)
    with pytest.raises(RecordError, match="journal record 9 has an outcome that cannot be read"):
        _ = record.outcome
