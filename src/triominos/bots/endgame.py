"""The exact endgame: two players and an empty pool, where nothing is hidden.

Once the pool is empty the tiles a seat does not see are all in the other rack, so the
rest of the hand is a game of perfect information, and small enough near its end to be
searched to the last move. :func:`solve` does that with negamax, alpha-beta pruning and
a transposition table, on the objective of the sim bot's playouts
(:func:`~triominos.bots.outcome.outcome`: the points difference of the hand from here,
settlement included, plus the match won or lost when the hand can end it), so the solved
move is the one a simulation would pick if it could see every rack and play on
perfectly.

Every move is the engine's own (:meth:`Hand.resume` from the node, one action applied,
the board popped back after the subtree), so the rules of scoring, passing, blocking and
going out are never written twice. A position is keyed by the moves made since the root
(as a set: two orders that reach the same board meet in the table), the racks, the
seat to move, the seats out, and the totals only when the match is at stake in this hand
(far from the target the rest of the hand is worth the same whatever was scored so far).

The search stops after ``node_limit`` positions and gives up (None): the sim bot then
simulates as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from triominos.board import Board
from triominos.bots.outcome import outcome
from triominos.game import Action, Hand, Observation, legal_actions

NODE_LIMIT = 1000
"""Positions the sim bot lets one endgame search visit before it simulates instead.

Measured (``benchmarks/endgame.py``, a shared 2-core machine): 7,000 to 10,000 nodes
a second, so a search given up costs 0.1 to 0.15 s, a few 600-simulation moves; 1,000
nodes solve 98% of the first empty-pool positions of 60 greedy hands (250: 93%), most
in under a millisecond."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


class Solution(NamedTuple):
    """The best action of the seat to move and what it is worth (see :func:`solve`)."""

    action: Action
    value: float
    nodes: int
    """Positions visited."""


def solvable(observation: Observation) -> bool:
    """Whether nothing is hidden from the seat to move: two players, the pool empty, and
    rules without counters to pay or a last round to count (Junior)."""
    rules = observation.rules
    return (
        observation.players == 2
        and observation.is_my_turn
        and observation.phase == "play"
        and observation.pool_size == 0
        and rules.bank is None
        and rules.pool_empty != "last_round"
    )


def solve(observation: Observation, node_limit: int = NODE_LIMIT) -> Solution | None:
    """The exact best action of the seat to move, or None when the search would visit
    more than ``node_limit`` positions. Ties go to the action listed first among those
    scoring the most now. An error if the position is not :func:`solvable`."""
    if not solvable(observation):
        raise ValueError(
            "only a 2-player position with an empty pool, the seat to move, can be solved"
        )
    try:
        return _Search(observation, node_limit).root()
    except _OutOfNodes:
        return None


class _OutOfNodes(Exception):
    """The search reached its node limit."""


@dataclass(frozen=True, slots=True)
class _Node:
    """A position of the search; the board is the search's own, pushed and popped."""

    racks: tuple[int, ...]
    to_move: int
    out: tuple[int, ...]
    totals: tuple[int, ...]
    moves: frozenset[tuple[str, int, int, tuple[int, int, int]]]
    """The moves since the root: (action, tile, cell, corners)."""


class _Search:
    """One solve: the board copy the moves are tried on, the table, the node count."""

    def __init__(self, observation: Observation, node_limit: int) -> None:
        assert observation.seat is not None and observation.rack is not None
        self.observation = observation
        self.rules = rules = observation.rules
        self.node_limit = node_limit
        self.nodes = 0
        self.board: Board = observation.board.copy()
        tile_set = self.board.tile_set
        on_table = tile_set.mask(placement.tile for placement in self.board)
        seat = observation.seat
        racks = [0, 0]
        racks[seat] = observation.rack
        racks[1 - seat] = rules.box_mask & ~on_table & ~observation.rack
        if racks[1 - seat].bit_count() != observation.rack_sizes[1 - seat]:
            raise ValueError("the observation does not add up: unseen tiles are not the rack")
        self.start = _Node(
            tuple(racks), seat, _gone_out(observation), observation.totals, frozenset()
        )
        self.starter = seat if observation.starter is None else observation.starter
        self.stake = _match_at_stake(observation, racks)
        self.table: dict[object, tuple[float, int]] = {}

    def root(self) -> Solution:
        """The best root action: each searched with the window the best so far leaves."""
        node = self.start
        best: tuple[Action, float] | None = None
        alpha = -math.inf
        for action in self._ordered(node):
            gain, child, pops = self._play(node, action)
            try:
                value = (
                    gain if child is None else gain - self._negamax(child, -math.inf, gain - alpha)
                )
            finally:
                self._undo(pops)
            if best is None or value > best[1]:
                best = (action, value)
                alpha = value
        assert best is not None  # a seat to move always has an action
        return Solution(best[0], best[1], self.nodes)

    def _negamax(self, node: _Node, alpha: float, beta: float) -> float:
        """The value of ``node`` for its seat to move, exact when it falls in (alpha, beta);
        otherwise a bound on the side it falls."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _OutOfNodes
        key = (node.moves, node.racks, node.to_move, node.out, node.totals if self.stake else None)
        stored = self.table.get(key)
        if stored is not None:
            value, kind = stored
            if (
                kind == _EXACT
                or (kind == _LOWER and value >= beta)
                or (kind == _UPPER and value <= alpha)
            ):
                return value
        start_alpha = alpha
        best = -math.inf
        for action in self._ordered(node):
            gain, child, pops = self._play(node, action)
            try:
                # value = gain - child's value: the child's window is (gain - beta, gain - alpha).
                value = (
                    gain
                    if child is None
                    else gain - self._negamax(child, gain - beta, gain - alpha)
                )
            finally:
                self._undo(pops)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        kind = _LOWER if best >= beta else _UPPER if best <= start_alpha else _EXACT
        self.table[key] = (best, kind)
        return best

    def _ordered(self, node: _Node) -> list[Action]:
        """The legal actions at ``node``, the most points now first: the likely best is
        searched first and prunes the most."""
        seat = node.to_move
        options = legal_actions(
            self.rules, "play", self.board, node.racks[seat], 0, 0, node.totals[seat]
        )
        options.sort(key=lambda option: -option.points)
        return [option.action for option in options]

    def _play(self, node: _Node, action: Action) -> tuple[float, _Node | None, int]:
        """Apply ``action`` at ``node`` by the engine's rules: what it gains the seat to
        move (less what it gives the other), the node it leads to (None: the hand is over,
        its outcome counted in the gain) and how many board pops undo it."""
        seat = node.to_move
        hand = Hand.resume(
            self.rules,
            self.board,
            node.racks,
            (),
            to_move=seat,
            starter=self.starter,
            out=node.out,
            number=self.observation.hand_number,
            totals=node.totals,
        )
        event = hand.apply(action)
        pops = 1 if event.action in ("place", "take_joker") else 0
        if hand.is_over:
            return outcome(self.observation, hand, seat), None, pops
        points = hand.points
        move = ("pass", -1, -1, (0, 0, 0))
        if event.tile is not None and event.cell is not None and event.corners is not None:
            tile = self.board.tile_set.index(event.tile)
            move = (event.action, tile, event.cell.id, event.corners)
        child = _Node(
            tuple(hand.racks),
            hand.to_move,
            tuple(hand.out),
            tuple(hand.totals),
            node.moves | {move} if pops else node.moves,
        )
        return points[seat] - points[1 - seat], child, pops

    def _undo(self, pops: int) -> None:
        for _ in range(pops):
            self.board.pop()


def _gone_out(observation: Observation) -> tuple[int, ...]:
    """The seats that emptied their racks (``finish_round``), in seat order: with two
    players at most one has, so the order of going out is not needed."""
    return tuple(seat for seat, size in enumerate(observation.rack_sizes) if not size)


def _match_at_stake(observation: Observation, racks: list[int]) -> bool:
    """Whether the hand can end the match: the gong rang, the hand limit is reached, or
    a total can reach the target. Bounded from above: every tile left scored by one seat with the
    best figure bonus, both seats' last-tile bonuses, and the best going-out settlement."""
    rules = observation.rules
    if observation.gong is not None:  # the hand is the last, whatever the totals now
        return True
    if rules.hand_limit is not None and observation.hand_number >= rules.hand_limit:
        return True
    if rules.target_score is None:
        return False
    tile_set = observation.board.tile_set
    left = sum(tile_set.value_of(rack) for rack in racks)
    tiles = sum(rack.bit_count() for rack in racks)
    bonuses = 2 * rules.last_tile_bonus + rules.going_out_bonus
    most = 2 * left + tiles * max(rules.figure_points) + bonuses
    return max(observation.totals) + most >= rules.target_score
