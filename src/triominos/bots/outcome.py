"""What a hand played on from a position is worth to a seat: the one objective that the
sim bot's playouts and the exact endgame both maximize, so that a solved move is the move
a simulation would choose if it could see everything and play perfectly."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from triominos.game import Observation, match_ends
from triominos.rules import Rules


class Played(Protocol):
    """What the outcome reads of a hand played on: a :class:`~triominos.game.Hand` (the
    native playout, ``triominos._board.Playout``, values its hands itself, the same way)."""

    @property
    def players(self) -> int: ...
    @property
    def points(self) -> Sequence[int]: ...
    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def gong(self) -> int | None: ...


WIN_VALUE = 100
"""Points a playout is worth more when the hand ends the match won (less when lost; a
win shared by k seats counts 1/k of a win, as the arena counts it).

Far from the target only the margin counts; when the hand in play can end the match,
winning it outweighs a few points of margin."""


def outcome(
    observation: Observation,
    hand: Played,
    seat: int,
    win_value: float = WIN_VALUE,
    equity: bool = False,
) -> float:
    """The seat's points in ``hand`` (played on from ``observation``) less the mean of the
    others', plus ``win_value`` if the hand is over and ends the match won (minus it,
    lost)."""
    points = hand.points
    value = points[seat] - (sum(points) - points[seat]) / (hand.players - 1)
    if hand.is_over and ends_match(observation, hand):
        totals = hand.totals
        best = max(totals)
        share = 1 / totals.count(best) if totals[seat] == best else 0.0
        value += win_value * (2 * share - 1)
    elif hand.is_over and equity:
        chances = win_chances(observation.rules, hand.totals, observation.hand_number)
        value += win_value * (2 * chances[seat] - 1)
    return value


HAND_POINTS = {2: (236.0, 64.0), 3: (136.0, 63.0), 4: (76.0, 48.0), 5: (64.0, 48.0)}
"""By players (six as five), the mean and the standard deviation of a seat's points in a
classic hand between experts, settlement included: how far and how unevenly the totals
move in a hand (``python benchmarks/hands.py --players 2,3,4,5 --matches 30 --seed
20000``)."""


def win_chances(rules: Rules, totals: Sequence[int], hands: int) -> list[float]:
    """Each seat's chance to win the match from ``totals`` after ``hands`` hands: what a
    hand that does not end the match leaves each seat (``equity``).

    The totals move on by a hand's points (:data:`HAND_POINTS`) until the leader reaches
    the target or the hand limit comes, some ``h`` hands on, spreading by ``sd *
    sqrt(h)``; the chance that a seat's total ends the highest is taken as a softmax of
    the totals at that scale (as if the spread were Gumbel's). ``benchmarks/hands.py``:
    within 0.02 (root mean square) of Monte Carlo over the hands of expert matches, at
    two to five players.
    """
    players = len(totals)
    mean, spread = HAND_POINTS[min(max(players, 2), 5)]
    lead = max(totals)
    remaining = []  # hands to go, by the target and by the limit (rules have one or both)
    if rules.target_score is not None:
        remaining.append(max(rules.target_score - lead, 0) / mean + 0.5)
    if rules.hand_limit is not None:
        remaining.append(max(rules.hand_limit - hands, 0) + 0.5)
    scale = spread * math.sqrt(min(remaining))
    weights = [math.exp((total - lead) / scale) for total in totals]
    whole = sum(weights)
    return [weight / whole for weight in weights]


def ends_match(observation: Observation, hand: Played) -> bool:
    """Whether the finished ``hand`` (played out from the observation) ends the match:
    by its totals, by its number, or by the gong rung in it (before the observation, or
    in the playout), though the total that rang it fell back below the target."""
    gong = observation.gong is not None or hand.gong is not None
    return match_ends(observation.rules, hand.totals, observation.hand_number, gong)
