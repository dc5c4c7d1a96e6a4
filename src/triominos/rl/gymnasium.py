"""Gymnasium: ``TriominosEnv(preset=..., opponents=[...])``, one seat against our bots.

An episode is one hand, or with ``match=True`` a whole match (the engine's
:class:`~triominos.game.Match`, hand after hand to the target). The agent plays ``seat``
(0 by default) and the opponents, bots by name (``"greedy"``, ``"sim"``, …:
:func:`~triominos.bots.make_bot`) or any :class:`~triominos.bots.Bot`, play the other
seats in order; the environment plays their turns between the agent's. The observation
is the agent's tensor (:class:`~triominos.encoding.ObservationEncoder`), an action is an
id of :class:`~triominos.encoding.ActionSpace`, and ``info["action_mask"]`` (also
:meth:`TriominosEnv.action_masks`, the name maskable learners call) marks the legal ids.

The reward of a step is the change in the agent's margin (its points in the hand less
the mean of the opponents'; or in its pairwise result, ``returns="pairwise"``), over its
action and the opponents' turns that follow (the first step's, from the deal); the
rewards of a hand add up to its final margin, those of a match to the margin (or
pairwise result) of its final totals. ``rules={...}`` sets rule options on the
preset's (:func:`~triominos.rl.adapter_rules`). ``actions="factored"`` numbers actions by
frontier slot, tile and rotation (:class:`~triominos.factored.FactoredSpace`) and adds
``info["action_ids"]`` and ``info["action_features"]``, a row of features a legal id.

An action id the rules do not allow now ends the episode with ``illegal_reward`` and the
reason in ``info["illegal"]``: Gymnasium has no masks, and a learner must be able to try
any id. The environment then refuses to step until ``reset()``.

Importing the module registers the environment as ``triominos/Triominos-v0``, so
``gymnasium.make("triominos/Triominos-v0", preset="classic", opponents=["greedy"])`` and
``gymnasium.make_vec(..., num_envs=8)`` (batched stepping) make it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from triominos.bots import Bot, make_bot
from triominos.encoding import ObservationEncoder, hands_bound
from triominos.game import IllegalActionError, Observation, observe
from triominos.rl import (
    Episode,
    action_features,
    adapter_rules,
    check_returns,
    episode_returns,
    hand_in_play,
    mask,
    new_episode,
    space_of,
    tensor,
)

Tensor = npt.NDArray[np.float32]


class TriominosEnv(gymnasium.Env[Tensor, np.int64]):
    """One seat of a hand against bots (module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's declaration)

    def __init__(
        self,
        preset: str = "classic",
        opponents: Sequence[str | Bot] = ("greedy",),
        *,
        seat: int = 0,
        illegal_reward: float = -100.0,
        render_mode: str | None = None,
        rules: Mapping[str, object] | None = None,
        returns: str = "margin",
        actions: str = "flat",
        match: bool = False,
    ) -> None:
        self.returns = check_returns(returns)
        chosen = adapter_rules(preset, rules)
        players = len(opponents) + 1
        chosen.check_players(players)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        for opponent in opponents:
            if isinstance(opponent, str):
                make_bot(opponent)  # an unknown name fails here, naming the known ones
        self.rules = chosen
        self.players = players
        self.seat = seat
        self.opponents = list(opponents)
        self.illegal_reward = illegal_reward
        self.match = match
        self.render_mode = render_mode
        self.space = space_of(chosen, actions)
        self.encoder = ObservationEncoder(chosen, players)
        low, high = self.encoder.bounds(hands_bound(chosen) if match else 1)
        self.observation_space = spaces.Box(np.array(low), np.array(high), dtype=np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self.episode: Episode | None = None
        self._bots: dict[int, Bot] = {}
        self._rewarded = 0.0
        self._ended_by: str | None = None  # the illegal action that ended the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Tensor, dict[str, Any]]:
        super().reset(seed=seed)
        # Every random choice of the episode, the bots' included, follows from the seed.
        rng = random.Random(int(self.np_random.integers(2**63)))
        others = [seat for seat in range(self.players) if seat != self.seat]
        self._bots = {
            seat: make_bot(bot, seed=rng.randrange(2**63)) if isinstance(bot, str) else bot
            for seat, bot in zip(others, self.opponents, strict=True)
        }
        self.episode = new_episode(self.rules, self.players, rng, self.match)
        self._rewarded = 0.0  # what the rewards so far add up to
        self._ended_by = None
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action: int | np.int64) -> tuple[Tensor, float, bool, bool, dict[str, Any]]:
        episode = self._episode()
        if episode.is_over:
            raise RuntimeError("the episode is over: call reset() to deal the next")
        if self._ended_by is not None:
            raise RuntimeError(
                f"the episode ended with an illegal action ({self._ended_by}): call reset()"
            )
        try:
            board = hand_in_play(episode).board
            episode.apply(self.space.decode(int(action), board), self.seat)
        except (IllegalActionError, ValueError) as error:
            self._ended_by = str(error)
            info = self._info()
            info["illegal"] = str(error)
            return self._observation(), self.illegal_reward, True, False, info
        self._play_opponents()
        paid = episode_returns(episode, self.returns)[self.seat]
        reward, self._rewarded = paid - self._rewarded, paid
        return self._observation(), reward, episode.is_over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        return mask(self.space, self._seen())

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._episode().to_text()
        return None

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def _seen(self) -> Observation:
        return observe(hand_in_play(self._episode()), self.seat)

    def _play_opponents(self) -> None:
        episode = self._episode()
        while not episode.is_over and episode.to_move != self.seat:
            seat = episode.to_move
            episode.apply(self._bots[seat].act(observe(hand_in_play(episode), seat)), seat)

    def _observation(self) -> Tensor:
        return tensor(self.encoder, self._seen())

    def _info(self) -> dict[str, Any]:
        seen = self._seen()
        return {"action_mask": mask(self.space, seen), **action_features(self.space, seen)}


ID = "triominos/Triominos-v0"
"""The name ``gymnasium.make`` knows the environment by."""

if ID not in gymnasium.registry:
    gymnasium.register(ID, entry_point="triominos.rl.gymnasium:TriominosEnv")
