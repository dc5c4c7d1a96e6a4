"""Plain second implementations the engine's tests check it against.

``legal_placements`` is a slow, obvious generator of legal placements: it loops over
every empty cell next to the table, every tile, every rotation, and checks each corner
against the tiles on the table directly. It shares nothing with the engine's fit tables,
frontier or packed ids; even the geometry is written out again from RECORD.md's table.

``hidden_tiles`` and ``tiles_in`` say which tiles a seat must not find in what it is
shown, and which tiles an object holds, for the hidden-information checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from triominos.board import Board, FrozenBoard
from triominos.game import Hand
from triominos.rules import Rules
from triominos.tiles import Tile, TileSet

Point = tuple[int, int]
Spot = tuple[int, int, bool]
"""A cell as (x, y, up)."""
Numbers = tuple[int, int, int]


class RefPlacement(NamedTuple):
    tile: Tile
    cell: Spot
    corners: Numbers
    figure: str | None


def corners_of(spot: Spot) -> tuple[Point, Point, Point]:
    """RECORD.md: up cells (x,y) (x,y+1) (x+1,y); down cells (x,y+1) (x+1,y+1) (x+1,y)."""
    x, y, up = spot
    if up:
        return ((x, y), (x, y + 1), (x + 1, y))
    return ((x, y + 1), (x + 1, y + 1), (x + 1, y))


def spots_near(x: int, y: int) -> list[Spot]:
    return [
        (x + dx, y + dy, up)
        for dx in (-2, -1, 0, 1, 2)
        for dy in (-2, -1, 0, 1, 2)
        for up in (True, False)
    ]


def spots_at(point: Point) -> list[Spot]:
    """Every cell that has ``point`` as a corner, found by search rather than formula."""
    return [spot for spot in spots_near(*point) if point in corners_of(spot)]


def edge_neighbours(spot: Spot) -> list[Spot]:
    """Every cell sharing two corners with ``spot``, found by search."""
    mine = set(corners_of(spot))
    return [
        other
        for other in spots_near(spot[0], spot[1])
        if other != spot and len(mine & set(corners_of(other))) == 2
    ]


def rotations_of(tile: Tile) -> list[Numbers]:
    a, b, c = tile.a, tile.b, tile.c
    found: list[Numbers] = []
    for rotation in ((a, b, c), (b, c, a), (c, a, b)):
        if rotation not in found:
            found.append(rotation)
    return found


def table_of(board: Board) -> dict[Spot, Numbers]:
    """The tiles on the table: cell -> the numbers on its corners."""
    return {
        (placement.cell.x, placement.cell.y, bool(placement.cell.up)): placement.corners
        for placement in board
    }


def numbers_at(table: dict[Spot, Numbers]) -> dict[Point, int]:
    """The number at every touched vertex; asserts the table agrees with itself."""
    numbers: dict[Point, int] = {}
    for spot, corners in table.items():
        for point, number in zip(corners_of(spot), corners, strict=True):
            assert numbers.setdefault(point, number) == number, f"conflict at {point}"
    return numbers


def figure_of(spot: Spot, table: dict[Spot, Numbers], numbers: dict[Point, int]) -> str | None:
    """The figure a tile on the empty ``spot`` completes (the issue's definitions)."""
    hexagons = 0
    for point in corners_of(spot):
        others = [other for other in spots_at(point) if other != spot]
        assert len(others) == 5
        if all(other in table for other in others):
            hexagons += 1
    if hexagons:
        return {1: "hexagon", 2: "double_hexagon", 3: "triple_hexagon"}[hexagons]
    sharing = [other for other in edge_neighbours(spot) if other in table]
    if len(sharing) == 1:
        (opposite,) = set(corners_of(spot)) - set(corners_of(sharing[0]))
        return "bridge" if opposite in numbers else None
    if len(sharing) == 2:
        return "two_sides"
    return None


def legal_placements(board: Board, rack: Iterable[Tile]) -> set[RefPlacement]:
    """Every legal placement of a rack tile, each with the figure it completes."""
    table = table_of(board)
    numbers = numbers_at(table)
    if not table:
        candidates: set[Spot] = {(0, 0, True)}
    else:
        candidates = {
            neighbour
            for spot in table
            for neighbour in edge_neighbours(spot)
            if neighbour not in table
        }
    found: set[RefPlacement] = set()
    for spot in candidates:
        figure = figure_of(spot, table, numbers) if table else None
        for tile in rack:
            for corners in rotations_of(tile):
                if all(
                    numbers.get(point, number) == number
                    for point, number in zip(corners_of(spot), corners, strict=True)
                ):
                    found.add(RefPlacement(tile, spot, corners, figure))
    return found


def points_of(rules: Rules, placement: RefPlacement) -> int:
    bonus = {
        None: 0,
        "hexagon": rules.hexagon_bonus,
        "double_hexagon": rules.double_hexagon_bonus,
        "triple_hexagon": rules.triple_hexagon_bonus,
        "bridge": rules.bridge_bonus,
        "two_sides": rules.two_sides_bonus,
    }[placement.figure]
    return placement.tile.value + bonus


# --- hidden information ---------------------------------------------------------------


def hidden_tiles(hand: Hand, seat: int | None) -> set[Tile]:
    """The tiles ``seat`` may not know the whereabouts of: other racks and the pool.

    A tile shown in a starter draw went back to the pool, but everyone saw it, so it may
    appear in the history; the racks are shown at the end of the hand.
    """
    if hand.is_over:
        return set()
    hidden = set(hand.pool)
    for other in range(hand.players):
        if other != seat:
            hidden |= set(hand.rack(other))
    shown = {event.tile for event in hand.events if event.action == "starter_draw"}
    return hidden - shown


def tiles_in(value: object, seen: set[int] | None = None) -> list[Tile]:
    """Every Tile reachable from ``value`` through containers and object fields.

    Rules and TileSets are public constants (a tile set lists every tile) and are not
    entered; a Board is entered through the placements on the table only, since it
    holds nothing else.
    """
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, Tile):
        return [value]
    if isinstance(value, Rules | TileSet | str | bytes | bytearray | int | float | bool):
        return []
    if value is None:
        return []
    if isinstance(value, Board | FrozenBoard):  # a snapshot holds a board's history only
        return [placement.tile for placement in value]
    found: list[Tile] = []
    items: Iterable[Any]
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, tuple | list | set | frozenset):
        items = value
    elif hasattr(value, "__dict__") or hasattr(value, "__slots__"):
        names = list(getattr(value, "__dict__", {}))
        for klass in type(value).__mro__:
            names += list(getattr(klass, "__slots__", ()))
        items = [getattr(value, name) for name in names if hasattr(value, name)]
    else:
        raise AssertionError(f"tiles_in does not know how to walk {type(value).__name__}")
    for item in items:
        found += tiles_in(item, seen)
    return found
