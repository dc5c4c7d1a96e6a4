"""The bot interface and the two simple bots every stronger one is measured against."""

from __future__ import annotations

import random
from typing import Protocol

from triominos.board import Placement
from triominos.game import Action, Draw, Observation, Pass, may_draw
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
            board, rules = observation.board, observation.rules
            best = board.best_placement(rack, rules.figure_points, rules.tile_values)
            if best is not None:
                cell, tile, corners, _ = best
                return Placement(board.tile_set.tiles[tile], Cell.from_id(cell), corners)
            if board.joker_cell is None:  # nothing to weigh: draw if allowed, else pass
                seat = observation.seat
                balance = None if seat is None else observation.totals[seat]
                allowed = may_draw(rules, observation.draws, observation.pool_size, balance)
                return _DRAW if allowed else _PASS
        # The opening, or a joker to take back: the least costly action, e.g. taking the
        # joker back (0) before buying a card (-1).
        options = observation.legal_actions()
        return max(options, key=lambda option: option.points).action


_DRAW, _PASS = Draw(), Pass()


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its name, as the command line and the server spell it."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    raise RuleOptionError("bot", f"must be one of 'random', 'greedy', not {name!r}")
