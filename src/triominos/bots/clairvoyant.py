"""The clairvoyant reference: the sim bot shown every rack, for measurement only.

Set against ``sim`` at the same budget it tells how far ``sim`` is from the limit that
hidden information sets: what is left of the gap is what better inference of the
other racks could win. It sees the racks, not the pool's order: that is chance, which no
player can know, so its worlds still shuffle the pool.

It is not a :class:`~triominos.bots.base.Bot`: it has no ``act(observation)``, since no
observation holds another seat's rack. Only a caller that holds the whole hand (the
arena) can hand it the racks, through :meth:`ClairvoyantBot.act_seeing`, and
:func:`~triominos.bots.base.make_bot` does not know its name, so neither the server nor
anything built on observations can seat it.
"""

from __future__ import annotations

from collections.abc import Sequence

from triominos.bots.base import Budget
from triominos.bots.sim import DEFAULT_BUDGET, SimBot
from triominos.game import Action, Observation

NAME = "clairvoyant"


class ClairvoyantBot:
    """The sim bot whose sampled worlds are the true racks (see the module docstring)."""

    name = NAME

    def __init__(self, seed: int | None = None, budget: Budget = DEFAULT_BUDGET) -> None:
        self._sim = SimBot(seed, budget, name=NAME)

    def act_seeing(self, observation: Observation, racks: Sequence[int]) -> Action:
        """The move for the seat of ``observation``, which ``racks`` (every seat's rack,
        as bitmasks) complete: the observation then says what open racks would."""
        if observation.seat is None or observation.rack != racks[observation.seat]:
            raise ValueError("the racks shown to the clairvoyant bot are not this seat's hand")
        return self._sim.act(observation._replace(open_racks=tuple(racks)))
