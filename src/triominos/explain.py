"""Events, hand endings and places on the board in words, for the terminal, the logs
and the puzzles' explanations.

The words follow the edition: Triominos Junior has cards, a pot and reward counters
from a bank, the other editions tiles, a pool and points (:class:`Terms`). A place is
named by the tiles beside it (:func:`where`), never by its coordinates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from triominos.board import Board, FrozenBoard, Placement
from triominos.game import Event, HandEnd, TakeJoker
from triominos.lattice import ORIGIN, Cell
from triominos.notation import placement_to_text, take_joker_to_text
from triominos.rules import Rules
from triominos.tiles import JOKER, Tile


class Terms(NamedTuple):
    """What an edition calls its pieces, its pool and its score.

    ``counters`` is true where the rules pay in counters from a bank (``rules.bank``):
    a score is then a number of counters a player holds, never below 0.
    """

    tile: str = "tile"
    pool: str = "pool"
    counters: bool = False

    @classmethod
    def of(cls, rules: Rules | None) -> Terms:
        if rules is None:
            return CLASSIC_TERMS
        cards = rules.tile_set == "junior"
        return cls("card" if cards else "tile", "pot" if cards else "pool", rules.bank is not None)

    @property
    def tiles(self) -> str:
        return self.tile + "s"

    @property
    def unit(self) -> str:
        """What the totals count: ``counters`` or ``points``."""
        return "counters" if self.counters else "points"

    def amount(self, points: int) -> str:
        """A score change: ``+3`` in points, ``+1 counter`` or ``-2 counters`` in counters."""
        if not self.counters:
            return f"{points:+d}"
        return f"{points:+d} counter{'' if abs(points) == 1 else 's'}"


CLASSIC_TERMS = Terms()
"""Tiles, a pool and points: the words of every edition but Junior."""


def bonus_words(bonuses: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {points:+d}" for name, points in bonuses)


def describe_event(event: Event, names: Sequence[str], rules: Rules | None = None) -> str:
    """One line saying what a player did and what it scored (in the words of ``rules``)."""
    who = names[event.player]
    terms = Terms.of(rules)
    amount = terms.amount(event.points)
    tile, cell, corners = event.tile, event.cell, event.corners
    if event.action == "place" and tile is not None and cell is not None and corners is not None:
        where = placement_to_text(Placement(tile, cell, corners))
        what = "the joker" if tile == JOKER else str(tile)
        line = f"{who} places {what} as {where}: {amount}"
        return f"{line} ({bonus_words(event.bonuses)})" if event.bonuses else line
    if event.action in ("draw", "buy"):
        shown = f" ({tile})" if tile is not None else ""
        verb = "buys" if event.action == "buy" else "draws"
        return f"{who} {verb} a {terms.tile}{shown}: {amount}"
    if event.action == "take_joker" and tile is not None and corners is not None:
        typed = take_joker_to_text(TakeJoker(tile, corners))
        return f"{who} takes the joker back, putting {tile} in its place ({typed})"
    if event.action == "pass":
        return f"{who} passes: {amount}"
    if event.action == "starter_draw":
        return f"{who} draws {tile} to decide who starts"
    if event.action == "resign":
        return f"{who} resigns"
    return f"{who}: {event.action}"


def describe_first_card(tile: Tile) -> str:
    """The card laid face up from the pool before play (``opening="pool_card"``)."""
    placement = placement_to_text(Placement(tile, ORIGIN, tile.numbers))
    return f"the first card, {tile}, lies face up as {placement}"


def describe_end(end: HandEnd, names: Sequence[str], rules: Rules | None = None) -> str:
    """The hand's ending and its settlement in one line."""
    terms = Terms.of(rules)
    if end.reason == "out" and end.player is not None:
        opening = f"{names[end.player]} goes out"
    elif end.reason == "last_round":
        opening = f"the {terms.pool} is empty and the last round is over"
    elif end.reason == "target" and end.player is not None:
        opening = f"{names[end.player]} reaches the target and wins"
    elif end.reason == "resigned" and end.player is not None:
        opening = f"{names[end.player]} resigns the match"
    else:
        opening = "the hand is blocked"
    changes = ", ".join(
        f"{names[seat]} {terms.amount(change)}"
        for seat, change in enumerate(end.settlement)
        if change
    )
    return f"{opening}; settlement: {changes or 'nothing'}"


Side = Literal["left", "right", "above", "below"]

_SIDES: dict[bool, tuple[Side, Side, Side]] = {
    True: ("left", "right", "above"),
    False: ("right", "left", "below"),
}
"""Where a cell lies from each of its neighbours, in :meth:`Cell.neighbours`' order: an
upward cell's neighbours are to its right, its left and below it, so it lies left of the
first, right of the second and above the third; a downward cell the other way round."""


class Where(NamedTuple):
    """A cell in words: the tiles beside it (sharing an edge), and, when there is one, the
    side of it the cell is on ("left of the 5-5-5"). No tile beside it: the board is
    empty, and a tile there opens it."""

    beside: tuple[str, ...]
    side: Side | None

    def to_json(self) -> dict[str, Any]:
        return {"beside": list(self.beside), "side": self.side}


def where(board: Board | FrozenBoard, cell: Cell) -> Where:
    """``cell`` named by the tiles beside it on ``board`` (see :class:`Where`)."""
    beside = []
    for neighbour, side in zip(cell.neighbours(), _SIDES[cell.up], strict=True):
        placed = board.tile_at(neighbour)
        if placed is not None:
            beside.append((placed.tile.name, side))
    return Where(tuple(name for name, _ in beside), beside[0][1] if len(beside) == 1 else None)
