"""The two cores side by side in one process, for the differential tests (test_native_*.py).

:data:`PythonBoard` and :data:`NativeBoard` are :class:`~triominos.board.Board` with its
hot paths taken from one core each, whichever core the process runs on
(``TRIOMINOS_NATIVE=0`` included: the extension is compared whenever it is built).
:func:`triominos.native.running_on` switches a whole process's boards, for comparing
games and bots.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from triominos import native
from triominos.board import Board
from triominos.bots import make_bot
from triominos.game import Match, Observation
from triominos.rules import Rules

needs_native = pytest.mark.skipif(
    not native.built(),
    reason="the native core is not built (no C compiler or Python headers at install; "
    "make test builds it)",
)


PythonBoard: type[Board] = type("PythonBoard", (Board,), native.paths("python"))
NativeBoard: type[Board] | None = (
    type("NativeBoard", (Board,), native.paths("native")) if native.built() else None
)


def state(board: Board) -> tuple[object, ...]:
    """Everything a board holds, with its dicts as item lists: their order counts."""
    return (
        list(board._frontier.items()),
        list(board._live.items()),
        list(board._occupant.items()),
        list(board._dropped),
        list(board._stack),
        bytes(board._numbers),
        bytes(board._counts),
        bytes(board._edges),
        board._unplaced,
        board._log,
        board._joker_cell,
        [(*swap[:4], list(swap[4].items())) for swap in board._swaps],
    )


def positions(rules: Rules, players: int, seed: int) -> Iterator[Observation]:
    """Positions of a seeded match of greedy and random players, spread over its hands:
    the seat to move's view, in play."""
    rng = random.Random(seed)
    match = Match(rules, players, seed)
    bots = [
        make_bot("greedy" if seat % 2 else "random", seed=seed + seat) for seat in range(players)
    ]
    while not match.is_over:
        seat = match.to_move
        observation = match.observe(seat)
        if observation.phase == "play" and rng.random() < 0.1:
            yield observation
        match.apply(bots[seat].act(observation), seat)
