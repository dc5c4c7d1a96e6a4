"""The benchmark script runs and prints its figures (speed itself is not tested)."""

from __future__ import annotations

from benchmark_runs import benchmark_figures

FIGURES = [
    "classic 2p greedy hands/s",
    "mid-hand hand clones/s",
    "mid-hand match clones/s",
    "legal placement generation calls/s",
    "legal placements generated/s",
    "actions encoded/s",
    "legal-action masks built/s",
    "observation tensors built/s",
    "classic 2p greedy matches/s",
]


def test_benchmark_prints_every_figure() -> None:
    figures = benchmark_figures("engine.py", "--runs", "1", "--seconds", "0.05")
    assert list(figures) == FIGURES
    assert figures["classic 2p greedy hands/s"] > 0
    assert figures["legal placement generation calls/s"] > 0


def test_a_fixed_number_of_hands_for_instruction_counts() -> None:
    figures = benchmark_figures("engine.py", "--runs", "1", "--seconds", "0.05", "--hands", "3")
    assert list(figures) == FIGURES
    assert figures["classic 2p greedy hands/s"] > 0
