"""The triangular lattice in RECORD.md's coordinates."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from triominos.lattice import (
    CELLS_AROUND,
    CELLS_AT,
    CORNERS,
    NEIGHBOURS,
    ORIGIN,
    Cell,
    LatticeError,
    Vertex,
    cells_around_id,
    corner_ids,
    neighbour_ids,
    vertex_id,
)

coordinates = st.integers(min_value=-128, max_value=126)
cells = st.builds(Cell, coordinates, coordinates, st.booleans())
inner = st.integers(min_value=-127, max_value=125)
inner_cells = st.builds(Cell, inner, inner, st.booleans())
"""Cells whose neighbours are on the board too."""


def test_up_cell_corners_and_neighbours_as_in_the_record() -> None:
    cell = Cell(3, -2, True)
    # left (x, y), apex (x, y+1), right (x+1, y)
    assert cell.corners() == (Vertex(3, -2), Vertex(3, -1), Vertex(4, -2))
    assert set(cell.neighbours()) == {Cell(3, -2, False), Cell(2, -2, False), Cell(3, -3, False)}


def test_down_cell_corners_and_neighbours_as_in_the_record() -> None:
    cell = Cell(3, -2, False)
    # left (x, y+1), right (x+1, y+1), apex (x+1, y)
    assert cell.corners() == (Vertex(3, -1), Vertex(4, -1), Vertex(4, -2))
    assert set(cell.neighbours()) == {Cell(3, -2, True), Cell(4, -2, True), Cell(3, -1, True)}


def test_corners_are_listed_clockwise_from_the_leftmost() -> None:
    for cell in (Cell(0, 0, True), Cell(0, 0, False), Cell(-5, 7, True), Cell(2, 2, False)):
        points = [vertex.point() for vertex in cell.corners()]
        xs = [x for x, _ in points]
        assert xs[0] == min(xs)
        (x0, y0), (x1, y1), (x2, y2) = points
        # Clockwise in a y-up plane: negative signed area.
        assert (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) < 0


def test_vertex_positions_in_the_plane() -> None:
    assert Vertex(0, 0).point() == (0.0, 0.0)
    assert Vertex(1, 0).point() == (1.0, 0.0)
    x, y = Vertex(0, 1).point()
    assert x == 0.5 and y == pytest.approx(3**0.5 / 2)


@given(inner_cells)
def test_neighbours_share_exactly_two_corners_and_are_the_only_such_cells(cell: Cell) -> None:
    mine = set(cell.corners())
    for neighbour in cell.neighbours():
        assert neighbour.up != cell.up
        assert len(mine & set(neighbour.corners())) == 2
        assert cell in neighbour.neighbours()
    nearby = [
        Cell(cell.x + dx, cell.y + dy, up)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        for up in (True, False)
    ]
    sharing_two = {other for other in nearby if len(mine & set(other.corners())) == 2}
    assert sharing_two == set(cell.neighbours())


@given(inner, inner)
def test_six_cells_meet_at_each_vertex(x: int, y: int) -> None:
    vertex = Vertex(x, y)
    around = vertex.cells()
    assert len(set(around)) == 6
    assert sum(cell.up for cell in around) == 3
    for cell in around:
        assert vertex in cell.corners()
    nearby = [
        Cell(x + dx, y + dy, up)
        for dx in (-2, -1, 0, 1)
        for dy in (-2, -1, 0, 1)
        for up in (True, False)
    ]
    assert {cell for cell in nearby if vertex in cell.corners()} == set(around)


def test_cells_around_origin_vertex() -> None:
    assert set(Vertex(0, 0).cells()) == {
        Cell(0, 0, True),
        Cell(0, -1, True),
        Cell(-1, 0, True),
        Cell(0, -1, False),
        Cell(-1, -1, False),
        Cell(-1, 0, False),
    }


@given(cells)
def test_packed_ids_round_trip(cell: Cell) -> None:
    assert Cell.from_id(cell.id) == cell
    assert corner_ids(cell.id) == tuple(vertex.id for vertex in cell.corners())


@given(inner_cells)
def test_packed_neighbours_and_vertex_cells_agree_with_the_tuples(cell: Cell) -> None:
    assert set(neighbour_ids(cell.id)) == {neighbour.id for neighbour in cell.neighbours()}
    for vertex in cell.corners():
        assert cells_around_id(vertex.id) == tuple(c.id for c in vertex.cells())


@given(inner_cells)
def test_each_cell_around_a_vertex_has_it_at_the_corner_named(cell: Cell) -> None:
    for vertex in cell.corners():
        for offset, corner in CELLS_AROUND:
            assert corner_ids(2 * vertex.id + offset)[corner] == vertex.id


@given(cells)
def test_cells_from_packed_ids_are_made_once_and_know_their_id(cell: Cell) -> None:
    made = Cell.from_id(cell.id)
    assert made is Cell.from_id(cell.id)
    assert made == cell and type(made) is Cell
    assert made.id == cell.id == Cell(*made).id


def test_packed_ids_are_distinct() -> None:
    ids = {Cell(x, y, up).id for x in range(-3, 4) for y in range(-3, 4) for up in (True, False)}
    assert len(ids) == 7 * 7 * 2


@given(cells)
def test_json_round_trip(cell: Cell) -> None:
    written = cell.to_json()
    assert written == [cell.x, cell.y, "up" if cell.up else "down"]
    assert Cell.from_json(json.loads(json.dumps(written))) == cell


def test_origin_and_its_json() -> None:
    assert Cell(0, 0, True) == ORIGIN
    assert ORIGIN.to_json() == [0, 0, "up"]
    assert ORIGIN.orientation == "up"
    assert Cell(0, 0, False).orientation == "down"


@pytest.mark.parametrize(
    "value",
    [
        [0, 0, "left"],
        [0, 0],
        [0, 0, "up", 1],
        ["0", 0, "up"],
        [0.5, 0, "up"],
        [True, 0, "up"],
        [0, 0, True],
        (0, 0, "up"),
        "0,0,up",
        None,
    ],
)
def test_bad_json_cells_raise_lattice_error(value: object) -> None:
    with pytest.raises(LatticeError):
        Cell.from_json(value)


@pytest.mark.parametrize(
    "cell",
    [
        Cell(127, 0, True),
        Cell(0, 127, False),
        Cell(-129, 0, True),
        Cell(0, -129, False),
        Cell(500, 500, True),
    ],
)
def test_cells_off_the_board_raise_lattice_error(cell: Cell) -> None:
    with pytest.raises(LatticeError):
        _ = cell.id


def test_vertices_off_the_board_raise_lattice_error() -> None:
    with pytest.raises(LatticeError):
        vertex_id(128, 0)
    with pytest.raises(LatticeError):
        _ = Vertex(0, -129).id
    assert issubclass(LatticeError, ValueError)


@given(cells)
def test_the_geometry_tables_agree_with_the_functions(cell: Cell) -> None:
    packed = cell.id
    assert CORNERS[packed] == corner_ids(packed)
    assert NEIGHBOURS[packed] == neighbour_ids(packed)
    vertex = corner_ids(packed)[0]
    assert [cell for cell, _ in CELLS_AT[vertex]] == list(cells_around_id(vertex))
    assert [corner for _, corner in CELLS_AT[vertex]] == [corner for _, corner in CELLS_AROUND]
