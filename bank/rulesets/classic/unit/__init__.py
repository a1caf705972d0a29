"""The classic unit (docs/classic.md §5), one module per family of gestures.

:mod:`.core` holds :class:`ClassicUnit`, which hands each tap, key and button to the family
that owns the unit's step; :mod:`.steps` holds the steps (each family's small state objects)
and :mod:`.family` what the families share. Imports its own modules.
"""

from __future__ import annotations

from bank.rulesets.classic.unit.core import ClassicUnit
from bank.rulesets.classic.unit.steps import (
    AuctionOffer,
    AwaitDraw,
    Bankruptcy,
    CardDrawn,
    DeedCheck,
    DrawOffer,
    Entry,
    Interest,
    Menu,
    Offer,
    PayOrDraw,
    Pick,
    Series,
    Session,
    TradeDraft,
    Trading,
)

__all__ = [
    "AuctionOffer",
    "AwaitDraw",
    "Bankruptcy",
    "CardDrawn",
    "ClassicUnit",
    "DeedCheck",
    "DrawOffer",
    "Entry",
    "Interest",
    "Menu",
    "Offer",
    "PayOrDraw",
    "Pick",
    "Series",
    "Session",
    "TradeDraft",
    "Trading",
]
