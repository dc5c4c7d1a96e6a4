# cython: language_level=3
"""What the native modules (``_board``, ``_match``, ``_search``) share: the board's
constants as C constants and the small inline functions on its arrays.

A .pxd of inline functions and enums only, so it needs no compiled module of its own:
each module that cimports it gets its own copy of the C. The constants are
:data:`triominos.lattice.WIDTH`, :data:`triominos.board.BRIDGE` and
:data:`~triominos.board.TWO_SIDES` written out as C constants (so the compiler folds
them); each module calls :func:`check_constants` when it loads, so that a change on the
Python side stops the native core from loading instead of going unnoticed.
"""

from cpython.long cimport PyLong_AsUnsignedLongLongMask

ctypedef unsigned long long u64

cdef enum:
    WIDTH = 256  # lattice.WIDTH
    BRIDGE = 4  # board.BRIDGE
    TWO_SIDES = 5  # board.TWO_SIDES
    MAX_TILES = 128  # two words of tiles
    FIGURE_CODES = 6  # board.FIGURES
    MAX_OPEN = 384  # open cells: three a tile at most, of at most 128 tiles


cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef inline int check_constants() except -1:
    """Raise ImportError when the C constants above differ from the Python ones."""
    from triominos.board import BRIDGE as bridge, FIGURES as figures, TWO_SIDES as two_sides
    from triominos.lattice import WIDTH as width

    python = (width, bridge, two_sides, len(figures))
    native = (WIDTH, BRIDGE, TWO_SIDES, FIGURE_CODES)
    if python != native:
        raise ImportError(
            f"the native core was built for (WIDTH, BRIDGE, TWO_SIDES, figures) {native},"
            f" the Python modules have {python}: rebuild it"
        )
    return 0


cdef inline int popcount(u64 word) noexcept:
    return __builtin_popcountll(word)


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


cdef inline int figure_of(
    Py_ssize_t cell, const unsigned char* edges, const unsigned char* counts
) noexcept:
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


cdef inline int two_words(mask, u64* out) except -1:
    """A mask of tiles as two words, low first."""
    if mask < 0 or mask >> 128:
        raise ValueError(f"a native core's masks hold at most {MAX_TILES} tiles, not {mask}")
    out[0] = PyLong_AsUnsignedLongLongMask(mask & 0xFFFF_FFFF_FFFF_FFFF)
    out[1] = PyLong_AsUnsignedLongLongMask(mask >> 64)
    return 0


cdef inline bytes packed_words(masks):
    """A FitTable's masks as C words, two a key (low, high), in the machine's byte order;
    to_bytes raises, never truncates, should a mask ever pass 128 bits."""
    from sys import byteorder

    cdef list words = []
    for mask in masks:
        words.append((mask & 0xFFFF_FFFF_FFFF_FFFF).to_bytes(8, byteorder))
        words.append((mask >> 64).to_bytes(8, byteorder))
    return b"".join(words)


# --- expert.Evaluator.position_value, shared by the playout and the Valuer ---------------


cdef inline int rank_bonus_cell(
    int found, int bonus, u64 low, u64 high, int* bonuses, u64* fit0, u64* fit1
) except -1:
    """Evaluator.bonus_cells, one cell at a time: insert a bonus cell (its bonus and the
    tiles that fit it, two words) among the ``found`` ones by falling bonus, after those of
    the same bonus (a stable sort, as Python's); the new count."""
    if found == MAX_OPEN:
        raise ValueError(f"more than {MAX_OPEN} open cells")
    cdef int at = found
    while at and bonuses[at - 1] < bonus:
        bonuses[at], fit0[at], fit1[at] = bonuses[at - 1], fit0[at - 1], fit1[at - 1]
        at -= 1
    bonuses[at], fit0[at], fit1[at] = bonus, low, high
    return found + 1


cdef inline void outlook(
    int found,
    const int* bonuses,
    const u64* fit0,
    const u64* fit1,
    const u64* held,
    const u64* unseen,
    const double* no_hit,
    double* threat,
    double* chance,
) noexcept:
    """expert.outlook over the ranked bonus cells: the threat of the unseen tiles and the
    seat's best chance, in Python's float operations and order."""
    cdef double untaken = 1.0, spared
    cdef int theirs, at
    threat[0] = 0.0
    chance[0] = 0.0
    for at in range(found):
        theirs = popcount(fit0[at] & unseen[0]) + popcount(fit1[at] & unseen[1])
        spared = no_hit[theirs] if theirs else 1.0
        threat[0] += untaken * (1 - spared) * bonuses[at]
        untaken *= spared
        if (fit0[at] & held[0]) or (fit1[at] & held[1]):
            if bonuses[at] * spared > chance[0]:
                chance[0] = bonuses[at] * spared


cdef inline long value_of_rack(const long* value_of, const u64* rack) noexcept:
    """TileSet.value_of: the sum of the rack's tile values."""
    cdef long total = 0
    cdef int word
    cdef u64 held
    for word in range(2):
        held = rack[word]
        while held:
            total += value_of[64 * word + __builtin_ctzll(held)]
            held &= held - 1
    return total


cdef struct Weights:  # expert.Weights, the terms position_value uses
    double threat, chance, tiles, rack_value, stuck, last_tile


cdef inline int read_weights(weights, Weights* out) except -1:
    out.threat = weights.threat
    out.chance = weights.chance
    out.tiles = weights.tiles
    out.rack_value = weights.rack_value
    out.stuck = weights.stuck
    out.last_tile = weights.last_tile
    return 0


cdef inline double weighted_value(
    const Weights* weights,
    double threat,
    double chance,
    const u64* held,
    u64 fits0,
    u64 fits1,
    const long* value_of,
) noexcept:
    """position_value's weighted sum, for a rack that is not empty: ``fits0``, ``fits1``
    are the held tiles that fit somewhere open."""
    cdef int kept = popcount(held[0]) + popcount(held[1])
    cdef int stuck = popcount(held[0] & ~fits0) + popcount(held[1] & ~fits1)
    cdef long rack_value = value_of_rack(value_of, held)
    cdef double value = (
        weights.threat * threat
        + weights.chance * chance
        + weights.tiles * kept
        + weights.rack_value * rack_value
        + weights.stuck * stuck
    )
    if kept == 1 and not stuck:
        value += weights.last_tile
    return value
