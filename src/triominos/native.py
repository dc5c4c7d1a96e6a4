"""Which core runs the board and the sim bot's inner loop: the native one (C, built from
Cython) or pure Python.

The native core is an accelerator, never a second rulebook: each of its board functions
takes the place of the Python method of the same name, on the same state, and its sim
playout (:func:`playout`) and world sampler (:func:`sampler_for`) follow the Python
ones step for step; all give the same results bit for bit (``tests/test_native_*.py``
compare them on thousands of positions).
So it is on wherever it was built, and ``TRIOMINOS_NATIVE=0`` turns it off, for the tests
that run the suite on Python alone and for anyone who wants the reference.

``pip install`` builds it when a C compiler and Python's headers are there and skips it
otherwise (setup.py); ``make`` installs both first where it can.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from triominos.game import Observation

SWITCH = "TRIOMINOS_NATIVE"
"""The environment variable that turns the native core off when it is 0."""

BOARD_PATHS = (
    "push_unchecked",
    "pop",
    "placement_ids",
    "fitting_tiles",
    "can_place",
    "best_placement",
)
"""The methods of :class:`~triominos.board.Board` that the native core replaces."""


def built() -> bool:
    """Whether the native core was built (whether or not it is switched on)."""
    return importlib.util.find_spec("triominos._board") is not None


def _load() -> tuple[ModuleType | None, str]:
    """The native board module, or None and why not.

    Called once by :mod:`triominos.board` when its class is made (the module reads the
    board's constants). A module that is there but fails to import raises: only one that
    was never built means pure Python.
    """
    if os.environ.get(SWITCH, "1").strip() == "0":
        return None, f"{SWITCH}=0"
    if not built():
        return None, "not built: no C compiler or Python headers when it was installed"
    return importlib.import_module("triominos._board"), ""


BOARD: ModuleType | None = None
"""The native board module when the native core is on (set by :func:`load_board`)."""
WHY_NOT = "not loaded yet"


def load_board() -> ModuleType | None:
    """The native board module when the core is on, loaded once."""
    global BOARD, WHY_NOT
    if WHY_NOT == "not loaded yet":
        BOARD, WHY_NOT = _load()
    return BOARD


def core() -> str:
    """Which core is in use, in one line: what ``triominos --version`` prints."""
    if load_board() is None:
        return f"core: python ({WHY_NOT})"
    return "core: native (C, from Cython)"


def paths(core: str) -> dict[str, object]:
    """The functions for :data:`BOARD_PATHS` of one core, "python" or "native", whichever
    core is in use (the native ones whenever the extension is built): what the
    differential tests and ``benchmarks/native.py`` compare."""
    from triominos.board import PYTHON_PATHS  # the board loads this module first

    return _core_paths(core, PYTHON_PATHS, "triominos._board", BOARD_PATHS)


def _core_paths(
    core: str, python: Mapping[str, object], module: str, names: Sequence[str]
) -> dict[str, object]:
    """The functions ``names`` of one core: the ``python`` ones (the reference), or the
    native ``module``'s of the same names."""
    if core == "python":
        return dict(python)
    if core != "native":
        raise ValueError(f"a core is 'python' or 'native', not {core!r}")
    native = importlib.import_module(module)
    return {name: getattr(native, name) for name in names}


def _load_on_board_switch(module: str) -> ModuleType | None:
    """A native module beside the board's, on the board's switch (one core for the whole
    process): None for pure Python, or a build from before ``module`` was native."""
    if load_board() is None or importlib.util.find_spec(module) is None:
        return None
    return importlib.import_module(module)


_PLAYOUT_CORE: str | None = None
"""The core of sim's playouts and world sampling while :func:`running_on` says; None:
the core in use."""


def _playout_module() -> ModuleType | None:
    """The native module for sim's playouts and worlds, or None (see _PLAYOUT_CORE)."""
    if _PLAYOUT_CORE is None:
        return load_board()
    return importlib.import_module("triominos._board") if _PLAYOUT_CORE == "native" else None


def playout() -> Any | None:
    """The native playout's class (``_board.Playout``) for sim's simulations (every
    candidate, under every rule option), or None where they play out in Python: the
    native core is off."""
    module = _playout_module()
    return None if module is None else module.Playout


def sampler_for(observation: Observation) -> Any | None:
    """The native world sampler's class (``_board.Sampler``) for a seat's observation, or
    None where the Python sampler draws: the native core is off, or every rack is shown
    (``open_racks``, where only the pool is shuffled)."""
    module = _playout_module()
    if module is None or observation.open_racks is not None:
        return None
    return module.Sampler


@contextmanager
def running_on(core: str) -> Iterator[None]:
    """Every board, sim playout and world sampler made in the process runs on ``core``
    meanwhile (see :func:`paths`)."""
    global _PLAYOUT_CORE
    from triominos.board import Board

    saved_playout = _PLAYOUT_CORE
    with _replacing(Board, paths(core)):
        _PLAYOUT_CORE = core
        try:
            yield
        finally:
            _PLAYOUT_CORE = saved_playout


# --- the observation encoder (triominos._encoding) ---------------------------------------

ENCODING_PATHS = ("_planes", "_features", "_bits", "_new_tensor")
"""The methods of :class:`~triominos.encoding.ObservationEncoder` the native core replaces."""


def load_encoding() -> ModuleType | None:
    """The native encoding module when the core is on."""
    return _load_on_board_switch("triominos._encoding")


def encoding_paths(core: str) -> dict[str, object]:
    """The functions for :data:`ENCODING_PATHS` of one core, as :func:`paths` gives the
    board's."""
    from triominos.encoding import PYTHON_ENCODING_PATHS

    return _core_paths(core, PYTHON_ENCODING_PATHS, "triominos._encoding", ENCODING_PATHS)


@contextmanager
def encoding_on(core: str) -> Iterator[None]:
    """Every observation encoder of the process runs on ``core`` meanwhile."""
    from triominos.encoding import ObservationEncoder

    with _replacing(ObservationEncoder, encoding_paths(core)):
        yield


@contextmanager
def _replacing(owner: type, chosen: dict[str, object]) -> Iterator[None]:
    """``owner``'s methods named in ``chosen`` are the chosen functions meanwhile."""
    saved = {name: owner.__dict__[name] for name in chosen}
    for name, function in chosen.items():
        setattr(owner, name, function)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(owner, name, function)


# --- the match's turns (triominos._match) --------------------------------------------

MATCH_PATHS = (
    "placement_actions",
    "observe",
    "checked_figure",
    "hand_apply",
    "match_apply",
    "match_is_over",
    "match_to_move",
    "match_observe",
)
"""The functions the native core replaces in :mod:`triominos.game`: two of its own, the
board's check of a placement that a hand lays, ``Hand.apply`` and ``Match``'s ``apply``,
``is_over``, ``to_move`` and ``observe`` (game._METHODS); ``game.PYTHON_MATCH_PATHS``
are the reference."""


def load_match() -> ModuleType | None:
    """The native match module when the core is on."""
    return _load_on_board_switch("triominos._match")


def match_paths(core: str) -> dict[str, object]:
    """The functions for :data:`MATCH_PATHS` of one core, as :func:`paths` gives the
    board's."""
    from triominos.game import PYTHON_MATCH_PATHS

    return _core_paths(core, PYTHON_MATCH_PATHS, "triominos._match", MATCH_PATHS)


@contextmanager
def match_on(core: str) -> Iterator[None]:
    """Every hand and match of the process makes its observations and legal actions, and
    checks its placements, on ``core`` meanwhile (see game.use_paths)."""
    from triominos.game import use_paths

    saved = use_paths(match_paths(core))
    try:
        yield
    finally:
        use_paths(saved)
