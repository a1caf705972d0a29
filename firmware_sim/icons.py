"""Pictograms of the LCD glass: the status icons (ten Ultime, nine classic) and the tokens.

Each pictogram is drawn with pygame primitives, in one colour, inside a box of
:data:`ICON_SIZE` or :data:`TOKEN_SIZE`: the LCD draws it in the "on" colour when lit and in
the ghost colour otherwise, as a fixed segment of custom glass would show.

Imports pygame (through :mod:`firmware_sim.pg`), the emulator's dot font and ``bank.unit.io``.
"""

from __future__ import annotations

from collections.abc import Callable

from bank.unit.io import Icon
from firmware_sim.dotfont import DotMatrix
from firmware_sim.pg import pygame

Colour = tuple[int, int, int]
ICON_SIZE = (36, 28)
TOKEN_SIZE = (36, 22)


def _text(surf: pygame.Surface, text: str, pos: tuple[int, int], colour: Colour) -> None:
    DotMatrix(pitch=2, dot=2, on=colour, ghost=None).draw(surf, text, pos)


def _go(s: pygame.Surface, c: Colour) -> None:
    _text(s, "GO", (7, 1), c)
    pygame.draw.polygon(s, c, [(4, 22), (12, 16), (12, 20), (32, 20), (32, 24), (12, 24), (12, 28)])


def _jail(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.rect(s, c, pygame.Rect(5, 1, 26, 26), width=3)
    for x in (11, 16, 21, 26):
        pygame.draw.line(s, c, (x - 1, 3), (x - 1, 24), width=2)
    pygame.draw.line(s, c, (6, 13), (29, 13), width=2)


def _location(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.circle(s, c, (18, 10), 9)
    pygame.draw.polygon(s, c, [(10, 14), (26, 14), (18, 27)])
    pygame.draw.circle(s, (0, 0, 0, 0), (18, 10), 4)


def _auction(s: pygame.Surface, c: Colour) -> None:
    # gavel head (a tilted block), handle, and the sounding block
    pygame.draw.polygon(s, c, [(8, 8), (18, 1), (24, 9), (14, 16)])
    pygame.draw.line(s, c, (18, 11), (31, 22), width=4)
    pygame.draw.rect(s, c, pygame.Rect(3, 22, 16, 5))


def _undo(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.arc(s, c, pygame.Rect(6, 4, 26, 22), -1.9, 1.9, width=4)
    pygame.draw.polygon(s, c, [(8, 2), (20, 2), (13, 12)])


def _trophy(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.polygon(s, c, [(9, 1), (27, 1), (25, 11), (18, 15), (11, 11)])
    pygame.draw.rect(s, c, pygame.Rect(4, 2, 6, 3))
    pygame.draw.rect(s, c, pygame.Rect(26, 2, 6, 3))
    pygame.draw.rect(s, c, pygame.Rect(4, 2, 3, 8))
    pygame.draw.rect(s, c, pygame.Rect(29, 2, 3, 8))
    pygame.draw.rect(s, c, pygame.Rect(16, 14, 4, 7))
    pygame.draw.rect(s, c, pygame.Rect(10, 21, 16, 5))


def _event(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.rect(s, c, pygame.Rect(8, 1, 20, 26), width=2)
    _text(s, "?", (13, 7), c)


def _debt(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.circle(s, c, (18, 14), 12, width=3)
    pygame.draw.rect(s, c, pygame.Rect(11, 12, 14, 4))


def _error(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.polygon(s, c, [(18, 1), (34, 27), (2, 27)], width=3)
    pygame.draw.rect(s, c, pygame.Rect(17, 9, 3, 10))
    pygame.draw.rect(s, c, pygame.Rect(17, 21, 3, 3))


def _reader_lost(s: pygame.Surface, c: Colour) -> None:
    # the contactless waves, and a cross: no reader
    pygame.draw.circle(s, c, (4, 13), 3)
    for r in (7, 13, 19):
        box = pygame.Rect(4 - r, 13 - r, 2 * r, 2 * r)
        pygame.draw.arc(s, c, box, -0.8, 0.8, width=3)
    pygame.draw.line(s, c, (25, 15), (34, 25), width=3)
    pygame.draw.line(s, c, (25, 25), (34, 15), width=3)


def _mortgage(s: pygame.Surface, c: Colour) -> None:
    # a deed card turned over: a frame with an "H" (hypothèque / mortgaged)
    pygame.draw.rect(s, c, pygame.Rect(7, 1, 22, 26), width=2)
    _text(s, "H", (14, 7), c)


def _tax(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.rect(s, c, pygame.Rect(6, 4, 24, 20), width=2)
    _text(s, "%", (13, 7), c)


def _dice(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.rect(s, c, pygame.Rect(2, 6, 16, 16), width=2)
    pygame.draw.rect(s, c, pygame.Rect(18, 2, 16, 16), width=2)
    for x, y in ((6, 10), (13, 17), (22, 6), (26, 10), (30, 14)):
        pygame.draw.circle(s, c, (x, y), 2)


def _trade(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.polygon(s, c, [(4, 9), (12, 3), (12, 7), (30, 7), (30, 11), (12, 11), (12, 15)])
    pygame.draw.polygon(s, c, [(32, 19), (24, 13), (24, 17), (6, 17), (6, 21), (24, 21), (24, 25)])


def _pot(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.ellipse(s, c, pygame.Rect(6, 8, 24, 18), width=3)
    pygame.draw.rect(s, c, pygame.Rect(10, 4, 16, 4))


def _card(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.rect(s, c, pygame.Rect(4, 5, 28, 18), width=2)
    _text(s, "!", (16, 8), c)


def _skyscraper(s: pygame.Surface, c: Colour) -> None:
    # a tall tower with its antenna and its windows, a low block beside it (bold: it is also
    # shown at half size)
    pygame.draw.line(s, c, (17, 0), (17, 5), width=3)
    pygame.draw.rect(s, c, pygame.Rect(10, 5, 15, 23))
    for y in (8, 13, 18, 23):
        for x in (13, 19):
            pygame.draw.rect(s, (0, 0, 0, 0), pygame.Rect(x, y, 3, 3))
    pygame.draw.rect(s, c, pygame.Rect(27, 15, 8, 13))


def _depot(s: pygame.Surface, c: Colour) -> None:
    # a train shed: the roof, its open door, and the rails leaving it
    pygame.draw.polygon(s, c, [(2, 13), (18, 1), (34, 13)])
    pygame.draw.rect(s, c, pygame.Rect(5, 13, 26, 11))
    pygame.draw.rect(s, (0, 0, 0, 0), pygame.Rect(13, 16, 10, 8))
    pygame.draw.line(s, c, (0, 26), (35, 26), width=3)


def _force(s: pygame.Surface, c: Colour) -> None:
    # a lightsaber: the blade, and the hilt with its guard
    pygame.draw.line(s, c, (11, 18), (32, 1), width=6)
    pygame.draw.line(s, c, (3, 27), (10, 20), width=7)
    pygame.draw.line(s, c, (5, 15), (14, 25), width=3)


def _keypad(s: pygame.Surface, c: Colour) -> None:
    # the 3 x 4 keypad's twelve keys, on a grid that the classic block's 22 x 17 keeps
    # apart (each key a block of pixels there, a pixel from the next)
    for row in range(4):
        for col in range(3):
            pygame.draw.rect(s, c, pygame.Rect(5 + 8 * col, 1 + 7 * row, 5, 4))


def _car(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.polygon(s, c, [(1, 15), (3, 9), (10, 8), (14, 3), (25, 3), (30, 8), (35, 10),
                               (35, 16), (1, 16)])  # fmt: skip
    pygame.draw.circle(s, c, (9, 17), 4)
    pygame.draw.circle(s, c, (27, 17), 4)


def _helicopter(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.line(s, c, (3, 2), (31, 2), width=2)
    pygame.draw.line(s, c, (16, 2), (16, 6), width=2)
    pygame.draw.ellipse(s, c, pygame.Rect(8, 5, 16, 11))
    pygame.draw.line(s, c, (22, 9), (35, 8), width=3)
    pygame.draw.line(s, c, (34, 4), (34, 11), width=2)
    pygame.draw.line(s, c, (9, 20), (23, 20), width=2)
    pygame.draw.line(s, c, (12, 15), (11, 20), width=2)
    pygame.draw.line(s, c, (20, 15), (21, 20), width=2)


def _boat(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.polygon(s, c, [(1, 14), (35, 14), (29, 21), (6, 21)])
    pygame.draw.line(s, c, (17, 0), (17, 14), width=2)
    pygame.draw.polygon(s, c, [(19, 1), (31, 12), (19, 12)])
    pygame.draw.polygon(s, c, [(15, 3), (15, 12), (6, 12)])


def _jet(s: pygame.Surface, c: Colour) -> None:
    pygame.draw.polygon(s, c, [(1, 11), (5, 9), (33, 9), (35, 11), (33, 13), (5, 13)])
    pygame.draw.polygon(s, c, [(14, 9), (22, 9), (13, 0), (10, 0)])
    pygame.draw.polygon(s, c, [(14, 13), (22, 13), (13, 21), (10, 21)])
    pygame.draw.polygon(s, c, [(28, 9), (32, 9), (35, 3), (33, 3)])


_ICONS: dict[Icon, Callable[[pygame.Surface, Colour], None]] = {
    Icon.GO: _go,
    Icon.JAIL: _jail,
    Icon.LOCATION: _location,
    Icon.AUCTION: _auction,
    Icon.UNDO: _undo,
    Icon.TROPHY: _trophy,
    Icon.EVENT: _event,
    Icon.DEBT: _debt,
    Icon.ERROR: _error,
    Icon.READER_LOST: _reader_lost,
    Icon.MORTGAGE: _mortgage,
    Icon.TAX: _tax,
    Icon.DICE: _dice,
    Icon.TRADE: _trade,
    Icon.POT: _pot,
    Icon.CARD: _card,
    Icon.SKYSCRAPER: _skyscraper,
    Icon.DEPOT: _depot,
    Icon.FORCE: _force,
    Icon.KEYPAD: _keypad,
}

_TOKENS: dict[str, Callable[[pygame.Surface, Colour], None]] = {
    "car": _car,
    "helicopter": _helicopter,
    "boat": _boat,
    "jet": _jet,
}
#: the tokens printed on the unit's glass (an edition's other tokens show as text only)
PICTOGRAM_TOKENS: tuple[str, ...] = tuple(_TOKENS)
assert set(_ICONS) == set(Icon), "an icon has no pictogram"


def icon_surface(icon: Icon, colour: Colour) -> pygame.Surface:
    """A transparent surface of :data:`ICON_SIZE` with *icon* drawn in *colour*."""
    surf = pygame.Surface(ICON_SIZE, pygame.SRCALPHA)
    _ICONS[icon](surf, colour)
    return surf


def art_surface(rows: tuple[str, ...], colour: Colour) -> pygame.Surface:
    """A transparent surface of :data:`ICON_SIZE` with a ruleset's icon drawn from its bitmap
    (rows of ``#`` for a lit dot), centred and scaled by whole dots to fill the box."""
    surf = pygame.Surface(ICON_SIZE, pygame.SRCALPHA)
    width, height = len(rows[0]), len(rows)
    dot = max(1, min(ICON_SIZE[0] // width, ICON_SIZE[1] // height))
    x0 = (ICON_SIZE[0] - dot * width) // 2
    y0 = (ICON_SIZE[1] - dot * height) // 2
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                surf.fill(colour, pygame.Rect(x0 + x * dot, y0 + y * dot, dot, dot))
    return surf


def token_surface(token: str, colour: Colour) -> pygame.Surface:
    """A transparent surface of :data:`TOKEN_SIZE` with the *token* pictogram in *colour*."""
    try:
        draw = _TOKENS[token]
    except KeyError:
        known = ", ".join(PICTOGRAM_TOKENS)
        raise ValueError(f"unknown token {token!r}: tokens are {known}") from None
    surf = pygame.Surface(TOKEN_SIZE, pygame.SRCALPHA)
    draw(surf, colour)
    return surf
