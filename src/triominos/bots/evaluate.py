"""What each choice of a seat is worth: every placement, the draw and the pass, valued
the way the ``sim`` bot values its candidates (:mod:`triominos.bots.sim`).

Analysis after a match (how much a move lost against the best) and puzzles (a move
clearly better than the obvious one) both need the value of *every* choice, not only of
the few the bot shortlists, and of the draw and the pass too, all on one scale. So
every choice is played out in the *same* sampled worlds (:class:`Simulation`): the
comparison is paired, and a choice is never preferred because it met luckier tiles. A
draw is played out as any action is: the tile drawn is the world's next pool tile, and
the seat plays greedy's move for the rest of its turn.

The worlds come from the seat's observation only (:mod:`triominos.bots.sampler`), never
from the hidden racks, so a value is what the seat could have known. The opening (where
nothing hidden matters yet) is valued by the static evaluation, and Triominos Junior is
played out to the end of the hand, as :mod:`triominos.bots.hint` does.

>>> from triominos.game import Match
>>> from triominos.bots.base import Budget
>>> match = Match.from_preset("classic", players=2, seed=5)
>>> _ = match.apply(match.legal_actions()[0].action)  # the opening tile
>>> values = evaluate(match.observe(match.to_move), Budget(simulations=200))
>>> values == sorted(values, key=lambda value: -value.expected)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from triominos.bots.base import Budget
from triominos.bots.expert import Evaluator, choices, evaluated
from triominos.bots.sim import SimBot
from triominos.game import Action, LegalAction, Observation


class MoveValue(NamedTuple):
    """A choice of the seat and what it is worth."""

    action: Action
    expected: float
    """In points: in play, the mean over the sampled worlds of the seat's points from this
    choice to its next turn, less what the opponents score in between, plus what the
    static evaluation says that next turn is worth (the number ``sim`` decides by; with
    :data:`~triominos.bots.outcome.WIN_VALUE` when the hand ends the match). At the
    opening, where nothing hidden matters yet, the static evaluation. In Triominos
    Junior, counters: the seat's counters from this choice to the end of the hand, less
    the others' mean, with the match won or lost."""
    simulations: int
    """The worlds it was played out in; 0 for the static evaluation."""


def evaluate(
    observation: Observation,
    budget: Budget,
    *,
    seed: int = 0,
    actions: Sequence[Action] | None = None,
) -> list[MoveValue]:
    """Every legal choice of the observation's seat (or only ``actions``), best first.

    ``budget`` is shared by all the choices: ``Budget(simulations=600)`` with 20 choices
    plays each in the same 30 worlds. Deterministic for a seed and a budget in
    simulations, and the worlds are those the ``sim`` bot of that seed would sample in
    this position. Ties keep the static evaluation's order.
    """
    if observation.seat is None or observation.rack is None:
        raise ValueError("moves are valued for a seat; a spectator's observation has no rack")
    options = _chosen(choices(observation), actions)
    bot = SimBot(seed, budget)
    if observation.phase == "play" and not evaluated(observation.rules):
        found = bot.simulate_junior(observation, options)
    else:
        simulation = bot.simulation(observation, options)
        if simulation is None:
            ranked = Evaluator(observation).ranked(options)
            return [MoveValue(option.action, value, 0) for option, value in ranked]
        found = simulation.run(simulation.evaluator.ranked(options), budget)
    return [MoveValue(value.option.action, value.mean, value.simulations) for value in found]


def _chosen(options: list[LegalAction], actions: Sequence[Action] | None) -> list[LegalAction]:
    """The legal options that are among ``actions`` (all of them for None)."""
    if actions is None:
        return options
    legal = {option.action for option in options}
    illegal = [action for action in actions if action not in legal]
    if illegal:
        raise ValueError(f"not a legal choice of the seat in this position: {illegal[0]}")
    if not actions:
        raise ValueError("no action to value: give at least one, or None for all")
    wanted = set(actions)
    return [option for option in options if option.action in wanted]
