"""Shapes of tiles on the board for the rule tests: figures laid cell by cell.

Figures depend on which cells are occupied, not on the numbers, so the shapes use the
76-tile set, where every three numbers read clockwise are a tile: the numbers of a shape
come from a formula over its vertices and every tile fits by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from triominos.board import Board, Placement
from triominos.lattice import ORIGIN, Cell, Vertex
from triominos.tiles import EXTENDED, Corners, Tile

Numbering = Callable[[Vertex], int]


def U(x: int, y: int) -> Cell:
    return Cell(x, y, True)


def D(x: int, y: int) -> Cell:
    return Cell(x, y, False)


def spread(vertex: Vertex) -> int:
    return (2 * vertex.x + 3 * vertex.y) % 6


def corners_for(cell: Cell, number: Numbering = spread) -> Corners:
    a, b, c = (number(vertex) for vertex in cell.corners())
    return (a, b, c)


def placement_for(cell: Cell, number: Numbering = spread) -> Placement:
    corners = corners_for(cell, number)
    return Placement(Tile(*corners), cell, corners)


def lay_shape(board: Board, cells: Iterable[Cell], number: Numbering = spread) -> None:
    """Lay a tile on every cell, each next to the table (the origin first), checked."""
    todo = list(cells)
    while todo:
        for cell in todo:
            if (not len(board) and cell == ORIGIN) or any(
                board.tile_at(neighbour) for neighbour in cell.neighbours()
            ):
                board.push(placement_for(cell, number))
                todo.remove(cell)
                break
        else:
            raise AssertionError(f"cannot reach {todo} from the table")


def ring(vertex: Vertex) -> list[Cell]:
    """The six cells around a vertex, in order around it (each shares an edge with the next)."""
    cells = list(vertex.cells())
    order = [cells.pop(0)]
    while cells:
        following = next(c for c in cells if c in order[-1].neighbours())
        order.append(following)
        cells.remove(following)
    return order


HEXAGON = ([D(-1, -1), D(-1, 0), U(-1, 0), U(0, -1), U(0, 0)], D(0, -1))
BRIDGE = (
    [D(-2, 0), D(-2, 1), U(-2, 1), D(-1, 0), U(-1, 0), D(0, 0), U(0, 0), U(0, 1)],
    D(-1, 1),
)
DOUBLE_HEXAGON = (
    [D(-2, 0), D(-2, 1), U(-2, 1), U(-1, 0), D(-1, 1), U(-1, 1), D(0, 0), U(0, 0), U(0, 1)],
    D(-1, 0),
)
TWO_SIDES = (
    [
        *[D(-1, 0), D(-1, 1), U(-1, 1), D(0, -1), U(0, 0), D(0, 1)],
        *[U(0, 1), D(1, -1), U(1, -1), U(1, 0), U(1, 1)],
    ],
    D(1, 0),
)


def triple_hexagon() -> tuple[list[Cell], Cell]:
    centre = D(0, 0)
    around = {cell for vertex in centre.corners() for cell in vertex.cells()} - {centre}
    return sorted(around), centre


def shape_board(shape: tuple[list[Cell], Cell]) -> tuple[Board, Cell]:
    board = Board(EXTENDED)
    lay_shape(board, shape[0])
    return board, shape[1]
