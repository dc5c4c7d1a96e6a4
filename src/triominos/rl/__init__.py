"""Adapters to the frameworks where game-AI work is done (the ``rl`` extra).

- :mod:`triominos.rl.openspiel`: importing it registers the OpenSpiel game ``triominos``;
- :mod:`triominos.rl.pettingzoo`: ``env(preset=..., players=...)``, an AEC environment;
- :mod:`triominos.rl.gymnasium`: ``TriominosEnv``, one seat against the project's bots.

Each plays one hand, or with ``match=True`` a whole match to the rules' target (or hand
limit), as the engine's :class:`~triominos.game.Match` deals it: the returns are then
counted on the match's totals (:func:`standing`).

All three number actions with :class:`~triominos.encoding.ActionSpace` and observe with
:class:`~triominos.encoding.ObservationEncoder`; :func:`tensor` and :func:`mask` view
those standard-library buffers as NumPy arrays without copying them. All three take the
same game parameters: a preset, every rule option on top of it (:func:`adapter_rules`)
and the kind of returns (:data:`RETURNS`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from triominos.encoding import ActionSpace, ObservationEncoder
from triominos.factored import FactoredSpace
from triominos.game import Deal, Hand, Match, Observation
from triominos.rules import OPTIONS, RuleOptionError, Rules, preset

Actions = Literal["flat", "factored"]
"""How actions are numbered: ``flat``, by window cell (:class:`ActionSpace`, 774,147 ids
in the classic game), or ``factored``, by frontier slot, tile and rotation
(:class:`~triominos.factored.FactoredSpace`, 9,747), with a feature row per legal action."""
ACTIONS: tuple[Actions, ...] = get_args(Actions)
Space = ActionSpace | FactoredSpace


def space_of(rules: Rules, actions: str) -> Space:
    """The action space ``actions`` names (:data:`Actions`), for ``rules``."""
    if actions not in ACTIONS:
        raise ValueError(f"actions must be one of {', '.join(ACTIONS)}, not {actions!r}")
    return FactoredSpace(rules) if actions == "factored" else ActionSpace(rules)


Returns = Literal["margin", "pairwise"]
"""What a hand pays each seat: ``margin``, its points less the mean of the others'
(points; with two players, the margin); ``pairwise``, the mean over the other seats of
+1 for each it outscored, -1 for each that outscored it and 0 for a tie (from -1 to 1;
with two players, win, draw or loss: the normalized returns). Both sum to zero over the
seats. In the match form they are counted on the totals: ``pairwise`` is then who won
the match."""
RETURNS: tuple[Returns, ...] = get_args(Returns)


def adapter_rules(preset_name: str, options: Mapping[str, object] | None = None) -> Rules:
    """The preset's rules with ``options`` on top: each a rule option's name and its value,
    either of the option's type or the text ``--rule NAME=VALUE`` takes (``"none"``,
    ``"2:9,3:7"``). RuleOptionError names a wrong one."""
    rules = preset(preset_name).rules
    changes = {}
    for name, value in (options or {}).items():
        if name not in OPTIONS:
            raise RuleOptionError(name, f"is not a rule option; options are {', '.join(OPTIONS)}")
        changes[name] = OPTIONS[name].parse(value) if isinstance(value, str) else value
    return rules.replace(**changes) if changes else rules


def check_returns(returns: str) -> Returns:
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    return returns


Episode = Hand | Match
"""What an environment plays from one ``reset()``: a hand, or with ``match=True`` a whole
match, the engine's :class:`~triominos.game.Match`, its deals following from the seed."""


def new_episode(rules: Rules, players: int, rng: random.Random, match: bool) -> Episode:
    """A hand dealt with ``rng``, or a match whose seed ``rng`` draws."""
    if match:
        return Match(rules, players, seed=rng.randrange(2**63))
    deal = Deal.shuffle(rules, players, rng)
    return Hand(rules, deal, rng=random.Random(rng.randrange(2**63)))


def hand_in_play(episode: Episode) -> Hand:
    """The hand being played (a match's last one once it is over)."""
    return episode.hand if isinstance(episode, Match) else episode


def standing(episode: Episode) -> list[int]:
    """What the returns are counted on so far: a hand's points, or a match's totals with
    the points of the hand in play (a finished hand is in the totals already)."""
    if isinstance(episode, Hand):
        return list(episode.points)
    hand = episode.hand
    if hand.is_over:
        return list(episode.totals)
    return [total + points for total, points in zip(episode.totals, hand.points, strict=True)]


def seat_returns(points: Sequence[int], returns: Returns = "margin") -> list[float]:
    """What ``points`` (a hand's, or a match's totals) pay each seat, of the kind
    ``returns`` names (:data:`Returns`)."""
    others = len(points) - 1
    if returns == "pairwise":
        return [
            sum((mine > theirs) - (mine < theirs) for theirs in points) / others for mine in points
        ]
    total = sum(points)
    return [mine - (total - mine) / others for mine in points]


def episode_returns(episode: Episode, returns: Returns = "margin") -> list[float]:
    """What the hand or match pays each seat so far (:func:`seat_returns` of its
    :func:`standing`)."""
    return seat_returns(standing(episode), returns)


def tensor(encoder: ObservationEncoder, observation: Observation) -> npt.NDArray[np.float32]:
    """The observation tensor as a float32 array of ``encoder.size`` numbers."""
    return np.frombuffer(encoder.encode(observation), dtype=np.float32)


def mask(space: Space, observation: Observation) -> npt.NDArray[np.int8]:
    """The legal-action mask as an int8 array of ``space.size`` zeros and ones."""
    return np.frombuffer(space.mask(observation), dtype=np.int8)


def action_features(space: Space, observation: Observation) -> dict[str, npt.NDArray[Any]]:
    """With factored actions, what ``info`` carries each step: ``action_ids``, the legal
    ids, and ``action_features``, a row of features for each (none with flat actions)."""
    if not isinstance(space, FactoredSpace):
        return {}
    ids, rows = space.features(observation)
    features = np.frombuffer(rows, dtype=np.float32).reshape(len(ids), space.feature_size)
    return {"action_ids": np.array(ids, dtype=np.int64), "action_features": features}


__all__ = [
    "ACTIONS",
    "RETURNS",
    "Actions",
    "Episode",
    "Returns",
    "Space",
    "action_features",
    "adapter_rules",
    "episode_returns",
    "hand_in_play",
    "mask",
    "new_episode",
    "seat_returns",
    "space_of",
    "standing",
    "tensor",
]
