# cython: language_level=3, cdivision=True
"""The observation tensor in C: ObservationEncoder's board planes and tile masks.

:func:`_planes` and :data:`_bits` take the place of the Python methods when the native
core is on (:mod:`triominos.native`) and set the same numbers of the same tensor, which
:func:`_new_tensor` makes (zeros set in C rather than copied).
``_planes`` reads the board's own state (its stack, occupants and open cells) instead of
making a Placement and a Cell per tile; a board reaching outside the window goes to the
Python method, which raises the error naming the cell. The tile masks stay Python ints,
as wide as the tile set (76 bits for the extended set): :func:`bits` reads them a word
at a time. ``tests/test_native_encoding.py`` compares both cores on thousands of positions.
"""

from cpython cimport array
from cpython.long cimport PyLong_AsUnsignedLongLongMask

from triominos.board import FrozenBoard
from triominos.encoding import PHASES, POINTS_SCALE as _POINTS_SCALE, PYTHON_ENCODING_PATHS
from triominos.lattice import OFFSET as _OFFSET, WIDTH as _WIDTH
from triominos.tiles import WILD as _WILD

cdef Py_ssize_t WIDTH = _WIDTH
cdef Py_ssize_t OFFSET = _OFFSET
cdef int WILD = _WILD
cdef object ONE = 1  # a Python int, so that ONE << tile is a Python shift, never truncated
cdef object PYTHON_PLANES = PYTHON_ENCODING_PATHS["_planes"]
cdef double POINTS_SCALE = _POINTS_SCALE
cdef object PYTHON_BITS = PYTHON_ENCODING_PATHS["_bits"]

ctypedef unsigned long long u64

cdef extern from *:
    int __builtin_ctzll(u64 word) nogil


cdef inline Py_ssize_t window_at(Py_ssize_t cell, Py_ssize_t radius, Py_ssize_t side) noexcept:
    """ObservationEncoder._cell: the flat index of a cell's lower-left vertex in a plane,
    or -1 when the whole cell is not in the window."""
    cdef Py_ssize_t vertex = cell >> 1
    cdef Py_ssize_t x = vertex // WIDTH - OFFSET + radius
    cdef Py_ssize_t y = vertex % WIDTH - OFFSET + radius
    if not (0 <= x < side - 1 and 0 <= y < side - 1):
        return -1
    return x * side + y


def _planes(self, array.array out, board):
    """ObservationEncoder._planes on the board's state (module docstring)."""
    if isinstance(board, FrozenBoard):
        board = board._reading()
    cdef float* data = out.data.as_floats
    cdef Py_ssize_t radius = self.radius, side = self.side
    cdef dict plane = self._plane
    cdef Py_ssize_t up_tile = plane["up tile"], down_tile = plane["down tile"]
    cdef Py_ssize_t up_open = plane["up open"], down_open = plane["down open"]
    cdef Py_ssize_t up_joker = plane.get("up joker", -1), down_joker = plane.get("down joker", -1)
    cdef list numbers = self._numbers
    cdef object joker = board.tile_set.joker
    cdef Py_ssize_t joker_index = -1 if joker is None else joker
    cdef dict occupant = board._occupant
    cdef Py_ssize_t offsets[2][3]
    # A cell's corners from its lower-left vertex v, as the Python method lays them:
    # down (v + 1, v + side + 1, v + side), up (v, v + 1, v + side).
    offsets[0][0], offsets[0][1], offsets[0][2] = 1, side + 1, side
    offsets[1][0], offsets[1][1], offsets[1][2] = 0, 1, side
    cdef Py_ssize_t cell, at, index, corner, up
    cdef int number
    cdef tuple corners
    on_table = 0
    for cell in board._stack:
        at = window_at(cell, radius, side)
        if at < 0:
            return PYTHON_PLANES(self, out, board)
        index, corners = occupant[cell]
        on_table |= ONE << index
        up = cell & 1
        data[(up_tile if up else down_tile) + at] = 1.0
        for corner in range(3):
            number = corners[corner]
            if number != WILD:
                data[<Py_ssize_t> numbers[number] + at + offsets[up][corner]] = 1.0
        if index == joker_index:
            data[(up_joker if up else down_joker) + at] = 1.0
    for cell in board._frontier:
        at = window_at(cell, radius, side)
        if at < 0:
            return PYTHON_PLANES(self, out, board)
        data[(up_open if cell & 1 else down_open) + at] = 1.0
    return on_table


def _features(self, array.array out, observation, on_table):
    """ObservationEncoder._features, the same numbers in the same float arithmetic."""
    cdef float* data = out.data.as_floats
    cdef dict features = self.features
    cdef Py_ssize_t players = self.players, seat = observation.seat, i, other
    rack = observation.rack
    seen = on_table | rack
    lay_bits(data, features["rack"].start, rack)
    lay_bits(data, features["table"].start, on_table)
    open_racks = observation.open_racks
    cdef Py_ssize_t start, tiles
    if open_racks is not None and "open racks" in features:
        start, tiles = features["open racks"].start, len(self.rules.tiles)
        for i in range(1, players):
            rack = open_racks[(seat + i) % players]
            seen |= rack
            lay_bits(data, start + (i - 1) * tiles, rack)
    lay_bits(data, features["unseen"].start, self.rules.box_mask & ~seen)
    cdef tuple totals = tuple(observation.totals), points = tuple(observation.hand_points)
    cdef tuple sizes = tuple(observation.rack_sizes)
    cdef Py_ssize_t at_totals = features["totals"].start
    cdef Py_ssize_t at_points = features["hand points"].start
    cdef Py_ssize_t at_sizes = features["rack sizes"].start
    for i in range(players):
        other = (seat + i) % players
        data[at_totals + i] = <double> totals[other] / POINTS_SCALE
        data[at_points + i] = <double> points[other] / POINTS_SCALE
        data[at_sizes + i] = <double> sizes[other]
    cdef Py_ssize_t ahead = <Py_ssize_t> observation.to_move - seat
    data[<Py_ssize_t> features["to move"].start + (ahead + players) % players] = 1.0
    data[<Py_ssize_t> features["pool size"].start] = <double> observation.pool_size
    data[<Py_ssize_t> features["draws"].start] = <double> observation.draws
    data[<Py_ssize_t> features["phase"].start + PHASES.index(observation.phase)] = 1.0
    bank = observation.bank
    if bank is not None:
        data[<Py_ssize_t> features["bank"].start] = <double> bank


cdef int lay_bits(float* data, Py_ssize_t start, mask) except -1:
    """1.0 at ``start`` plus each set bit of ``mask``, read 64 bits at a time (a mask is
    as wide as its tile set; never negative here)."""
    cdef u64 word
    while mask:
        word = PyLong_AsUnsignedLongLongMask(mask)
        while word:
            data[start + __builtin_ctzll(word)] = 1.0
            word &= word - 1
        mask >>= 64
        start += 64
    return 0


def bits(array.array out, Py_ssize_t start, mask):
    """ObservationEncoder._bits (:func:`lay_bits`)."""
    if mask < 0:
        return PYTHON_BITS(out, start, mask)  # which loops for ever, as it would
    lay_bits(out.data.as_floats, start, mask)


_bits = staticmethod(bits)  # the class attribute, as the Python one is


def _new_tensor(self):
    """ObservationEncoder._new_tensor: the zeros set in C (memset), not copied from bytes."""
    cdef array.array blank = self._blank
    return array.clone(blank, len(blank), True)
