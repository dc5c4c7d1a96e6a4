"""The sim bot: playouts by the engine's rules, paired worlds, deterministic budgets."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from itertools import islice

import pytest

import junior_games
from triominos.board import Placement
from triominos.bots import Budget, GreedyBot
from triominos.bots.expert import ExpertBot
from triominos.bots.outcome import WIN_VALUE
from triominos.bots.sampler import World
from triominos.bots.sim import (
    CHECK_EVERY,
    Planned,
    SimBot,
    Simulation,
    _still_in_doubt,
    junior_candidates,
)
from triominos.game import Action, Draw, Hand, LegalAction, Match, Observation, TakeJoker
from triominos.rules import PRESETS, Rules

LONG_MATCH = PRESETS["classic-house"].rules.replace(target_score=10_000)
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


def win_share(totals: list[int], seat: int) -> float:
    """The seat's share of the win, as the arena counts it: 1/k for a win shared by k."""
    best = max(totals)
    return 1 / totals.count(best) if totals[seat] == best else 0.0


def test_a_playout_to_the_end_of_the_hand_is_a_greedy_game() -> None:
    """horizon="hand": the value is the margin greedy players reach through the engine."""
    rng = random.Random(1)
    for _, observation in islice(positions(LONG_MATCH, 2, 6), 10):
        seat, value, hand = hand_playout(observation, rng)
        assert value == hand.points[seat] - hand.points[1 - seat]


def test_a_hand_that_ends_the_match_is_worth_the_win_or_the_loss() -> None:
    rules = PRESETS["classic-house"].rules.replace(target_score=1)  # any hand ends the match
    rng = random.Random(4)
    outcomes = set()
    for _, observation in islice(positions(rules, 2, 5), 10):
        seat, value, hand = hand_playout(observation, rng)
        margin = hand.points[seat] - hand.points[1 - seat]
        share = win_share(hand.totals, seat)
        assert value == margin + WIN_VALUE * (2 * share - 1)
        outcomes.add(share)
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


def test_without_fishing_sim_draws_exactly_when_the_static_evaluation_says_so() -> None:
    """Four players and more, and sim-v1: the evaluation's call to draw, else a placement
    (at four, expert's weights seldom draw while a tile fits)."""
    expert = ExpertBot()
    for players, sim, voluntary in (
        (2, SimBot(1, Budget(simulations=30), fishing=0), True),
        (4, SimBot(1, Budget(simulations=30)), False),
    ):
        draws = placements = 0
        for _, observation in islice(positions(PRESETS["classic-house"].rules, players, 7), 60):
            move = sim.act(observation)
            assert isinstance(move, Draw) == isinstance(expert.act(observation), Draw)
            draws += isinstance(move, Draw)
            placements += isinstance(move, Placement)
        assert placements and (draws > 0) == voluntary


def may_draw_and_place(observation: Observation) -> tuple[bool, bool]:
    actions = [option.action for option in observation.legal_actions()]
    return (
        any(isinstance(action, Draw) for action in actions),
        any(isinstance(action, Placement) for action in actions),
    )


def test_at_two_and_three_players_sim_fishes_whenever_it_may_and_goes_out_when_it_can() -> None:
    sim = SimBot(1, Budget(simulations=30))
    fished = went_out = placed = 0
    for players, seed in ((2, 0), (2, 1), (2, 2), (3, 0), (3, 1)):
        for _, observation in positions(PRESETS["classic-house"].rules, players, seed):
            may_draw, may_place = may_draw_and_place(observation)
            move = sim.act(observation)
            if may_draw and may_place and (observation.rack or 0).bit_count() == 1:
                assert isinstance(move, Placement)  # going out: the hand is won now
                went_out += 1
            elif may_draw:
                assert isinstance(move, Draw)
                fished += may_place
            else:
                placed += isinstance(move, Placement)
    assert fished and went_out and placed


def test_sim_does_not_fish_where_a_draw_ends_the_turn() -> None:
    rules = PRESETS["classic-house"].rules.replace(draw_ends_turn=True)
    fishing, evaluated = (
        SimBot(2, Budget(simulations=30)),
        SimBot(2, Budget(simulations=30), fishing=0),
    )
    checked = 0
    for _, observation in islice(positions(rules, 2, 4), 40):
        if all(may_draw_and_place(observation)):
            assert fishing.act(observation) == evaluated.act(observation)
            checked += 1
    assert checked


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


def test_the_plan_simulates_only_where_there_is_a_choice_and_act_follows_it() -> None:
    """One path: what plan decides, act plays; what it simulates is the shortlist, two
    candidates at least (a lone placement beside draws is played without a playout)."""
    bot = SimBot(3, Budget(simulations=40))
    lone = simulated = 0
    for _, observation in islice(positions(PRESETS["classic-house"].rules, 4, 11), 80):
        plan = bot.plan(observation)
        placements = [
            option.action
            for option in observation.legal_actions()
            if isinstance(option.action, Placement)
        ]
        if isinstance(plan, Planned):
            simulated += 1
            chosen = [option.action for option, _ in plan.candidates]
            assert len(chosen) >= 2 and set(chosen) <= set(placements)
            assert (
                bot.act(observation)
                == plan.simulation.run(plan.candidates, bot.budget)[0].option.action
            )
        else:
            lone += len(placements) == 1 and plan == placements[0]
            assert bot.act(observation) == plan
    assert simulated and lone


def test_a_time_budget_is_kept() -> None:
    bot = SimBot(6, Budget(seconds=0.02))
    for _, observation in islice(positions(PRESETS["classic-house"].rules, 2, 8), 5):
        start = time.perf_counter()
        bot.act(observation)
        assert time.perf_counter() - start < 0.5


# --- Triominos Junior -------------------------------------------------------------------


def true_world(hand: Hand) -> World:
    """The hidden part of a hand as it really is: every rack and the pool's order."""
    tile_set = hand.tile_set
    return World(tuple(hand.racks), tuple(tile_set.index(tile) for tile in hand.pool))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 6), (4, 14), (3, 2)])
def test_a_junior_playout_of_the_true_world_is_the_game_greedy_players_play(
    players: int, seed: int
) -> None:
    """Played out in the real racks and pool, a Junior playout is the real game of greedy
    players to its end: the joker taken back, counters paid and earned, the bank, the last
    round after the pool's last card. Its value: the counters won from here less the
    others' mean, and the match won, shared or lost."""
    match = Match.from_preset("junior", players, seed)
    greedy = GreedyBot()
    rng = random.Random(seed)
    expected: list[tuple[int, tuple[int, ...], float]] = []  # seat, totals then, value
    last_round = False
    while not match.is_over:
        observation = match.observe(match.to_move)
        action = greedy.act(observation)
        simulation = Simulation(observation, rng, horizon="hand")
        value = simulation.play_out(true_world(match.hand), action)
        expected.append((match.to_move, observation.totals, value))
        last_round |= observation.pool_size == 0
        match.apply(action)
    totals = match.totals
    for seat, then, value in expected:
        won = [total - before for total, before in zip(totals, then, strict=True)]
        margin = won[seat] - (sum(won) - won[seat]) / (players - 1)
        assert value == pytest.approx(margin + WIN_VALUE * (2 * win_share(totals, seat) - 1))
    assert last_round


def test_junior_playouts_meet_the_joker_taken_back_and_a_shared_win() -> None:
    """The games of the test above hold what it is meant to check."""
    greedy = GreedyBot()
    takes = shared = 0
    for players, seed in [(2, 1), (3, 6), (4, 14), (3, 2)]:
        match = Match.from_preset("junior", players, seed)
        while not match.is_over:
            match.apply(greedy.act(match.observe(match.to_move)))
        takes += any(event.action == "take_joker" for event in match.hand.events)
        shared += len(match.winners) > 1
    assert takes == 3 and shared == 1


def test_a_junior_playout_leaves_the_board_as_it_found_it() -> None:
    """Joker swaps included, which leave the number of cards on the table as it was."""
    match = junior_games.first_position(junior_games.can_take_joker)
    observation = match.observe(match.to_move)
    simulation = Simulation(observation, random.Random(1), horizon="hand")
    before = list(simulation.board)
    joker_cell, open_cells = simulation.board.joker_cell, sorted(simulation.board.open_cells())
    options = observation.legal_actions()
    assert any(isinstance(option.action, TakeJoker) for option in options)
    for option in options:
        simulation.play_out(simulation.sampler.sample(simulation.rng), option.action)
        assert list(simulation.board) == before
        assert simulation.board.joker_cell == joker_cell
        assert sorted(simulation.board.open_cells()) == open_cells


def test_junior_has_no_static_evaluation_to_stop_a_playout_at() -> None:
    match = Match.from_preset("junior", players=2, seed=1)
    with pytest.raises(ValueError, match="horizon"):
        Simulation(match.observe(0), random.Random(1), horizon="turn")


def test_junior_candidates_are_every_action_by_counters_now() -> None:
    """The joker taken back, the buy and every placement, a bonus first."""
    match = junior_games.first_position(
        lambda m: (
            junior_games.can_take_joker(m)
            and len({legal.points for legal in m.legal_actions()}) > 2
        )
    )
    options = match.observe(match.to_move).legal_actions()
    candidates = junior_candidates(options)
    assert Counter(option.action for option, _ in candidates) == Counter(o.action for o in options)
    assert all(points == option.points for option, points in candidates)
    assert [points for _, points in candidates] == sorted((p for _, p in candidates), reverse=True)
    assert {type(option.action) for option, _ in candidates} >= {Placement, TakeJoker}


def test_sim_plays_the_junior_candidate_of_best_mean() -> None:
    match = junior_games.first_position(junior_games.can_take_joker)
    observation = match.observe(match.to_move)
    bot = SimBot(3, Budget(simulations=60))
    values = bot.simulate_junior(observation, observation.legal_actions())
    assert len(values) == len(observation.legal_actions())
    assert values[0].mean == max(value.mean for value in values)
    assert bot.act(observation) == values[0].option.action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sim_plays_whole_junior_games(players: int) -> None:
    """By simulation, not greedy's move: with a small budget, to the end of the match."""
    match = Match.from_preset("junior", players, seed=players)
    bots = [SimBot(seat, Budget(simulations=12)) for seat in range(players)]
    greedy = GreedyBot()
    unlike_greedy = 0
    while not match.is_over:
        observation = match.observe(match.to_move)
        move = bots[match.to_move].act(observation)
        unlike_greedy += move != greedy.act(observation)
        match.apply(move)
    assert match.hand.end is not None and unlike_greedy > 0


def test_the_same_seed_and_budget_make_the_same_junior_move() -> None:
    match = Match.from_preset("junior", players=3, seed=5)
    greedy = GreedyBot()
    asked = SimBot(9, Budget(simulations=20))  # asked about every position in turn
    moves = 0
    while not match.is_over:
        observation = match.observe(match.to_move)
        if len(observation.legal_actions()) > 1 and moves < 12:
            assert asked.act(observation) == SimBot(9, Budget(simulations=20)).act(observation)
            moves += 1
        match.apply(greedy.act(observation))
    assert moves == 12


def test_a_bot_without_a_turn_says_so() -> None:
    match = Match.from_preset("classic-house", players=2, seed=1)
    waiting = 1 - match.to_move
    with pytest.raises(ValueError, match="not this seat's turn"):
        SimBot(1).act(match.observe(waiting))


# --- a time budget is a limit: candidates shown worse are dropped --------------------


def paired_sums(values: list[list[float]]) -> tuple[list[float], list[list[float]]]:
    """The sums and cross sums Simulation.run keeps, from each candidate's value by world."""
    sums = [sum(row) for row in values]
    cross = [[sum(a * b for a, b in zip(x, y, strict=True)) for y in values] for x in values]
    return sums, cross


def test_a_candidate_worse_in_every_paired_world_is_dropped() -> None:
    noise = [random.Random(5).gauss(0, 20) for _ in range(64)]
    leader = [10 + n for n in noise]
    worse = [5 + n for n in noise]  # 5 less in every world: the worlds' luck cancels
    close = [10 + n + (1 if world % 2 else -1) for world, n in enumerate(noise)]
    sums, cross = paired_sums([leader, worse, close])
    assert _still_in_doubt([0, 1, 2], sums, cross, 64) == [0, 2]


def test_a_worse_mean_within_the_noise_is_kept() -> None:
    rng = random.Random(6)
    leader = [rng.gauss(10, 20) for _ in range(64)]
    other = [rng.gauss(8, 20) for _ in range(64)]  # unpaired luck: 2 points prove nothing
    sums, cross = paired_sums([leader, other])
    assert _still_in_doubt([0, 1], sums, cross, 64) == [0, 1]


def scripted(
    means: list[float], spread: float
) -> tuple[Simulation, list[tuple[LegalAction, float]]]:
    """A simulation of a real position whose playouts are replaced: candidate ``i`` is worth
    ``means[i]`` plus the luck of the world, the same for every candidate in it."""
    _, observation = next(positions(LONG_MATCH, 2, 3))
    simulation = Simulation(observation, random.Random(1))
    options = [o for o in observation.legal_actions() if isinstance(o.action, Placement)]
    chosen = options[: len(means)]
    assert len(chosen) == len(means)
    worth = {option.action: mean for option, mean in zip(chosen, means, strict=True)}
    luck = random.Random(2)
    last: list[object] = [None, 0.0]  # the world played last and its luck

    def play_out(world: World, action: Action) -> float:
        if world is not last[0]:
            last[:] = [world, luck.gauss(0, spread)]
        return worth[action] + float(last[1])  # type: ignore[arg-type]

    simulation.play_out = play_out  # type: ignore[method-assign]
    return simulation, [(option, 0.0) for option in chosen]


def test_a_time_budget_decides_as_soon_as_one_candidate_is_left() -> None:
    simulation, candidates = scripted([0.0, 1.0, 20.0], spread=30.0)
    began = time.perf_counter()
    found = simulation.run(candidates, Budget(seconds=60))
    assert time.perf_counter() - began < 30  # nowhere near the minute: it stopped itself
    assert found[0].option is candidates[2][0]
    assert found[0].mean - found[1].mean == pytest.approx(19.0)  # the same worlds, paired
    assert found[0].simulations == CHECK_EVERY  # the first look settled it
    assert all(value.simulations == CHECK_EVERY for value in found)


def test_a_time_budget_plays_a_close_call_to_the_end() -> None:
    simulation, candidates = scripted([5.0, 5.0], spread=30.0)
    found = simulation.run(candidates, Budget(seconds=0.3))
    assert found[0].simulations == found[1].simulations > CHECK_EVERY
    assert found[0].mean == found[1].mean


def test_a_budget_in_simulations_plays_every_candidate_in_every_world() -> None:
    simulation, candidates = scripted([0.0, 1.0, 20.0], spread=30.0)
    found = simulation.run(candidates, Budget(simulations=3 * 100))
    assert [value.simulations for value in found] == [100, 100, 100]
    assert [value.option for value in found] == [option for option, _ in reversed(candidates)]


def few_worlds_position() -> Observation:
    """A 3-player position with an empty pool and 5 to 9 tiles hidden: a few worlds."""
    for seed in range(40):
        for _, observation in positions(PRESETS["classic-house"].rules, 3, seed):
            hidden = sum(observation.rack_sizes) - observation.rack_sizes[observation.seat or 0]
            if observation.pool_size == 0 and 5 <= hidden <= 9:
                return observation
    raise AssertionError("no such position in the matches")


def test_few_worlds_are_each_played_once_by_their_weight() -> None:
    observation = few_worlds_position()
    candidates = [(option, 0.0) for option in observation.legal_actions()]
    exact = Simulation(observation, random.Random(1), exact_worlds=True)
    worlds = exact.sampler.worlds(cap=10_000)
    assert worlds is not None and 1 < len(worlds) <= 100
    found = exact.run(candidates, Budget(simulations=100 * len(candidates)))
    total = sum(weight for _, weight in worlds)
    for value in found:
        assert value.simulations == len(worlds)
        expected = sum(w * exact.play_out(world, value.option.action) for world, w in worlds)
        assert value.mean == pytest.approx(expected / total)
    assert [value.mean for value in found] == sorted((v.mean for v in found), reverse=True)
    # A budget that could not go through every world samples them, as sim-v1 always does.
    sampled = exact.run(candidates, Budget(simulations=len(candidates) * (len(worlds) - 1)))
    assert all(value.simulations == len(worlds) - 1 for value in sampled)
