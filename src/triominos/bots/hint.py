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
from triominos.bots.evaluate import evaluate
from triominos.bots.expert import Evaluator, understood
from triominos.bots.sim import CANDIDATES, drawn_on_purpose, shortlist
from triominos.game import Action, Observation

DEFAULT_HINT_BUDGET = Budget(simulations=600)
"""Simulations a hint spends when not told: a fraction of a second."""


class Hint(NamedTuple):
    """A placement, or a draw on purpose, and its expected value: the choice's
    :attr:`MoveValue.expected <triominos.bots.evaluate.MoveValue.expected>` (in points,
    the number ``sim`` decides by; in Triominos Junior, counters). A draw on purpose is
    valued by the static evaluation: ``sim`` draws without simulating
    (:func:`~triominos.bots.sim.drawn_on_purpose`)."""

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
    it draws or passes). In play, the placements valued are the ``sim`` bot's
    shortlist (at least ``count``), so that the budget goes to the likely best.
    Deterministic for a seed and a budget in simulations.
    """
    if count < 1:
        raise ValueError(f"a hint names at least one placement, not {count}")
    options = observation.legal_actions()
    placements = [option for option in options if isinstance(option.action, Placement)]
    if not placements:
        return []
    hints: list[Hint] = []
    if observation.phase == "play" and understood(observation, options):
        ranked = Evaluator(observation).ranked(options)
        fishing = drawn_on_purpose(observation, ranked)
        if fishing is not None:
            hints.append(Hint(fishing[0].action, fishing[1]))
        placements = [
            option for option, _ in shortlist(observation, ranked, max(count, CANDIDATES))
        ]
    chosen = [option.action for option in placements]
    values = evaluate(observation, budget, seed=seed, actions=chosen)
    hints += [Hint(value.action, value.expected) for value in values]
    return hints[:count]
