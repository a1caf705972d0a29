"""Sleep the pygame thread until something happens: an input, a screen, a timer.

pygame has no blocking wait that does not poll (``pygame.event.wait`` looks at the queue every
millisecond), so :class:`EventWaiter` calls the SDL library that pygame itself loaded, through
ctypes, and picks the best way the video driver offers:

``block``
    X11, Wayland, Windows and macOS: ``SDL_WaitEventTimeout`` sleeps in the system until the
    window gets an event; an event posted from another thread (``pygame.event.post``, which is
    how :meth:`EventWaiter.wake` wakes it) interrupts the sleep at once.
``watch``
    Drivers that cannot sleep on the system (the ``dummy`` and ``offscreen`` drivers of tests and
    screenshots, ``kmsdrm``): an SDL event watch, called by every thread that posts an event,
    wakes a :class:`threading.Event`; the wait is still cut to the polling period so that
    events the driver only finds when it is pumped are not left waiting longer than today.
``poll``
    Without ctypes access to SDL, or when asked (``prefer="poll"``, for the benchmark's
    comparison): wake on :meth:`EventWaiter.wake`, otherwise poll at the given period (how
    the emulator worked before: a click waited up to one period).

Every wait is also cut to :data:`MAX_SLEEP`, so that a Python signal handler (SIGTERM) or a
``stop`` event set by another thread is seen within that time.

Imports pygame (through :mod:`firmware_sim.pg`) and the standard library.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import sys
import threading
import time
import weakref
from pathlib import Path

from firmware_sim.pg import pygame

log = logging.getLogger(__name__)

#: The longest single sleep, in seconds: how soon a signal or a stop flag is noticed.
MAX_SLEEP = 0.25
#: Video drivers whose SDL_WaitEventTimeout sleeps in the system rather than polling.
BLOCKING_DRIVERS = frozenset({"x11", "wayland", "windows", "cocoa"})
#: Video drivers that only ever see events posted by the process itself.
NO_SYSTEM_INPUT = frozenset({"dummy", "offscreen"})

#: The event :meth:`EventWaiter.wake` posts to interrupt a sleeping SDL (it does nothing else).
WAKE = pygame.event.custom_type()

_WATCH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)

#: The waiters an SDL event watch wakes. One watch function serves them all and lives as long
#: as the process: SDL may call it from any thread at any time, even after a panel is gone.
_WATCHERS: weakref.WeakSet[EventWaiter] = weakref.WeakSet()


def _on_event(_userdata: int | None, _event: int | None) -> int:
    # Runs in the thread that posts the event, before SDL queues it.
    poster = threading.get_ident()
    try:
        waiters = list(_WATCHERS)
    except RuntimeError:  # the set changed under us: a window opened or closed
        return 1
    for waiter in waiters:
        waiter.notify(poster)
    return 1


_WATCH_FUNCTION = _WATCH(_on_event)


def _sdl_library() -> ctypes.CDLL | None:
    """The SDL2 library pygame loaded (the same copy, so the same event queue), or None."""
    candidates: list[str] = []
    maps = Path("/proc/self/maps")
    if maps.exists():
        for line in maps.read_text().splitlines():
            path = line.split()[-1] if line.split() else ""
            if "libSDL2-2" in path or Path(path).name.startswith("libSDL2-2.0"):
                candidates.append(path)
    here = Path(pygame.__file__).resolve().parent
    for folder in (here, here / ".dylibs", here.parent / "pygame_ce.libs"):
        if folder.is_dir():
            candidates += [str(p) for p in sorted(folder.glob("*SDL2*")) if "_" not in p.name]
    for path in candidates:
        try:
            lib = ctypes.CDLL(path)
            lib.SDL_WaitEventTimeout.argtypes = [ctypes.c_void_p, ctypes.c_int]
            lib.SDL_WaitEventTimeout.restype = ctypes.c_int
            lib.SDL_AddEventWatch.argtypes = [_WATCH, ctypes.c_void_p]
            lib.SDL_AddEventWatch.restype = None
            lib.SDL_DelEventWatch.argtypes = [_WATCH, ctypes.c_void_p]
            lib.SDL_DelEventWatch.restype = None
        except (OSError, AttributeError):
            continue
        return lib
    return None


class EventWaiter:
    """Puts the pygame thread to sleep until SDL has an event, a deadline passes or
    :meth:`wake` is called (from any thread).

    :meth:`attach` once the window is open (in the pygame thread), :meth:`detach` before
    the display is shut.
    """

    def __init__(self, poll_period: float = 1 / 30, *, prefer: str = "auto") -> None:
        if prefer not in ("auto", "poll"):
            raise ValueError(f"event wait must be 'auto' or 'poll', not {prefer!r}")
        self.poll_period = poll_period
        self.prefer = prefer
        self.mode = "poll"
        self._wake = threading.Event()
        self._sdl: ctypes.CDLL | None = None
        self._pushed = False
        self._ui_thread: int | None = None

    def attach(self) -> None:
        """Choose how to wait, for the video driver now running."""
        if self.prefer == "poll" or self.mode != "poll" or self._sdl is not None:
            return
        lib = _sdl_library() if sys.platform != "emscripten" else None
        if lib is None:
            log.info("emulator: SDL not reachable through ctypes; polling events")
            return
        self._sdl = lib
        self._ui_thread = threading.get_ident()
        driver = pygame.display.get_driver()
        if driver in BLOCKING_DRIVERS:
            self.mode = "block"
            return
        # SDL forgets its watches when its event loop stops (the display quit): add it again,
        # once (deleting first makes sure there is only one).
        lib.SDL_DelEventWatch(_WATCH_FUNCTION, None)
        lib.SDL_AddEventWatch(_WATCH_FUNCTION, None)
        _WATCHERS.add(self)
        self.mode = "watch"

    def detach(self) -> None:
        """Stop being woken by the event watch (before the display shuts)."""
        _WATCHERS.discard(self)
        self._sdl = None
        self.mode = "poll"

    def notify(self, poster: int) -> None:
        """An event is being posted by thread *poster* (called by the event watch)."""
        # The pygame thread's own pumping needs no wake-up: it reads the queue right after.
        if poster != self._ui_thread:
            self._pushed = True
            self._wake.set()

    def wake(self) -> None:
        """Wake the pygame thread now (any thread)."""
        self._wake.set()
        if self.mode == "block":
            with contextlib.suppress(pygame.error):  # the display is not (or no longer) open
                pygame.event.post(pygame.event.Event(WAKE))

    def wait(self, timeout: float | None) -> None:
        """Sleep at most *timeout* seconds (None: until something happens)."""
        limit = MAX_SLEEP if timeout is None else max(0.0, min(timeout, MAX_SLEEP))
        if self.mode == "block" and self._sdl is not None:
            if not self._wake.is_set():
                self._sdl.SDL_WaitEventTimeout(None, max(1, round(limit * 1000)))
            self._wake.clear()
            return
        if self.mode == "watch":
            limit = min(limit, self.poll_period) if self._needs_pumping() else limit
        else:
            limit = min(limit, self.poll_period)
        self._wake.wait(limit)
        self._wake.clear()
        if self._pushed:
            self._pushed = False
            self._settle()

    def wait_woken(self, timeout: float) -> bool:
        """Sleep at most *timeout* seconds or until :meth:`wake`, whatever SDL gets meanwhile;
        True if woken. For a short wait on another thread (the daemon's answer to an input):
        in ``block`` mode a wake-up through SDL goes by the X server and back (SDL sends its
        sleeping window an event), which a busy X server delays by milliseconds."""
        woken = self._wake.wait(max(0.0, timeout))
        self._wake.clear()
        return woken

    def _needs_pumping(self) -> bool:
        return pygame.display.get_init() and pygame.display.get_driver() not in NO_SYSTEM_INPUT

    @staticmethod
    def _settle() -> None:
        """A watch runs just before SDL queues the event: give the poster a moment to finish."""
        deadline = time.perf_counter() + 0.002
        while not pygame.event.peek() and time.perf_counter() < deadline:
            time.sleep(0.0002)
