"""benchmarks/extent.py runs and prints the extents behind encoding.RADIUS."""

from __future__ import annotations

from benchmark_runs import benchmark_figures
from triominos.encoding import RADIUS
from triominos.rules import PRESETS


def test_extent_prints_a_line_per_preset_bot_and_player_count() -> None:
    figures = benchmark_figures("extent.py", "--hands", "2")
    lines = [
        f"{name} {bot} {players}p largest extent"
        for name, preset in PRESETS.items()
        for bot in ("random", "greedy")
        for players in sorted({preset.rules.min_players, preset.rules.max_players})
    ]
    assert list(figures) == [*lines, "largest extent"]
    assert 1 <= figures["largest extent"] < RADIUS
    assert figures["largest extent"] == max(figures[line] for line in lines)
