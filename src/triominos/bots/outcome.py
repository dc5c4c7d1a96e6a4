"""What a hand played on from a position is worth to a seat: the one objective that the
sim bot's playouts and the exact endgame both maximize, so that a solved move is the move
a simulation would choose if it could see everything and play perfectly."""

from __future__ import annotations

from triominos.game import Hand, Observation, match_ends

WIN_VALUE = 100.0
"""Points a playout is worth more when the hand ends the match won (less when lost; a
win shared by k seats counts 1/k of a win, as the arena counts it).

Far from the target only the margin counts; when the hand in play can end the match,
winning it outweighs a few points of margin."""


def outcome(observation: Observation, hand: Hand, seat: int) -> float:
    """The seat's points in ``hand`` (played on from ``observation``) less the mean of the
    others', plus :data:`WIN_VALUE` if the hand is over and ends the match won (minus it,
    lost)."""
    points = hand.points
    value = points[seat] - (sum(points) - points[seat]) / (hand.players - 1)
    if hand.is_over and ends_match(observation, hand):
        totals = hand.totals
        best = max(totals)
        share = 1 / totals.count(best) if totals[seat] == best else 0.0
        value += WIN_VALUE * (2 * share - 1)
    return value


def ends_match(observation: Observation, hand: Hand) -> bool:
    """Whether the finished ``hand`` (played out from the observation) ends the match:
    by its totals, by its number, or by the gong rung in it (before the observation, or
    in the playout), though the total that rang it fell back below the target."""
    gong = observation.gong is not None or hand.gong is not None
    return match_ends(observation.rules, hand.totals, observation.hand_number, gong)
