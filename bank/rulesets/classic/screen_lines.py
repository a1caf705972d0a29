"""The classic screens' lines: the width-dependent line (:data:`Line`, a text or a function of
the width: the 20 cells of the character LCD, the 25 of the emulator's glass), the icon
tables and the base class of the classic screens, whose helpers fit each line to both widths
and never cut a number (issue 19). Imports the engine's state, the unit's I/O and texts, and
the classic edition and state; :mod:`.screens_play` and :mod:`.screens` build on it.
"""

from __future__ import annotations

from collections.abc import Callable

from bank.engine.state import GameState
from bank.rulesets.classic import text as _texts  # noqa: F401  (registers the classic texts)
from bank.rulesets.classic.edition import classic_edition
from bank.rulesets.classic.mega import SKYSCRAPER
from bank.rulesets.classic.state import classic
from bank.unit.io import WIDE_COLS, Icon, Screen
from bank.unit.screens import Screens
from bank.unit.text import LCD_WIDTH, MESSAGES, fit, short_name
from board_assets import Edition

#: a screen's line: its text, or its text for a given width (the 20 cells of the character
#: LCD, the 25 of the emulator's glass), for a line whose words depend on the room
Line = str | Callable[[int], str]

_NO_ICONS: frozenset[Icon] = frozenset()
#: the icon of each menu item that has one (§5.4)
_MENU_ICONS = {
    1: Icon.GO,
    2: Icon.JAIL,
    3: Icon.TAX,
    4: Icon.TAX,
    9: Icon.MORTGAGE,
    10: Icon.TRADE,
    11: Icon.DICE,
    12: Icon.CARD,
    13: Icon.POT,
    14: Icon.FORCE,
    16: Icon.DEBT,
}
#: the icons of a screen with a number entry open (docs/classic.md §5.2, §5.5)
_ENTRY_ICONS: frozenset[Icon] = frozenset({Icon.KEYPAD})
#: Méga's buildings (§7.2): the icon each one lights (``Built.building``, ``BuildingSold``)
_BUILDING_ICONS = {"skyscraper": Icon.SKYSCRAPER, "depot": Icon.DEPOT}


class ClassicScreenLines(Screens):
    """The classic screens' base for one edition in one language: the line helpers."""

    def __init__(self, edition: Edition, lang: str) -> None:
        super().__init__(edition, lang)
        self.ed = classic_edition(edition)

    # ------------------------------------------------------------ helpers

    def screen(
        self,
        name: str,
        first: Line,
        second: Line = "",
        *,
        icons: frozenset[Icon] = _NO_ICONS,
        **fields: object,
    ) -> Screen:
        """A screen of two lines (one when *second* is empty), fitted to the LCD, with the
        model's other fields as given; the lines written for the emulator's wider glass too
        (:attr:`Screen.wide`) when they differ (issue 19: the glass shows whole words)."""
        texts = (first, second) if _at(second, WIDE_COLS) else (first,)
        lines = tuple(fit(_at(t, LCD_WIDTH)) for t in texts)
        wide = tuple(fit(_at(t, WIDE_COLS), WIDE_COLS) for t in texts)
        return Screen(
            name,
            lines,
            icons=icons,
            wide=wide if wide != lines else (),
            **fields,  # type: ignore[arg-type]
        )

    def words(self, key: str, **fields: object) -> Line:
        """The message *key* in the unit's language, not yet fitted: the screen fits it to
        each width; a ``<key>.wide`` wording, where there is one, for a width it fits."""
        text = MESSAGES[key][self.lang].format(**fields)
        wide = MESSAGES.get(f"{key}.wide")
        if wide is None:
            return text
        long = wide[self.lang].format(**fields)
        return lambda width: long if len(long) <= width else text

    def wider(
        self, narrow: str, make: Callable[[int | None], str], cuts: tuple[int | None, ...]
    ) -> Line:
        """A line whose 20 cells are *narrow* as written, and whose wider glass takes the first
        of *make*'s texts, its tokens cut to each of *cuts* in turn (None: whole), that fits
        (issue 19: whole token names on the emulator's glass); *narrow* when none does."""

        def at(width: int) -> str:
            if width <= LCD_WIDTH:
                return narrow
            for cut in cuts:
                text = make(cut)
                if len(text) <= width:
                    return text
            return narrow

        return at

    def token(self, state: GameState, card: int | None) -> str:
        """The LCD label of bank card *card* (the edition's, §1.5)."""
        if card is None:
            return self.say("c.debt.bank")
        labels = self.ed.token_labels
        return labels[card - 1] if 1 <= card <= len(labels) else str(card)

    def money(self, amount: int) -> str:
        return f"{amount} {self.ed.currency_lcd}"

    def deed_name(self, number: int, width: int = LCD_WIDTH) -> str:
        """``12 Av. Mozart``: the number and the name, fitted to one line of *width* cells
        (the classic boxes' longest names shortened by hand first, so that none ends cut:
        issue 19); on a wider glass the usual abbreviations first (``27 Av. des
        Champs-Élysées`` in 25 cells)."""
        name = f"{number} {self.ed.deed(number).name}"
        if width > LCD_WIDTH:
            shortened = short_name(name, width)
            if len(name) <= width or not shortened.endswith("…"):
                return shortened
        for long, short in _DEED_ABBREVIATIONS:
            if len(name) <= width:
                break
            name = name.replace(long, short)
        return short_name(name, width)

    def deed_title(self, number: int) -> Line:
        """Deed *number*'s name line, for each width (:meth:`deed_name`)."""
        return lambda width: self.deed_name(number, width)

    def buildings(self, state: GameState, number: int, building: str = "") -> frozenset[Icon]:
        """The Méga icons of deed *number*: the skyscraper on a lot that has one, the depot on
        a station that has one, and *building* (the one just built or sold) whatever is left."""
        icons = {_BUILDING_ICONS[building]} if building else set()
        if state.prop(number).level == SKYSCRAPER:
            icons.add(Icon.SKYSCRAPER)
        if number in classic(state).depots:
            icons.add(Icon.DEPOT)
        return frozenset(icons)

    def deed_colour(self, number: int) -> str | None:
        group = self.ed.deed(number).group
        try:
            return self.edition.group(group).colour
        except (KeyError, ValueError):  # pragma: no cover - every deed's group is in the file
            return None


#: the classic editions' names too long for 20 cells with their number, shortened by hand
_DEED_ABBREVIATIONS: tuple[tuple[str, str], ...] = (
    ("Compagnie de distribution d'électricité", "Cie d'électricité"),
    ("Compagnie de distribution des eaux", "Cie des eaux"),
    ("Champs-Élysées", "Champs-Élys."),
    ("The Angel, Islington", "Angel Islington"),
    ("Northumberland Avenue", "Northumberl'd Av."),
    ("Elephant and Castle", "Elephant & Castle"),
    ("Street Station", "St Stn"),
    ("Station", "Stn"),
)


def _at(line: Line, width: int) -> str:
    """*line*'s text for *width* cells (not yet fitted)."""
    return line(width) if callable(line) else line
