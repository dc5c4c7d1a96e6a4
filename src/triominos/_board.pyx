# cython: language_level=3, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
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

Below the board, the sim bot's inner loop: :class:`Playout` plays a candidate out in a
sampled world as ``Simulation.play_out`` does with a Hand (on a :class:`Table`, the
board's frontier in C arrays for the playout's length, where no joker plays), and :class:`Sampler` samples
the worlds as ``WorldSampler.sample`` does, from the same random stream. Both follow
their Python reference step for step (``tests/test_native_playout.py`` and
``tests/test_native_sampler.py`` compare them); the extension is compiled without fused
multiply-adds (the directive above), which would round the evaluation's sums otherwise
than Python does.
"""

from sys import byteorder

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.long cimport PyLong_AsUnsignedLongLongMask
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdlib cimport calloc, free

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
    int __builtin_popcountll(unsigned long long) nogil


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
    lay(self, cell, tile, corners)


cdef int lay(self, Py_ssize_t cell, tile, tuple corners) except -1:
    """Board.push_unchecked, for the playout too."""
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
    return 0


def pop(self):
    cdef list stack = self._stack
    swaps = self._swaps
    if swaps and swaps[-1][0] == len(stack):
        return self._unswap()
    if not stack:
        raise IndexError("pop from an empty board")
    placement = self._placement(stack[-1])
    unlay(self)
    return placement


cdef int unlay(self) except -1:
    """Board.pop of a placement (not a joker swap), for the playout too."""
    cdef list stack = self._stack
    cell_object = stack[-1]
    cdef Py_ssize_t cell = cell_object
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
    return 0


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
    return fits_any(self, rack)


cdef bint fits_any(self, rack) except -1:
    """Board.can_place, for the playout too."""
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
    return best_of(self, rack, figure_points, values)


cdef best_of(self, rack, figure_points, values):
    """Board.best_placement, for the playout too."""
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


# --- the sim bot's playout --------------------------------------------------------------

cdef enum:
    ENDS_HAND, FINISH_ROUND, PLAYS_ON  # going_out
    AFTER_HAND, GONG, FIRST_TO_TARGET  # match_end
    NO_LIMIT = -1  # max_draws, target_score: None

cdef enum:
    MAX_TILES = 128  # two words of tiles
    FIGURE_CODES = 6  # board.FIGURES
    MAX_OPEN = 384  # open cells: three a tile at most, of at most 128 tiles
    MAX_PLAYERS = 16


cdef inline int popcount(u64 word) noexcept:
    return __builtin_popcountll(word)


cdef inline int two_words(mask, u64* out) except -1:
    """A mask of tiles as two words, low first."""
    if mask < 0 or mask >> 128:
        raise ValueError(f"a native playout's masks hold at most {MAX_TILES} tiles, not {mask}")
    out[0] = PyLong_AsUnsignedLongLongMask(mask & WORD)
    out[1] = PyLong_AsUnsignedLongLongMask(mask >> 64)
    return 0


cdef dict GOING_OUT = {"ends_hand": ENDS_HAND, "finish_round": FINISH_ROUND, "plays_on": PLAYS_ON}
cdef dict MATCH_END = {"after_hand": AFTER_HAND, "gong": GONG, "first_to_target": FIRST_TO_TARGET}


# --- the playout's board ------------------------------------------------------------------

from triominos.lattice import CELL_IDS as _CELL_IDS

cdef Py_ssize_t CELL_IDS = _CELL_IDS
cdef int NONE = -1


# A dict's keys in insertion order, over the cell ids: setting a key that is there keeps
# its place, a new one goes last, as in a dict.
cdef struct Order:
    int* before
    int* after
    unsigned char* held
    int first, last


cdef int order_alloc(Order* order) except -1:
    order.before = <int*> PyMem_Malloc(CELL_IDS * sizeof(int))
    order.after = <int*> PyMem_Malloc(CELL_IDS * sizeof(int))
    order.held = <unsigned char*> calloc(CELL_IDS, 1)
    if order.before == NULL or order.after == NULL or order.held == NULL:
        raise MemoryError()
    order.first = order.last = NONE
    return 0


cdef void order_free(Order* order) noexcept:
    PyMem_Free(order.before)
    PyMem_Free(order.after)
    free(order.held)


cdef inline void order_set(Order* order, int cell) noexcept:
    if order.held[cell]:
        return
    order.held[cell] = 1
    order.before[cell] = order.last
    order.after[cell] = NONE
    if order.last == NONE:
        order.first = cell
    else:
        order.after[order.last] = cell
    order.last = cell


cdef inline void order_pop(Order* order, int cell) noexcept:
    if not order.held[cell]:
        return
    order.held[cell] = 0
    cdef int before = order.before[cell], after = order.after[cell]
    if before == NONE:
        order.first = after
    else:
        order.after[before] = after
    if after == NONE:
        order.last = before
    else:
        order.before[after] = before


cdef void order_clear(Order* order) noexcept:
    cdef int cell = order.first
    while cell != NONE:
        order.held[cell] = 0
        cell = order.after[cell]
    order.first = order.last = NONE


cdef class Table:
    """Board's placements, pops and greedy questions for one playout, its frontier and
    live frontier in C (:struct:`Order`) instead of dicts, kept in the dicts' orders
    exactly: the evaluation sums over the frontier in its order, and the board's dicts
    are written back in the orders the Python methods would leave.

    :meth:`load` takes the board's frontier at the start of a playout, :meth:`store` gives
    it back once the playout has taken its tiles back; between the two only the Table
    knows the frontier (the vertex and edge counts it changes in the board's own arrays,
    as :func:`lay` does). No joker: a tile set with one plays out on the board itself.
    """

    cdef object board, words_owner
    cdef const u64* words
    cdef unsigned char* numbers
    cdef unsigned char* counts
    cdef unsigned char* edges
    cdef Py_ssize_t base
    cdef Py_ssize_t weights[3]
    cdef int* keys  # the frontier's FitTable keys, by cell
    cdef Order frontier, live
    cdef u64 unplaced[2]
    cdef int depth  # the board's stack length
    cdef int alone  # the one tile that may touch no other: the first, or NONE
    cdef int laid_cells[MAX_TILES]
    cdef int laid_tiles[MAX_TILES]
    cdef int laid
    cdef int dropped_depth[6 * MAX_TILES]
    cdef int dropped_cell[6 * MAX_TILES]
    cdef int dropped

    def __cinit__(self):
        self.keys = <int*> PyMem_Malloc(CELL_IDS * sizeof(int))
        if self.keys == NULL:
            raise MemoryError()
        order_alloc(&self.frontier)
        order_alloc(&self.live)

    def __dealloc__(self):
        PyMem_Free(self.keys)
        order_free(&self.frontier)
        order_free(&self.live)

    def __init__(self, board):
        if board.tile_set.joker is not None:
            raise ValueError("a Table plays no joker: the board's own methods do")
        self.board = board
        self.words_owner = board._fits
        self.words = words_of(board._fits)
        self.base = board._base
        self.weights[0] = self.base * self.base
        self.weights[1] = self.base
        self.weights[2] = 1

    cdef int load(self) except -1:
        board = self.board
        self.numbers = bytes_of(board._numbers)
        self.counts = bytes_of(board._counts)
        self.edges = bytes_of(board._edges)
        two_words(board._unplaced, self.unplaced)
        cdef list stack = board._stack
        self.depth = len(stack)
        self.alone = stack[0] if stack else NONE
        self.laid = self.dropped = 0
        order_clear(&self.frontier)
        order_clear(&self.live)
        cdef int cell
        for cell_object, key in (<dict> board._frontier).items():
            cell = cell_object
            self.keys[cell] = key
            order_set(&self.frontier, cell)
        for cell_object in <dict> board._live:
            order_set(&self.live, <int> cell_object)
        return 0

    cdef int store(self) except -1:
        """The board's dicts in the Table's orders (the playout's tiles taken back)."""
        board = self.board
        cdef dict frontier = board._frontier
        cdef dict live = board._live
        cdef list masks = board._fits.masks
        frontier.clear()
        live.clear()
        cdef int cell = self.frontier.first
        while cell != NONE:
            frontier[cell] = self.keys[cell]
            cell = self.frontier.after[cell]
        cell = self.live.first
        while cell != NONE:
            live[cell] = masks[self.keys[cell]]
            cell = self.live.after[cell]
        return 0

    cdef inline bint fits_unplaced(self, int key) noexcept:
        return (self.words[2 * key] & self.unplaced[0]) or (self.words[2 * key + 1] & self.unplaced[1])

    cdef inline int key_of(self, int cell) noexcept:
        cdef Py_ssize_t v[3]
        corners_of(cell, v)
        return (self.numbers[v[0]] * self.base + self.numbers[v[1]]) * self.base + self.numbers[v[2]]

    cdef void renumber(self, Py_ssize_t vertex, int number) noexcept:
        """Board._renumber."""
        cdef int change = number - self.numbers[vertex]
        self.numbers[vertex] = number
        cdef int index, cell, key
        for index in range(6):
            cell = 2 * vertex + AROUND_OFFSET[index]
            if cell < 0 or cell >= CELL_IDS or not self.frontier.held[cell]:
                continue
            key = self.keys[cell] + change * self.weights[AROUND_CORNER[index]]
            self.keys[cell] = key
            if self.live.held[cell] and not (change < 0 or self.fits_unplaced(key)):
                order_pop(&self.live, cell)
                self.dropped_depth[self.dropped] = self.depth
                self.dropped_cell[self.dropped] = cell
                self.dropped += 1

    cdef int lay(self, int cell, int tile, tuple corners) except -1:
        """Board.push_unchecked of a card (no joker)."""
        if self.depth == 0:
            self.alone = cell
        self.laid_cells[self.laid] = cell
        self.laid_tiles[self.laid] = tile
        self.laid += 1
        self.depth += 1
        self.unplaced[tile >> 6] &= ~((<u64> 1) << (tile & 63))
        order_pop(&self.frontier, cell)
        order_pop(&self.live, cell)
        cdef Py_ssize_t v[3]
        cdef int n[3]
        cdef int corner, neighbour, key
        corners_of(cell, v)
        for corner in range(3):
            self.counts[v[corner]] += 1
            n[corner] = corners[corner]
        for corner in range(3):
            if not self.numbers[v[corner]]:
                self.renumber(v[corner], n[corner] + 1)
        cdef Py_ssize_t around[3]
        neighbours_of(cell, around)
        for corner in range(3):
            neighbour = around[corner]
            self.edges[neighbour] += 1
            if self.edges[neighbour] == 1 and neighbour != self.alone:
                key = self.key_of(neighbour)
                self.keys[neighbour] = key
                order_set(&self.frontier, neighbour)
                if self.fits_unplaced(key):
                    order_set(&self.live, neighbour)
        return 0

    cdef void unlay(self) noexcept:
        """Board.pop of the Table's last card."""
        self.laid -= 1
        cdef int cell = self.laid_cells[self.laid], tile = self.laid_tiles[self.laid]
        self.depth -= 1
        if self.depth == 0:
            self.alone = NONE
        self.unplaced[tile >> 6] |= (<u64> 1) << (tile & 63)
        cdef Py_ssize_t around[3]
        cdef Py_ssize_t v[3]
        cdef int index, neighbour, key
        neighbours_of(cell, around)
        for index in range(3):
            neighbour = around[index]
            self.edges[neighbour] -= 1
            if not self.edges[neighbour]:
                order_pop(&self.frontier, neighbour)
                order_pop(&self.live, neighbour)
        corners_of(cell, v)
        for index in range(3):
            self.counts[v[index]] -= 1
            if self.numbers[v[index]] and not self.counts[v[index]]:
                self.renumber(v[index], 0)
        if self.edges[cell] or not self.depth:
            self.keys[cell] = self.key_of(cell)
            order_set(&self.frontier, cell)
            order_set(&self.live, cell)
        while self.dropped and self.dropped_depth[self.dropped - 1] > self.depth:
            self.dropped -= 1
            order_set(&self.live, self.dropped_cell[self.dropped])

    cdef bint fitting(self, int cell, u64* rack, u64* out) noexcept:
        cdef int key = self.keys[cell]
        out[0] = self.words[2 * key] & rack[0]
        out[1] = self.words[2 * key + 1] & rack[1]
        return out[0] != 0 or out[1] != 0

    cdef bint fits_any(self, rack) except -1:
        """Board.can_place."""
        cdef u64 words[2]
        cdef u64 found[2]
        two_words(rack, words)
        cdef int cell = self.frontier.first
        while cell != NONE:
            if self.fitting(cell, words, found):
                return True
            cell = self.frontier.after[cell]
        return False

    cdef best(self, rack, const long* values, const int* bonus):
        """Board.best_placement: its answer does not hang on the order of the cells."""
        cdef u64 words[2]
        cdef u64 found[2]
        two_words(rack, words)
        cdef int cell = self.frontier.first, best_cell = NONE, figure, best_figure = -1
        cdef int tile, best_tile = -1
        cdef long score, best_score = -1
        while cell != NONE:
            if self.fitting(cell, words, found):
                tile = 64 + highest_bit(found[1]) if found[1] else highest_bit(found[0])
                figure = figure_of(cell, self.edges, self.counts)
                score = values[tile] + bonus[figure]
                if score > best_score or (score == best_score and cell < best_cell):
                    best_score, best_cell, best_tile, best_figure = score, cell, tile, figure
            cell = self.frontier.after[cell]
        if best_cell == NONE:
            return None
        corners = self.board._fits.corners[self.keys[best_cell]][best_tile][0]
        return best_cell, best_tile, corners, best_figure


cdef class Playout:
    """:meth:`Simulation.play_out`'s Python playout (``Hand.resume``, the candidate,
    :func:`_greedy_play`, the outlook) without the Hand: the same rules of
    :class:`~triominos.game.Hand`, in the same order, on the board's own state, under
    every rule option (Junior's counters, joker and last round included).

    Each method below names the Hand method it follows; what they leave out (the undo
    history, the events, legality checks) is what a greedy playout never reads.
    """

    cdef object board, figure_points, tile_values, tile_set, rules, start_drawn
    # outcome()'s: what decides whether an ended hand ends the match, and how much that is
    # worth.
    cdef object match_ends, win_chances, start_gong
    cdef long hand_number
    cdef double win_value
    cdef bint equity
    # Evaluator.position_value's, for the outlook: the evaluator's weights, the tiles
    # unseen at the position (two words), its no_hit chances and its going-out value.
    cdef double w_threat, w_chance, w_tiles, w_rack_value, w_stuck, w_last_tile, going_out_value
    cdef u64 unseen[2]
    cdef list no_hit
    cdef long points_of[MAX_TILES]
    cdef long value_of[MAX_TILES]
    cdef int bonus_of[FIGURE_CODES]
    cdef int players, seat, starter, start_draws, draw_penalty, failed_draw_penalty
    cdef int empty_pool_pass_penalty, last_tile_bonus, going_out, match_end
    cdef long max_draws, target, bank
    cdef bint last_round_rule, after_taker, jokers
    cdef int joker
    cdef object start_last_round_by, last_round_by
    cdef object placement, draw_action, pass_action, take_joker_action  # the action types
    cdef bint armed, swapped
    cdef bint dry_pool_no_penalty, draw_ends_turn, going_out_ends, to_the_end
    cdef tuple start_out, start_totals
    # The hand in play, set up by run().
    cdef list racks, points, totals, out, pool
    cdef Py_ssize_t taken
    cdef int to_move, draws
    cdef int laid  # placements and joker swaps made on the board, to take back
    cdef object drawn, gong
    cdef bint over
    cdef Table table  # the board's frontier in C during run(), or None: a joker plays

    def __init__(
        self,
        rules,
        board,
        evaluator,
        *,
        observation,
        double win_value,
        bint equity,
        int seat,
        int starter,
        int draws,
        drawn,
        out,
        totals,
        bint to_the_end,
        last_round_by,
    ):
        from triominos.bots.outcome import win_chances  # these import the board
        from triominos.game import Draw, Pass, Placement, TakeJoker, match_ends

        self.match_ends, self.win_chances = match_ends, win_chances
        self.hand_number = observation.hand_number
        self.start_gong = observation.gong
        self.win_value, self.equity = win_value, equity

        self.placement, self.draw_action, self.pass_action = Placement, Draw, Pass
        self.take_joker_action = TakeJoker
        self.rules = rules
        self.board = board
        self.tile_set = rules.tiles
        self.figure_points = rules.figure_points
        self.tile_values = rules.tile_values
        self.players = len(totals)
        self.seat = seat
        self.starter = starter
        self.start_draws = draws
        self.start_drawn = drawn
        self.start_out = tuple(out)
        self.start_totals = tuple(totals)
        self.to_the_end = to_the_end
        self.draw_penalty = rules.draw_penalty
        self.failed_draw_penalty = rules.failed_draw_penalty
        self.empty_pool_pass_penalty = rules.empty_pool_pass_penalty
        self.dry_pool_no_penalty = rules.dry_pool_no_penalty
        self.last_tile_bonus = rules.last_tile_bonus
        self.draw_ends_turn = rules.draw_ends_turn
        self.max_draws = NO_LIMIT if rules.max_draws is None else rules.max_draws
        self.target = NO_LIMIT if rules.target_score is None else rules.target_score
        self.going_out = GOING_OUT[rules.going_out]
        self.match_end = MATCH_END[rules.match_end]
        self.bank = NO_LIMIT if rules.bank is None else rules.bank
        self.last_round_rule = rules.pool_empty == "last_round"
        self.after_taker = rules.last_round_ends == "after_taker"
        self.start_last_round_by = last_round_by
        self.jokers = self.tile_set.joker is not None
        self.joker = self.tile_set.joker if self.jokers else -1
        cdef Py_ssize_t tile
        values = self.tile_set.values
        if len(values) > MAX_TILES or len(self.figure_points) != FIGURE_CODES:
            raise ValueError(f"a native playout takes at most {MAX_TILES} tiles")
        for tile in range(len(values)):
            self.points_of[tile] = self.tile_values[tile]
            self.value_of[tile] = values[tile]
        for tile in range(FIGURE_CODES):
            self.bonus_of[tile] = self.figure_points[tile]
        weights = evaluator.weights
        self.w_threat = weights.threat
        self.w_chance = weights.chance
        self.w_tiles = weights.tiles
        self.w_rack_value = weights.rack_value
        self.w_stuck = weights.stuck
        self.w_last_tile = weights.last_tile
        self.going_out_value = evaluator._going_out
        self.no_hit = evaluator._no_hit
        two_words(evaluator.unseen, self.unseen)
        self.table = None if self.jokers else Table(board)

    def run(self, racks, pool, action):
        """The candidate ``action`` (legal for the seat: a placement, a draw, a pass, the
        joker taken back) played in the world ``racks`` and ``pool`` (next draw first),
        then greedy's moves to the horizon: ``Simulation.play_out``'s value of it."""
        self.racks = list(racks)
        self.pool = list(pool)
        self.taken = 0
        self.points = [0] * self.players
        self.totals = list(self.start_totals)
        self.out = list(self.start_out)
        self.to_move = self.seat
        self.draws = self.start_draws
        self.drawn = self.start_drawn
        self.gong = None
        self.over = False
        self.laid = 0
        self.swapped = False
        self.last_round_by = self.start_last_round_by
        self.armed = self.last_round_by is not None and not (
            self.to_move == self.last_round_by and self.draws
        )
        cdef double outlook
        if self.table is not None:
            self.table.load()
        try:
            self.play(action)
            self.greedy()
            outlook = 0.0 if self.over else self.outlook_of(self.racks[self.seat])
        finally:
            self.take_back()
        return self.outcome() + outlook

    cdef double outcome(self) except? -1.0:
        """bots.outcome.outcome of the hand played, in the same float operations (one
        correctly rounded division of ints, then the same products and sums)."""
        cdef long mine = self.points[self.seat], whole = 0, best
        for points in self.points:
            whole += <long> points
        cdef double value = mine - <double> (whole - mine) / (self.players - 1), share = 0.0
        if not self.over:
            return value
        totals = self.totals
        gong = self.start_gong is not None or self.gong is not None
        if self.match_ends(self.rules, totals, self.hand_number, gong):
            best = max(totals)
            if totals[self.seat] == best:
                share = 1.0 / totals.count(best)
            value += self.win_value * (2 * share - 1)
        elif self.equity:
            chances = self.win_chances(self.rules, totals, self.hand_number)
            value += self.win_value * (2 * <double> chances[self.seat] - 1)
        return value

    cdef int play(self, action) except -1:
        """Hand.apply of a candidate, legal by construction (Hand checks it)."""
        cdef Py_ssize_t cell
        cdef int tile
        if isinstance(action, self.placement):
            cell = action.cell.id
            tile = self.tile_set.position[action.tile]
            board = self.board
            edges, counts = bytes_of(board._edges), bytes_of(board._counts)
            self.place(cell, tile, tuple(action.corners), figure_of(cell, edges, counts))
        elif isinstance(action, self.draw_action):
            self.draw()
        elif isinstance(action, self.pass_action):
            self.pass_turn()
        elif isinstance(action, self.take_joker_action):
            self.take_joker(self.tile_set.position[action.tile], action.corners)
        else:
            raise ValueError(
                f"a playout's candidate is a placement, draw, pass or joker taken back, "
                f"not {action!r}"
            )
        return 0

    cdef int take_back(self) except -1:
        """Take the playout's tiles off the board, last first (Board.pop, without the
        placements it returns): the board as the playout found it."""
        cdef int count
        if self.table is not None:
            for count in range(self.laid):
                self.table.unlay()
            self.table.store()
            return 0
        for count in range(self.laid):
            if self.swapped:
                pop(self.board)  # a joker swap among the placements
            else:
                unlay(self.board)
        return 0

    cdef best(self, rack):
        """Board.best_placement of the rack, on the Table where there is one."""
        if self.table is not None:
            return self.table.best(rack, self.points_of, self.bonus_of)
        return best_of(self.board, rack, self.figure_points, self.tile_values)

    cdef int lay(self, Py_ssize_t cell, int tile, tuple corners) except -1:
        if self.table is not None:
            return self.table.lay(cell, tile, corners)
        return lay(self.board, cell, tile, corners)

    cdef int unlay(self) except -1:
        if self.table is not None:
            self.table.unlay()
            return 0
        return unlay(self.board)

    cdef bint can_place(self, rack) except -1:
        if self.table is not None:
            return self.table.fits_any(rack)
        return fits_any(self.board, rack)

    cdef int frontier(self, int* cells, int* keys) except -1:
        """The open cells and their keys, in the frontier's order: how many."""
        cdef int count = 0, cell
        cdef Table table = self.table
        if table is not None:
            cell = table.frontier.first
            while cell != NONE:
                if count == MAX_OPEN:
                    raise ValueError(f"more than {MAX_OPEN} open cells")
                cells[count], keys[count] = cell, table.keys[cell]
                count += 1
                cell = table.frontier.after[cell]
            return count
        for cell_object, key in (<dict> self.board._frontier).items():
            if count == MAX_OPEN:
                raise ValueError(f"more than {MAX_OPEN} open cells")
            cells[count], keys[count] = cell_object, key
            count += 1
        return count

    cdef double outlook_of(self, rack) except? -1.0:
        """Simulation._outlook: the seat's best placement now and what it keeps."""
        best = self.best(rack)
        if best is None:
            return self.position_value(rack) - self.draw_penalty
        cdef Py_ssize_t cell = best[0]
        cdef int tile = best[1], figure = best[3]
        cdef long points = self.points_of[tile] + self.bonus_of[figure]
        self.lay(cell, tile, best[2])
        try:
            return points + self.position_value(rack & ~(ONE << tile))
        finally:
            self.unlay()

    cdef double position_value(self, rack) except? -1.0:
        """Evaluator.position_value(rack), with its bonus_cells and outlook: the same
        sums in the same order (the extension is compiled without fused multiply-adds)."""
        if not rack:
            return self.going_out_value
        cdef u64 held[2]
        two_words(rack, held)
        cdef u64 tiles0 = held[0] | self.unseen[0], tiles1 = held[1] | self.unseen[1]
        board = self.board
        cdef const u64* words = words_of(board._fits)
        cdef unsigned char* edges = bytes_of(board._edges)
        cdef unsigned char* counts = bytes_of(board._counts)
        # The bonus cells by falling bonus, ties in the frontier's order (a stable sort).
        cdef int bonuses[MAX_OPEN]
        cdef u64 fit0[MAX_OPEN]
        cdef u64 fit1[MAX_OPEN]
        cdef int found = 0, at, bonus
        cdef u64 a, b, fits0 = 0, fits1 = 0
        cdef Py_ssize_t key, cell
        cdef int cells[MAX_OPEN]
        cdef int keys[MAX_OPEN]
        cdef int index, count = self.frontier(cells, keys)
        for index in range(count):
            cell, key = cells[index], keys[index]
            fits0 |= words[2 * key] & held[0]
            fits1 |= words[2 * key + 1] & held[1]
            a = words[2 * key] & tiles0
            b = words[2 * key + 1] & tiles1
            if not (a or b):
                continue
            bonus = self.bonus_of[figure_of(cell, edges, counts)]
            if not bonus:
                continue
            at = found
            while at and bonuses[at - 1] < bonus:
                bonuses[at], fit0[at], fit1[at] = bonuses[at - 1], fit0[at - 1], fit1[at - 1]
                at -= 1
            bonuses[at], fit0[at], fit1[at] = bonus, a, b
            found += 1
        # expert.outlook
        cdef double threat = 0.0, chance = 0.0, untaken = 1.0, spared
        cdef int theirs
        for at in range(found):
            theirs = popcount(fit0[at] & self.unseen[0]) + popcount(fit1[at] & self.unseen[1])
            spared = self.no_hit[theirs] if theirs else 1.0
            threat += untaken * (1 - spared) * bonuses[at]
            untaken *= spared
            if (fit0[at] & held[0]) or (fit1[at] & held[1]):
                if bonuses[at] * spared > chance:
                    chance = bonuses[at] * spared
        cdef int kept = popcount(held[0]) + popcount(held[1])
        cdef int stuck = popcount(held[0] & ~fits0) + popcount(held[1] & ~fits1)
        cdef long rack_value = 0  # TileSet.value_of
        cdef int word
        for word in range(2):
            a = held[word]
            while a:
                rack_value += self.value_of[64 * word + __builtin_ctzll(a)]
                a &= a - 1
        cdef double value = (
            self.w_threat * threat
            + self.w_chance * chance
            + self.w_tiles * kept
            + self.w_rack_value * rack_value
            + self.w_stuck * stuck
        )
        if kept == 1 and not stuck:
            value += self.w_last_tile
        return value

    cdef int greedy(self) except -1:
        """sim's _greedy_play: to the end of the hand, or to the seat's next turn."""
        while not self.over and (
            self.to_the_end or self.to_move != self.seat or self.draws
        ):
            rack = self.racks[self.to_move]
            best = self.best(rack)
            if best is not None:
                self.place(best[0], best[1], best[2], best[3])
                continue
            swap = self.first_swap(rack) if self.jokers else None
            if swap is not None:
                self.take_joker(swap[0], swap[1])
            elif self.may_draw():
                self.draw()
            else:
                self.pass_turn()
        return 0

    cdef bint may_draw(self) except -1:
        """game.may_draw, with the counters to pay with."""
        if self.taken == len(self.pool):
            return False
        if self.max_draws != NO_LIMIT and self.draws >= self.max_draws:
            return False
        return self.bank == NO_LIMIT or self.totals[self.to_move] >= self.draw_penalty

    cdef first_swap(self, rack):
        """The first of Board.joker_swaps(rack), or None: the lowest card that fits where
        the joker lies, with its first corners."""
        board = self.board
        joker_cell = board._joker_cell
        if joker_cell is None:
            return None
        cdef Py_ssize_t v[3]
        corners_of(joker_cell, v)
        cdef unsigned char* numbers = bytes_of(board._numbers)
        cdef Py_ssize_t base = board._base
        cdef Py_ssize_t key = (numbers[v[0]] * base + numbers[v[1]]) * base + numbers[v[2]]
        cdef u64 fitting[2]
        two_words(board._fits.masks[key] & rack & ~(ONE << self.joker), fitting)
        cdef int tile
        if fitting[0]:
            tile = __builtin_ctzll(fitting[0])
        elif fitting[1]:
            tile = 64 + __builtin_ctzll(fitting[1])
        else:
            return None
        return tile, board._fits.corners[key][tile][0]

    cdef int take_joker(self, int tile, corners) except -1:
        """Hand._take_joker."""
        self.board.swap_joker(tile, corners)
        self.laid += 1
        self.swapped = True
        cdef int player = self.to_move
        self.racks[player] = self.racks[player] & ~(ONE << tile) | ONE << self.joker
        self.end_turn()
        return 0

    cdef int score(self, int seat, long points) except -1:
        """Hand._score."""
        self.points[seat] += points
        self.totals[seat] += points
        return 0

    cdef int place(self, Py_ssize_t cell, int tile, tuple corners, int figure) except -1:
        """Hand._place in play, with placement_points."""
        cdef int player = self.to_move
        bit = ONE << tile
        rack = self.racks[player]
        cdef bint last = rack == bit
        cdef long points = self.tile_values[tile]
        if figure:
            points += self.figure_points[figure]
        if last:
            points += self.last_tile_bonus
        if self.bank != NO_LIMIT:  # the bank pays what it holds
            points = min(points, self.bank - sum(self.totals))
        self.lay(cell, tile, corners)
        self.laid += 1
        rack = rack ^ bit
        self.racks[player] = rack
        self.score(player, points)
        if not rack:
            self.out.append(player)
        if self.match_end != AFTER_HAND and self.reaches_target(player):
            if self.match_end == FIRST_TO_TARGET:
                self.finish("target")
                return 0
        self.end_turn()
        return 0

    cdef int draw(self) except -1:
        """Hand._draw."""
        cdef int player = self.to_move
        index = self.pool[self.taken]
        self.taken += 1
        if self.taken == len(self.pool) and self.last_round_rule:  # the last tile
            self.last_round_by = player
        self.draws += 1
        self.drawn = index
        self.racks[player] = self.racks[player] | (ONE << index)
        self.score(player, -self.draw_penalty)
        if self.draw_ends_turn:
            self.end_turn()
        return 0

    cdef int pass_turn(self) except -1:
        """Hand._pass, with pass_penalty."""
        cdef long penalty
        cdef bint ran_dry
        if not self.draws:
            penalty = self.empty_pool_pass_penalty
        else:
            ran_dry = self.taken == len(self.pool) and (
                self.max_draws == NO_LIMIT or self.draws < self.max_draws
            )
            penalty = 0 if ran_dry and self.dry_pool_no_penalty else self.failed_draw_penalty
        self.score(self.to_move, -penalty)
        self.end_turn()
        return 0

    cdef int end_turn(self) except -1:
        """Hand._end_turn."""
        self.draws = 0
        self.drawn = None
        cdef int following = (self.to_move + 1) % self.players
        if self.out and (
            self.going_out == ENDS_HAND
            or (self.going_out == FINISH_ROUND and following == self.starter)
        ):
            self.finish("out")
            return 0
        if self.last_round_by is not None:
            ends_at = self.to_move if self.after_taker else following
            if ends_at == self.last_round_by and self.armed:
                self.finish("last_round")
                return 0
            self.armed = True
        if (
            self.taken == len(self.pool) or self.bank != NO_LIMIT or self.max_draws == 0
        ) and self.stuck():
            if self.out and self.going_out != PLAYS_ON:
                self.finish("out")
            else:
                self.finish("last_round" if self.last_round_by is not None else "blocked")
            return 0
        self.to_move = following
        return 0

    cdef bint stuck(self) except -1:
        """Hand._stuck."""
        cdef int seat
        if self.taken < len(self.pool) and self.max_draws != 0:
            if self.bank == NO_LIMIT:
                return False
            for seat in range(self.players):
                if self.totals[seat] >= self.draw_penalty:
                    return False
        for rack in self.racks:
            if self.can_place(rack):
                return False
        if self.jokers:
            for rack in self.racks:
                if self.first_swap(rack) is not None:
                    return False
        return True

    cdef bint reaches_target(self, int seat) except -1:
        """Hand._reaches_target."""
        if self.gong is None and self.target != NO_LIMIT and self.totals[seat] >= self.target:
            self.gong = seat
            return True
        return False

    cdef int finish(self, reason) except -1:
        """Hand._finish (never a resignation)."""
        from triominos.game import settle  # the game module imports the board's

        value_of = self.tile_set.value_of
        settlement, _ = settle(self.rules, reason, [value_of(rack) for rack in self.racks], self.out)
        cdef int seat
        for seat in range(self.players):
            self.score(seat, settlement[seat])
        if self.match_end != AFTER_HAND:
            totals = self.totals
            for seat in sorted(range(self.players), key=totals.__getitem__, reverse=True):
                self.reaches_target(seat)
        self.over = True
        return 0


# --- the world sampler --------------------------------------------------------------------



cdef inline Py_ssize_t randbelow(getrandbits, Py_ssize_t n) except -1:
    """random.Random._randbelow_with_getrandbits: the same calls of getrandbits."""
    cdef int k = 64 - __builtin_clzll(<u64> n)
    cdef Py_ssize_t r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


cdef struct Limit:
    int seat
    u64 tiles[2]
    int allowance
    bint hard
    int room  # while a rack is dealt: the allowance left


cdef class Sampler:
    """:meth:`WorldSampler.sample <triominos.bots.sampler.WorldSampler.sample>` (and its
    ``_deal``) in C, drawing from the same :class:`random.Random` by the same calls in
    the same order (``random()``, and ``shuffle``'s ``getrandbits``), so that it makes
    the same worlds and leaves the generator in the same state. For a sampler without
    open racks (:func:`triominos.native.sampler_for`); the tiles in two words."""

    cdef object world
    cdef int players, seat, tile_count, constraint_count, attempts
    cdef Limit* constraints
    cdef int* chosen  # the limits on the rack being dealt
    cdef list hard  # indices into constraints
    cdef list soft  # (index, believed)
    cdef list order, known, sizes
    cdef object rack
    cdef int unseen_tiles[MAX_TILES]

    def __cinit__(self):
        self.constraints = NULL
        self.chosen = NULL

    def __dealloc__(self):
        PyMem_Free(self.constraints)
        PyMem_Free(self.chosen)

    def __init__(self, sampler):
        from triominos.bots.sampler import MAX_ATTEMPTS, World  # which imports the board

        self.world = World
        self.attempts = MAX_ATTEMPTS
        if sampler.players > MAX_PLAYERS:
            raise ValueError(f"a native sampler takes at most {MAX_PLAYERS} players")
        self.players = sampler.players
        self.seat = sampler.seat
        self.order = list(sampler._order)
        self.known = list(sampler.known)
        self.sizes = list(sampler.observation.rack_sizes)
        self.rack = sampler.observation.rack
        tiles = sampler._unseen_tiles
        if len(tiles) > MAX_TILES:
            raise ValueError(f"a native sampler takes at most {MAX_TILES} tiles")
        self.tile_count = len(tiles)
        cdef int at
        for at in range(self.tile_count):
            self.unseen_tiles[at] = tiles[at]
        every = list(sampler.constraints)
        self.constraint_count = len(every)
        self.constraints = <Limit*> PyMem_Malloc(max(len(every), 1) * sizeof(Limit))
        self.chosen = <int*> PyMem_Malloc(max(len(every), 1) * sizeof(int))
        if self.constraints == NULL or self.chosen == NULL:
            raise MemoryError()
        position = {}
        for at, constraint in enumerate(every):
            position[id(constraint)] = at
            self.constraints[at].seat = constraint.seat
            two_words(constraint.tiles, self.constraints[at].tiles)
            self.constraints[at].allowance = constraint.allowance
            self.constraints[at].hard = constraint.hard
        self.hard = [position[id(constraint)] for constraint in sampler._hard]
        self.soft = [(position[id(constraint)], believed) for constraint, believed in sampler._soft]

    def sample(self, rng):
        """WorldSampler.sample."""
        getrandbits, random_ = rng.getrandbits, rng.random
        cdef int attempt
        for attempt in range(self.attempts):
            active = list(self.hard)
            if attempt < self.attempts // 2:
                active += [at for at, believed in self.soft if random_() < believed]
            world = self.deal(getrandbits, active)
            if world is not None:
                return world
        return self.deal(getrandbits, [])

    cdef deal(self, getrandbits, list active):
        """WorldSampler._deal (no open racks)."""
        cdef int tiles[MAX_TILES]
        cdef int left[MAX_TILES]
        cdef u64 racks[MAX_PLAYERS][2]
        cdef int count = self.tile_count, kept, at, i, j, tile, swap, word, bit, wanted
        cdef int seat, number, limit_count, excess
        for at in range(count):
            tiles[at] = self.unseen_tiles[at]
        for i in range(count - 1, 0, -1):  # random.shuffle
            j = randbelow(getrandbits, i + 1)
            swap = tiles[i]
            tiles[i] = tiles[j]
            tiles[j] = swap
        cdef Limit* limits = self.constraints
        cdef int* chosen = self.chosen
        cdef u64 forbidden[2]
        cdef u64* rack
        cdef u64 held
        for seat in range(self.players):
            racks[seat][0] = racks[seat][1] = 0
        two_words(self.rack, racks[self.seat])
        for seat_object in self.order:
            seat = seat_object
            forbidden[0] = forbidden[1] = 0
            limit_count = 0
            for number in active:
                if limits[number].seat != seat:
                    continue
                if limits[number].allowance <= 0:
                    forbidden[0] |= limits[number].tiles[0]
                    forbidden[1] |= limits[number].tiles[1]
                else:
                    chosen[limit_count] = number
                    limits[number].room = limits[number].allowance
                    limit_count += 1
            rack = racks[seat]
            two_words(self.known[seat], rack)
            for word in range(2):  # known tiles use up their room first
                held = rack[word]
                while held:
                    room(limits, chosen, limit_count, 64 * word + __builtin_ctzll(held))
                    held &= held - 1
            wanted = self.sizes[seat] - popcount(rack[0]) - popcount(rack[1])
            kept = 0
            for at in range(count):
                tile = tiles[at]
                word, bit = tile >> 6, tile & 63
                if (
                    not wanted
                    or forbidden[word] >> bit & 1
                    or not room(limits, chosen, limit_count, tile)
                ):
                    left[kept] = tile
                    kept += 1
                    continue
                rack[word] |= (<u64> 1) << bit
                wanted -= 1
            if wanted:
                return None
            for at in range(kept):
                tiles[at] = left[at]
            count = kept
        cdef int surprise = 0
        for number in range(self.constraint_count):
            if limits[number].hard:
                continue
            rack = racks[limits[number].seat]
            excess = (
                popcount(rack[0] & limits[number].tiles[0])
                + popcount(rack[1] & limits[number].tiles[1])
                - limits[number].allowance
            )
            surprise += excess > 0
        dealt = tuple([(<object> racks[seat][1]) << 64 | racks[seat][0] for seat in range(self.players)])
        return self.world(dealt, tuple([tiles[at] for at in range(count)]), surprise)


cdef inline bint room(Limit* limits, int* chosen, int count, int tile) noexcept:
    """sampler._room: whether ``tile`` fits within every limit it falls under; if so,
    it takes from them."""
    cdef int word = tile >> 6, bit = tile & 63, at
    for at in range(count):
        if limits[chosen[at]].tiles[word] >> bit & 1 and limits[chosen[at]].room <= 0:
            return False
    for at in range(count):
        if limits[chosen[at]].tiles[word] >> bit & 1:
            limits[chosen[at]].room -= 1
    return True
