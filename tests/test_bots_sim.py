"""The sim bot: playouts by the engine's rules, paired worlds, deterministic budgets."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from itertools import islice

import pytest

from triominos.board import Placement
from triominos.bots import Budget, GreedyBot
from triominos.bots.expert import ExpertBot
from triominos.bots.sampler import World
from triominos.bots.sim import WIN_VALUE, SimBot, Simulation
from triominos.game import Action, Draw, Hand, Match, Observation
from triominos.rules import PRESETS, Rules

LONG_MATCH = PRESETS["classic"].rules.replace(target_score=10_000)
"""No hand ends the match: a playout's value is its margin alone."""


def positions(rules: Rules, players: int, seed: int) -> Iterator[tuple[Match, Observation]]:
    """The observations of the seat to move, in play with a choice, through a greedy match."""
    match = Match(rules, players, seed)
    bot = GreedyBot()
    while not match.is_over and len(match.hands) < 3:
        observation = match.observe(match.to_move)
        if observation.phase == "play" and len(observation.legal_actions()) > 1:
            yield match, observation
        match.apply(bot.act(observation))


def played_by_greedy(simulation: Simulation, world: World, action: Action) -> Hand:
    """The world played out by the public path: ``action``, then greedy bots on observations.

    The board is popped back afterwards, so the finished hand's board is not to be read.
    """
    observation, seat = simulation.observation, simulation.seat
    hand = Hand.resume(
        observation.rules,
        simulation.board,
        world.racks,
        world.pool,
        to_move=seat,
        starter=observation.starter or 0,
        draws=observation.draws,
        totals=observation.totals,
    )
    start = len(hand.board)
    hand.apply(action)
    greedy = GreedyBot()
    while not hand.is_over:
        hand.apply(greedy.act(hand.observe(hand.to_move)))
    while len(hand.board) > start:
        hand.board.pop()
    return hand


def hand_playout(observation: Observation, rng: random.Random) -> tuple[int, float, Hand]:
    """A world sampled for the seat, played out to the end of the hand after its first legal
    action: the seat, the simulation's value, and the same world played by greedy bots."""
    seat = observation.seat
    assert seat is not None
    simulation = Simulation(observation, rng, horizon="hand")
    world = simulation.sampler.sample(rng)
    action = observation.legal_actions()[0].action
    value = simulation.play_out(world, action)
    return seat, value, played_by_greedy(simulation, world, action)


def test_a_playout_to_the_end_of_the_hand_is_a_greedy_game() -> None:
    """horizon="hand": the value is the margin greedy players reach through the engine."""
    rng = random.Random(1)
    for _, observation in islice(positions(LONG_MATCH, 2, 6), 10):
        seat, value, hand = hand_playout(observation, rng)
        assert value == hand.points[seat] - hand.points[1 - seat]


def test_a_hand_that_ends_the_match_is_worth_the_win_or_the_loss() -> None:
    rules = PRESETS["classic"].rules.replace(target_score=1)  # any hand ends the match
    rng = random.Random(4)
    outcomes = set()
    for _, observation in islice(positions(rules, 2, 5), 10):
        seat, value, hand = hand_playout(observation, rng)
        margin = hand.points[seat] - hand.points[1 - seat]
        won = hand.totals[seat] == max(hand.totals)
        assert value == margin + (WIN_VALUE if won else -WIN_VALUE)
        outcomes.add(won)
    assert outcomes


def test_a_playout_leaves_the_board_as_it_found_it() -> None:
    rng = random.Random(2)
    for _, observation in islice(positions(LONG_MATCH, 3, 4), 8):
        simulation = Simulation(observation, rng)
        before = list(simulation.board)
        open_before = sorted(simulation.board.open_cells())
        for option in observation.legal_actions():
            simulation.play_out(simulation.sampler.sample(rng), option.action)
        assert list(simulation.board) == before
        assert sorted(simulation.board.open_cells()) == open_before


def test_every_candidate_meets_the_same_worlds() -> None:
    """Two identical candidates get identical values: only the action differs between them."""
    _, observation = next(positions(LONG_MATCH, 2, 9))
    simulation = Simulation(observation, random.Random(3))
    option = observation.legal_actions()[0]
    values = simulation.run([(option, 0.0), (option, 0.0)], Budget(simulations=40))
    assert values[0].mean == values[1].mean
    assert values[0].simulations == 20


def test_sim_draws_when_the_static_evaluation_says_so_and_otherwise_places() -> None:
    sim, expert = SimBot(1, Budget(simulations=30)), ExpertBot()
    draws = placements = 0
    for _, observation in positions(PRESETS["classic"].rules, 2, 7):
        move = sim.act(observation)
        if isinstance(expert.act(observation), Draw):
            assert isinstance(move, Draw)
            draws += 1
        elif isinstance(move, Placement):
            placements += 1
    assert draws and placements


def test_greedys_choice_is_always_a_candidate() -> None:
    bot = SimBot(5, Budget(simulations=10), candidates=1)
    greedy = GreedyBot()
    for _, observation in islice(positions(LONG_MATCH, 2, 3), 10):
        options = observation.legal_actions()
        simulation = bot.simulation(observation, options)
        assert simulation is not None
        ranked = simulation.evaluator.ranked(options)
        values = bot.simulate(simulation, ranked)
        actions = [value.option.action for value in values]
        assert greedy.act(observation) in actions
        assert len(actions) <= 2


def test_a_time_budget_is_kept() -> None:
    bot = SimBot(6, Budget(seconds=0.02))
    for _, observation in islice(positions(PRESETS["classic"].rules, 2, 8), 5):
        start = time.perf_counter()
        bot.act(observation)
        assert time.perf_counter() - start < 0.5


def test_junior_falls_back_to_greedy() -> None:
    match = Match.from_preset("junior", players=2, seed=3)
    sim, greedy = SimBot(1, Budget(simulations=10)), GreedyBot()
    while not match.is_over:
        observation = match.observe(match.to_move)
        move = sim.act(observation)
        assert move == greedy.act(observation)
        match.apply(move)


def test_a_bot_without_a_turn_says_so() -> None:
    match = Match.from_preset("classic", players=2, seed=1)
    waiting = 1 - match.to_move
    with pytest.raises(ValueError, match="not this seat's turn"):
        SimBot(1).act(match.observe(waiting))
