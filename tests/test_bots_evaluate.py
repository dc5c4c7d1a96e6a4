"""Every choice of a seat valued in the same sampled worlds: placements, the draw, the pass."""

from __future__ import annotations

import doctest

import pytest

import triominos.bots.evaluate
from shapes import D, U, placement_for
from triominos.board import Placement
from triominos.bots import Budget, GreedyBot
from triominos.bots.evaluate import MoveValue, evaluate
from triominos.bots.expert import Evaluator
from triominos.bots.sim import SimBot
from triominos.game import Deal, Draw, Hand, Match, Observation, Pass
from triominos.lattice import ORIGIN
from triominos.rules import Rules
from triominos.tiles import Tile

SIMULATIONS = 400
SMALL = Budget(simulations=SIMULATIONS)

SHAPE = [placement_for(cell) for cell in (ORIGIN, D(-1, 0), U(-1, 0), D(-1, -1), U(0, -1))]
"""Five tiles of a hexagon, laid in turn by seats 0, 1, 0, 1, 0."""
HEXAGON = placement_for(D(0, -1))
"""The sixth: 0-2-5, the only tile that completes it (50 points, 7 for the tile)."""
KEPT = Tile(2, 3, 5)
"""Seat 1's other tile (10 points), which fits two cells and completes nothing."""
LAST = Tile(1, 4, 3)
"""Seat 0's last tile (8 points), which fits whatever seat 1 does."""


def hexagon_to_complete(open_racks: bool = True) -> Observation:
    """Seat 1 to move, holding 0-2-5 (it completes a hexagon) and 2-3-5; seat 0 holds one
    tile that fits, so it goes out next turn and collects seat 1's rack.

    With open racks, seat 1 sees seat 0's tile: only the pool's order is hidden, and the
    values can be worked out by hand. The 76-tile set, the starter drawn for seat 0.
    """
    rules = Rules(
        tile_set="extended",
        opening="starter_draw",
        open_racks=open_racks,
        max_players=2,
        rack_sizes=((2, 4),),
    )
    racks = (
        (SHAPE[0].tile, SHAPE[2].tile, SHAPE[4].tile, LAST),
        (SHAPE[1].tile, SHAPE[3].tile, HEXAGON.tile, KEPT),
    )
    dealt = {tile for rack in racks for tile in rack}
    pool = tuple(tile for tile in rules.box if tile not in dealt)
    hand = Hand(rules, Deal(racks, pool), starter_tiles=(Tile(5, 5, 5), Tile(0, 0, 0)))
    while hand.phase == "starter_draw":
        hand.apply(hand.legal_actions()[0].action)
    for placement in SHAPE:
        hand.apply(placement)
    assert hand.to_move == 1
    return hand.observe(1)


def by_action(values: list[MoveValue]) -> dict[object, MoveValue]:
    return {value.action: value for value in values}


def test_completing_the_hexagon_is_valued_above_what_completes_nothing() -> None:
    values = evaluate(hexagon_to_complete(), SMALL)
    assert values[0].action == HEXAGON
    # 57 for the hexagon; seat 0 goes out: 8 for its tile, 25 and the 10 of 2-3-5.
    assert values[0].expected == 57 - (8 + 25 + 10)
    kept = [value for value in values if getattr(value.action, "tile", None) == KEPT]
    assert len(kept) == 2
    # 10 for 2-3-5; seat 0 goes out: 8, 25 and the 7 of 0-2-5.
    assert all(value.expected == 10 - (8 + 25 + 7) for value in kept)


def test_every_choice_is_valued_the_draw_too_in_the_same_worlds() -> None:
    observation = hexagon_to_complete()
    values = evaluate(observation, SMALL)
    assert {value.action for value in values} == {o.action for o in observation.legal_actions()}
    assert len({value.simulations for value in values}) == 1  # every choice, every world
    assert values[0].simulations * len(values) == SIMULATIONS
    draw = by_action(values)[Draw()]
    # The draw is played out to the end of the seat's turn: it draws, lays the hexagon
    # (greedy's move) and seat 0 goes out with the drawn tile to collect besides.
    assert 10 - (8 + 25 + 7) < draw.expected < 57 - (8 + 25 + 10) - 5


def test_the_same_seed_and_budget_give_the_same_values() -> None:
    observation = hexagon_to_complete(open_racks=False)
    assert evaluate(observation, SMALL, seed=3) == evaluate(observation, SMALL, seed=3)
    assert evaluate(observation, SMALL, seed=3) != evaluate(observation, SMALL, seed=4)


def test_the_worlds_are_the_sim_bots() -> None:
    observation = hexagon_to_complete(open_racks=False)
    bot = SimBot(7, SMALL)
    simulation = bot.simulation(observation, observation.legal_actions())
    assert simulation is not None
    ranked = simulation.evaluator.ranked(observation.legal_actions())
    expected = [(value.option.action, value.mean) for value in simulation.run(ranked, SMALL)]
    found = evaluate(observation, SMALL, seed=7)
    assert [(value.action, value.expected) for value in found] == expected


def test_only_the_actions_asked_for_are_valued() -> None:
    observation = hexagon_to_complete()
    values = evaluate(observation, SMALL, actions=[Draw(), HEXAGON])
    assert [value.action for value in values] == [HEXAGON, Draw()]
    assert values[0].simulations == SIMULATIONS // 2


def test_an_action_that_is_not_legal_is_refused() -> None:
    with pytest.raises(ValueError, match="not a legal choice"):
        evaluate(hexagon_to_complete(), SMALL, actions=[Pass()])
    with pytest.raises(ValueError, match="at least one"):
        evaluate(hexagon_to_complete(), SMALL, actions=[])


def test_a_spectator_or_a_seat_not_to_move_is_refused() -> None:
    match = Match.from_preset("classic", players=2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        evaluate(match.observe(None), SMALL)
    with pytest.raises(ValueError, match="not this seat's turn"):
        evaluate(match.observe(1 - match.to_move), SMALL)


def test_the_opening_is_valued_by_the_static_evaluation() -> None:
    match = Match.from_preset("classic", players=2, seed=3)
    observation = match.observe(match.to_move)
    assert observation.phase == "opening"
    values = evaluate(observation, SMALL)
    ranked = Evaluator(observation).ranked(observation.legal_actions())
    assert values == [MoveValue(option.action, value, 0) for option, value in ranked]


def test_a_pass_is_valued_when_it_is_the_only_choice() -> None:
    match = Match.from_preset("classic", players=2, seed=0)
    bot = GreedyBot()
    while True:
        observation = match.observe(match.to_move)
        options = observation.legal_actions()
        if observation.phase == "play" and [o.action for o in options] == [Pass()]:
            break
        match.apply(bot.act(observation))
    values = evaluate(observation, SMALL)
    assert [value.action for value in values] == [Pass()]
    assert values[0].simulations == SIMULATIONS


def test_junior_values_every_action_to_the_end_of_the_hand() -> None:
    match = Match.from_preset("junior", players=2, seed=2)
    observation = match.observe(match.to_move)
    values = evaluate(observation, SMALL, seed=4)
    simulated = SimBot(4, SMALL).simulate_junior(observation, observation.legal_actions())
    assert values == [
        MoveValue(value.option.action, value.mean, value.simulations) for value in simulated
    ]
    assert {value.action for value in values} == {o.action for o in observation.legal_actions()}
    assert any(isinstance(value.action, Placement) for value in values)


def test_the_example_in_the_docs_runs() -> None:
    result = doctest.testmod(triominos.bots.evaluate)
    assert result.attempted and not result.failed
