"""The SVG pictures: valid documents that hold every tile, number and mark asked for."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

import junior_games
import triominos
from triominos import CLASSIC, EXTENDED, Board, Cell, Placement, Tile
from triominos.bots import GreedyBot
from triominos.notation import position_from_text
from triominos.svg import CARD_COLORS, EDGE, board_svg, cell_caption, cell_points, tile_svg
from triominos.tiles import JOKER, JUNIOR

SVG = "{http://www.w3.org/2000/svg}"


def played_board(seed: int = 4, actions: int = 20) -> Board:
    match = triominos.Match.from_preset("classic", 2, seed=seed)
    bot = GreedyBot()
    for _ in range(actions):
        match.apply(bot.act(match.observe(match.to_move)))
    return match.hand.board


def parse(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def elements(root: ET.Element, tag: str, css_class: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if css_class in classes(e)]


def polygon_points(polygon: ET.Element) -> list[tuple[float, float]]:
    pairs = (pair.split(",") for pair in (polygon.get("points") or "").split())
    return [(float(x), float(y)) for x, y in pairs]


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    return x, y, width, height


BOARD = played_board()


def test_a_played_board_is_valid_svg_with_one_polygon_per_tile() -> None:
    root = parse(board_svg(BOARD))
    assert len(BOARD) > 5
    assert len(elements(root, "polygon", "tile")) == len(BOARD)
    assert elements(root, "polygon", "highlight") == []


def test_each_tile_shows_its_three_numbers_in_corner_order() -> None:
    root = parse(board_svg(BOARD))
    groups = elements(root, "g", "tile")
    assert len(groups) == len(BOARD)
    for group, placement in zip(groups, BOARD, strict=True):
        numbers = [t.text for t in group.iter(f"{SVG}text") if "number" in classes(t)]
        assert numbers == [str(n) for n in placement.corners]
        title = group.find(f"{SVG}title")
        assert title is not None and title.text is not None
        assert title.text.startswith(str(placement.tile))


def test_numbers_sit_inside_their_tile_near_their_corner() -> None:
    root = parse(board_svg(BOARD))
    for group, placement in zip(elements(root, "g", "tile"), BOARD, strict=True):
        corners = cell_points(placement.cell)
        numbers = [t for t in group.iter(f"{SVG}text") if "number" in classes(t)]
        for corner, text in zip(corners, numbers, strict=True):
            # The rotation's centre is where the number sits.
            centre = [float(v) for v in (text.get("transform") or "")[7:-1].split()[1:]]
            distances = [math.dist(centre, other) for other in corners]
            assert min(distances) == math.dist(centre, corner) < EDGE / 2


def test_an_upward_corner_reads_upright() -> None:
    root = parse(tile_svg(Tile(0, 1, 2)))
    numbers = [t for t in root.iter(f"{SVG}text") if "number" in classes(t)]
    assert [t.text for t in numbers] == ["0", "1", "2"]
    angles = [float((t.get("transform") or "")[7:-1].split()[0]) for t in numbers]
    assert angles == [-120, 0, 120]


def test_the_last_tile_is_marked_only_when_asked() -> None:
    root = parse(board_svg(BOARD))
    marked = elements(root, "polygon", "last")
    assert len(marked) == 1
    last_group = elements(root, "g", "tile")[-1]
    assert marked[0] in list(last_group)
    last = BOARD.last
    assert last is not None
    title = last_group.find(f"{SVG}title")
    assert title is not None
    assert title.text == f"{last.tile} on {last.cell.x},{last.cell.y} {last.cell.orientation}"
    assert elements(parse(board_svg(BOARD, last=False)), "polygon", "last") == []


def test_coordinates_only_when_asked() -> None:
    plain = parse(board_svg(BOARD))
    assert elements(plain, "text", "coordinates") == []
    labelled = parse(board_svg(BOARD, coordinates=True))
    texts = [t.text for t in elements(labelled, "text", "coordinates")]
    assert texts == [cell_caption(placement.cell) for placement in BOARD]
    assert cell_caption(Cell(0, 0, True)) == "0,0▲"
    assert cell_caption(Cell(-2, 1, False)) == "-2,1▼"


def test_highlighted_cells_are_dashed_outlines() -> None:
    cells = BOARD.open_cells()
    root = parse(board_svg(BOARD, highlight=cells))
    outlines = elements(root, "polygon", "highlight")
    assert len(outlines) == len(cells)
    assert all(outline.get("stroke-dasharray") for outline in outlines)
    assert len(elements(root, "polygon", "tile")) == len(BOARD)


def test_the_view_box_holds_every_polygon() -> None:
    root = parse(board_svg(BOARD, highlight=BOARD.open_cells()))
    x, y, width, height = view_box(root)
    for polygon in root.iter(f"{SVG}polygon"):
        for px, py in polygon_points(polygon):
            assert x < px < x + width and y < py < y + height


def test_size_is_the_longer_side() -> None:
    root = parse(board_svg(BOARD, size=400))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    assert max(width, height) == 400
    _, _, box_width, box_height = view_box(root)
    assert width / height == pytest.approx(box_width / box_height, rel=0.01)
    natural = parse(board_svg(BOARD))
    assert float(natural.get("width") or 0) == round(view_box(natural)[2])


def test_an_empty_board_is_an_empty_valid_picture() -> None:
    root = parse(board_svg(Board(CLASSIC), coordinates=True))
    assert list(root.iter(f"{SVG}polygon")) == []
    assert list(root.iter(f"{SVG}text")) == []
    _, _, width, height = view_box(root)
    assert width > 0 and height > 0


def test_an_empty_board_can_show_where_the_first_tile_goes() -> None:
    root = parse(board_svg(Board(CLASSIC), highlight=[triominos.ORIGIN]))
    assert len(elements(root, "polygon", "highlight")) == 1


def test_a_mirror_tile_of_the_extended_set() -> None:
    board = Board(EXTENDED)
    board.push(Placement(Tile(0, 2, 1), Cell(0, 0, True), (2, 1, 0)))
    root = parse(board_svg(board, coordinates=True))
    numbers = [t.text for t in elements(root, "text", "number")]
    assert numbers == ["2", "1", "0"]


def test_tile_svg_draws_one_tile_of_the_asked_width() -> None:
    root = parse(tile_svg(Tile(3, 4, 5), size=120))
    assert len(elements(root, "polygon", "tile")) == 1
    assert root.get("width") == "120"
    assert 100 < float(root.get("height") or 0) < 120
    assert [t.text for t in elements(root, "text", "number")] == ["3", "4", "5"]


def test_documents_show_themselves_in_notebooks() -> None:
    assert BOARD._repr_svg_() == board_svg(BOARD)
    assert board_svg(BOARD)._repr_svg_() == board_svg(BOARD)
    assert tile_svg(Tile(0, 0, 0))._repr_svg_() == tile_svg(Tile(0, 0, 0))


def test_the_picture_is_the_same_for_the_same_board() -> None:
    assert board_svg(played_board()) == board_svg(BOARD)


cells = st.builds(Cell, st.integers(-60, 60), st.integers(-60, 60), st.booleans())


@given(cells)
def test_cell_points_are_an_equilateral_triangle_clockwise_on_screen(cell: Cell) -> None:
    points = cell_points(cell)
    for a, b in zip(points, points[1:] + points[:1], strict=True):
        assert math.dist(a, b) == pytest.approx(EDGE)
    # With y growing downwards, a clockwise turn has a positive shoelace sum.
    area = sum(
        a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1], strict=True)
    )
    assert area > 0
    # The first corner is the leftmost, and an up cell's apex is above its base.
    assert points[0][0] == min(p[0] for p in points)
    base, apex = (points[0][1], points[1][1]) if cell.up else (points[0][1], points[2][1])
    assert (apex < base) == cell.up


# --- Triominos Junior: coloured cards and the joker ----------------------------------


def junior_board_with_free_joker() -> Board:
    """A played Junior table whose joker has a corner no card touches."""
    match = junior_games.first_position(
        lambda m: (
            (cell := m.hand.board.joker_cell) is not None
            and any(m.hand.board.number_at(vertex) is None for vertex in cell.corners())
            and len(m.hand.board) >= 6
        )
    )
    return match.hand.board


JUNIOR_BOARD = junior_board_with_free_joker()


def test_junior_cards_have_a_patch_of_each_symbols_colour() -> None:
    root = parse(board_svg(JUNIOR_BOARD))
    groups = elements(root, "g", "tile")
    assert len(groups) == len(JUNIOR_BOARD)
    for group, placement in zip(groups, JUNIOR_BOARD, strict=True):
        if placement.tile != JOKER:
            # The same colour for a symbol on every card: equal corners meet in one colour.
            patches = [p.get("fill") for p in group.iter(f"{SVG}polygon") if "patch" in classes(p)]
            assert patches == [CARD_COLORS[number] for number in placement.corners]
    assert sorted(CARD_COLORS) == [1, 2, 3, 4, 5]
    assert len(set(CARD_COLORS.values())) == 5


def test_the_joker_is_a_star_card_showing_the_numbers_at_its_vertices() -> None:
    root = parse(board_svg(JUNIOR_BOARD, coordinates=True))
    (joker,) = [g for g in elements(root, "g", "tile") if "joker" in classes(g)]
    cell = JUNIOR_BOARD.joker_cell
    assert cell is not None
    title = joker.find(f"{SVG}title")
    assert title is not None and title.text == f"J on {cell.x},{cell.y} {cell.orientation}"
    assert [p for p in joker.iter(f"{SVG}polygon") if "joker" in classes(p)]
    marks = [t.text for t in joker.iter(f"{SVG}text") if "joker-mark" in classes(t)]
    assert marks == ["J"]
    shown = [t.text for t in joker.iter(f"{SVG}text") if "number" in classes(t)]
    expected = [JUNIOR_BOARD.number_at(vertex) for vertex in cell.corners()]
    assert shown == ["*" if n is None else str(n) for n in expected]
    assert "*" in shown
    free = [t for t in joker.iter(f"{SVG}text") if "free" in classes(t)]
    assert len(free) == shown.count("*")
    patches = [p for p in joker.iter(f"{SVG}polygon") if "patch" in classes(p)]
    assert len(patches) == 3 - shown.count("*")  # a patch only where a card numbers it


def test_a_joker_corner_numbered_by_a_later_card_shows_that_number() -> None:
    board = position_from_text("355@0,0^ J@0,0v", JUNIOR)
    before = [t.text for t in elements(parse(board_svg(board)), "text", "number")][3:]
    assert before == ["5", "*", "5"]
    board.push(Placement(Tile(1, 5, 5), Cell(1, 0, True), (5, 5, 1)))
    after = [t.text for t in elements(parse(board_svg(board)), "text", "number")][3:6]
    assert after == ["5", "5", "5"]


def test_a_lone_joker_and_a_lone_card() -> None:
    joker = parse(tile_svg(JOKER, size=120))
    assert [t.text for t in elements(joker, "text", "number")] == ["*", "*", "*"]
    assert elements(joker, "polygon", "joker")
    card = parse(tile_svg(Tile(1, 2, 3), tile_set=JUNIOR))
    fills = [p.get("fill") for p in elements(card, "polygon", "patch")]
    assert fills == [CARD_COLORS[1], CARD_COLORS[2], CARD_COLORS[3]]
    assert elements(parse(tile_svg(Tile(1, 2, 3))), "polygon", "patch") == []


def test_the_junior_view_box_holds_every_polygon() -> None:
    root = parse(board_svg(JUNIOR_BOARD, highlight=JUNIOR_BOARD.open_cells(), coordinates=True))
    x, y, width, height = view_box(root)
    for polygon in root.iter(f"{SVG}polygon"):
        for px, py in polygon_points(polygon):
            assert x < px < x + width and y < py < y + height
