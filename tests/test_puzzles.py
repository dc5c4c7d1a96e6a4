"""Puzzles as values: one JSON line each, checked when read; the explanation; a set's
puzzle of the day and the next puzzle near a rating."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from puzzle_cases import made_puzzles, position
from triominos.board import Placement
from triominos.game import Draw, Event, Observation
from triominos.glicko import Rating
from triominos.lattice import Cell
from triominos.puzzles import (
    Puzzle,
    PuzzleError,
    PuzzleSet,
    Reason,
    explain,
    load,
    obvious_move,
)
from triominos.tiles import Tile

# Seat 0 holds 3-4-5, 2-4-5 and 0-0-0 beside 5-5-5 and 4-5-5: 3-4-5 scores 12 where
# 2-4-5 scores 11, on the one cell where either fits.
RACK = ["3-4-5", "2-4-5", "0-0-0"]
OBVIOUS = Placement(Tile(3, 4, 5), Cell(0, 1, True), (5, 3, 4))
QUIETER = Placement(Tile(2, 4, 5), Cell(0, 1, True), (5, 2, 4))


def a_puzzle(solution: Placement | Draw = QUIETER) -> Puzzle:
    observation = position(RACK, ["1-1-1", "0-1-2"])
    return Puzzle(
        observation, solution, OBVIOUS, 9.25, explain(observation, solution, OBVIOUS, 9.25)
    )


def test_the_obvious_move_is_the_highest_scoring_placement() -> None:
    assert obvious_move(position(RACK, ["1-1-1"])) == OBVIOUS


def test_a_puzzle_is_one_json_line_and_reads_back_equal() -> None:
    puzzle = a_puzzle()
    line = puzzle.to_json()
    assert "\n" not in line
    data = json.loads(line)
    assert data["solution"] == "524@0,1^" and data["obvious"] == "534@0,1^"
    assert data["id"] == puzzle.id and data["margin"] == 9.25
    assert data["rating"] == {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06}
    again = Puzzle.from_json(line)
    assert again == puzzle and again.to_json() == line


def test_the_draw_is_a_solution_written_draw() -> None:
    puzzle = a_puzzle(Draw())
    assert json.loads(puzzle.to_json())["solution"] == "draw"
    assert Puzzle.from_json(puzzle.to_json()).solution == Draw()
    assert [reason.key for reason in puzzle.explanation] == ["worth", "draws", "keeps_back"]


def test_the_id_is_the_positions_alone() -> None:
    assert a_puzzle().id == a_puzzle(Draw()).id
    other = position(RACK, ["1-1-2", "0-2-4"])  # their rack is hidden: the same position
    assert other.to_text() == a_puzzle().position


def test_the_explanation_says_what_each_move_scores_and_the_tile_kept_back_that_fits() -> None:
    # 2-4-5 takes the one cell where 3-4-5 fits: keeping 3-4-5 back is no reason.
    assert a_puzzle().explanation == (
        Reason("worth", {"solution": 11, "obvious": 12, "margin": 9.2}),
    )
    # Drawing leaves the cell free, and the 3-4-5 still scores 12 there afterwards.
    assert a_puzzle(Draw()).explanation[1:] == (
        Reason("draws", {"points": -5}),
        Reason("keeps_back", {"tile": "3-4-5", "points": 12}),
    )


def test_a_move_that_scores_as_much_now_as_the_obvious_one_is_no_solution() -> None:
    """The prompt promises a move better than the one that scores the most now: a move
    that scores as much is a second obvious move, not the answer to a puzzle."""
    data = json.loads(a_puzzle().to_json())
    tied = position(RACK, ["1-1-1"], board=("555@0,0^", "545@0,0v", "455@-1,0v"))
    placements = [option for option in tied.legal_actions() if option.points == 12]
    assert len(placements) >= 2, "two placements score the most here"
    obvious = obvious_move(tied)
    other = next(option.action for option in placements if option.action != obvious)
    with pytest.raises(PuzzleError, match="scores less now") as raised:
        Puzzle(tied, other, obvious, 20.0, ())
    assert raised.value.field == "solution"
    assert data["solution"] == "524@0,1^"


# Two positions from greedy games (seeds 1 to 400, the fewest tiles on the board).
SETS_UP = (
    "rules=classic;seat=0;players=2;hand=1;phase=play;to_move=0;starter=1;"
    "board=222@0,0^ 322@-1,0v 352@-1,1^ 502@-1,1v;"
    "rack=0-0-2 0-2-2 0-1-4 0-2-3 1-2-4 1-2-5 3-3-5;rack_sizes=7,13;pool=32;draws=0;"
    "points=17,-17;totals=17,-17;end=-;history=1:place:16:2-2-2:0,0^:2.2.2:opening_triple=10 "
    "0:place:7:2-2-3:-1,0v:3.2.2 1:draw:-5 1:draw:-5 1:draw:-5 1:pass:-10 "
    "0:place:10:2-3-5:-1,1^:3.5.2 1:draw:-5 1:draw:-5 1:draw:-5 1:place:7:0-2-5:-1,1v:5.0.2;"
    "open_racks=-;gong=-"
)
DENIES = (
    "rules=classic;seat=1;players=2;hand=1;phase=play;to_move=1;starter=1;"
    "board=444@0,0^ 344@-1,0v 445@0,-1v 145@0,-1^;"
    "rack=0-1-2 1-1-2 1-2-2 0-4-4 1-2-5 2-3-3 3-3-4;rack_sizes=10,7;pool=35;draws=0;"
    "points=6,35;totals=6,35;end=-;history=1:place:22:4-4-4:0,0^:4.4.4:opening_triple=10 "
    "0:draw:-5 0:draw:-5 0:draw:-5 0:place:11:3-4-4:-1,0v:3.4.4 1:place:13:4-4-5:0,-1v:4.4.5 "
    "0:place:10:1-4-5:0,-1^:1.4.5;open_racks=-;gong=-"
)


def test_the_explanation_names_the_bonus_a_move_sets_up() -> None:
    """0-2-2 laid on 0,0v makes 0,1^ the last cell of a hexagon, which 0-0-2, kept in the
    rack, fits; after 3-3-5 (11 points) the rack completes no bonus."""
    observation = Observation.from_text(SETS_UP)
    solution = Placement(Tile(0, 2, 2), Cell(0, 0, False), (2, 0, 2))
    obvious = obvious_move(observation)
    assert obvious == Placement(Tile(3, 3, 5), Cell(-2, 1, False), (3, 5, 3))
    assert explain(observation, solution, obvious, 6.0) == (
        Reason("worth", {"solution": 4, "obvious": 11, "margin": 6.0}),
        Reason(
            "sets_up",
            {
                "tile": "0-0-2",
                "bonus": "hexagon",
                "points": 50,
                "cell": [0, 1, "up"],
                "where": {"beside": ["0-2-5", "0-2-2"], "side": None},
            },
        ),
        Reason("keeps_back", {"tile": "3-3-5", "points": 11}),
    )


def test_the_explanation_names_the_bonus_the_obvious_move_gives_away() -> None:
    """3-3-4 on -1,0^ (10 points) makes -1,-1v the last cell of a hexagon, which a tile
    seat 1 has not seen fits; after 0-4-4 on 0,0v no unseen tile completes one as big."""
    observation = Observation.from_text(DENIES)
    solution = Placement(Tile(0, 4, 4), Cell(0, 0, False), (4, 0, 4))
    obvious = obvious_move(observation)
    assert obvious == Placement(Tile(3, 3, 4), Cell(-1, 0, True), (3, 3, 4))
    gives_away = Reason(
        "gives_away",
        {
            "bonus": "hexagon",
            "points": 50,
            "cell": [-1, -1, "down"],
            "where": {"beside": ["1-4-5", "3-3-4"], "side": None},
        },
    )
    assert gives_away in explain(observation, solution, obvious, 6.0)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda data: data | {"solution": "555@9,9^"}, "solution", "not a legal choice"),
        (lambda data: data | {"solution": "534@0,1^"}, "solution", "scores less now"),
        (lambda data: data | {"obvious": "524@0,1^"}, "obvious", "highest-scoring"),
        (lambda data: data | {"obvious": "draw"}, "obvious", "is a placement"),
        (lambda data: data | {"solution": "5x@"}, "solution", "column"),
        (lambda data: data | {"position": "rules=classic"}, "position", "missing field"),
        (lambda data: data | {"margin": "big"}, "margin", "not a number"),
        (lambda data: data | {"id": "abc"}, "id", "not this position's id"),
        (
            lambda data: data | {"rating": {"rating": 1500, "deviation": 0, "volatility": 0.06}},
            "rating",
            "deviation",
        ),
        (
            lambda data: data | {"explanation": [{"key": "luck", "params": {}}]},
            "explanation",
            "unknown reason",
        ),
        (lambda data: data | {"explanation": ["luck"]}, "explanation", "key, params"),
        (lambda data: [data], "", "a JSON object"),
    ],
)
def test_a_broken_puzzle_says_which_field_and_why(
    change: Callable[[dict[str, Any]], object], field: str, words: str
) -> None:
    data = json.loads(a_puzzle().to_json())
    with pytest.raises(PuzzleError, match=words) as raised:
        Puzzle.from_json(json.dumps(change(data)))
    assert raised.value.field == field


def test_a_position_that_shows_more_than_the_seat_may_see_is_no_puzzle() -> None:
    observation = position(RACK, ["1-1-1", "0-1-2"])
    spectator = observation._replace(seat=None)
    their_draw = observation._replace(history=(Event(1, "draw", -5, Tile(1, 1, 1)),))
    open_racks = observation._replace(open_racks=(0, 0))
    not_mine = observation._replace(to_move=1)
    for shown, words in [
        (spectator, "spectator"),
        (their_draw, "drawn tile is shown"),
        (open_racks, "no rack but the seat's own"),
        (not_mine, "the seat's turn"),
    ]:
        with pytest.raises(PuzzleError, match=words):
            Puzzle(shown, QUIETER, OBVIOUS, 5.0, ())


def test_not_json_and_a_bad_line_are_named() -> None:
    with pytest.raises(PuzzleError, match="not JSON"):
        Puzzle.from_json("{")
    good = a_puzzle().to_json()
    with pytest.raises(PuzzleError, match="line 3"):
        load([good, "", "[]"])


def test_the_puzzle_of_the_day_is_the_dates_and_changes_with_it() -> None:
    puzzles = PuzzleSet(made_puzzles(30))
    day = datetime.date(2026, 12, 1)
    assert puzzles.daily(day) == PuzzleSet(list(puzzles.puzzles)).daily(day)
    days = {puzzles.daily(day + datetime.timedelta(days=n)).id for n in range(20)}
    assert len(days) > 5


def test_the_next_puzzle_is_near_the_rating_and_never_one_tried() -> None:
    made = made_puzzles(12)
    rated = [
        Puzzle(
            p.observation, p.solution, p.obvious, p.margin, p.explanation, Rating(1000 + 100 * n)
        )
        for n, p in enumerate(made)
    ]
    puzzles = PuzzleSet(rated)
    rng = random.Random(1)
    chosen = [puzzles.near(1500, {}, (), rng, spread=3) for _ in range(40)]
    assert {puzzle.rating.rating for puzzle in chosen if puzzle} == {1400, 1500, 1600}
    # A rating that moved on the server counts, not the shipped one.
    moved = {rated[0].id: Rating(1500)}
    assert puzzles.near(1500, moved, {rated[5].id}, rng, spread=1) == rated[0]
    assert puzzles.near(1500, {}, {p.id for p in rated}, rng) is None


def test_a_set_refuses_the_same_position_twice() -> None:
    with pytest.raises(PuzzleError, match="twice"):
        PuzzleSet([a_puzzle(), a_puzzle(Draw())])


def test_the_observation_of_a_puzzle_is_the_seats() -> None:
    observation: Observation = a_puzzle().observation
    assert observation.seat == 0 and observation.rack_sizes == (3, 2)
