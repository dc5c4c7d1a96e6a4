"""Glicko-2: Glickman's worked example, and the rating's behaviour around it."""

from __future__ import annotations

import doctest
from collections.abc import Callable

import pytest

import triominos.glicko
from triominos.glicko import NEW_DEVIATION, Rating, RatingError


def test_the_papers_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30,
    1550/100 and 1700/300, winning the first, losing the others, tau 0.5. The paper rounds
    its intermediate steps: 1464.06 / 151.52 / 0.05999 where exact arithmetic gives
    1464.05 / 151.52 / 0.059996."""
    player = Rating(1500, 200, 0.06)
    opponents = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
    rated = player.rated(list(zip(opponents, [1, 0, 0], strict=True)), tau=0.5)
    assert rated.rating == pytest.approx(1464.06, abs=0.01)
    assert rated.deviation == pytest.approx(151.52, abs=0.01)
    assert rated.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_both_make_the_rating_surer() -> None:
    player, puzzle = Rating(1500, 350), Rating(1600, 100)
    won, lost = player.rated([(puzzle, 1)]), player.rated([(puzzle, 0)])
    assert won.rating > 1500 > lost.rating
    assert won.deviation < 350 and lost.deviation < 350
    # The upset moves more than the expected result.
    assert won.rating - 1500 > 1500 - lost.rating


def test_a_period_without_results_only_widens_the_deviation_up_to_a_new_players() -> None:
    rated = Rating(1700, 50, 0.06).rated([])
    assert rated.rating == pytest.approx(1700) and rated.deviation > 50
    assert Rating(1700, NEW_DEVIATION - 0.01).rated([]).deviation == NEW_DEVIATION


def test_the_expected_score_is_even_between_equals_and_favours_the_stronger() -> None:
    assert Rating(1500, 100).expected(Rating(1500, 100)) == pytest.approx(0.5)
    assert Rating(1800, 100).expected(Rating(1500, 100)) > 0.8


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Rating(float("nan")), "finite"),
        (lambda: Rating(1500, 0), "deviation"),
        (lambda: Rating(1500, 400), "at most 350"),
        (lambda: Rating(1500, 100, 1.5), "volatility"),
        (lambda: Rating().rated([(Rating(), 2)]), "score from 0 to 1"),
    ],
)
def test_a_meaningless_rating_or_result_is_refused_in_words(
    make: Callable[[], object], words: str
) -> None:
    with pytest.raises(RatingError, match=words):
        make()


def test_the_example_in_the_docstring_runs() -> None:
    result = doctest.testmod(triominos.glicko)
    assert result.attempted and not result.failed
