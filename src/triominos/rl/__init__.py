"""Adapters to the frameworks where game-AI work is done (the ``rl`` extra).

- :mod:`triominos.rl.openspiel`: importing it registers the OpenSpiel game ``triominos``;
- :mod:`triominos.rl.pettingzoo`: ``env(preset=..., players=...)``, an AEC environment;
- :mod:`triominos.rl.gymnasium`: ``TriominosEnv``, one seat against the project's bots.

All three number actions with :class:`~triominos.encoding.ActionSpace` and observe with
:class:`~triominos.encoding.ObservationEncoder`; the two functions here view those
standard-library buffers as NumPy arrays without copying them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from triominos.encoding import ActionSpace, ObservationEncoder
from triominos.game import Observation


def tensor(encoder: ObservationEncoder, observation: Observation) -> npt.NDArray[np.float32]:
    """The observation tensor as a float32 array of ``encoder.size`` numbers."""
    return np.frombuffer(encoder.encode(observation), dtype=np.float32)


def mask(space: ActionSpace, observation: Observation) -> npt.NDArray[np.int8]:
    """The legal-action mask as an int8 array of ``space.size`` zeros and ones."""
    return np.frombuffer(space.mask(observation), dtype=np.int8)


__all__ = ["mask", "tensor"]
