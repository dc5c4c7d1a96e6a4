# cython: language_level=3, cdivision=True
"""The board's hot paths in C: the same functions as :class:`triominos.board.Board`'s.

Each function here takes the place of the method of the same name when the native core
is on (:mod:`triominos.native`). They work on the board's own state, the same bytearrays,
dicts and lists the Python methods keep, and change it exactly as those do, entry for
entry and in the same order, so that a board may be pushed natively and popped in
Python, and the Python methods left as they are (joker swaps, undo, copy) stay right.
``tests/test_native_board.py`` holds them to that, state for state.

What is C here is the geometry (corners and neighbours are sums, not tuple lookups), the
arrays (read through pointers) and the loops. The board's tile masks stay Python ints,
as wide as the tile set: the 76 tiles of the extended set need more than 64 bits. The
greedy questions (:func:`best_placement`, :func:`fitting_tiles`, :func:`can_place`) AND
in C words: a rack below bit 64 with the low word of each mask (exact: the AND cuts the
higher bits off anyway), a wider one with two words a mask, kept by FitTable; a rack of
more than 128 bits, which no tile set makes, gets the Python method.
"""

from sys import byteorder

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.long cimport PyLong_AsUnsignedLongLongMask

from triominos.board import BRIDGE as _BRIDGE, PYTHON_PATHS, TWO_SIDES as _TWO_SIDES
from triominos.lattice import CELLS_AROUND as _CELLS_AROUND, WIDTH as _WIDTH

ctypedef unsigned long long u64

cdef Py_ssize_t WIDTH = _WIDTH
cdef int BRIDGE = _BRIDGE
cdef int TWO_SIDES = _TWO_SIDES
cdef object ONE = 1  # a Python int, so that ONE << tile is a Python shift, never truncated
cdef object WORD = (1 << 64) - 1

# The six cells around a vertex, in the lattice's order (CELLS_AROUND): the order in which
# a renumbered vertex visits its cells decides the order of the board's dropped cells.
cdef Py_ssize_t AROUND_OFFSET[6]
cdef int AROUND_CORNER[6]
for _index, (_offset, _corner) in enumerate(_CELLS_AROUND):
    AROUND_OFFSET[_index] = _offset
    AROUND_CORNER[_index] = _corner


cdef inline void corners_of(Py_ssize_t cell, Py_ssize_t* out) noexcept:
    """lattice.corner_ids: the vertices of a cell, clockwise from the leftmost."""
    cdef Py_ssize_t v = cell >> 1
    if cell & 1:
        out[0] = v
        out[1] = v + 1
        out[2] = v + WIDTH
    else:
        out[0] = v + 1
        out[1] = v + WIDTH + 1
        out[2] = v + WIDTH


cdef inline void neighbours_of(Py_ssize_t cell, Py_ssize_t* out) noexcept:
    """lattice.neighbour_ids: the cells sharing an edge with a cell, in its order."""
    cdef Py_ssize_t v = cell >> 1
    if cell & 1:
        out[0] = 2 * v
        out[1] = 2 * (v - WIDTH)
        out[2] = 2 * (v - 1)
    else:
        out[0] = 2 * v + 1
        out[1] = 2 * (v + WIDTH) + 1
        out[2] = 2 * (v + 1) + 1


cdef inline unsigned char* bytes_of(object array) except NULL:
    return <unsigned char*> PyByteArray_AS_STRING(<bytearray?> array)


cdef inline int figure_of(Py_ssize_t cell, unsigned char* edges, unsigned char* counts) noexcept:
    """board.figure_code on the arrays' pointers."""
    cdef Py_ssize_t v[3]
    corners_of(cell, v)
    cdef int c0 = counts[v[0]], c1 = counts[v[1]], c2 = counts[v[2]]
    cdef int touching = edges[cell]
    if touching == 1:
        return BRIDGE if c0 and c1 and c2 else 0
    cdef int hexagons = (c0 == 5) + (c1 == 5) + (c2 == 5)
    if hexagons:
        return hexagons
    return TWO_SIDES if touching == 2 else 0


cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int highest_bit(u64 word) noexcept:
    return 63 - __builtin_clzll(word)




cdef renumber(
    board, unsigned char* numbers, Py_ssize_t vertex, int number, Py_ssize_t base
):
    """Board._renumber."""
    cdef dict frontier = board._frontier
    cdef dict live = board._live
    cdef list masks = board._fits.masks
    cdef Py_ssize_t weights[3]
    weights[0] = base * base
    weights[1] = base
    weights[2] = 1
    cdef int change = number - numbers[vertex]
    numbers[vertex] = number
    cdef Py_ssize_t index, key
    cdef object cell, unplaced = board._unplaced
    for index in range(6):
        cell = 2 * vertex + AROUND_OFFSET[index]
        old = frontier.get(cell)
        if old is None:
            continue
        key = <Py_ssize_t> old + change * weights[AROUND_CORNER[index]]
        frontier[cell] = key
        if cell in live:
            mask = masks[key]
            if change < 0 or mask & unplaced:
                live[cell] = mask
            else:
                del live[cell]
                board._dropped.append((len(board._stack), cell))


def push_unchecked(self, Py_ssize_t cell, tile, tuple corners):
    cdef dict occupant = self._occupant
    cdef dict frontier = self._frontier
    cdef dict live = self._live
    cell_object = cell
    occupant[cell_object] = (tile, corners)
    self._stack.append(cell_object)
    self._log = (self._log, cell_object, tile, corners)
    unplaced = self._unplaced & ~(ONE << tile)
    self._unplaced = unplaced
    if tile == self._joker:
        self._joker_cell = cell_object
    frontier.pop(cell_object, None)
    live.pop(cell_object, None)
    cdef unsigned char* numbers = bytes_of(self._numbers)
    cdef unsigned char* counts = bytes_of(self._counts)
    cdef unsigned char* edges = bytes_of(self._edges)
    cdef Py_ssize_t base = self._base
    cdef Py_ssize_t v[3]
    cdef Py_ssize_t n[3]
    cdef int corner
    corners_of(cell, v)
    for corner in range(3):
        counts[v[corner]] += 1
        n[corner] = corners[corner]
    for corner in range(3):
        # A joker's free corner (WILD, negative) numbers nothing.
        if not numbers[v[corner]] and n[corner] >= 0:
            renumber(self, numbers, v[corner], n[corner] + 1, base)
    cdef list masks = self._fits.masks
    cdef Py_ssize_t around[3]
    cdef Py_ssize_t a[3]
    cdef Py_ssize_t neighbour, key
    neighbours_of(cell, around)
    for corner in range(3):
        neighbour = around[corner]
        edges[neighbour] += 1
        if edges[neighbour] == 1 and neighbour not in occupant:
            corners_of(neighbour, a)
            key = (numbers[a[0]] * base + numbers[a[1]]) * base + numbers[a[2]]
            frontier[neighbour] = key
            mask = masks[key]
            if mask & unplaced:
                live[neighbour] = mask


def pop(self):
    cdef list stack = self._stack
    swaps = self._swaps
    if swaps and swaps[-1][0] == len(stack):
        return self._unswap()
    if not stack:
        raise IndexError("pop from an empty board")
    cell_object = stack[-1]
    cdef Py_ssize_t cell = cell_object
    placement = self._placement(cell_object)
    stack.pop()
    self._log = self._log[0]
    tile, _ = self._occupant.pop(cell_object)
    self._unplaced = self._unplaced | (ONE << tile)
    cdef dict frontier = self._frontier
    cdef dict live = self._live
    cdef unsigned char* numbers = bytes_of(self._numbers)
    cdef unsigned char* counts = bytes_of(self._counts)
    cdef unsigned char* edges = bytes_of(self._edges)
    cdef Py_ssize_t base = self._base
    cdef Py_ssize_t around[3]
    cdef Py_ssize_t v[3]
    cdef Py_ssize_t joker[3]
    cdef Py_ssize_t neighbour, vertex, key
    cdef int index
    neighbours_of(cell, around)
    for index in range(3):
        neighbour = around[index]
        edges[neighbour] -= 1
        if not edges[neighbour]:
            frontier.pop(neighbour, None)
            live.pop(neighbour, None)
    cdef bint has_joker = self._joker_cell is not None
    if has_joker:
        corners_of(self._joker_cell, joker)
        if cell_object == self._joker_cell:
            self._joker_cell = None
            has_joker = False
    corners_of(cell, v)
    for index in range(3):
        vertex = v[index]
        counts[vertex] -= 1
        # A vertex keeps its number while a card (not only the joker) touches it.
        if numbers[vertex] and (
            not counts[vertex]
            or (
                counts[vertex] == 1
                and has_joker
                and (vertex == joker[0] or vertex == joker[1] or vertex == joker[2])
            )
        ):
            renumber(self, numbers, vertex, 0, base)
    cdef list masks = self._fits.masks
    cdef list dropped = self._dropped
    if edges[cell] or not stack:
        # Open again (the origin of an empty board is open), and live: the tile just
        # taken back fitted it.
        key = (numbers[v[0]] * base + numbers[v[1]]) * base + numbers[v[2]]
        frontier[cell_object] = key
        live[cell_object] = masks[key]
    cdef Py_ssize_t depth = len(stack)
    while dropped and dropped[-1][0] > depth:  # dropped by this placement
        _, gone = dropped.pop()
        live[gone] = masks[frontier[gone]]
    return placement


def placement_ids(self, rack):
    cdef list masks = self._fits.masks
    cdef list fit_corners = self._fits.corners
    cdef unsigned char* edges = bytes_of(self._edges)
    cdef unsigned char* counts = bytes_of(self._counts)
    cdef list found = []
    cdef Py_ssize_t key, tile
    cdef u64 low
    for cell, key_object in (<dict> self._frontier).items():
        key = key_object
        fitting = masks[key] & rack
        if not fitting:
            continue
        figure = figure_of(cell, edges, counts)
        options = fit_corners[key]
        # The tiles in increasing index, as tiles.indices gives them.
        tile = 0
        while fitting:
            low = PyLong_AsUnsignedLongLongMask(fitting & WORD)
            while low:
                index = tile + __builtin_ctzll(low)
                for corners in options[index]:
                    found.append((cell, index, corners, figure))
                low &= low - 1
            fitting >>= 64
            tile += 64
    return iter(found)


cdef dict WORDS = {}
"""By FitTable, its masks as C words, two a key (low, high): the 76 tiles need 128 bits."""


cdef const u64* words_of(fits) except NULL:
    words = WORDS.get(fits)
    if words is None:
        # to_bytes raises, never truncates, should a mask ever pass 128 bits.
        words = WORDS[fits] = b"".join(
            (mask & WORD).to_bytes(8, byteorder) + (mask >> 64).to_bytes(8, byteorder)
            for mask in fits.masks
        )
    return <const u64*> PyBytes_AS_STRING(words)


cdef struct Rack:
    u64 low
    u64 high
    bint narrow  # below bit 64: AND with the low word of each live mask, as it comes
    const u64* words  # else the FitTable's words, found by the cell's key


cdef inline bint in_words(rack, Rack* out, board) except -1:
    """Fill ``out`` for a rack; False when it is no mask of at most 128 bits (the Python
    method answers then)."""
    if rack < 0 or rack >> 128:
        return False
    out.low = PyLong_AsUnsignedLongLongMask(rack & WORD)
    out.high = PyLong_AsUnsignedLongLongMask(rack >> 64)
    out.narrow = out.high == 0
    out.words = NULL if out.narrow else words_of(board._fits)
    return True


cdef inline bint fitting(Rack* rack, cell, mask, dict frontier, u64* out) except -1:
    """The rack's tiles that fit a live cell (its mask ``mask``), as two words in ``out``:
    whether any. A live cell's mask is its key's (Board keeps them so)."""
    cdef Py_ssize_t key
    if rack.narrow:
        out[0] = PyLong_AsUnsignedLongLongMask(mask) & rack.low
        out[1] = 0
    else:
        key = frontier[cell]
        out[0] = rack.words[2 * key] & rack.low
        out[1] = rack.words[2 * key + 1] & rack.high
    return out[0] != 0 or out[1] != 0


def fitting_tiles(self, rack):
    cdef Rack words
    if not in_words(rack, &words, self):
        return PYTHON_PATHS["fitting_tiles"](self, rack)
    cdef u64 found[2]
    cdef u64 low = 0, high = 0
    cdef dict frontier = self._frontier
    for cell, mask in (<dict> self._live_for(rack)).items():
        if fitting(&words, cell, mask, frontier, found):
            low |= found[0]
            high |= found[1]
    return (<object> high) << 64 | low


def can_place(self, rack):
    cdef Rack words
    if not in_words(rack, &words, self):
        return PYTHON_PATHS["can_place"](self, rack)
    cdef u64 found[2]
    cdef dict frontier = self._frontier
    for cell, mask in (<dict> self._live_for(rack)).items():
        if fitting(&words, cell, mask, frontier, found):
            return True
    return False


def best_placement(self, rack, figure_points, values=None):
    cdef Rack words
    if not in_words(rack, &words, self):
        return PYTHON_PATHS["best_placement"](self, rack, figure_points, values)
    if values is None:
        values = self.tile_set.values
    cdef unsigned char* edges = bytes_of(self._edges)
    cdef unsigned char* counts = bytes_of(self._counts)
    cdef dict frontier = self._frontier
    cdef Py_ssize_t cell, best_cell = -1
    cdef int figure, best_figure = -1, tile, best_tile = -1
    cdef long score, best_score = -1
    cdef u64 found[2]
    live = self._live if (rack & self._unplaced) == rack else self._live_for(rack)
    for cell_object, mask in (<dict> live).items():
        if not fitting(&words, cell_object, mask, frontier, found):
            continue
        tile = 64 + highest_bit(found[1]) if found[1] else highest_bit(found[0])
        cell = cell_object
        figure = figure_of(cell, edges, counts)
        score = values[tile] + figure_points[figure]
        if score > best_score or (score == best_score and cell < best_cell):
            best_score, best_cell, best_tile, best_figure = score, cell, tile, figure
    if best_cell < 0:
        return None
    key = frontier[best_cell]
    return best_cell, best_tile, self._fits.corners[key][best_tile][0], best_figure
