"""The sim benchmark runs and prints its figures (speed itself is not tested)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_runs import benchmark_figures, run_benchmark


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


NOISE_QUICK = ("--hands", "1", "--worlds", "2", "--budgets", "6,20")
"""One four-player hand, each decision's candidates in as few worlds as the budgets allow
(two runs of 20 simulations): a second or two."""


def test_the_noise_benchmark_prints_the_loss_of_each_choice_the_same_for_a_seed() -> None:
    figures = benchmark_figures("noise.py", *NOISE_QUICK)
    assert list(figures) == [
        "decisions",
        "loss of the static best",
        "loss at 6 simulations",
        "loss at 20 simulations",
    ]
    assert figures["decisions"] >= 1
    assert benchmark_figures("noise.py", *NOISE_QUICK) == figures


@pytest.mark.parametrize(
    ("script", "wrong", "error"),
    [
        ("noise.py", ("--budgets", "600,none"), "budgets are whole numbers, not '600,none'"),
        ("inference.py", ("--truth", "0"), "--budget and --truth are at least 1 playout"),
    ],
)
def test_the_move_benchmarks_refuse_what_they_cannot_measure(
    script: str, wrong: tuple[str, ...], error: str
) -> None:
    refused = run_benchmark(script, *wrong)
    assert refused.returncode == 2
    assert error in refused.stderr
    nothing = run_benchmark(script, "--hands", "0")
    assert nothing.returncode == 1
    assert "no move of seat 0 was simulated in these hands: play more --hands" in nothing.stderr
    assert nothing.stdout == ""


INFERENCE_QUICK = ("--hands", "1", "--budget", "12", "--truth", "4")
"""One four-player hand, each decision's truth in 4 playouts and each way's choice at 12
simulations: a second."""


def test_the_inference_benchmark_prints_each_way_s_loss_against_the_truth() -> None:
    figures = benchmark_figures("inference.py", *INFERENCE_QUICK)
    ways = ("the static best", "sim", "sim reading choices", "the clairvoyant")
    assert list(figures) == [
        "decisions",
        *(f"loss of {way}" for way in ways),
        *(f"{way} less sim" for way in ways if way != "sim"),
        "pips of the true racks among sim's worlds, percentile",
        "pips of the true racks among the worlds read by choices, percentile",
    ]
    assert figures["decisions"] >= 1
    # A loss is the true best less the true value of a choice among the same candidates.
    assert all(figures[f"loss of {way}"] >= 0 for way in ways)
    assert 0 <= figures["pips of the true racks among sim's worlds, percentile"] <= 1
    assert figures["the clairvoyant less sim"] == pytest.approx(
        figures["loss of the clairvoyant"] - figures["loss of sim"], abs=0.011
    )
    assert benchmark_figures("inference.py", *INFERENCE_QUICK) == figures


PAIRED_QUICK = ("--others", "greedy", "--target", "60", "--groups", "3", "--jobs", "1")
"""Three groups of two-player matches to 60 against greedy: seconds."""


def test_a_saved_version_is_reused_after_its_first_groups_replay_the_same(tmp_path: Path) -> None:
    saved = tmp_path / "greedy-random.json"
    played = benchmark_figures("paired.py", "greedy", "random", *PAIRED_QUICK, "--save", str(saved))
    stored = json.loads(saved.read_text())
    assert stored["matches"]["groups"] == 3 and len(stored["versions"]["random"]) == 6
    reused = benchmark_figures(
        "paired.py", "greedy", "random", *PAIRED_QUICK, "--reuse", str(saved), "--verify", "1"
    )
    assert reused == played | {"seconds": reused["seconds"]}
    # Past the groups replayed, the results are the file's: a change there shows.
    stored["versions"]["random"][-1] = [1.0, 500.0]
    saved.write_text(json.dumps(stored))
    changed = benchmark_figures(
        "paired.py", "greedy", "random", *PAIRED_QUICK, "--reuse", str(saved), "--verify", "1"
    )
    assert changed["random matches won %"] > played["random matches won %"]


def test_a_saved_version_that_no_longer_plays_the_same_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "greedy-random.json"
    run_benchmark("paired.py", "greedy", "random", *PAIRED_QUICK, "--save", str(saved))
    stored = json.loads(saved.read_text())
    stored["versions"]["random"][0] = [1.0, 500.0]  # as if the code had changed since
    saved.write_text(json.dumps(stored))
    refused = run_benchmark("paired.py", "greedy", "random", *PAIRED_QUICK, "--reuse", str(saved))
    assert refused.returncode != 0 and not refused.stdout
    assert "random no longer plays as" in refused.stderr
    assert "Traceback" not in refused.stderr
    other = run_benchmark(
        "paired.py",
        "greedy",
        "random",
        *PAIRED_QUICK[:-3],
        "4",
        "--jobs",
        "1",
        "--reuse",
        str(saved),
    )
    assert other.returncode != 0 and "played other matches" in other.stderr
    saved.write_text("[1, 2]")
    broken = run_benchmark("paired.py", "greedy", "random", *PAIRED_QUICK, "--reuse", str(saved))
    assert broken.returncode != 0 and "is no file that --save wrote" in broken.stderr
    assert "Traceback" not in broken.stderr
