"""The bot interface, the two simple bots every stronger one is measured against, and
the names and budgets by which the command line and the server ask for a bot."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Protocol

from triominos.board import Placement
from triominos.bots.levels import OFFERED
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
                # The tuple made directly, without NamedTuple's Python-level __new__.
                placement = (board.tile_set.tiles[tile], Cell.from_id(cell), corners)
                return tuple.__new__(Placement, placement)
            # Nothing to weigh without a joker on the table (and none in the set, asked
            # first as it is the cheaper question): draw if allowed, else pass.
            if board.tile_set.joker is None or board.joker_cell is None:
                seat = observation.seat
                balance = None if seat is None else observation.totals[seat]
                allowed = may_draw(rules, observation.draws, observation.pool_size, balance)
                return _DRAW if allowed else _PASS
        # The opening, or a joker to take back: the least costly action, e.g. taking the
        # joker back (0) before buying a card (-1).
        options = observation.legal_actions()
        return max(options, key=lambda option: option.points).action


_DRAW, _PASS = Draw(), Pass()


_BUDGET = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*(sims?|ms|s)")


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a searching bot may think about a move.

    ``simulations`` (a count: the same seed and count always give the same move) or
    ``seconds`` of wall-clock time per move; exactly one of them. Written ``500sims``,
    ``1s`` or ``250ms`` (:meth:`parse`, the ``--think`` option).
    """

    simulations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.simulations is None) == (self.seconds is None):
            raise ValueError("a budget is a number of simulations or a time, exactly one")
        if self.simulations is not None and self.simulations < 1:
            raise ValueError(f"a budget needs at least 1 simulation, not {self.simulations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a time budget must be above 0 seconds, not {self.seconds}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"500sims"`` (or ``"500sim"``), ``"1s"``, ``"0.05s"``, ``"250ms"``."""
        match = _BUDGET.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(f"a budget is written like 500sims, 1s or 250ms, not {text!r}")
        number, unit = match.groups()
        if unit.startswith("sim"):
            if "." in number:
                raise ValueError(f"a number of simulations is a whole number, not {number}")
            return cls(simulations=int(number))
        return cls(seconds=float(number) / (1000 if unit == "ms" else 1))

    def __str__(self) -> str:
        if self.simulations is not None:
            return f"{self.simulations}sims"
        return f"{self.seconds:g}s"


def make_bot(name: str, seed: int | None = None, budget: Budget | None = None) -> Bot:
    """A bot by its name, as the command line and the server spell it.

    ``budget`` is for the bots that search (``sim``); the others ignore it.
    """
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    if name == "expert":
        from triominos.bots.expert import ExpertBot  # expert builds on this module

        return ExpertBot()
    if name == "sim":
        from triominos.bots.sim import SimBot  # sim builds on this module

        return SimBot(seed) if budget is None else SimBot(seed, budget)
    if name in REFERENCES:
        from triominos.bots.sim import FROZEN

        return FROZEN[name](seed, budget)
    names = ", ".join(repr(known) for known in BOT_NAMES)
    raise RuleOptionError("bot", f"must be one of {names}, not {name!r}")


LEVELS = tuple(level.bot for level in OFFERED)
"""The bots offered to players, weakest first: a table may seat any of them, and the web
app offers each as a level (:mod:`triominos.bots.levels`; README, "Bot levels")."""

REFERENCES = ("sim-v1", "sim-v2")
"""The frozen references that later versions of ``sim`` are measured against, not offered
to players (:data:`triominos.bots.sim.FROZEN` builds them): ``sim-v1``, ``sim`` as it
was when issue 18 opened; ``sim-v2``, as it was when the native core came (issue 34)."""

BOT_NAMES = (*LEVELS, *REFERENCES)
"""Every bot :func:`make_bot` knows: the levels, then the frozen :data:`REFERENCES`."""
