"""What a playout is worth to the bots: the match won or lost counts only in a hand that
ends the match, by every reading of the target (after the hand, the gong)."""

from __future__ import annotations

import random

import pytest

from test_game import play, token
from test_rule_options import GONG_HAND, gong_match
from triominos.bots.outcome import WIN_VALUE, outcome, win_chances
from triominos.bots.sim import Simulation, may_end_match
from triominos.rules import PRESETS

CLASSIC = PRESETS["classic"].rules


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


TO_400 = CLASSIC.replace(target_score=400)


def test_the_chances_to_win_the_match_favour_the_leader_more_the_nearer_the_target() -> None:
    early = win_chances(TO_400, [100, 50, 50, 0], 1)
    late = win_chances(TO_400, [350, 300, 300, 250], 4)  # the same gaps
    for chances in (early, late):
        assert sum(chances) == pytest.approx(1)
        assert chances[0] > chances[1] > chances[3]
        assert chances[1] == pytest.approx(chances[2])
    assert late[0] > early[0] and late[3] < early[3]
    assert win_chances(TO_400, [120, 120, 120], 2) == pytest.approx([1 / 3] * 3)


def test_the_last_hands_chances_follow_the_hand_limit() -> None:
    limited = CLASSIC.replace(target_score=None, hand_limit=3)
    assert 0.5 < win_chances(limited, [60, 40], 1)[0] < win_chances(limited, [60, 40], 3)[0]
    both = CLASSIC.replace(target_score=400, hand_limit=3)
    assert win_chances(both, [60, 40], 1) == win_chances(TO_400, [60, 40], 1)  # 4+ hands
    assert win_chances(both, [60, 40], 3) == win_chances(limited, [60, 40], 3)


@pytest.mark.parametrize("equity", [False, True])
def test_a_hand_that_does_not_end_the_match_is_worth_the_chance_it_leaves(equity: bool) -> None:
    match = gong_match("after_hand")  # the hand ends 0 to 21, short of the target 22
    observation = match.observe(1)
    play(match, GONG_HAND)
    hand = match.hands[0]
    assert not match.is_over
    chance = win_chances(match.rules, [0, 21], 1)[1]
    assert 0.5 < chance < 1
    value = outcome(observation, hand, 1, WIN_VALUE, equity)
    assert value == pytest.approx(21 + (WIN_VALUE * (2 * chance - 1) if equity else 0))
