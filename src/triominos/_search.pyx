# cython: language_level=3, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
"""The static evaluation's inner sum in C: :meth:`Evaluator.position_value
<triominos.bots.expert.Evaluator.position_value>`, which ranking a seat's options calls
once a placement (and drawing on purpose once a placement of every unseen tile): what
analysing a match and finding puzzles spend most on beside the playouts.

:class:`Valuer` follows the Python method step for step, on the evaluator's board as it
stands: the bonus cells in the board's frontier order, sorted by falling bonus (stably),
:func:`~triominos.bots.expert.outlook` over them, and the weighted sum, in the same
float operations in the same order (compiled without fused multiply-adds, the directive
above, which would round otherwise than Python). ``tests/test_native_analysis.py``
compares them value for value.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING

from triominos._native cimport (
    FIGURE_CODES,
    MAX_OPEN,
    MAX_TILES,
    Weights,
    check_constants,
    figure_of,
    outlook,
    packed_words,
    rank_bonus_cell,
    read_weights,
    two_words,
    u64,
    weighted_value,
)

check_constants()


cdef dict WORDS = {}
"""By FitTable, its masks as C words, two a key (low, high)."""


cdef bytes words_of(fits):
    words = WORDS.get(fits)
    if words is None:
        words = WORDS[fits] = packed_words(fits.masks)
    return words


cdef class Valuer:
    """One evaluator's :meth:`position_value`: its weights, its no-hit chances and its
    going-out value, read once; its board read at each call."""

    cdef object board, no_hit_list
    cdef Weights weights
    cdef double going_out
    cdef double no_hit[MAX_TILES + 1]
    cdef long value_of[MAX_TILES]
    cdef int bonus_of[FIGURE_CODES]

    def __init__(self, evaluator):
        read_weights(evaluator.weights, &self.weights)
        self.going_out = evaluator._going_out
        self.board = evaluator.board
        values = evaluator.tile_set.values
        no_hit = evaluator._no_hit
        figure_points = evaluator._figure_points
        if len(values) > MAX_TILES or len(no_hit) > MAX_TILES + 1:
            raise ValueError(f"a native evaluation takes at most {MAX_TILES} tiles")
        if len(figure_points) != FIGURE_CODES:
            raise ValueError(f"a native evaluation takes {FIGURE_CODES} figure codes")
        cdef Py_ssize_t index
        for index in range(len(values)):
            self.value_of[index] = values[index]
        for index in range(len(no_hit)):
            self.no_hit[index] = no_hit[index]
        for index in range(FIGURE_CODES):
            self.bonus_of[index] = figure_points[index]

    def position_value(self, rack, unseen):
        """Evaluator.position_value(rack, unseen) on the board as it stands."""
        if not rack:
            return self.going_out
        cdef u64 held[2]
        cdef u64 hidden[2]
        two_words(rack, held)
        two_words(unseen, hidden)
        cdef u64 tiles0 = held[0] | hidden[0], tiles1 = held[1] | hidden[1]
        board = self.board
        cdef bytes words_bytes = words_of(board._fits)
        cdef const u64* words = <const u64*> PyBytes_AS_STRING(words_bytes)
        cdef unsigned char* edges = <unsigned char*> PyByteArray_AS_STRING(board._edges)
        cdef unsigned char* counts = <unsigned char*> PyByteArray_AS_STRING(board._counts)
        # Evaluator.bonus_cells: by falling bonus, ties in the frontier's order (stable).
        cdef int bonuses[MAX_OPEN]
        cdef u64 fit0[MAX_OPEN]
        cdef u64 fit1[MAX_OPEN]
        cdef int found = 0, bonus
        cdef u64 a, b, fits0 = 0, fits1 = 0
        cdef Py_ssize_t key, cell
        for cell_object, key_object in (<dict> board._frontier).items():
            cell, key = cell_object, key_object
            fits0 |= words[2 * key] & held[0]
            fits1 |= words[2 * key + 1] & held[1]
            a = words[2 * key] & tiles0
            b = words[2 * key + 1] & tiles1
            if not (a or b):
                continue
            bonus = self.bonus_of[figure_of(cell, edges, counts)]
            if bonus:
                found = rank_bonus_cell(found, bonus, a, b, bonuses, fit0, fit1)
        cdef double threat, chance
        outlook(found, bonuses, fit0, fit1, held, hidden, self.no_hit, &threat, &chance)
        return weighted_value(&self.weights, threat, chance, held, fits0, fits1, self.value_of)
