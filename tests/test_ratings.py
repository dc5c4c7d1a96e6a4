"""Rated matches, by hand: pools, the pairwise split of 2-6 player results (ties, a
resign, a bot seat), the bots' fixed ratings, and the matches that move no rating."""

from __future__ import annotations

import doctest

import pytest

import triominos.ratings
from triominos.bots.levels import OFFERED
from triominos.glicko import NEW_DEVIATION, Rating
from triominos.ratings import (
    BOT_ANCHOR,
    BOT_RATINGS,
    PERIOD_SECONDS,
    RESIGN_FIRST_ROUNDS,
    Pool,
    RatedMatchError,
    Seat,
    aged,
    pairwise,
    pool_of,
    rated,
    unrated_because,
)


def test_the_doctests() -> None:
    assert doctest.testmod(triominos.ratings).failed == 0


def test_two_players_one_result_each() -> None:
    assert pairwise([Seat("a", total=410), Seat("b", total=200)]) == {
        "a": [("b", 1.0)],
        "b": [("a", 0.0)],
    }


def test_three_players_each_meets_the_other_two() -> None:
    results = pairwise([Seat("a", total=100), Seat("b", total=300), Seat("c", total=200)])
    assert results == {
        "a": [("b", 0.0), ("c", 0.0)],
        "b": [("a", 1.0), ("c", 1.0)],
        "c": [("a", 1.0), ("b", 0.0)],
    }


def test_four_players_with_a_tie_for_second() -> None:
    seats = [Seat("a", total=400), Seat("b", total=250), Seat("c", total=250), Seat("d", total=90)]
    results = pairwise(seats)
    assert results["b"] == [("a", 0.0), ("c", 0.5), ("d", 1.0)]
    assert results["c"] == [("a", 0.0), ("b", 0.5), ("d", 1.0)]
    assert sum(score for _, score in results["a"]) == 3


def test_six_players_five_results_each_and_the_scores_add_up() -> None:
    totals = {"a": 5, "b": 60, "c": 60, "d": 60, "e": 400, "f": 0}
    seats = [Seat(name, total=total) for name, total in totals.items()]
    results = pairwise(seats)
    assert all(len(found) == 5 for found in results.values())
    # every pair is scored once from each side, the two scores adding up to one
    assert sum(score for found in results.values() for _, score in found) == 15
    assert results["b"] == [("a", 1.0), ("c", 0.5), ("d", 0.5), ("e", 0.0), ("f", 1.0)]


def test_a_seat_that_resigned_finishes_behind_those_that_did_not() -> None:
    results = pairwise([Seat("a", total=390, resigned=True), Seat("b", total=120)])
    assert results == {"a": [("b", 0.0)], "b": [("a", 1.0)]}


def test_a_bot_seat_is_an_opponent_with_a_fixed_rating_and_no_results() -> None:
    seats = [Seat("a", total=300), Seat("expert", total=350, bot=True), Seat("b", total=10)]
    results = pairwise(seats)
    assert set(results) == {"a", "b"}
    assert results["a"] == [("bot:expert", 0.0), ("b", 1.0)]
    after = rated(seats, {"a": Rating(), "b": Rating()})
    assert set(after) == {"a", "b"}
    assert after["a"].rating > 1500 > after["b"].rating
    alone = Rating().rated([(BOT_RATINGS["expert"], 0.0), (Rating(), 1.0)])
    assert after["a"] == alone


def test_all_results_are_against_the_ratings_before_the_match() -> None:
    before = {"a": Rating(1600, 80), "b": Rating(1500, 200), "c": Rating(1450, 300)}
    seats = [Seat("a", total=10), Seat("b", total=20), Seat("c", total=30)]
    after = rated(seats, before)
    assert after["b"] == before["b"].rated([(before["a"], 1.0), (before["c"], 0.0)])
    assert after["c"].rating > before["c"].rating and after["a"].rating < before["a"].rating


def test_the_bots_stand_on_the_ladder_with_the_default_level_at_the_anchor() -> None:
    assert BOT_RATINGS["greedy"].rating == BOT_ANCHOR
    greedy = next(level.elo for level in OFFERED if level.id == "greedy")
    for level in OFFERED:
        assert BOT_RATINGS[level.id].rating - BOT_ANCHOR == level.elo - greedy


def test_pools_by_edition_player_count_and_bots() -> None:
    people = [Seat("a"), Seat("b"), Seat("c")]
    assert pool_of("classic-house", people).key == "classic-3"
    assert pool_of("extended", [Seat("a"), Seat("sim", bot=True)]).key == "extended-2-bots"
    assert Pool.from_key("junior-4-bots") == Pool("junior", 4, "bots")
    with pytest.raises(RatedMatchError, match="preset must be one of classic"):
        pool_of("chess", people)
    with pytest.raises(RatedMatchError, match="edition must be one of classic, extended, junior"):
        Pool("chess", 2)
    with pytest.raises(RatedMatchError, match="players must be 2 to 6, not 7"):
        Pool("classic", 7)


def test_a_seat_names_a_known_level_and_a_person_holds_one_seat() -> None:
    with pytest.raises(RatedMatchError, match="one of the levels random, greedy"):
        Seat("grandmaster", bot=True)
    with pytest.raises(RatedMatchError, match="not several"):
        pairwise([Seat("a"), Seat("a")])
    # two bots of one level are two seats
    assert set(pairwise([Seat("a"), Seat("sim", bot=True), Seat("sim", bot=True)])) == {"a"}


def test_accounts_seen_together_are_not_rated() -> None:
    seats = [
        Seat("a", traces=frozenset({"browser:1", "address:9"})),
        Seat("b", traces=frozenset({"address:9"})),
        Seat("c", traces=frozenset({"browser:3"})),
    ]
    assert unrated_because(seats, rounds=20) == "shared"
    assert unrated_because([seats[0], seats[2]], rounds=20) is None


def test_an_early_resign_is_not_rated_a_late_one_is() -> None:
    seats = [Seat("a", resigned=True), Seat("b")]
    assert unrated_because(seats, rounds=RESIGN_FIRST_ROUNDS - 1) == "early_resign"
    assert unrated_because(seats, rounds=RESIGN_FIRST_ROUNDS) is None
    assert unrated_because([Seat("a"), Seat("b")], rounds=0) is None


def test_time_away_widens_the_deviation_a_week_at_a_time_up_to_a_newcomers() -> None:
    settled = Rating(1720, 60)
    assert aged(settled, PERIOD_SECONDS - 1) == settled
    assert aged(settled, PERIOD_SECONDS) == settled.rated([])
    later = aged(settled, 3 * PERIOD_SECONDS)
    assert later.rating == settled.rating and later.deviation > 60
    assert aged(settled, 1000 * 365 * 24 * 3600.0).deviation == NEW_DEVIATION
