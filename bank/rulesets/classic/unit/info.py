"""The info screens (docs/classic.md §5.6): a keyboard panel's info keys (the last deed, whose turn,
their cash and deeds, the others' deeds) and the paged ``table`` and ``scores`` screens that
menu items 17 and 18 show too.

Imports the unit's families and steps.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit.family import Family
from bank.unit.io import Screen
from bank.unit.shell import Idle
from bank.unit.text import LCD_WIDTH

if TYPE_CHECKING:
    from bank.rulesets.classic.unit.core import ClassicUnit


class InfoScreens(Family):
    """The info screens and their pages."""

    def __init__(self, unit: ClassicUnit) -> None:
        super().__init__(unit)
        #: the last deed tapped (info ``deed``)
        self._last_deed: int | None = None
        #: the paged info screen shown last: its name, page and screen (asked again: next page)
        self._info_shown: tuple[str, int, Screen] | None = None

    def deed_tapped(self, number: int) -> None:
        self._last_deed = number

    def show(self, name: str) -> None:
        s = self._state
        if not s.started or not isinstance(self.step, Idle):
            self._refuse("err.not_now")
            return
        scr, ext = self.screens, classic(s)
        say = scr.say
        turn = next((r for r in reversed(ext.rollers) if r is not None), None)
        if name == "deed":
            if self._last_deed is None:
                self._refuse("err.not_now")
                return
            self.step = Idle(self._idle_expiry())
            self._show(replace(self.u.landing.deed_screen(self._last_deed), name="info"))
            return
        if name in ("table", "scores"):  # pages: asked again, the next one (issue 19)
            screen = self.page(name)
        elif name in ("turn", "cash"):
            if turn is None:
                screen = scr.info(say("c.info.turn"), say("c.info.nobody"))
            else:
                player = s.player(turn)
                assert player is not None
                title = say("c.info.turn") if name == "turn" else say("c.info.cash")
                screen = scr.info(
                    title,
                    f"{scr.token(s, turn)} {scr.money(player.balance)}",
                    token=player.token,
                    amount=player.balance,
                )
        elif name in ("deeds", "others"):
            cards = (
                [turn]
                if name == "deeds" and turn is not None
                else [p.card for p in s.players if p.card != turn]
            )
            owned = [str(p.number) for p in s.properties if p.owner in cards]
            who = scr.token(s, turn) if name == "deeds" and turn is not None else "?"
            screen = scr.info(say("c.info.deeds", token=who), ",".join(owned) or say("c.info.none"))
        self.step = Idle(self._idle_expiry())
        self._show(screen)

    def page(self, name: str) -> Screen:
        """The ``table`` (every player's cash, two lines a page) or ``scores`` (the ranking,
        one line a page, the page on the title line) info screen: the first page, or the next
        one when the screen on the LCD is this one's page (the last page wraps to the first).
        Each line holds as many whole entries as its 20 cells take, so no amount is cut."""
        s, scr = self._state, self.screens
        if name == "table":
            parts = [f"{scr.token(s, p.card)[:4]} {p.balance}" for p in s.players if not p.bankrupt]
        else:
            cfg = self._rules.settings(s)
            ranked = sorted(s.players, key=lambda p: -self._rules.worth(s, p.card, cfg))
            parts = [f"{i}.{scr.token(s, p.card)[:8]}" for i, p in enumerate(ranked, 1)]
        lines: list[str] = []
        for part in parts:
            if lines and len(lines[-1]) + 1 + len(part) <= LCD_WIDTH:
                lines[-1] += " " + part
            else:
                lines.append(part)
        per_page = 2 if name == "table" else 1
        pages = [lines[i : i + per_page] for i in range(0, len(lines), per_page)] or [[""]]
        shown = self._info_shown
        page = 0
        if shown is not None and shown[0] == name and shown[2] is self.screen:
            page = (shown[1] + 1) % len(pages)
        rows = pages[page]
        if name == "table":
            screen = scr.info(rows[0], rows[1] if len(rows) > 1 else "")
        else:
            many = f" {page + 1}/{len(pages)}" if len(pages) > 1 else ""
            screen = scr.info(scr.say("c.info.scores") + many, rows[0])
        self._info_shown = (name, page, screen)
        return screen
