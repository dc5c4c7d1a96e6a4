"""The think-time benchmark times sim-v2 on both cores and each variant beside it (speed
itself is not tested)."""

from __future__ import annotations

import pytest

from benchmark_runs import benchmark_figures
from triominos import native

pytestmark = pytest.mark.skipif(not native.built(), reason="times the native core")


def test_every_variant_is_timed_beside_sim_v2_on_both_cores() -> None:
    figures = benchmark_figures("thinktime.py", "cpu", "--runs", "1", "--moves", "1")
    for players in (2, 4):
        python = figures[f"classic {players}p sim-v2 (1,200 simulations), python"]
        assert python > 0
        timed = [label for label in figures if label.startswith(f"classic {players}p ")]
        assert timed == [
            f"classic {players}p sim-v2 (1,200 simulations), python",
            f"classic {players}p sim-v2 (1,200 simulations), native",
            f"classic {players}p more_simulations, native",
            f"classic {players}p more_candidates, native",
            f"classic {players}p hand_horizon, native",
        ]
