"""The text drawing of the table: exact pictures of small positions, and every number
of every tile at its vertex in played positions."""

from __future__ import annotations

import pytest
from rich.style import Style

import junior_games
import triominos
from triominos import CLASSIC, Board, Cell, Placement, Tile
from triominos.bots import GreedyBot, RandomBot
from triominos.notation import cell_to_text, position_from_text
from triominos.svg import CARD_COLORS, JOKER_COLOR
from triominos.textboard import board_rich_text, board_text, open_cells_text, reading_order
from triominos.tiles import JUNIOR


def board_of(*placements: tuple[Tile, Cell, tuple[int, int, int]]) -> Board:
    board = Board(CLASSIC)
    for tile, cell, corners in placements:
        board.push(Placement(tile, cell, corners))
    return board


ONE_TILE = board_of((Tile(0, 1, 2), Cell(0, 0, True), (0, 1, 2)))
TWO_TILES = board_of(
    (Tile(0, 1, 2), Cell(0, 0, True), (0, 1, 2)),
    (Tile(1, 2, 2), Cell(0, 0, False), (1, 2, 2)),
)
# Going down and left brings labels such as -1,-1v, which need taller triangles.
FOUR_TILES = board_of(
    (Tile(0, 1, 2), Cell(0, 0, True), (0, 1, 2)),
    (Tile(0, 2, 2), Cell(0, -1, False), (0, 2, 2)),
    (Tile(0, 2, 3), Cell(0, -1, True), (3, 0, 2)),
    (Tile(0, 3, 3), Cell(-1, -1, False), (3, 0, 3)),
)


def played_board(seed: int, actions: int, *, random_bot: bool = False) -> Board:
    """The board of a seeded match after some actions, as real play leaves it."""
    match = triominos.Match.from_preset("classic", 2, seed=seed)
    bot = RandomBot(seed) if random_bot else GreedyBot()
    for _ in range(actions):
        if match.is_over:
            break
        match.apply(bot.act(match.observe(match.to_move)))
    return match.hand.board


def test_empty_board_says_where_the_first_tile_goes() -> None:
    assert board_text(Board(CLASSIC)) == "(the table is empty: the first tile goes on 0,0^)"
    assert board_text(Board(CLASSIC), coordinates=False).startswith("(the table is empty")


def test_one_tile() -> None:
    assert board_text(ONE_TILE) == "\n".join(
        [
            "     1",
            "    / \\",
            "   /   \\",
            "  /     \\",
            " / 0,0^  \\",
            "0---------2",
        ]
    )


def test_two_tiles_share_their_edge_and_corners() -> None:
    assert board_text(TWO_TILES) == "\n".join(
        [
            "     1---------2",
            "    / \\ 0,0v  /",
            "   /   \\     /",
            "  /     \\   /",
            " / 0,0^  \\ /",
            "0---------2",
        ]
    )


def test_without_coordinates_only_the_triangles_and_numbers_are_drawn() -> None:
    assert board_text(TWO_TILES, coordinates=False) == "\n".join(
        [
            "     1---------2",
            "    / \\       /",
            "   /   \\     /",
            "  /     \\   /",
            " /       \\ /",
            "0---------2",
        ]
    )


def test_long_labels_make_the_triangles_taller() -> None:
    assert board_text(FOUR_TILES) == "\n".join(
        [
            "                  1",
            "                 / \\",
            "                /   \\",
            "               /     \\",
            "              /       \\",
            "             /  0,0^   \\",
            "3-----------0-----------2",
            " \\ -1,-1v  / \\  0,-1v  /",
            "  \\       /   \\       /",
            "   \\     /     \\     /",
            "    \\   /       \\   /",
            "     \\ /  0,-1^  \\ /",
            "      3-----------2",
        ]
    )
    assert board_text(FOUR_TILES, coordinates=False) == "\n".join(
        [
            "               1",
            "              / \\",
            "             /   \\",
            "            /     \\",
            "           /       \\",
            "3---------0---------2",
            " \\       / \\       /",
            "  \\     /   \\     /",
            "   \\   /     \\   /",
            "    \\ /       \\ /",
            "     3---------2",
        ]
    )


def test_the_module_docstring_shows_a_real_drawing() -> None:
    import triominos.textboard

    doc = triominos.textboard.__doc__ or ""
    drawing = "\n".join(line[4:] for line in doc.splitlines() if line.startswith("    "))
    assert drawing == board_text(TWO_TILES)


def character_at(drawing: str, row: int, column: int) -> str:
    lines = drawing.splitlines()
    return lines[row][column] if row < len(lines) and column < len(lines[row]) else " "


def assert_numbers_at_vertices(board: Board, drawing: str, height: int) -> None:
    """Each corner of each tile shows its number where the layout puts the vertex."""
    vertices = [vertex for placement in board for vertex in placement.cell.corners()]
    left = min(2 * v.x + v.y for v in vertices)
    top = max(v.y for v in vertices)
    for placement in board:
        for vertex, number in zip(placement.cell.corners(), placement.corners, strict=True):
            row, column = (top - vertex.y) * height, (2 * vertex.x + vertex.y - left) * height
            assert character_at(drawing, row, column) == str(number), (placement, vertex)


@pytest.mark.parametrize(
    ("seed", "actions", "random_bot"),
    [(4, 20, False), (7, 40, False), (11, 60, True), (2, 90, True)],
)
def test_every_number_of_every_tile_is_at_its_vertex(
    seed: int, actions: int, random_bot: bool
) -> None:
    board = played_board(seed, actions, random_bot=random_bot)
    assert len(board) > 1
    assert_numbers_at_vertices(board, board_text(board, coordinates=False), 5)
    drawing = board_text(board)
    labels = [cell_to_text(placement.cell) for placement in board]
    assert_numbers_at_vertices(board, drawing, max(5, *((len(x) + 6) // 2 for x in labels)))
    for label in labels:
        assert drawing.count(f" {label} ") == 1, label


def test_cells_are_labelled_as_the_notation_writes_them_in_reading_order() -> None:
    assert cell_to_text(Cell(0, 0, True)) == "0,0^"
    assert cell_to_text(Cell(-3, 12, False)) == "-3,12v"
    cells = [Cell(0, 0, False), Cell(0, 0, True), Cell(-1, 0, False), Cell(5, -1, True)]
    cells.append(Cell(-4, 1, True))
    assert [cell_to_text(c) for c in sorted(cells, key=reading_order)] == [
        "-4,1^",
        "-1,0v",
        "0,0^",
        "0,0v",
        "5,-1^",
    ]


def test_open_cells_of_an_empty_board() -> None:
    assert open_cells_text(Board(CLASSIC)) == "open cells (1):  0,0^"


def test_open_cells_in_reading_order_and_wrapped() -> None:
    assert (
        open_cells_text(FOUR_TILES) == "open cells (6):  -1,0^  -1,0v  0,0v  -1,-1^  1,-1^  0,-2v"
    )
    assert open_cells_text(FOUR_TILES, width=30) == "\n".join(
        ["open cells (6):  -1,0^  -1,0v", "  0,0v  -1,-1^  1,-1^  0,-2v"]
    )
    assert open_cells_text(FOUR_TILES, [Cell(0, -2, False), Cell(-1, 0, True)]) == (
        "open cells (2):  -1,0^  0,-2v"
    )
    assert open_cells_text(FOUR_TILES, []) == "open cells: none"


def test_open_cells_name_the_figure_a_tile_there_would_complete() -> None:
    board = played_board(4, 20)
    text = open_cells_text(board, width=60)
    assert all(len(line) <= 60 for line in text.splitlines())
    figures = 0
    for cell in board.open_cells():
        figure = board.figure(cell)
        if figure is not None:
            figures += 1
            assert f"{cell_to_text(cell)} ({figure.replace('_', ' ')})" in text
        else:
            assert f"  {cell_to_text(cell)}" in text
    assert figures, "the position was chosen because it offers a figure"


# --- Triominos Junior ------------------------------------------------------------------


def test_the_joker_is_marked_j_and_its_free_corner_star() -> None:
    board = position_from_text("355@0,0^ J@0,0v", JUNIOR)
    assert board_text(board) == "\n".join(
        [
            "     5---------*",
            "    / \\ 0,0v  /",
            "   /   \\  J  /",
            "  /     \\   /",
            " / 0,0^  \\ /",
            "3---------5",
        ]
    )
    assert board_text(board, coordinates=False).splitlines()[2] == "   /   \\  J  /"


def test_a_joker_pointing_up_is_marked_nearer_its_apex() -> None:
    board = position_from_text("J@0,0^ 113@0,0v", JUNIOR)
    assert board_text(board) == "\n".join(
        [
            "     1---------1",
            "    / \\ 0,0v  /",
            "   /   \\     /",
            "  /  J  \\   /",
            " / 0,0^  \\ /",
            "*---------3",
        ]
    )


@pytest.mark.parametrize("seed", range(4))
def test_every_vertex_of_a_junior_table_shows_its_number_or_a_free_corner(seed: int) -> None:
    board = junior_games.played("junior", 2 + seed % 3, seed, actions=30).hand.board
    drawing = board_text(board, coordinates=False)
    vertices = [vertex for placement in board for vertex in placement.cell.corners()]
    left = min(2 * v.x + v.y for v in vertices)
    top = max(v.y for v in vertices)
    for vertex in vertices:
        row, column = (top - vertex.y) * 5, (2 * vertex.x + vertex.y - left) * 5
        number = board.number_at(vertex)
        assert character_at(drawing, row, column) == ("*" if number is None else str(number))
    assert drawing.count("J") == (board.joker_cell is not None)


def test_the_rich_drawing_colours_each_symbol_as_the_svg_does() -> None:
    board = position_from_text("355@0,0^ J@0,0v 551@1,0^", JUNIOR)
    text = board_rich_text(board)
    assert text.plain == board_text(board)
    coloured: dict[str, set[str]] = {}
    for span in text.spans:
        character = text.plain[span.start : span.end]
        assert span.end == span.start + 1
        style = span.style
        assert isinstance(style, Style) and style.color is not None
        coloured.setdefault(character, set()).add(style.color.name)
    assert coloured == {
        "3": {CARD_COLORS[3]},
        "5": {CARD_COLORS[5]},
        "1": {CARD_COLORS[1]},
        "J": {JOKER_COLOR},
    }
    assert "*" not in coloured


def test_the_rich_drawing_of_classic_tiles_is_plain() -> None:
    text = board_rich_text(TWO_TILES)
    assert text.plain == board_text(TWO_TILES)
    assert text.spans == []
