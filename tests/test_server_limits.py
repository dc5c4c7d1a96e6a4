"""The server's rate limits on a clock the test moves: a budget refills exactly as
PROTOCOL.md ("Limits") says, whatever the machine's speed."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from triominos.server.guard import LIMIT
from triominos.server.limits import Rate, RateLimit, RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_allows_count_events_in_any_window() -> None:
    clock = Clock()
    limit = RateLimit(3, 10.0, clock)
    for moment in (0.0, 1.0, 2.0):
        clock.now = moment
        assert limit.allow()
    assert not limit.allow()
    clock.now = 9.9
    assert not limit.allow()  # the first event is still in the window
    clock.now = 10.0
    assert limit.allow()  # it has left it: one more, and no more until 11
    assert not limit.allow()


def test_a_refused_event_is_not_counted() -> None:
    clock = Clock()
    limit = RateLimit(1, 1.0, clock)
    assert limit.allow()
    clock.now = 0.5
    assert not limit.allow()
    clock.now = 1.0
    assert limit.allow()


def test_a_bucket_refills_at_its_rate() -> None:
    clock = Clock()
    limiter = RateLimiter(clock)
    create = LIMIT["create"]
    assert all(limiter.wait(("create", "a"), create.rate) == 0 for _ in range(create.burst))
    assert limiter.wait(("create", "a"), create.rate) == pytest.approx(60 / create.per_minute)
    assert limiter.wait(("create", "b"), create.rate) == 0  # another address has its own
    clock.now += 60 / create.per_minute
    assert limiter.wait(("create", "a"), create.rate) == 0


def test_a_bucket_never_holds_more_than_its_burst() -> None:
    clock = Clock()
    limiter = RateLimiter(clock)
    rate = Rate(2, 1.0)
    clock.now = 1_000.0  # a long quiet time
    assert [limiter.wait("key", rate) for _ in range(3)] == [0, 0, pytest.approx(1.0)]


def test_a_flood_of_addresses_keeps_the_limiter_small() -> None:
    limiter = RateLimiter(Clock())
    rate = LIMIT["create"].rate
    for number in range(RateLimiter.MAX_BUCKETS + 10):
        limiter.wait(f"address {number}", rate)
    assert len(limiter._buckets) <= RateLimiter.MAX_BUCKETS // 2 + 10
    assert limiter.wait(f"address {RateLimiter.MAX_BUCKETS + 9}", rate) == 0
