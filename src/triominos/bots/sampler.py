"""Hidden worlds consistent with what a seat has seen: the opponents' racks and the pool.

A bot that searches needs to guess what it cannot see. A *world* is one such guess: a
rack for every opponent, of the exact size the table shows, and the pool in a random
draw order, made of the *unseen* tiles (the tiles in play less the tiles on the table and
the seat's own rack). :class:`WorldSampler` makes worlds that agree with everything in
the seat's observation, the way Macondo infers Scrabble racks from the moves made:

- **a pass proves** that the player held no tile that fitted the board at that moment
  (a player who can place may not pass; RULES.md 5.4). This is a *hard* constraint.
  In Triominos Junior a player passes only when buying is impossible too (an empty
  pool, no counter left), and a card that could take the joker back does not forbid
  passing, so a pass proves exactly the same there: no card fitted, the joker (which fits
  any open cell) included.
- **a draw suggests** the same: most players draw because nothing fits, but the rules
  let a player draw on purpose. This is a *soft* constraint, weighted as Bayes says: a
  player who held a fitting tile draws with probability :data:`VOLUNTARY_DRAW`, one who
  held none draws for sure. A Junior ``buy`` is a draw paid in counters, and the whole
  turn (``draw_ends_turn``): it suggests the same.
- **a placement suggests**, when the sampler is told to read placements
  (``placements=True``; ``sim`` does, ``sim-v1`` does not): that the player held no
  tile that would have scored :data:`MISSED_POINTS` more than the one it laid (a bonus
  figure passed up for a plain tile). Players and bots lay a lower tile on purpose, to
  keep a good one or leave nothing to the next player, but rarely throw away a bonus:
  a soft constraint, a player holding such a tile laying another with probability
  :data:`PASSED_UP`. The opening and the joker's card tell nothing here.
- **the joker taken back** (``take_joker``, Junior) is in the taker's rack, for all to
  see, until it is laid again: every world deals it there.
- **the opening** (``opening="highest_triple"``): the opener held the highest triple
  dealt, so nobody was dealt a higher one; with no triple dealt, nobody held a triple or
  a tile above the opening tile. **Starter draws** (``opening="starter_draw"``) show
  tiles that were in the pool at the deal. Both are hard constraints on the racks as
  dealt.

Every constraint says: at moment *t*, seat *s* held no tile of a set *M*. What the seat
holds now or placed since *t* came either from its rack at *t* or from its own draws
(and joker taken back) since *t*, so at most ``draws since t`` tiles of *M* (one more
for the joker taken back, when *M* holds it) can be in its rack now and among its
placements since *t* together. The placements are public, which leaves a bound on
the rack now: the constraint's ``allowance`` (0 for a pass with no draw after it).

Dealing: for each world, each soft constraint is switched on with its posterior
probability ``p / (p + VOLUNTARY_DRAW * (1 - p))``, where ``p`` is the chance that a
rack dealt at random keeps the allowance (hypergeometric); this is exact for one
constraint and treats several as independent, and it needs no rejection loop however
unlikely the forced draw was a priori. Then opponents are served most constrained
first, each taking, from a shuffled list of the unseen tiles, the first ones that keep
its constraints' allowances; the tiles left over are the pool in their shuffled order.
With one opponent and allowances of 0 this is exactly uniform over the worlds that
respect the constraints; otherwise it is close to uniform (it slightly favours racks
that use their allowances up). If the dealing gets stuck (constraints that leave too
few tiles in this dealing order) it is tried again, without the soft constraints after
half of :data:`MAX_ATTEMPTS`; the hard ones are never dropped in a position a legal game
can reach.

Where the worlds are few (a small pool, or an empty one with three players or more)
:meth:`WorldSampler.worlds` lists every one of them instead, pool orders included, each
with its weight: the product, over the soft constraints it breaks, of how likely a
player breaks it (:data:`VOLUNTARY_DRAW`, :data:`PASSED_UP`), and none that breaks a
hard one. That is the posterior itself, with no sampling noise.

The sampler reads nothing but the observation (the board, the seat's rack, the rack
sizes, the pool size and the history as the seat saw it; in Junior, the first card laid
from the pool is read off the board's origin), so it cannot leak what the seat may not
know.
"""

from __future__ import annotations

import itertools
import math
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Literal, NamedTuple

from triominos import native
from triominos.board import Board
from triominos.game import ACTION_NAMES, DRAWS, Observation
from triominos.lattice import ORIGIN
from triominos.rules import Rules
from triominos.tiles import indices

VOLUNTARY_DRAW = 0.1
"""How likely a player who holds a fitting tile draws anyway.

The rules allow drawing on purpose, but players (and every bot here but ``expert`` in
rare positions) draw because nothing fits: 0.1 makes a world in which a draw was
voluntary ten times less likely than one in which it was forced, without ruling it out.
"""

MISSED_POINTS = 20
"""How many more points than the tile laid another must have been worth for its holder
to have laid it instead: no gap between plain tiles (0 to 15 points) is so wide, so only
the bonus figures (40 and up) pass it."""

PASSED_UP = 0.1
"""How likely a player who holds a tile worth :data:`MISSED_POINTS` more than the one it
lays lays the lesser one anyway."""

MAX_ATTEMPTS = 32
"""Deals tried for one world before the soft constraints, then all, are let go."""

KNOWN_ACTIONS = frozenset(ACTION_NAMES) - {"resign"}
"""The history's actions the sampler understands; others make it unsupported."""

Reason = Literal["pass", "draw", "placement", "opening", "starter_draw"]

_UNLIKELY: dict[Reason, float] = {"draw": VOLUNTARY_DRAW, "placement": PASSED_UP}
"""By soft reason, how likely a player breaks it: the Bayes weight of a world that does."""


class UnsupportedObservationError(ValueError):
    """An observation the sampler cannot reason about: an action in its history that the
    sampler does not model (every action of the engine today is modelled)."""


@dataclass(frozen=True, slots=True)
class RackConstraint:
    """At some moment ``seat`` held no tile of ``tiles``; so now it holds at most
    ``allowance`` of them (tiles it drew since). ``hard``: proved, not just likely."""

    seat: int
    tiles: int
    allowance: int
    hard: bool
    reason: Reason

    def excess(self, rack: int) -> int:
        """How many more tiles of the constraint ``rack`` holds than it could."""
        return max(0, (rack & self.tiles).bit_count() - self.allowance)


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden part of a hand.

    ``racks`` are bitmasks by seat (the observing seat's is its real rack), ``pool`` the
    tile indices of the pool, next draw first; ``surprise`` counts the draws this world
    says were made on purpose by a player who could have placed.
    """

    racks: tuple[int, ...]
    pool: tuple[int, ...]
    surprise: int = 0


class WorldSampler:
    """Samples worlds for the seat of an observation (see the module docstring)."""

    def __init__(self, observation: Observation, *, placements: bool = False) -> None:
        """``placements``: also read what the others' placements suggest (see the
        module docstring)."""
        if observation.seat is None or observation.rack is None:
            raise ValueError("worlds are sampled for a seat, not for a spectator")
        self.observation = observation
        self.seat = observation.seat
        self.players = observation.players
        tile_set = observation.board.tile_set
        self.tile_set = tile_set
        self.board, self.constraints, self.known = _replay(observation, placements)
        on_table = tile_set.mask(placement.tile for placement in self.board)
        # The tiles in play (Junior without its joker leaves one of the set out) that the
        # seat does not see.
        self.unseen = observation.rules.box_mask & ~on_table & ~observation.rack
        known = reduce(operator.or_, self.known, 0)
        self.opponents = [seat for seat in range(self.players) if seat != self.seat]
        sizes = observation.rack_sizes
        wanted = sum(sizes[seat] for seat in self.opponents) + observation.pool_size
        if self.unseen.bit_count() != wanted:
            raise ValueError(
                f"the observation does not add up: {self.unseen.bit_count()} unseen tiles "
                f"for {wanted} in the other racks and the pool"
            )
        self._hard = [c for c in self.constraints if c.hard and c.tiles & self.unseen]
        self._soft: list[tuple[RackConstraint, float]] = []
        forbidden = dict.fromkeys(self.opponents, 0)
        for constraint in self._hard:
            if constraint.allowance <= 0:
                forbidden[constraint.seat] |= constraint.tiles
        for constraint in self.constraints:
            if constraint.hard or not constraint.tiles & self.unseen:
                continue
            # The chance that the rest of the rack, dealt at random from what the seat may
            # hold, keeps the allowance that the tiles it is known to hold leave.
            held = self.known[constraint.seat]
            allowed = self.unseen & ~known & ~forbidden[constraint.seat]
            kept = _chance_within(
                allowed.bit_count(),
                (constraint.tiles & allowed).bit_count(),
                sizes[constraint.seat] - held.bit_count(),
                constraint.allowance - (held & constraint.tiles).bit_count(),
            )
            unlikely = _UNLIKELY[constraint.reason]
            believed = kept / (kept + unlikely * (1 - kept)) if kept else 0.0
            self._soft.append((constraint, believed))
        # The most constrained opponents choose first, so they are not left with only
        # the tiles they may not hold.
        self._order = sorted(
            self.opponents,
            key=lambda seat: ((self.unseen & ~forbidden[seat]).bit_count(), seat),
        )
        # The tiles dealt at random: the unseen ones no seat is known to hold.
        self._unseen_tiles = [
            index for index in range(len(tile_set)) if (self.unseen & ~known) >> index & 1
        ]
        native_sampler = native.sampler_for(observation)
        # The same worlds from the same random stream, in C where the native core has it.
        self.native = None if native_sampler is None else native_sampler(self)
        """The same sampler in C (``_board.Sampler``), or None: what sim's native
        playouts draw their worlds from."""

    def sample(self, rng: random.Random) -> World:
        """A world consistent with the observation, drawn with ``rng`` (deterministic)."""
        if self.native is not None and type(rng) is random.Random:
            return self.native.sample(rng)  # type: ignore[no-any-return]
        for attempt in range(MAX_ATTEMPTS):
            active = list(self._hard)
            if attempt < MAX_ATTEMPTS // 2:
                active += [c for c, believed in self._soft if rng.random() < believed]
            world = self._deal(rng, active)
            if world is not None:
                return world
        world = self._deal(rng, [])
        assert world is not None  # without constraints every dealing succeeds
        return world

    def count(self) -> int:
        """How many worlds :meth:`worlds` would go through: the ways to deal the unseen
        tiles no seat is known to hold into the racks and the pool, in the pool's order."""
        if self.observation.open_racks is not None:
            return math.factorial(self.observation.pool_size)
        ways = math.factorial(len(self._unseen_tiles))
        for seat in self.opponents:
            ways //= math.factorial(self._wanted(seat))
        return ways

    def worlds(self, cap: int) -> list[tuple[World, float]] | None:
        """Every world consistent with the observation and its weight (see the module
        docstring), or None when there are more than ``cap`` to go through."""
        if self.count() > cap:
            return None
        observation = self.observation
        found: list[tuple[World, float]] = []
        if observation.open_racks is not None:  # only the pool's order is hidden
            racks = observation.open_racks
            shown = reduce(operator.or_, racks, 0)
            pool = [tile for tile in self._unseen_tiles if not shown >> tile & 1]
            return [(World(racks, order), 1.0) for order in itertools.permutations(pool)]
        dealt = [0] * self.players
        dealt[self.seat] = observation.rack or 0

        def deal(turn: int, left: tuple[int, ...]) -> None:
            if turn == len(self.opponents):
                racks = tuple(dealt)
                weight = self.likelihood(racks)
                if weight:
                    surprise = self.surprise(racks) or 0
                    found.extend(
                        (World(racks, pool, surprise), weight)
                        for pool in itertools.permutations(left)
                    )
                return
            seat = self.opponents[turn]
            for chosen in itertools.combinations(left, self._wanted(seat)):
                dealt[seat] = self.known[seat] | sum(1 << tile for tile in chosen)
                deal(turn + 1, tuple(tile for tile in left if tile not in chosen))

        deal(0, tuple(self._unseen_tiles))
        return found

    def likelihood(self, racks: Sequence[int]) -> float:
        """How likely the players' moves were had they held ``racks``, relative to racks
        that break no constraint: 0 when one breaks a hard constraint."""
        weight = 1.0
        for constraint in self.constraints:
            if constraint.excess(racks[constraint.seat]):
                if constraint.hard:
                    return 0.0
                weight *= _UNLIKELY[constraint.reason]
        return weight

    def _wanted(self, seat: int) -> int:
        """The tiles of ``seat``'s rack no seat is known to hold."""
        return self.observation.rack_sizes[seat] - self.known[seat].bit_count()

    def surprise(self, racks: Sequence[int]) -> int | None:
        """The world's count of voluntary draws, or None when it breaks a hard constraint."""
        surprise = 0
        for constraint in self.constraints:
            excess = constraint.excess(racks[constraint.seat])
            if excess and constraint.hard:
                return None
            surprise += 1 if excess else 0
        return surprise

    def _deal(self, rng: random.Random, constraints: list[RackConstraint]) -> World | None:
        """Deal the shuffled unseen tiles, each opponent skipping what it may not hold."""
        tiles = self._unseen_tiles[:]
        rng.shuffle(tiles)
        open_racks = self.observation.open_racks
        if open_racks is not None:  # every rack is shown: only the pool's order is hidden
            shown = 0
            for rack in open_racks:
                shown |= rack
            return World(open_racks, tuple(tile for tile in tiles if not shown >> tile & 1))
        racks = [0] * self.players
        racks[self.seat] = self.observation.rack or 0
        sizes = self.observation.rack_sizes
        for seat in self._order:
            forbidden = 0
            limits: list[list[int]] = []  # [tiles, room left]
            for constraint in constraints:
                if constraint.seat != seat:
                    continue
                if constraint.allowance <= 0:
                    forbidden |= constraint.tiles
                else:
                    limits.append([constraint.tiles, constraint.allowance])
            rack = self.known[seat]
            for tile in indices(rack):  # known tiles use up their room first
                _room(limits, tile)
            wanted = sizes[seat] - rack.bit_count()
            left = []
            for tile in tiles:
                if not wanted or forbidden >> tile & 1 or not _room(limits, tile):
                    left.append(tile)
                    continue
                rack |= 1 << tile
                wanted -= 1
            if wanted:
                return None
            racks[seat] = rack
            tiles = left
        surprise = sum(1 for c in self.constraints if not c.hard and c.excess(racks[c.seat]))
        return World(tuple(racks), tuple(tiles), surprise)


def _room(limits: list[list[int]], tile: int) -> bool:
    """Whether ``tile`` fits within every limit it falls under; if so, take it from them."""
    bit = 1 << tile
    touched = [limit for limit in limits if limit[0] & bit]
    if any(limit[1] <= 0 for limit in touched):
        return False
    for limit in touched:
        limit[1] -= 1
    return True


def _chance_within(unseen: int, marked: int, rack: int, allowance: int) -> float:
    """The chance that ``rack`` tiles dealt from ``unseen`` hold at most ``allowance``
    of the ``marked`` ones (hypergeometric)."""
    if rack > unseen:
        return 0.0
    total = math.comb(unseen, rack)
    kept = sum(
        math.comb(marked, k) * math.comb(unseen - marked, rack - k)
        for k in range(min(allowance, marked, rack) + 1)
    )
    return kept / total


class _Replay(NamedTuple):
    """What :func:`_replay` reads from a seat's history."""

    board: Board
    """The rebuilt board: equal to the observation's, and the caller's to change."""
    constraints: list[RackConstraint]
    """What the other seats' racks cannot hold."""
    known: list[int]
    """By seat, the tiles another seat is known to hold: the joker it took back."""


def _replay(observation: Observation, placements: bool = False) -> _Replay:
    """Rebuild the board event by event, noting what each draw, pass and opening tells
    (and each placement, with ``placements``).

    A tile enters a rack by a draw (a ``buy`` in Junior: the same, paid in counters) or,
    for the joker only, by ``take_joker``, which everyone sees; the card laid in its place
    leaves the rack as a placement does. The first card of ``opening="pool_card"`` came
    from the pool and is nobody's: the rebuilt board starts with it and it tells nothing.
    """
    seat, players, rules = observation.seat, observation.players, observation.rules
    tile_set = observation.board.tile_set
    full = rules.box_mask  # every tile in play
    joker = 0 if tile_set.joker is None else 1 << tile_set.joker
    board = Board(tile_set)
    first = observation.board.tile_at(ORIGIN) if rules.opening == "pool_card" else None
    if first is not None:
        board.push_unchecked(ORIGIN.id, tile_set.index(first.tile), first.corners)
    history = observation.history
    # (seat, event number, tiles, hard, reason): a moment a seat is known (or likely) to
    # have held none of the tiles; allowances are worked out once the history is read.
    moments: list[tuple[int, int, int, bool, Reason]] = []
    # By seat, (event number, tiles it may be): each tile that entered the rack.
    gained_at: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    placed_at: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    known = [0] * players
    on_board = 0 if first is None else 1 << tile_set.index(first.tile)
    shown = 0
    opening: tuple[int, int] | None = None  # (opener, tile index)
    turn_draw: tuple[int, int, int] | None = None  # last draw of the running turn
    for number, event in enumerate(history):
        action, player = event.action, event.player
        if action not in KNOWN_ACTIONS:
            raise UnsupportedObservationError(f"unknown action {action!r} in the history")
        if turn_draw is not None and turn_draw[0] != player:  # the drawer's turn ended
            moments.append((*turn_draw, False, "draw"))
            turn_draw = None
        if action == "starter_draw":
            if event.tile is not None:
                shown |= 1 << tile_set.index(event.tile)
            continue
        if action in DRAWS:
            gained_at[player].append((number, full))
            if turn_draw is None:
                turn_draw = (player, number, board.fitting_tiles(full) if len(board) else 0)
            else:
                turn_draw = (player, number, turn_draw[2])
            if rules.draw_ends_turn:
                moments.append((*turn_draw, False, "draw"))
                turn_draw = None
            continue
        if action == "pass":
            # The pass proves more than the turn's draws suggested. A card that could take
            # the joker back does not forbid passing (RULES.md 5.4): it proves nothing there.
            moments.append((player, number, board.fitting_tiles(full), True, "pass"))
            turn_draw = None
            continue
        # A placement or a joker taken back: the turn's draws (if any) were made at the
        # last draw's moment.
        if turn_draw is not None:
            moments.append((*turn_draw, False, "draw"))
            turn_draw = None
        assert event.tile is not None and event.cell is not None and event.corners is not None
        index = tile_set.index(event.tile)
        placed_at[player].append((number, index))
        if action == "take_joker":
            board.swap_joker(index, event.corners)
            gained_at[player].append((number, joker))
            if player != seat:
                known[player] |= joker
            continue
        if opening is None:
            opening = (player, index)
        elif placements and player != seat:
            passed_up = _passed_up(board, rules, full & ~on_board, event.cell.id, index)
            moments.append((player, number, passed_up, False, "placement"))
        on_board |= 1 << index
        known[player] &= ~(1 << index)
        board.push_unchecked(event.cell.id, index, event.corners)
    if turn_draw is not None and turn_draw[0] != observation.to_move:
        # (When the seat to move is the one drawing, nothing is known yet.)
        moments.append((*turn_draw, False, "draw"))
    if shown:
        moments.extend((other, -1, shown, True, "starter_draw") for other in range(players))
    if opening is not None and rules.opening == "highest_triple":
        above = _above_opening(tile_set.triples, opening[1], full)
        if above:
            moments.extend((other, -1, above, True, "opening") for other in range(players))
    constraints = []
    for player, moment, tiles, hard, reason in moments:
        if player == seat or not tiles:
            continue
        # The draw at the moment itself counts: the moment is just before it.
        gained = sum(
            1 for number, may_be in gained_at[player] if number >= moment and may_be & tiles
        )
        placed = sum(
            1 for number, index in placed_at[player] if number > moment and tiles >> index & 1
        )
        allowance = gained - placed
        if allowance < 0:
            # Only a voluntary draw explains this (a tile held at the draw that fitted
            # then was placed later): this player draws on purpose, so the draw says
            # nothing. A hard constraint cannot be broken by legal play.
            if not hard:
                continue
            allowance = 0
        constraints.append(RackConstraint(player, tiles, allowance, hard, reason))
    return _Replay(board, constraints, known)


def _passed_up(board: Board, rules: Rules, unplaced: int, cell: int, laid: int) -> int:
    """The tiles of ``unplaced`` that would have scored :data:`MISSED_POINTS` more than
    ``laid`` scores in ``cell`` (the board as it was before)."""
    values, figures = rules.tile_values, rules.figure_points
    best: dict[int, int] = {}
    scored = 0
    for where, tile, _, figure in board.placement_ids(unplaced):
        points = values[tile] + figures[figure]
        if points > best.get(tile, -1):
            best[tile] = points
        if where == cell and tile == laid:
            scored = points
    bar = scored + MISSED_POINTS
    passed = (1 << tile for tile, points in best.items() if points >= bar and tile != laid)
    return reduce(operator.or_, passed, 0)


def _above_opening(triples: int, tile: int, full: int) -> int:
    """The tiles nobody was dealt, given the opening tile of ``highest_triple``.

    Opening with a triple other than 0-0-0: nobody held a higher triple. Opening with a
    tile that is no triple: no triple was dealt, and no tile above it (tile indices
    ascend in the order that breaks ties). Opening with 0-0-0 says little (the opener
    may hold a higher triple too), so nothing is inferred.
    """
    higher = full & ~((1 << (tile + 1)) - 1)
    if triples >> tile & 1:
        return 0 if tile == 0 else triples & higher
    return triples | higher
