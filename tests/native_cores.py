"""The two cores side by side in one process, for the differential tests (test_native_*.py).

:data:`PythonBoard` and :data:`NativeBoard` are :class:`~triominos.board.Board` with its
hot paths taken from one core each, whichever core the process runs on
(``TRIOMINOS_NATIVE=0`` included: the extension is compared whenever it is built).
:func:`running_on` switches a whole process's boards, for comparing games and bots.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from triominos import native
from triominos.board import PYTHON_PATHS, Board

BUILT = importlib.util.find_spec("triominos._board") is not None
needs_native = pytest.mark.skipif(
    not BUILT,
    reason="the native core is not built (no C compiler or Python headers at install; "
    "make test builds it)",
)


def _paths(core: str) -> dict[str, Any]:
    if core == "python":
        return dict(PYTHON_PATHS)
    module = importlib.import_module("triominos._board")
    return {name: getattr(module, name) for name in native.BOARD_PATHS}


PythonBoard: type[Board] = type("PythonBoard", (Board,), _paths("python"))
NativeBoard: type[Board] | None = type("NativeBoard", (Board,), _paths("native")) if BUILT else None


@contextmanager
def running_on(core: str) -> Iterator[None]:
    """Every board of the process runs on ``core`` ("python" or "native") meanwhile."""
    saved = {name: Board.__dict__[name] for name in native.BOARD_PATHS}
    for name, function in _paths(core).items():
        setattr(Board, name, function)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(Board, name, function)


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
