"""Repeated errors logged at most once per interval, with a count of what was held back.

A flood (a thousand connections, a descriptor shortage that lasts) must not write megabytes
of the same traceback to the log. Imports the standard library only.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Final

#: a repeated error is logged at most once in this many seconds
LOG_EVERY_S: Final = 10.0


class RateLimitedLog:
    """Logs a repeated error at most once per *every* seconds per key, counting the rest."""

    def __init__(self, logger: logging.Logger, every: float = LOG_EVERY_S) -> None:
        self.logger = logger
        self.every = every
        self._next: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(
        self, key: str, level: int, msg: str, *args: Any, exc: BaseException | bool = False
    ) -> bool:
        """Log unless *key* was logged less than *every* seconds ago; True if logged."""
        now = time.monotonic()
        with self._lock:
            if now < self._next.get(key, 0.0):
                self._held[key] = self._held.get(key, 0) + 1
                return False
            self._next[key] = now + self.every
            held = self._held.pop(key, 0)
        if held:
            msg += f" ({held} more like this in the last {self.every:g} s not logged)"
        self.logger.log(level, msg, *args, exc_info=exc)
        return True
