"""The bot levels a family climbs: the web's levels (static/bots.js) are the engine's
(triominos.bots.LEVELS), each with the Elo README's ladder gives it, with its interval,
at least 150 above the level below; the strength the page says in words follows from
those gaps (tests/test_web_learn.py reads them on the page)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from triominos.bots.base import LEVELS

REPO = Path(__file__).resolve().parent.parent
BOTS_JS = REPO / "src/triominos/server/static/bots.js"
LEVEL = re.compile(r'\{ id: "(\w+)", bot: "(\w+)", think: ([\d.]+|null), elo: (-?\d+) \}')
LADDER_ROW = re.compile(r"^\| (\w+) \| ([+-]\d+) \| ([+-]\d+) to ([+-]\d+) \| ([\d.]+) \|$")


def web_levels() -> list[tuple[str, str, int]]:
    return [(level, bot, int(elo)) for level, bot, _, elo in LEVEL.findall(BOTS_JS.read_text())]


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


def test_the_web_offers_every_engine_level_with_the_elo_of_the_readme_ladder() -> None:
    levels = web_levels()
    assert [bot for _, bot, _ in levels] == list(LEVELS)
    rows = ladder()
    assert set(rows) == set(LEVELS)
    lowest = rows[levels[0][1]][0]
    for _, bot, elo in levels:
        value, low, high = rows[bot]
        assert elo == value - lowest
        if bot != levels[0][1]:
            assert low < value < high  # an interval, not a bare number
    gaps = [upper[2] - lower[2] for lower, upper in itertools.pairwise(levels)]
    assert min(gaps) >= 150
