"""The cards on the emulator's table when the game's ruleset lays them out itself.

The ruleset says it as data (:class:`bank.unit.io.Tray` in the panel vocabulary
:class:`bank.unit.io.Labels` the wiring gives the window): the cards laid out in columns, the
decks on the table, what hovering a card says, the name on a card's big face and a bank card's
mark. The window draws it without knowing the ruleset (the classic ruleset fills it in,
``bank/rulesets/classic/panel.py``: deeds in columns, the Chance and Community Chest cards,
the rents and costs of each deed, the sides of Star Wars' characters).

Imports ``bank.unit.io`` and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass

from bank.unit.io import CardId, CardRanges, Labels, Tray


@dataclass(frozen=True, slots=True)
class TrayView:
    """A ruleset's tray as the window reads it: its labels, its tray and the game's cards."""

    labels: Labels
    tray: Tray
    cards: CardRanges

    @classmethod
    def of(cls, labels: Labels | None, cards: CardRanges) -> TrayView | None:
        """The tray *labels* give (None: the window lays out its own tray)."""
        if labels is None or labels.tray is None:
            return None
        return cls(labels, labels.tray, cards)

    @property
    def tokens(self) -> dict[str, str]:
        """Each token's LCD label (``dog`` -> ``chien``), for the glass."""
        return {t: self.labels.token(t) for t in self.cards.tokens}

    def seat_label(self, seat: int) -> str:
        """The label of bank card *seat*'s token."""
        return self.labels.token(self.cards.token(seat))

    def mark(self, seat: int) -> str | None:
        """Bank card *seat*'s mark (``light``, ``dark``), if the ruleset gives one."""
        return self.tray.marks.get(seat)

    def name(self, card: CardId) -> str:
        """The name on *card*'s big face (empty: none)."""
        return self.tray.names.get(card, "")

    def deck_name(self, kind: str) -> str:
        """The title of the deck of *kind*."""
        return self.labels.decks.get(kind, kind)

    def describe(self, card: CardId) -> tuple[str, ...]:
        """What hovering *card* says."""
        return self.tray.describe(card)
