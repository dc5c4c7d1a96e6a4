"""A hand-built position: seat 1 may complete a hexagon, or play a tile that completes
nothing and let seat 0 go out; and the records of both choices."""

from __future__ import annotations

from typing import Any

from shapes import D, U, placement_for
from triominos.bots import GreedyBot
from triominos.game import Deal, Hand, Match, Observation
from triominos.lattice import ORIGIN
from triominos.record import PlayerInfo, match_record
from triominos.rules import Rules
from triominos.tiles import Tile

SHAPE = [placement_for(cell) for cell in (ORIGIN, D(-1, 0), U(-1, 0), D(-1, -1), U(0, -1))]
"""Five tiles of a hexagon, laid in turn by seats 0, 1, 0, 1, 0."""
HEXAGON = placement_for(D(0, -1))
"""The sixth: 0-2-5, the only tile that completes it (50 points, 7 for the tile)."""
KEPT = Tile(2, 3, 5)
"""Seat 1's other tile (10 points), which fits two cells and completes nothing."""
KEPT_PLACEMENT = placement_for(D(0, 0))
"""2-3-5 where it completes nothing."""
LAST = Tile(1, 4, 3)
"""Seat 0's last tile (8 points), which fits whatever seat 1 does."""


STARTER_DRAWS = (Tile(5, 5, 5), Tile(0, 0, 0))
"""Seat 0 draws the higher tile, so it starts."""


def hexagon_rules(open_racks: bool = True) -> Rules:
    """The 76-tile set, racks of 4, one hand. With open racks seat 1 sees seat 0's tile:
    only the pool's order is hidden, and the values can be worked out by hand."""
    return Rules(
        tile_set="extended",
        opening="starter_draw",
        open_racks=open_racks,
        max_players=2,
        rack_sizes=((2, 4),),
        target_score=None,
        hand_limit=1,
    )


def hexagon_deal(rules: Rules) -> Deal:
    racks = (
        (SHAPE[0].tile, SHAPE[2].tile, SHAPE[4].tile, LAST),
        (SHAPE[1].tile, SHAPE[3].tile, HEXAGON.tile, KEPT),
    )
    dealt = {tile for rack in racks for tile in rack}
    return Deal(racks, tuple(tile for tile in rules.box if tile not in dealt))


def hexagon_to_complete(open_racks: bool = True) -> Observation:
    """Seat 1 to move, holding 0-2-5 (it completes a hexagon) and 2-3-5; seat 0 holds one
    tile that fits, so it goes out next turn and collects seat 1's rack."""
    rules = hexagon_rules(open_racks)
    hand = Hand(rules, hexagon_deal(rules), starter_tiles=STARTER_DRAWS)
    while hand.phase == "starter_draw":
        hand.apply(hand.legal_actions()[0].action)
    for placement in SHAPE:
        hand.apply(placement)
    assert hand.to_move == 1
    return hand.observe(1)


def hexagon_record(completed: bool) -> dict[str, Any]:
    """The whole one-hand match: seat 1 completes the hexagon (or lays 2-3-5 instead),
    then each plays greedy's move to the end (seat 0 goes out at once)."""
    rules = hexagon_rules()
    match = Match(rules, 2, 1, deals=[hexagon_deal(rules)], starter_draws=[STARTER_DRAWS])
    while match.hand.phase == "starter_draw":
        match.apply(match.legal_actions()[0].action)
    for placement in SHAPE:
        match.apply(placement)
    choice = HEXAGON if completed else KEPT_PLACEMENT
    match.apply(choice)
    while not match.is_over:
        match.apply(GreedyBot().act(match.observe(match.to_move)))
    return match_record(match, [PlayerInfo("Ann", "human"), PlayerInfo("Bob", "human")])
