"""Benchmark of deck loading: a deck file of 1,000 and of 10,000 UIDs, parsed and checked.

Loading must grow linearly with the number of entries (issue 9: a line-number search per key
made 10,000 entries take 27 s). Imports ``drivers.deck``, ``bench.common`` and the stdlib.
"""

from __future__ import annotations

import time

from bench.common import Result, at_most
from drivers.deck import Deck, all_cards

AREA = "deck"


def deck_text(n: int) -> str:
    """A deck file of *n* UIDs, spread over every card (spare stickers)."""
    cards = list(all_cards())
    lines = ["[info]", 'name = "bench"', "", "[cards]"]
    lines += [f'"04{i:012X}" = "{cards[i % len(cards)]}"' for i in range(n)]
    return "\n".join(lines) + "\n"


def load_seconds(n: int, repeat: int = 3) -> float:
    """The best of *repeat* loads of an *n*-entry deck, in seconds."""
    text = deck_text(n)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        deck = Deck.from_toml(text, "bench.toml")
        best = min(best, time.perf_counter() - start)
        assert len(deck) == n
    return best


def run(quick: bool) -> list[Result]:
    small, large = (1_000, 10_000)
    t_small, t_large = load_seconds(small), load_seconds(large, repeat=1 if quick else 3)
    growth = t_large / t_small
    return [
        Result(AREA, f"deck load, {small:,} UIDs", t_small * 1e3, "ms"),
        Result(
            AREA,
            f"deck load, {large:,} UIDs",
            t_large * 1e3,
            "ms",
            target=at_most(1000),
            note=f"{growth:.1f}x the {small:,}-UID load for 10x the entries (linear: about 10x)",
        ),
    ]
