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

from triominos._native cimport check_constants, figure_of
from triominos.board import FIGURES as _FIGURES, Placement
from triominos.board import IllegalPlacementError
from triominos.game import (
    PYTHON_MATCH_PATHS,
    _copied_values,
    _plain_values,
    Draw,
    Event,
    IllegalActionError,
    LegalAction,
    Observation,
    fit_forbids_draw,
    placement_points,
)
from triominos.lattice import _PACKED, LatticeError
from triominos.lattice import Cell

check_constants()

cdef object NEW_TUPLE = tuple.__new__
cdef object CELL_OF = Cell.from_id
cdef tuple FIGURES = _FIGURES
cdef str LAST_TILE = "last_tile"
cdef object ONE = 1
cdef object PYTHON_APPLY = PYTHON_MATCH_PATHS["hand_apply"]
cdef object PYTHON_MATCH_APPLY = PYTHON_MATCH_PATHS["match_apply"]
cdef object PYTHON_IS_OVER = PYTHON_MATCH_PATHS["match_is_over"].fget
cdef str OVER = "over"
cdef object PLAIN_VALUES = _plain_values
cdef object COPIED_VALUES = _copied_values
cdef dict PACKED = _PACKED
cdef str PLAY = "play"
cdef str PLACE = "place"
cdef str AFTER_HAND = "after_hand"
cdef tuple NO_BONUSES = ()


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


def match_apply(match, action, player=None):
    """Match.apply: while the hand plays on, the hand's apply and nothing more (the match
    is not over while its hand is not); the rest by the Python method."""
    hand = (<list> match.hands)[-1]
    if hand.phase == OVER:
        return PYTHON_MATCH_APPLY(match, action, player)
    event = hand.apply(action, player)
    if hand.phase == OVER:
        for seat, points in enumerate(hand.points):
            match.totals[seat] += points
        if not match.is_over:
            match._start_hand()
    return event


def match_observe(match, seat):
    """Match.observe."""
    return observe((<list> match.hands)[-1], seat)


def to_move(match):
    """Match.to_move: the hand's."""
    return (<list> match.hands)[-1].to_move


match_to_move = property(to_move)


def is_over(match):
    """Match.is_over: not while its hand plays on; else the Python property's answer."""
    if (<list> match.hands)[-1].phase != OVER:
        return False
    return PYTHON_IS_OVER(match)


match_is_over = property(is_over, doc=PYTHON_MATCH_PATHS["match_is_over"].__doc__)


def hand_apply(hand, action, player=None):
    """Hand.apply: a placement in play, most actions, here step for step as Hand._place
    and Hand._end_turn; every other action (and every other turn end) by the Python
    methods themselves."""
    kind = type(action)
    if (
        (kind is not Placement and kind is not Draw)
        or hand.phase != PLAY
        or (player is not None and player != hand.to_move)  # for its error
        or (kind is Draw and not may_draw_now(hand))  # for its error
    ):
        return PYTHON_APPLY(hand, action, player)
    # An illegal action raises before it changes anything: then this is dropped.
    saved = (PLAIN_VALUES(hand), *[tuple(values) for values in COPIED_VALUES(hand)])  # _saved
    event = place(hand, action) if kind is Placement else draw(hand)
    hand._undo.append(saved)
    return event


cdef bint may_draw_now(hand) except -1:
    """Whether Hand._draw would draw (and not raise) in play."""
    rules, player = hand.rules, hand.to_move
    max_draws = rules.max_draws
    return (
        len(hand._pool) > hand._drawn
        and (max_draws is None or hand.draws < max_draws)
        and (rules.bank is None or hand._totals[player] >= rules.draw_penalty)
        and not fit_forbids_draw(rules, hand.board, hand.racks[player], hand.drawn)
    )


cdef draw(hand):
    """Hand._draw in play, once may_draw_now said yes."""
    rules, player = hand.rules, hand.to_move
    pool_size = len(hand._pool) - hand._drawn
    drawn = hand._drawn
    index = hand._pool[drawn]
    hand._drawn = drawn + 1
    hand.draws += 1
    hand.drawn = index
    cdef list racks = hand.racks
    racks[player] |= ONE << index
    penalty = rules.draw_penalty
    cdef list points = hand.points, totals = hand._totals
    points[player] -= penalty
    totals[player] -= penalty
    name = "draw" if rules.bank is None else "buy"
    tile = hand.tile_set.tiles[index]
    event = NEW_TUPLE(Event, (player, name, -penalty, tile, None, None, NO_BONUSES))
    hand.events.append(event)
    hidden = event.seen_by(None, rules.open_racks)  # as the others see it
    for seat, seen in (<dict> hand._seen).items():
        (<list> seen).append(event if seat == player else hidden)
    if pool_size == 1 and rules.pool_empty == "last_round":  # that was the last tile
        hand._last_round_by = player
    if rules.draw_ends_turn:
        hand._end_turn()
    return event


cdef place(hand, placement):
    """Hand._place in play."""
    player, rules, tile_set = hand.to_move, hand.rules, hand.tile_set
    tile, at, corners = placement
    index = (<dict> tile_set.position).get(tile, -1)
    cdef list racks = hand.racks
    rack = racks[player]
    bit = 0 if index < 0 else ONE << index  # 0: not a tile of this set
    if not rack & bit:
        raise IllegalActionError("own_tile", f"{tile} is not in player {player}'s rack")
    cell = PACKED.get(id(at))  # Cell.id's first question, asked here
    try:
        if cell is None:
            cell = at.id
    except LatticeError as error:
        raise IllegalActionError("on_board", str(error)) from None
    if type(corners) is not tuple:
        corners = tuple(corners)
        placement = Placement(tile, at, corners)
    board = hand.board
    try:
        figure = board.checked_figure(placement, cell, index)
    except IllegalPlacementError as error:
        raise IllegalActionError(error.rule, str(error)) from None
    last = rack == bit
    bank = rules.bank
    if figure or last or bank is not None:
        value = rules.tile_values[index]
        points, bonus_map = placement_points(rules, value, figure, last, hand.bank)
        bonuses = tuple(bonus_map.items())
    else:  # the common case: the tile's value and nothing more
        points, bonuses = rules.tile_values[index], NO_BONUSES
    board.push_unchecked(cell, index, corners)
    racks[player] = rack = rack ^ bit  # the tile leaves the rack
    cdef list points_list = hand.points, totals = hand._totals
    points_list[player] += points
    totals[player] += points
    event = NEW_TUPLE(Event, (player, PLACE, points, tile, at, corners, bonuses))
    hand.events.append(event)
    for seen in (<dict> hand._seen).values():
        (<list> seen).append(event)
    if not rack:
        hand.out = [*hand.out, player]  # replaced, not changed: a plain attribute
    match_end = rules.match_end
    if match_end != AFTER_HAND and hand._reaches_target(player):
        if match_end == "first_to_target":
            hand._finish("target")
            return event
    end_turn(hand, rules, bank)
    return event


cdef end_turn(hand, rules, bank):
    """Hand._end_turn: the common turn, where nobody went out, no last round runs, the
    pool holds tiles and the rules know no bank nor a pool closed to draws; any other by
    the Python method."""
    if (
        hand.out
        or hand._last_round_by is not None
        or hand._drawn == len(hand._pool)
        or bank is not None
        or rules.max_draws == 0
    ):
        hand._end_turn()
        return
    hand.draws = 0
    hand.drawn = None
    hand.to_move = (hand.to_move + 1) % hand.players
