"""The bot levels a family climbs (triominos.bots.levels, which the web app reads from
GET /api/bots), each with the Elo README's ladder gives it, with its interval, at least
150 above the level below; the strength the page says in words follows from those gaps
(tests/test_web_learn.py reads them on the page)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from triominos.bots.levels import OFFERED

REPO = Path(__file__).resolve().parent.parent
LADDER_ROW = re.compile(r"^\| (\w+) \| ([+-]\d+) \| ([+-]\d+) to ([+-]\d+) \| ([\d.]+) \|$")


def ladder() -> dict[str, tuple[int, int, int]]:
    """README's "Bot levels" table: each bot's Elo and its 95% interval."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Bot levels", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = LADDER_ROW.match(line)
        if found:
            rows[found.group(1)] = (int(found.group(2)), int(found.group(3)), int(found.group(4)))
    return rows


def test_every_offered_level_has_the_elo_of_the_readme_ladder() -> None:
    levels = [(level.id, level.bot, level.elo) for level in OFFERED]
    rows = ladder()
    assert set(rows) == {bot for _, bot, _ in levels}
    lowest = rows[levels[0][1]][0]
    for _, bot, elo in levels:
        value, low, high = rows[bot]
        assert elo == value - lowest
        if bot != levels[0][1]:
            assert low < value < high  # an interval, not a bare number
    gaps = [upper[2] - lower[2] for lower, upper in itertools.pairwise(levels)]
    assert min(gaps) >= 150


def test_a_levels_seat_thinks_its_simulations_and_a_timed_seat_its_seconds() -> None:
    """The Strong level is a count of simulations (the same move for a seed on every
    machine and core); a seat given a ``think`` time (the API, older tables) keeps it."""
    pytest.importorskip("starlette")
    from triominos.bots.base import Budget
    from triominos.server.bots import budget_of

    strong = next(level for level in OFFERED if level.bot == "sim")
    assert strong.think is None and strong.simulations
    assert budget_of("sim", None) == Budget(simulations=strong.simulations)
    assert budget_of("sim", 2.5) == Budget(seconds=2.5)
    assert budget_of("greedy", None) is None
    assert all(level.simulations is None for level in OFFERED if level.bot != "sim")
