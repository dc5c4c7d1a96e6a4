r"""The table in plain text, for a terminal (``triominos play``) and for logs.

Layout. The drawing is a grid of characters in which each lattice vertex ``(x, y)`` is
one character: its column grows by ``2h`` per step of x and by ``h`` per step of y, its
row by ``h`` per step down in y. ``h`` is 5, or 6 once a label such as ``-1,-2v`` needs
the room. Every tile is a triangle with the edges ``/``, ``\`` and ``-``, one
character per row on the slanted edges, which looks close to equilateral in a terminal
font. Each vertex that a tile touches shows its number: all the tiles meeting at a
vertex show the same number there (the rule of matching corners), so the number at a
triangle's corner is that tile's number, for every tile around the vertex. With
coordinates, each tile carries its cell's label in its widest row, written as the
notation writes a cell (:func:`triominos.notation.cell_to_text`): ``x,y^`` for a cell
pointing up, ``x,yv`` for one pointing down, so a player types what they read. The
board with ``0-1-2`` on ``0,0^`` and ``1-2-2`` on ``0,0v``::

         1---------2
        / \ 0,0v  /
       /   \     /
      /     \   /
     / 0,0^  \ /
    0---------2

Cells with no tile are not drawn; :func:`open_cells_text` lists where a tile may go,
with the same labels.

Triominos Junior: the joker is marked ``J`` inside its triangle, one row nearer its apex
than the label; a corner of it that no card touches shows ``*`` (a free corner), the
others the number that the cards around show there. :func:`board_rich_text` gives the
same drawing with each Junior symbol in its colour (the colours of the SVG pictures),
for a terminal that shows colours.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.style import Style
from rich.text import Text

from triominos.board import Board, FrozenBoard
from triominos.lattice import ORIGIN, Cell, Vertex
from triominos.notation import JOKER_MARK, cell_to_text
from triominos.svg import CARD_COLORS, FREE_MARK, JOKER_COLOR, uses_cards
from triominos.tiles import JOKER

MIN_HEIGHT = 5
"""Rows per lattice row: 5 leaves room for a label of 5 characters and its margins."""


def reading_order(cell: Cell) -> tuple[int, int, bool]:
    """Sort key putting cells as a reader meets them: top row first, then left to right."""
    return (-cell.y, cell.x, not cell.up)


class _Mark(NamedTuple):
    """A character of the drawing to colour: a number (by its symbol) or the joker."""

    row: int
    column: int
    symbol: int | None


def board_text(board: Board | FrozenBoard, *, coordinates: bool = True) -> str:
    """The table drawn in characters (see the module docstring for the layout).

    :param coordinates: write each tile's cell label inside it, so a player can name
        the cells around it.
    """
    return "\n".join(_draw(board, coordinates)[0])


def board_rich_text(board: Board | FrozenBoard, *, coordinates: bool = True) -> Text:
    """The drawing of :func:`board_text`, with Junior's symbols in their colours.

    A console that shows no colours (a pipe, a file) prints it as plain text.
    """
    lines, marks = _draw(board, coordinates)
    text = Text("\n".join(lines))
    if uses_cards(board.tile_set):
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        for row, column, symbol in marks:
            color = JOKER_COLOR if symbol is None else CARD_COLORS.get(symbol)
            if color is not None:
                start = starts[row] + column
                text.stylize(Style(color=color, bold=True), start, start + 1)
    return text


def _draw(board: Board | FrozenBoard, coordinates: bool) -> tuple[list[str], list[_Mark]]:
    """The drawing's lines, and where its numbers and joker marks are."""
    placements = list(board)
    if not placements:
        return [f"(the table is empty: the first tile goes on {cell_to_text(ORIGIN)})"], []
    labels = {p.cell: cell_to_text(p.cell) for p in placements} if coordinates else {}
    # The widest row of a triangle of height h holds 2h - 3 characters: the label and
    # a space on each side, so that a minus sign never touches an edge.
    height = max([MIN_HEIGHT, *((len(label) + 6) // 2 for label in labels.values())])
    vertices = {vertex for p in placements for vertex in p.cell.corners()}
    left = min(2 * v.x + v.y for v in vertices)
    top = max(v.y for v in vertices)
    bottom = min(v.y for v in vertices)
    right = max(2 * v.x + v.y for v in vertices)
    grid = [[" "] * ((right - left) * height + 1) for _ in range((top - bottom) * height + 1)]

    def position(vertex: Vertex) -> tuple[int, int]:
        return ((top - vertex.y) * height, (2 * vertex.x + vertex.y - left) * height)

    def put(row: int, column: int, text: str) -> None:
        grid[row][column : column + len(text)] = list(text)

    marks: list[_Mark] = []
    for placement in placements:
        corners = [position(vertex) for vertex in placement.cell.corners()]
        for (row_a, col_a), (row_b, col_b) in zip(corners, corners[1:] + corners[:1], strict=True):
            (row_a, col_a), (row_b, col_b) = sorted(((row_a, col_a), (row_b, col_b)))
            if row_a == row_b:
                put(row_a, min(col_a, col_b) + 1, "-" * (abs(col_b - col_a) - 1))
                continue
            # Going down the rows, a "\" edge moves right and a "/" edge moves left.
            step, mark = (1, "\\") if col_b > col_a else (-1, "/")
            for i in range(1, height):
                put(row_a + i, col_a + step * i, mark)
        label = labels.get(placement.cell)
        # Up: the row above the base; down: the row below the top edge. The joker's
        # mark goes one row nearer the apex, where the triangle is still 5 wide.
        apex_row, apex_column = corners[1] if placement.cell.up else corners[2]
        inward = -1 if placement.cell.up else 1
        row = apex_row + (height - 1 if placement.cell.up else 1 - height)
        if label is not None:
            put(row, apex_column - len(label) // 2, label)
        if placement.tile == JOKER:
            put(row + inward, apex_column, JOKER_MARK)
            marks.append(_Mark(row + inward, apex_column, None))
    # The number at a vertex is the same for every tile there; only a joker's corner
    # that no card touches has none.
    for vertex in vertices:
        number = board.number_at(vertex)
        row, column = position(vertex)
        put(row, column, FREE_MARK if number is None else str(number))
        if number is not None:
            marks.append(_Mark(row, column, number))
    return ["".join(row).rstrip() for row in grid], marks


def open_cells_text(
    board: Board | FrozenBoard, cells: Iterable[Cell] | None = None, *, width: int = 80
) -> str:
    """The cells a tile may go, on as few lines as fit ``width``, in reading order.

    ``cells`` defaults to every open cell of the board (pass the legal destinations of
    a rack to list only those). A cell where a tile would complete a figure says which,
    since the figure's bonus often decides the move: ``1,0v (bridge)``.
    """
    chosen = board.open_cells() if cells is None else list(cells)
    if not chosen:
        return "open cells: none"
    items: list[str] = []
    for cell in sorted(set(chosen), key=reading_order):
        figure = board.figure(cell)
        label = cell_to_text(cell)
        items.append(f"{label} ({figure.replace('_', ' ')})" if figure else label)
    lines = [f"open cells ({len(items)}):"]
    for item in items:
        if lines[-1] and len(lines[-1]) + 2 + len(item) > width:
            lines.append("")
        lines[-1] += "  " + item
    return "\n".join(lines)
