"""The exact endgame: solved values against plain minimax, and the sim bot playing them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from triominos.bots import Budget, GreedyBot, make_bot
from triominos.bots.endgame import _Search, solvable, solve
from triominos.bots.outcome import WIN_VALUE, outcome
from triominos.bots.sim import SimBot
from triominos.game import Action, Hand, Match, Observation
from triominos.rules import PRESETS, Rules

CLASSIC = PRESETS["classic"].rules
LONG_MATCH = CLASSIC.replace(target_score=10_000)
"""No hand ends the match: an endgame's value is the points difference alone."""


def endgame(rules: Rules, seed: int, tiles: int) -> Observation | None:
    """A greedy hand played until the pool is empty and the racks hold ``tiles`` or fewer,
    the seat to move with a choice; None if the hand ends first."""
    match = Match(rules, 2, seed)
    bot = GreedyBot()
    while not match.is_over and len(match.hands) == 1:
        observation = match.observe(match.to_move)
        if (
            solvable(observation)
            and sum(observation.rack_sizes) <= tiles
            and len(observation.legal_actions()) > 1
        ):
            return observation
        match.apply(bot.act(observation))
    return None


def endgames(rules: Rules, tiles: int, count: int) -> Iterator[Observation]:
    found = 0
    for seed in range(200):
        observation = endgame(rules, seed, tiles)
        if observation is not None:
            found += 1
            yield observation
            if found == count:
                return


def brute_force(observation: Observation) -> dict[Action, float]:
    """Each root action's exact value by plain minimax, every line replayed from the root
    on a fresh copy of the board: no table, no pruning, no undo."""
    assert observation.seat is not None and observation.rack is not None
    seat, rules = observation.seat, observation.rules
    on_table = rules.tiles.mask(placement.tile for placement in observation.board)
    racks = [0, 0]
    racks[seat] = observation.rack
    racks[1 - seat] = rules.box_mask & ~on_table & ~observation.rack

    def replayed(line: Sequence[Action]) -> Hand:
        hand = Hand.resume(
            rules,
            observation.board.copy(),
            racks,
            (),
            to_move=seat,
            starter=seat if observation.starter is None else observation.starter,
            number=observation.hand_number,
            totals=observation.totals,
        )
        for action in line:
            hand.apply(action)
        return hand

    def value(line: list[Action]) -> float:
        hand = replayed(line)
        if hand.is_over:
            return outcome(observation, hand, seat)
        pick = max if hand.to_move == seat else min
        return pick(value([*line, option.action]) for option in hand.legal_actions())

    return {option.action: value([option.action]) for option in observation.legal_actions()}


SEARCHED = [(0, 87), (0, 88), (14, 84), (222, 87), (230, 86), (230, 88), (230, 90), (254, 85)]
"""(seed, events so far) of empty-pool positions in the first hand of greedy matches
that take the search 40 to 300 nodes (pruning and the table at work) and plain minimax
under a second: all such positions of seeds 0 to 299 but four larger ones."""


def position(rules: Rules, seed: int, events: int) -> Observation:
    """The position of a greedy match after ``events`` events of its first hand."""
    match = Match(rules, 2, seed)
    bot = GreedyBot()
    while len(match.hand.events) < events:
        match.apply(bot.act(match.observe(match.to_move)))
    observation = match.observe(match.to_move)
    assert solvable(observation)
    return observation


@pytest.mark.parametrize(("seed", "events"), SEARCHED)
def test_the_solved_value_and_move_are_those_of_plain_minimax(seed: int, events: int) -> None:
    observation = position(LONG_MATCH, seed, events)
    values = brute_force(observation)
    solution = solve(observation, node_limit=100_000)
    assert solution is not None
    assert solution.value == pytest.approx(max(values.values()))
    assert values[solution.action] == pytest.approx(solution.value)


def test_near_the_target_the_match_result_counts() -> None:
    """The same endgames with the target just ahead: the hand can end the match, the
    totals enter the table's key, and the values still agree with plain minimax."""
    solved = []
    for seed, events in SEARCHED[:3]:
        observation = position(CLASSIC.replace(target_score=60), seed, events)
        values = brute_force(observation)
        solution = solve(observation, node_limit=100_000)
        assert solution is not None
        assert solution.value == pytest.approx(max(values.values()))
        solved.append(solution.value)
    assert any(abs(value) >= WIN_VALUE / 2 for value in solved)  # a match won or lost


def test_a_search_too_large_for_its_limit_gives_up() -> None:
    observation = next(endgames(LONG_MATCH, tiles=12, count=1))
    assert solve(observation, node_limit=1) is None


def test_only_positions_with_nothing_hidden_are_solved() -> None:
    match = Match(CLASSIC, 2, 1)
    observation = match.observe(match.to_move)
    assert not solvable(observation)  # the opening, a full pool
    with pytest.raises(ValueError, match="empty pool"):
        solve(observation)
    three = Match(CLASSIC, 3, 1)
    assert not solvable(three.observe(three.to_move))


def test_sim_plays_the_solved_move_and_sim_v1_does_not_search() -> None:
    budget = Budget(simulations=30)
    checked = 0
    for observation in endgames(LONG_MATCH, tiles=8, count=8):
        solution = solve(observation)
        if solution is None:
            continue
        assert SimBot(1, budget).act(observation) == solution.action
        assert make_bot("sim-v1", 1, budget).act(observation) == SimBot(
            1, budget, endgame=None
        ).act(observation)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize(("seed", "events"), SEARCHED)
def test_a_search_in_a_window_bounds_the_value_on_the_side_it_falls(seed: int, events: int) -> None:
    """Alpha-beta's promise at every window: the exact value inside it, else a bound on
    the side the value falls; the table shared across the windows, as in a search."""
    observation = position(LONG_MATCH, seed, events)
    search = _Search(observation, node_limit=1_000_000)
    for action, truth in brute_force(observation).items():
        gain, child, pops = search._play(search.start, action)
        try:
            if child is None:
                continue
            for low, high in ((-30, -5), (-5, 5), (5, 30), (-2, 0), (0, 2)):
                alpha, beta = truth + low, truth + high
                found = gain - search._negamax(child, gain - beta, gain - alpha)
                if truth <= alpha:
                    assert truth <= found <= alpha
                elif truth >= beta:
                    assert beta <= found <= truth
                else:
                    assert found == pytest.approx(truth)
        finally:
            search._undo(pops)
