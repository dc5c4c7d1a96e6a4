"""Puzzle positions for the tests: made by hand, and puzzles made from greedy games
(their "solutions" are any placement that scores less now than greedy's: the server and
the page check an answer against the solution, whoever found it)."""

from __future__ import annotations

from collections.abc import Sequence

from triominos import CLASSIC
from triominos.board import Board, Placement
from triominos.bots import GreedyBot
from triominos.game import Hand, Match, Observation, observe
from triominos.notation import move_from_text, tile_from_text
from triominos.puzzles import Puzzle, explain, obvious_move, scores_less
from triominos.rules import preset


def position(
    rack: Sequence[str],
    other: Sequence[str],
    board: Sequence[str] = ("555@0,0^", "545@0,0v"),
) -> Observation:
    """Seat 0 of a classic two-player hand to move: ``board`` laid, ``rack`` its tiles,
    ``other`` the opponent's (hidden from seat 0), every other tile in the pool."""
    laid = Board(CLASSIC)
    for move in board:
        laid.push(move_from_text(move, laid))  # type: ignore[arg-type]
    mine = CLASSIC.mask(tile_from_text(name) for name in rack)
    theirs = CLASSIC.mask(tile_from_text(name) for name in other)
    used = mine | theirs | CLASSIC.mask(placement.tile for placement in laid)
    pool = [index for index in range(len(CLASSIC.tiles)) if not used >> index & 1]
    hand = Hand.resume(preset("classic").rules, laid, [mine, theirs], pool, to_move=0, starter=0)
    return observe(hand, 0)


def made_puzzles(count: int, seed: int = 1) -> list[Puzzle]:
    """``count`` puzzles from greedy games, each a position where two placements differ
    in points: the solution is the first legal placement that scores less than greedy's."""
    puzzles: list[Puzzle] = []
    bot = GreedyBot()
    while len(puzzles) < count:
        match = Match.from_preset("classic", players=2, seed=seed)
        seed += 1
        for _ in range(12):  # the early turns, where there is room to choose
            if match.is_over:
                break
            observation = match.observe(match.to_move)
            if observation.phase == "play" and len(puzzles) < count:
                placements = [
                    option.action
                    for option in observation.legal_actions()
                    if isinstance(option.action, Placement)
                ]
                obvious = obvious_move(observation) if placements else None
                quieter = [
                    m for m in placements if obvious and scores_less(observation, m, obvious)
                ]
                if obvious and quieter:
                    reasons = explain(observation, quieter[0], obvious, 7.5)
                    puzzles.append(Puzzle(observation, quieter[0], obvious, 7.5, reasons))
            match.apply(bot.act(observation))
    return puzzles
