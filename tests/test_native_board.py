"""The native board against the Python one, state for state, on seeded random walks.

Every preset's tile set (classic, extended with its 76-bit masks, Junior with its joker)
is pushed, popped, undone and joker-swapped at random on a Python board and a native
one side by side, and after every step both must hold the same state, dict orders
included, and answer every question the same: placements in the same order, fitting
tiles, whether anything fits, the greedy move with each preset's figure points and
tile values. The presets are whatever :mod:`triominos.rules` declares.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from native_cores import NativeBoard, PythonBoard, needs_native, state
from triominos import __version__, native
from triominos.board import Board
from triominos.cli import main
from triominos.rules import PRESETS, Rules
from triominos.tiles import TileSet, indices

pytestmark = needs_native

WALKS = 12
STEPS = 90  # a hand's worth of placements and more, with pops among them


def racks(rng: random.Random, tile_set: TileSet, board: Board) -> list[int]:
    """Racks to ask about: a few of the tiles off the table, every tile off the table,
    a single tile, and some with tiles on the table too (the slower path that tests
    take), so that extended racks reach past bit 64."""
    off = list(indices(board._unplaced))
    every = list(range(len(tile_set.tiles)))
    asked = [board._unplaced, 1 << rng.choice(every), tile_set.full_mask]
    for _ in range(3):
        chosen = rng.sample(off, min(len(off), rng.randint(1, 9))) if off else []
        asked.append(sum(1 << tile for tile in chosen))
    asked.append(sum(1 << tile for tile in rng.sample(every, 7)))
    # Masks past the 128 bits the native words hold (every tile, as -1 has them): the
    # native functions hand them to the Python methods.
    asked += [asked[-1] | 1 << 130, -1]
    return asked


def same_answers(python: Board, ours: Board, rules: Rules, rack: int) -> None:
    assert list(ours.placement_ids(rack)) == list(python.placement_ids(rack))
    assert ours.fitting_tiles(rack) == python.fitting_tiles(rack)
    assert ours.can_place(rack) == python.can_place(rack)
    for values in (None, rules.tile_values):
        assert ours.best_placement(rack, rules.figure_points, values) == python.best_placement(
            rack, rules.figure_points, values
        )


def step(rng: random.Random, python: Board, ours: Board) -> bool:
    """One random change to both boards; False when the walk is stuck (nothing fits)."""
    roll = rng.random()
    if python._stack and roll < 0.25:
        assert ours.pop() == python.pop()
        return True
    if python._stack and roll < 0.3:
        assert ours.undo() == python.undo()
        return True
    swaps = list(python.joker_swaps(python._unplaced))
    assert list(ours.joker_swaps(ours._unplaced)) == swaps
    if swaps and roll < 0.5:
        tile, corners = rng.choice(swaps)
        python.swap_joker(tile, corners)
        ours.swap_joker(tile, corners)
        return True
    off = list(indices(python._unplaced))
    rack = sum(1 << tile for tile in rng.sample(off, min(len(off), 8)))
    placements = list(python.placement_ids(rack)) or list(python.placement_ids(python._unplaced))
    if not placements:
        return False
    cell, tile, corners, _ = rng.choice(placements)
    python.push_unchecked(cell, tile, corners)
    ours.push_unchecked(cell, tile, corners)
    return True


@pytest.mark.parametrize("preset", list(PRESETS))
def test_native_board_walks_like_the_python_one(preset: str) -> None:
    assert NativeBoard is not None
    rules = PRESETS[preset].rules
    rng = random.Random(f"native board {preset}")
    positions = 0
    for _ in range(WALKS):
        python, ours = PythonBoard(rules.tiles), NativeBoard(rules.tiles)
        for _ in range(STEPS):
            if not step(rng, python, ours):
                break
            assert state(ours) == state(python)
            for rack in racks(rng, rules.tiles, python):
                same_answers(python, ours, rules, rack)
            positions += 1
    assert positions > WALKS * STEPS // 2  # the walks went somewhere


def test_triominos_version_names_the_core_in_use() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.splitlines() == [f"main, version {__version__}", native.core()]


def test_triominos_native_0_switches_the_native_core_off() -> None:
    script = (
        "from triominos import board, native\n"
        "print(native.core())\n"
        "print(board.Board.pop is board.PYTHON_PATHS['pop'])"
    )
    switched = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, native.SWITCH: "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert switched.stdout.splitlines() == ["core: python (TRIOMINOS_NATIVE=0)", "True"]


def test_the_core_in_use_is_the_native_one_unless_switched_off() -> None:
    if native.load_board() is None:
        assert native.core() == f"core: python ({native.SWITCH}=0)"
        assert Board.pop is PythonBoard.pop
    else:
        assert native.core() == "core: native (C, from Cython)"
        assert Board.pop is NativeBoard.pop  # type: ignore[union-attr]


def test_a_core_is_python_or_native() -> None:
    with pytest.raises(ValueError, match="a core is 'python' or 'native', not 'pypy'"):
        native.paths("pypy")
