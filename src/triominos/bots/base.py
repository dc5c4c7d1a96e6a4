"""The bot interface and the two simple bots every stronger one is measured against."""

from __future__ import annotations

import random
from typing import Protocol

from triominos.board import Placement
from triominos.game import Action, Draw, Observation, Pass
from triominos.lattice import Cell
from triominos.rules import RuleOptionError


class Bot(Protocol):
    """Anything that picks an action for the seat of an observation."""

    name: str

    def act(self, observation: Observation) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions: the floor of every comparison."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        return self._rng.choice(observation.legal_actions()).action


class GreedyBot:
    """Scores the most points now, bonuses included; draws only when it cannot place.

    In play it asks the board for its best placement directly, the fastest path the
    engine has; ties go to the lower cell id, so it is deterministic.
    """

    name = "greedy"

    def act(self, observation: Observation) -> Action:
        rack = observation.rack
        if observation.phase == "play" and rack is not None:
            board = observation.board
            best = board.best_placement(rack, observation.rules.figure_points)
            if best is not None:
                cell, tile, corners, _ = best
                return Placement(board.tile_set.tiles[tile], Cell.from_id(cell), corners)
            return _DRAW if observation.pool_size and _may_draw(observation) else _PASS
        options = observation.legal_actions()
        return max(options, key=lambda option: option.points).action


_DRAW, _PASS = Draw(), Pass()


def _may_draw(observation: Observation) -> bool:
    limit = observation.rules.max_draws
    return limit is None or observation.draws < limit


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its name, as the command line and the server spell it."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    raise RuleOptionError("bot", f"must be one of 'random', 'greedy', not {name!r}")
