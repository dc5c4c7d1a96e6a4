"""Triominos: the rules engine, bots and records for every edition of the game.

>>> import triominos
>>> match = triominos.Match.from_preset("classic", players=2, seed=7)
>>> match.to_move in (0, 1)
True
"""

from triominos.board import Board, IllegalPlacementError, Placement
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
    observe,
)
from triominos.lattice import ORIGIN, Cell, Vertex
from triominos.rules import CHILDREN_SCORING, PRESETS, Preset, RuleOptionError, Rules, preset
from triominos.tiles import CLASSIC, EXTENDED, JOKER, JUNIOR, WILD, Tile, TileError, TileSet

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
    "Hand",
    "HandEnd",
    "IllegalActionError",
    "IllegalPlacementError",
    "LegalAction",
    "Match",
    "Observation",
    "Pass",
    "Placement",
    "Preset",
    "RuleOptionError",
    "Rules",
    "StarterDraw",
    "TakeJoker",
    "Tile",
    "TileError",
    "TileSet",
    "Vertex",
    "observe",
    "preset",
]
