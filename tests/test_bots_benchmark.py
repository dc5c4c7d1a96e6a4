"""The sim benchmark runs and prints its figures (speed itself is not tested)."""

from __future__ import annotations

from benchmark_runs import benchmark_figures


def test_the_sim_benchmark_prints_simulations_per_second() -> None:
    figures = benchmark_figures("sim.py", "--runs", "1", "--moves", "2", "--simulations", "20")
    assert list(figures) == [
        "sim simulations/s",
        "sim simulations/s (hand horizon)",
        "sim moves/s (20 simulations)",
    ]
    assert figures["sim simulations/s"] > 0
