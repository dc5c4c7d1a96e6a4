"""The OpenSpiel game ``triominos`` (triominos.rl.openspiel)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]  # noqa: E402

from triominos.bots import GreedyBot  # noqa: E402
from triominos.encoding import DRAW  # noqa: E402
from triominos.game import Hand  # noqa: E402
from triominos.rl.openspiel import TriominosGame, TriominosState  # noqa: E402
from triominos.rules import PRESETS, RuleOptionError  # noqa: E402


def load(preset: str = "classic", players: int = 2) -> TriominosGame:
    game: TriominosGame = pyspiel.load_game("triominos", {"preset": preset, "players": players})
    return game


def hand_of(state: TriominosState) -> Hand:
    assert state.play.hand is not None
    return state.play.hand


def deal(game: TriominosGame, rng: Any) -> TriominosState:
    """A state right after the deal, chance outcomes drawn with ``rng``."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    return state


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_simulations_pass_openspiel_checks(preset: str) -> None:
    for players in (2, PRESETS[preset].rules.max_players):
        pyspiel.random_sim_test(load(preset, players), num_sims=2, serialize=True, verbose=False)


def test_parameters_are_checked() -> None:
    game = load("junior", 3)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == game.space.size
    assert game.max_chance_outcomes() == 36
    with pytest.raises(RuleOptionError, match="preset"):
        TriominosGame({"preset": "chess"})
    with pytest.raises(RuleOptionError, match="players"):
        TriominosGame({"players": 7})
    with pytest.raises(ValueError, match="unknown parameter"):
        TriominosGame({"seats": 2})


def test_the_deal_and_the_draws_are_chance_nodes() -> None:
    game = load()
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 56
    state = deal(game, np.random.RandomState(3))
    hand = hand_of(state)
    assert [len(hand.rack(seat)) for seat in (0, 1)] == [9, 9]
    # Play until someone draws: the draw waits for a chance node over the pool's tiles.
    greedy = GreedyBot()
    while True:
        action = game.space.encode(greedy.act(state.observation(state.current_player())))
        if action == DRAW:
            break
        state.apply_action(action)
    drawer = state.current_player()
    pool = {game.rules.tiles.index(tile) for tile in hand.pool}
    state.apply_action(DRAW)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert {tile for tile, _ in outcomes} == pool
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    tile = max(pool)
    state.apply_action(tile)
    assert game.rules.tiles.tiles[tile] in hand_of(state).rack(drawer)


def test_the_information_state_hides_the_other_racks() -> None:
    game = load()
    first = deal(game, np.random.RandomState(1))
    # The same deal but for a tile of seat 1's rack traded with one of the pool, neither
    # a triple, so that the same seat opens.
    tiles = game.rules.tiles.tiles
    dealt = first.play.dealt
    ones = [i for i in range(9, 18) if not tiles[dealt[i]].is_triple]
    pool = [tile for tile in range(56) if tile not in dealt and not tiles[tile].is_triple]
    swapped = [*dealt[:9], *dealt[9:18]]
    swapped[ones[0]] = pool[0]
    second = game.new_initial_state()
    for tile in swapped:
        second.apply_action(tile)
    assert hand_of(first).rack(1) != hand_of(second).rack(1)
    assert first.current_player() == second.current_player()
    for state in (first, second):  # the opening, and the chance node of a draw if any
        state.apply_action(state.legal_actions()[0])
    for seat, same in ((0, True), (1, False)):
        assert (
            first.information_state_string(seat) == second.information_state_string(seat)
        ) == same
        assert (first.observation_string(seat) == second.observation_string(seat)) == same
        assert (first.observation_tensor(seat) == second.observation_tensor(seat)) == same


def test_resampled_states_agree_with_what_the_seat_saw() -> None:
    game = load()
    state = deal(game, np.random.RandomState(5))
    state.apply_action(state.legal_actions()[0])  # the opening
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    other = 1 - seat
    rack = hand_of(state).rack(other)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
    assert len({tuple(hand_of(world).rack(other)) for world in worlds}) > 1
    assert hand_of(state).rack(other) == rack  # the state resampled from is untouched


def test_returns_are_the_margin_and_sum_to_zero() -> None:
    game = load("classic", 3)
    rng = np.random.RandomState(7)
    state = deal(game, rng)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    points = hand_of(state).points
    returns = state.returns()
    assert sum(returns) == pytest.approx(0)
    for seat in range(3):
        others = [points[other] for other in range(3) if other != seat]
        assert returns[seat] == pytest.approx(points[seat] - sum(others) / 2)


def test_ismcts_plays_a_hand_against_greedy() -> None:
    game = load()
    rng = np.random.RandomState(11)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    greedy = GreedyBot()
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            action = int(searcher.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(game.space.encode(greedy.act(state.observation(1))))
    assert searched > 3
    assert sum(state.returns()) == 0
