"""The research benchmarks run and print their figures (speed itself is not tested)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from benchmark_runs import benchmark_figures


def test_random_hands_through_every_adapter() -> None:
    figures = benchmark_figures("rl.py", "--runs", "1", "--seconds", "0.01")
    ways = ("library", "OpenSpiel", "PettingZoo", "Gymnasium")
    assert list(figures) == [f"random hands/s through {way}" for way in ways]
    assert all(rate > 0 for rate in figures.values())


def test_ismcts_against_the_bots() -> None:
    figures = benchmark_figures(
        "ismcts.py", "--hands", "2", "--simulations", "2", "--think", "10sims"
    )
    assert figures == {"ismcts vs greedy": 2, "ismcts vs sim": 2}
