"""The text notation: every formatter's output parses back; bad text says where and why."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import junior_games
from triominos.board import Board, Placement
from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import Match, TakeJoker
from triominos.lattice import ORIGIN, Cell, Vertex
from triominos.notation import (
    NotationError,
    cell_from_text,
    cell_to_text,
    joker_corners,
    move_from_text,
    move_to_text,
    placement_from_text,
    placement_to_text,
    position_from_text,
    position_to_text,
    take_joker_from_text,
    take_joker_to_text,
    tile_from_text,
    tile_to_text,
)
from triominos.rules import PRESETS
from triominos.tiles import CLASSIC, EXTENDED, JOKER, JUNIOR, WILD, Tile

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


# --- Triominos Junior: the joker and taking it back ----------------------------------


def test_the_joker_is_the_tile_j() -> None:
    assert tile_to_text(JOKER) == "J"
    assert tile_from_text("J") == tile_from_text("j") == JOKER
    assert tile_from_text("J", JUNIOR) == JOKER
    with pytest.raises(NotationError, match="J is not a tile of the classic set"):
        tile_from_text("J", CLASSIC)


def test_a_joker_placement_takes_its_corners_from_the_board() -> None:
    board = position_from_text("355@0,0^", JUNIOR)
    placement = placement_from_text("J@0,0v", board)
    assert placement == Placement(JOKER, Cell(0, 0, False), (5, WILD, 5))
    assert placement_to_text(placement) == "J@0,0v"
    assert placement_from_text("j@0,0v", board) == placement
    assert move_from_text("J@0,0v", board) == placement
    assert joker_corners(board, Cell(1, 0, True)) == (5, WILD, WILD)
    assert joker_corners(Board(JUNIOR), ORIGIN) == (WILD, WILD, WILD)


def test_a_joker_placement_needs_the_board() -> None:
    with pytest.raises(NotationError) as caught:
        placement_from_text("J@0,1v")
    assert str(caught.value) == (
        "column 1 of 'J@0,1v': a joker's corners are the numbers at its cell's vertices: "
        "reading 'J@0,1v' needs the board it goes on"
    )


def test_taking_the_joker_back_round_trips() -> None:
    take = take_joker_from_text("312@J")
    assert take == TakeJoker(Tile(1, 2, 3), (3, 1, 2))
    assert take_joker_to_text(take) == move_to_text(take) == "312@J"
    assert move_from_text("312@j") == take
    assert move_to_text(placement_from_text("545@0,0v")) == "545@0,0v"


@given(corners)
def test_every_take_joker_round_trips(numbers: tuple[int, int, int]) -> None:
    take = TakeJoker(Tile(*numbers), numbers)
    assert take_joker_from_text(take_joker_to_text(take)) == take
    assert move_from_text(move_to_text(take)) == take


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (take_joker_from_text, "312@", "column 5 of '312@': expected 'J', the joker to take back"),
        (take_joker_from_text, "312@0,0v", "column 5 of '312@0,0v': expected 'J', the joker"),
        (take_joker_from_text, "312@JJ", "column 6 of '312@JJ': expected the end of the take-j"),
        (take_joker_from_text, "J@J", "column 1 of 'J@J': expected a number, found 'J'"),
        (move_from_text, "312@Jv", "column 6 of '312@Jv': expected the end of the move"),
        (move_from_text, "J0,0v", "column 2 of 'J0,0v': expected '@' between the joker and"),
        (placement_from_text, "312@J", "column 5 of '312@J': expected the cell's x, a whole"),
        (tile_from_text, "J-1-2", "column 2 of 'J-1-2': expected the end of the tile, found '-'"),
    ],
)
def test_junior_parse_errors_say_what_was_expected_where(
    parse: Callable[[str], object], text: str, message: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert str(caught.value).startswith(message)


def test_a_junior_position_with_the_joker_round_trips() -> None:
    text = "355@0,0^ J@0,0v 551@1,0^"
    board = position_from_text(text, JUNIOR)
    assert position_to_text(board) == text
    assert board.joker_cell == Cell(0, 0, False)
    assert board.number_at(Vertex(1, 1)) == 5  # the joker's free corner, numbered since
    with pytest.raises(NotationError) as caught:
        position_from_text("012@0,0^ J@0,0v")
    assert caught.value.rule == "tile_set"


@pytest.mark.parametrize("seed", range(6))
def test_positions_of_played_junior_hands_round_trip(seed: int) -> None:
    """A card that took the joker back is written where the joker was laid: the same
    table, reached legally."""
    match = junior_games.played("junior", 2 + seed % 3, seed)
    board = match.hand.board
    text = position_to_text(board)
    assert text.count("@") == len(board)
    replayed = position_from_text(text, JUNIOR)
    assert list(replayed) == list(board)
    assert position_to_text(replayed) == text


def test_a_position_after_the_joker_was_taken_back_is_legal() -> None:
    match = junior_games.first_position(
        lambda m: any(event.action == "take_joker" for event in m.hand.events)
    )
    board = match.hand.board
    assert board.joker_cell is None
    assert list(position_from_text(position_to_text(board), JUNIOR)) == list(board)
