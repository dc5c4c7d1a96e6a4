"""The triangular lattice, in the coordinates of RECORD.md.

A vertex ``(x, y)`` sits in the plane at ``(x + y/2, y * sqrt(3)/2)``. A cell is named by
the vertex at its lower left and whether it points up or down; its corners are listed
clockwise from the leftmost:

- ``Cell(x, y, up=True)``: left ``(x, y)``, apex ``(x, y+1)``, right ``(x+1, y)``;
- ``Cell(x, y, up=False)``: left ``(x, y+1)``, right ``(x+1, y+1)``, apex ``(x+1, y)``.

The board works on packed integers rather than these tuples, because the hot path
(legal placements for bots) looks at thousands of cells a second. A vertex id is
``(x + OFFSET) * WIDTH + (y + OFFSET)`` and a cell id is ``vertex_id * 2 + up``; with 76
tiles at most, no hand ever leaves the square of side ``WIDTH`` around the origin. The
tables :data:`CORNERS`, :data:`NEIGHBOURS` and :data:`CELLS_AT` hold the packed geometry
the board asks for on every placement.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple, TypeVar

WIDTH = 256
OFFSET = 128
VERTEX_IDS = WIDTH * WIDTH
CELL_IDS = 2 * VERTEX_IDS
_LOWEST = -OFFSET
_CELLS_END = WIDTH - OFFSET - 1  # the last row and column of vertices have no cells


class LatticeError(ValueError):
    """Coordinates that are not a cell or a vertex of the board."""


class Vertex(NamedTuple):
    x: int
    y: int

    def point(self) -> tuple[float, float]:
        """Where the vertex sits in the plane (y grows upwards)."""
        return (self.x + self.y / 2, self.y * math.sqrt(3) / 2)

    @property
    def id(self) -> int:
        return vertex_id(self.x, self.y)

    def cells(self) -> tuple[Cell, ...]:
        """The six cells that meet at this vertex."""
        x, y = self
        return (
            Cell(x, y, True),
            Cell(x, y - 1, True),
            Cell(x - 1, y, True),
            Cell(x, y - 1, False),
            Cell(x - 1, y - 1, False),
            Cell(x - 1, y, False),
        )


class Cell(NamedTuple):
    x: int
    y: int
    up: bool

    @property
    def orientation(self) -> str:
        return "up" if self.up else "down"

    @property
    def id(self) -> int:
        packed = _PACKED.get(id(self))  # a cell from from_id, as every bot's move names it
        if packed is not None:
            return packed
        x, y, up = self
        if _LOWEST <= x < _CELLS_END and _LOWEST <= y < _CELLS_END:
            return ((x + OFFSET) * WIDTH + y + OFFSET) * 2 + (1 if up else 0)
        return cell_id(x, y, up)  # raises the error that names the coordinates

    @classmethod
    def from_id(cls, packed: int) -> Cell:
        # Every move of every bot names its cell this way: each cell is made once.
        if cls is Cell:
            cell = _CELLS.get(packed)
            if cell is not None:
                return cell
        vertex, up = divmod(packed, 2)
        gx, gy = divmod(vertex, WIDTH)
        cell = cls(gx - OFFSET, gy - OFFSET, bool(up))
        if cls is Cell and type(packed) is int and 0 <= packed < CELL_IDS:
            _CELLS[packed] = cell
            _PACKED[id(cell)] = packed
        return cell

    def corners(self) -> tuple[Vertex, Vertex, Vertex]:
        """The cell's corners, clockwise from the leftmost."""
        x, y = self.x, self.y
        if self.up:
            return (Vertex(x, y), Vertex(x, y + 1), Vertex(x + 1, y))
        return (Vertex(x, y + 1), Vertex(x + 1, y + 1), Vertex(x + 1, y))

    def neighbours(self) -> tuple[Cell, Cell, Cell]:
        """The three cells that share an edge with this one."""
        x, y = self.x, self.y
        if self.up:
            return (Cell(x, y, False), Cell(x - 1, y, False), Cell(x, y - 1, False))
        return (Cell(x, y, True), Cell(x + 1, y, True), Cell(x, y + 1, True))

    def to_json(self) -> list[int | str]:
        """The record form ``[x, y, "up"]``."""
        return [self.x, self.y, self.orientation]

    @classmethod
    def from_json(cls, value: object) -> Cell:
        if (
            not isinstance(value, list)
            or len(value) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
            or value[2] not in ("up", "down")
        ):
            raise LatticeError(f'a cell is written [x, y, "up"] or [x, y, "down"], not {value!r}')
        return cls(value[0], value[1], value[2] == "up")


_CELLS: dict[int, Cell] = {}
"""The cells :meth:`Cell.from_id` made, by packed id (cells are immutable)."""
_PACKED: dict[int, int] = {}
"""The packed id of each cell of _CELLS, by the cell's identity (``id``): those cells live
as long as the module, so no other object ever has their identity."""

ORIGIN = Cell(0, 0, True)
"""Where the first tile of every hand lies."""


def vertex_id(x: int, y: int) -> int:
    if not (-OFFSET <= x < WIDTH - OFFSET and -OFFSET <= y < WIDTH - OFFSET):
        raise LatticeError(f"({x}, {y}) is outside the board (coordinates from -128 to 127)")
    return (x + OFFSET) * WIDTH + (y + OFFSET)


def cell_id(x: int, y: int, up: bool) -> int:
    if not (_LOWEST <= x < _CELLS_END and _LOWEST <= y < _CELLS_END):
        raise LatticeError(f"({x}, {y}) is outside the board (coordinates from -128 to 126)")
    return ((x + OFFSET) * WIDTH + y + OFFSET) * 2 + (1 if up else 0)


def corner_ids(cell: int) -> tuple[int, int, int]:
    """Vertex ids of a packed cell's corners, clockwise from the leftmost."""
    v = cell >> 1
    if cell & 1:
        return (v, v + 1, v + WIDTH)
    return (v + 1, v + WIDTH + 1, v + WIDTH)


def neighbour_ids(cell: int) -> tuple[int, int, int]:
    """Packed ids of the three cells sharing an edge with a packed cell."""
    v = cell >> 1
    if cell & 1:
        return (2 * v, 2 * (v - WIDTH), 2 * (v - 1))
    return (2 * v + 1, 2 * (v + WIDTH) + 1, 2 * (v + 1) + 1)


CELLS_AROUND: tuple[tuple[int, int], ...] = (
    (1, 0),
    (-1, 1),
    (1 - 2 * WIDTH, 2),
    (-2, 0),
    (-2 * WIDTH - 2, 1),
    (-2 * WIDTH, 2),
)
"""The six cells meeting at a packed vertex ``v``, as pairs (cell id - 2v, the corner of
that cell, clockwise from the leftmost, that lies on ``v``); in :meth:`Vertex.cells` order."""


def cells_around_id(vertex: int) -> tuple[int, ...]:
    """Packed ids of the six cells meeting at a packed vertex."""
    return tuple(2 * vertex + offset for offset, _ in CELLS_AROUND)


_Value = TypeVar("_Value")


class Memo(dict[int, _Value]):
    """A table of what ``make`` gives for each packed id, filled on first use.

    The board's hot paths look geometry up here rather than compute it: the sums of large
    ids each make a new int, a lookup makes none. Hands stay near the origin, so the
    tables hold a few thousand entries.
    """

    def __init__(self, make: Callable[[int], _Value]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: int) -> _Value:
        value = self[key] = self._make(key)
        return value


CORNERS: Memo[tuple[int, int, int]] = Memo(corner_ids)
"""corner_ids by packed cell."""
NEIGHBOURS: Memo[tuple[int, int, int]] = Memo(neighbour_ids)
"""neighbour_ids by packed cell."""
CELLS_AT: Memo[tuple[tuple[int, int], ...]] = Memo(
    lambda vertex: tuple((2 * vertex + offset, corner) for offset, corner in CELLS_AROUND)
)
"""By packed vertex, its six cells as pairs (packed cell, the cell's corner on the vertex)."""
