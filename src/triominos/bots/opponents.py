"""How likely the others' last placements were in a world, had they chosen as expert does.

The sampler (:mod:`triominos.bots.sampler`) reads what a placement proves or nearly
proves (a bonus passed up). A placement says more: the player preferred it to every
other placement of its rack. A world that gives the player a tile it would have liked
better made that choice unlikely, and a world in which the choice was the player's best
made it likely. This module weighs a world by that likelihood, with the others modelled
as ``expert`` (:mod:`triominos.bots.expert`, its weights for the table's size): the
strongest static player here, and the bot a human's choices resemble most (it takes the
points, keeps a playable rack and does not leave a bonus to the next player).

A player's rack when it made a placement is known in a world exactly while the player
has drawn nothing since: it is its rack now plus the tiles it laid since. So each other
seat's last placements are read back to its last draw or pass, at most ``depth`` of them
(the opening placement, which the rules choose, is not read). For each, the placements
of the world's rack then are valued as expert would have valued them (its evaluation on
the board as it was, the world's rack kept, the rest of the tiles unseen to it), and the
choice's likelihood is a softmax of these values at :data:`TEMPERATURE`: a player is
not a machine (and a bot may not be expert), so a choice a little below the model's best
is a little less likely, not ruled out. Draws are not modelled: the model says how
likely the placement was, given that the player placed.

One look at each board serves every world: the placements of every tile the player may
have held, each with the bonus cells and the fitting tiles it leaves, are listed when
the model is made, and a world's value is then a few bit operations per placement of
its rack (:meth:`~triominos.bots.expert.Evaluator.position_value` with ``cells`` and
``fitting``).

Measured (``sim(read_choices=3)`` against ``sim``, three experts, 600 simulations a move,
``benchmarks/paired.py``, 400 four-player matches, seeds from 2000), it does not pay,
so ``sim`` does not read choices unless told:

- the likelihood as it comes: -3.4 ± 2.8 points of matches won (35.9% against 39.3%).
  Against experts the model is exact, so it is sharp: read back three placements a
  seat, the 400 worlds sampled for 100 played are worth a median of 100 and a lower
  quartile of 8 (Kish's effective sample size), and the playouts meet the same few
  worlds again and again;
- tempered to keep as many worlds' worth as are played (:func:`tempered`), each world
  played again with its pool shuffled again: +0.0 ± 2.9 (39.3% against 39.3%); one
  placement a seat read instead of three (``read_choices=1``): +0.1 ± 3.0.

The true racks rank high among the worlds (above 80% of them on average at four
players, ``tests/test_bots_opponents.py``), yet sharper racks did not move the share
won, though the clairvoyant bot, which sees them, wins 48%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from triominos.board import Board
from triominos.bots.expert import BonusCell, Evaluator
from triominos.bots.sampler import World
from triominos.game import BOARD_ACTIONS, DRAWS, Observation
from triominos.tiles import Corners, indices

TEMPERATURE = 1.0
"""Points of expert's value by which a placement must trail the model's best to be e
times less likely to have been chosen."""

DEPTH = 3
"""How many of each other seat's last placements are read (back to its last draw)."""

TEMPERING_STEPS = 12
"""Halvings of the interval in which :func:`tempered` looks for its power."""


class _Option(NamedTuple):
    """A placement a player could have made, and what it leaves on the board."""

    cell: int
    tile: int
    corners: Corners
    points: int
    cells: tuple[BonusCell, ...]
    """The bonus cells after it, with the tiles (of those the player may hold or not
    see) that fit each."""
    fitting: int
    """The tiles of those that fit somewhere after it."""


class Choice(NamedTuple):
    """One placement of another seat, read back from the history."""

    number: int
    """The placement's event number in the history."""
    seat: int
    since: int
    """The tiles the seat laid with it and after it: in its rack at that moment."""
    chosen: _Option
    options: dict[int, list[_Option]]
    """By tile, every placement of a tile the seat may have held then."""
    evaluator: Evaluator
    """Expert's evaluation at that moment, on the board as it was."""
    off_board: int
    """The tiles off the board at that moment: its rack, and what it did not see."""

    def values(self, rack: int) -> list[tuple[_Option, float]]:
        """Every placement the seat could have made holding ``rack``, with expert's value
        of it."""
        evaluator, options = self.evaluator, self.options
        unseen = self.off_board & ~rack
        found = []
        for tile in indices(rack):
            kept = rack & ~(1 << tile)
            for option in options.get(tile, ()):
                value = evaluator.position_value(kept, unseen, option.cells, option.fitting)
                found.append((option, option.points + value))
        return found


class ChoiceModel:
    """The likelihood of the others' recent placements in a world (see the module
    docstring), for the seat of ``observation``; ``unseen``: the tiles the seat does not
    see (:attr:`~triominos.bots.sampler.WorldSampler.unseen`)."""

    def __init__(
        self,
        observation: Observation,
        unseen: int,
        *,
        depth: int = DEPTH,
        temperature: float = TEMPERATURE,
    ) -> None:
        self.temperature = temperature
        self.choices = [
            _read(observation, unseen, number, since)
            for number, since in _recent_placements(observation, depth)
        ]

    def log_likelihood(self, racks: Sequence[int]) -> float:
        """How likely the placements read were with the others holding ``racks`` now, as
        a logarithm (relative: only differences between worlds mean anything; a product
        of many small chances would underflow)."""
        return sum(
            self._log_chance(choice, racks[choice.seat] | choice.since) for choice in self.choices
        )

    def reweighed(
        self, worlds: Sequence[tuple[World, float]], effective: float = 0.0
    ) -> list[tuple[World, float]]:
        """``worlds`` with their weights times the likelihood of the placements read in
        each, scaled so that the likeliest world's factor is 1, and tempered (the
        likelihood raised to a power below 1) where that is needed for the weights to
        stay ``effective`` worlds' worth (:func:`tempered`)."""
        logs = [self.log_likelihood(world.racks) for world, _ in worlds]
        top = max(logs, default=0.0)
        bases = [weight for _, weight in worlds]
        factors = tempered(bases, [log - top for log in logs], effective)
        return [
            (world, weight * factor)
            for (world, weight), factor in zip(worlds, factors, strict=True)
        ]

    def _log_chance(self, choice: Choice, rack: int) -> float:
        """The log of the softmax chance of the choice among the placements of ``rack``."""
        values = choice.values(rack)
        chosen = next(value for option, value in values if option is choice.chosen)
        best = max(value for _, value in values)
        total = sum(math.exp((value - best) / self.temperature) for _, value in values)
        return (chosen - best) / self.temperature - math.log(total)


def tempered(weights: Sequence[float], logs: Sequence[float], effective: float) -> list[float]:
    """The factors ``exp(power * log)`` for the largest power up to 1 that leaves
    ``weights`` times the factors an effective sample size (Kish's, ``sum(w)**2 /
    sum(w**2)``) of at least ``effective``, or as near as a power above 0 can.

    A sharp likelihood puts nearly all the weight on a handful of the worlds sampled;
    playing those few again and again (with their pools) is a noisier estimate than
    the uniform one it replaces, so the likelihood is flattened just enough to spread
    the playouts over ``effective`` worlds.
    """

    def factors(power: float) -> list[float]:
        return [math.exp(power * log) for log in logs]

    def size(power: float) -> float:
        scaled = [weight * factor for weight, factor in zip(weights, factors(power), strict=True)]
        total, squares = sum(scaled), sum(value * value for value in scaled)
        return total * total / squares if squares else 0.0

    if size(1.0) >= effective:
        return factors(1.0)
    low, high = 0.0, 1.0  # size(low) >= effective > size(high)
    for _ in range(TEMPERING_STEPS):
        middle = (low + high) / 2
        if size(middle) >= effective:
            low = middle
        else:
            high = middle
    return factors(low)


def _recent_placements(observation: Observation, depth: int) -> list[tuple[int, int]]:
    """(event number, tiles laid then and since) of each other seat's last placements,
    newest first, back to its last draw or pass and at most ``depth`` a seat."""
    history = observation.history
    tile_set = observation.board.tile_set
    opening = next((n for n, event in enumerate(history) if event.action in BOARD_ACTIONS), -1)
    found: list[tuple[int, int]] = []
    for seat in range(observation.players):
        if seat == observation.seat:
            continue
        since = 0
        read = 0
        for number in range(len(history) - 1, opening, -1):
            event = history[number]
            if event.player != seat:
                continue
            if event.action != "place" or read == depth:
                break  # a draw, a pass or a joker taken back: the rack before is unknown
            assert event.tile is not None
            since |= 1 << tile_set.index(event.tile)
            found.append((number, since))
            read += 1
    return found


def _read(observation: Observation, unseen: int, number: int, since: int) -> Choice:
    """The choice of event ``number``: its options listed on the board as it was."""
    history = observation.history
    event = history[number]
    seat = event.player
    tile_set = observation.board.tile_set
    before = sum(1 for earlier in history[:number] if earlier.action in BOARD_ACTIONS)
    board = Board.from_log(tile_set, observation.board.log[:before])
    sizes = list(observation.rack_sizes)
    for later in history[number + 1 :]:  # the rack sizes then
        if later.action in DRAWS:
            sizes[later.player] -= 1
        elif later.action == "place":
            sizes[later.player] += 1
    sizes[seat] += 1
    off_board = observation.rules.box_mask & ~tile_set.mask(p.tile for p in board)
    # The evaluation reads only the size of the rack it is given (for the chance that
    # the others hold a tile): each world's rack is passed in when valued.
    stand_in = since
    for tile in indices(off_board & ~since):
        if stand_in.bit_count() >= sizes[seat]:
            break
        stand_in |= 1 << tile
    evaluator = Evaluator(
        observation._replace(seat=seat, rack=stand_in, rack_sizes=tuple(sizes)), board=board
    )
    assert event.tile is not None and event.cell is not None and event.corners is not None
    laid = (event.cell.id, tile_set.index(event.tile), event.corners)
    options: dict[int, list[_Option]] = {}
    chosen = None
    values, figures = observation.rules.tile_values, observation.rules.figure_points
    for cell, tile, corners, figure in list(board.placement_ids((unseen | since) & off_board)):
        board.push_unchecked(cell, tile, corners)
        rest = off_board & ~(1 << tile)
        option = _Option(
            cell,
            tile,
            corners,
            values[tile] + figures[figure],
            tuple(evaluator.bonus_cells(rest)),
            board.fitting_tiles(rest),
        )
        board.pop()
        options.setdefault(tile, []).append(option)
        if (cell, tile, corners) == laid:
            chosen = option
    assert chosen is not None, "a placement in the history was legal on its board"
    return Choice(number, seat, since, chosen, options, evaluator, off_board)
