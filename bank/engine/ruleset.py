"""What a ruleset offers the core, and what deciding a command gives back.

A ruleset (one package under :mod:`bank.rulesets`) decides commands: it validates a command
against the state and returns a :class:`Decision`, the events to commit *and* an
:class:`Outcome` saying what happened in the ruleset's own terms (bought, rent paid with its
amount, level raised...), so the unit shows the result without working it out again from the
events. A refusal raises :class:`bank.engine.errors.RuleError` with a reason key and its fields.

The core (:class:`bank.engine.game.Game`) owns the journal, undo groups and the auction
timer and asks the ruleset only what this protocol says. Imports only the engine's value types.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, cast, runtime_checkable

from bank.engine.commands import Command
from bank.engine.errors import RuleError
from bank.engine.events import Event
from bank.engine.state import GameState


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a decided command did; each ruleset defines its own kinds as subclasses.

    An outcome is journalled with its transaction (:class:`OutcomeCodec`): *kind* names it in
    the record, *version* is the version of that kind's stored fields (raise it when they
    change, and give the codec an upcaster from the version before).
    """

    kind: ClassVar[str] = "outcome"
    version: ClassVar[int] = 1

    @property
    def eliminated(self) -> int | None:
        """The bank card this transaction put out of the game (a bankruptcy), or None: what
        the readers that know no ruleset (the wealth chart) mark."""
        return None

    @property
    def ends_game(self) -> bool:
        """Whether this transaction ended the game."""
        return False


@dataclass(frozen=True, slots=True)
class Undone(Outcome):
    """What an undo did: it cancelled the transactions of the last undo group, whose
    outcomes (as the rules gave them) are *outcomes*, first one first (the transaction the
    player made, then the steps that joined it, such as a deed mortgaged to pay its debt).

    The core's own outcome kind, whatever the ruleset: every :class:`OutcomeCodec` reads it.
    A command an undo replays (a roll of the classic unit's dice) is not undone: its outcome
    is not here. An undo journalled before this kind existed has no outcome stored; it is
    derived when read (:func:`bank.engine.records.derive_undone`).
    """

    kind: ClassVar[str] = "undone"
    version: ClassVar[int] = 1
    outcomes: tuple[Outcome, ...] = ()

    @property
    def first(self) -> Outcome | None:
        """The undone transaction's own outcome (None: the rules gave it none)."""
        return self.outcomes[0] if self.outcomes else None


#: the core's own outcome kinds, which every codec reads beside its ruleset's
ENGINE_OUTCOMES: tuple[type[Outcome], ...] = (Undone,)


@dataclass(frozen=True, slots=True)
class Question:
    """What the rules must be told before they can decide a command; each ruleset defines its
    own kinds as subclasses, with the fields the unit needs to ask it."""

    kind: ClassVar[str] = "question"

    def refusal(self) -> RuleError:
        """The refusal a caller that cannot ask the question gets (the core's ``execute``)."""
        return RuleError(f"the rules need an answer first ({self.kind})", self.kind)


@dataclass(frozen=True, slots=True)
class Decision:
    """The events of a command (committed as one transaction) and what they amount to."""

    events: tuple[Event, ...]
    outcome: Outcome | None = None
    #: the state after *events*, when the ruleset worked it out while deciding (it applies
    #: each event as it emits it); the core then does not apply them a second time. It must
    #: be exactly ``apply(state, events)``; None: the core applies them.
    state: GameState | None = None
    #: what the rules need to know first: then *events* is empty and nothing may be committed
    #: (the core refuses such a decision with ``question.refusal()``)
    question: Question | None = None


class Ruleset(Protocol):
    """Decides commands and answers the core's few questions about the game."""

    @property
    def name(self) -> str:
        """The registry name (``ultime``), as edition files spell it."""
        ...

    @property
    def config(self) -> object:
        """The ruleset's own configuration (its decisions) in force."""
        ...

    def decide(self, state: GameState, command: Command) -> Decision:
        """The events and outcome of *command*, or the question it needs answered first;
        raises RuleError (state untouched)."""
        ...

    def joins_undo_group(self, command: Command) -> bool:
        """Whether *command* belongs to the undo group of the transaction before it.

        True for a step of settling that transaction's consequence (a property given up to
        pay a debt it caused): one undo then cancels them all.
        """
        ...

    def undo_after_settled_debt(self) -> bool:
        """Whether undo may cancel a transaction whose debt was settled since."""
        ...

    def auction_terms(self) -> tuple[int, float]:
        """The auction's bid step (money) and countdown (seconds)."""
        ...

    def check_bid(self, state: GameState, card: int, price: int) -> None:
        """Raise RuleError when *card* may not bid *price* now."""
        ...


class RefusesUndo(Protocol):
    """An optional hook: a ruleset that defines ``refuse_undo`` is asked before every undo.

    The core refuses undo on its own after the game's end, during a debt and when nothing is
    undoable; a ruleset with open questions of its own (the classic interest question) raises
    :class:`bank.engine.errors.UndoRefused` from here while they are open.
    """

    def refuse_undo(self, state: GameState) -> None:
        """Raise UndoRefused when undo must wait."""
        ...


class ValuesWorth(Protocol):
    """An optional hook: a ruleset that ranks players by their worth says what one is worth.

    The end-of-game chart and the web view then draw and show that worth (the classic rules:
    cash, deeds at their price or half when mortgaged, buildings at cost) instead of money
    plus the purchase prices of the properties held.
    """

    def player_worth(self, state: GameState, card: int) -> int:
        """What bank card *card* is worth in *state*, cash included (0 once bankrupt)."""
        ...


@runtime_checkable
class DrawsSeeds(Protocol):
    """An optional hook: a ruleset whose dice are seeded once per game draws the seed of a new
    game from ``seed_source`` when its configuration does not set one.

    The source is deterministic by default (a tap script, a test); the daemon, which runs the
    bank for players, gives it the operating system's randomness, so that every game rolls
    fresh dice (docs/readings.md D1).
    """

    seed_source: Callable[[], int]


# ---------------------------------------------------------------------- outcomes in the journal

#: ``(ruleset's outcome kind, stored version) -> upcaster``: one step of a kind's upcaster
#: chain, the stored fields of that version turned into those of the next version
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

#: an upcaster step that also reads the command stored in the same record (its fields as
#: stored, with ``name``): a version that adds a fact the older outcome left to the command
#: (who landed, which cards joined) takes it from there
CommandUpcaster = Callable[[dict[str, Any], Mapping[str, Any]], dict[str, Any]]


class OutcomeError(ValueError):
    """A stored outcome that cannot be read (unknown kind, a version newer than this code)."""


class OutcomeCodec:
    """A ruleset's outcome kinds as journal records store them, and the upcasters of each.

    Stored form: a JSON object with the kind (``"k"``), the kind's version (``"v"``, left out
    when it is 1) and the outcome's fields, each left out when it has its default value. A
    tuple is stored as a list, a nested outcome (a card's landing) as a stored outcome, any
    other dataclass (Ultime's sound cues) as an object of its fields. Reading runs the
    kind's upcasters from the stored version up to the class's :attr:`Outcome.version`.
    """

    def __init__(
        self,
        kinds: Iterable[type[Outcome]],
        upcasters: Mapping[tuple[str, int], Upcaster] | None = None,
        from_events: Callable[..., Outcome | None] | None = None,
        command_upcasters: Mapping[tuple[str, int], CommandUpcaster] | None = None,
        undone_from_events: Callable[..., tuple[Outcome, ...]] | None = None,
    ) -> None:
        """*from_events* ``(edition, record, before, after)``: the last step of the upcaster
        of version 0, the outcome of a record written without one as its events show it
        (used only when deciding the record again does not give its events back).
        *command_upcasters*: steps that read the record's command too (:data:`CommandUpcaster`).
        *undone_from_events* ``(edition, record, before, after)``: the upcaster of an undo
        journalled without its :class:`Undone` outcome, the undone transactions' outcomes as
        the undo's events (the undone ones, inverted) show them (None: an undo read so says
        only that it undid something)."""
        self.from_events = from_events
        self.undone_from_events = undone_from_events
        self.command_upcasters: dict[tuple[str, int], CommandUpcaster] = dict(
            command_upcasters or {}
        )
        self.kinds: dict[str, type[Outcome]] = {}
        for cls in (*ENGINE_OUTCOMES, *kinds):
            if cls.kind in self.kinds:
                raise ValueError(f"two outcome classes of kind {cls.kind!r}")
            self.kinds[cls.kind] = cls
        self.upcasters: dict[tuple[str, int], Upcaster] = dict(upcasters or {})
        self._fields: dict[type[Any], tuple[tuple[str, Any, Callable[[Any], Any]], ...]] = {}
        #: class -> the function that writes its fields (made once per class)
        self._writers: dict[type[Any], Callable[[Any, dict[str, Any]], None]] = {}

    @classmethod
    def of_module(cls, module: types.ModuleType, **kw: Any) -> OutcomeCodec:
        """Every outcome class defined in *module* that names a kind of its own (a base class
        of the others, such as the ruleset's common one, is no kind)."""
        defined = [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, Outcome)
            and value.__module__ == module.__name__
            and "kind" in value.__dict__
        ]
        bases = {base for value in defined for base in value.__mro__[1:]}
        return cls((value for value in defined if value not in bases), **kw)

    # ------------------------------------------------------------------ writing

    def encode(self, outcome: Outcome) -> dict[str, Any]:
        """The stored form of *outcome* (compact: default fields are left out)."""
        out: dict[str, Any] = {"k": outcome.kind}
        if outcome.version != 1:
            out["v"] = outcome.version
        writer = self._writers.get(type(outcome))  # _put_fields, without the call
        if writer is None:
            writer = self._writers[type(outcome)] = self._writer(type(outcome))
        writer(outcome, out)
        return out

    def _put_fields(self, value: Any, out: dict[str, Any]) -> None:
        writer = self._writers.get(type(value))
        if writer is None:
            writer = self._writers[type(value)] = self._writer(type(value))
        writer(value, out)

    def _writer(self, cls: type[Any]) -> Callable[[Any, dict[str, Any]], None]:
        """A function that puts the fields of a *cls* into a stored form, each in turn: left
        out at its default value, stored as it is when it is read back as it is (a number, a
        string, a flag), else through :meth:`_plain`. Its source is made from the class's
        fields, as :mod:`dataclasses` makes a class's ``__init__``: one straight line of
        code a field, a transaction's outcome written without a loop.

        A field declared as a dataclass of its own (not an outcome: Ultime's cues) is written
        by that class's writer straight away when it holds one (what :meth:`_plain` does, a
        call and its type tests less)."""
        lines = ["def write(value, out):"]
        names: dict[str, Any] = {"plain": self._plain}
        hints = typing.get_type_hints(cls)
        for i, (name, default, convert) in enumerate(self._layout(cls)):
            if not name.isidentifier():  # never for a dataclass field; no code made of it
                raise OutcomeError(f"{cls.__name__} has a field named {name!r}")
            store = [f"out[{name!r}] = {'item' if convert is _same else 'plain(item)'}"]
            hint = hints[name]
            if (
                isinstance(hint, type)
                and dataclasses.is_dataclass(hint)
                and not issubclass(hint, Outcome)
                and hint is not cls
            ):
                names[f"nested_{i}"] = hint
                names[f"write_{i}"] = self._writers.get(hint) or self._writers.setdefault(
                    hint, self._writer(hint)
                )
                store = [
                    f"if item.__class__ is nested_{i}:",
                    "    stored = {}",
                    f"    write_{i}(item, stored)",
                    f"    out[{name!r}] = stored",
                    "else:",
                    f"    {store[0]}",
                ]
            lines.append(f"    item = value.{name}")
            if default is _REQUIRED:
                lines += [f"    {line}" for line in store]
            else:
                names[f"default_{i}"] = default
                lines.append(f"    if not item == default_{i}:")
                lines += [f"        {line}" for line in store]
        if len(lines) == 1:
            lines.append("    pass")
        exec("\n".join(lines), names)  # the source is made above from field names
        return cast("Callable[[Any, dict[str, Any]], None]", names["write"])

    def _plain(self, item: Any) -> Any:
        if item is None or isinstance(item, int | str | float):
            return item
        writer = self._writers.get(type(item))
        if writer is not None and not isinstance(item, Outcome):  # a dataclass seen before
            nested: dict[str, Any] = {}
            writer(item, nested)
            return nested
        if isinstance(item, tuple | list):
            return [self._plain(x) for x in item]
        if isinstance(item, Outcome):
            return self.encode(item)
        if dataclasses.is_dataclass(item):
            nested = {}
            self._put_fields(item, nested)
            return nested
        raise OutcomeError(f"an outcome field of type {type(item).__name__} cannot be stored")

    # ------------------------------------------------------------------ reading

    def decode(self, raw: Mapping[str, Any], command: Mapping[str, Any] | None = None) -> Outcome:
        """The outcome of a stored form of any version up to the kind's, upcast step by step;
        *command* is the command stored in the same record, for the steps that read it."""
        kind = str(raw["k"])
        cls = self.kinds.get(kind)
        if cls is None:
            raise OutcomeError(f"unknown outcome kind {kind!r}")
        version = int(raw.get("v", 1))
        if version > cls.version:
            raise OutcomeError(
                f"outcome {kind!r} has version {version}, newer than this ultibank reads "
                f"({cls.version}); upgrade ultibank"
            )
        fields = {k: v for k, v in raw.items() if k not in ("k", "v")}
        while version < cls.version:
            step = self.upcasters.get((kind, version))
            with_command = self.command_upcasters.get((kind, version))
            if with_command is not None:
                if command is None:
                    raise OutcomeError(
                        f"outcome {kind!r} version {version} is read with its record's command"
                    )
                fields = with_command(fields, command)
            elif step is not None:
                fields = step(fields)
            else:
                raise OutcomeError(f"no upcaster for outcome {kind!r} version {version}")
            version += 1
        return cast_outcome(self._build(cls, fields))

    def _build(self, cls: type[Any], fields: Mapping[str, Any]) -> Any:
        args = {}
        for name, _default, convert in self._layout(cls):
            if name in fields:
                args[name] = convert(fields[name])
        return cls(**args)

    def _layout(self, cls: type[Any]) -> tuple[tuple[str, Any, Callable[[Any], Any]], ...]:
        """Each field's name, default and reader (worked out once per class)."""
        layout = self._fields.get(cls)
        if layout is None:
            hints = typing.get_type_hints(cls)
            layout = tuple(
                (f.name, f.default, self._reader(hints[f.name])) for f in dataclasses.fields(cls)
            )
            self._fields[cls] = layout
        return layout

    def _reader(self, hint: Any) -> Callable[[Any], Any]:
        """How to read a stored value of type *hint* back."""
        options = typing.get_args(hint) if _is_union(hint) else (hint,)
        for option in options:
            if isinstance(option, type) and issubclass(option, Outcome):
                return lambda v: None if v is None else self.decode(v)
            if isinstance(option, type) and dataclasses.is_dataclass(option):
                nested = option
                return lambda v: None if v is None else self._build(nested, v)
            if typing.get_origin(option) is tuple:
                item = typing.get_args(option)[:1]
                if item and isinstance(item[0], type) and issubclass(item[0], Outcome):
                    return lambda v: tuple(self.decode(x) for x in v)  # an undo's outcomes
                return _tupled
        return _same


#: the codec of a ruleset that stores no outcomes of its own: its undos' (:class:`Undone`)
ENGINE_CODEC = OutcomeCodec(())

_REQUIRED: Any = dataclasses.MISSING


def cast_outcome(value: Any) -> Outcome:
    if not isinstance(value, Outcome):
        raise OutcomeError(f"{type(value).__name__} is not an outcome")
    return value


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _tupled(value: Any) -> Any:
    if value is None:
        return None
    return tuple(_tupled(v) if isinstance(v, list) else v for v in value)


def _same(value: Any) -> Any:
    return value
