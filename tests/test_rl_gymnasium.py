"""The Gymnasium environment (triominos.rl.gymnasium)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from triominos.bots import GreedyBot  # noqa: E402
from triominos.encoding import DRAW, PASS  # noqa: E402
from triominos.game import Match  # noqa: E402
from triominos.rl import episode_returns, seat_returns  # noqa: E402
from triominos.rl.gymnasium import TriominosEnv  # noqa: E402
from triominos.rules import PRESETS, RuleOptionError  # noqa: E402


@pytest.mark.parametrize(
    ("preset", "opponents"),
    [("classic", ["greedy"]), ("extended", ["random", "sim"]), ("junior", ["greedy"] * 3)],
)
def test_the_environment_passes_gymnasium_check_env(preset: str, opponents: list[str]) -> None:
    check_env(TriominosEnv(preset=preset, opponents=opponents), skip_render_check=False)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_match_form_passes_gymnasium_check_env(preset: str) -> None:
    environment = TriominosEnv(preset, ["greedy"], match=True, render_mode="ansi")
    check_env(environment, skip_render_check=False)


def test_a_whole_match_against_a_bot() -> None:
    """``match=True``: one episode is the engine's Match to its target; the rewards add
    up to the agent's pairwise result (who won) on the final totals."""
    environment = TriominosEnv("classic", ["greedy"], match=True, returns="pairwise")
    observation, info = environment.reset(seed=2)
    rng = np.random.default_rng(2)
    total, done = 0.0, False
    while not done:
        assert observation in environment.observation_space
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, done, _, info = environment.step(action)
        total += reward
    match = environment.episode
    assert isinstance(match, Match) and match.is_over and len(match.hands) > 1
    assert (
        total == seat_returns(match.totals, "pairwise")[0] == episode_returns(match, "pairwise")[0]
    )


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_hand_against_bots(seat: int) -> None:
    """The agent moves only on its own turns; the rewards add up to its margin."""
    environment = TriominosEnv("classic", ["greedy", GreedyBot()], seat=seat, render_mode="ansi")
    observation, info = environment.reset(seed=seat)
    rng = np.random.default_rng(seat)
    total, done = 0.0, False
    while not done:
        hand = environment.episode
        assert hand is not None and hand.to_move == seat
        assert observation in environment.observation_space
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) == len(hand.legal_actions())
        observation, reward, done, truncated, info = environment.step(int(rng.choice(legal)))
        assert not truncated
        total += reward
    assert hand is not None
    assert total == pytest.approx(episode_returns(hand)[seat])
    assert environment.render() == hand.to_text()
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)


def test_the_same_seed_plays_the_same_hand() -> None:
    environment = TriominosEnv("extended", ["random", "random"])
    first, _ = environment.reset(seed=9)
    again, _ = environment.reset(seed=9)
    other, _ = environment.reset(seed=10)
    assert (first == again).all() and not (first == other).all()


def test_an_illegal_action_ends_the_episode() -> None:
    environment = TriominosEnv("classic-house", ["greedy"], illegal_reward=-7.0)
    environment.reset(seed=1)
    _, reward, terminated, _, info = environment.step(PASS)  # with a draw left to take
    assert (reward, terminated) == (-7.0, True)
    assert "passing comes only after the last allowed draw" in info["illegal"]
    with pytest.raises(RuntimeError, match="illegal action"):  # terminated means over
        environment.step(DRAW)
    environment.reset(seed=1)
    assert environment.step(DRAW)[2] is False


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(RuleOptionError, match="bot"):
        TriominosEnv(opponents=["deep-blue"])
    with pytest.raises(RuleOptionError, match="players"):
        TriominosEnv("junior", ["greedy"] * 4)
    with pytest.raises(ValueError, match="seat must be from 0 to 1"):
        TriominosEnv(seat=2)
    with pytest.raises(ValueError, match="render_mode"):
        TriominosEnv(render_mode="human")


def test_rule_options_and_pairwise_returns() -> None:
    environment = TriominosEnv(
        "classic", ["greedy"], rules={"max_draws": "1", "target_score": 200}, returns="pairwise"
    )
    assert environment.rules.max_draws == 1 and environment.rules.target_score == 200
    _, info = environment.reset(seed=3)
    total, done = 0.0, False
    rng = np.random.default_rng(3)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, _, info = environment.step(action)
        total += reward
    assert total in (-1.0, 0.0, 1.0)
    with pytest.raises(RuleOptionError, match="max_draws"):
        TriominosEnv(rules={"max_draws": "lots"})
    with pytest.raises(RuleOptionError, match="not a rule option"):
        TriominosEnv(rules={"draws": 1})
    with pytest.raises(ValueError, match="returns"):
        TriominosEnv(returns="points")


def test_gymnasium_makes_it_by_name_and_steps_a_batch() -> None:
    import gymnasium

    from triominos.rl.gymnasium import ID

    single = gymnasium.make(ID, preset="junior", opponents=["greedy"])
    assert single.unwrapped.rules.tiles.name == "junior"  # type: ignore[attr-defined]
    batch = gymnasium.make_vec(ID, num_envs=3, vectorization_mode="sync", opponents=["random"])
    _, infos = batch.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(5):
        actions = np.array([int(rng.choice(np.flatnonzero(row))) for row in infos["action_mask"]])
        observations, rewards, _, _, infos = batch.step(actions)
        assert observations.shape[0] == 3 and rewards.shape == (3,)
    batch.close()


def test_factored_actions_come_with_a_row_of_features_for_each_legal_id() -> None:
    from triominos.factored import FactoredSpace

    environment = TriominosEnv("classic", ["greedy"], actions="factored")
    assert isinstance(environment.space, FactoredSpace)
    assert environment.action_space == gymnasium.spaces.Discrete(9_747)
    assert environment.space.size == 9_747
    _, info = environment.reset(seed=2)
    done, steps = False, 0
    while not done:
        ids, rows = info["action_ids"], info["action_features"]
        assert rows.shape == (len(ids), environment.space.feature_size)
        assert set(np.flatnonzero(info["action_mask"])) == set(ids.tolist())
        best = int(ids[int(np.argmax(rows[:, environment.space.feature_slices["points"]]))])
        _, _, done, _, info = environment.step(best)
        steps += 1
    assert steps > 1 and "illegal" not in info
