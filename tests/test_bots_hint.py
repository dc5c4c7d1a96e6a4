"""Hints: the best few placements of the seat to move, with their expected values."""

from __future__ import annotations

import pytest

from triominos.board import Placement
from triominos.bots import Budget, GreedyBot
from triominos.bots.evaluate import evaluate
from triominos.bots.hint import hint
from triominos.bots.sim import SimBot
from triominos.game import Draw, Match, Observation

SMALL = Budget(simulations=60)


def in_play(seed: int, moves: int = 6, preset: str = "classic-house", players: int = 2) -> Match:
    """A match a few greedy moves into play."""
    match = Match.from_preset(preset, players=players, seed=seed)
    bot = GreedyBot()
    played = 0
    while played < moves or match.observe(match.to_move).phase != "play":
        match.apply(bot.act(match.observe(match.to_move)))
        played += 1
    return match


def legal_placements(observation: Observation) -> list[Placement]:
    return [o.action for o in observation.legal_actions() if isinstance(o.action, Placement)]


def test_hints_are_legal_placements_best_first() -> None:
    checked = 0
    for seed in range(6):
        match = in_play(seed)
        observation = match.observe(match.to_move)
        hints = hint(observation, count=3, budget=SMALL)
        legal = legal_placements(observation)
        if not legal:  # nothing fits: the seat draws, and there is nothing to hint
            assert hints == []
            continue
        checked += 1
        assert 1 <= len(hints) <= min(3, len(legal) + 1)
        placed = [found for found in hints if isinstance(found.action, Placement)]
        assert hints[len(hints) - len(placed) :] == placed  # a draw can only come first
        assert all(found.action in legal for found in placed)
        values = [found.expected_value for found in placed]
        assert values == sorted(values, reverse=True)
    assert checked >= 3


def test_the_same_budget_gives_the_same_hints() -> None:
    match = in_play(5)
    observation = match.observe(match.to_move)
    assert hint(observation, budget=SMALL) == hint(observation, budget=SMALL)


def test_a_seat_that_is_not_to_move_gets_no_hint() -> None:
    match = in_play(1)
    assert hint(match.observe(1 - match.to_move), budget=SMALL) == []


def test_the_opening_is_hinted_from_the_static_evaluation() -> None:
    match = Match.from_preset("extended", players=2, seed=3)
    bot = GreedyBot()
    while match.observe(match.to_move).phase != "opening":
        match.apply(bot.act(match.observe(match.to_move)))
    hints = hint(match.observe(match.to_move), count=2, budget=SMALL)
    assert len(hints) == 2
    assert all(isinstance(found.action, Placement) for found in hints)


def test_junior_hints_are_the_simulations_values() -> None:
    match = Match.from_preset("junior", players=2, seed=2)
    observation = match.observe(match.to_move)
    while len(legal_placements(observation)) < 3:
        match.apply(GreedyBot().act(observation))
        observation = match.observe(match.to_move)
    hints = hint(observation, count=3, budget=SMALL, seed=4)
    placements = legal_placements(observation)
    simulated = evaluate(observation, SMALL, seed=4, actions=placements)
    assert all(value.simulations for value in simulated)
    assert [(found.action, found.expected_value) for found in hints] == [
        (value.action, value.expected) for value in simulated[:3]
    ]
    assert len(hints) == 3
    values = [found.expected_value for found in hints]
    assert values == sorted(values, reverse=True)
    points = {option.action: option.points for option in observation.legal_actions()}
    assert any(found.expected_value != points[found.action] for found in hints)  # not counters now


def test_a_hint_names_at_least_one_placement() -> None:
    with pytest.raises(ValueError, match="at least one"):
        hint(in_play(2).observe(0), count=0)


def test_a_draw_on_purpose_comes_first_exactly_when_sim_would_draw() -> None:
    """At two players sim fishes whenever it may; at four, on its evaluation's word."""
    fished = placed = 0
    for players, seed in [(2, seed) for seed in range(4)] + [(4, seed) for seed in range(10)]:
        match = in_play(seed, players=players)
        observation = match.observe(match.to_move)
        hints = hint(observation, count=3, budget=SMALL)
        if not hints:
            continue
        choice = SimBot(0, SMALL).act(observation)
        if isinstance(hints[0].action, Draw):
            fished += 1
            assert choice == Draw()
            assert legal_placements(observation)  # a tile fitted: the draw was on purpose
            assert all(isinstance(found.action, Placement) for found in hints[1:])
            assert len(hints) == min(3, 1 + len(legal_placements(observation)))
        else:
            placed += 1
            assert isinstance(choice, Placement)
    assert fished >= 1 and placed >= 1
