"""The server's rate limits, on a clock that can be injected (tests move it).

A leaf module: the table state (:mod:`triominos.server.tablestate`), the room and the
WebSocket all count with it, and it imports none of them.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]
"""Seconds on a clock that never goes back (:func:`time.monotonic` by default)."""


class RateLimit:
    """At most ``count`` events in any ``seconds``."""

    def __init__(self, count: int, seconds: float, clock: Clock = time.monotonic) -> None:
        self.count = count
        self.seconds = seconds
        self._clock = clock
        self._times: deque[float] = deque(maxlen=count)

    def allow(self) -> bool:
        """Whether an event may happen now; if so, it is counted."""
        moment = self._clock()
        if len(self._times) == self.count and moment - self._times[0] < self.seconds:
            return False
        self._times.append(moment)
        return True
