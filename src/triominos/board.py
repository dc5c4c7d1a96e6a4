"""The board: tiles on the triangular lattice, legal placements and figures.

The board knows geometry only; what a figure is worth is the rules' business. Every
question the hot path asks is answered from a few flat arrays kept up to date by
:meth:`Board.push` and :meth:`Board.pop`:

- the number at each vertex (or none yet) and how many tiles touch it;
- for each empty cell, how many of its edges touch a tile;
- the *frontier*: the empty cells with at least one such edge, the only cells a tile
  may go; on an empty board, the origin alone, where the first tile lies;
- the *live* frontier: the frontier less the cells where no tile off the table fits any
  more (about half of it in a classic hand), all that the greedy move has to look at.

A cell's figure depends only on which cells are occupied, never on the tile laid there.
So the best tile for a cell is simply the most valuable tile of the rack that fits,
which :class:`~triominos.tiles.FitTable` gives in one lookup.

A board is also a value: :meth:`Board.copy` copies the few KB of the arrays its tiles
wrote, ``==`` compares the *log* of pushes and joker swaps, and :class:`FrozenBoard`
is a board of one moment that nothing changes, what observations hold. The methods in
packed integers (cell ids, tile indices, rack bitmasks: :meth:`Board.placement_ids`,
:meth:`Board.best_placement`, :meth:`Board.push_unchecked`, ...) are the fast layer a
bot searches with; the package docs (:mod:`triominos`) say why they are public.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, TypeAlias

from triominos import native
from triominos.lattice import (
    CELL_IDS,
    CELLS_AT,
    CORNERS,
    NEIGHBOURS,
    ORIGIN,
    VERTEX_IDS,
    WIDTH,
    Cell,
    LatticeError,
    Vertex,
)
from triominos.tiles import TILE_SETS, WILD, Corners, Joker, Tile, TileSet, indices, rotations

FIGURES: tuple[str | None, ...] = (
    None,
    "hexagon",
    "double_hexagon",
    "triple_hexagon",
    "bridge",
    "two_sides",
)
"""Figure names by code, as in RECORD.md; the code of n hexagons at once is n."""
BRIDGE = 4
TWO_SIDES = 5

_ORIGIN_ID = ORIGIN.id

SWAP = -1
"""The cell of a joker swap in :attr:`Board.log`: the card goes where the joker lies."""

_Log: TypeAlias = "tuple[_Log, int, int, Corners] | None"
"""A board's pushes and joker swaps as a linked list, newest first: (the older entries,
packed cell or SWAP, tile index, corners). Never changed, only extended or cut back, so
a snapshot of a board is the log it had (:class:`FrozenBoard`): one reference, and the
same entry as long as the board is in that state."""


def _moves(log: _Log) -> tuple[tuple[int, int, Corners], ...]:
    moves = []
    while log is not None:
        log, cell, tile, corners = log
        moves.append((cell, tile, corners))
    moves.reverse()
    return tuple(moves)


def _same_board(board: Board | FrozenBoard, other: Board | FrozenBoard) -> bool:
    """``==`` of boards, live or frozen: the same tiles, played in the same order."""
    return board.tile_set is other.tile_set and (board._log is other._log or board.log == other.log)


class IllegalPlacementError(ValueError):
    """A placement that breaks a rule of the board; ``rule`` names the rule."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class Placement(NamedTuple):
    """A tile laid on a cell, with the numbers that land on the cell's corners.

    ``corners`` are read clockwise from the cell's leftmost corner; the tile is laid
    unflipped exactly when they are one of the tile's rotations.
    """

    tile: Tile
    cell: Cell
    corners: Corners


def figure_code(
    cell: int,
    edges: bytearray,
    counts: bytearray,
) -> int:
    """The figure a tile laid on the empty ``cell`` would complete, as a FIGURES code."""
    touching = edges[cell]
    v0, v1, v2 = CORNERS[cell]
    c0, c1, c2 = counts[v0], counts[v1], counts[v2]
    if touching == 1:  # the common case
        # The neighbour touches the two corners of the shared edge; a bridge is when the
        # corner opposite that edge touches a tile too. No hexagon: a corner closes one
        # only between two neighbours of the cell.
        return BRIDGE if c0 and c1 and c2 else 0
    hexagons = (c0 == 5) + (c1 == 5) + (c2 == 5)
    if hexagons:
        return hexagons
    return TWO_SIDES if touching == 2 else 0


_Arrays = tuple[bytearray, bytearray, bytearray]

_SPARE_ARRAYS: list[_Arrays] = []
"""Zeroed (numbers, counts, edges) arrays that boards no longer in use gave back.

A hand writes a few hundred bytes of a board's 256 KB of arrays, and zeroing fresh ones
cost more instructions than the hand's moves; so a board that goes away zeroes what it
wrote and leaves its arrays here for the next board (:meth:`Board.__del__`). A board never
shares its arrays with another: :meth:`Board.copy` copies the spans that were written.
"""
_MOST_SPARE_ARRAYS = 4  # enough for one hand at a time; a dropped match frees the rest
_ZEROS = memoryview(bytes(CELL_IDS))  # slices of it zero the arrays without a copy


class Board:
    """The tiles on the table of one hand, with cheap push/pop for search."""

    def __init__(self, tile_set: TileSet) -> None:
        # First, so that __del__ finds them even if the rest of __init__ failed.
        self._numbers, self._counts, self._edges = (
            _SPARE_ARRAYS.pop()
            if _SPARE_ARRAYS
            else (
                bytearray(VERTEX_IDS),  # number + 1 at each vertex, or 0 when no tile touches
                bytearray(VERTEX_IDS),  # tiles touching each vertex
                bytearray(CELL_IDS),  # occupied edge neighbours of each cell
            )
        )
        self._occupant: dict[int, tuple[int, Corners]] = {}  # cell -> (tile index, corners)
        self.tile_set = tile_set
        self._fits = tile_set.fits
        self._base = tile_set.symbols + 1
        self._frontier = {_ORIGIN_ID: 0}  # open cell -> FitTable key
        # The live frontier: open cell -> the FitTable mask of its key, for every open
        # cell where a tile off the table may fit. A placement leaves out the cells it
        # opens or renumbers where none does; a cell whose last tile goes elsewhere
        # lingers (a look more, never a wrong answer). Pop restores it exactly, helped by
        # what each placement dropped: (stack length after the placement, cell).
        self._live = {_ORIGIN_ID: self._fits.masks[0]}
        self._dropped: list[tuple[int, int]] = []
        self._unplaced = tile_set.full_mask  # the tiles not on the table
        # What a cell's key gains per unit of a corner's number + 1, by corner.
        self._weights = (self._base * self._base, self._base, 1)
        self._stack: list[int] = []
        self._log: _Log = None  # every push and joker swap, newest first: see _Log
        self._frozen: FrozenBoard | None = None  # the last snapshot: see frozen()
        # Triominos Junior: where the joker lies, and the joker swaps to undo (stack
        # length at the swap, cell, the joker's placement, vertices it numbered, and the
        # live frontier before the swap).
        self._joker = tile_set.joker
        self._joker_cell: int | None = None
        self._swaps: list[
            tuple[int, int, tuple[int, Corners], tuple[int, ...], dict[int, int]]
        ] = []

    def __del__(self) -> None:
        """Give the arrays back for the next board, zeroed where this board wrote them.

        Only placements write them, at the corners and edge neighbours of their cells,
        and :meth:`pop` undoes its placement's writes exactly: zeroing the spans of
        :meth:`_written` leaves every byte zero.
        """
        if len(_SPARE_ARRAYS) >= _MOST_SPARE_ARRAYS:
            return
        try:
            numbers, counts, edges = self._numbers, self._counts, self._edges
            self._occupant  # noqa: B018  # set up whole: __init__ was not interrupted
        except AttributeError:
            return  # its __init__ was interrupted: the arrays it may hold go unrecycled
        for arrays, (start, end) in zip(
            ((numbers, counts), (edges,)), self._written(), strict=True
        ):
            for array in arrays:
                array[start:end] = _ZEROS[: end - start]
        _SPARE_ARRAYS.append((numbers, counts, edges))

    def _written(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The spans of vertex ids and of cell ids that the placements on the table wrote:
        outside them the arrays are zero (a few KB near the origin, of 256 KB)."""
        if not self._occupant:
            return (0, 0), (0, 0)
        lowest, highest = min(self._occupant), max(self._occupant)
        # Corners: from the lowest cell's vertex to the highest's, a row on and one more.
        vertices = lowest >> 1, min((highest >> 1) + WIDTH + 2, VERTEX_IDS)
        # Edge neighbours: a row of cells (2 * WIDTH ids) and one more on either side.
        cells = max(lowest - 2 * WIDTH - 1, 0), min(highest + 2 * WIDTH + 2, CELL_IDS)
        return vertices, cells

    def copy(self) -> Board:
        """An independent board in the same state, cheaply: only the written spans of the
        arrays are copied, and the rest of the state is a few small dicts and lists.

        The copy lists open cells and placements in the same order as this board.
        """
        copy = Board(self.tile_set)
        (start, end), (low, high) = self._written()
        copy._numbers[start:end] = self._numbers[start:end]
        copy._counts[start:end] = self._counts[start:end]
        copy._edges[low:high] = self._edges[low:high]
        copy._occupant = self._occupant.copy()
        copy._frontier = self._frontier.copy()
        copy._live = self._live.copy()
        copy._dropped = self._dropped.copy()
        copy._unplaced = self._unplaced
        copy._stack = self._stack.copy()
        copy._log = self._log
        copy._joker_cell = self._joker_cell
        copy._swaps = self._swaps.copy()  # never changed in place: _unswap copies its dict
        return copy

    def __copy__(self) -> Board:
        """:meth:`copy`: a copy sharing this board's arrays would hand them back twice."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[TileSet, tuple[tuple[int, int, Corners], ...]]]:
        """Pickled as its tile set and its log, replayed on loading: a few hundred bytes
        instead of 256 KB of arrays, and the same board (open cells in the same order)."""
        return Board.from_log, (self.tile_set, self.log)

    @classmethod
    def from_log(cls, tile_set: TileSet, moves: Iterable[tuple[int, int, Corners]]) -> Board:
        """A board made by replaying moves as :attr:`log` gives them (no checks)."""
        board = cls(tile_set)
        for cell, tile, corners in moves:
            if cell == SWAP:
                board.swap_joker(tile, corners)
            else:
                board.push_unchecked(cell, tile, corners)
        return board

    def frozen(self) -> FrozenBoard:
        """This board as it is now, which nothing can change (:class:`FrozenBoard`).

        The same snapshot until the board changes: every seat's observation of one
        moment, and of a turn's draws, shares it.
        """
        frozen = self._frozen
        if frozen is None or frozen._log is not self._log:
            frozen = self._frozen = FrozenBoard(self)
        return frozen

    @property
    def log(self) -> tuple[tuple[int, int, Corners], ...]:
        """Every push and joker swap, first first, as (packed cell, tile index, corners);
        a swap's cell is :data:`SWAP`. Two boards are equal when their logs are."""
        return _moves(self._log)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board | FrozenBoard):
            return _same_board(self, other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a board changes: it is no dict key

    # --- reading -------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._stack)

    def __iter__(self) -> Iterator[Placement]:
        """The placements in the order they were made."""
        for cell in self._stack:
            yield self._placement(cell)

    def __repr__(self) -> str:
        return f"<Board {self.tile_set.name}: {len(self._stack)} tiles>"

    def _repr_svg_(self) -> str:
        """The board as a picture, so that a Jupyter notebook shows it drawn."""
        from triominos.svg import board_svg  # svg imports this module: import it when drawn

        return str(board_svg(self))

    def _placement(self, cell: int) -> Placement:
        index, corners = self._occupant[cell]
        return Placement(self.tile_set.tiles[index], Cell.from_id(cell), corners)

    @property
    def last(self) -> Placement | None:
        return self._placement(self._stack[-1]) if self._stack else None

    def tile_at(self, cell: Cell) -> Placement | None:
        packed = cell.id
        return self._placement(packed) if packed in self._occupant else None

    def number_at(self, vertex: Vertex) -> int | None:
        """The number every tile touching ``vertex`` shows there, or None."""
        number = self._numbers[vertex.id]
        return number - 1 if number else None

    def open_cells(self) -> list[Cell]:
        """The empty cells a tile may go to: the frontier (the origin on an empty board)."""
        return [Cell.from_id(cell) for cell in self._frontier]

    def _live_for(self, rack: int) -> dict[int, int]:
        """Cell -> FitTable mask for every cell where a tile of ``rack`` may fit, and maybe
        a few more: the live frontier, in no set order.

        Every open cell when the rack holds a tile that is on the table (tests do).
        """
        if rack & ~self._unplaced:
            masks = self._fits.masks
            return {cell: masks[key] for cell, key in self._frontier.items()}
        return self._live

    def figure(self, cell: Cell) -> str | None:
        """The figure a tile laid on the empty ``cell`` would complete, by its record name."""
        return FIGURES[figure_code(cell.id, self._edges, self._counts)]

    def _key(self, cell: int) -> int:
        """The FitTable key of a cell: the numbers already on its corners."""
        numbers, base = self._numbers, self._base
        v0, v1, v2 = CORNERS[cell]
        return (numbers[v0] * base + numbers[v1]) * base + numbers[v2]

    # --- legality ------------------------------------------------------------------

    def check(self, placement: Placement) -> None:
        """Raise IllegalPlacementError naming the rule that ``placement`` breaks."""
        tile, cell = placement.tile, placement.cell
        if len(placement.corners) != 3:
            raise IllegalPlacementError("corners", "a placement gives three corners, clockwise")
        corners = (placement.corners[0], placement.corners[1], placement.corners[2])
        if tile not in self.tile_set:
            raise IllegalPlacementError("tile_set", f"{tile} is not a tile of this set")
        is_joker = isinstance(tile, Joker)
        if not is_joker and corners not in rotations(tile.numbers):
            raise IllegalPlacementError(
                "no_flip",
                f"corners {list(corners)} are not a rotation of {tile}: a tile is turned, "
                "never flipped",
            )
        try:
            packed = cell.id
        except LatticeError as error:
            raise IllegalPlacementError("on_board", str(error)) from None
        if packed in self._occupant:
            raise IllegalPlacementError("empty_cell", f"{cell.to_json()} already holds a tile")
        if not self._stack:
            if packed != _ORIGIN_ID:
                raise IllegalPlacementError(
                    "first_tile_on_origin",
                    f"the first tile lies on {ORIGIN.to_json()}, not {cell.to_json()}",
                )
            return
        if not self._edges[packed]:
            raise IllegalPlacementError(
                "edge_contact",
                f"{cell.to_json()} shares no edge with a tile on the table",
            )
        if is_joker:
            self._check_joker_corners(cell, corners)
            return
        for vertex, number in zip(cell.corners(), corners, strict=True):
            shown = self.number_at(vertex)
            if shown is not None and shown != number:
                raise IllegalPlacementError(
                    "matching_corners",
                    f"the corner at vertex {list(vertex)} shows {shown} on the table, "
                    f"the tile would put {number} there",
                )

    def _check_joker_corners(self, cell: Cell, corners: Corners) -> None:
        shown = tuple(WILD if n is None else n for n in map(self.number_at, cell.corners()))
        if corners != shown:
            raise IllegalPlacementError(
                "joker_corners",
                f"a joker's corners show the numbers already at its vertices, {list(shown)} "
                f"on {cell.to_json()} ({WILD} where no tile touches), not {list(corners)}",
            )

    def checked_figure(self, placement: Placement, cell: int, tile: int) -> int:
        """The figure ``placement`` would complete (a FIGURES code), after checking it.

        ``cell`` and ``tile`` are the placement's packed cell and tile index. A placement
        that fits costs one FitTable lookup; any other gets the full :meth:`check`, which
        raises IllegalPlacementError naming the broken rule.
        """
        key = self._frontier.get(cell)
        if key is None or placement.corners not in self._fits.corners[key].get(tile, ()):
            self.check(placement)
        return figure_code(cell, self._edges, self._counts)

    def is_legal(self, placement: Placement) -> bool:
        try:
            self.check(placement)
        except IllegalPlacementError:
            return False
        return True

    # --- making and unmaking placements -----------------------------------------------

    def push(self, placement: Placement) -> str | None:
        """Lay a tile after checking it; returns the figure it completes."""
        self.check(placement)
        packed = placement.cell.id
        figure = figure_code(packed, self._edges, self._counts)
        self.push_unchecked(packed, self.tile_set.index(placement.tile), placement.corners)
        return FIGURES[figure]

    def push_unchecked(self, cell: int, tile: int, corners: Corners) -> None:
        """Lay tile index ``tile`` on packed ``cell``; the caller vouches for legality.

        The hottest function of every search, so _key is written out here for the cells it
        opens (about two a placement).
        """
        occupant, frontier, live = self._occupant, self._frontier, self._live
        occupant[cell] = (tile, corners)
        self._stack.append(cell)
        self._log = (self._log, cell, tile, corners)
        self._unplaced = unplaced = self._unplaced & ~(1 << tile)
        if tile == self._joker:
            self._joker_cell = cell
        frontier.pop(cell, None)
        live.pop(cell, None)
        numbers, counts = self._numbers, self._counts
        v0, v1, v2 = CORNERS[cell]
        counts[v0] += 1
        counts[v1] += 1
        counts[v2] += 1
        # A corner numbers its vertex when no tile did yet (usually one corner of the three),
        # unless it is a joker's free corner (WILD).
        n0, n1, n2 = corners
        if not numbers[v0] and n0 >= 0:
            self._renumber(v0, n0 + 1)
        if not numbers[v1] and n1 >= 0:
            self._renumber(v1, n1 + 1)
        if not numbers[v2] and n2 >= 0:
            self._renumber(v2, n2 + 1)
        edges, base, masks = self._edges, self._base, self._fits.masks
        for neighbour in NEIGHBOURS[cell]:
            touching = edges[neighbour] + 1  # read once: the array is not a list
            edges[neighbour] = touching
            # Opened by this tile: its first edge, and not the first tile's cell.
            if touching == 1 and neighbour not in occupant:
                a, b, c = CORNERS[neighbour]
                frontier[neighbour] = key = (numbers[a] * base + numbers[b]) * base + numbers[c]
                if masks[key] & unplaced:
                    live[neighbour] = masks[key]

    def _renumber(self, vertex: int, number: int) -> None:
        """Set the number + 1 at ``vertex`` (0: none), and the keys of the open cells there.

        A key is its corners' numbers + 1 times their weights, so it moves by the change
        times the weight of the corner on ``vertex``. When the vertex gets its number, a
        live cell where nothing off the table fits any more leaves the live frontier, noted
        in _dropped for pop to bring back.
        """
        change = number - self._numbers[vertex]
        self._numbers[vertex] = number
        frontier, live, masks, weights = self._frontier, self._live, self._fits.masks, self._weights
        for cell, corner in CELLS_AT[vertex]:
            if cell in frontier:
                frontier[cell] = key = frontier[cell] + change * weights[corner]
                if cell in live:
                    if change < 0 or masks[key] & self._unplaced:
                        live[cell] = masks[key]
                    else:
                        del live[cell]
                        self._dropped.append((len(self._stack), cell))

    def undo(self) -> Placement:
        """:meth:`pop`, then the open cells in the order a board that never popped lists
        them (in the order the placements opened them), so that :meth:`placement_ids`
        lists the same placements in the same order as before the push.

        What a game's undo uses; a search, which only needs the same set, pops.
        """
        placement = self.pop()
        if self._stack:
            frontier, ordered = self._frontier, {}
            for cell in self._stack:
                for neighbour in NEIGHBOURS[cell]:
                    if neighbour in frontier and neighbour not in ordered:
                        ordered[neighbour] = frontier[neighbour]
            self._frontier = ordered
        return placement

    def pop(self) -> Placement:
        """Take back the last placement (or the last joker swap: see swap_joker).

        Everything comes back as it was but the order of the open cells (the cell freed
        goes last): :meth:`undo` restores that too, at a cost a search need not pay.
        """
        if self._swaps and self._swaps[-1][0] == len(self._stack):
            return self._unswap()
        if not self._stack:
            raise IndexError("pop from an empty board")
        cell = self._stack[-1]
        placement = self._placement(cell)
        self._stack.pop()
        self._log = self._log[0]  # type: ignore[index]  # a placement is on the table
        tile, _ = self._occupant.pop(cell)
        self._unplaced |= 1 << tile
        frontier, live, edges = self._frontier, self._live, self._edges
        for neighbour in NEIGHBOURS[cell]:
            edges[neighbour] -= 1
            if not edges[neighbour]:
                frontier.pop(neighbour, None)
                live.pop(neighbour, None)
        numbers, counts = self._numbers, self._counts
        joker_corners = () if self._joker_cell is None else CORNERS[self._joker_cell]
        if cell == self._joker_cell:
            self._joker_cell, joker_corners = None, ()
        for vertex in CORNERS[cell]:
            counts[vertex] -= 1
            # A vertex keeps its number while a card (not only the joker) touches it.
            if numbers[vertex] and (
                not counts[vertex] or (counts[vertex] == 1 and vertex in joker_corners)
            ):
                self._renumber(vertex, 0)
        masks, dropped = self._fits.masks, self._dropped
        if edges[cell] or not self._stack:
            # Open again (the origin of an empty board is open), and live: the tile just
            # taken back fitted it.
            frontier[cell] = key = self._key(cell)
            live[cell] = masks[key]
        while dropped and dropped[-1][0] > len(self._stack):  # dropped by this placement
            _, gone = dropped.pop()
            live[gone] = masks[frontier[gone]]
        return placement

    # --- the joker of Triominos Junior --------------------------------------------------

    @property
    def joker_cell(self) -> Cell | None:
        """Where the joker lies, if it is on the table."""
        return None if self._joker_cell is None else Cell.from_id(self._joker_cell)

    def joker_swaps(self, rack: int) -> Iterator[tuple[int, Corners]]:
        """(tile index, corners) of every card of the rack that may replace the joker."""
        if self._joker_cell is None:
            return
        key = self._key(self._joker_cell)
        options = self._fits.corners[key]
        jokerless = rack & ~(1 << self._joker) if self._joker is not None else rack
        for tile in indices(self._fits.masks[key] & jokerless):
            for corners in options[tile]:
                yield tile, corners

    def swap_joker(self, tile: int, corners: Corners) -> None:
        """Put card index ``tile`` where the joker lies (the caller checked joker_swaps).

        The card must fit exactly where the joker was: every numbered vertex of the
        cell. The joker's free corners take the card's numbers. ``pop`` undoes it.
        """
        cell = self._joker_cell
        if cell is None:
            raise IllegalPlacementError("joker_on_table", "the joker is not on the table")
        joker = self._occupant[cell]
        self._occupant[cell] = (tile, corners)
        self._unplaced = (self._unplaced | 1 << joker[0]) & ~(1 << tile)
        # The joker is off the table again and fits anywhere: every open cell is live (so
        # _renumber below drops none).
        live, masks = self._live, self._fits.masks
        self._live = {open_cell: masks[key] for open_cell, key in self._frontier.items()}
        numbered = []
        for vertex, number in zip(CORNERS[cell], corners, strict=True):
            if not self._numbers[vertex]:
                numbered.append(vertex)
                self._renumber(vertex, number + 1)
        self._swaps.append((len(self._stack), cell, joker, tuple(numbered), live))
        self._log = (self._log, SWAP, tile, corners)
        self._joker_cell = None

    def _unswap(self) -> Placement:
        _, cell, joker, numbered, live = self._swaps.pop()
        card = self._placement(cell)
        tile, _ = self._occupant[cell]
        self._occupant[cell] = joker
        self._unplaced = (self._unplaced | 1 << tile) & ~(1 << joker[0])
        for vertex in numbered:
            self._renumber(vertex, 0)
        self._live = live.copy()  # as before the swap; the saved one stays as it was
        self._log = self._log[0]  # type: ignore[index]  # a swap is on the log
        self._joker_cell = cell
        return card

    # --- what a rack can do ---------------------------------------------------------

    def placement_ids(self, rack: int) -> Iterator[tuple[int, int, Corners, int]]:
        """Every legal (cell, tile index, corners, figure code) for a rack bitmask."""
        masks, fit_corners = self._fits.masks, self._fits.corners
        edges, counts = self._edges, self._counts
        for cell, key in self._frontier.items():
            fitting = masks[key] & rack
            if not fitting:
                continue
            figure = figure_code(cell, edges, counts)
            options = fit_corners[key]
            for tile in indices(fitting):
                for corners in options[tile]:
                    yield cell, tile, corners, figure

    def legal_placements(self, rack: int | Iterable[Tile]) -> list[Placement]:
        """Every legal placement of a tile of ``rack`` (a bitmask or tiles)."""
        mask = rack if isinstance(rack, int) else self.tile_set.mask(rack)
        tiles = self.tile_set.tiles
        return [
            Placement(tiles[tile], Cell.from_id(cell), corners)
            for cell, tile, corners, _ in self.placement_ids(mask)
        ]

    def can_place(self, rack: int) -> bool:
        """Whether any tile of the rack bitmask fits anywhere."""
        return any(mask & rack for mask in self._live_for(rack).values())

    def fitting_tiles(self, rack: int) -> int:
        """The bitmask of the rack's tiles that fit somewhere."""
        found = 0
        for mask in self._live_for(rack).values():
            found |= mask & rack
        return found

    def best_placement(
        self, rack: int, figure_points: tuple[int, ...], values: Sequence[int] | None = None
    ) -> tuple[int, int, Corners, int] | None:
        """The highest-scoring (cell, tile, corners, figure) for a rack, or None.

        The score is ``values[tile]`` (by default the tile's value) plus
        ``figure_points[figure]``; among tiles worth the same, the highest index wins (the
        joker, index 0, only when nothing else fits). Ties between cells go to the lower
        cell id, so the answer does not depend on the frontier's order. This is the
        greedy bot's whole move and the inner loop of rollouts.
        """
        if values is None:
            values = self.tile_set.values
        edges, counts = self._edges, self._counts
        best_score = best_cell = best_tile = best_figure = -1
        # _live_for written out for the common case: a call fewer on every move.
        live = self._live if (rack & self._unplaced) == rack else self._live_for(rack)
        for cell, mask in live.items():
            if mask & rack:  # rarely: most cells fit no tile of the rack
                tile = (mask & rack).bit_length() - 1
                if edges[cell] == 1:  # figure_code's common case, written out
                    v0, v1, v2 = CORNERS[cell]
                    figure = BRIDGE if counts[v0] and counts[v1] and counts[v2] else 0
                else:
                    figure = figure_code(cell, edges, counts)
                score = values[tile] + figure_points[figure]
                if score > best_score or (score == best_score and cell < best_cell):
                    best_score, best_cell, best_tile, best_figure = score, cell, tile, figure
        if best_cell < 0:
            return None
        key = self._frontier[best_cell]
        return best_cell, best_tile, self._fits.corners[key][best_tile][0], best_figure


class FrozenBoard:
    """A board as it was at one moment, which nothing can change: what an observation
    shows (:class:`~triominos.game.Observation`).

    Taking one costs a reference, not a copy: it keeps the board's :data:`_Log` entry of
    the moment, and answers from the board itself (held weakly) while that board is
    still in that state (the same entry: the hand has not moved on, or was popped back),
    which is every question a bot asks on its turn. Asked later, or after pickling, it
    replays its log once onto a board of its own. It has every reading method of
    :class:`Board` and none that changes it; :meth:`copy` is a :class:`Board` to search
    on.
    """

    __slots__ = ("_board", "_log", "_source", "_tile_set")

    def __init__(self, board: Board) -> None:
        self._tile_set = board.tile_set
        self._log = board._log
        self._source: weakref.ref[Board] | None = weakref.ref(board)
        self._board: Board | None = None

    @classmethod
    def owning(cls, board: Board) -> FrozenBoard:
        """A snapshot that keeps ``board`` itself, which nobody else may change after."""
        frozen = cls(board)
        frozen._source, frozen._board = None, board
        return frozen

    def _reading(self) -> Board:
        """The board to answer from: the source while it is as it was, else our own."""
        if self._source is not None:
            source = self._source()
            if source is not None and source._log is self._log:
                return source
            self._source = None
        if self._board is None:
            self._board = Board.from_log(self.tile_set, _moves(self._log))
        return self._board

    def __reduce__(self) -> tuple[object, tuple[str, tuple[tuple[int, int, Corners], ...]]]:
        """Pickled as its tile set's name and its log: a few hundred bytes."""
        return _unpickle_frozen, (self.tile_set.name, self.log)

    @property
    def tile_set(self) -> TileSet:
        return self._tile_set

    @property
    def log(self) -> tuple[tuple[int, int, Corners], ...]:
        return _moves(self._log)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board | FrozenBoard):
            return _same_board(self, other)
        return NotImplemented

    def __hash__(self) -> int:
        """A snapshot never changes, so an observation can be a dict key or in a set.
        (It is equal to a board in the same state, which is unhashable: it changes.)"""
        return hash((self.tile_set.name, self.log))

    def __repr__(self) -> str:
        return f"<FrozenBoard {self.tile_set.name}: {len(self)} tiles>"

    def copy(self) -> Board:
        """A board in this state, to push and pop on."""
        return self._reading().copy()

    def __len__(self) -> int:
        return len(self._reading())

    def __iter__(self) -> Iterator[Placement]:
        return iter(list(self._reading()))

    def _repr_svg_(self) -> str:
        return self._reading()._repr_svg_()

    @property
    def last(self) -> Placement | None:
        return self._reading().last

    @property
    def joker_cell(self) -> Cell | None:
        return self._reading().joker_cell

    def tile_at(self, cell: Cell) -> Placement | None:
        return self._reading().tile_at(cell)

    def number_at(self, vertex: Vertex) -> int | None:
        return self._reading().number_at(vertex)

    def open_cells(self) -> list[Cell]:
        return self._reading().open_cells()

    def figure(self, cell: Cell) -> str | None:
        return self._reading().figure(cell)

    def check(self, placement: Placement) -> None:
        self._reading().check(placement)

    def is_legal(self, placement: Placement) -> bool:
        return self._reading().is_legal(placement)

    def placement_ids(self, rack: int) -> list[tuple[int, int, Corners, int]]:
        return list(self._reading().placement_ids(rack))

    def joker_swaps(self, rack: int) -> list[tuple[int, Corners]]:
        return list(self._reading().joker_swaps(rack))

    def legal_placements(self, rack: int | Iterable[Tile]) -> list[Placement]:
        return self._reading().legal_placements(rack)

    def can_place(self, rack: int) -> bool:
        return self._reading().can_place(rack)

    def fitting_tiles(self, rack: int) -> int:
        return self._reading().fitting_tiles(rack)

    def best_placement(
        self, rack: int, figure_points: tuple[int, ...], values: Sequence[int] | None = None
    ) -> tuple[int, int, Corners, int] | None:
        return self._reading().best_placement(rack, figure_points, values)


def _unpickle_frozen(tile_set: str, log: Iterable[tuple[int, int, Corners]]) -> FrozenBoard:
    return FrozenBoard.owning(Board.from_log(TILE_SETS[tile_set], log))


PYTHON_PATHS: dict[str, object] = {name: Board.__dict__[name] for name in native.BOARD_PATHS}
"""Board's own methods for the paths the native core replaces: the reference it is
compared with (tests/test_native_board.py), kept whichever core is in use."""
_NATIVE = native.load_board()
if _NATIVE is not None:
    for _name in native.BOARD_PATHS:
        setattr(Board, _name, getattr(_NATIVE, _name))
