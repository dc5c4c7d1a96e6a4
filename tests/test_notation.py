"""The text notation: every formatter's output parses back; bad text says where and why."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from triominos.board import Board, Placement
from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import Match
from triominos.lattice import Cell
from triominos.notation import (
    NotationError,
    cell_from_text,
    cell_to_text,
    placement_from_text,
    placement_to_text,
    position_from_text,
    position_to_text,
    tile_from_text,
    tile_to_text,
)
from triominos.rules import PRESETS
from triominos.tiles import CLASSIC, EXTENDED, Tile

numbers = st.integers(min_value=0, max_value=20)
corners = st.tuples(numbers, numbers, numbers)
tiles = st.builds(Tile, numbers, numbers, numbers)
cells = st.builds(
    Cell,
    st.integers(min_value=-128, max_value=126),
    st.integers(min_value=-128, max_value=126),
    st.booleans(),
)
placements = st.builds(lambda c, cell: Placement(Tile(*c), cell, c), corners, cells)


@given(tiles)
def test_tiles_round_trip(tile: Tile) -> None:
    text = tile_to_text(tile)
    assert text == tile.name
    assert tile_from_text(text) == tile


@given(cells)
def test_cells_round_trip(cell: Cell) -> None:
    assert cell_from_text(cell_to_text(cell)) == cell


@given(placements)
def test_placements_round_trip(placement: Placement) -> None:
    text = placement_to_text(placement)
    assert placement_from_text(text) == placement
    assert placement_to_text(placement_from_text(text)) == text


def test_the_forms_of_the_notation() -> None:
    assert (
        tile_from_text("012") == tile_from_text("0-1-2") == tile_from_text("1-2-0") == Tile(0, 1, 2)
    )
    assert tile_from_text("10-4-5") == Tile(4, 5, 10)
    assert cell_to_text(Cell(0, 0, True)) == "0,0^"
    assert cell_to_text(Cell(-1, 2, False)) == "-1,2v"
    placement = placement_from_text("545@0,0v")
    assert placement == Placement(Tile(4, 5, 5), Cell(0, 0, False), (5, 4, 5))
    assert placement_to_text(Placement(Tile(4, 5, 10), Cell(3, -2, True), (10, 4, 5))) == (
        "10-4-5@3,-2^"
    )
    assert placement_from_text("5-4-5@0,0v") == placement


def test_a_position_is_the_placements_in_order() -> None:
    board = position_from_text("555@0,0^ 545@0,0v")
    assert [placement_to_text(p) for p in board] == ["555@0,0^", "545@0,0v"]
    assert position_to_text(board) == "555@0,0^ 545@0,0v"
    assert len(position_from_text("")) == 0
    assert position_to_text(Board(CLASSIC)) == ""
    assert position_to_text(position_from_text("  555@0,0^   545@0,0v ")) == "555@0,0^ 545@0,0v"


@pytest.mark.parametrize("preset", ["classic", "extended"])
@pytest.mark.parametrize("seed", range(4))
def test_positions_of_played_hands_round_trip(preset: str, seed: int) -> None:
    match = Match(PRESETS[preset].rules, 2 + seed, seed)
    bots: list[Bot] = [
        RandomBot(seed),
        GreedyBot(),
        RandomBot(seed + 1),
        GreedyBot(),
        RandomBot(seed + 2),
    ]
    while len(match.hands) < 3 and not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
    for hand in match.hands:
        text = position_to_text(hand.board)
        assert text.count("@") == len(hand.board)
        board = position_from_text(text, hand.tile_set)
        assert list(board) == list(hand.board)
        assert position_to_text(board) == text


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (tile_from_text, "", "column 1 of '': expected a number, found the end"),
        (tile_from_text, "0-1", "column 4 of '0-1': expected '-' before the third number"),
        (tile_from_text, "0-x-2", "column 3 of '0-x-2': expected the second number, found 'x'"),
        (tile_from_text, "01", "column 1 of '01': expected three numbers like 0-1-2 or 012"),
        (tile_from_text, "0123", "column 1 of '0123': expected three numbers like 0-1-2 or 012"),
        (tile_from_text, "012 ", "column 4 of '012 ': expected the end of the tile, found ' '"),
        (cell_from_text, "0,0", "column 4 of '0,0': expected '^' (up) or 'v' (down) after"),
        (cell_from_text, "0;0^", "column 2 of '0;0^': expected ',' between the cell's x and y"),
        (cell_from_text, "-,0^", "column 2 of '-,0^': expected the cell's x, a whole number"),
        (cell_from_text, "0,0^^", "column 5 of '0,0^^': expected the end of the cell, found '^'"),
        (cell_from_text, "300,0^", "column 1 of '300,0^': (300, 0) is outside the board"),
        (placement_from_text, "545 0,0v", "column 4 of '545 0,0v': expected '@' between the"),
        (placement_from_text, "545@0,0", "column 8 of '545@0,0': expected '^' (up) or 'v'"),
        (placement_from_text, "@0,0v", "column 1 of '@0,0v': expected a number, found '@'"),
        (position_from_text, "555@0,0^,545@0,0v", "column 9 of '555@0,0^,545@0,0v': expected ' '"),
    ],
)
def test_parse_errors_say_what_was_expected_where(
    parse: Callable[[str], object], text: str, message: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert str(caught.value).startswith(message)
    assert caught.value.text == text


def test_a_tile_of_another_set_is_named() -> None:
    assert tile_from_text("021", EXTENDED) == Tile(0, 2, 1)
    with pytest.raises(NotationError, match="0-2-1 is not a tile of the classic set"):
        tile_from_text("021", CLASSIC)


@pytest.mark.parametrize(
    ("text", "number", "column", "rule"),
    [
        ("555@1,0^", 1, 1, "first_tile_on_origin"),
        ("555@0,0^ 545@4,4v", 2, 10, "edge_contact"),
        ("555@0,0^ 145@0,0v", 2, 10, "matching_corners"),
        ("555@0,0^ 545@0,0v 455@0,0v", 3, 19, "empty_cell"),
        ("012@0,0^ 021@0,0v", 2, 10, "tile_set"),
    ],
)
def test_an_illegal_position_names_the_placement_and_the_rule(
    text: str, number: int, column: int, rule: str
) -> None:
    with pytest.raises(NotationError) as caught:
        position_from_text(text)
    error = caught.value
    assert (error.column, error.rule) == (column, rule)
    assert f"placement {number} (" in error.message
    assert error.message.endswith(f"(rule {rule})")


def test_the_same_position_is_legal_with_the_extended_set() -> None:
    board = position_from_text("012@0,0^ 102@0,0v", EXTENDED)
    assert board.last == Placement(Tile(0, 2, 1), Cell(0, 0, False), (1, 0, 2))
    assert position_to_text(board) == "012@0,0^ 102@0,0v"
