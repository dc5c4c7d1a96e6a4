"""What a playout is worth to the bots: the match won or lost counts only in a hand that
ends the match, by every reading of the target (after the hand, the gong)."""

from __future__ import annotations

import random

import pytest

from test_game import play, token
from test_rule_options import GONG_HAND, gong_match
from triominos.bots.outcome import WIN_VALUE, outcome
from triominos.bots.sim import Simulation, may_end_match


@pytest.mark.parametrize(("match_end", "bonus"), [("after_hand", 0.0), ("gong", WIN_VALUE)])
def test_a_hand_that_rang_the_gong_ends_the_match_though_the_total_fell_back(
    match_end: str, bonus: float
) -> None:
    match = gong_match(match_end)
    observation = match.observe(1)  # before the deal's first move
    play(match, GONG_HAND)
    hand = match.hands[0]
    assert hand.is_over and match.totals == [0, 21]  # 25 rang the gong, then draws
    # Seat 1 won 21 to 0 (a match won only if the gong made the hand the last).
    assert outcome(observation, hand, 1) == 21 + bonus
    assert outcome(observation, hand, 0) == -21 - bonus


@pytest.mark.parametrize(("match_end", "bonus"), [("after_hand", 0.0), ("gong", WIN_VALUE)])
def test_a_playout_from_after_the_gong_knows_the_hand_is_the_last(
    match_end: str, bonus: float
) -> None:
    match = gong_match(match_end)
    play(match, GONG_HAND.rsplit(" ", 1)[0])  # seat 1 to go out
    observation = match.observe(1)
    assert observation.gong == (0 if match_end == "gong" else None)
    simulation = Simulation(observation, random.Random(1))
    world = simulation.sampler.sample(random.Random(2))
    # 11 points from here for going out with 1-5-5, and the match won with 21 to 0.
    assert simulation.play_out(world, token("1-5-5@-1,0,d:155")) == 11 + bonus


@pytest.mark.parametrize("match_end", ["after_hand", "gong"])
def test_a_hand_in_which_the_gong_rang_may_end_the_match_whatever_the_totals(
    match_end: str,
) -> None:
    match = gong_match(match_end)
    play(match, GONG_HAND.rsplit(" ", 1)[0])
    observation = match.observe(1)
    assert max(observation.totals) < 22  # back below the target
    assert may_end_match(observation, reach=0) == (match_end == "gong")
