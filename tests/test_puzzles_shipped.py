"""The puzzles the package ships: at least 200, each one read and checked (a legal
solution that scores less now than the obvious move, as the prompt says, one seat's
information only, explained in words), and a sample solved again by the evaluation,
deterministically, at a small budget."""

from __future__ import annotations

import random

from benchmark_runs import benchmark_figures
from triominos.game import DRAWS
from triominos.puzzles import MARGIN, explain, shipped, solves


def test_at_least_200_puzzles_ship_and_every_one_is_a_puzzle() -> None:
    # Reading them checked each (Puzzle.from_json): the solution is a legal choice, the
    # obvious move the highest-scoring placement, the position a seat's turn in play.
    puzzles = shipped()
    assert len(puzzles) >= 200
    assert len(puzzles.by_id) == len(puzzles)
    for puzzle in puzzles.puzzles:
        legal = {option.action for option in puzzle.observation.legal_actions()}
        assert puzzle.solution in legal and puzzle.obvious in legal
        assert puzzle.solution != puzzle.obvious and puzzle.margin >= MARGIN
        assert puzzle.explanation[0].key == "worth"


def test_every_shipped_solution_scores_less_now_than_the_obvious_move() -> None:
    # The prompt: "clearly better than the one that scores the most now"; a solution that
    # scored as much now would be a second obvious move (27 of the first set did).
    for puzzle in shipped().puzzles:
        assert puzzle.points(puzzle.solution) < puzzle.points(puzzle.obvious), puzzle.id


def test_every_shipped_explanation_is_the_explainers_and_names_places_in_words() -> None:
    for puzzle in shipped().puzzles:
        again = explain(puzzle.observation, puzzle.solution, puzzle.obvious, puzzle.margin)
        assert puzzle.explanation == again, puzzle.id
        for reason in puzzle.explanation:
            if "cell" in reason.params:
                assert reason.params["where"]["beside"], (puzzle.id, reason)


def test_every_shipped_puzzle_shows_one_seats_information_only() -> None:
    for puzzle in shipped().puzzles:
        observation = puzzle.observation
        seat = observation.seat
        assert seat is not None and observation.rack is not None
        assert observation.open_racks is None and observation.end is None
        assert observation.rack.bit_count() == observation.rack_sizes[seat]
        for event in observation.history:
            if event.action in DRAWS and event.player != seat:
                assert event.tile is None, puzzle.id
        # The position names each tile of the rack once, and no rack but its own.
        assert puzzle.position.count(";rack=") == 1 and ";open_racks=-;" in puzzle.position


def test_a_sample_is_solved_again_at_a_small_budget() -> None:
    sample = random.Random(19).sample(shipped().puzzles, 4)
    assert all(solves(puzzle, 1000, seed=0) for puzzle in sample)


def test_the_noise_benchmark_prints_its_figures() -> None:
    figures = benchmark_figures("puzzles.py", "--puzzles", "2", "--sims", "200")
    assert list(figures) == [
        "margin difference between seeds, median",
        "margin difference between seeds, 90th percentile",
        "solution still best at both seeds",
    ]
