"""The PettingZoo AEC environment (triominos.rl.pettingzoo)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # type: ignore[import-untyped]  # noqa: E402

from triominos.game import IllegalActionError, Match, observe  # noqa: E402
from triominos.rl import episode_returns, hand_in_play, seat_returns  # noqa: E402
from triominos.rl.pettingzoo import TriominosAEC, env  # noqa: E402
from triominos.rules import PRESETS, RuleOptionError  # noqa: E402
from triominos.tiles import indices as triominos_indices  # noqa: E402


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_environment_passes_pettingzoo_api_test(preset: str) -> None:
    for players in (2, PRESETS[preset].rules.max_players):
        api_test(env(preset=preset, players=players), num_cycles=60, verbose_progress=False)
    api_test(env(preset=preset, match=True), num_cycles=60, verbose_progress=False)


def test_a_hand_through_the_environment() -> None:
    """Masks are the legal ids, rewards add up to each seat's margin, the end terminates
    every agent."""
    environment = TriominosAEC("junior", 3, render_mode="ansi")
    environment.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    while environment.agents:
        agent = environment.agent_selection
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        assert environment.episode is not None
        hand = hand_in_play(environment.episode)
        seat = environment.possible_agents.index(agent)
        legal = environment.space.legal_ids(observe(hand, seat))
        assert sorted(np.flatnonzero(observation["action_mask"])) == sorted(legal)
        for other in environment.possible_agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        environment.step(int(rng.choice(legal)))
    assert hand is not None and hand.is_over
    assert list(totals.values()) == pytest.approx(episode_returns(hand))
    assert environment.render() == hand.to_text()


def test_bad_arguments_and_actions_are_refused() -> None:
    with pytest.raises(RuleOptionError, match="preset"):
        env(preset="chess")
    with pytest.raises(RuleOptionError, match="players"):
        env(players=7)
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="human")
    environment = TriominosAEC()
    environment.reset(seed=1)
    with pytest.raises(IllegalActionError):
        environment.step(1)  # a pass, with a tile to open the hand


def test_rule_options_and_pairwise_returns() -> None:
    environment = env(preset="extended", players=3, rules={"max_draws": 2}, returns="pairwise")
    assert environment.unwrapped.rules.max_draws == 2
    environment.reset(seed=9)
    rng = np.random.default_rng(9)
    returns = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        returns[agent] += reward
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    assert sum(returns.values()) == pytest.approx(0)
    assert all(-1 <= value <= 1 for value in returns.values())


def test_factored_actions_put_the_features_in_the_info_of_the_seat_to_move() -> None:
    environment = env(preset="classic", players=2, actions="factored")
    environment.reset(seed=4)
    for _ in environment.agent_iter(max_iter=30):
        observation, _, terminated, truncated, info = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        assert set(np.flatnonzero(observation["action_mask"])) == set(info["action_ids"].tolist())
        assert info["action_features"].shape[0] == len(info["action_ids"])
        environment.step(int(info["action_ids"][0]))


def test_the_global_state_holds_every_rack_and_the_pool_for_a_critic_only() -> None:
    environment = env(preset="classic", players=3)
    environment.reset(seed=11)
    raw = environment.unwrapped
    hand = hand_in_play(raw.episode)
    state = environment.state()
    assert state.shape == raw.state_space.shape == (raw.global_encoder.size,)
    features = raw.global_encoder.features
    tiles = len(hand.tile_set)
    racks = state[features["racks"]].reshape(3, tiles)
    for i in range(3):
        seat = (hand.to_move + i) % 3
        assert set(np.flatnonzero(racks[i])) == set(triominos_indices(hand.racks[seat]))
    assert set(np.flatnonzero(state[features["pool"]])) == set(hand.undrawn())
    # What a seat's policy gets holds none of the other racks.
    agent = environment.agent_selection
    observation = environment.observe(agent)["observation"]
    assert observation.shape[0] == raw.global_encoder.observation.size < state.shape[0]


def test_a_whole_match_through_the_environment() -> None:
    """``match=True``: the engine's Match, hand after hand; the rewards add up to the
    margins of its final totals, and only its end terminates."""
    environment = TriominosAEC("classic", 3, match=True)
    environment.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        returns[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    match = environment.episode
    assert isinstance(match, Match) and match.is_over and len(match.hands) > 1
    assert list(returns.values()) == pytest.approx(seat_returns(match.totals))
    # The totals of a match stay within the observation space's bounds.
    assert environment.observation_spaces["player_0"].contains(environment.observe("player_0"))
