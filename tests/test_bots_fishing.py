"""Why expert (and sim, which leaves the call to draw to it) draws while a tile fits.

With the two-player weights a draw on purpose costs nothing in the evaluation: its
5-point penalty is offset by the ``draw`` weight (+3) and the ``tiles`` weight (+2) of the
tile it adds, and the draw keeps today's best placement open (`classic-house` lets a player
draw, then place in the same turn). So a draw is worth at least that placement, less
only the ``stuck`` weight for the drawn tiles that would fit nowhere, plus the chance
that the fresh tile does better; expert fishes up to the three draws a turn allows unless
a placement is clearly good. ``benchmarks/fishing.py`` measures what it makes of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from triominos.board import Placement
from triominos.bots import GreedyBot
from triominos.bots.expert import TUNED, Evaluator, ExpertBot
from triominos.game import Draw, Match, Observation
from triominos.rules import PRESETS
from triominos.tiles import indices

CLASSIC = PRESETS["classic-house"].rules


def fitting_positions(seed: int) -> Iterator[Observation]:
    """Positions of a greedy hand where the seat to move may place and may draw."""
    match = Match(CLASSIC, 2, seed)
    bot = GreedyBot()
    while not match.is_over and len(match.hands) == 1:
        observation = match.observe(match.to_move)
        options = observation.legal_actions()
        if any(isinstance(o.action, Placement) for o in options) and any(
            isinstance(o.action, Draw) for o in options
        ):
            yield observation
        match.apply(bot.act(observation))


def test_a_draw_is_worth_the_best_placement_less_the_stuck_tiles_at_least() -> None:
    checked = 0
    for observation in fitting_positions(3):
        evaluator = Evaluator(observation, TUNED)
        ranked = evaluator.ranked(observation.legal_actions())
        best = max(value for option, value in ranked if isinstance(option.action, Placement))
        draw = next(value for option, value in ranked if isinstance(option.action, Draw))
        unseen = list(indices(evaluator.unseen))
        fits = observation.board.fitting_tiles(evaluator.unseen)
        values = observation.board.tile_set.values
        floor = (
            -CLASSIC.draw_penalty
            + TUNED.draw
            + TUNED.tiles
            + sum(
                TUNED.rack_value * values[tile] + (0 if fits >> tile & 1 else TUNED.stuck)
                for tile in unseen
            )
            / len(unseen)
        )
        assert draw >= best + floor - 1e-9
        checked += 1
    assert checked > 10
    assert -CLASSIC.draw_penalty + TUNED.draw + TUNED.tiles == 0  # the draw's cost, nil


def test_expert_draws_where_a_tile_fits_and_a_costlier_draw_places() -> None:
    """The first position of seed 3 where expert fishes: it draws though a tile fits; the
    same weights with the draw made to cost 2 points (draw weight +1 instead of +3) place."""
    for observation in fitting_positions(3):
        if isinstance(ExpertBot(TUNED).act(observation), Draw):
            break
    else:
        raise AssertionError("expert never drew on purpose in this hand")
    costly = dataclasses.replace(TUNED, draw=1.0)
    assert isinstance(ExpertBot(costly).act(observation), Placement)
