"""The board: placement rules, figures, legal placements, push/pop.

Figures depend on which cells are occupied, not on the numbers, so the figure tests use
the 76-tile set, where every three numbers read clockwise are a tile: the numbers of a
shape come from a formula over its vertices and every tile fits by construction.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
import triominos.board as board_module
from shapes import (
    BRIDGE,
    DOUBLE_HEXAGON,
    HEXAGON,
    TWO_SIDES,
    D,
    U,
    lay_shape,
    placement_for,
    ring,
    shape_board,
    spread,
    triple_hexagon,
)
from triominos.board import FIGURES, Board, IllegalPlacementError, Placement
from triominos.game import legal_actions
from triominos.lattice import CELL_IDS, ORIGIN, VERTEX_IDS, Cell, Vertex
from triominos.rules import Rules
from triominos.tiles import CLASSIC, EXTENDED, JUNIOR, Tile, TileSet


def occupied_neighbours(board: Board, cell: Cell) -> int:
    return sum(board.tile_at(neighbour) is not None for neighbour in cell.neighbours())


def score(rules: Rules, board: Board, placement: Placement) -> tuple[int, dict[str, int]]:
    """The points the engine offers for ``placement`` as a legal action now."""
    rack = board.tile_set.mask([placement.tile])
    for option in legal_actions(rules, "play", board, rack, 0, 10):
        if option.action == placement:
            return option.points, option.bonuses
    raise AssertionError(f"{placement} is not offered")


# --- figures ------------------------------------------------------------------------


def test_hexagon_completes_six_cells_around_a_corner() -> None:
    board, cell = shape_board(HEXAGON)
    assert occupied_neighbours(board, cell) == 2  # a hexagon, though it has two sides
    assert board.figure(cell) == "hexagon"
    placement = placement_for(cell)
    assert score(Rules(), board, placement) == (placement.tile.value + 50, {"hexagon": 50})
    assert board.push(placement) == "hexagon"


def test_hexagon_missing_a_cell_gives_nothing() -> None:
    around = ring(Vertex(0, 0))
    assert around[0] == ORIGIN
    board = Board(EXTENDED)
    lay_shape(board, [around[0], around[5], around[4], around[3]])
    gaps = [around[1], around[2]]
    for gap in gaps:
        assert occupied_neighbours(board, gap) == 1
        assert board.figure(gap) is None
        placement = placement_for(gap)
        assert score(Rules(two_sides_bonus=40), board, placement) == (placement.tile.value, {})
    assert board.push(placement_for(gaps[0])) is None
    assert board.figure(gaps[1]) == "hexagon"


def test_double_hexagon_scores_60_not_two_hexagons() -> None:
    board, cell = shape_board(DOUBLE_HEXAGON)
    assert board.figure(cell) == "double_hexagon"
    placement = placement_for(cell)
    points, bonuses = score(Rules(), board, placement)
    assert bonuses == {"double_hexagon": 60}
    assert points == placement.tile.value + 60
    assert board.push(placement) == "double_hexagon"


def test_triple_hexagon_scores_only_the_largest() -> None:
    board, cell = shape_board(triple_hexagon())
    assert len(board) == 12
    assert occupied_neighbours(board, cell) == 3
    assert board.figure(cell) == "triple_hexagon"
    placement = placement_for(cell)
    assert score(Rules(), board, placement) == (
        placement.tile.value + 70,
        {"triple_hexagon": 70},
    )
    custom = Rules(hexagon_bonus=1, double_hexagon_bonus=2, triple_hexagon_bonus=3)
    assert score(custom, board, placement) == (placement.tile.value + 3, {"triple_hexagon": 3})


def test_bridge_one_edge_and_the_opposite_corner_touching_a_tile() -> None:
    board, cell = shape_board(BRIDGE)
    assert occupied_neighbours(board, cell) == 1
    (shared,) = [n for n in cell.neighbours() if board.tile_at(n)]
    (opposite,) = set(cell.corners()) - set(shared.corners())
    assert board.number_at(opposite) is not None  # touched, by a corner only
    assert board.figure(cell) == "bridge"
    placement = placement_for(cell)
    assert score(Rules(), board, placement) == (placement.tile.value + 40, {"bridge": 40})
    assert board.push(placement) == "bridge"


def test_one_edge_with_a_free_opposite_corner_is_no_bridge() -> None:
    board = Board(EXTENDED)
    lay_shape(board, [ORIGIN])
    for cell in ORIGIN.neighbours():
        assert board.figure(cell) is None


def test_the_bridge_given_a_second_edge_is_no_bridge() -> None:
    board, cell = shape_board(BRIDGE)
    assert board.figure(cell) == "bridge"
    # Reach round to the bridge cell's other side, without closing a hexagon.
    lay_shape(board, [U(-2, 2), D(-2, 2), U(-1, 2)])
    assert occupied_neighbours(board, cell) == 2
    assert board.figure(cell) == "two_sides"
    placement = placement_for(cell)
    assert score(Rules(), board, placement) == (placement.tile.value, {})


def test_a_bridge_with_a_second_edge_is_two_sides_not_a_bridge() -> None:
    board, cell = shape_board(TWO_SIDES)
    assert occupied_neighbours(board, cell) == 2
    assert all(board.number_at(vertex) is not None for vertex in cell.corners())
    assert board.figure(cell) == "two_sides"
    placement = placement_for(cell)
    # Off unless chosen; seed 002 gives it 40.
    assert Rules().two_sides_bonus == 0
    assert score(Rules(), board, placement) == (placement.tile.value, {})
    assert score(Rules(two_sides_bonus=40), board, placement) == (
        placement.tile.value + 40,
        {"two_sides": 40},
    )
    assert board.push(placement) == "two_sides"


def test_figure_names_are_the_record_names() -> None:
    assert FIGURES == (None, "hexagon", "double_hexagon", "triple_hexagon", "bridge", "two_sides")
    assert Rules(two_sides_bonus=40).figure_points == (0, 50, 60, 70, 40, 40)


# --- illegal placements ------------------------------------------------------------


def rule_of(board: Board, placement: Placement) -> str:
    with pytest.raises(IllegalPlacementError) as caught:
        board.check(placement)
    assert not board.is_legal(placement)
    with pytest.raises(IllegalPlacementError):
        board.push(placement)
    return caught.value.rule


def test_corner_conflict_through_a_corner_only_contact() -> None:
    board, cell = shape_board(BRIDGE)
    (shared,) = [n for n in cell.neighbours() if board.tile_at(n)]
    (opposite,) = set(cell.corners()) - set(shared.corners())
    shown = board.number_at(opposite)
    assert shown is not None

    def wrong(vertex: Vertex) -> int:
        return (spread(vertex) + 1) % 6 if vertex == opposite else spread(vertex)

    bad = placement_for(cell, wrong)
    assert rule_of(board, bad) == "matching_corners"
    assert bad not in board.legal_placements(EXTENDED.full_mask)
    assert placement_for(cell) in board.legal_placements(EXTENDED.full_mask)
    assert len(board) == len(BRIDGE[0])  # nothing was laid
    assert board.is_legal(placement_for(cell))


def test_corner_conflict_on_the_shared_edge() -> None:
    board = Board(CLASSIC)
    board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    # D(0, 0) shares the origin's edge (0,1)-(1,0): it needs 5 on its left and apex.
    assert rule_of(board, Placement(Tile(4, 4, 5), D(0, 0), (5, 4, 4))) == "matching_corners"
    assert board.is_legal(Placement(Tile(4, 5, 5), D(0, 0), (5, 4, 5)))


def test_flipped_tile_is_refused() -> None:
    board = Board(CLASSIC)
    assert rule_of(board, Placement(Tile(0, 1, 2), ORIGIN, (0, 2, 1))) == "no_flip"
    board.push(Placement(Tile(0, 2, 3), ORIGIN, (0, 2, 3)))
    # D(0, -1) reads (0, 3, _): 0-1-3 turned over, as (0, 3, 1), would match the table,
    # but no rotation of 0-1-3 does.
    flipped = Placement(Tile(0, 1, 3), D(0, -1), (0, 3, 1))
    assert rule_of(board, flipped) == "no_flip"
    assert all(p.tile != Tile(0, 1, 3) for p in board.legal_placements(CLASSIC.full_mask))
    assert board.is_legal(Placement(Tile(0, 3, 3), D(0, -1), (0, 3, 3)))


def test_a_mirror_is_its_own_tile_in_the_extended_set() -> None:
    board = Board(EXTENDED)
    assert board.is_legal(Placement(Tile(0, 2, 1), ORIGIN, (0, 2, 1)))
    assert rule_of(board, Placement(Tile(0, 1, 2), ORIGIN, (0, 2, 1))) == "no_flip"


def test_no_edge_contact_is_refused() -> None:
    board = Board(CLASSIC)
    board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    # U(1, 0) touches the origin at the vertex (1, 0) only.
    assert set(U(1, 0).corners()) & set(ORIGIN.corners()) == {Vertex(1, 0)}
    assert rule_of(board, Placement(Tile(5, 5, 5), U(1, 0), (5, 5, 5))) == "edge_contact"
    assert rule_of(board, Placement(Tile(0, 0, 0), U(5, 5), (0, 0, 0))) == "edge_contact"


def test_occupied_cell_is_refused() -> None:
    board = Board(CLASSIC)
    board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    assert rule_of(board, Placement(Tile(4, 5, 5), ORIGIN, (5, 5, 4))) == "empty_cell"


def test_first_tile_lies_on_the_origin() -> None:
    board = Board(CLASSIC)
    for cell in (D(0, 0), U(1, 0), U(0, -1)):
        assert rule_of(board, Placement(Tile(5, 5, 5), cell, (5, 5, 5))) == "first_tile_on_origin"
    assert board.open_cells() == [ORIGIN]
    assert board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5))) is None


def test_tile_of_another_set_is_refused() -> None:
    board = Board(CLASSIC)
    assert rule_of(board, Placement(Tile(0, 2, 1), ORIGIN, (0, 2, 1))) == "tile_set"


def test_illegal_placement_error_is_a_value_error_with_a_message() -> None:
    board = Board(CLASSIC)
    with pytest.raises(ValueError, match="the first tile lies on"):
        board.check(Placement(Tile(5, 5, 5), U(3, 3), (5, 5, 5)))


# --- reading the board ---------------------------------------------------------------


def test_reading_the_board_back() -> None:
    board = Board(CLASSIC)
    first = Placement(Tile(0, 1, 2), ORIGIN, (1, 2, 0))
    second = Placement(Tile(0, 2, 2), D(0, 0), (2, 2, 0))
    board.push(first)
    board.push(second)
    assert list(board) == [first, second]
    assert len(board) == 2
    assert board.last == second
    assert board.tile_at(D(0, 0)) == second
    assert board.tile_at(U(1, 0)) is None
    assert board.number_at(Vertex(0, 0)) == 1
    assert board.number_at(Vertex(0, 1)) == 2
    assert board.number_at(Vertex(1, 0)) == 0
    assert board.number_at(Vertex(1, 1)) == 2
    assert board.number_at(Vertex(2, 2)) is None
    assert set(board.open_cells()) == {D(-1, 0), D(0, -1), U(1, 0), U(0, 1)}


# --- counting legal placements -----------------------------------------------------------


def spot(cell: Cell) -> reference.Spot:
    return (cell.x, cell.y, bool(cell.up))


def engine_placements(board: Board, rack: Iterable[Tile]) -> set[reference.RefPlacement]:
    """The engine's legal placements, in the reference's terms; checks both listings."""
    mask = board.tile_set.mask(rack)
    tiles = board.tile_set.tiles
    found = [
        reference.RefPlacement(tiles[tile], spot(Cell.from_id(cell)), corners, FIGURES[figure])
        for cell, tile, corners, figure in board.placement_ids(mask)
    ]
    assert len(set(found)) == len(found), "the engine listed a placement twice"
    listed = board.legal_placements(mask)
    assert sorted((p.tile, spot(p.cell), p.corners) for p in listed) == sorted(
        (p.tile, p.cell, p.corners) for p in found
    )
    return set(found)


def remaining(board: Board) -> list[Tile]:
    on_table = {placement.tile for placement in board}
    return [tile for tile in board.tile_set if tile not in on_table]


def random_walk(
    board: Board, rng: random.Random, *, pop_below: float, swap_below: float
) -> Iterator[str]:
    """Up to 59 random steps on ``board``, each named once made: ``pop`` (take back the
    last move), ``swap`` (take the joker back) or ``push`` (lay a tile still off the
    table); a draw of the random number below ``pop_below`` pops, below ``swap_below``
    swaps when a swap is possible. Stops early when no tile fits."""
    for _ in range(rng.randrange(1, 60)):
        off_table = board.tile_set.mask(remaining(board))
        swaps = list(board.joker_swaps(off_table))
        roll = rng.random()
        if len(board) and roll < pop_below:
            board.pop()
            yield "pop"
        elif swaps and roll < swap_below:
            board.swap_joker(*rng.choice(swaps))
            yield "swap"
        else:
            options = board.legal_placements(off_table)
            if not options:
                return
            board.push(rng.choice(options))
            yield "push"


def check_against_reference(board: Board, rack: Iterable[Tile]) -> int:
    rack = list(rack)
    expected = reference.legal_placements(board, rack)
    assert engine_placements(board, rack) == expected
    mask = board.tile_set.mask(rack)
    assert board.can_place(mask) == bool(expected)
    assert board.fitting_tiles(mask) == board.tile_set.mask({p.tile for p in expected})
    for placement in expected:
        assert board.is_legal(Placement(placement.tile, Cell(*placement.cell), placement.corners))
    return len(expected)


@pytest.mark.parametrize(("tile_set", "count"), [(CLASSIC, 156), (EXTENDED, 216)])
def test_empty_board_every_rotation_of_every_tile_on_the_origin(
    tile_set: TileSet, count: int
) -> None:
    # classic: 6 triples x 1 + 30 tiles with a pair x 3 + 20 with three numbers x 3
    board = Board(tile_set)
    assert check_against_reference(board, tile_set) == count


def test_counts_after_a_triple_five() -> None:
    board = Board(CLASSIC)
    board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    # Only x-5-5 fits, once per open cell: 5 tiles x 3 cells.
    assert check_against_reference(board, remaining(board)) == 15
    rack = [Tile(4, 5, 5), Tile(0, 5, 5), Tile(0, 1, 2), Tile(4, 4, 5)]
    assert check_against_reference(board, rack) == 6


@pytest.mark.parametrize(("tile_set", "count"), [(CLASSIC, 9), (EXTENDED, 18)])
def test_counts_after_0_1_2(tile_set: TileSet, count: int) -> None:
    # Open cells read (1, _, 2), (_, 1, 0), (0, 2, _) clockwise. Classic: 1-1-2, 1-2-2;
    # 0-0-1, 0-1-1; 0-0-2, 0-2-2, 0-2-3, 0-2-4, 0-2-5. Extended: six numbers per cell.
    board = Board(tile_set)
    board.push(Placement(Tile(0, 1, 2), ORIGIN, (0, 1, 2)))
    assert check_against_reference(board, remaining(board)) == count


@pytest.mark.parametrize("shape", [HEXAGON, BRIDGE, DOUBLE_HEXAGON, TWO_SIDES, triple_hexagon()])
def test_counts_around_figures_match_the_reference(shape: tuple[list[Cell], Cell]) -> None:
    board, cell = shape_board(shape)
    assert check_against_reference(board, remaining(board)) > 0
    assert check_against_reference(board, remaining(board)[::7]) >= 0
    figures = {
        p.figure for p in reference.legal_placements(board, remaining(board)) if p.cell == cell
    }
    assert figures == {board.figure(cell)}


def grow(tile_set: TileSet, seed: int, size: int) -> Board:
    """A board of ``size`` tiles, each chosen by the reference among the legal ones."""
    rng = random.Random(seed)
    board = Board(tile_set)
    for _ in range(size):
        options = sorted(reference.legal_placements(board, remaining(board)))
        if not options:
            break
        figures = [p for p in options if p.figure is not None]
        chosen = rng.choice(figures if figures and rng.random() < 0.6 else options)
        board.push(Placement(chosen.tile, Cell(*chosen.cell), chosen.corners))
    return board


@pytest.mark.parametrize("tile_set", [CLASSIC, EXTENDED])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_counts_from_grown_positions_match_the_reference(tile_set: TileSet, seed: int) -> None:
    board = grow(tile_set, seed, 24)
    assert len(board) > 10
    rest = remaining(board)
    check_against_reference(board, rest)
    rng = random.Random(seed)
    for _ in range(4):
        check_against_reference(board, rng.sample(rest, 9))


# --- best placement --------------------------------------------------------------------


def check_best(board: Board, rack: int, rules: Rules) -> None:
    points = rules.figure_points
    best = board.best_placement(rack, points)
    scored = [
        (board.tile_set.values[tile] + points[figure], cell)
        for cell, tile, _, figure in board.placement_ids(rack)
    ]
    if not scored:
        assert best is None
        return
    assert best is not None
    cell, tile, corners, figure = best
    top = max(s for s, _ in scored)
    assert board.tile_set.values[tile] + points[figure] == top
    assert cell == min(c for s, c in scored if s == top)  # ties: the lower cell id
    assert rack >> tile & 1
    placement = Placement(board.tile_set.tiles[tile], Cell.from_id(cell), corners)
    assert board.is_legal(placement)
    assert FIGURES[figure] == board.figure(placement.cell)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_best_placement_is_the_best_legal_placement(seed: int) -> None:
    rng = random.Random(seed)
    for tile_set in (CLASSIC, EXTENDED):
        board = grow(tile_set, seed, 20)
        rest = board.tile_set.mask(remaining(board))
        for rules in (Rules(), Rules(two_sides_bonus=40, bridge_bonus=5)):
            check_best(board, rest, rules)
            for _ in range(5):
                check_best(board, board.tile_set.mask(rng.sample(remaining(board), 6)), rules)


def test_best_placement_takes_the_figure_over_a_bigger_tile() -> None:
    board, cell = shape_board(HEXAGON)
    placement = placement_for(cell)
    rest = remaining(board)
    rack = EXTENDED.mask([placement.tile, *[t for t in rest if t.value == 15]])
    best = board.best_placement(rack, Rules().figure_points)
    assert best is not None
    assert Cell.from_id(best[0]) == cell and FIGURES[best[3]] == "hexagon"
    assert board.best_placement(0, Rules().figure_points) is None


# --- push and pop --------------------------------------------------------------------


Snapshot = tuple[object, ...]


def snapshot(board: Board) -> Snapshot:
    return (
        list(board),
        dict(board._frontier),
        bytes(board._numbers),
        bytes(board._counts),
        bytes(board._edges),
        dict(board._occupant),
        set(board.open_cells()),
        set(board.legal_placements(board.tile_set.full_mask)),
    )


def test_push_pop_restores_everything() -> None:
    board = grow(EXTENDED, 7, 15)
    before = snapshot(board)
    options = board.legal_placements(EXTENDED.mask(remaining(board)))
    assert options
    for placement in options[::5]:
        board.push(placement)
        assert board.last == placement
        assert board.pop() == placement
        assert snapshot(board) == before


def test_pop_all_back_to_an_empty_board() -> None:
    empty = snapshot(Board(CLASSIC))
    board = grow(CLASSIC, 8, 20)
    laid = list(board)
    popped = [board.pop() for _ in range(len(board))]
    assert popped == laid[::-1]
    assert snapshot(board) == empty
    assert board.open_cells() == [ORIGIN]
    with pytest.raises(IndexError):
        board.pop()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([CLASSIC, EXTENDED]))
def test_random_push_pop_sequences_agree_with_the_reference(seed: int, tile_set: TileSet) -> None:
    rng = random.Random(seed)
    board = Board(tile_set)
    history: list[Snapshot] = []
    for _ in range(rng.randrange(1, 30)):
        rest = remaining(board)
        rack = rng.sample(rest, min(len(rest), 12))
        options = sorted(reference.legal_placements(board, rack))
        assert engine_placements(board, rack) == set(options)
        if not options:
            break
        history.append(snapshot(board))
        chosen = rng.choice(options)
        assert board.push(Placement(chosen.tile, Cell(*chosen.cell), chosen.corners)) == (
            chosen.figure
        )
        if rng.random() < 0.3:
            board.pop()
            assert snapshot(board) == history.pop()
    while history:
        board.pop()
        assert snapshot(board) == history.pop()
    assert len(board) == 0


def check_live(board: Board) -> None:
    """The live frontier holds every open cell where a tile off the table fits, with the
    FitTable mask of the cell's key (cells where none fits may linger)."""
    masks = board.tile_set.fits.masks
    off_table = board.tile_set.mask(remaining(board))
    assert board._unplaced == off_table
    for cell, mask in board._live.items():
        assert mask == masks[board._frontier[cell]]
    for cell, key in board._frontier.items():
        assert cell in board._live or not masks[key] & off_table


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([CLASSIC, EXTENDED, JUNIOR]))
def test_the_live_frontier_survives_pushes_pops_and_joker_swaps(
    seed: int, tile_set: TileSet
) -> None:
    """best_placement, can_place and fitting_tiles look only at the live cells; a pop
    gives back the live frontier as it was."""
    rng = random.Random(seed)
    board = Board(tile_set)
    before: list[dict[int, int]] = []
    live = dict(board._live)
    for step in random_walk(board, rng, pop_below=0.3, swap_below=0.5):
        if step == "pop":
            assert board._live == before.pop()
        else:
            before.append(live)
        live = dict(board._live)
        check_live(board)
        rest = remaining(board)
        for rack in (tile_set.mask(rest), tile_set.mask(rng.sample(rest, min(len(rest), 6)))):
            check_best(board, rack, Rules())
            fitting = [tile for _, tile, _, _ in board.placement_ids(rack)]
            assert board.can_place(rack) == bool(fitting)
            assert board.fitting_tiles(rack) == sum({1 << tile for tile in fitting})


def test_taking_back_the_first_tile_reopens_the_origin_only() -> None:
    board = Board(CLASSIC)
    board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    assert ORIGIN not in board.open_cells()
    board.pop()
    assert board.open_cells() == [ORIGIN]
    assert len(board) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([CLASSIC, EXTENDED, JUNIOR]))
def test_a_board_gone_leaves_its_arrays_zeroed_for_the_next(seed: int, tile_set: TileSet) -> None:
    """A new board takes the arrays of one that went away (pushed, popped and with the
    joker swapped at random): they must be as zeroed as fresh ones."""
    rng = random.Random(seed)
    board_module._SPARE_ARRAYS.clear()
    board = Board(tile_set)
    for _ in random_walk(board, rng, pop_below=0.2, swap_below=0.4):
        pass
    arrays = (board._numbers, board._counts, board._edges)
    del board
    fresh = Board(tile_set)
    assert all(
        ours is theirs
        for ours, theirs in zip((fresh._numbers, fresh._counts, fresh._edges), arrays, strict=True)
    )
    assert fresh._numbers == fresh._counts == bytes(VERTEX_IDS)
    assert fresh._edges == bytes(CELL_IDS)
    assert snapshot(fresh) == snapshot(Board(tile_set))


def test_boards_kept_alive_never_share_arrays() -> None:
    boards = [grow(CLASSIC, seed, 10) for seed in range(6)]
    arrays = {id(array) for board in boards for array in (board._numbers, board._edges)}
    assert len(arrays) == 2 * len(boards)
