"""Events, hand endings and places in words: the classic words, Junior's cards and
counters, and a cell named by the tiles beside it."""

from __future__ import annotations

import pytest

from triominos import CLASSIC as CLASSIC_TILES
from triominos.board import Board
from triominos.explain import (
    CLASSIC_TERMS,
    Terms,
    Where,
    describe_end,
    describe_event,
    describe_first_card,
    where,
)
from triominos.game import Event, HandEnd
from triominos.lattice import Cell
from triominos.notation import move_from_text
from triominos.rules import PRESETS
from triominos.tiles import JOKER, WILD, Tile

NAMES = ["Ann", "Bob"]
JUNIOR = PRESETS["junior"].rules
CLASSIC = PRESETS["classic"].rules


def test_terms_follow_the_edition() -> None:
    assert Terms.of(None) == Terms.of(CLASSIC) == CLASSIC_TERMS == Terms("tile", "pool", False)
    assert Terms.of(JUNIOR) == Terms("card", "pot", True)
    # The children's scoring of the classic game is still points, on tiles.
    assert Terms.of(PRESETS["classic-children"].rules) == CLASSIC_TERMS
    assert [Terms.of(JUNIOR).amount(n) for n in (-1, 0, 1, 2)] == [
        "-1 counter",
        "+0 counters",
        "+1 counter",
        "+2 counters",
    ]
    assert CLASSIC_TERMS.amount(12) == "+12"


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (Event(0, "buy", -1), "Ann buys a card: -1 counter"),
        (Event(1, "buy", -1, Tile(2, 4, 4)), "Bob buys a card (2-4-4): -1 counter"),
        (
            Event(0, "take_joker", 0, Tile(1, 2, 3), Cell(0, 1, False), (3, 1, 2)),
            "Ann takes the joker back, putting 1-2-3 in its place (312@J)",
        ),
        (
            Event(0, "place", 1, JOKER, Cell(0, 1, False), (3, WILD, 5)),
            "Ann places the joker as J@0,1v: +1 counter",
        ),
        (
            Event(1, "place", 2, Tile(1, 1, 2), Cell(0, 0, False), (1, 2, 1), (("bridge", 1),)),
            "Bob places 1-1-2 as 121@0,0v: +2 counters (bridge +1)",
        ),
        (Event(1, "pass", 0), "Bob passes: +0 counters"),
    ],
)
def test_junior_events_in_words(event: Event, words: str) -> None:
    assert describe_event(event, NAMES, JUNIOR) == words


def test_classic_events_keep_their_words() -> None:
    assert describe_event(Event(0, "draw", -5), NAMES) == "Ann draws a tile: -5"
    assert describe_event(Event(0, "draw", -5, Tile(0, 1, 2)), NAMES, CLASSIC) == (
        "Ann draws a tile (0-1-2): -5"
    )
    placement = Event(1, "place", 7, Tile(1, 2, 4), Cell(0, 0, False), (4, 1, 2))
    assert describe_event(placement, NAMES) == "Bob places 1-2-4 as 412@0,0v: +7"


def test_endings_in_words() -> None:
    nobody = (0, 0)
    last_round = HandEnd("last_round", None, nobody, ((), ()))
    assert describe_end(last_round, NAMES, JUNIOR) == (
        "the pot is empty and the last round is over; settlement: nothing"
    )
    assert describe_end(HandEnd("blocked", None, nobody, ((), ())), NAMES, JUNIOR) == (
        "the hand is blocked; settlement: nothing"
    )
    out = HandEnd("out", 1, (0, 30), ((Tile(1, 2, 3),), ()))
    assert describe_end(out, NAMES) == "Bob goes out; settlement: Bob +30"


def test_the_first_card_in_words() -> None:
    assert describe_first_card(Tile(2, 4, 4)) == "the first card, 2-4-4, lies face up as 244@0,0^"


def test_a_cell_is_named_by_the_tiles_beside_it_and_the_side_it_is_on() -> None:
    # 5-5-5 points up at 0,0; 4-5-5 points down beside it, on its right.
    board = Board(CLASSIC_TILES)
    assert where(board, Cell(0, 0, True)) == Where((), None)  # the first tile opens
    for move in ("555@0,0^", "545@0,0v", "455@-1,0v"):
        board.push(move_from_text(move, board))  # type: ignore[arg-type]
    assert where(board, Cell(0, -1, False)) == Where(("5-5-5",), "below")
    assert where(board, Cell(1, 0, True)) == Where(("4-5-5",), "right")
    assert where(board, Cell(0, 1, True)) == Where(("4-5-5",), "above")
    assert where(board, Cell(-1, 0, True)) == Where(("4-5-5",), "left")
    # A cell between two tiles (the last of a hexagon): no one side.
    hexagon = Board(CLASSIC_TILES)
    for move in ("222@0,0^", "322@-1,0v", "352@-1,1^", "502@-1,1v", "202@0,0v"):
        hexagon.push(move_from_text(move, hexagon))  # type: ignore[arg-type]
    assert where(hexagon, Cell(0, 1, True)).to_json() == {
        "beside": ["0-2-5", "0-2-2"],
        "side": None,
    }
