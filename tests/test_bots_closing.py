"""sim in a hand that may end the match: the hand played out to its end, where the
match is won or lost."""

from __future__ import annotations

import pytest

from triominos.bots import Budget, GreedyBot
from triominos.bots.sim import CLOSING_REACH, CROWDED_CLOSING_REACH, SimBot, may_end_match
from triominos.game import Match, Observation
from triominos.rules import PRESETS

CLASSIC = PRESETS["classic"].rules


def in_play(players: int, seed: int = 3) -> tuple[Match, Observation]:
    """A greedy match's first position in play with a choice, and the match."""
    match = Match(CLASSIC, players, seed)
    bot = GreedyBot()
    while True:
        observation = match.observe(match.to_move)
        if observation.phase == "play" and len(observation.legal_actions()) > 1:
            return match, observation
        match.apply(bot.act(observation))


def test_the_match_may_end_with_the_hand_once_the_leader_is_within_reach() -> None:
    _, observation = in_play(4)
    assert not may_end_match(observation, CLOSING_REACH)
    near = observation._replace(totals=(0, 400 - CLOSING_REACH, 0, 0))
    assert may_end_match(near, CLOSING_REACH)
    just_short = observation._replace(totals=(0, 399 - CLOSING_REACH, 0, 0))
    assert not may_end_match(just_short, CLOSING_REACH)
    last_hand = observation._replace(
        rules=CLASSIC.replace(target_score=None, hand_limit=observation.hand_number)
    )
    assert may_end_match(last_hand, 0)
    more_hands = last_hand._replace(rules=CLASSIC.replace(target_score=None, hand_limit=3))
    assert not may_end_match(more_hands, CLOSING_REACH)


@pytest.mark.parametrize("closing", [None, CLOSING_REACH])
def test_sim_plays_a_hand_that_may_end_the_match_out_to_its_end(closing: int | None) -> None:
    _, observation = in_play(4)
    bot = SimBot(1, Budget(simulations=12), closing=closing)
    options = observation.legal_actions()
    far = bot.simulation(observation, options)
    near = bot.simulation(observation._replace(totals=(0, 350, 0, 0)), options)
    assert far is not None and near is not None
    assert far.horizon == "turn"
    assert near.horizon == ("turn" if closing is None else "hand")
    assert (near.win_value, near.equity) == (bot.win_value, bot.equity) == (100, True)
    chosen = bot.act(observation._replace(totals=(0, 350, 0, 0)))
    assert chosen in [option.action for option in options]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sim_closes_from_further_at_four_players_and_more(players: int) -> None:
    _, observation = in_play(players)
    reach = CROWDED_CLOSING_REACH if players >= 4 else CLOSING_REACH
    bot = SimBot(0, Budget(simulations=12))
    assert CLOSING_REACH < CROWDED_CLOSING_REACH
    within = (400 - reach, *[0] * (players - 1))
    assert bot.horizon_for(observation._replace(totals=within)) == "hand"
    beyond = (399 - reach, *[0] * (players - 1))
    assert bot.horizon_for(observation._replace(totals=beyond)) == "turn"
    never = SimBot(0, Budget(simulations=12), closing=None)
    assert never.horizon_for(observation._replace(totals=within)) == "turn"
