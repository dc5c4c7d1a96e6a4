"""Hints for a seat: the best few placements, each with its expected value, and the
draw on purpose first when that is the bot's choice though a tile fits (*fishing*).

The browser's hint button and the terminal ask this module; it answers with the same
simulation the ``sim`` bot decides by (:mod:`triominos.bots.sim`), so a hint is what
the strongest bot would weigh, from the seat's observation only.

>>> from triominos.game import Match
>>> from triominos.bots.base import Budget
>>> match = Match.from_preset("classic", players=2, seed=5)
>>> _ = match.apply(match.legal_actions()[0].action)  # the opening tile
>>> hints = hint(match.observe(match.to_move), count=2, budget=Budget(simulations=60))
>>> len(hints) <= 2
True
"""

from __future__ import annotations

from typing import NamedTuple

from triominos.board import Placement
from triominos.bots.base import Budget
from triominos.bots.expert import Evaluator, evaluated
from triominos.bots.sim import CANDIDATES, SimBot, static_call
from triominos.game import Action, Observation

DEFAULT_HINT_BUDGET = Budget(simulations=600)
"""Simulations a hint spends when not told: a fraction of a second."""


class Hint(NamedTuple):
    """A placement, or a draw on purpose, and its expected value.

    ``expected_value`` is in points: in play, the mean over the sampled worlds of the
    seat's points from this placement to its next turn, less what the opponents score
    in between, plus what the static evaluation says that next turn is worth (the number
    ``sim`` decides by). At the opening, where nothing is hidden that matters yet, it is
    the static evaluation, as it is for a draw on purpose (``sim`` draws on that
    evaluation's word: :func:`~triominos.bots.sim.static_call`). In Triominos Junior it
    is in counters: the mean over the sampled worlds of the seat's counters from this
    placement to the end of the hand, less the others' mean, with the match won or lost
    (:meth:`SimBot.simulate_junior`).
    """

    action: Action
    expected_value: float


def hint(
    observation: Observation,
    count: int = 3,
    budget: Budget = DEFAULT_HINT_BUDGET,
    *,
    seed: int = 0,
) -> list[Hint]:
    """The ``count`` best choices for the observation's seat, best first: the best
    placements, after a draw when the bot would draw on purpose.

    Empty when the seat has no placement to make (not its turn, or nothing fits: then
    it draws or passes). Deterministic for a seed and a budget in simulations.
    """
    if count < 1:
        raise ValueError(f"a hint names at least one placement, not {count}")
    options = observation.legal_actions()
    placements = [option for option in options if isinstance(option.action, Placement)]
    if not placements:
        return []
    bot = SimBot(seed, budget)
    if not evaluated(observation.rules):
        values = bot.simulate_junior(observation, options)
        found = [value for value in values if isinstance(value.option.action, Placement)]
        return [Hint(value.option.action, value.mean) for value in found[:count]]
    simulation = bot.simulation(observation, options)
    if simulation is not None:
        ranked = simulation.evaluator.ranked(options)
        fishing = static_call(ranked)
        hints = [] if fishing is None else [Hint(fishing[0].action, fishing[1])]
        simulated = bot.simulate(simulation, ranked, keep=max(count, CANDIDATES))
        hints += [Hint(value.option.action, value.mean) for value in simulated]
        return hints[:count]
    ranked = Evaluator(observation).ranked(placements)
    return [Hint(option.action, value) for option, value in ranked[:count]]
