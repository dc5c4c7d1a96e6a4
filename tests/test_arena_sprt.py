"""The sequential test over duplicate pairs, and the ladder's Elo ratings."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from triominos.arena import (
    ArenaConfig,
    Sprt,
    elo_estimate,
    elo_from_score,
    ladder,
    play_sprt,
    score_from_elo,
)
from triominos.bots import Budget
from triominos.cli import main
from triominos.rules import PRESETS

CLASSIC = PRESETS["classic-house"].rules  # the reading these runs were sized for


def test_elo_and_score_are_inverse() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_wald_bounds() -> None:
    assert Sprt(0, 10).bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert Sprt(0, 10, alpha=0.1, beta=0.01).bounds == pytest.approx(
        (math.log(0.01 / 0.9), math.log(0.99 / 0.1))
    )


def test_the_log_likelihood_ratio_of_a_short_sequence_worked_by_hand() -> None:
    """Pairs 1, 1/2, 3/4, 1/2: mean 0.6875. The variance with half a pseudo-pair on each of
    0, 1/4, 1/2, 3/4, 1: 6.5 pairs of mean 4/6.5, squares 0.5385, variance 0.08284.
    s0 = 0.5, s1 = 0.51439 (10 Elo): 4 x 0.01439 x (1.375 - 1.01439) / (2 x 0.08284)."""
    result = Sprt(0, 10).test([1, 0.5, 0.75, 0.5])
    assert result.llr == pytest.approx(0.1253, abs=1e-4)
    assert result.decision is None
    assert result.estimate.pairs == 4
    assert result.estimate.elo == pytest.approx(elo_from_score(0.6875))


def test_a_clear_winner_accepts_h1_a_clear_equal_accepts_h0() -> None:
    assert Sprt(0, 50).test([1.0] * 40).decision == "H1"
    assert Sprt(0, 50).test([0.5] * 30).decision == "H0"
    assert Sprt(0, 50).test([0.0] * 30).decision == "H0"


def test_a_few_pairs_all_alike_leave_the_test_undecided() -> None:
    """The pseudo-pairs keep a variance of 0 from deciding at once."""
    assert Sprt(0, 50).test([0.5] * 3).decision is None
    assert Sprt(0, 50).test([1.0] * 2).decision is None


def test_the_elo_interval_narrows_with_more_pairs() -> None:
    few = elo_estimate([1, 0.5, 0.75, 0.25] * 5)
    many = elo_estimate([1, 0.5, 0.75, 0.25] * 50)
    assert few.elo == many.elo == pytest.approx(elo_from_score(0.625))
    assert few.interval[0] < many.interval[0] < many.elo < many.interval[1] < few.interval[1]


def test_bad_test_settings_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="ELO0 below ELO1"):
        Sprt(10, 0)
    with pytest.raises(ValueError, match="--alpha is a probability"):
        Sprt(0, 10, alpha=0.7)
    with pytest.raises(ValueError, match="an Elo estimate needs at least one pair"):
        elo_estimate([])


def test_a_real_run_stops_as_soon_as_it_decides() -> None:
    config = ArenaConfig(CLASSIC, ("greedy", "random"), Budget(simulations=10), 30, 1, True)
    result, games = play_sprt(config, Sprt(0, 200))
    assert result.decision == "H1"
    assert len(games) == 2 * result.estimate.pairs < 2 * config.groups
    assert result.llr >= result.upper
    with pytest.raises(ValueError, match="2 players"):
        play_sprt(ArenaConfig(CLASSIC, ("greedy",) * 3, Budget(simulations=10), 1, 1), Sprt(0, 5))


def test_arena_sprt_prints_the_test() -> None:
    result = CliRunner().invoke(
        main,
        [
            "arena",
            "--preset",
            "classic-house",  # where a hand tells greedy from random (seed 002's less)
            "--bots",
            "greedy,random",
            "--sprt",
            "0,200",
            "--hands",
            "--matches",
            "60",
            "--think",
            "10sims",
            "--seed",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "SPRT greedy against random: H0 Elo 0, H1 Elo 200" in result.output
    assert "LLR " in result.output and "(bounds -2.94, 2.94)" in result.output
    assert "pairs" in result.output and "95% CI" in result.output
    assert "H1 accepted" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--sprt", "10"], "give two Elo differences ELO0,ELO1"),
        (["--sprt", "10,0"], "ELO0 below ELO1"),
        (["--sprt", "0,10", "--beta", "1.5"], "--beta is a probability"),
        (["--sprt", "0,10", "--players", "3"], "2 players, not 3"),
    ],
)
def test_arena_sprt_errors(arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["arena", *arguments])
    assert result.exit_code == 2
    assert message in result.output


def test_a_ladder_of_two_bots_is_their_elo_difference_with_a_drawn_pair_added() -> None:
    """Nine pairs won of nine, plus the drawn pair: 9.5 of 10, -400 log10(0.95 / 0.05)."""
    first, second = ladder(["a", "b"], {(0, 1): [1.0] * 9})
    assert first.elo == 0
    assert second.elo == pytest.approx(-400 * math.log10(0.95 / 0.05))
    assert (first.score, second.score) == (1.0, 0.0)


def test_a_ladder_orders_a_transitive_round_robin() -> None:
    scores = {
        (0, 1): [0.75, 0.5, 0.75, 1.0] * 5,
        (0, 2): [1.0, 0.75, 1.0, 1.0] * 5,
        (1, 2): [0.75, 0.5, 1.0, 0.5] * 5,
    }
    strong, middle, weak = ladder(["strong", "middle", "weak"], scores)
    assert strong.elo == 0 > middle.elo > weak.elo
    for rung in (middle, weak):
        low, high = rung.interval
        assert low <= rung.elo <= high and low < high
    with pytest.raises(ValueError, match="at least two bots"):
        ladder(["alone"], {})


def test_triominos_ladder_prints_a_markdown_table() -> None:
    result = CliRunner().invoke(
        main,
        [
            "ladder",
            "--preset",
            "classic-house",
            "--bots",
            "random,greedy",
            "--pairs",
            "3",
            "--hands",
            "--seed",
            "2",
            "--think",
            "10sims",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "| bot | Elo | 95% CI | score % |" in lines
    rows = [line for line in lines if line.startswith("| greedy") or line.startswith("| random")]
    assert [row.split()[1] for row in rows] == ["greedy", "random"]  # strongest first
    assert "| random | +0 |" in result.output
    assert "1 pairings x 3 duplicate pairs" in result.output


def test_triominos_ladder_needs_two_known_bots() -> None:
    result = CliRunner().invoke(main, ["ladder", "--bots", "greedy,greedy"])
    assert result.exit_code == 2 and "two different bots" in result.output
    result = CliRunner().invoke(main, ["ladder", "--bots", "greedy,oracle"])
    assert result.exit_code == 2 and "unknown bot 'oracle'" in result.output
