"""Adapters to the frameworks where game-AI work is done (the ``rl`` extra).

- :mod:`triominos.rl.openspiel`: importing it registers the OpenSpiel game ``triominos``;
- :mod:`triominos.rl.pettingzoo`: ``env(preset=..., players=...)``, an AEC environment;
- :mod:`triominos.rl.gymnasium`: ``TriominosEnv``, one seat against the project's bots.

All three number actions with :class:`~triominos.encoding.ActionSpace` and observe with
:class:`~triominos.encoding.ObservationEncoder`; :func:`tensor` and :func:`mask` view
those standard-library buffers as NumPy arrays without copying them. All three take the
same game parameters: a preset, every rule option on top of it (:func:`adapter_rules`)
and the kind of returns (:data:`RETURNS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from triominos.encoding import ActionSpace, ObservationEncoder
from triominos.game import Hand, Observation
from triominos.rules import OPTIONS, RuleOptionError, Rules, preset

Returns = Literal["margin", "pairwise"]
"""What a hand pays each seat: ``margin``, its points less the mean of the others'
(points; with two players, the margin); ``pairwise``, the mean over the other seats of
+1 for each it outscored, -1 for each that outscored it and 0 for a tie (from -1 to 1;
with two players, win, draw or loss). Both sum to zero over the seats."""
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


def hand_returns(hand: Hand, returns: Returns = "margin") -> list[float]:
    """What the hand pays each seat so far, of the kind ``returns`` names (:data:`Returns`)."""
    points, others = hand.points, hand.players - 1
    if returns == "pairwise":
        return [
            sum((mine > theirs) - (mine < theirs) for theirs in points) / others for mine in points
        ]
    total = sum(points)
    return [mine - (total - mine) / others for mine in points]


def tensor(encoder: ObservationEncoder, observation: Observation) -> npt.NDArray[np.float32]:
    """The observation tensor as a float32 array of ``encoder.size`` numbers."""
    return np.frombuffer(encoder.encode(observation), dtype=np.float32)


def mask(space: ActionSpace, observation: Observation) -> npt.NDArray[np.int8]:
    """The legal-action mask as an int8 array of ``space.size`` zeros and ones."""
    return np.frombuffer(space.mask(observation), dtype=np.int8)


__all__ = ["RETURNS", "Returns", "adapter_rules", "hand_returns", "mask", "tensor"]
