"""PettingZoo: ``env(preset=..., players=...)``, an AEC environment of one hand (or, with
``match=True``, of a whole match).

Agents ``player_0`` … ``player_{n-1}`` are the seats. Each observation is a dict:
``observation``, the seat's tensor (:class:`~triominos.encoding.ObservationEncoder`), and
``action_mask``, 1 for each legal id of :class:`~triominos.encoding.ActionSpace` (all zeros
when it is not the seat's turn). An action is an id; one the rules do not allow now
raises :class:`~triominos.game.IllegalActionError`.

Rewards are the change, after every action, in each seat's margin: its points in the hand
less the mean of the other seats' points (or in its pairwise result, ``returns="pairwise"``:
:data:`~triominos.rl.RETURNS`). They add up over the hand to the OpenSpiel game's
returns. ``rules={"max_draws": "none", ...}`` sets rule options on the preset's
(:func:`~triominos.rl.adapter_rules`); ``actions="factored"`` numbers actions by frontier
slot, tile and rotation and puts the legal ids and a row of features for each in the
infos of the seat to move (:func:`~triominos.rl.action_features`). The hand's end
terminates every agent; nothing truncates it (a hand is finite). ``match=True`` plays the
engine's :class:`~triominos.game.Match` instead, hand after hand to the target: the
rewards are then the change in the margin (or pairwise result) of the totals, and the
match's end terminates. ``render_mode="ansi"`` renders the position string.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from triominos.encoding import GlobalStateEncoder, ObservationEncoder, hands_bound
from triominos.game import observe
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

Observation = dict[str, npt.NDArray[Any]]


class TriominosAEC(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The environment itself; :func:`env` wraps it as PettingZoo's environments are."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "triominos_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "classic",
        players: int = 2,
        render_mode: str | None = None,
        *,
        rules: Mapping[str, object] | None = None,
        returns: str = "margin",
        actions: str = "flat",
        match: bool = False,
    ) -> None:
        super().__init__()
        self.returns = check_returns(returns)
        chosen = adapter_rules(preset, rules)
        chosen.check_players(players)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = chosen
        self.match = match
        self.render_mode = render_mode
        self.space = space_of(chosen, actions)
        self.encoder = ObservationEncoder(chosen, players)
        self.global_encoder = GlobalStateEncoder(chosen, players)
        self.state_space = spaces.Box(-np.inf, np.inf, (self.global_encoder.size,), np.float32)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.encoder.bounds(hands_bound(chosen) if match else 1)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(np.array(low), np.array(high), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {
            agent: spaces.Discrete(self.space.size) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        players = len(self.possible_agents)
        self.episode = new_episode(self.rules, players, self._rng, self.match)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.episode.to_move]
        self._inform()

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def state(self) -> npt.NDArray[np.float32]:
        """PettingZoo's global state, for a centralized critic (never a seat's policy): the
        whole hand in play, hidden tiles included
        (:class:`~triominos.encoding.GlobalStateEncoder`)."""
        hand = hand_in_play(self._episode())
        return np.frombuffer(self.global_encoder.encode(hand), dtype=np.float32)

    def observe(self, agent: str) -> Observation:
        seen = observe(hand_in_play(self._episode()), self._seats[agent])
        return {"observation": tensor(self.encoder, seen), "action_mask": mask(self.space, seen)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._episode()
        if action is None:
            raise ValueError(f"{agent} is to move: the action is an id, not None")
        before = episode_returns(episode, self.returns)
        board = hand_in_play(episode).board
        episode.apply(self.space.decode(int(action), board), self._seats[agent])
        self._cumulative_rewards[agent] = 0.0
        after = episode_returns(episode, self.returns)
        for seat, (old, new) in enumerate(zip(before, after, strict=True)):
            self.rewards[self.possible_agents[seat]] = new - old
        if episode.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[episode.to_move]
        self._inform()
        self._accumulate_rewards()

    def _inform(self) -> None:
        """The seat to move's info: with factored actions, its legal ids and their rows
        of features (:func:`~triominos.rl.action_features`)."""
        hand = hand_in_play(self._episode())
        if not hand.is_over:
            seen = observe(hand, hand.to_move)
            self.infos[self.agent_selection] = action_features(self.space, seen)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._episode().to_text()
        return None

    def close(self) -> None:
        pass


def env(
    preset: str = "classic",
    players: int = 2,
    render_mode: str | None = None,
    *,
    rules: Mapping[str, object] | None = None,
    returns: str = "margin",
    actions: str = "flat",
    match: bool = False,
) -> AECEnv:
    """The environment, wrapped as PettingZoo's own: actions out of range and calls out of
    order are refused with a clear message."""
    environment = TriominosAEC(
        preset, players, render_mode, rules=rules, returns=returns, actions=actions, match=match
    )
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)
