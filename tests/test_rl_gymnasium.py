"""The Gymnasium environment (triominos.rl.gymnasium)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from triominos.bots import GreedyBot  # noqa: E402
from triominos.encoding import PASS  # noqa: E402
from triominos.rl.gymnasium import TriominosEnv  # noqa: E402
from triominos.rl.pettingzoo import margins  # noqa: E402
from triominos.rules import RuleOptionError  # noqa: E402


@pytest.mark.parametrize(
    ("preset", "opponents"),
    [("classic", ["greedy"]), ("extended", ["random", "sim"]), ("junior", ["greedy"] * 3)],
)
def test_the_environment_passes_gymnasium_check_env(preset: str, opponents: list[str]) -> None:
    check_env(TriominosEnv(preset=preset, opponents=opponents), skip_render_check=False)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_hand_against_bots(seat: int) -> None:
    """The agent moves only on its own turns; the rewards add up to its margin."""
    environment = TriominosEnv("classic", ["greedy", GreedyBot()], seat=seat, render_mode="ansi")
    observation, info = environment.reset(seed=seat)
    rng = np.random.default_rng(seat)
    total, done = 0.0, False
    while not done:
        hand = environment.hand
        assert hand is not None and hand.to_move == seat
        assert observation in environment.observation_space
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) == len(hand.legal_actions())
        observation, reward, done, truncated, info = environment.step(int(rng.choice(legal)))
        assert not truncated
        total += reward
    assert hand is not None
    assert total == pytest.approx(margins(hand)[seat])
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


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(RuleOptionError, match="bot"):
        TriominosEnv(opponents=["deep-blue"])
    with pytest.raises(RuleOptionError, match="players"):
        TriominosEnv("junior", ["greedy"] * 4)
    with pytest.raises(ValueError, match="seat must be from 0 to 1"):
        TriominosEnv(seat=2)
    with pytest.raises(ValueError, match="render_mode"):
        TriominosEnv(render_mode="human")
