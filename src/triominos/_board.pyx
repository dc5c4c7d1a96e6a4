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
board's frontier in C arrays for the playout's length, the joker included), and
:class:`Sampler` samples the worlds as ``WorldSampler.sample`` does, from the same random
stream; ``Playout.simulate`` does both for a whole simulation in one call. Both follow
their Python reference step for step (``tests/test_native_playout.py`` and
``tests/test_native_sampler.py`` compare them); the extension is compiled without fused
multiply-adds (the directive above), which would round the evaluation's sums otherwise
than Python does.
"""

from sys import version_info

from libc.math cimport INFINITY, exp, fabs, isfinite, sqrt

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.long cimport PyLong_AsUnsignedLongLongMask
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdlib cimport calloc, free

from triominos._native cimport (
    FIGURE_CODES,
    MAX_OPEN,
    MAX_TILES,
    WIDTH,
    Weights,
    __builtin_clzll,
    __builtin_ctzll,
    check_constants,
    corners_of,
    figure_of,
    outlook,
    packed_words,
    popcount,
    rank_bonus_cell,
    read_weights,
    two_words,
    u64,
    value_of_rack,
    weighted_value,
)
from triominos.board import PYTHON_PATHS
from triominos.lattice import CELLS_AROUND as _CELLS_AROUND

check_constants()

cdef object ONE = 1  # a Python int, so that ONE << tile is a Python shift, never truncated
cdef object WORD = (1 << 64) - 1

# The six cells around a vertex, in the lattice's order (CELLS_AROUND): the order in which
# a renumbered vertex visits its cells decides the order of the board's dropped cells.
cdef Py_ssize_t AROUND_OFFSET[6]
cdef int AROUND_CORNER[6]
for _index, (_offset, _corner) in enumerate(_CELLS_AROUND):
    AROUND_OFFSET[_index] = _offset
    AROUND_CORNER[_index] = _corner


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
    """Board.push_unchecked."""
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
    """Board.pop of a placement (not a joker swap)."""
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
        words = WORDS[fits] = packed_words(fits.masks)
    return <const u64*> PyBytes_AS_STRING(words)


cdef dict FIRST_CORNERS = {}
"""By FitTable, the first corners of each tile at each key (``corners[key][tile][0]``,
what the greedy move lays), three signed bytes each, tiles that do not fit left 0."""


cdef const signed char* first_corners_of(fits, int tiles) except NULL:
    found = FIRST_CORNERS.get(fits)
    if found is None:
        table = bytearray(3 * tiles * len(fits.corners))
        for key, options in enumerate(fits.corners):
            for tile, rotations in options.items():
                at = 3 * (tiles * key + tile)
                table[at : at + 3] = bytes(number & 255 for number in rotations[0])
        found = FIRST_CORNERS[fits] = bytes(table)
    return <const signed char*> PyBytes_AS_STRING(found)


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
    """Board.can_place."""
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
    """Board.best_placement."""
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


cdef bint COMPENSATED_SUM = version_info >= (3, 12)
"""Whether the built-in sum() of floats compensates its rounding errors (Neumaier's
algorithm, from Python 3.12 on) or adds them one by one, as before."""


cdef double float_sum(const double* values, int count) noexcept:
    """The built-in sum() of ``count`` floats (at least one), bit for bit: its start, the
    int 0, plus the first, then each added as the running Python's sum() adds it."""
    cdef double total = 0.0 + values[0], compensation = 0.0, t, x
    cdef int at
    for at in range(1, count):
        x = values[at]
        if not COMPENSATED_SUM:
            total += x
            continue
        t = total + x
        if fabs(total) >= fabs(x):
            compensation += (total - t) + x
        else:
            compensation += (x - t) + total
        total = t
    if compensation and isfinite(compensation):
        total += compensation
    return total


def sum_of(values):
    """float_sum of a list of floats, for the test that holds it to the built-in sum()."""
    cdef double buffer[64]
    cdef int count = len(values), at
    if not 0 < count <= 64:
        raise ValueError(f"sum_of adds 1 to 64 floats, not {count}")
    for at in range(count):
        buffer[at] = values[at]
    return float_sum(buffer, count)


# --- the sim bot's playout --------------------------------------------------------------

cdef enum:
    ENDS_HAND, FINISH_ROUND, PLAYS_ON  # going_out
    AFTER_HAND, GONG, FIRST_TO_TARGET  # match_end
    NO_LIMIT = -1  # max_draws, target_score: None

cdef enum:
    MAX_PLAYERS = 16


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


cdef enum:
    PLACE, DRAW, PASS, TAKE_JOKER  # a Move's kind
    OUT, BLOCKED, LAST_ROUND, TARGET  # how a hand ends (game.EndReason)
    EACH_LOSES_OWN, LOWEST_SCORES_DIFFERENCE, NO_SETTLEMENT  # rules.blocked


cdef dict BLOCKED_RULE = {
    "each_loses_own": EACH_LOSES_OWN,
    "lowest_scores_difference": LOWEST_SCORES_DIFFERENCE,
}


# A move of the playout: a placement, a draw, a pass or the joker taken back.
cdef struct Move:
    int kind
    int cell, tile, figure
    int corners[3]


cdef enum:
    SWAPPED = -2  # a Table move that swapped the joker (no tile index)


cdef enum:
    MAX_MOVES = 3 * MAX_TILES  # placements and joker swaps in one playout: a swap frees
    # the joker to be laid again, so at most a card and a joker laid for each swap
    DROPS = 6 * MAX_MOVES  # live cells dropped at once (a swap makes every open cell live)


# A joker swap to undo (Board._swaps' entry): the cell, the card laid in the joker's
# place, the vertices the swap numbered and the live frontier before it (a span of
# Table.saved).
cdef struct Swap:
    int cell
    int card
    int numbered[3]
    int numbered_count
    int saved_at
    int saved_count


cdef class Table:
    """Board's placements, joker swaps, pops and greedy questions for one playout, its
    frontier and live frontier in C (:struct:`Order`) instead of dicts, kept in the dicts'
    orders exactly: the evaluation sums over the frontier in its order, and the board's
    dicts are written back in the orders the Python methods would leave.

    :meth:`load` takes the board's frontier at the start of a playout, :meth:`store` gives
    it back once the playout has taken its tiles back; between the two only the Table
    knows the frontier and where the joker lies (the vertex and edge counts it changes in
    the board's own arrays, as :func:`lay` does).
    """

    cdef object board, words_owner
    cdef const u64* words
    cdef const signed char* corner_words  # first_corners_of the FitTable
    cdef int keys_tiles  # the tile set's size: the corner table's stride
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
    cdef int joker, joker_cell  # the joker's tile index and cell, or NONE
    # The moves to take back, last last: a placement's cell and tile, or a joker swap's
    # cell and SWAPPED (its Swap on swaps).
    cdef int moved_cells[MAX_MOVES]
    cdef int moved_tiles[MAX_MOVES]
    cdef int moves
    cdef Swap swaps[MAX_MOVES]
    cdef int swap_count
    cdef int* saved  # the live frontiers saved by the swaps, one span each
    cdef int saved_room
    cdef int dropped_depth[DROPS]
    cdef int dropped_cell[DROPS]
    cdef int dropped

    def __cinit__(self):
        self.keys = <int*> PyMem_Malloc(CELL_IDS * sizeof(int))
        self.saved = NULL
        self.saved_room = 0
        if self.keys == NULL:
            raise MemoryError()
        order_alloc(&self.frontier)
        order_alloc(&self.live)

    def __dealloc__(self):
        PyMem_Free(self.keys)
        PyMem_Free(self.saved)
        order_free(&self.frontier)
        order_free(&self.live)

    def __init__(self, board):
        self.board = board
        self.words_owner = board._fits
        self.words = words_of(board._fits)
        self.keys_tiles = len(board.tile_set)
        self.corner_words = first_corners_of(board._fits, self.keys_tiles)
        self.base = board._base
        self.weights[0] = self.base * self.base
        self.weights[1] = self.base
        self.weights[2] = 1
        self.joker = NONE if board.tile_set.joker is None else board.tile_set.joker

    cdef int load(self) except -1:
        board = self.board
        self.numbers = bytes_of(board._numbers)
        self.counts = bytes_of(board._counts)
        self.edges = bytes_of(board._edges)
        two_words(board._unplaced, self.unplaced)
        cdef list stack = board._stack
        self.depth = len(stack)
        self.alone = stack[0] if stack else NONE
        self.joker_cell = NONE if board._joker_cell is None else board._joker_cell
        self.moves = self.swap_count = self.dropped = 0
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
        """The board's dicts in the Table's orders (the playout's moves taken back)."""
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

    cdef int moved(self, int cell, int tile) except -1:
        """Note a move to take back (with room for the cells it may drop: three
        vertices renumbered, six cells around each)."""
        if self.moves == MAX_MOVES:
            raise ValueError(f"a native playout makes at most {MAX_MOVES} moves")
        if self.dropped > DROPS - 18:
            raise ValueError(f"a native playout drops at most {DROPS} live cells at once")
        self.moved_cells[self.moves] = cell
        self.moved_tiles[self.moves] = tile
        self.moves += 1
        return 0

    cdef int lay(self, int cell, int tile, const int* corners) except -1:
        """Board.push_unchecked."""
        self.moved(cell, tile)
        if self.depth == 0:
            self.alone = cell
        if tile == self.joker:
            self.joker_cell = cell
        self.depth += 1
        self.unplaced[tile >> 6] &= ~((<u64> 1) << (tile & 63))
        order_pop(&self.frontier, cell)
        order_pop(&self.live, cell)
        cdef Py_ssize_t v[3]
        cdef int corner, neighbour, key
        corners_of(cell, v)
        for corner in range(3):
            self.counts[v[corner]] += 1
        for corner in range(3):
            # A joker's free corner (WILD, negative) numbers nothing.
            if not self.numbers[v[corner]] and corners[corner] >= 0:
                self.renumber(v[corner], corners[corner] + 1)
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

    cdef int swap_joker(self, int card, const int* corners) except -1:
        """Board.swap_joker: ``card`` where the joker lies, the joker back in play."""
        cdef int cell = self.joker_cell, at, count = 0
        self.moved(cell, SWAPPED)
        cdef Swap* swap = &self.swaps[self.swap_count]
        self.swap_count += 1
        swap.cell, swap.card = cell, card
        self.unplaced[self.joker >> 6] |= (<u64> 1) << (self.joker & 63)
        self.unplaced[card >> 6] &= ~((<u64> 1) << (card & 63))
        # Save the live frontier, then make every open cell live: the joker fits anywhere.
        cdef int cell_at = self.live.first
        while cell_at != NONE:
            count += 1
            cell_at = self.live.after[cell_at]
        swap.saved_at = 0 if self.swap_count == 1 else (
            self.swaps[self.swap_count - 2].saved_at + self.swaps[self.swap_count - 2].saved_count
        )
        swap.saved_count = count
        if swap.saved_at + count > self.saved_room:
            self.saved_room = 2 * (swap.saved_at + count)
            saved = <int*> PyMem_Realloc(self.saved, self.saved_room * sizeof(int))
            if saved == NULL:
                raise MemoryError()
            self.saved = saved
        at = swap.saved_at
        cell_at = self.live.first
        while cell_at != NONE:
            self.saved[at] = cell_at
            at += 1
            cell_at = self.live.after[cell_at]
        order_clear(&self.live)
        cell_at = self.frontier.first
        while cell_at != NONE:
            order_set(&self.live, cell_at)
            cell_at = self.frontier.after[cell_at]
        cdef Py_ssize_t v[3]
        corners_of(cell, v)
        swap.numbered_count = 0
        for at in range(3):
            if not self.numbers[v[at]]:
                swap.numbered[swap.numbered_count] = v[at]
                swap.numbered_count += 1
                self.renumber(v[at], corners[at] + 1)
        self.joker_cell = NONE
        return 0

    cdef void unswap(self) noexcept:
        """Board._unswap of the Table's last swap."""
        self.swap_count -= 1
        cdef Swap* swap = &self.swaps[self.swap_count]
        self.unplaced[swap.card >> 6] |= (<u64> 1) << (swap.card & 63)
        self.unplaced[self.joker >> 6] &= ~((<u64> 1) << (self.joker & 63))
        cdef int at
        for at in range(swap.numbered_count):
            self.renumber(swap.numbered[at], 0)
        order_clear(&self.live)
        for at in range(swap.saved_at, swap.saved_at + swap.saved_count):
            order_set(&self.live, self.saved[at])
        self.joker_cell = swap.cell

    cdef void take_back(self) noexcept:
        """Board.pop of the Table's last move, a placement or a joker swap."""
        self.moves -= 1
        cdef int cell = self.moved_cells[self.moves], tile = self.moved_tiles[self.moves]
        if tile == SWAPPED:
            self.unswap()
            return
        self.depth -= 1
        if self.depth == 0:
            self.alone = NONE
        self.unplaced[tile >> 6] |= (<u64> 1) << (tile & 63)
        cdef Py_ssize_t around[3]
        cdef Py_ssize_t v[3]
        cdef Py_ssize_t joker[3]
        cdef int index, neighbour, key
        neighbours_of(cell, around)
        for index in range(3):
            neighbour = around[index]
            self.edges[neighbour] -= 1
            if not self.edges[neighbour]:
                order_pop(&self.frontier, neighbour)
                order_pop(&self.live, neighbour)
        cdef bint has_joker = self.joker_cell != NONE
        if has_joker:
            corners_of(self.joker_cell, joker)
            if cell == self.joker_cell:
                self.joker_cell = NONE
                has_joker = False
        corners_of(cell, v)
        for index in range(3):
            self.counts[v[index]] -= 1
            # A vertex keeps its number while a card (not only the joker) touches it.
            if self.numbers[v[index]] and (
                not self.counts[v[index]]
                or (
                    self.counts[v[index]] == 1
                    and has_joker
                    and (v[index] == joker[0] or v[index] == joker[1] or v[index] == joker[2])
                )
            ):
                self.renumber(v[index], 0)
        if self.edges[cell] or not self.depth:
            self.keys[cell] = self.key_of(cell)
            order_set(&self.frontier, cell)
            order_set(&self.live, cell)
        while self.dropped and self.dropped_depth[self.dropped - 1] > self.depth:
            self.dropped -= 1
            order_set(&self.live, self.dropped_cell[self.dropped])

    cdef bint fitting(self, int cell, const u64* rack, u64* out) noexcept:
        cdef int key = self.keys[cell]
        out[0] = self.words[2 * key] & rack[0]
        out[1] = self.words[2 * key + 1] & rack[1]
        return out[0] != 0 or out[1] != 0

    cdef bint fits_any(self, const u64* rack) noexcept:
        """Board.can_place."""
        cdef u64 found[2]
        cdef int cell = self.frontier.first
        while cell != NONE:
            if self.fitting(cell, rack, found):
                return True
            cell = self.frontier.after[cell]
        return False

    cdef int best(self, const u64* rack, const long* values, const int* bonus, Move* out) noexcept:
        """Board.best_placement into ``out``: whether there is one. Its answer does not
        hang on the order of the cells."""
        cdef u64 found[2]
        cdef int cell = self.frontier.first, best_cell = NONE, figure, best_figure = -1
        cdef int tile, best_tile = -1
        cdef long score, best_score = -1
        while cell != NONE:
            if self.fitting(cell, rack, found):
                tile = 64 + highest_bit(found[1]) if found[1] else highest_bit(found[0])
                figure = figure_of(cell, self.edges, self.counts)
                score = values[tile] + bonus[figure]
                if score > best_score or (score == best_score and cell < best_cell):
                    best_score, best_cell, best_tile, best_figure = score, cell, tile, figure
            cell = self.frontier.after[cell]
        if best_cell == NONE:
            return False
        out.cell, out.tile, out.figure = best_cell, best_tile, best_figure
        self.first_corners(best_cell, best_tile, out.corners)
        return True

    cdef int first_corners(self, int cell, int tile, int* out) noexcept:
        """FitTable.corners[key][tile][0] of the cell's key, from the C copy."""
        cdef const signed char* corners = self.corner_words + 3 * (self.keys_tiles * self.keys[cell] + tile)
        out[0], out[1], out[2] = corners[0], corners[1], corners[2]
        return 0

    cdef int first_swap(self, const u64* rack, Move* out) noexcept:
        """The first of Board.joker_swaps(rack) into ``out``: whether there is one (the
        lowest card that fits where the joker lies, with its first corners)."""
        if self.joker_cell == NONE:
            return False
        cdef int key = self.key_of(self.joker_cell)
        cdef u64 fit0 = self.words[2 * key] & rack[0], fit1 = self.words[2 * key + 1] & rack[1]
        if self.joker < 64:
            fit0 &= ~((<u64> 1) << self.joker)
        else:
            fit1 &= ~((<u64> 1) << (self.joker - 64))
        if fit0:
            out.tile = __builtin_ctzll(fit0)
        elif fit1:
            out.tile = 64 + __builtin_ctzll(fit1)
        else:
            return False
        cdef const signed char* corners = self.corner_words + 3 * (self.keys_tiles * key + out.tile)
        out.corners[0], out.corners[1], out.corners[2] = corners[0], corners[1], corners[2]
        return True


cdef class Playout:
    """:meth:`Simulation.play_out`'s Python playout (``Hand.resume``, the candidate,
    :func:`_greedy_play`, the outlook, :func:`~triominos.bots.outcome.outcome`) without
    the Hand: the same rules of :class:`~triominos.game.Hand`, in the same order, on a
    :class:`Table` of the board, the racks, the pool and the scores in C arrays, under
    every rule option (Junior's counters, joker and last round included).

    Each method below names the Hand method it follows; what they leave out (the undo
    history, the events, legality checks) is what a greedy playout never reads.
    """

    cdef object rules, tile_set
    # outcome.win_chances' table: a hand's mean points and spread at this many players.
    cdef double hand_mean, hand_spread
    cdef long hand_number, hand_limit
    cdef bint start_gong, equity
    cdef double win_value
    # Evaluator.position_value's, for the outlook: the evaluator's weights, the tiles
    # unseen at the position (two words), its no_hit chances and its going-out value.
    cdef Weights weights
    cdef double going_out_value
    cdef u64 unseen[2]
    cdef double no_hit[MAX_TILES + 1]
    cdef long points_of[MAX_TILES]
    cdef long value_of[MAX_TILES]
    cdef int bonus_of[FIGURE_CODES]
    cdef int players, seat, starter, start_draws, draw_penalty, failed_draw_penalty
    cdef int empty_pool_pass_penalty, last_tile_bonus, going_out, match_end
    cdef long max_draws, target, bank, going_out_bonus
    cdef int blocked
    cdef bint collects, blocked_tie_each, others_minus_own
    cdef bint last_round_rule, after_taker, jokers
    cdef int joker, start_last_round_by
    cdef bint dry_pool_no_penalty, draw_ends_turn, to_the_end
    cdef int start_out[MAX_PLAYERS]
    cdef long start_totals[MAX_PLAYERS]
    cdef int start_out_count
    # The hand in play, set up by play_world().
    cdef u64 racks[MAX_PLAYERS][2]
    cdef long points[MAX_PLAYERS]
    cdef long totals[MAX_PLAYERS]
    cdef int out[MAX_PLAYERS]
    cdef int out_count
    cdef int pool[MAX_TILES]
    cdef int pool_size, taken
    cdef int to_move, draws, last_round_by, gong
    cdef bint armed, over
    cdef Table table

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
        out,
        totals,
        bint to_the_end,
        last_round_by,
    ):
        from triominos.bots.outcome import HAND_POINTS  # which imports the board

        self.hand_number = observation.hand_number
        self.hand_limit = NO_LIMIT if rules.hand_limit is None else rules.hand_limit
        self.start_gong = observation.gong is not None
        self.win_value, self.equity = win_value, equity
        self.rules = rules
        self.tile_set = rules.tiles
        self.players = len(totals)
        if self.players > MAX_PLAYERS:
            raise ValueError(f"a native playout takes at most {MAX_PLAYERS} players")
        self.hand_mean, self.hand_spread = HAND_POINTS[min(max(self.players, 2), 5)]
        self.seat = seat
        self.starter = starter
        self.start_draws = draws
        cdef int at
        self.start_out_count = len(out)
        if self.start_out_count > self.players or len(set(out)) < self.start_out_count:
            raise ValueError(f"out lists the seats gone out, each once, not {out!r}")
        for at in range(self.start_out_count):
            self.start_out[at] = out[at]
        for at in range(self.players):
            self.start_totals[at] = totals[at]
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
        self.going_out_bonus = rules.going_out_bonus
        self.collects = rules.going_out_collects
        self.blocked = BLOCKED_RULE.get(rules.blocked, NO_SETTLEMENT)
        self.blocked_tie_each = rules.blocked_tie == "each_scores"
        self.others_minus_own = rules.blocked_difference == "others_minus_own"
        self.last_round_rule = rules.pool_empty == "last_round"
        self.after_taker = rules.last_round_ends == "after_taker"
        self.start_last_round_by = NONE if last_round_by is None else last_round_by
        self.jokers = self.tile_set.joker is not None
        self.joker = self.tile_set.joker if self.jokers else NONE
        values = self.tile_set.values
        figure_points = rules.figure_points
        if len(values) > MAX_TILES or len(figure_points) != FIGURE_CODES:
            raise ValueError(f"a native playout takes at most {MAX_TILES} tiles")
        for at in range(len(values)):
            self.points_of[at] = rules.tile_values[at]
            self.value_of[at] = values[at]
        for at in range(FIGURE_CODES):
            self.bonus_of[at] = figure_points[at]
        read_weights(evaluator.weights, &self.weights)
        self.going_out_value = evaluator._going_out
        no_hit = evaluator._no_hit
        for at in range(min(len(no_hit), MAX_TILES + 1)):
            self.no_hit[at] = no_hit[at]
        two_words(evaluator.unseen, self.unseen)
        self.table = Table(board)

    def run(self, racks, pool, actions):
        """Each candidate of ``actions`` (legal for the seat: a placement, a draw, a pass,
        the joker taken back) played in the world ``racks`` and ``pool`` (next draw
        first), then greedy's moves to the horizon: ``Simulation.play_out``'s value of
        each, in a list."""
        cdef Move move
        found = []
        self.set_world(racks, pool)
        self.table.load()
        try:
            for action in actions:
                self.decode(action, &move)
                found.append(self.play_world(&move))
        finally:
            self.table.store()
        return found

    def simulate(self, Sampler sampler, rng, actions, long worlds):
        """Each action's values summed over ``worlds`` worlds that ``sampler`` draws
        with ``rng`` (:meth:`run` in each, world after world, added up in the order of
        ``Simulation.run``)."""
        cdef int count = len(actions), number
        cdef Move* moves = <Move*> PyMem_Malloc(max(count, 1) * sizeof(Move))
        cdef double* sums = <double*> PyMem_Malloc(max(count, 1) * sizeof(double))
        if moves == NULL or sums == NULL:
            PyMem_Free(moves)
            PyMem_Free(sums)
            raise MemoryError()
        cdef long world
        try:
            for number in range(count):
                self.decode(actions[number], &moves[number])
                sums[number] = 0.0
            # Each playout leaves the Table as the board's pops would leave the board:
            # the board's dicts are written once, at the end.
            self.table.load()
            try:
                for world in range(worlds):
                    self.pool_size = sampler.draw(rng, self.racks, self.pool)
                    for number in range(count):
                        sums[number] += self.play_world(&moves[number])
            finally:
                self.table.store()
            return [sums[number] for number in range(count)]
        finally:
            PyMem_Free(moves)
            PyMem_Free(sums)

    cdef int set_world(self, racks, pool) except -1:
        cdef int seat, at
        for seat in range(self.players):
            two_words(racks[seat], self.racks[seat])
        self.pool_size = len(pool)
        if self.pool_size > MAX_TILES:
            raise ValueError(f"a native playout takes at most {MAX_TILES} tiles")
        for at in range(self.pool_size):
            self.pool[at] = pool[at]
        return 0

    cdef int decode(self, action, Move* move) except -1:
        """A candidate as a Move (its figure is found when it is played)."""
        from triominos.game import Draw, Pass, Placement, TakeJoker  # which import the board

        cdef int at
        if isinstance(action, Placement):
            move.kind = PLACE
            move.cell = action.cell.id
        elif isinstance(action, TakeJoker):
            move.kind = TAKE_JOKER
        elif isinstance(action, Draw):
            move.kind = DRAW
            return 0
        elif isinstance(action, Pass):
            move.kind = PASS
            return 0
        else:
            raise ValueError(
                f"a playout's candidate is a placement, draw, pass or joker taken back, "
                f"not {action!r}"
            )
        move.tile = self.tile_set.position[action.tile]
        for at in range(3):
            move.corners[at] = action.corners[at]
        return 0

    cdef double play_world(self, Move* move) except? -1.0:
        """The move played in the world set up (racks and pool), then greedy's moves to
        the horizon; its value, the Table (loaded) taken back."""
        cdef u64 racks[MAX_PLAYERS][2]
        cdef int seat
        for seat in range(self.players):  # the world, for the next candidate
            racks[seat][0], racks[seat][1] = self.racks[seat][0], self.racks[seat][1]
            self.points[seat] = 0
            self.totals[seat] = self.start_totals[seat]
        for seat in range(self.start_out_count):
            self.out[seat] = self.start_out[seat]
        self.out_count = self.start_out_count
        self.taken = 0
        self.to_move = self.seat
        self.draws = self.start_draws
        self.gong = NONE
        self.over = False
        self.last_round_by = self.start_last_round_by
        self.armed = self.last_round_by != NONE and not (
            self.to_move == self.last_round_by and self.draws
        )
        cdef double outlook = 0.0, value
        cdef Table table = self.table
        try:
            self.play(move)
            self.greedy()
            if not self.over:
                outlook = self.outlook_of(self.racks[self.seat])
        finally:
            while table.moves:
                table.take_back()
            for seat in range(self.players):
                self.racks[seat][0], self.racks[seat][1] = racks[seat][0], racks[seat][1]
        return self.outcome() + outlook

    cdef double outcome(self) except? -1.0:
        """bots.outcome.outcome of the hand played, in the same float operations (one
        correctly rounded division of ints, then the same products and sums)."""
        cdef long mine = self.points[self.seat], whole = 0, best
        cdef int seat, ties = 0
        for seat in range(self.players):
            whole += self.points[seat]
        cdef double value = mine - <double> (whole - mine) / (self.players - 1), share = 0.0
        if not self.over:
            return value
        best = self.totals[0]
        for seat in range(self.players):
            if self.totals[seat] > best:
                best = self.totals[seat]
        if self.match_ends(best, self.start_gong or self.gong != NONE):
            if self.totals[self.seat] == best:
                for seat in range(self.players):
                    ties += self.totals[seat] == best
                share = 1.0 / ties
            value += self.win_value * (2 * share - 1)
        elif self.equity:
            value += self.win_value * (2 * self.win_chance(best) - 1)
        return value

    cdef double win_chance(self, long lead) noexcept:
        """outcome.win_chances' chance of the seat, given the highest total: the same
        float operations, and the weights added up as the running Python's sum() does."""
        cdef double weights[MAX_PLAYERS]
        cdef double remaining = INFINITY
        if self.target != NO_LIMIT:
            remaining = max(self.target - lead, 0) / self.hand_mean + 0.5
        if self.hand_limit != NO_LIMIT:
            remaining = min(remaining, max(self.hand_limit - self.hand_number, 0) + 0.5)
        cdef double scale = self.hand_spread * sqrt(remaining)
        cdef int seat
        for seat in range(self.players):
            weights[seat] = exp((self.totals[seat] - lead) / scale)
        return weights[self.seat] / float_sum(weights, self.players)

    cdef bint match_ends(self, long best, bint gong) noexcept:
        """game.match_ends, given the highest total."""
        if self.target != NO_LIMIT and (gong or best >= self.target):
            return True
        return self.hand_limit != NO_LIMIT and self.hand_number >= self.hand_limit

    cdef int play(self, Move* move) except -1:
        """Hand.apply of a candidate, legal by construction (Hand checks it)."""
        cdef Table table = self.table
        if move.kind == PLACE:
            move.figure = figure_of(move.cell, table.edges, table.counts)
            self.place(move)
        elif move.kind == DRAW:
            self.draw()
        elif move.kind == PASS:
            self.pass_turn()
        else:
            self.take_joker(move)
        return 0

    cdef int greedy(self) except -1:
        """sim's _greedy_play: to the end of the hand, or to the seat's next turn."""
        cdef Move move
        cdef u64* rack
        while not self.over and (
            self.to_the_end or self.to_move != self.seat or self.draws
        ):
            rack = self.racks[self.to_move]
            if self.table.best(rack, self.points_of, self.bonus_of, &move):
                self.place(&move)
            elif self.jokers and self.table.first_swap(rack, &move):
                self.take_joker(&move)
            elif self.may_draw():
                self.draw()
            else:
                self.pass_turn()
        return 0

    cdef bint may_draw(self) noexcept:
        """game.may_draw, with the counters to pay with."""
        if self.taken == self.pool_size:
            return False
        if self.max_draws != NO_LIMIT and self.draws >= self.max_draws:
            return False
        return self.bank == NO_LIMIT or self.totals[self.to_move] >= self.draw_penalty

    cdef int take_joker(self, Move* move) except -1:
        """Hand._take_joker."""
        self.table.swap_joker(move.tile, move.corners)
        cdef u64* rack = self.racks[self.to_move]
        rack[move.tile >> 6] &= ~((<u64> 1) << (move.tile & 63))
        rack[self.joker >> 6] |= (<u64> 1) << (self.joker & 63)
        self.end_turn()
        return 0

    cdef void score(self, int seat, long points) noexcept:
        """Hand._score."""
        self.points[seat] += points
        self.totals[seat] += points

    cdef int place(self, Move* move) except -1:
        """Hand._place in play, with placement_points."""
        cdef int player = self.to_move, tile = move.tile, seat
        cdef u64* rack = self.racks[player]
        cdef u64 bit = (<u64> 1) << (tile & 63)
        cdef long points = self.points_of[tile], paid = 0
        if move.figure:
            points += self.bonus_of[move.figure]
        rack[tile >> 6] ^= bit
        cdef bint last = not (rack[0] or rack[1])
        if last:
            points += self.last_tile_bonus
        if self.bank != NO_LIMIT:  # the bank pays what it holds
            for seat in range(self.players):
                paid += self.totals[seat]
            points = min(points, self.bank - paid)
        self.table.lay(move.cell, tile, move.corners)
        self.score(player, points)
        if last and not self.is_out(player):
            self.out[self.out_count] = player
            self.out_count += 1
        if self.match_end != AFTER_HAND and self.reaches_target(player):
            if self.match_end == FIRST_TO_TARGET:
                self.finish(TARGET)
                return 0
        self.end_turn()
        return 0

    cdef int draw(self) except -1:
        """Hand._draw."""
        cdef int player = self.to_move, index = self.pool[self.taken]
        self.taken += 1
        if self.taken == self.pool_size and self.last_round_rule:  # the last tile
            self.last_round_by = player
        self.draws += 1
        self.racks[player][index >> 6] |= (<u64> 1) << (index & 63)
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
            ran_dry = self.taken == self.pool_size and (
                self.max_draws == NO_LIMIT or self.draws < self.max_draws
            )
            penalty = 0 if ran_dry and self.dry_pool_no_penalty else self.failed_draw_penalty
        self.score(self.to_move, -penalty)
        self.end_turn()
        return 0

    cdef int end_turn(self) except -1:
        """Hand._end_turn."""
        self.draws = 0
        cdef int following = (self.to_move + 1) % self.players, ends_at
        if self.out_count and (
            self.going_out == ENDS_HAND
            or (self.going_out == FINISH_ROUND and following == self.starter)
        ):
            self.finish(OUT)
            return 0
        if self.last_round_by != NONE:
            ends_at = self.to_move if self.after_taker else following
            if ends_at == self.last_round_by and self.armed:
                self.finish(LAST_ROUND)
                return 0
            self.armed = True
        if (
            self.taken == self.pool_size or self.bank != NO_LIMIT or self.max_draws == 0
        ) and self.stuck():
            if self.out_count and self.going_out != PLAYS_ON:
                self.finish(OUT)
            else:
                self.finish(LAST_ROUND if self.last_round_by != NONE else BLOCKED)
            return 0
        self.to_move = following
        return 0

    cdef bint stuck(self) noexcept:
        """Hand._stuck."""
        cdef int seat
        cdef Move move
        if self.taken < self.pool_size and self.max_draws != 0:
            if self.bank == NO_LIMIT:
                return False
            for seat in range(self.players):
                if self.totals[seat] >= self.draw_penalty:
                    return False
        for seat in range(self.players):
            if self.table.fits_any(self.racks[seat]):
                return False
        if self.jokers:
            for seat in range(self.players):
                if self.table.first_swap(self.racks[seat], &move):
                    return False
        return True

    cdef bint is_out(self, int seat) noexcept:
        """Whether ``seat`` emptied its rack before. Hand.out notes a seat each time it
        goes out (Junior plays on: buy a card, lay it, out again), but all that counts is
        who went out first and who went out at all, so here each seat is noted once: the
        array has room for every seat, not for every time (past it, a playout wrote onto
        the world's pool, which the next candidate of the same world then drew)."""
        cdef int at
        for at in range(self.out_count):
            if self.out[at] == seat:
                return True
        return False

    cdef bint reaches_target(self, int seat) noexcept:
        """Hand._reaches_target."""
        if self.gong == NONE and self.target != NO_LIMIT and self.totals[seat] >= self.target:
            self.gong = seat
            return True
        return False

    cdef int finish(self, int reason) except -1:
        """Hand._finish (never a resignation), with game.settle."""
        cdef long left[MAX_PLAYERS]
        cdef long settlement[MAX_PLAYERS]
        cdef long collected = 0, lowest, whole = 0, times
        cdef int seat, at, best
        cdef bint gone
        for seat in range(self.players):
            left[seat] = value_of_rack(self.value_of, self.racks[seat])
            settlement[seat] = 0
            whole += left[seat]
        if reason == OUT:
            # Only the first player out scores.
            if self.collects:
                for seat in range(self.players):
                    gone = False
                    for at in range(self.out_count):
                        gone = gone or self.out[at] == seat
                    if not gone:
                        collected += left[seat]
            settlement[self.out[0]] = self.going_out_bonus + collected
        elif reason == BLOCKED and self.blocked == EACH_LOSES_OWN:
            for seat in range(self.players):
                settlement[seat] = -left[seat]
        elif reason == BLOCKED and self.blocked == LOWEST_SCORES_DIFFERENCE:
            lowest = left[0]
            for seat in range(self.players):
                if left[seat] < lowest:
                    lowest = left[seat]
            ties = 0
            for seat in range(self.players):
                ties += left[seat] == lowest
            if ties == 1 or self.blocked_tie_each:
                times = 1 if self.others_minus_own else self.players - 1
                for seat in range(self.players):
                    if left[seat] == lowest:
                        settlement[seat] = whole - lowest - times * lowest
        for seat in range(self.players):
            self.score(seat, settlement[seat])
        if self.match_end != AFTER_HAND and self.gong == NONE:
            # The highest total first (ties by seat): the first to reach the target.
            best = 0
            for seat in range(self.players):
                if self.totals[seat] > self.totals[best]:
                    best = seat
            self.reaches_target(best)
        self.over = True
        return 0

    cdef double outlook_of(self, const u64* rack) except? -1.0:
        """Simulation._outlook: the seat's best placement now and what it keeps."""
        cdef Move best
        if not self.table.best(rack, self.points_of, self.bonus_of, &best):
            return self.position_value(rack) - self.draw_penalty
        cdef long points = self.points_of[best.tile] + self.bonus_of[best.figure]
        cdef u64 kept[2]
        kept[0], kept[1] = rack[0], rack[1]
        kept[best.tile >> 6] &= ~((<u64> 1) << (best.tile & 63))
        self.table.lay(best.cell, best.tile, best.corners)
        try:
            return points + self.position_value(kept)
        finally:
            self.table.take_back()

    cdef double position_value(self, const u64* held) except? -1.0:
        """Evaluator.position_value(rack), with its bonus_cells and outlook: the same
        sums in the same order (the extension is compiled without fused multiply-adds)."""
        if not (held[0] or held[1]):
            return self.going_out_value
        cdef Table table = self.table
        cdef u64 tiles0 = held[0] | self.unseen[0], tiles1 = held[1] | self.unseen[1]
        cdef const u64* words = table.words
        # The bonus cells by falling bonus, ties in the frontier's order (a stable sort).
        cdef int bonuses[MAX_OPEN]
        cdef u64 fit0[MAX_OPEN]
        cdef u64 fit1[MAX_OPEN]
        cdef int found = 0, bonus, cell = table.frontier.first, key
        cdef u64 a, b, fits0 = 0, fits1 = 0
        while cell != NONE:
            key = table.keys[cell]
            fits0 |= words[2 * key] & held[0]
            fits1 |= words[2 * key + 1] & held[1]
            a = words[2 * key] & tiles0
            b = words[2 * key + 1] & tiles1
            cell_here = cell
            cell = table.frontier.after[cell]
            if not (a or b):
                continue
            bonus = self.bonus_of[figure_of(cell_here, table.edges, table.counts)]
            if bonus:
                found = rank_bonus_cell(found, bonus, a, b, bonuses, fit0, fit1)
        cdef double threat, chance
        outlook(found, bonuses, fit0, fit1, held, self.unseen, self.no_hit, &threat, &chance)
        return weighted_value(&self.weights, threat, chance, held, fits0, fits1, self.value_of)


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
        cdef u64 racks[MAX_PLAYERS][2]
        cdef int pool[MAX_TILES]
        cdef int count = self.draw(rng, racks, pool), seat, number, excess, surprise = 0
        cdef Limit* limits = self.constraints
        cdef u64* rack
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
        return self.world(dealt, tuple([pool[at] for at in range(count)]), surprise)

    cdef int draw(self, rng, u64 racks[][2], int* pool) except -1:
        """WorldSampler.sample's racks and pool into ``racks`` and ``pool``: how many
        tiles the pool holds."""
        getrandbits, random_ = rng.getrandbits, rng.random
        cdef int attempt, count
        for attempt in range(self.attempts):
            active = list(self.hard)
            if attempt < self.attempts // 2:
                active += [at for at, believed in self.soft if random_() < believed]
            count = self.deal(getrandbits, active, racks, pool)
            if count >= 0:
                return count
        return self.deal(getrandbits, [], racks, pool)

    cdef int deal(self, getrandbits, list active, u64 racks[][2], int* tiles) except -2:
        """WorldSampler._deal (no open racks) into ``racks`` and ``tiles`` (the pool):
        how many tiles the pool holds, or -1 where the constraints left a rack short."""
        cdef int left[MAX_TILES]
        cdef int count = self.tile_count, kept, at, i, j, tile, swap, word, bit, wanted
        cdef int seat, number, limit_count
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
                return -1
            for at in range(kept):
                tiles[at] = left[at]
            count = kept
        return count


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
