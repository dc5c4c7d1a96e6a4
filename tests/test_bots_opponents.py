"""The opponent model: how likely the others' placements were in a world, read as expert.

The checks do not trust the model's own bookkeeping: they play expert at every seat,
keep each seat's view at each of its moves, and compare the model with expert's own
evaluation of the racks the players really held.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator

import pytest

from triominos.board import Placement
from triominos.bots import Budget
from triominos.bots.expert import Evaluator, ExpertBot
from triominos.bots.opponents import ChoiceModel, tempered
from triominos.bots.sampler import World, WorldSampler
from triominos.bots.sim import SimBot, Simulation
from triominos.game import BOARD_ACTIONS, DRAWS, Deal, Hand, LegalAction, Observation
from triominos.rules import PRESETS

RULES = PRESETS["classic"].rules


def expert_positions(
    players: int, seed: int, every: int = 3
) -> Iterator[tuple[Hand, Observation, dict[int, Observation]]]:
    """Positions in play of a hand that experts play: (the true hand, the view of the
    seat to move, by event number the view of its mover just before it)."""
    deal = Deal.shuffle(RULES, players, random.Random(seed))
    hand = Hand(RULES, deal, rng=random.Random(seed))
    expert = ExpertBot()
    before: dict[int, Observation] = {}
    while not hand.is_over:
        observation = hand.observe(hand.to_move)
        if observation.phase == "play" and len(hand.events) % every == 0:
            yield hand, observation, before
        before[len(hand.events)] = observation
        hand.apply(expert.act(observation))


def placement_of(observation: Observation, cell: int, tile: int, corners: object) -> LegalAction:
    """The legal action of ``observation`` that lays ``tile`` in ``cell`` so."""
    tile_set = observation.board.tile_set
    (found,) = [
        option
        for option in observation.legal_actions()
        if isinstance(option.action, Placement)
        and option.action.cell.id == cell
        and option.action.corners == corners
        and tile_set.index(option.action.tile) == tile
    ]
    return found


def model_for(observation: Observation, depth: int = 3) -> ChoiceModel:
    return ChoiceModel(observation, WorldSampler(observation).unseen, depth=depth)


@pytest.mark.parametrize("players", [2, 4])
def test_the_model_values_each_placement_as_expert_did(players: int) -> None:
    compared = 0
    for hand, observation, before in expert_positions(players, seed=players):
        for choice in model_for(observation).choices:
            then = before[choice.number]
            rack = hand.racks[choice.seat] | choice.since
            assert rack == then.rack  # the rack then is the rack now and the tiles laid since
            if rack.bit_count() == 1:
                continue  # going out: worth the same wherever
            evaluator = Evaluator(then)
            for option, value in choice.values(rack):
                legal = placement_of(then, option.cell, option.tile, option.corners)
                assert value == pytest.approx(evaluator.placement_value(legal))
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_placements_since_the_last_draw_are_read(players: int) -> None:
    read = 0
    for _, observation, _ in expert_positions(players, seed=10 + players):
        history = observation.history
        opening = next(n for n, event in enumerate(history) if event.action in BOARD_ACTIONS)
        model = model_for(observation, depth=2)
        by_seat: dict[int, int] = {}
        for choice in model.choices:
            assert choice.seat != observation.seat
            assert history[choice.number].action == "place" and choice.number > opening
            later = history[choice.number + 1 :]
            assert not any(e.player == choice.seat and e.action in DRAWS for e in later)
            by_seat[choice.seat] = by_seat.get(choice.seat, 0) + 1
            read += 1
        assert all(count <= 2 for count in by_seat.values())
    assert read


def test_holding_a_tile_the_player_liked_better_makes_its_choice_unlikely() -> None:
    """Give a player, in place of a tile it holds, a pool tile that it would have laid
    instead: that world is less likely than the true one."""
    checked = 0
    for hand, observation, _ in expert_positions(4, seed=21):
        model = model_for(observation, depth=1)
        pool = hand.board.tile_set.full_mask & ~hand.board.tile_set.mask(
            placement.tile for placement in hand.board
        )
        for rack in hand.racks:
            pool &= ~rack
        for choice in model.choices:
            held = hand.racks[choice.seat]
            if not held:
                continue
            rack = held | choice.since
            chosen = next(v for o, v in choice.values(rack) if o == choice.chosen)
            given_up = held & -held
            for tile in choice.options:
                if not pool >> tile & 1:
                    continue
                swapped = rack & ~given_up | 1 << tile
                best = max(v for o, v in choice.values(swapped) if o.tile == tile)
                if best <= chosen + 5:
                    continue
                racks = list(hand.racks)
                racks[choice.seat] = held & ~given_up | 1 << tile
                assert model.log_likelihood(racks) < model.log_likelihood(hand.racks)
                checked += 1
                break
    assert checked >= 3


def test_the_true_racks_are_likelier_than_the_sampled_ones() -> None:
    """At four players, against experts, the true racks rank high among the worlds."""
    ranks = []
    for hand, observation, _ in expert_positions(4, seed=31, every=4):
        sampler = WorldSampler(observation, placements=True)
        model = ChoiceModel(observation, sampler.unseen)
        if not model.choices:
            continue
        rng = random.Random(1)
        true = model.log_likelihood(hand.racks)
        sampled = [model.log_likelihood(sampler.sample(rng).racks) for _ in range(100)]
        ranks.append(statistics.fmean(1.0 if log < true else 0.0 for log in sampled))
    assert len(ranks) > 10
    assert statistics.fmean(ranks) > 0.8


def test_reweighing_keeps_the_order_and_scales_the_likeliest_to_its_weight() -> None:
    _, observation, _ = next(
        (hand, view, before)
        for hand, view, before in expert_positions(4, seed=41)
        if len(model_for(view).choices) >= 3
    )
    sampler = WorldSampler(observation)
    model = model_for(observation)
    rng = random.Random(2)
    worlds: list[tuple[World, float]] = [(sampler.sample(rng), 0.5) for _ in range(20)]
    weighed = model.reweighed(worlds)
    assert [world for world, _ in weighed] == [world for world, _ in worlds]
    assert max(weight for _, weight in weighed) == 0.5
    assert all(0 < weight <= 0.5 for _, weight in weighed)


def test_a_simulation_that_reads_choices_plays_the_likely_worlds() -> None:
    _, observation, _ = next(
        (hand, view, before)
        for hand, view, before in expert_positions(4, seed=51)
        if len(model_for(view).choices) >= 3
    )
    plain = Simulation(observation, random.Random(3))
    reading = Simulation(observation, random.Random(3), read_choices=3)
    assert reading.choices is not None
    score = reading.choices.log_likelihood
    sampled, resampled = plain._worlds(50), reading._worlds(50)
    plain_mean = statistics.fmean(score(next(sampled).racks) for _ in range(200))
    read_mean = statistics.fmean(score(next(resampled).racks) for _ in range(200))
    assert read_mean > plain_mean + 1  # e times likelier on the mean, at the least


def test_sim_reads_choices_only_when_told_and_refuses_a_negative_depth() -> None:
    with pytest.raises(ValueError, match="read_choices must be 0"):
        SimBot(1, read_choices=-1)
    _, observation, _ = next(
        (hand, view, before)
        for hand, view, before in expert_positions(4, seed=61)
        if len(model_for(view).choices) >= 3
    )
    reading = SimBot(7, Budget(simulations=120), read_choices=2)
    assert reading.act(observation) == reading.act(observation)  # deterministic
    simulation = reading.simulation(observation, observation.legal_actions())
    assert simulation is not None and simulation.choices is not None
    plain = SimBot(7, Budget(simulations=120)).simulation(observation, observation.legal_actions())
    assert plain is not None and plain.choices is None


def effective_size(weights: list[float]) -> float:
    return sum(weights) ** 2 / sum(weight * weight for weight in weights)


def test_a_likelihood_sharp_enough_to_leave_few_worlds_is_tempered() -> None:
    logs = [0.0, -10.0, -10.0, -10.0, -20.0]
    plain = tempered([1.0] * 5, logs, effective=0)
    assert plain == pytest.approx([math.exp(log) for log in logs])
    assert effective_size(plain) < 1.01  # one world takes nearly all the weight
    flatter = tempered([1.0] * 5, logs, effective=3)
    assert 2.99 < effective_size(flatter) < 3.01  # flattened just enough
    assert flatter[0] > flatter[1] > flatter[4]  # still in the likelihood's order
    assert tempered([1.0] * 5, logs, effective=5) == pytest.approx([1.0] * 5)


def test_a_world_played_again_gets_a_pool_shuffled_again() -> None:
    repeated = 0
    for _, observation, _ in expert_positions(4, seed=51, every=2):
        if observation.pool_size < 4:
            continue
        reading = Simulation(observation, random.Random(3), read_choices=3)
        worlds = reading._worlds(40)
        batch = [next(worlds) for _ in range(40)]
        for racks in {world.racks for world in batch}:
            pools = [world.pool for world in batch if world.racks == racks]
            assert len(set(pools)) == len(pools)  # each time with another pool order
            repeated += len(pools) > 1
    assert repeated  # the likely worlds were played more than once
