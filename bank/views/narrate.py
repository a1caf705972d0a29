"""Transactions in words: what the core knows of narration, whatever the ruleset.

A ruleset says its own transactions (its package's ``narrate`` module, reached through the
ruleset: :func:`narrator_for`): the history (``ultibank history``), the web view's list and
the unit's voice (:mod:`bank.views.speech`) all take their sentences from it. A narrator reads what
happened from the journalled outcome (:attr:`bank.engine.records.Record.outcome`, derived once for
a record older than the outcome by :func:`bank.engine.records.outcome_of`) and names things from the
state the transaction started from; it never works the outcome out from the events.

This module holds only the protocol every narrator follows, the languages, the tokens' names
each ruleset registers (:func:`register_token_labels`), and :func:`states_before`, the walk
back from a game's state to the state each of its last records started from. Imports the
engine's event and state types, the ruleset registry, ``board_assets`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final, Protocol

from bank import rulesets
from bank.engine.errors import BankError
from bank.engine.events import MoneyMoved, PropertyChanged, apply, invert
from bank.engine.records import Record
from bank.engine.state import GameState
from board_assets import Edition

__all__ = [
    "LANGUAGES",
    "Narrator",
    "PlainNarrator",
    "has_words",
    "narrator_for",
    "register_token_labels",
    "states_before",
    "token_label",
]

LANGUAGES: Final = ("fr", "en")

#: token -> language -> its name, as each ruleset registered it (the chart, the web page,
#: the history; the LCD's are shorter)
_TOKEN_LABELS: dict[str, dict[str, str]] = {}


def register_token_labels(labels: Mapping[str, Mapping[str, str]]) -> None:
    """Name a ruleset's tokens in each language (``{"dog": {"fr": "chien", ...}}``)."""
    for token, names in labels.items():
        _TOKEN_LABELS.setdefault(token, {}).update(names)


def token_label(lang: str, token: str) -> str:
    """A token's name in *lang* (``voiture``); an unknown token as it is."""
    if not _TOKEN_LABELS:
        _load_narrators()
    return _TOKEN_LABELS.get(token, {}).get(lang, token)


def _load_narrators() -> None:
    """Import every registered ruleset's narration (which registers its tokens' names)."""
    for name in rulesets.names():
        load = rulesets.find(name).token_labels
        if load is not None:
            register_token_labels(load())


class Narrator(Protocol):
    """Says one ruleset's transactions in one language, for one edition."""

    #: whether its words need the very state each record started from (the classic houses
    #: on a deed when its rent was paid); False: any state of the same game will do (the
    #: Ultime words name players by their tokens only), so a reader need not walk back
    walks_back: bool

    @property
    def lang(self) -> str:
        """``fr`` or ``en``."""
        ...

    def words(self, record: Record, before: GameState) -> tuple[str, str]:
        """The transaction in one sentence and what it moved; *before*: the state it
        started from."""
        ...

    def title(self, record: Record, before: GameState) -> str:
        """The sentence alone (the record's command name when it has none)."""
        ...

    def money(self, amount: int) -> str:
        """An amount as the narrator writes it."""
        ...

    def who(self, card: int | None, state: GameState | None = None) -> str:
        """A player by their token's name; None: the bank."""
        ...

    def aloud(self, record: Record, before: GameState, title: str) -> list[str]:
        """What the unit's voice says for *record*, whose :meth:`title` is *title*: the parts
        of its sentence, written (the voice expands each for the ear and joins them)."""
        ...

    def token_name(self, token: str) -> str:
        """A token as the players call it (``chien``, ``Obi-Wan``)."""
        ...

    def balance_more(self, token: str, state: GameState) -> str | None:
        """What the voice adds to a player's balance (the classic deeds: ``3 titres``), or
        None."""
        ...

    def screen_words(self, screen: str, number: int | None) -> str | None:
        """The voice's sentence for one of the ruleset's own screens (*screen*: its name,
        *number*: its deed), or None: the screen's lines are said."""
        ...


def narrator_for(
    edition: Edition, lang: str, say_money: Callable[[int], str] | None = None
) -> Narrator:
    """The narrator of *edition*'s ruleset in *lang*; given *say_money* (how the voice says an
    amount: :func:`bank.views.speech.money_words`), the voice's (deeds by their names, amounts in
    words). A ruleset without words of its own gets :class:`PlainNarrator`."""
    spec = rulesets.find(edition.ruleset)
    lang = lang if lang in LANGUAGES else "en"
    if spec.narrator is None:
        return PlainNarrator(edition, lang)
    narrator: Narrator = spec.narrator(edition, lang, say_money)
    return narrator


def has_words(ruleset: str) -> bool:
    """Whether the ruleset *ruleset* says its transactions in words of its own."""
    try:
        return rulesets.find(ruleset).narrator is not None
    except BankError:
        return False


class PlainNarrator:
    """The words of a ruleset that has none of its own: the command with its fields, and
    the events that moved money or deeds, by card number (no ruleset's vocabulary)."""

    walks_back = False

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang

    def words(self, record: Record, before: GameState) -> tuple[str, str]:
        return self.title(record, before), self.detail(record)

    def title(self, record: Record, before: GameState) -> str:
        args = " ".join(f"{k}={v}" for k, v in record.arguments().items())
        return f"{record.name} {args}".strip()

    def detail(self, record: Record) -> str:
        moves = []
        for e in record.events:
            if isinstance(e, MoneyMoved):
                moves.append(f"{self.who(e.payer)} → {self.who(e.payee)} {e.amount}")
            elif isinstance(e, PropertyChanged) and e.old_owner != e.new_owner:
                moves.append(f"#{e.number} → {self.who(e.new_owner)}")
        return "; ".join(moves)

    def money(self, amount: int) -> str:
        return str(amount)

    def who(self, card: int | None, state: GameState | None = None) -> str:
        return "bank" if card is None else f"card {card}"

    def aloud(self, record: Record, before: GameState, title: str) -> list[str]:
        return [title]

    def token_name(self, token: str) -> str:
        return token_label(self.lang, token)

    def balance_more(self, token: str, state: GameState) -> str | None:
        return None

    def screen_words(self, screen: str, number: int | None) -> str | None:
        return None


def states_before(state: GameState, records: Sequence[Record]) -> Iterator[GameState]:
    """The state each of *records* started from, last first, walking back from *state*.

    *state* is the state after the last record (the game now): each record's events are
    undone in turn, so only the records asked for are read (the web view's last few).
    """
    for record in reversed(records):
        state = apply(state, invert(record.events))
        yield state
