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


def test_the_paired_benchmark_finds_no_difference_between_a_bot_and_itself() -> None:
    """The same bot twice plays every match the same: the pairing is exact."""
    figures = benchmark_figures(
        "paired.py",
        "sim(candidates=2)",
        "sim(candidates=2)",
        "--others",
        "greedy",
        "--sims",
        "10",
        "--target",
        "60",
        "--groups",
        "2",
        "--jobs",
        "1",
    )
    assert figures["paired difference, points of %"] == 0
    assert figures["paired margin difference, points"] == 0
    assert figures["pairs played the same to the end"] == 4
    assert 0 <= figures["sim(candidates=2) matches won %"] <= 100


def test_the_paired_benchmark_tells_two_versions_apart() -> None:
    figures = benchmark_figures(
        "paired.py",
        "greedy",
        "random",
        "--others",
        "greedy",
        "--target",
        "60",
        "--groups",
        "3",
        "--jobs",
        "1",
    )
    assert figures["greedy matches won %"] > figures["random matches won %"]
    assert figures["paired difference, points of %"] > 0


def test_the_hands_benchmark_prints_the_points_a_hand_and_the_win_chance_error() -> None:
    figures = benchmark_figures(
        "hands.py", "--players", "4", "--matches", "1", "--positions", "2", "--trials", "5"
    )
    assert list(figures) == [
        "4 players, mean points a hand",
        "4 players, sd of points a hand",
        "4 players, win chance error",
    ]
    assert figures["4 players, mean points a hand"] > 0
    assert 0 <= figures["4 players, win chance error"] <= 1
