"""The research benchmarks run and print their figures (speed itself is not tested)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from benchmark_runs import benchmark_figures, run_benchmark


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


def test_ismcts_runs_again_the_same_from_its_seed() -> None:
    """The searcher resamples from the run's generator, not OpenSpiel's unseeded one."""
    arguments = ("--hands", "4", "--simulations", "8", "--opponents", "greedy", "--seed", "3")
    first, second = (run_benchmark("ismcts.py", *arguments) for _ in range(2))
    first.check_returncode()
    margins = [
        line.split(" s a hand")[0].rsplit(",", 1)[0] for line in (first.stdout, second.stdout)
    ]
    assert margins[0] == margins[1]
