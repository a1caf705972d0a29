"""A game: the state, its ruleset, its journal, and single-transaction undo.

``Game.execute`` is the only way the state changes: the ruleset decides the events (and says
what they amount to, the transaction's outcome), the journal commits them durably, then the
in-memory state (a cache of the journal) is updated. Nothing is confirmed to players before the
commit. Undo cancels the last undo group (a transaction, plus the steps the ruleset says join
it, such as properties given up to settle a debt it caused) by journalling its inverse events,
so replaying the journal always gives the live state; the undo's outcome
(:class:`bank.engine.ruleset.Undone`) is the outcomes of the transactions it cancelled, kept
with the undo group (and in snapshots) so that it is the same after a resume. A transparent
command made since is never undone; one that says ``replayed_by_undo`` (a roll of the classic
unit's dice) is replayed: the undo's events take it back and decide it again on the state
without the undone group, so its effects are those it would have had without it (the classic
rules' undo, a replay without the undone transaction). The ruleset comes from the edition
(``edition.ruleset``, through :mod:`bank.rulesets`) unless one is given.

A journal that keeps snapshots (``snapshot``/``save_snapshot``,
:class:`bank.services.journal.Journal`) gets one every :data:`~bank.engine.snapshot.SNAPSHOT_EVERY`
transactions, at a clean stop (its ``before_close``) and whenever its owner asks
(:meth:`Game.keep_snapshot`: the daemon does when idle); a resume then starts from the newest one
that passed its check and was written by code with this state's shape
(:func:`bank.engine.snapshot.state_version`), and replays only the records after it. Without a
usable one it replays the game whole and writes a new one. Imports the engine, the ruleset
registry, :mod:`bank.engine.snapshot` and, by protocol, any journal with
``append``/``records``/``new_game``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

from bank import rulesets
from bank.engine.auction import Auction
from bank.engine.commands import Command, NewGame, Undo
from bank.engine.errors import BankError, GameOver, InDebt, RuleError, UndoRefused
from bank.engine.events import Event, apply, invert
from bank.engine.records import (
    LEGACY_RULESET,
    Record,
    RecordError,
    StoredEntry,
    decode,
    encode,
    outcome_of,
    record_text,
)
from bank.engine.ruleset import (
    ENGINE_CODEC,
    Outcome,
    OutcomeCodec,
    OutcomeError,
    Ruleset,
    Undone,
)
from bank.engine.snapshot import (
    SNAPSHOT_EVERY,
    GameSnapshot,
    SnapshotError,
    dump,
    load,
    state_version,
)
from bank.engine.state import GameState
from board_assets import Edition

log = logging.getLogger(__name__)


class JournalLike(Protocol):
    """What the game needs of a journal (see :class:`bank.services.journal.Journal`).

    One that also has ``append_text(text) -> int``
    (:meth:`bank.services.journal.Journal.append_text`) is given each record as the text
    :func:`bank.engine.records.record_text` writes, without the dict (that text is what the
    journal would write of the dict, character for character).
    """

    def append(self, record: dict[str, Any]) -> int: ...

    def records(self) -> Iterator[dict[str, Any]]: ...

    def new_game(self, meta: dict[str, Any]) -> int: ...


class StoredSnapshot(Protocol):
    """A snapshot as a journal gives it back (:class:`bank.services.journal.Snapshot`)."""

    @property
    def seq(self) -> int: ...

    @property
    def version(self) -> str: ...

    @property
    def payload(self) -> str: ...


class KeepsSnapshots(JournalLike, Protocol):
    """A journal that keeps snapshots of the game (:class:`bank.services.journal.Journal`)."""

    before_close: list[Callable[[], None]]

    def snapshot(self) -> StoredSnapshot | None: ...

    def save_snapshot(self, count: int, version: str, payload: str) -> None: ...

    def forget_snapshot(self) -> None: ...

    def entries(self, game_id: int | None = None, after: int = 0) -> Iterator[StoredEntry]: ...


@dataclass(frozen=True, slots=True, init=False)
class Transaction:
    """One committed transaction."""

    seq: int
    command: Command
    events: tuple[Event, ...]
    #: the seq of the transaction whose undo group this one belongs to (None: not undoable)
    undo_group: int | None
    #: what the ruleset said the transaction did (journalled with it; None when read back
    #: by a replay, which never needs it: :attr:`bank.engine.records.Record.outcome` reads it)
    outcome: Outcome | None = None

    def __init__(
        self,
        seq: int,
        command: Command,
        events: tuple[Event, ...],
        undo_group: int | None,
        outcome: Outcome | None = None,
    ) -> None:
        # A frozen dataclass's own __init__ sets each field through object.__setattr__ (a
        # lookup and a call a field, for every transaction); the slots' own setters, found
        # once (below the class), do the same for half the work.
        _set_seq(self, seq)
        _set_command(self, command)
        _set_events(self, events)
        _set_undo_group(self, undo_group)
        _set_outcome(self, outcome)

    def to_record(self, edition: str, ruleset: str = LEGACY_RULESET) -> dict[str, Any]:
        """The journal record (``bank.engine.records``), the outcome with it."""
        return encode(
            self.command,
            self.events,
            self.undo_group,
            edition=edition,
            ruleset=ruleset,
            outcome=self.outcome,
        )


_set_seq, _set_command, _set_events, _set_undo_group, _set_outcome = (
    vars(Transaction)[name].__set__
    for name in ("seq", "command", "events", "undo_group", "outcome")
)


class Game:
    """The live game. Resumes from *journal* when one is given."""

    def __init__(
        self,
        edition: Edition,
        rules: object | None = None,
        journal: JournalLike | None = None,
        ruleset: Ruleset | None = None,
    ) -> None:
        """*rules* is the ruleset's configuration (None: its defaults)."""
        self.edition = edition
        self.ruleset: Ruleset = ruleset or rulesets.for_edition(edition).rules(edition, rules)
        #: the ruleset's configuration in force
        self.rules = self.ruleset.config
        #: the ruleset's name, written in every journal record and checked on replay
        self.ruleset_name = edition.ruleset
        self.journal = journal
        self.state = GameState.empty(edition)
        self._seq = 0
        self._undo_events: list[Event] = []
        #: the outcomes of the undo group's transactions, first one first (an undo's
        #: :class:`Undone`); a replayed record's is read only if an undo asks for it (its
        #: record, with the state it started from): :meth:`_undone`
        self._undo_outcomes: list[Outcome | tuple[Record, GameState]] = []
        self._undo_group: int | None = None
        self._group_had_debt = False
        #: what happened after the undo group's first transaction, in order: a transparent
        #: command with its events (replayed by an undo), or None with the events of a
        #: transaction that joined the group (undone with it)
        self._trail: list[tuple[Command | None, tuple[Event, ...]]] = []
        #: the last undo group's transaction opened the debt being settled, and nothing joined
        #: it since: undoing it takes the debt away with it (a ruleset that allows it)
        self._group_opened_debt = False
        #: the transaction count of the last snapshot written or resumed from
        self._snapshot_count = 0
        #: the journal whose ``append_text`` was looked up, and that method (None: it has none)
        self._text_append: tuple[object, Callable[[str], int] | None] = (None, None)
        if journal is not None:
            self._resume(journal)

    # ------------------------------------------------------------------ resume

    def _resume(self, journal: JournalLike) -> None:
        """Rebuild the game from the journal: its newest usable snapshot and the records after
        it, or all its records (then a new snapshot, so the next resume is short)."""
        if not callable(getattr(journal, "snapshot", None)):
            self._replay(journal.records())
            return
        keeper = cast(KeepsSnapshots, journal)
        snap = keeper.snapshot()
        restored = snap is not None and self._restore(snap.version, snap.payload)
        if snap is not None and restored:
            self._replay(entry.record for entry in keeper.entries(after=snap.seq))
        else:
            if snap is not None:  # not for this code: the journal checks the whole game
                keeper.forget_snapshot()
            self._replay(journal.records())
        if self._seq - self._snapshot_count >= SNAPSHOT_EVERY or (snap and not restored):
            self.save_snapshot()  # the next resume replays less (or: rebuilt for this code)
        keeper.before_close.append(self._snapshot_at_stop)

    def _restore(self, version: str, payload: str) -> bool:
        """Take the game from a snapshot (True), or say why it cannot be used (False)."""
        if version != state_version(self.ruleset.name):
            log.info(
                "the journal's snapshot holds a state of another shape (%s, this code: %s); "
                "the game is replayed whole and a new snapshot written",
                version,
                state_version(self.ruleset.name),
            )
            return False
        try:
            snap = load(payload)
        except SnapshotError as err:
            log.warning("the journal's snapshot cannot be read (%s); the game is replayed", err)
            return False
        self._check_origin(snap.state.edition, snap.ruleset)
        try:
            undone = [self._outcome_codec().decode(raw) for raw in snap.undo_outcomes]
        except (OutcomeError, KeyError, TypeError, ValueError) as err:
            log.warning("the journal's snapshot's undo cannot be read (%s); replayed", err)
            return False
        self.state = snap.state
        self._seq = self._snapshot_count = snap.count
        self._undo_events = list(snap.undo_events)
        self._undo_outcomes = list(undone)
        self._undo_group = snap.undo_group
        self._group_had_debt = snap.group_had_debt
        self._trail = list(snap.trail)
        self._group_opened_debt = snap.group_opened_debt
        return True

    def _check_origin(self, edition: str | None, ruleset: str) -> None:
        """Refuse a journal of another edition or other rules than this game's."""
        if edition is not None and edition != self.edition.id:
            raise BankError(
                f"this data directory holds a game of edition {edition!r}, "
                f"not {self.edition.id!r}: choose that edition or another data directory",
                "other edition",
            )
        if ruleset != self.ruleset_name:
            raise BankError(
                f"this data directory holds a game played with the {ruleset!r} rules, "
                f"not {self.ruleset_name!r}: choose an edition of those rules or another "
                "data directory",
                "other ruleset",
            )

    def save_snapshot(self) -> bool:
        """Write a snapshot of the game now into the journal, if it keeps them; True if done.

        A snapshot that cannot be written is logged and skipped: it only shortens resumes.
        """
        if self._seq == 0:
            return False
        self._snapshot_count = self._seq  # a failed one is tried again after as many
        if not callable(getattr(self.journal, "save_snapshot", None)):
            return False
        keeper = cast(KeepsSnapshots, self.journal)
        try:
            codec = self._outcome_codec()
            snap = GameSnapshot(
                self._seq,
                self.state,
                tuple(self._undo_events),
                self._undo_group,
                self._group_had_debt,
                self.ruleset_name,
                tuple(self._trail),
                self._group_opened_debt,
                tuple(codec.encode(done) for done in self._undone().outcomes),
            )
            keeper.save_snapshot(self._seq, state_version(self.ruleset.name), dump(snap))
        except (SnapshotError, BankError) as err:
            log.warning("no snapshot of the game: %s", err)
            return False
        return True

    def keep_snapshot(self) -> bool:
        """Write a snapshot if a transaction happened since the last one (a clean stop, an
        idle unit); True if one was written."""
        return self._seq != self._snapshot_count and self.save_snapshot()

    def _snapshot_at_stop(self) -> None:
        self.keep_snapshot()

    def _replay(self, records: Iterable[dict[str, Any]]) -> None:
        for raw in records:
            record = decode(raw, number=self._seq + 1)
            self._check_origin(record.edition, record.ruleset)
            self._seq += 1
            tx = Transaction(self._seq, record.command, record.events, record.undo_group)
            self._advance(tx, record=record)

    def _outcome_codec(self) -> OutcomeCodec:
        return rulesets.find(self.ruleset_name).outcomes or ENGINE_CODEC

    def _undone(self) -> Undone:
        """What an undo now would say it undid: the undo group's outcomes, first one first
        (a replayed record's read from the journal now, once)."""
        done: list[Outcome] = []
        for i, item in enumerate(self._undo_outcomes):
            if isinstance(item, tuple):
                record, before = item
                try:
                    found = outcome_of(record, before, self.ruleset, self.edition)
                except RecordError as err:  # the undo still undoes; it names less
                    log.warning("an undone transaction's outcome cannot be read: %s", err)
                    found = None
                if found is None:
                    continue
                self._undo_outcomes[i] = item = found
            done.append(item)
        return Undone(tuple(done))

    def _advance(
        self,
        tx: Transaction,
        after: GameState | None = None,
        record: Record | None = None,
        joins: bool | None = None,
    ) -> None:
        """Apply a committed transaction and keep the undo group up to date (*after*: the
        state after its events, as the ruleset worked it out while deciding; *record*: the
        journal record it was replayed from, whose outcome is read if an undo needs it;
        *joins*: whether the ruleset said the command joins the undo group, None: not asked)."""
        before = self.state
        self.state = apply(self.state, tx.events) if after is None else after
        if tx.command.transparent:
            if tx.events:
                self._group_opened_debt = False  # the debt is no longer the group's alone
            if self.state.debtor() is not None and tx.events:
                # a debt opened by a command undo skips over: its payment cannot be undone,
                # so neither can what settles it (nor the transaction before)
                self._undo_events, self._undo_group, self._trail = [], None, []
                self._undo_outcomes = []
            elif (
                self._undo_group is not None
                and tx.events
                and getattr(tx.command, "replayed_by_undo", False)
            ):  # any other transparent command (a virtual deck's draw) keeps its events
                self._trail.append((tx.command, tx.events))
            return
        self._group_opened_debt = False
        if isinstance(tx.command, Undo):
            self._undo_events, self._undo_group, self._trail = [], None, []
            self._undo_outcomes = []
        elif self.ruleset.joins_undo_group(tx.command) if joins is None else joins:
            if self._trail:
                self._trail.append((None, tx.events))
            else:
                self._undo_events.extend(tx.events)
            if tx.outcome is not None:
                self._undo_outcomes.append(tx.outcome)
            elif record is not None:
                self._undo_outcomes.append((record, before))
            self._group_had_debt = True
        else:
            self._undo_events = list(tx.events)
            # what an undo of it will say it undid: its outcome, or the record it was
            # replayed from with the state it started from (read only if an undo asks)
            if tx.outcome is not None:
                self._undo_outcomes = [tx.outcome]
            else:
                self._undo_outcomes = [(record, before)] if record is not None else []
            self._undo_group = tx.undo_group
            self._trail = []
            self._group_had_debt = self.state.debtor() is not None
            self._group_opened_debt = self._group_had_debt and before.debtor() is None

    # ------------------------------------------------------------------ commands

    @property
    def seq(self) -> int:
        """Number of transactions in this game so far."""
        return self._seq

    def check(self, command: Command) -> None:
        """Validate *command* without changing anything (raises like :meth:`execute`)."""
        if isinstance(command, Undo):
            self._undo_refusal()
        else:
            question = self.ruleset.decide(self.state, command).question
            if question is not None:
                raise question.refusal()

    def execute(self, command: Command) -> Transaction:
        """Decide, commit to the journal, then apply. Raises RuleError with nothing changed."""
        outcome: Outcome | None = None
        after: GameState | None = None
        joins: bool | None = None
        if isinstance(command, Undo):
            self._undo_refusal()
            events = self._undo()
            outcome = self._undone()  # what it undid, as the rules said it then
            group: int | None = None
        else:
            decision = self.ruleset.decide(self.state, command)
            if decision.question is not None:  # unanswered: nothing to commit
                raise decision.question.refusal()
            events, outcome, after = decision.events, decision.outcome, decision.state
            if command.transparent:
                group = None
            elif joins := self.ruleset.joins_undo_group(command):
                group = self._undo_group
            else:
                group = self._seq + 1 if command.undoable else None
        tx = Transaction(self._seq + 1, command, events, group, outcome)
        journal = self.journal
        if journal is not None:
            owner, append_text = self._text_append
            if owner is not journal:
                append_text = getattr(journal, "append_text", None)
                self._text_append = (journal, append_text)
            text: str | None = None
            if append_text is not None:
                try:
                    text = record_text(
                        command, events, group, self.edition.id, self.ruleset_name, outcome
                    )
                except Exception:  # not JSON, no outcome codec: the record's dict says (below)
                    text = None
            if text is None or append_text is None:
                journal.append(tx.to_record(self.edition.id, self.ruleset_name))
            else:
                append_text(text)
        self._seq += 1
        self._advance(tx, after, None, joins)
        if journal is not None and isinstance(command, NewGame):
            self._describe_game(command)
        if self.journal is not None and self._seq - self._snapshot_count >= SNAPSHOT_EVERY:
            self.save_snapshot()
        return tx

    def _undo(self) -> tuple[Event, ...]:
        """The events of an undo: the undo group and the replayed commands made since taken
        back, then those commands decided again, in order, on the state without the group (one
        the rules now refuse is left out)."""
        done = [*self._undo_events, *(e for _, events in self._trail for e in events)]
        out = invert(done)
        state = apply(self.state, out)
        for command, _ in self._trail:
            if command is None:
                continue
            try:
                decision = self.ruleset.decide(state, command)
            except RuleError:
                continue
            if decision.question is not None:
                continue  # a question now: left out like a refusal
            events = decision.events
            state = apply(state, events)
            out.extend(events)
        return tuple(out)

    def _describe_game(self, command: NewGame) -> None:
        """Name the edition and players in the journal's game list (``ultibank history``)."""
        update = getattr(self.journal, "update_meta", None)
        if update is None:
            return
        tokens = self.edition.constants.tokens
        players = ",".join(f"{c}:{tokens[c - 1]}" for c in sorted(command.cards))
        meta: dict[str, Any] = {"edition": self.edition.id, "players": players}
        more = getattr(self.ruleset, "game_meta", None)  # e.g. the classic dice seed
        if more is not None:
            meta.update(more(self.state))
        try:
            update(meta)
        except BankError as err:  # the transaction is safe; only its label is missing
            log.warning("could not label the game in the journal: %s", err)

    def _undo_refusal(self) -> None:
        if self.state.game_over:
            raise GameOver("the game is over", "game over")
        if self.state.debtor() is not None and not (
            self._group_opened_debt and getattr(self.ruleset, "undo_opens_debt", False)
        ):
            raise UndoRefused("no undo while a debt is being settled", "debt first")
        refuse = getattr(self.ruleset, "refuse_undo", None)
        if refuse is not None:  # the optional hook of bank.engine.ruleset.RefusesUndo
            refuse(self.state)
        if self._undo_group is None:
            raise UndoRefused(
                "nothing to undo: only the last transaction, once, and never an event card",
                "nothing to undo",
            )
        if (
            self._group_had_debt
            and not self._group_opened_debt
            and not self.ruleset.undo_after_settled_debt()
        ):
            raise UndoRefused("a settled debt cannot be undone", "debt settled")

    @property
    def undo_available(self) -> bool:
        """Whether :class:`Undo` would be accepted now."""
        try:
            self._undo_refusal()
        except BankError:
            return False
        return True

    def reset(self, meta: dict[str, Any] | None = None) -> None:
        """Archive the current game in the journal and start an empty one."""
        if self.journal is not None:
            self.journal.new_game({"edition": self.edition.id, **(meta or {})})
        self.state = GameState.empty(self.edition)
        self._seq = self._snapshot_count = 0
        self._undo_events, self._undo_group, self._group_had_debt = [], None, False
        self._undo_outcomes = []
        self._trail = []
        self._group_opened_debt = False

    # ------------------------------------------------------------------ helpers for the unit

    def new_auction(self, number: int, now: float) -> Auction:
        """An auction of the unowned property *number* (started by ``Auction.start``)."""
        if not self.state.started or self.state.game_over:
            raise GameOver("no game in progress", "no game")
        debtor = self.state.debtor()
        if debtor is not None:
            raise InDebt(f"player {debtor.card} must settle a debt first", "settle the debt")
        if not 1 <= number <= len(self.edition.properties):
            raise RuleError(f"there is no property {number}", "no such property")
        step, seconds = self.ruleset.auction_terms()
        return Auction(number, step, seconds, self.state, self.ruleset.check_bid)

    def start(self, cards: Iterable[int]) -> Transaction:
        """Shorthand for ``execute(NewGame(cards))``."""
        return self.execute(NewGame(tuple(cards)))
