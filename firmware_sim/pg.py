"""The one place the emulator imports pygame, with the environment it needs set first.

``PYGAME_HIDE_SUPPORT_PROMPT`` silences the banner and ``SDL_VIDEO_X11_WMCLASS=ubemu`` gives
the window a stable class (``xdotool search --classname ubemu``); both only take effect if
set before pygame is imported, and an explicit value in the environment wins. A missing
pygame is an ``ImportError`` (``name="pygame"``) whose message says how to install it, so the
command line can fall back to the terminal view.

Imports pygame and the standard library.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "ubemu")

try:
    import pygame
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(
        "the emulator needs pygame-ce: pip install 'ultibank[emu]' (or pip install pygame-ce)",
        name="pygame",
    ) from err

#: The pygame flavour and version the golden images were drawn with.
PYGAME_VERSION = str(pygame.version.ver)
IS_CE = bool(getattr(pygame, "IS_CE", False))

__all__ = ["IS_CE", "PYGAME_VERSION", "pygame"]
