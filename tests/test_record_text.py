"""The record's text written straight from the transaction (``records.record_text``) is, character
for character, the journal's JSON text of the record's dict (``encode`` then the journal's
encoder): for every command, event and outcome class of both rulesets, with any field values
(hypothesis); and a game journalled through it stores the same bytes, the same checksums and
the same tip, and still refuses a record that is not JSON."""

from __future__ import annotations

import dataclasses
import enum
import math
import random
import sqlite3
import types
import typing
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, reject, settings

from bank import rulesets
from bank.engine import commands as engine_commands
from bank.engine import events as engine_events
from bank.engine import game as game_module
from bank.engine.commands import Command, Land, NewGame
from bank.engine.errors import JournalError, RuleError
from bank.engine.events import Event, MoneyMoved
from bank.engine.game import Game
from bank.engine.records import encode, record_text
from bank.engine.ruleset import Decision, Outcome, Undone
from bank.services import journal as journal_module
from bank.services.journal import BadRecord, Journal, _link, _read_tip
from bench.classic_game import classic_game
from board_assets import load_edition
from tests.support.crash_game import next_command

RULESETS = ("ultime", "classic")
for _name in RULESETS:
    rulesets.find(_name)  # their commands, events and outcome kinds registered

COMMANDS: list[type[Command]] = sorted(engine_commands._NAMES.values(), key=lambda c: c.name)
EVENTS: list[type[Event]] = sorted(engine_events._KINDS.values(), key=lambda c: c.kind)


def outcome_kinds(ruleset: str) -> list[type[Outcome]]:
    codec = rulesets.find(ruleset).outcomes
    assert codec is not None
    return sorted(codec.kinds.values(), key=lambda c: c.kind)


class Shade(enum.IntEnum):
    """An int that is not exactly an int (the encoder writes its number)."""

    DARK = 7


class Label(str):
    """A str that is not exactly a str."""


#: values of every shape the JSON encoder meets, right or wrong for the field they land in
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.text(),
    st.text().map(Label),
    st.just(Shade.DARK),
    st.floats(allow_nan=True, allow_infinity=True),
)
WILD = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=4), inner, max_size=3),
        st.frozensets(st.integers(), max_size=2),
        st.just(b"bytes"),
        st.just(object()),
    ),
    max_leaves=6,
)
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(tuple), st.dictionaries(st.text(), inner, max_size=2)
    ),
    max_leaves=5,
)


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def for_hint(hint: Any, ruleset: str, wild: bool) -> st.SearchStrategy[Any]:
    """Values of the type *hint* (with *wild*, sometimes any value at all)."""
    typed = _typed(hint, ruleset, wild)
    return st.one_of(typed, WILD) if wild else typed


def _typed(hint: Any, ruleset: str, wild: bool) -> st.SearchStrategy[Any]:
    if _is_union(hint):
        return st.one_of([for_hint(h, ruleset, wild) for h in typing.get_args(hint)])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers()
    if hint is str:
        return st.text()
    if hint is Any:
        return JSONISH
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = for_hint(args[0], ruleset, wild)
            return st.lists(item, max_size=3).map(tuple)
        return st.tuples(*(for_hint(a, ruleset, wild) for a in args))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return st.sampled_from(list(hint))
    if isinstance(hint, type) and issubclass(hint, Outcome):
        kinds = [k for k in outcome_kinds(ruleset) if issubclass(k, hint)] or [Undone]
        return st.deferred(lambda: st.one_of([instances(k, ruleset, wild) for k in kinds]))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return instances(hint, ruleset, wild)
    raise AssertionError(f"no strategy for the field type {hint!r}: add one")


def instances(cls: type, ruleset: str, wild: bool) -> st.SearchStrategy[Any]:
    """Instances of the dataclass *cls*, each field drawn for its type (or left at its
    default); classes whose constructor checks its values get values it accepts."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for f in dataclasses.fields(cls):
        strategy = for_hint(hints[f.name], ruleset, wild)
        if f.name == "field" and cls.__name__ == "ClassicSet":
            strategy = st.sampled_from(sorted(cls.__module__ and _classic_fields()))
        if f.name == "dropped":  # a roll drops at most one recent roller
            strategy = st.lists(st.one_of(st.none(), st.integers()), max_size=1).map(tuple)
        has_default = f.default is not dataclasses.MISSING
        fields[f.name] = st.one_of(st.just(f.default), strategy) if has_default else strategy
    return st.fixed_dictionaries(fields).map(lambda kw: _built(cls, kw))


def _built(cls: type, kw: dict[str, Any]) -> Any:
    try:
        return cls(**kw)
    except (TypeError, ValueError):  # values its constructor refuses (a wild draw)
        reject()


def _classic_fields() -> list[str]:
    from bank.rulesets.classic import state  # the classic state's field names

    return sorted(state._FIELDS)


@st.composite
def transactions(draw: st.DrawFn, wild: bool) -> tuple[Any, ...]:
    ruleset = draw(st.sampled_from(RULESETS))
    command = draw(st.sampled_from(COMMANDS).flatmap(lambda c: instances(c, ruleset, wild)))
    events = draw(
        st.lists(st.sampled_from(EVENTS).flatmap(lambda c: instances(c, ruleset, wild)), max_size=4)
    )
    kinds = [*outcome_kinds(ruleset), Undone]
    outcome = draw(
        st.one_of(st.none(), st.sampled_from(kinds).flatmap(lambda c: instances(c, ruleset, wild)))
    )
    group = draw(st.one_of(st.none(), st.integers(min_value=0)))
    edition = draw(st.sampled_from(["ultime-fr", "classic-fr", 'é"\\\n']))
    return command, tuple(events), group, edition, ruleset, outcome


def journal_text(command: Any, events: Any, group: Any, edition: str, ruleset: str,
                 outcome: Any) -> str:  # fmt: skip
    """What the journal stores of the record's dict (BadRecord if it is not JSON)."""
    record = encode(command, events, group, edition=edition, ruleset=ruleset, outcome=outcome)
    return journal_module._payload(record)


def test_every_command_event_and_outcome_class_is_drawn() -> None:
    """The classes the properties below draw from are those both rulesets register."""
    names = {c.name for c in COMMANDS}
    assert {"new_game", "land", "undo", "pass_go", "roll", "build", "trade"} <= names
    assert {"money", "property", "game_ended", "classic", "group"} <= {e.kind for e in EVENTS}
    for ruleset in RULESETS:
        codec = rulesets.find(ruleset).outcomes
        assert codec is not None and outcome_kinds(ruleset) == sorted(
            codec.kinds.values(), key=lambda c: c.kind
        )
        assert Undone in outcome_kinds(ruleset)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transactions(wild=False))
def test_the_text_is_the_journals_text_of_the_record(tx: tuple[Any, ...]) -> None:
    command, events, group, edition, ruleset, outcome = tx
    expected = journal_text(command, events, group, edition, ruleset, outcome)
    assert (
        record_text(command, events, group, edition=edition, ruleset=ruleset, outcome=outcome)
        == expected
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transactions(wild=True))
def test_any_value_is_written_as_the_journal_writes_it_or_refused(tx: tuple[Any, ...]) -> None:
    """Values of any type in any field (NaN, sets, bytes, enums, dicts...): the text, when it
    is written, is the journal's; what the journal refuses is refused (the game then goes
    through the dict, which says why)."""
    command, events, group, edition, ruleset, outcome = tx
    try:
        text = record_text(
            command, events, group, edition=edition, ruleset=ruleset, outcome=outcome
        )
    except Exception:
        return  # the game falls back to the dict path, whatever it says
    assert text == journal_text(command, events, group, edition, ruleset, outcome)


def test_values_the_journal_refuses_are_refused() -> None:
    nan = MoneyMoved(1, 2, 3, reason=float("nan"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        record_text(Land(1, 2), (nan,), 1, edition="ultime-fr", ruleset="ultime")
    with pytest.raises(BadRecord):
        journal_text(Land(1, 2), (nan,), 1, "ultime-fr", "ultime", None)
    odd = MoneyMoved(1, 2, {3}, reason="rent")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        record_text(Land(1, 2), (odd,), 1, edition="ultime-fr", ruleset="ultime")


# ---------------------------------------------------------------------- through a game


def play(game: Game, n: int, seed: int) -> None:
    rnd = random.Random(seed)
    game.execute(NewGame((1, 2, 3, 4)))
    done = 0
    while done < n:
        if game.state.game_over:
            game.reset()
            game.execute(NewGame((1, 2, 3, 4)))
        try:
            game.execute(next_command(rnd, game.state))
        except RuleError:
            continue
        done += 1


def stored(path: Path) -> list[tuple[int, int, float, int, str, bytes]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT seq, game, at, version, payload, chain FROM records ORDER BY seq"
        ).fetchall()
    finally:
        conn.close()


def through_the_dict(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the game journals each record through its dict, as before the text."""

    def refuse(*args: Any, **kwargs: Any) -> str:
        raise TypeError("the text is not written in this run")

    monkeypatch.setattr(game_module, "record_text", refuse)


def test_an_ultime_game_journals_the_same_bytes_as_through_the_dict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same game played twice on the same clock, with the record's text, then through
    the dict: the journal files hold the same rows (checksums included) and tips, and the
    text one verifies on reopen, its checksums chained as :func:`_link` says."""
    edition = load_edition("ultime-fr")
    files = {}
    for way in ("text", "dict"):
        if way == "dict":
            through_the_dict(monkeypatch)
        clock = iter(1764662400.0 + i / 8 for i in range(100_000)).__next__
        with Journal(tmp_path / f"{way}.sqlite", clock=clock) as journal:
            play(Game(edition, journal=journal), 600, seed=5)
            files[way] = stored(journal.path), _read_tip(journal.tip_path)
    (rows, tip), (dict_rows, dict_tip) = files["text"], files["dict"]
    assert len(rows) > 600 and len({r[1] for r in rows}) > 1  # several games
    assert rows == dict_rows
    assert tip is not None and dict_tip is not None
    assert (tip.seq, tip.chain) == (dict_tip.seq, dict_tip.chain) == (rows[-1][0], rows[-1][5])
    with Journal(tmp_path / "text.sqlite") as again:  # the chain verifies: nothing set aside
        assert again.recovery == [] and again.last_seq == rows[-1][0]
    head, game = b"", None
    for seq, game_id, at, version, payload, chain in rows:
        if game_id != game:
            head, game = journal_module._seed(game_id), game_id
        head = _link(head, seq, game_id, at, version, payload)
        assert chain == head


def test_a_classic_game_journals_the_same_text_as_through_the_dict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated classic game played through the unit twice (its dice, cards, trades,
    buildings, debts and undos): the same records, character for character."""
    payloads = {}
    for way in ("text", "dict"):
        if way == "dict":
            through_the_dict(monkeypatch)
        data = tmp_path / way
        data.mkdir()
        classic_game(3, gestures=1500, players=5, data_dir=data)
        payloads[way] = [(r[0], r[3], r[4]) for r in stored(data / "journal.sqlite")]
    assert len(payloads["text"]) > 300
    assert payloads["text"] == payloads["dict"]


class NotJsonRules:
    """The Ultime rules, but every land pays a rent whose reason is NaN (not JSON)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def decide(self, state: Any, command: Command) -> Decision:
        decision: Decision = self.inner.decide(state, command)
        if isinstance(command, Land):
            bad = MoneyMoved(command.card, None, 1, reason=math.nan)  # type: ignore[arg-type]
            return Decision((bad,), decision.outcome)
        return decision


def test_a_record_that_is_not_json_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    edition = load_edition("ultime-fr")
    plain = Game(edition)
    rules = NotJsonRules(plain.ruleset)
    with Journal(tmp_path / "j.sqlite") as journal:
        game = Game(edition, journal=journal, ruleset=rules)
        game.execute(NewGame((1, 2)))
        before, seq = game.state, journal.last_seq
        with pytest.raises(BadRecord, match="not JSON"):
            game.execute(Land(1, 3))
        assert game.state == before and game.seq == 1 and journal.last_seq == seq


def test_append_text_keeps_the_journals_checks(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    with pytest.raises(BadRecord):
        journal.append_text(b"{}")  # type: ignore[arg-type]
    seq = journal.append_text('{"v":3}')
    assert seq == 1 and list(journal.records()) == [{"v": 3}]
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.append_text('{"v":3}')
