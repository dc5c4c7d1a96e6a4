"""Triominos: the rules engine, bots and records for every edition of the game.

>>> import triominos
>>> match = triominos.Match.from_preset("classic", players=2, seed=7)
>>> match.to_move in (0, 1)
True

The public API is what ``__all__`` names, the modules below, and ``__version__``:

- **states**: :class:`Match` (hands until the target score) and :class:`Hand` (one deal),
  which take an :data:`Action` (:class:`Placement`, :class:`Draw`, :class:`Pass`,
  :class:`StarterDraw`, :class:`TakeJoker`) and answer :class:`LegalAction` lists and
  :class:`Event` s. They are values: ``clone()``, ``undo()`` (:class:`UndoError` when
  there is nothing to take back), ``==``, and
  ``to_text()`` / ``from_text()``, a position string (:mod:`triominos.position`,
  :class:`PositionError`) that their ``repr`` pastes back;
- **what a seat knows**: :func:`observe` makes an :class:`Observation`, an immutable
  snapshot whose board is a :class:`FrozenBoard`; bots see nothing else;
- **rules**: :class:`Rules`, the named :data:`PRESETS` (:func:`preset`), the tile
  sets and :class:`Tile`; the triangular lattice (:class:`Cell`, :class:`Vertex`);
- **modules**: :mod:`triominos.notation` (tiles, cells, moves as short text),
  :mod:`triominos.record` (game records, RECORD.md), :mod:`triominos.bots` (``random``,
  ``greedy``, ``expert``, ``sim``; :func:`triominos.bots.make_bot`),
  :mod:`triominos.arena`, :mod:`triominos.rl` (OpenSpiel, PettingZoo, Gymnasium).

**The fast layer, for bot writers.** :class:`Board` (and :class:`FrozenBoard`, which
reads the same) answers in packed integers too: a cell as its id (``Cell.id``,
``Cell.from_id``), a tile as its index in the tile set, a rack as a bitmask of indices.
:meth:`Board.placement_ids`, :meth:`Board.best_placement`, :meth:`Board.fitting_tiles`,
:meth:`Board.can_place`, :meth:`Board.joker_swaps`, and on a board of one's own
:meth:`Board.push_unchecked` / :meth:`Board.pop` / :meth:`Board.swap_joker`, are public
on purpose: they are what the bots here search with (a placement costs one table lookup,
no objects), and a bot written outside this package needs the same speed to be as
strong. They check nothing: legality is the caller's, as the names say, and a board
from :meth:`FrozenBoard.copy` or :meth:`Board.copy` is the one to push on.
"""

from importlib.metadata import PackageNotFoundError, version

from triominos.board import Board, FrozenBoard, IllegalPlacementError, Placement
from triominos.game import (
    Action,
    Deal,
    Draw,
    Event,
    Hand,
    HandEnd,
    IllegalActionError,
    LegalAction,
    Match,
    Observation,
    Pass,
    StarterDraw,
    TakeJoker,
    UndoError,
    observe,
)
from triominos.lattice import ORIGIN, Cell, Vertex
from triominos.position import PositionError
from triominos.rules import CHILDREN_SCORING, PRESETS, Preset, RuleOptionError, Rules, preset
from triominos.tiles import CLASSIC, EXTENDED, JOKER, JUNIOR, WILD, Tile, TileError, TileSet

try:
    __version__ = version("triominos")
except PackageNotFoundError:  # a source tree on sys.path, not installed
    __version__ = "0+unknown"

__all__ = [
    "CHILDREN_SCORING",
    "CLASSIC",
    "EXTENDED",
    "JOKER",
    "JUNIOR",
    "ORIGIN",
    "PRESETS",
    "WILD",
    "Action",
    "Board",
    "Cell",
    "Deal",
    "Draw",
    "Event",
    "FrozenBoard",
    "Hand",
    "HandEnd",
    "IllegalActionError",
    "IllegalPlacementError",
    "LegalAction",
    "Match",
    "Observation",
    "Pass",
    "Placement",
    "PositionError",
    "Preset",
    "RuleOptionError",
    "Rules",
    "StarterDraw",
    "TakeJoker",
    "Tile",
    "TileError",
    "TileSet",
    "UndoError",
    "Vertex",
    "__version__",
    "observe",
    "preset",
]
