"""How often something may happen: every rate limit of the server, on an injectable clock.

Two kinds of budget, each for what it promises (PROTOCOL.md, "Limits"):

- :class:`RateLimit`: at most ``count`` events in any ``seconds``, for one connection,
  seat or table (messages a second, chat, takebacks). It keeps the times of the last
  ``count`` events, which is exact and cheap for the few budgets one viewer has.
- :class:`RateLimiter`: a token bucket (:class:`Rate`) per key, for the HTTP guard's
  kinds of route and client addresses (:data:`triominos.server.guard.LIMITS`). A bucket
  is two numbers whatever its burst, so a flood from many addresses stays small.

The clock is a parameter so that tests move time instead of waiting for it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass

Clock = Callable[[], float]
"""Seconds on a clock that never goes back (:func:`time.monotonic` by default)."""


@dataclass(frozen=True)
class Rate:
    """``burst`` events at once, refilled at ``per_second``."""

    burst: int
    per_second: float


class Bucket:
    """The tokens left of a :class:`Rate` at the moment ``then``."""

    __slots__ = ("rate", "then", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self.tokens = float(rate.burst)
        self.then = now

    def tokens_at(self, now: float) -> float:
        return min(float(self.rate.burst), self.tokens + (now - self.then) * self.rate.per_second)

    def take(self, now: float) -> float:
        """0 when an event may happen now (and it is counted), else seconds until it may."""
        self.tokens, self.then = self.tokens_at(now), now
        if self.tokens < 1:
            return (1 - self.tokens) / self.rate.per_second
        self.tokens -= 1
        return 0.0


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


class RateLimiter:
    """Buckets by key (a kind of route and a client), forgotten once full again: memory
    stays in proportion to the clients of the last few minutes."""

    MAX_BUCKETS = 100_000

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[Hashable, Bucket] = {}

    def wait(self, key: Hashable, rate: Rate) -> float:
        """0 when the event may happen (and it is counted), else seconds until it may."""
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(rate, now)
        wait = bucket.take(now)
        if len(self._buckets) > self.MAX_BUCKETS:
            self._forget_full(now)
        return wait

    def _forget_full(self, now: float) -> None:
        """Forget the full buckets; if too many are not (a flood from very many
        addresses), the half least recently used, so that this runs rarely."""
        self._buckets = {
            key: bucket
            for key, bucket in self._buckets.items()
            if bucket.tokens_at(now) < bucket.rate.burst
        }
        if len(self._buckets) > self.MAX_BUCKETS // 2:
            by_age = sorted(self._buckets.items(), key=lambda item: item[1].then)
            self._buckets = dict(by_age[len(by_age) // 2 :])
