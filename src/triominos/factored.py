"""Factored action ids, and a feature vector for each legal action: actions a net can learn.

The flat ids of :class:`~triominos.encoding.ActionSpace` name a placement by its window
cell: 774,147 ids in the classic game, too many for an output layer. Here a placement is
named by three small factors instead: the **slot** of its cell in the board's frontier
(the open cells in the board's own order, :meth:`~triominos.board.Board.open_cells`), the
**tile** and its **rotation**. A board of ``n`` tiles has at most ``n + 2`` open cells (the
first tile opens three; every later one fills an open cell and opens at most two), so
``len(box) + 2`` slots always suffice: 9,747 ids in the classic game, and a policy can
output a head per factor (58 slots, 56 tiles, 3 rotations).

=======================  ============================================================
id                       action
=======================  ============================================================
0, 1, 2                  Draw, Pass, StarterDraw (as the flat ids)
3 + (s * T + t) * 3 + r  a placement of tile ``t``, rotation ``r``, on frontier slot ``s``
after the placements     a take-joker of tile ``t``, rotation ``r``: ``t * 3 + r`` on
=======================  ============================================================

Which cell a slot names depends on the board, so ``encode`` and ``decode`` take it, as
decoding the joker's placement does for flat ids.

**Features** (:meth:`FactoredSpace.features`): for each legal action of a seat, in the
order of its legal ids, ``feature_size`` float32 numbers, named by
:attr:`FactoredSpace.feature_slices`: ``kind`` (one-hot: place, take_joker, draw, pass,
starter_draw), ``tile`` (one-hot), ``rotation`` (one-hot), ``points`` now (over
:data:`~triominos.encoding.POINTS_SCALE`, bonuses and penalties included), ``figure``
(one-hot: the figure a placement completes, :data:`~triominos.board.FIGURES` less none),
``cell`` (x and y over the radius, 1 for an up cell), ``matched`` (the corners already
numbered, over 3), ``out`` (1 when the action empties the rack) and ``rack after`` (the
tiles the rack keeps, over the box). A policy scores each row with the same small net and
chooses among them: no output layer over all ids at all. Everything comes from the seat's
observation; the standard library only.
"""

from __future__ import annotations

from array import array

from triominos.board import FIGURES, Board, FrozenBoard, Placement
from triominos.encoding import POINTS_SCALE, RADIUS, ROTATIONS, ActionSpace
from triominos.game import Action, Draw, Observation, Pass, StarterDraw, TakeJoker
from triominos.lattice import Cell
from triominos.rules import Rules

_PLACEMENTS = 3
KINDS = ("place", "take_joker", "draw", "pass", "starter_draw")
"""The kinds of action, as the features' one-hot orders them."""
_KIND_OF = {Placement: 0, TakeJoker: 1, Draw: 2, Pass: 3, StarterDraw: 4}


class FrontierError(ValueError):
    """A cell that is not on the board's frontier, or a slot past its end."""


class FactoredSpace:
    """The factored action ids of one set of rules (module docstring)."""

    def __init__(self, rules: Rules, radius: int = RADIUS) -> None:
        self.rules = rules
        self.radius = radius
        self.tile_set = tile_set = rules.tiles
        self.tiles = len(tile_set)
        self.slots = len(rules.box) + 2
        """Frontier slots: more open cells than any board of these rules can have."""
        self.take_joker_start = _PLACEMENTS + self.slots * self.tiles * ROTATIONS
        self._flat = ActionSpace(rules, radius)  # rotations, take-jokers and the joker's corners
        self.size = self.take_joker_start + (self._flat.size - self._flat.take_joker_start)
        """How many ids there are: every id is ``0 <= id < size``."""
        parts = [
            ("kind", len(KINDS)),
            ("tile", self.tiles),
            ("rotation", ROTATIONS),
            ("points", 1),
            ("figure", len(FIGURES) - 1),
            ("cell", 3),
            ("matched", 1),
            ("out", 1),
            ("rack after", 1),
        ]
        self.feature_slices: dict[str, slice] = {}
        """Each feature's slice of an action's row, by name, in order."""
        offset = 0
        for name, length in parts:
            self.feature_slices[name] = slice(offset, offset + length)
            offset += length
        self.feature_size = offset

    def __repr__(self) -> str:
        return f"<FactoredSpace {self.tile_set.name}: {self.size} ids, {self.slots} slots>"

    def slot(self, cell: Cell, board: Board | FrozenBoard) -> int:
        """The slot of ``cell`` in the frontier of ``board``; FrontierError if it is none."""
        try:
            return board.open_cells().index(cell)
        except ValueError:
            raise FrontierError(f"cell {cell.to_json()} is not an open cell of the board") from None

    def encode(self, action: Action, board: Board | FrozenBoard | None = None) -> int:
        """The id of an engine action on ``board`` (the observation's)."""
        if isinstance(action, Placement):
            if board is None:
                raise ValueError("a placement's factored id needs the board: it names a slot")
            flat = self._flat.encode(action) - _PLACEMENTS
            rotation, tile = flat % ROTATIONS, flat // ROTATIONS % self.tiles
            slot = self.slot(action.cell, board)
            return _PLACEMENTS + (slot * self.tiles + tile) * ROTATIONS + rotation
        flat = self._flat.encode(action)
        if flat < _PLACEMENTS:
            return flat
        return self.take_joker_start + flat - self._flat.take_joker_start

    def decode(self, action_id: int, board: Board | FrozenBoard | None = None) -> Action:
        """The engine action of an id on ``board``."""
        if not isinstance(action_id, int) or not 0 <= action_id < self.size:
            raise ValueError(
                f"an action id is a whole number from 0 to {self.size - 1}, not {action_id!r}"
            )
        if action_id < _PLACEMENTS or action_id >= self.take_joker_start:
            flat = action_id
            if action_id >= self.take_joker_start:
                flat = self._flat.take_joker_start + action_id - self.take_joker_start
            return self._flat.decode(flat, board)
        slot, tile, rotation = self.factors(action_id)
        if board is None:
            raise ValueError("decoding a factored placement needs the board: it names a slot")
        cells = board.open_cells()
        if slot >= len(cells):
            raise FrontierError(f"slot {slot} is past the frontier's {len(cells)} open cells")
        flat_slot = self._flat.cell_index(cells[slot]) * self.tiles + tile
        return self._flat.decode(_PLACEMENTS + flat_slot * ROTATIONS + rotation, board)

    def factors(self, action_id: int) -> tuple[int, int, int]:
        """A placement id's (slot, tile, rotation): what a policy's three heads choose."""
        if not _PLACEMENTS <= action_id < self.take_joker_start:
            raise ValueError(f"action id {action_id} is not a placement")
        rest, rotation = divmod(action_id - _PLACEMENTS, ROTATIONS)
        slot, tile = divmod(rest, self.tiles)
        return slot, tile, rotation

    def legal_ids(self, observation: Observation) -> list[int]:
        """The ids of the seat's legal actions, in the order of ``legal_actions``."""
        board = observation.board
        return [self.encode(choice.action, board) for choice in observation.legal_actions()]

    def mask(self, observation: Observation) -> bytearray:
        """``size`` bytes, 1 for each legal id of the observing seat, else 0."""
        mask = bytearray(self.size)
        for action_id in self.legal_ids(observation):
            mask[action_id] = 1
        return mask

    def features(self, observation: Observation) -> tuple[list[int], array[float]]:
        """The seat's legal ids, and a row of ``feature_size`` numbers for each, in order."""
        board, rack = observation.board, observation.rack or 0
        position = self.tile_set.position
        choices = observation.legal_actions()
        ids: list[int] = []
        rows = array("f", bytes(4 * self.feature_size * len(choices)))
        part = self.feature_slices
        held = rack.bit_count()
        for number, choice in enumerate(choices):
            action, at = choice.action, number * self.feature_size
            action_id = self.encode(action, board)
            ids.append(action_id)
            rows[at + part["kind"].start + _KIND_OF[type(action)]] = 1.0
            rows[at + part["points"].start] = choice.points / POINTS_SCALE
            left = held
            if isinstance(action, Placement | TakeJoker):
                tile = position[action.tile]
                rows[at + part["tile"].start + tile] = 1.0
                rotation = self._flat.rotation(tile, action.corners)
                rows[at + part["rotation"].start + rotation] = 1.0
                left = held - 1 if isinstance(action, Placement) else held
            if isinstance(action, Placement):
                self._placement(rows, at, action, board)
            elif isinstance(action, Draw):
                left = held + 1
            rows[at + part["out"].start] = float(left == 0)
            rows[at + part["rack after"].start] = left / len(self.rules.box)
        return ids, rows

    def _placement(
        self, rows: array[float], at: int, placement: Placement, board: FrozenBoard
    ) -> None:
        part, cell = self.feature_slices, placement.cell
        figure = board.figure(cell)
        if figure is not None:
            rows[at + part["figure"].start + FIGURES.index(figure) - 1] = 1.0
        cell_at = part["cell"].start
        rows[at + cell_at] = cell.x / self.radius
        rows[at + cell_at + 1] = cell.y / self.radius
        rows[at + cell_at + 2] = float(cell.up)
        matched = sum(board.number_at(vertex) is not None for vertex in cell.corners())
        rows[at + part["matched"].start] = matched / 3


__all__ = ["KINDS", "FactoredSpace", "FrontierError"]
