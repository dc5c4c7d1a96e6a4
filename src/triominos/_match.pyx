# cython: language_level=3, cdivision=True
"""The match's hot paths in C: the same functions as :mod:`triominos.game`'s.

:func:`placement_actions` takes the place of ``game.placement_actions`` when the native
core is on (:mod:`triominos.native`): the legal placements of a rack in play, each a
LegalAction with its points and bonuses, in the board's order, made without the Python
calls per placement (``placement_points``, the NamedTuples' ``__new__``).
``tests/test_native_api.py`` compares both cores on thousands of positions.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.list cimport PyList_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from triominos.board import BRIDGE as _BRIDGE, FIGURES as _FIGURES, TWO_SIDES as _TWO_SIDES, Placement
from triominos.game import LegalAction, Observation
from triominos.lattice import WIDTH as _WIDTH, Cell

cdef object NEW_TUPLE = tuple.__new__
cdef object CELL_OF = Cell.from_id
cdef tuple FIGURES = _FIGURES
cdef str LAST_TILE = "last_tile"
cdef object ONE = 1
cdef Py_ssize_t WIDTH = _WIDTH
cdef int BRIDGE = _BRIDGE
cdef int TWO_SIDES = _TWO_SIDES


def placement_actions(list found, rules, board, rack, bank):
    """game.placement_actions: the same LegalActions, appended to ``found`` in the same
    order; whether there was any."""
    tile_set = board.tile_set
    cdef tuple tiles = tile_set.tiles
    cdef bint by_value = rules.tile_points == "value"
    cdef tuple values = tile_set.values if by_value else None
    cdef tuple figure_points = rules.figure_points
    cdef object last_bonus = rules.last_tile_bonus
    cdef bint capped = bank is not None
    cdef dict cells = {}  # each cell's Cell, asked once a call
    cdef Py_ssize_t before = len(found)
    cdef Py_ssize_t index, figure
    cdef dict bonuses
    for cell, index_object, corners, figure_object in board.placement_ids(rack):
        index, figure = index_object, figure_object
        points = values[index] if by_value else ONE
        bonuses = {}
        bonus = figure_points[figure]
        if bonus:
            bonuses[FIGURES[figure]] = bonus
            points = points + bonus
        if last_bonus and rack == ONE << index_object:
            bonuses[LAST_TILE] = last_bonus
            points = points + last_bonus
        if capped and bank < points:
            points = bank
        at = cells.get(cell)
        if at is None:
            at = cells[cell] = CELL_OF(cell)
        placement = NEW_TUPLE(Placement, (tiles[index], at, corners))
        found.append(NEW_TUPLE(LegalAction, (placement, points, bonuses)))
    return len(found) > before


def observe(hand, seat, totals=None):
    """game.observe: the same Observation, its fields read in the same order."""
    cdef Py_ssize_t players = hand.players
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat must be from 0 to {players - 1}, or None, not {seat!r}")
    if totals is None:
        totals = hand._totals
    seen = (<dict> hand._seen).get(seat)
    if seen is None:
        seen = hand.seen_by(seat)
    cdef list racks = hand.racks
    rules = hand.rules
    cdef Py_ssize_t count = len(racks), i
    cdef tuple sizes = PyTuple_New(count)
    for i in range(count):
        size = (<object> PyList_GET_ITEM(racks, i)).bit_count()
        Py_INCREF(size)
        PyTuple_SET_ITEM(sizes, i, size)
    return NEW_TUPLE(
        Observation,
        (
            rules,
            seat,
            hand.players,
            hand.number,
            hand.phase,
            hand.to_move,
            hand.starter,
            hand.board.frozen(),
            None if seat is None else racks[seat],
            sizes,
            len(hand._pool) - hand._drawn,
            hand.draws,
            tuple(hand.points),
            tuple(totals),
            hand.end,
            tuple(seen),
            tuple(racks) if rules.open_racks else None,
            hand.gong,
        ),
    )


def checked_figure(board, placement, cell, tile):
    """Board.checked_figure: the figure on the board's arrays, the full check (and its
    error) from the Python method when the placement does not fit."""
    key = (<dict> board._frontier).get(cell)
    if key is None or placement.corners not in (<dict> board._fits.corners[key]).get(tile, ()):
        board.check(placement)
    cdef unsigned char* edges = <unsigned char*> PyByteArray_AS_STRING(board._edges)
    cdef unsigned char* counts = <unsigned char*> PyByteArray_AS_STRING(board._counts)
    return figure_of(cell, edges, counts)


cdef inline int figure_of(Py_ssize_t cell, unsigned char* edges, unsigned char* counts) noexcept:
    """board.figure_code on the arrays' pointers."""
    cdef Py_ssize_t v = cell >> 1, v0, v1, v2
    if cell & 1:
        v0, v1, v2 = v, v + 1, v + WIDTH
    else:
        v0, v1, v2 = v + 1, v + WIDTH + 1, v + WIDTH
    cdef int c0 = counts[v0], c1 = counts[v1], c2 = counts[v2]
    cdef int touching = edges[cell]
    if touching == 1:
        return BRIDGE if c0 and c1 and c2 else 0
    cdef int hexagons = (c0 == 5) + (c1 == 5) + (c2 == 5)
    if hexagons:
        return hexagons
    return TWO_SIDES if touching == 2 else 0
