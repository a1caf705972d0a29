"""The cheap constructors of frozen values (``bank.engine.values.frozen_maker`` and
``frozen_replacer``) give exactly what the classes' own constructors and
``dataclasses.replace`` give: same class, equal, same hash and text, still frozen, defaults and
keyword-only fields included; a class they cannot build so is built by its own constructor."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from bank.engine.events import MoneyMoved, PropertyChanged
from bank.engine.ruleset import Decision
from bank.engine.state import GameState, PlayerState
from bank.engine.values import frozen_maker, frozen_replacer
from bank.rulesets.ultime import outcomes as o
from board_assets import load_edition


@dataclass(frozen=True, slots=True)
class _Sample:
    """Fields named like the made code's own words, a default and a keyword-only field."""

    value: int
    cls: str
    new: tuple[int, ...] = ()
    draft: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class _Checked:
    number: int

    def __post_init__(self) -> None:
        if self.number < 0:
            raise ValueError("negative")


def _same(made: object, built: object) -> None:
    assert type(made) is type(built)
    assert made == built
    assert hash(made) == hash(built)
    assert repr(made) == repr(built)
    assert pickle.loads(pickle.dumps(made)) == built


def test_a_made_value_is_the_value_its_class_builds() -> None:
    make = frozen_maker(_Sample)
    _same(make(1, "a"), _Sample(1, "a"))
    _same(make(1, "a", (2, 3), draft=4), _Sample(1, "a", (2, 3), draft=4))
    _same(make(value=1, cls="b", new=(5,)), _Sample(value=1, cls="b", new=(5,)))
    with pytest.raises(TypeError):
        make(1, "a", (2,), 4)  # type: ignore[call-arg]  # keyword-only, as in the class


def test_the_engine_and_ultime_values_made_cheaply_are_those_built() -> None:
    state = GameState.empty(load_edition("ultime-fr"))
    player = PlayerState(2, "boat", 1500, debt=30, creditor=1)
    happened = o.Happened(True, False, False, False)
    pairs = [
        (frozen_maker(PlayerState)(2, "boat", 1500, False, 30, 1, False), player),
        (frozen_maker(MoneyMoved)(1, None, 20, "rent"), MoneyMoved(1, None, 20, "rent")),
        (frozen_maker(PropertyChanged)(3, None, 2, None, 1), PropertyChanged(3, None, 2, None, 1)),
        (
            frozen_maker(o.RentPaid)(happened, 1, 2, 3, 40, False, 2),
            o.RentPaid(happened, 1, 2, 3, 40, False, 2),
        ),
        (
            frozen_maker(o.RentPaid)(happened, 1, 2, 3, 40, True, 2, bankrupt=2),
            o.RentPaid(happened, 1, 2, 3, 40, True, 2, bankrupt=2),
        ),
        (frozen_maker(Decision)((), None, state), Decision((), None, state)),
    ]
    for made, built in pairs:
        _same(made, built)


def test_a_made_value_stays_frozen() -> None:
    made = frozen_maker(_Sample)(1, "a")
    with pytest.raises(FrozenInstanceError):
        made.value = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del made.cls
    moved = frozen_maker(MoneyMoved)(1, 2, 30)
    with pytest.raises(FrozenInstanceError):
        moved.amount = 40  # type: ignore[misc]


def test_a_class_with_a_post_init_keeps_its_own_constructor() -> None:
    make = frozen_maker(_Checked)
    assert make is _Checked
    with pytest.raises(ValueError, match="negative"):
        make(-1)


def test_a_replaced_field_is_what_dataclasses_replace_gives() -> None:
    player = PlayerState(2, "boat", 1500, jailed=True, debt=30, creditor=1)
    _same(frozen_replacer(PlayerState, "balance")(player, 10), replace(player, balance=10))
    _same(frozen_replacer(_Sample, "draft")(_Sample(1, "a"), 7), replace(_Sample(1, "a"), draft=7))
    _same(player.with_balance(5), replace(player, balance=5))
    _same(player.with_jailed(False), replace(player, jailed=False))
    _same(player.with_debt(0, None), replace(player, debt=0, creditor=None))
    _same(player.with_bankrupt(True), replace(player, bankrupt=True))
    state = GameState.empty(load_edition("ultime-fr"))
    _same(state.with_players((player,)), replace(state, players=(player,)))
    with pytest.raises(TypeError, match="no field 'worth'"):
        frozen_replacer(PlayerState, "worth")
    with pytest.raises(TypeError):
        frozen_replacer(_Checked, "number")
