"""Tiles and tile sets.

A tile is three numbers read clockwise. Rotating a tile on the table never changes
which tile it is, so a tile is stored in its canonical rotation: the one that is
smallest as a string (``0-1-2``, never ``1-2-0``). Flipping a tile is not a move in
Triominos: in the 76-tile set ``0-1-2`` and its mirror image ``0-2-1`` are two tiles.

A :class:`TileSet` numbers its tiles by ascending value. The engine keeps racks as
bitmasks over these indices, so the most valuable tile of a mask is simply its highest
bit (``mask.bit_length() - 1``): the greedy move needs no sorting.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from functools import cached_property

Corners = tuple[int, int, int]


class TileError(ValueError):
    """A tile name or a tile's numbers that do not describe a tile of the set."""


def canonical_rotation(numbers: Corners) -> Corners:
    """The rotation of ``numbers`` that is smallest as a tile name."""
    a, b, c = numbers
    return min(((a, b, c), (b, c, a), (c, a, b)), key=lambda r: "-".join(map(str, r)))


def rotations(numbers: Corners) -> tuple[Corners, ...]:
    """The distinct clockwise rotations of ``numbers``, canonical one first."""
    a, b, c = canonical_rotation(numbers)
    found: list[Corners] = []
    for rotation in ((a, b, c), (b, c, a), (c, a, b)):
        if rotation not in found:
            found.append(rotation)
    return tuple(found)


class Tile(tuple[int, int, int]):
    """One triangular tile: ``Tile(1, 2, 0)`` is the same tile as ``Tile(0, 1, 2)``.

    A tile is a tuple of its numbers in canonical rotation, so hashing and comparing
    tiles (the keys of the engine's hot dictionaries) run at C speed.
    """

    __slots__ = ()

    def __new__(cls, a: int, b: int, c: int) -> Tile:
        for number in (a, b, c):
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise TileError(f"a tile's numbers are whole numbers from 0, not {number!r}")
        return tuple.__new__(cls, canonical_rotation((a, b, c)))

    def __getnewargs__(self) -> tuple[int, int, int]:
        return (self[0], self[1], self[2])

    @property
    def a(self) -> int:
        return self[0]

    @property
    def b(self) -> int:
        return self[1]

    @property
    def c(self) -> int:
        return self[2]

    @classmethod
    def from_name(cls, name: str) -> Tile:
        """Parse ``"a-b-c"`` (any rotation; stored canonically), or ``"J"`` for the joker."""
        if name.strip() == "J":
            return JOKER
        parts = name.strip().split("-")
        if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts):
            raise TileError(f"a tile is written as three numbers like '0-1-2', not {name!r}")
        return cls(int(parts[0]), int(parts[1]), int(parts[2]))

    @property
    def numbers(self) -> Corners:
        return (self[0], self[1], self[2])

    @property
    def name(self) -> str:
        return "-".join(map(str, self))

    @property
    def value(self) -> int:
        """The points the tile is worth: the sum of its numbers."""
        return sum(self)

    @property
    def is_triple(self) -> bool:
        return self.a == self.b == self.c

    def rotations(self) -> tuple[Corners, ...]:
        """The distinct ways the tile can lie on a cell, as corners read clockwise."""
        return rotations(self.numbers)

    def mirror(self) -> Tile:
        """The tile printed the other way round (itself when two numbers are equal)."""
        return Tile(self.a, self.c, self.b)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tile({self.a}, {self.b}, {self.c})"


WILD = -1
"""The number on a joker's corner that no tile touches: it takes any number."""


class Joker(Tile):
    """The joker card of Triominos Junior: it fits anywhere.

    On the table each of its corners shows the number already at that vertex, or
    :data:`WILD` where no tile touches it yet. It is a :class:`Tile` so that racks, the
    pool and placements hold it like any other card; its name is ``"J"``.
    """

    __slots__ = ()

    def __new__(cls) -> Joker:
        return tuple.__new__(cls, (WILD, WILD, WILD))

    def __getnewargs__(self) -> tuple[()]:  # type: ignore[override]
        return ()

    @property
    def name(self) -> str:
        return "J"

    @property
    def value(self) -> int:
        return 0

    @property
    def is_triple(self) -> bool:
        return False

    def rotations(self) -> tuple[Corners, ...]:
        return ()

    def mirror(self) -> Joker:
        return self

    def __repr__(self) -> str:
        return "JOKER"


JOKER = Joker()


class TileSet:
    """A box of tiles, numbered by ascending value (ties by name) for bitmask racks."""

    def __init__(self, name: str, tiles: Iterable[Tile], symbols: int) -> None:
        ordered = sorted(set(tiles), key=lambda tile: (tile.value, tile.name))
        self.name = name
        self.symbols = symbols
        self.tiles: tuple[Tile, ...] = tuple(ordered)
        self.values: tuple[int, ...] = tuple(tile.value for tile in ordered)
        self.position: dict[Tile, int] = {tile: i for i, tile in enumerate(ordered)}
        self.full_mask = (1 << len(ordered)) - 1
        self.joker: int | None = self.position.get(JOKER)
        """The joker's index, or None in a set without one (it is index 0: value 0)."""

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __contains__(self, tile: object) -> bool:
        return tile in self.position

    def __repr__(self) -> str:
        return f"<TileSet {self.name}: {len(self.tiles)} tiles>"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """The shipped sets unpickle as themselves, not as equal copies: a board, a hand
        and a rack mask mean a set by identity (boards compare their sets with ``is``)."""
        if TILE_SETS.get(self.name) is self:
            return _shipped_set, (self.name,)
        return TileSet, (self.name, self.tiles, self.symbols)

    def __deepcopy__(self, memo: dict[int, object]) -> TileSet:
        return self  # never changed: a copy would only break identity

    def index(self, tile: Tile) -> int:
        try:
            return self.position[tile]
        except KeyError:
            raise TileError(f"{tile} is not a tile of the {self.name} set") from None

    def parse(self, name: str) -> Tile:
        """Parse a tile name and check that the tile belongs to this set."""
        tile = Tile.from_name(name)
        self.index(tile)
        return tile

    def mask(self, tiles: Iterable[Tile]) -> int:
        mask = 0
        position = self.position  # not self.index: every deal checks its racks and pool
        for tile in tiles:
            index = position.get(tile)
            if index is None:
                index = self.index(tile)  # raises the error that names the tile
            mask |= 1 << index
        return mask

    def tiles_in(self, mask: int) -> list[Tile]:
        """The tiles of a bitmask, in index order (ascending value)."""
        return [self.tiles[i] for i in indices(mask)]

    def value_of(self, mask: int) -> int:
        """The tiles' values added up: a byte of the mask at a time, looked up (search
        values a rack for every world it plays)."""
        total = 0
        for table in self._byte_values:
            if not mask:
                break
            total += table[mask & 255]
            mask >>= 8
        return total

    @cached_property
    def _byte_values(self) -> tuple[tuple[int, ...], ...]:
        """For each byte of a mask, the value of each of its 256 contents."""
        values = self.values
        tables = []
        for start in range(0, len(values), 8):
            part = values[start : start + 8]
            tables.append(
                tuple(
                    sum(value for bit, value in enumerate(part) if byte >> bit & 1)
                    for byte in range(256)
                )
            )
        return tuple(tables)

    @cached_property
    def fits(self) -> FitTable:
        return FitTable(self)

    @cached_property
    def triples(self) -> int:
        """The bitmask of the triples (tiles with three equal numbers)."""
        return self.mask(tile for tile in self.tiles if tile.is_triple)

    @cached_property
    def rotations(self) -> tuple[tuple[Corners, ...], ...]:
        """Each tile's distinct rotations, by tile index."""
        return tuple(tile.rotations() for tile in self.tiles)


def indices(mask: int) -> Iterator[int]:
    """The set bits of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class FitTable:
    """For every combination of numbers already on a cell's corners, what fits there.

    A corner is encoded as ``number + 1``, or 0 when no tile touches it yet; the key of a
    cell is ``c0 * base**2 + c1 * base + c2`` with ``base = symbols + 1``. ``masks[key]`` is
    the bitmask of tiles that fit in at least one rotation, ``corners[key][i]`` the
    rotations of tile ``i`` that fit. Every legal-placement question is one lookup.
    """

    def __init__(self, tile_set: TileSet) -> None:
        self.base = base = tile_set.symbols + 1
        size = base**3
        self.masks: list[int] = [0] * size
        self.corners: list[dict[int, tuple[Corners, ...]]] = [{} for _ in range(size)]
        for key, wanted in enumerate(itertools.product(range(base), repeat=3)):
            for index, tile in enumerate(tile_set.tiles):
                fitting = tuple(
                    rotation
                    for rotation in tile.rotations()
                    if all(w == 0 or w == n + 1 for w, n in zip(wanted, rotation, strict=True))
                )
                if fitting:
                    self.masks[key] |= 1 << index
                    self.corners[key][index] = fitting
            if tile_set.joker is not None:
                # The joker fits anywhere, showing the numbers already there.
                self.masks[key] |= 1 << tile_set.joker
                w0, w1, w2 = (w - 1 for w in wanted)  # free corners decode to WILD
                self.corners[key][tile_set.joker] = ((w0, w1, w2),)


def _combinations(symbols: int, *, mirrors: bool) -> list[Tile]:
    tiles = [
        Tile(a, b, c) for a, b, c in itertools.combinations_with_replacement(range(symbols), 3)
    ]
    if mirrors:
        tiles += [Tile(a, c, b) for a, b, c in itertools.combinations(range(symbols), 3)]
    return tiles


CLASSIC = TileSet("classic", _combinations(6, mirrors=False), symbols=6)
"""The 56 tiles of the classic box: every three numbers 0-5 in non-decreasing order."""

EXTENDED = TileSet("extended", _combinations(6, mirrors=True), symbols=6)
"""The 76 tiles: the classic 56 and the 20 mirror images of tiles with three numbers."""

JUNIOR = TileSet(
    "junior",
    [Tile(a, b, c) for a, b, c in itertools.combinations_with_replacement(range(1, 6), 3)]
    + [JOKER],
    symbols=6,
)
"""Triominos Junior: 35 cards over the symbols 1-5 (each a number with its own colour),
every combination of three, and the joker."""

TILE_SETS: dict[str, TileSet] = {tiles.name: tiles for tiles in (CLASSIC, EXTENDED, JUNIOR)}


def _shipped_set(name: str) -> TileSet:
    return TILE_SETS[name]
