"""A classic journal's records stay small: a roll does not carry the recent rollers whole.

A 10,000-transaction classic journal resumed too slowly (BENCHMARKS.md, the classic area); a
quarter of it was the 64 recent rollers each roll recorded twice, old and new.
"""

from __future__ import annotations

import json

from bank.engine.events import apply, event_from_dict, invert
from bank.rulesets.classic import commands as c

from .classic_support import ext, new_game, replayed, run

#: the recent rollers a classic game keeps for the claim window (§3.4)
ROLLERS_KEPT = 64


def _bytes(row: dict[str, object]) -> int:
    return len(json.dumps(row, separators=(",", ":")))


def test_a_rolls_record_does_not_grow_with_the_rolls_before_it() -> None:
    game = new_game(3)
    sizes = []
    for i in range(3 * ROLLERS_KEPT):
        # a player's roll and an anonymous one in turn, never a double (no jail, no row)
        run(game, c.RollDice(1 + i % 3 if i % 2 else None, (1, 2)))
        sizes.append(_bytes(game.journal.rows[-1]))  # type: ignore[union-attr]
    # the first rolls of a game and the 192nd differ by a few digits (the roll's number, the
    # card that fell off the front), not by a list of the rollers before them
    assert max(sizes) - min(sizes[:4]) <= 32, sizes
    assert max(sizes) < 400
    assert len(ext(game).rollers) == ROLLERS_KEPT
    assert ext(game).rollers[-3:] == (1, None, 3)


def test_the_recent_rollers_replay_and_undo_exactly_once_the_list_is_full() -> None:
    game = new_game(4)
    for i in range(ROLLERS_KEPT + 5):
        run(game, c.RollDice((i % 5) or None, (2, 3)))
    before = game.state
    tx = run(game, c.RollDice(4, (1, 3)))
    assert ext(game).rollers == (*classic_rollers(before)[1:], 4)
    # read back from the stored record: applying it again and undoing it are exact
    events = [event_from_dict(e) for e in game.journal.rows[-1]["events"]]  # type: ignore[union-attr]
    assert apply(before, events) == game.state
    assert apply(game.state, invert(events)) == before
    assert apply(game.state, invert(tx.events)) == before
    assert replayed(game).state == game.state


def test_the_recent_rollers_undo_exactly_before_the_list_is_full() -> None:
    game = new_game(2)
    run(game, c.RollDice(1, (1, 2)), c.RollDice(None, (1, 2)))
    before = game.state
    tx = run(game, c.RollDice(2, (1, 2)))
    assert ext(game).rollers == (1, None, 2)
    assert apply(game.state, invert(tx.events)) == before
    assert replayed(game).state == game.state


def classic_rollers(state: object) -> tuple[int | None, ...]:
    rollers: tuple[int | None, ...] = state.extension.rollers  # type: ignore[attr-defined]
    return rollers
