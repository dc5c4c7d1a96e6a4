"""Numbers for learning: action ids and the observation tensor of one seat.

Learning code wants a fixed set of actions numbered from 0 and a fixed-size vector of
numbers per observation. Both are laid over a *window* of the lattice: the vertices
``(x, y)`` with ``-radius <= x, y <= radius`` in the coordinates of RECORD.md, a square
of axial coordinates around the origin. The window never moves: the first tile of every
hand lies on the origin (``Cell(0, 0, up)``), so a cell's id is the same from the first
move of a hand to its last. ``RADIUS`` (24) is measured, not guessed:
``benchmarks/extent.py`` plays 2,000 random and 2,000 greedy hands of every preset at its
fewest and most players and records the farthest corner of a tile or an open cell. The
largest of those 40,000 hands reached 18 (greedy, the children's extended game, where
bonuses are small and chains grow long; 12 at most in the classic game), which leaves a
margin of 6. A board that still outgrows the window raises :class:`OutsideWindowError`
rather than leave an action out; ``radius=`` makes a larger window.

**Action ids** (:class:`ActionSpace`), for a tile set of ``T`` tiles:

======================  ==============================================================
id                      action
======================  ==============================================================
0                       :class:`~triominos.game.Draw`
1                       :class:`~triominos.game.Pass`
2                       :class:`~triominos.game.StarterDraw`
3 + (c * T + t) * 3 + r a :class:`~triominos.board.Placement` of tile index ``t`` on
                        window cell ``c``, with the tile's rotation ``r`` (the index in
                        ``tile.rotations()``; the joker has one, ``r = 0``, its corners
                        read off the board)
after the placements    :class:`~triominos.game.TakeJoker` of tile ``t`` with rotation
                        ``r``: ``t * 3 + r`` on from the first (sets with a joker only)
======================  ==============================================================

Window cell ``c`` of ``Cell(x, y, up)`` is ``((x + radius) * 2 * radius + y + radius) * 2
+ up``, for ``-radius <= x, y < radius``: the cells whose three corners are in the window.
Ids of rotations a tile does not have (a triple has one) are never legal.

**The observation tensor** (:class:`ObservationEncoder`) is a flat vector of float32: first
the *planes* over the window's vertices, shape ``(planes, side, side)`` with ``side = 2 *
radius + 1``, index ``[plane][x + radius][y + radius]``, then the *features*. Seats in the
features are counted from the observing seat: entry ``i`` is seat ``(seat + i) % players``.
Points are divided by :data:`POINTS_SCALE`; counts are as they are.

- planes ``number 0`` … ``number S-1`` (``S`` the set's symbols): 1 where a tile shows
  that number at the vertex;
- ``up tile``, ``down tile``: 1 at the lower-left vertex of an occupied up (down) cell;
- ``up open``, ``down open``: the same for the open cells, where a tile may go;
- ``up joker``, ``down joker`` (sets with a joker): where the joker lies;
- features ``rack``, ``table``, ``unseen`` (``T`` each): the seat's tiles, the tiles on the
  table, the tiles in play the seat cannot see (the other racks and the pool);
  ``open racks`` (``(players - 1) * T``, rules with open racks): the other seats' racks;
  ``totals``, ``hand points``, ``rack sizes``, ``to move`` (one-hot) by seat; ``pool
  size``; ``draws`` this turn; ``phase`` (one-hot: starter_draw, opening, play, over);
  ``bank`` (rules with a bank): the counters left in it.

**The information-state tensor** (:class:`InformationStateEncoder`) is what a seat has
seen in the whole hand, with perfect recall (what NFSP, Deep CFR and PSRO learn from): the
observation tensor, then one *slot* per event of the hand as the seat saw it, in order, up
to :func:`events_bound` slots (the rest zero). A slot is ``who`` (one-hot, counted from
the seat), ``action`` (one-hot over :data:`EVENT_KINDS`), ``tile`` (one-hot; zero where
the seat did not see it: another seat's draw), ``cell`` (x and y over the radius, and 1
for an up cell), ``corners`` (the three numbers laid, -1 for the joker's wild corner) and
``points`` (over :data:`POINTS_SCALE`). Two histories the seat can tell apart give two
tensors.

Everything comes from the seat's :class:`~triominos.game.Observation`, so the tensor
shows nothing the seat may not know. The one exception is :class:`GlobalStateEncoder`, the
**global state** for a centralized critic (trained beside the policies, never given to a
seat's policy): the observation tensor of the seat to move, then every rack (``T`` each,
counted from that seat) and the tiles in the pool (``T``). The encoders use the standard
library only; the adapters of :mod:`triominos.rl` view the same numbers as NumPy arrays.
"""

from __future__ import annotations

from array import array
from typing import Protocol, get_args

from triominos import native
from triominos.board import Board, FrozenBoard, Placement
from triominos.game import (
    Action,
    Draw,
    Hand,
    Observation,
    Pass,
    Phase,
    StarterDraw,
    TakeJoker,
    fit_forbids_draw,
    may_draw,
    observe,
)
from triominos.lattice import Cell, Vertex, cell_id
from triominos.rules import Rules
from triominos.tiles import WILD, Corners, Joker

RADIUS = 24
"""The window's half side, in vertices: 18 at most in measured hands, and a margin."""

ROTATIONS = 3
"""Action ids each tile has on each cell: the most rotations a tile has."""

POINTS_SCALE = 100.0
"""What the tensor divides points by, so that scores are numbers near 1."""

DRAW, PASS, STARTER_DRAW = 0, 1, 2
_PLACEMENTS = 3
PHASES: tuple[Phase, ...] = get_args(Phase)

EVENT_KINDS = ("place", "take_joker", "draw", "buy", "pass", "starter_draw", "resign")
"""Every ``Event.action`` a hand records: the information-state tensor's one-hot."""


def events_bound(rules: Rules, players: int) -> int:
    """More events than a hand can have: a placement and a take-joker per tile, a draw
    per tile, a pass per seat for each tile laid and once more, a starter draw per seat
    and tile (a tie repeats the round: no more rounds than tiles, in practice), a resign."""
    box = len(rules.box)
    return 2 * box + box + players * (box + 1) + players * box + 1


def points_bound(rules: Rules, players: int) -> int:
    """More than any seat's points in a hand could reach, either way: the bounds of the
    tensor's points and of the adapters' rewards (a margin lies within twice it).

    Gains: every tile's value twice (laid, then collected), the largest bonus on every
    tile, the opening and going-out bonuses. Losses: a penalty on every draw, a failed
    draw's penalty on every pass (each seat passes at most once a tile laid, and once
    more), the value of every tile left in racks.
    """
    box, values = len(rules.box), sum(rules.tiles.values)
    gains = (
        2 * values
        + box * (max(rules.figure_points) + rules.last_tile_bonus)
        + rules.opening_triple_bonus
        + rules.opening_zero_bonus
        + rules.going_out_bonus
    )
    passing = max(rules.failed_draw_penalty, rules.empty_pool_pass_penalty)
    losses = box * rules.draw_penalty + players * (box + 1) * passing + values
    return gains + losses


def hands_bound(rules: Rules) -> int:
    """The most hands a match of ``rules`` plays: its hand limit, or with a target score
    one hand a point between the starting score and the target, whichever is fewer. The
    target's is a practical bound, as the starter rounds' of :func:`events_bound` is: a
    hand could pay no one a point, but random matches to 400 end within 3 to 5 hands."""
    bounds = []
    if rules.hand_limit is not None:
        bounds.append(rules.hand_limit)
    if rules.target_score is not None:
        bounds.append(max(rules.target_score - rules.starting_score, 1))
    return min(bounds)  # Rules makes sure of a target or a limit


class OutsideWindowError(ValueError):
    """A placement or a board beyond the window of the action space or the tensor."""


def _check_radius(radius: int) -> None:
    """The window must fit the lattice, whose coordinates run from -128 to 127."""
    if not isinstance(radius, int) or isinstance(radius, bool) or not 1 <= radius <= 126:
        raise ValueError(f"radius must be a whole number from 1 to 126, not {radius!r}")


class Numbered(Protocol):
    """What decoding the joker's placement reads: a board, or an observation's."""

    def number_at(self, vertex: Vertex) -> int | None: ...


class ActionSpace:
    """The action ids of one set of rules (see the module docstring for the layout)."""

    def __init__(self, rules: Rules, radius: int = RADIUS) -> None:
        _check_radius(radius)
        self.rules = rules
        self.radius = radius
        self.tile_set = tile_set = rules.tiles
        self.tiles = len(tile_set)
        self.cells = 2 * (2 * radius) ** 2
        self.take_joker_start = _PLACEMENTS + self.cells * self.tiles * ROTATIONS
        has_joker = rules.joker and tile_set.joker is not None
        self.size = self.take_joker_start + (self.tiles * ROTATIONS if has_joker else 0)
        """How many ids there are: every id is ``0 <= id < size``."""
        # For legal_ids, straight from the board's packed placements: the first id of each
        # window cell by packed cell id, and each tile's rotation index by corners.
        self._first_ids = {
            cell_id(x, y, up): _PLACEMENTS + self.cell_index(Cell(x, y, up)) * self.tiles * 3
            for x in range(-radius, radius)
            for y in range(-radius, radius)
            for up in (False, True)
        }
        self._rotations = [
            {corners: r for r, corners in enumerate(rotations)} for rotations in tile_set.rotations
        ]
        if tile_set.joker is not None:
            self._rotations[tile_set.joker] = _JokerRotation()

    def __repr__(self) -> str:
        return f"<ActionSpace {self.tile_set.name}: {self.size} ids, radius {self.radius}>"

    def cell_index(self, cell: Cell) -> int:
        """The window index of ``cell``; OutsideWindowError beyond the window."""
        radius = self.radius
        x, y = cell.x + radius, cell.y + radius
        side = 2 * radius
        if not (0 <= x < side and 0 <= y < side):
            raise self._outside(cell)
        return (x * side + y) * 2 + cell.up

    def _outside(self, cell: Cell) -> OutsideWindowError:
        return OutsideWindowError(
            f"cell {cell.to_json()} is outside the window of radius {self.radius} (cells "
            f"from {-self.radius} to {self.radius - 1}); make the space with a larger radius"
        )

    def encode(self, action: Action, board: Numbered | None = None) -> int:
        """The id of an engine action (``board`` is for the factored space's signature:
        a flat id names its cell itself)."""
        if isinstance(action, Placement):
            tile = self.tile_set.index(action.tile)
            rotation = self.rotation(tile, action.corners)
            return _PLACEMENTS + (self.cell_index(action.cell) * self.tiles + tile) * 3 + rotation
        if isinstance(action, TakeJoker):
            if self.size == self.take_joker_start:
                raise ValueError("these rules have no joker to take back")
            tile = self.tile_set.index(action.tile)
            return self.take_joker_start + tile * ROTATIONS + self.rotation(tile, action.corners)
        if isinstance(action, Draw):
            return DRAW
        if isinstance(action, Pass):
            return PASS
        if isinstance(action, StarterDraw):
            return STARTER_DRAW
        raise TypeError(f"not an action of the engine: {action!r}")

    def rotation(self, tile: int, corners: Corners) -> int:
        """The rotation index ``r`` of the ids (module docstring) of tile index ``tile``
        laid with ``corners``; ValueError for corners that are no rotation of the tile."""
        try:
            return self._rotations[tile][corners]
        except KeyError:
            name = self.tile_set.tiles[tile].name
            raise ValueError(
                f"corners {list(corners)} are not a rotation of {name}: a tile is turned, "
                "never flipped"
            ) from None

    def decode(self, action_id: int, board: Numbered | None = None) -> Action:
        """The engine action of an id.

        Placing the joker needs ``board`` (the observation's): the joker's corners show
        the numbers already at its vertices, which the id does not hold.
        """
        if not isinstance(action_id, int) or not 0 <= action_id < self.size:
            raise ValueError(
                f"an action id is a whole number from 0 to {self.size - 1}, not {action_id!r}"
            )
        if action_id < _PLACEMENTS:
            return (Draw(), Pass(), StarterDraw())[action_id]
        if action_id >= self.take_joker_start:
            tile, rotation = divmod(action_id - self.take_joker_start, ROTATIONS)
            return TakeJoker(self.tile_set.tiles[tile], self._corners(tile, rotation, action_id))
        slot, rotation = divmod(action_id - _PLACEMENTS, ROTATIONS)
        index, tile = divmod(slot, self.tiles)
        vertex, up = divmod(index, 2)
        x, y = divmod(vertex, 2 * self.radius)
        cell = Cell(x - self.radius, y - self.radius, bool(up))
        if tile == self.tile_set.joker:
            if rotation:
                raise ValueError(f"action id {action_id} turns the joker, which has one way")
            if board is None:
                raise ValueError("decoding a placement of the joker needs the board")
            shown = [board.number_at(vertex) for vertex in cell.corners()]
            corners = tuple(WILD if number is None else number for number in shown)
            return Placement(self.tile_set.tiles[tile], cell, corners)  # type: ignore[arg-type]
        return Placement(self.tile_set.tiles[tile], cell, self._corners(tile, rotation, action_id))

    def _corners(self, tile: int, rotation: int, action_id: int) -> tuple[int, int, int]:
        rotations = self.tile_set.rotations[tile]
        if rotation >= len(rotations):
            name = self.tile_set.tiles[tile].name
            raise ValueError(
                f"action id {action_id} names rotation {rotation} of {name}, which has "
                f"{len(rotations)}"
            )
        return rotations[rotation]

    def legal_ids(self, observation: Observation) -> list[int]:
        """The ids of the legal actions of the observing seat (none when it is not its
        turn), in the order of :meth:`Observation.legal_actions`.

        In play, the common case, they come from the board's packed placements without
        making an action object each: :func:`~triominos.game.legal_actions`'s choice
        between drawing and passing, on the same numbers.
        """
        seat, rack = observation.seat, observation.rack
        if observation.phase != "play" or seat != observation.to_move or rack is None:
            return [self.encode(option.action) for option in observation.legal_actions()]
        board, first_ids, rotations = observation.board, self._first_ids, self._rotations
        ids = []
        for cell, tile, corners, _ in board.placement_ids(rack):
            first = first_ids.get(cell)
            if first is None:
                raise self._outside(Cell.from_id(cell))
            ids.append(first + tile * 3 + rotations[tile][corners])
        placed = bool(ids)
        for tile, corners in board.joker_swaps(rack):
            ids.append(self.take_joker_start + tile * 3 + rotations[tile][corners])
        balance = observation.totals[seat]
        forbids = fit_forbids_draw(self.rules, board, rack, observation.drawn)
        if may_draw(self.rules, observation.draws, observation.pool_size, balance, forbids):
            ids.append(DRAW)
        elif not placed:
            ids.append(PASS)
        return ids

    def mask(self, observation: Observation) -> bytearray:
        """``size`` bytes, 1 for each legal action id of the observing seat, else 0."""
        mask = bytearray(self.size)
        for action_id in self.legal_ids(observation):
            mask[action_id] = 1
        return mask


def check_size(out: array[float], size: int) -> None:
    """ValueError unless ``out`` holds a tensor of ``size`` numbers."""
    if len(out) != size:
        raise ValueError(f"the tensor holds {size} numbers, not {len(out)}")


def set_bits(out: array[float], start: int, mask: int) -> None:
    """Set ``out[start + i]`` to 1 for each tile index ``i`` in the bit mask ``mask`` (a
    rack, the pool): how every tensor here lays out a set of tiles."""
    while mask:
        low = mask & -mask
        out[start + low.bit_length() - 1] = 1.0
        mask ^= low


class _JokerRotation(dict[Corners, int]):
    """The joker's one way to lie, whatever corners its cell gives it."""

    def __missing__(self, corners: Corners) -> int:
        return 0


class ObservationEncoder:
    """The observation tensor of one set of rules and number of players (module
    docstring): :meth:`encode` gives ``size`` float32 numbers for a seat's observation."""

    def __init__(self, rules: Rules, players: int, radius: int = RADIUS) -> None:
        rules.check_players(players)
        _check_radius(radius)
        self.rules = rules
        self.players = players
        self.radius = radius
        self.side = side = 2 * radius + 1
        tile_set = rules.tiles
        tiles = len(tile_set)
        self.plane_names: tuple[str, ...] = (
            *(f"number {number}" for number in range(tile_set.symbols)),
            "up tile",
            "down tile",
            "up open",
            "down open",
            *(("up joker", "down joker") if tile_set.joker is not None else ()),
        )
        self.board_shape = (len(self.plane_names), side, side)
        features: list[tuple[str, int]] = [("rack", tiles), ("table", tiles), ("unseen", tiles)]
        if rules.open_racks:
            features.append(("open racks", (players - 1) * tiles))
        features += [
            ("totals", players),
            ("hand points", players),
            ("rack sizes", players),
            ("to move", players),
            ("pool size", 1),
            ("draws", 1),
            ("phase", len(PHASES)),
        ]
        if rules.bank is not None:
            features.append(("bank", 1))
        offset = len(self.plane_names) * side * side
        self.features: dict[str, slice] = {}
        """Each feature's slice of the tensor, by name, in order."""
        for name, length in features:
            self.features[name] = slice(offset, offset + length)
            offset += length
        self.size = offset
        self._zeros = bytes(4 * offset)
        self._blank = array("f", self._zeros)  # what encode_into starts from
        self._plane = {name: i * side * side for i, name in enumerate(self.plane_names)}
        self._numbers = [self._plane[f"number {n}"] for n in range(tile_set.symbols)]

    def __repr__(self) -> str:
        return (
            f"<ObservationEncoder {self.rules.tiles.name}, {self.players} players: "
            f"{self.size} numbers, planes {self.board_shape}>"
        )

    def bounds(self, hands: int = 1) -> tuple[array[float], array[float]]:
        """The least and the most each number of the tensor can be in the observations of
        ``hands`` hands (:func:`hands_bound` for a whole match): 0 and 1 but for the
        points, the counts and the bank."""
        low, high = array("f", self._zeros), array("f", [1.0]) * self.size
        hand = points_bound(self.rules, self.players)
        totals = hands * hand + abs(self.rules.starting_score)
        points = hand + abs(self.rules.starting_score)
        box = len(self.rules.box)
        ranges = {
            "totals": (-totals / POINTS_SCALE, totals / POINTS_SCALE),
            "hand points": (-points / POINTS_SCALE, points / POINTS_SCALE),
            "rack sizes": (0, box),
            "pool size": (0, box),
            "draws": (0, box),
            "bank": (0, self.rules.bank or 0),
        }
        for name, (least, most) in ranges.items():
            if name in self.features:
                where = self.features[name]
                low[where] = array("f", [least]) * (where.stop - where.start)
                high[where] = array("f", [most]) * (where.stop - where.start)
        return low, high

    def _cell(self, cell: Cell) -> int:
        """The flat index of a cell's lower-left vertex in a plane, after checking that
        the whole cell (its corners reach one vertex further) is in the window."""
        x, y, last = cell.x + self.radius, cell.y + self.radius, self.side - 1
        if not (0 <= x < last and 0 <= y < last):
            raise OutsideWindowError(
                f"the board reaches cell {cell.to_json()}, outside the window of radius "
                f"{self.radius}"
            )
        return x * self.side + y

    def encode(self, observation: Observation) -> array[float]:
        """The tensor of a seat's observation, as an ``array('f')`` of ``size`` numbers."""
        self._check(observation)
        out = self._new_tensor()
        self._lay(out, observation)
        return out

    def _new_tensor(self) -> array[float]:
        """``size`` zeros, the tensor to lay an observation into. The native core takes
        this method's place: a new array is most of what a native encoding costs."""
        return array("f", self._zeros)

    def encode_into(self, out: array[float], observation: Observation) -> None:
        """:meth:`encode` into ``out``, an ``array('f')`` of ``size`` numbers, every one of
        them overwritten: an observer that keeps its tensor (OpenSpiel's, a NumPy view of
        ``out``) fills it without a new array and a copy at each observation."""
        self._check(observation)
        check_size(out, self.size)
        out[:] = self._blank
        self._lay(out, observation)

    def _check(self, observation: Observation) -> None:
        if observation.seat is None or observation.rack is None:
            raise ValueError("the tensor is a seat's: a spectator's observation has no rack")
        rules = observation.rules
        if (rules is not self.rules and rules != self.rules) or observation.players != self.players:
            raise ValueError(
                "the observation is of other rules or another number of players than the encoder's"
            )

    def _lay(self, out: array[float], observation: Observation) -> None:
        """Lay the tensor of a checked observation into ``out``, all zeros."""
        on_table = self._planes(out, observation.board)
        self._features(out, observation, on_table)

    def _features(self, out: array[float], observation: Observation, on_table: int) -> None:
        """Lay the features after the planes into ``out`` (module docstring), given the
        mask of the tiles on the table. The native core takes this method's place."""
        features, players, seat = self.features, self.players, observation.seat
        assert seat is not None and observation.rack is not None  # encode checked
        seen = on_table | observation.rack
        self._bits(out, features["rack"].start, observation.rack)
        self._bits(out, features["table"].start, on_table)
        if observation.open_racks is not None and "open racks" in features:
            start = features["open racks"].start
            for i in range(1, players):
                rack = observation.open_racks[(seat + i) % players]
                seen |= rack
                self._bits(out, start + (i - 1) * len(self.rules.tiles), rack)
        self._bits(out, features["unseen"].start, self.rules.box_mask & ~seen)
        for i in range(players):
            other = (seat + i) % players
            out[features["totals"].start + i] = observation.totals[other] / POINTS_SCALE
            out[features["hand points"].start + i] = observation.hand_points[other] / POINTS_SCALE
            out[features["rack sizes"].start + i] = observation.rack_sizes[other]
        out[features["to move"].start + (observation.to_move - seat) % players] = 1.0
        out[features["pool size"].start] = observation.pool_size
        out[features["draws"].start] = observation.draws
        out[features["phase"].start + PHASES.index(observation.phase)] = 1.0
        bank = observation.bank
        if bank is not None:
            out[features["bank"].start] = bank

    def _planes(self, out: array[float], board: Board | FrozenBoard) -> int:
        """Lay the board's planes into ``out``; the mask of the tiles on the table.

        The native core (:mod:`triominos.native`) takes this method's place and hands a
        board outside the window back to it, for its error.
        """
        plane, side, numbers = self._plane, self.side, self._numbers
        # A cell's corners from its lower-left vertex v: up (v, v + 1, v + side), down
        # (v + 1, v + side + 1, v + side), clockwise from the leftmost as in the lattice.
        up_corners, down_corners = (0, 1, side), (1, side + 1, side)
        position = board.tile_set.position
        on_table = 0
        for placement in board:
            cell = placement.cell
            at = self._cell(cell)
            on_table |= 1 << position[placement.tile]
            out[plane["up tile" if cell.up else "down tile"] + at] = 1.0
            for offset, number in zip(
                up_corners if cell.up else down_corners, placement.corners, strict=True
            ):
                if number != WILD:
                    out[numbers[number] + at + offset] = 1.0
            if isinstance(placement.tile, Joker):
                out[plane["up joker" if cell.up else "down joker"] + at] = 1.0
        for cell in board.open_cells():
            out[plane["up open" if cell.up else "down open"] + self._cell(cell)] = 1.0
        return on_table

    _bits = staticmethod(set_bits)
    """:func:`set_bits` as a method: the seam where the native core lays tile masks."""


class InformationStateEncoder:
    """The perfect-recall information-state tensor of one set of rules and number of
    players (module docstring): :meth:`encode` gives ``size`` float32 numbers."""

    def __init__(self, rules: Rules, players: int, radius: int = RADIUS) -> None:
        self.observation = ObservationEncoder(rules, players, radius)
        self.rules = rules
        self.players = players
        self.radius = radius
        self.slots = events_bound(rules, players)
        tiles = len(rules.tiles)
        parts = (("who", players), ("action", len(EVENT_KINDS)), ("tile", tiles))
        self.slot: dict[str, slice] = {}
        """Each part's slice of a slot, by name, in order."""
        offset = 0
        for name, length in (*parts, ("cell", 3), ("corners", 3), ("points", 1)):
            self.slot[name] = slice(offset, offset + length)
            offset += length
        self.slot_size = offset
        self.history_start = self.observation.size
        self.size = self.history_start + self.slots * self.slot_size
        self._zeros = bytes(4 * self.slots * self.slot_size)

    def __repr__(self) -> str:
        return (
            f"<InformationStateEncoder {self.rules.tiles.name}, {self.players} players: "
            f"{self.size} numbers, {self.slots} slots of {self.slot_size}>"
        )

    def encode_into(self, out: array[float], observation: Observation) -> None:
        """:meth:`encode` into ``out``, as :meth:`ObservationEncoder.encode_into`."""
        check_size(out, self.size)
        out[:] = self.encode(observation)

    def encode(self, observation: Observation) -> array[float]:
        """The tensor of everything a seat saw in the hand, as an ``array('f')``."""
        out = self.observation.encode(observation)  # checks the seat, rules and players
        assert observation.seat is not None  # encode refuses a spectator's
        history = observation.history
        if len(history) > self.slots:
            raise ValueError(f"{len(history)} events, more than the {self.slots} slots")
        slots = array("f", self._zeros)
        position = self.rules.tiles.position
        part, size, players = self.slot, self.slot_size, self.players
        who, action, tile = part["who"].start, part["action"].start, part["tile"].start
        cell_at, corners_at, points_at = (
            part["cell"].start,
            part["corners"].start,
            part["points"].start,
        )
        for number, event in enumerate(history):
            at = number * size
            slots[at + who + (event.player - observation.seat) % players] = 1.0
            slots[at + action + EVENT_KINDS.index(event.action)] = 1.0
            if event.tile is not None:
                slots[at + tile + position[event.tile]] = 1.0
            if event.cell is not None:
                slots[at + cell_at] = event.cell.x / self.radius
                slots[at + cell_at + 1] = event.cell.y / self.radius
                slots[at + cell_at + 2] = float(event.cell.up)
            if event.corners is not None:
                for offset, corner in enumerate(event.corners):
                    slots[at + corners_at + offset] = float(corner)
            slots[at + points_at] = event.points / POINTS_SCALE
        out.extend(slots)
        return out


class GlobalStateEncoder:
    """The whole state of a hand as numbers, hidden tiles included (module docstring):
    for a centralized critic, never for a seat's policy."""

    def __init__(self, rules: Rules, players: int, radius: int = RADIUS) -> None:
        self.observation = ObservationEncoder(rules, players, radius)
        self.rules = rules
        self.players = players
        tiles = len(rules.tiles)
        start = self.observation.size
        self.features = {
            "racks": slice(start, start + players * tiles),
            "pool": slice(start + players * tiles, start + (players + 1) * tiles),
        }
        self.size = start + (players + 1) * tiles

    def __repr__(self) -> str:
        return f"<GlobalStateEncoder {self.rules.tiles.name}, {self.players} players: {self.size}>"

    def encode(self, hand: Hand) -> array[float]:
        """The tensor of ``hand`` as it truly is, as an ``array('f')`` of ``size`` numbers."""
        seat = hand.to_move
        out = self.observation.encode(observe(hand, seat))
        tiles = len(self.rules.tiles)
        hidden = array("f", bytes(4 * (self.players + 1) * tiles))
        for i in range(self.players):
            set_bits(hidden, i * tiles, hand.racks[(seat + i) % self.players])
        for tile in hand.undrawn():
            hidden[self.players * tiles + tile] = 1.0
        out.extend(hidden)
        return out


PYTHON_ENCODING_PATHS: dict[str, object] = {
    name: ObservationEncoder.__dict__[name] for name in native.ENCODING_PATHS
}
"""ObservationEncoder's own methods for the paths the native core replaces: the reference
it is compared with (tests/test_native_encoding.py), kept whichever core is in use."""
_NATIVE = native.load_encoding()
if _NATIVE is not None:
    for _name in native.ENCODING_PATHS:
        setattr(ObservationEncoder, _name, getattr(_NATIVE, _name))
