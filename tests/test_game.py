"""Hands and matches: openings, turns, the end of a hand, matches, observations.

Every test deals chosen tiles (``make_deal``), so each outcome is known in advance.
Racks are filled up with low tiles without a 5 and without a triple; the 5-5-5 opening
then leaves open cells that only tiles with two 5s fit, which keeps positions simple.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence

import pytest

import reference
from triominos.board import Placement
from triominos.bots import GreedyBot, RandomBot
from triominos.game import (
    Action,
    Deal,
    Draw,
    Event,
    Hand,
    IllegalActionError,
    LegalAction,
    Match,
    Observation,
    Pass,
    StarterDraw,
    choose_opener,
    observe,
)
from triominos.lattice import ORIGIN, Cell
from triominos.rules import RuleOptionError, Rules, preset
from triominos.tiles import Corners, Tile, indices

CLASSIC_RULES = preset("classic-house").rules
"""The house reading that these positions were built for (draw whenever draws remain)."""
EXTENDED_RULES = preset("extended").rules
SMALL_RACKS = {str(players): 2 for players in range(2, 7)}
"""Racks of two tiles: a player goes out in two placements."""
BIG_RACKS = {"2": 27, "3": 18, "4": 13, "5": 11, "6": 9}
"""Racks that leave two tiles in the classic pool (for the empty pool)."""


def T(name: str) -> Tile:
    return Tile.from_name(name)


def U(x: int, y: int) -> Cell:
    return Cell(x, y, True)


def D(x: int, y: int) -> Cell:
    return Cell(x, y, False)


def P(name: str, cell: Cell, corners: Corners) -> Placement:
    return Placement(T(name), cell, corners)


def make_deal(rules: Rules, racks: Sequence[str], pool: str = "") -> Deal:
    """Racks holding the named tiles (filled up), the pool starting with ``pool``."""
    tile_set = rules.tiles
    size = rules.rack_size(len(racks))
    chosen = [[tile_set.parse(name) for name in rack.split()] for rack in racks]
    first = [tile_set.parse(name) for name in pool.split()]
    used = {*first, *(tile for rack in chosen for tile in rack)}
    assert len(used) == len(first) + sum(map(len, chosen)), "a tile named twice"
    spare = sorted(
        (tile for tile in tile_set if tile not in used and 5 not in tile.numbers),
        key=lambda tile: tile.is_triple,
    )
    for rack in chosen:
        assert len(rack) <= size
        while len(rack) < size:
            rack.append(spare.pop(0))
    dealt = {tile for rack in chosen for tile in rack}
    rest = [tile for tile in tile_set if tile not in dealt and tile not in first]
    return Deal(tuple(tuple(rack) for rack in chosen), tuple(first + rest))


def token(text: str) -> Action:
    """A compact action: ``draw``, ``pass``, or ``4-5-5@0,0,d:545``."""
    if text == "draw":
        return Draw()
    if text == "pass":
        return Pass()
    name, rest = text.split("@")
    where, numbers = rest.split(":")
    x, y, up = where.split(",")
    a, b, c = (int(n) for n in numbers)
    return Placement(T(name), Cell(int(x), int(y), up == "u"), (a, b, c))


def play(hand: Hand | Match, actions: str) -> list[Event]:
    return [hand.apply(token(text)) for text in actions.split()]


def state(hand: Hand) -> tuple[object, ...]:
    return (
        len(hand.events),
        list(hand.points),
        list(hand.racks),
        hand.pool,
        list(hand.board),
        hand.to_move,
        hand.draws,
        hand.phase,
    )


def rule_of(game: Hand | Match, action: Action) -> str:
    """The rule named by the refusal of ``action``; a refused action changes nothing."""
    hand = game.hand if isinstance(game, Match) else game
    before = state(hand)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    assert state(hand) == before, "a refused action changed the hand"
    return caught.value.rule


def placements(options: list[LegalAction]) -> list[LegalAction]:
    return [option for option in options if isinstance(option.action, Placement)]


def placed(option: LegalAction) -> Placement:
    assert isinstance(option.action, Placement)
    return option.action


def shown(event: Event) -> Tile:
    assert event.tile is not None
    return event.tile


def check_points_add_up(hand: Hand) -> None:
    settlement = hand.end.settlement if hand.end else (0,) * hand.players
    for seat in range(hand.players):
        earned = sum(event.points for event in hand.events if event.player == seat)
        assert hand.points[seat] == earned + settlement[seat]


def five_opening(
    racks: Sequence[str] = ("", ""), pool: str = "", rules: Rules = CLASSIC_RULES
) -> Hand:
    """A classic hand where seat 0 holds 5-5-5 and has opened with it."""
    hand = Hand(rules, make_deal(rules, ["5-5-5 " + racks[0], *racks[1:]], pool))
    assert hand.starter == 0
    hand.apply(P("5-5-5", ORIGIN, (5, 5, 5)))
    assert hand.to_move == 1
    return hand


# --- the opening, classic --------------------------------------------------------------


def test_highest_triple_opens_with_it_for_10() -> None:
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["4-4-4 0-0-0", "5-5-5"]))
    assert (hand.phase, hand.starter, hand.to_move) == ("opening", 1, 1)
    assert hand.legal_actions() == [
        LegalAction(P("5-5-5", ORIGIN, (5, 5, 5)), 25, {"opening_triple": 10})
    ]
    event = hand.apply(P("5-5-5", ORIGIN, (5, 5, 5)))
    assert event == Event(1, "place", 25, T("5-5-5"), ORIGIN, (5, 5, 5), (("opening_triple", 10),))
    assert hand.points == [0, 25]
    assert (hand.phase, hand.to_move) == ("play", 0)


def test_only_the_opening_tile_may_open() -> None:
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["4-4-4 0-0-1", "5-5-5"]))
    assert hand.to_move == 1
    other = hand.rack(1)[0]
    assert other != T("5-5-5")
    assert rule_of(hand, Placement(other, ORIGIN, other.numbers)) == "opening_tile"
    assert rule_of(hand, P("4-4-4", ORIGIN, (4, 4, 4))) == "own_tile"
    assert rule_of(hand, Draw()) == "opening"
    assert rule_of(hand, Pass()) == "opening"
    assert rule_of(hand, StarterDraw()) == "starter_draw"
    assert rule_of(hand, P("5-5-5", D(0, 0), (5, 5, 5))) == "first_tile_on_origin"


def test_zero_triple_opening_scores_40() -> None:
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["", "0-0-0"]))
    assert hand.starter == 1
    expected = {"opening_triple": 10, "opening_triple_zero": 30}
    assert hand.legal_actions() == [LegalAction(P("0-0-0", ORIGIN, (0, 0, 0)), 40, expected)]
    event = hand.apply(P("0-0-0", ORIGIN, (0, 0, 0)))
    assert event.points == 40 == 0 + 10 + 30
    assert dict(event.bonuses) == expected
    assert hand.points == [0, 40]


@pytest.mark.parametrize(("opening", "points"), [("5-5-5", 25), ("0-0-0", 40)])
def test_holder_of_the_highest_triple_and_0_0_0_may_open_with_either(
    opening: str, points: int
) -> None:
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["3-3-3", "0-0-0 5-5-5"]))
    assert hand.starter == 1
    offered = {placed(option).tile.name: option.points for option in hand.legal_actions()}
    assert offered == {"5-5-5": 25, "0-0-0": 40}
    number = int(opening[0])
    assert hand.apply(P(opening, ORIGIN, (number, number, number))).points == points


def test_0_0_0_of_a_player_without_the_highest_triple_does_not_open() -> None:
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["0-0-0", "2-2-2", "1-1-1"]))
    assert hand.starter == 1
    assert [option.action for option in hand.legal_actions()] == [P("2-2-2", ORIGIN, (2, 2, 2))]
    assert rule_of(hand, P("0-0-0", ORIGIN, (0, 0, 0))) == "own_tile"


def test_no_triple_dealt_highest_tile_opens_without_bonus() -> None:
    triples = " ".join(f"{n}-{n}-{n}" for n in range(6))
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["3-4-5", "4-5-5"], pool=triples))
    assert hand.starter == 1
    assert hand.legal_actions() == [
        LegalAction(P("4-5-5", ORIGIN, corners), 14, {}) for corners in T("4-5-5").rotations()
    ]
    event = hand.apply(P("4-5-5", ORIGIN, (5, 4, 5)))
    assert (event.points, event.bonuses) == (14, ())


@pytest.mark.parametrize("seats", [("3-5-5", "4-4-5"), ("4-4-5", "3-5-5")])
def test_no_triple_equal_totals_go_to_the_name_that_sorts_last(seats: tuple[str, str]) -> None:
    # choose_opener: ties between equal totals go to the tile whose name sorts last.
    pool = " ".join(f"{n}-{n}-{n}" for n in range(6)) + " 4-5-5"
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, list(seats), pool=pool))
    assert hand.starter == seats.index("4-4-5")
    assert {placed(option).tile for option in hand.legal_actions()} == {T("4-4-5")}
    assert {option.points for option in hand.legal_actions()} == {13}
    racks = [CLASSIC_RULES.tiles.mask(rack) for rack in hand.deal.racks]
    assert choose_opener(CLASSIC_RULES, racks, CLASSIC_RULES.tiles) == hand.starter


def test_play_goes_clockwise_from_the_opener() -> None:
    racks = ["4-5-5", "3-5-5", "5-5-5"]
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, racks))
    assert hand.starter == 2
    order = [hand.to_move]
    play(hand, "5-5-5@0,0,u:555")
    order.append(hand.to_move)
    play(hand, "4-5-5@0,0,d:545")
    order.append(hand.to_move)
    play(hand, "3-5-5@-1,0,d:355")
    order.append(hand.to_move)
    assert order == [2, 0, 1, 2]


# --- a turn -----------------------------------------------------------------------------


def test_draw_allowed_when_a_placement_exists() -> None:
    hand = five_opening(["", "4-5-5"], pool="1-1-2 1-2-3")
    options = hand.legal_actions()
    assert len(placements(options)) == 3  # 4-5-5 on each of the three open cells
    assert LegalAction(Draw(), -5, {}) in options
    assert Pass() not in [option.action for option in options]
    event = hand.apply(Draw())
    assert event == Event(1, "draw", -5, T("1-1-2"))
    assert hand.points == [25, -5]
    assert (hand.to_move, hand.draws, hand.pool_size) == (1, 1, 37)
    assert T("1-1-2") in hand.rack(1)
    assert hand.pool[0] == T("1-2-3")
    event = hand.apply(P("4-5-5", D(0, 0), (5, 4, 5)))
    assert event.points == 14
    assert hand.points == [25, 9]
    assert (hand.to_move, hand.draws) == (0, 0)


def test_drawn_tile_may_be_placed_in_the_same_turn() -> None:
    hand = five_opening(pool="1-1-2 3-5-5 0-5-5")
    assert placements(hand.legal_actions()) == []
    play(hand, "draw draw")
    assert hand.rack(1).count(T("3-5-5")) == 1
    assert {placed(option).tile for option in placements(hand.legal_actions())} == {T("3-5-5")}
    event = hand.apply(P("3-5-5", D(0, -1), (5, 5, 3)))
    assert event.points == 13
    assert hand.points[1] == -10 + 13
    assert hand.to_move == 0 and hand.draws == 0


def test_three_draws_then_a_pass_costs_25() -> None:
    hand = five_opening(pool="1-1-2 1-2-3 0-2-4 4-5-5")
    events = play(hand, "draw draw draw")
    assert [event.points for event in events] == [-5, -5, -5]
    assert hand.legal_actions() == [LegalAction(Pass(), -10, {})]
    assert rule_of(hand, Draw()) == "max_draws"
    assert hand.apply(Pass()) == Event(1, "pass", -10)
    assert hand.points == [25, -25]
    assert hand.to_move == 0 and hand.draws == 0
    assert hand.pool[0] == T("4-5-5")
    check_points_add_up(hand)


def test_no_pass_before_the_draws_are_used() -> None:
    hand = five_opening(pool="1-1-2 1-2-3")
    assert rule_of(hand, Pass()) == "draw_before_pass"
    play(hand, "draw draw")
    assert rule_of(hand, Pass()) == "draw_before_pass"


def test_no_pass_when_a_tile_fits() -> None:
    hand = five_opening(pool="1-1-2 1-2-3 4-5-5")
    play(hand, "draw draw draw")
    options = hand.legal_actions()
    assert options == placements(options) and len(options) == 3
    assert rule_of(hand, Pass()) == "place_if_able"
    assert rule_of(hand, Draw()) == "max_draws"


def test_illegal_placements_name_the_board_rule() -> None:
    hand = five_opening(["", "4-5-5 3-4-5"])
    assert rule_of(hand, P("4-5-5", U(1, 0), (5, 4, 5))) == "edge_contact"
    assert rule_of(hand, P("4-5-5", ORIGIN, (5, 4, 5))) == "empty_cell"
    assert rule_of(hand, P("4-5-5", D(0, 0), (4, 5, 5))) == "matching_corners"
    assert rule_of(hand, P("3-4-5", D(0, 0), (5, 4, 3))) == "no_flip"
    assert rule_of(hand, P("4-5-5", Cell(9, 9, True), (5, 4, 5))) == "edge_contact"


def test_only_own_tiles_may_be_placed() -> None:
    hand = five_opening(["4-5-5", "3-5-5"])
    assert rule_of(hand, P("4-5-5", D(0, 0), (5, 4, 5))) == "own_tile"  # seat 0's tile
    assert rule_of(hand, P("5-5-5", D(0, 0), (5, 5, 5))) == "own_tile"  # on the table
    assert rule_of(hand, Placement(Tile(0, 5, 6), D(0, 0), (5, 6, 5))) == "own_tile"
    assert hand.apply(P("3-5-5", D(0, 0), (5, 3, 5))).player == 1


@pytest.mark.parametrize(("max_draws", "draws"), [(1, 1), (0, 0), (None, 6)])
def test_max_draws_option(max_draws: int | None, draws: int) -> None:
    rules = CLASSIC_RULES.replace(max_draws=max_draws)
    # Seat 0 keeps a tile that fits, so the hand is never blocked.
    pool = "0-0-1 0-0-2 0-1-1 0-0-3 0-1-2 0-0-4 0-5-5"
    hand = five_opening(["4-5-5", ""], pool=pool, rules=rules)
    for _ in range(draws):
        hand.apply(Draw())
    options = hand.legal_actions()
    if max_draws is None:
        assert LegalAction(Draw(), -5, {}) in options
        hand.apply(Draw())
        assert len(placements(hand.legal_actions())) == 3  # 0-5-5 drawn seventh
    else:
        penalty = 10 if draws else 0
        assert options == [LegalAction(Pass(), -penalty, {})]
        assert rule_of(hand, Draw()) == "max_draws"
        assert hand.apply(Pass()).points == -penalty


# --- the empty pool ---------------------------------------------------------------------


ALL_FIVES = " ".join(tile.name for tile in CLASSIC_RULES.tiles if 5 in tile.numbers)


def empty_pool_hand(rules: Rules) -> Hand:
    """Seat 0 holds every tile with a 5; seat 1 none; two tiles in the pool."""
    big = rules.replace(rack_sizes=BIG_RACKS)
    hand = Hand(big, make_deal(big, [ALL_FIVES, ""]))
    assert hand.pool_size == 2
    assert all(5 not in tile.numbers for tile in hand.rack(1) + hand.pool)
    hand.apply(P("5-5-5", ORIGIN, (5, 5, 5)))
    return hand


def test_pool_running_dry_during_the_draws_then_pass_costs_10() -> None:
    hand = empty_pool_hand(CLASSIC_RULES)
    play(hand, "draw draw")
    assert hand.pool_size == 0
    assert rule_of(hand, Draw()) == "empty_pool"
    assert hand.legal_actions() == [LegalAction(Pass(), -10, {})]
    assert hand.apply(Pass()).points == -10
    assert hand.points[1] == -20


@pytest.mark.parametrize("penalty", [0, 7])
def test_pass_with_an_empty_pool(penalty: int) -> None:
    hand = empty_pool_hand(CLASSIC_RULES.replace(empty_pool_pass_penalty=penalty))
    play(hand, "draw draw pass 4-5-5@0,0,d:545")
    assert (hand.to_move, hand.pool_size, hand.is_over) == (1, 0, False)
    assert hand.legal_actions() == [LegalAction(Pass(), -penalty, {})]
    assert rule_of(hand, Draw()) == "empty_pool"
    assert hand.apply(Pass()) == Event(1, "pass", -penalty)
    assert hand.to_move == 0 and not hand.is_over
    assert hand.points[1] == -20 - penalty
    check_points_add_up(hand)


def test_with_an_empty_pool_a_fitting_tile_must_be_placed() -> None:
    big = CLASSIC_RULES.replace(rack_sizes=BIG_RACKS)
    hand = Hand(big, make_deal(big, [ALL_FIVES.replace("4-5-5", ""), "4-5-5"]))
    hand.apply(P("5-5-5", ORIGIN, (5, 5, 5)))
    play(hand, "draw draw")
    assert rule_of(hand, Pass()) == "place_if_able"
    assert all(isinstance(option.action, Placement) for option in hand.legal_actions())


# --- the end of a hand ------------------------------------------------------------------


def test_going_out_classic_scores_25_and_the_other_racks() -> None:
    rules = CLASSIC_RULES.replace(rack_sizes=SMALL_RACKS)
    hand = Hand(rules, make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"]))
    play(hand, "5-5-5@0,0,u:555 4-5-5@0,0,d:545")
    assert not hand.is_over
    play(hand, "3-5-5@-1,0,d:355")
    assert hand.is_over and hand.phase == "over"
    assert hand.end is not None
    assert (hand.end.reason, hand.end.player) == ("out", 0)
    assert hand.end.settlement == (25 + 1, 0)
    assert hand.end.remaining == ((), (T("0-0-1"),))
    assert hand.points == [25 + 13 + 26, 14]
    check_points_add_up(hand)
    assert hand.legal_actions() == []
    assert rule_of(hand, Draw()) == "hand_over"
    assert hand.end.to_record() == {
        "reason": "out",
        "player": 0,
        "settlement": [26, 0],
        "remaining": [[], ["0-0-1"]],
    }


def test_going_out_classic_three_players_others_lose_nothing() -> None:
    rules = CLASSIC_RULES.replace(rack_sizes=SMALL_RACKS)
    deal = make_deal(rules, ["5-5-5 3-5-5", "4-5-5 1-2-3", "0-1-2 2-2-4"], pool="0-0-1 0-1-1 1-1-2")
    hand = Hand(rules, deal)
    play(hand, "5-5-5@0,0,u:555 4-5-5@0,0,d:545 draw draw draw pass")
    assert hand.points == [25, 14, -25]
    play(hand, "3-5-5@-1,0,d:355")
    assert hand.end is not None and hand.end.reason == "out"
    left = [sum(tile.value for tile in rack) for rack in hand.end.remaining]
    assert left == [0, 6, 3 + 8 + 1 + 2 + 4]
    assert hand.end.settlement == (25 + 6 + 18, 0, 0)
    assert hand.points == [25 + 13 + 49, 14, -25]
    check_points_add_up(hand)


# A three-player classic hand that ends blocked, as the greedy bot played it.
BLOCKED_RACKS = [
    "0-3-5 2-5-5 1-2-2 3-5-5 0-0-2 0-4-4 2-2-2",
    "2-4-4 3-4-4 1-2-5 1-4-4 0-4-5 4-4-4 1-5-5",
    "0-2-3 0-1-3 0-2-5 0-1-2 1-1-1 0-0-0 1-1-4",
]
BLOCKED_POOL = """
3-3-3 1-4-5 1-3-4 2-4-5 2-2-4 0-1-4 0-0-3 3-4-5 4-4-5 1-3-5 2-2-5 0-3-4 0-0-1 0-2-4 0-5-5
1-1-2 2-3-3 4-5-5 1-3-3 3-3-4 0-1-1 1-1-3 3-3-5 2-2-3 5-5-5 0-2-2 0-1-5 2-3-5 2-3-4 0-3-3
1-2-4 0-0-5 1-2-3 1-1-5 0-0-4
"""
BLOCKED_ACTIONS = """
4-4-4@0,0,u:444 draw draw draw pass 0-4-4@-1,0,d:044 3-4-4@0,-1,d:443 1-3-4@1,-1,u:341
draw draw draw 0-1-4@-1,1,u:014 2-4-4@0,0,d:424 1-4-5@1,-1,d:451 2-4-5@0,1,u:452
1-5-5@2,-1,u:155 0-2-5@0,1,d:502 3-5-5@2,-1,d:535 0-4-5@-1,0,u:504 0-1-2@1,1,u:201 draw
draw 3-4-5@3,-1,u:534 draw 4-4-5@-1,-1,d:544 draw 1-3-5@2,0,u:513 draw draw draw
0-0-1@-2,1,d:010 draw draw 0-5-5@-2,0,d:505 draw draw draw 4-5-5@-2,0,u:455 draw
1-3-3@1,-2,d:313 draw 3-3-4@1,-2,u:433 draw 0-1-1@-2,2,u:011 draw 1-1-3@-2,2,d:131 draw
draw draw pass draw draw 0-1-5@2,-2,d:150 draw draw draw pass draw draw 0-0-5@-2,1,u:500
draw 1-2-3@-2,3,u:123 1-2-2@-3,3,d:221 2-2-3@-3,4,u:232 2-3-3@-4,4,d:332
2-3-5@-3,4,d:352 3-3-5@-4,5,u:353 1-1-2@-3,3,u:121 2-5-5@-2,4,u:255 5-5-5@-2,4,d:555
draw draw pass 0-3-5@-4,5,d:503
"""


def blocked_hand(rules: Rules) -> Hand:
    hand = Hand(rules, make_deal(rules, BLOCKED_RACKS, BLOCKED_POOL))
    actions = BLOCKED_ACTIONS.split()
    play(hand, " ".join(actions[:-1]))
    assert not hand.is_over
    play(hand, actions[-1])
    assert hand.is_over and hand.pool_size == 0
    assert not any(hand.board.can_place(rack) for rack in hand.racks)
    return hand


def test_blocked_hand_lowest_rack_scores_the_others_minus_its_own() -> None:
    hand = blocked_hand(CLASSIC_RULES)
    assert hand.end is not None
    left = [sum(tile.value for tile in rack) for rack in hand.end.remaining]
    assert left == [50, 30, 42]
    assert (hand.end.reason, hand.end.player) == ("blocked", 1)
    assert hand.end.settlement == (0, 50 + 42 - 30, 0)
    check_points_add_up(hand)


def test_blocked_hand_each_loses_own_option() -> None:
    hand = blocked_hand(CLASSIC_RULES.replace(blocked="each_loses_own"))
    assert hand.end is not None
    assert (hand.end.reason, hand.end.player) == ("blocked", None)
    assert hand.end.settlement == (-50, -30, -42)
    check_points_add_up(hand)


# --- the extended opening and the bell ---------------------------------------------------


def extended_hand(racks: Sequence[str], shown: str, pool: str = "") -> Hand:
    rules = EXTENDED_RULES.replace(rack_sizes=SMALL_RACKS)
    tiles: Iterator[Tile] = iter([T(name) for name in shown.split()])
    hand = Hand(rules, make_deal(rules, racks, pool), starter_tiles=tiles)
    while hand.phase == "starter_draw":
        hand.apply(StarterDraw())
    return hand


def test_starter_draw_highest_starts_ties_draw_again_tiles_go_back() -> None:
    rules = EXTENDED_RULES
    script = iter([T(n) for n in ["3-4-5", "1-2-3", "3-5-4", "1-2-3", "5-5-5"]])
    hand = Hand(rules, make_deal(rules, ["", "", ""]), starter_tiles=script)
    pool = hand.pool
    assert (hand.phase, hand.starter, hand.to_move) == ("starter_draw", None, 0)
    assert hand.legal_actions() == [LegalAction(StarterDraw(), 0, {})]
    assert rule_of(hand, Draw()) == "opening"
    assert rule_of(hand, Placement(hand.rack(0)[0], ORIGIN, hand.rack(0)[0].numbers)) == (
        "starter_draw"
    )
    movers = []
    while hand.phase == "starter_draw":
        movers.append(hand.to_move)
        hand.apply(StarterDraw())
    # 3-4-5 and 3-5-4 tie at 12 over 1-2-3: seats 0 and 2 draw again; 1-2-3 went back.
    assert movers == [0, 1, 2, 0, 2]
    assert [(e.player, e.action, shown(e).name) for e in hand.events] == [
        (0, "starter_draw", "3-4-5"),
        (1, "starter_draw", "1-2-3"),
        (2, "starter_draw", "3-5-4"),
        (0, "starter_draw", "1-2-3"),
        (2, "starter_draw", "5-5-5"),
    ]
    assert all(event.points == 0 for event in hand.events)
    assert (hand.phase, hand.starter, hand.to_move) == ("opening", 2, 2)
    assert hand.pool == pool  # the drawn tiles went back, the order untouched
    assert hand.points == [0, 0, 0]
    assert rule_of(hand, StarterDraw()) == "starter_draw"


def test_starter_draw_refuses_a_tile_out_of_the_pool_or_shown_twice() -> None:
    rules = EXTENDED_RULES
    deal = make_deal(rules, ["", "", ""])
    in_rack = deal.racks[1][0]
    hand = Hand(rules, deal, starter_tiles=iter([in_rack]))
    assert rule_of(hand, StarterDraw()) == "starter_draw"
    hand = Hand(rules, deal, starter_tiles=iter([T("3-4-5"), T("3-4-5")]))
    hand.apply(StarterDraw())
    assert rule_of(hand, StarterDraw()) == "starter_draw"
    # Past the recorded draws (a record of an unfinished hand), draws come at random.
    hand = Hand(rules, deal, starter_tiles=iter([T("3-4-5")]))
    hand.apply(StarterDraw())
    second = hand.apply(StarterDraw())
    assert second.player == 1 and second.tile in hand.pool and second.tile != T("3-4-5")


def test_random_starter_draw_ends_with_the_highest_tile() -> None:
    for seed in range(12):
        match = Match.from_preset("extended", players=4, seed=seed)
        hand = match.hand
        contenders = [0, 1, 2, 3]
        while hand.phase == "starter_draw":
            assert hand.to_move == contenders[0]
            start = len(hand.events)
            for _ in contenders:
                match.apply(StarterDraw())
            tiles = [shown(event) for event in hand.events[start:]]
            assert len(set(tiles)) == len(tiles)  # no tile twice in a round
            assert all(tile in hand.pool for tile in tiles)
            best = max(tile.value for tile in tiles)
            contenders = [
                seat for seat, t in zip(contenders, tiles, strict=True) if t.value == best
            ]
        assert contenders == [hand.starter]
        assert hand.phase == "opening" and hand.to_move == hand.starter


def test_extended_starter_places_any_tile_for_its_value() -> None:
    hand = extended_hand(["5-5-5 4-5-5", "", ""], shown="4-4-5 0-0-5 0-1-5")
    assert hand.starter == 0
    offered = {(placed(o).tile.name, placed(o).corners, o.points) for o in hand.legal_actions()}
    assert offered == {
        ("5-5-5", (5, 5, 5), 15),
        ("4-5-5", (4, 5, 5), 14),
        ("4-5-5", (5, 5, 4), 14),
        ("4-5-5", (5, 4, 5), 14),
    }
    assert all(option.bonuses == {} for option in hand.legal_actions())
    event = hand.apply(P("4-5-5", ORIGIN, (5, 4, 5)))
    assert (event.points, event.bonuses) == (14, ())
    assert hand.to_move == 1


def test_bell_round_completes_and_only_the_bell_ringer_collects() -> None:
    """RULES.md decision 12: a second player out in the bell round scores nothing extra.

    The issue's text says that player "also scores"; the project decided otherwise from
    seeds 001/004 ("Deze speler scoort ..."). This test pins the documented decision.
    """
    racks = ["4-5-5 0-5-4", "3-5-5 1-1-1", "5-5-5 2-5-5"]
    hand = extended_hand(racks, shown="0-0-1 0-1-1 4-4-5", pool="0-0-2 0-0-3 1-1-2")
    assert hand.starter == 2
    play(hand, "5-5-5@0,0,u:555 4-5-5@0,0,d:545 3-5-5@-1,0,d:355")
    play(hand, "2-5-5@0,-1,d:552")  # seat 2 goes out: the bell
    assert hand.racks[2] == 0 and not hand.is_over and hand.to_move == 0
    play(hand, "0-5-4@1,0,u:540")  # seat 0 goes out too
    assert hand.racks[0] == 0 and not hand.is_over and hand.to_move == 1
    assert placements(hand.legal_actions()) == []
    play(hand, "draw draw draw pass")  # seat 1, just before the starter, ends the round
    assert hand.end is not None
    assert (hand.end.reason, hand.end.player) == ("out", 2)
    left = 3 + 2 + 3 + 4  # 1-1-1 and the three drawn tiles
    assert hand.end.settlement == (0, 0, 25 + left)
    assert hand.points == [14 + 9, 13 - 25, 15 + 12 + 37]
    check_points_add_up(hand)


def test_bell_rung_by_the_player_before_the_starter_ends_the_hand_at_once() -> None:
    racks = ["5-5-5 1-1-1", "4-5-5 2-5-5"]
    hand = extended_hand(racks, shown="4-4-5 0-0-1", pool="0-0-2 0-0-3 0-0-4")
    assert hand.starter == 0
    play(hand, "5-5-5@0,0,u:555 4-5-5@0,0,d:545 draw draw draw pass")
    play(hand, "2-5-5@-1,0,d:255")
    assert hand.end is not None and hand.end.reason == "out"
    assert hand.end.settlement == (0, 25 + 3 + 2 + 3 + 4)


def test_bell_rung_by_the_starter_lets_everyone_else_play_once() -> None:
    racks = ["4-5-5 0-5-1", "5-5-5 2-5-5", "1-5-5 0-1-1"]
    hand = extended_hand(racks, shown="0-0-1 4-4-5 0-1-2", pool="0-0-2 0-0-3 0-0-4")
    assert hand.starter == 1
    play(hand, "5-5-5@0,0,u:555 1-5-5@0,0,d:515 4-5-5@-1,0,d:455")
    play(hand, "2-5-5@0,-1,d:552")  # the starter goes out: the bell
    assert hand.racks[1] == 0 and not hand.is_over and hand.to_move == 2
    play(hand, "draw draw draw pass")
    assert not hand.is_over and hand.to_move == 0
    play(hand, "0-5-1@1,0,u:510")  # seat 0, the last of the round, goes out too
    assert hand.end is not None
    assert (hand.end.reason, hand.end.player) == ("out", 1)
    left = 2 + 2 + 3 + 4  # 0-1-1 and the three drawn tiles
    assert hand.end.settlement == (0, 25 + left, 0)  # the bell ringer only (decision 12)
    check_points_add_up(hand)


# --- matches ------------------------------------------------------------------------------


def quick_rules(**changes: object) -> Rules:
    return CLASSIC_RULES.replace(rack_sizes=SMALL_RACKS, **changes)


QUICK_HAND = "5-5-5@0,0,u:555 4-5-5@0,0,d:545 3-5-5@-1,0,d:355"
"""Seat with 5-5-5 and 3-5-5: 25 + 13 + 26 = 64; the other seat 14."""


def test_match_ends_when_a_total_reaches_the_target() -> None:
    rules = quick_rules(target_score=64)
    deal = make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"])
    match = Match(rules, players=2, seed=1, deals=[deal, deal])
    play(match, QUICK_HAND)
    assert match.is_over
    assert match.totals == [64, 14]
    assert match.winners == [0]
    assert len(match.hands) == 1
    assert match.legal_actions() == []
    assert rule_of(match, Draw()) == "match_over"


def test_match_goes_on_below_the_target_and_totals_sum_the_hands() -> None:
    rules = quick_rules(target_score=100)
    deal = make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"])
    match = Match(rules, players=2, seed=1, deals=[deal, deal])
    play(match, QUICK_HAND)
    assert not match.is_over and match.winners == []
    assert len(match.hands) == 2 and match.hand.number == 2
    assert match.totals == [64, 14]
    assert match.observe(0).totals == (64, 14)
    play(match, "5-5-5@0,0,u:555")
    assert match.observe(None).totals == (64 + 25, 14)
    play(match, "4-5-5@0,0,d:545 3-5-5@-1,0,d:355")
    assert match.is_over
    assert match.totals == [128, 28]
    assert match.totals == [sum(hand.points[seat] for hand in match.hands) for seat in (0, 1)]


def test_hand_limit_ends_the_match_and_tied_totals_share_the_win() -> None:
    rules = quick_rules(target_score=None, hand_limit=2)
    deal = make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"])
    mirrored = Deal(deal.racks[::-1], deal.pool)
    match = Match(rules, players=2, seed=1, deals=[deal, mirrored])
    play(match, QUICK_HAND)
    assert not match.is_over
    assert match.hand.starter == 1
    play(match, QUICK_HAND)
    assert match.is_over
    assert match.totals == [78, 78]
    assert match.winners == [0, 1]


def test_winners_are_the_highest_totals_of_three() -> None:
    rules = quick_rules(target_score=None, hand_limit=1)
    deal = make_deal(rules, ["4-5-5 0-0-1", "5-5-5 3-5-5", "1-1-1 1-1-2"])
    match = Match(rules, players=3, seed=1, deals=[deal])
    play(match, "5-5-5@0,0,u:555")
    play(match, "draw draw draw pass")  # seat 2
    play(match, "4-5-5@0,0,d:545 3-5-5@-1,0,d:355")
    assert match.is_over
    assert match.totals == [14, 25 + 13 + 25 + 1 + 3 + 4 + 0 + 2 + 2, -25]
    assert match.winners == [1]


def play_out(match: Match, bots: Sequence[GreedyBot | RandomBot]) -> list[list[Event]]:
    while not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
    return [list(hand.events) for hand in match.hands]


@pytest.mark.parametrize("name", ["classic", "extended"])
def test_same_seed_same_match(name: str) -> None:
    rules = preset(name).rules.replace(target_score=150)

    def run(seed: int) -> tuple[list[list[Event]], list[int], list[Deal]]:
        match = Match(rules, players=3, seed=seed)
        events = play_out(match, [GreedyBot(), RandomBot(seed), GreedyBot()])
        return events, match.totals, [hand.deal for hand in match.hands]

    first = run(12)
    assert run(12) == first
    assert run(13)[2][0] != first[2][0]


def test_match_repr_pastes_back() -> None:
    match = Match.from_preset("classic", players=3, seed=99)
    again = eval(repr(match), {"Match": Match})
    assert again.hand.deal == match.hand.deal
    custom = Match(quick_rules(target_score=50), players=2, seed=3)
    assert eval(repr(custom), {"Match": Match, "Rules": Rules}).hand.deal == custom.hand.deal


def test_deal_check_names_what_is_wrong() -> None:
    deal = make_deal(CLASSIC_RULES, ["", ""])
    short = Deal((deal.racks[0][:-1], deal.racks[1]), deal.pool + deal.racks[0][-1:])
    twice = Deal(deal.racks, deal.pool[:-1] + deal.pool[:1])
    missing = Deal(deal.racks, deal.pool[:-1])
    for bad in (short, twice, missing):
        with pytest.raises(RuleOptionError) as caught:
            Hand(CLASSIC_RULES, bad)
        assert caught.value.option == "deal"
    with pytest.raises(RuleOptionError, match="players"):
        Hand(CLASSIC_RULES, Deal((deal.racks[0],), deal.pool))


# --- observations -----------------------------------------------------------------------


def check_hidden(hand: Hand, observation: Observation) -> None:
    """Nothing in the observation tells where a hidden tile is, nor the pool's order."""
    seat = observation.seat
    assert observation.rack == (None if seat is None else hand.racks[seat])
    hidden = reference.hidden_tiles(hand, seat)
    found = set(reference.tiles_in(observation))
    assert not found & hidden, f"seat {seat} sees {sorted(found & hidden)}"
    text = repr(observation)
    assert not [tile for tile in hidden if repr(tile) in text]


def test_an_observation_holds_the_own_rack_only() -> None:
    hand = five_opening(["", "4-5-5"])
    for seat in (0, 1):
        seen = hand.observe(seat)
        assert seen.seat == seat
        assert seen.rack == hand.racks[seat]
        assert seen.rack_tiles == hand.rack(seat)
        check_hidden(hand, seen)
    spectator = observe(hand, None)
    assert spectator.rack is None and spectator.rack_tiles == []
    assert spectator.legal_actions() == []
    check_hidden(hand, spectator)
    assert spectator.rack_sizes == (8, 9)
    assert spectator.pool_size == 38
    assert spectator.hand_points == (25, 0)
    assert (spectator.phase, spectator.to_move, spectator.starter) == ("play", 1, 0)
    with pytest.raises(ValueError):
        observe(hand, 2)


def test_another_seats_drawn_tile_is_hidden() -> None:
    hand = five_opening(pool="1-1-2 0-5-5")
    before = {seat: hand.observe(seat) for seat in (0, 1, None)}  # caches the views
    hand.apply(Draw())
    for seat in (0, 1, None):
        seen = hand.observe(seat)
        last = seen.history[-1]
        assert (last.player, last.action, last.points) == (1, "draw", -5)
        assert last.tile == (T("1-1-2") if seat == 1 else None)
        check_hidden(hand, seen)
        assert len(before[seat].history) == 1  # an old observation keeps its length
    assert Event(1, "draw", -5, T("1-1-2")).to_record() == {
        "player": 1,
        "action": "draw",
        "tile": "1-1-2",
        "points": -5,
    }
    assert hand.observe(0).history[-1].to_record() == {"player": 1, "action": "draw", "points": -5}
    play(hand, "draw 0-5-5@0,0,d:505")
    for seat in (0, None):
        assert [event.tile for event in hand.observe(seat).history[1:]] == [None, None, T("0-5-5")]
    assert [event.tile for event in hand.observe(1).history[1:]] == [
        T("1-1-2"),
        T("0-5-5"),
        T("0-5-5"),
    ]


def test_starter_draws_are_seen_by_everyone() -> None:
    rules = EXTENDED_RULES
    hand = Hand(rules, make_deal(rules, ["", ""]), starter_tiles=iter([T("4-4-5"), T("0-0-1")]))
    hand.apply(StarterDraw())
    for seat in (0, 1, None):
        assert hand.observe(seat).history[-1].tile == T("4-4-5")
        check_hidden(hand, hand.observe(seat))


def test_legal_actions_from_an_observation_equal_the_hands() -> None:
    hand = five_opening(["", "4-5-5 0-5-5"], pool="3-5-5")
    for step in range(4):
        mover = hand.to_move
        assert hand.observe(mover).legal_actions() == hand.legal_actions()
        assert hand.observe(1 - mover).legal_actions() == []
        check_hidden(hand, hand.observe(mover))
        steps: list[Action] = [Draw(), P("4-5-5", D(0, 0), (5, 4, 5)), Draw(), Draw()]
        hand.apply(steps[step])


# --- who sends the action, and malformed placements ----------------------------------


def test_an_action_sent_by_another_seat_than_the_one_to_move_is_refused() -> None:
    hand = five_opening()
    assert hand.to_move == 1
    before = list(hand.events)
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(Draw(), player=0)
    assert caught.value.rule == "turn" and "player 1's turn" in str(caught.value)
    assert hand.events == before
    assert hand.apply(Draw(), player=1).action == "draw"


def test_a_placement_off_the_board_or_with_corners_as_a_list() -> None:
    hand = five_opening(racks=("", "4-5-5"))
    own = T("4-5-5")
    assert rule_of(hand, Placement(own, Cell(500, 0, True), (5, 4, 5))) == "on_board"
    listed = Placement(own, D(0, 0), [5, 4, 5])  # type: ignore[arg-type]
    assert hand.apply(listed).corners == (5, 4, 5)


@pytest.mark.parametrize("name", ["classic", "extended", "junior"])
def test_a_shuffled_deal_plays_as_the_same_deal_written_out(name: str) -> None:
    """A hand skips the deal's check for a deal the engine shuffled; the same racks and
    pool written out (and so checked) must give exactly the same hand."""
    rules = preset(name).rules
    shuffled = Deal.shuffle(rules, 3, random.Random(7))
    written = Deal(shuffled.racks, shuffled.pool, shuffled.first)
    assert written == shuffled
    hands = [Hand(rules, deal, rng=random.Random(1)) for deal in (shuffled, written)]
    bot = GreedyBot()
    while not hands[0].is_over:
        action = bot.act(hands[0].observe(hands[0].to_move))
        first, second = (hand.apply(action) for hand in hands)
        assert first == second
    assert hands[0].end == hands[1].end


def test_a_changed_shuffled_deal_is_checked_again() -> None:
    rules = preset("classic").rules
    shuffled = Deal.shuffle(rules, 2, random.Random(7))
    doubled = dataclasses.replace(shuffled, pool=(*shuffled.pool, shuffled.pool[0]))
    with pytest.raises(RuleOptionError):
        Hand(rules, doubled)


@pytest.mark.parametrize("name", ["classic", "extended", "junior"])
def test_is_over_turns_true_with_the_action_that_ends_the_hand(name: str) -> None:
    rules = preset(name).rules
    hand = Hand(rules, Deal.shuffle(rules, 2, random.Random(3)), rng=random.Random(4))
    bot = GreedyBot()
    while hand.phase != "over":
        assert not hand.is_over and hand.end is None
        hand.apply(bot.act(hand.observe(hand.to_move)))
    assert hand.is_over and hand.end is not None
    resumed = Hand.resume(rules, hand.board, hand.racks, [], to_move=0, starter=0)
    assert not resumed.is_over


def test_rearrange_lays_the_same_hidden_tiles_anew_and_refuses_any_other() -> None:
    """Searches and game frameworks lay the hidden tiles themselves (OpenSpiel's chance
    nodes, a determinized world): the same tiles, only placed anew."""
    hand = Hand(CLASSIC_RULES, Deal.shuffle(CLASSIC_RULES, 2, random.Random(3)))
    pool, rack = hand.undrawn(), hand.racks[1]
    tile_set = hand.tile_set
    swapped = [next(iter(indices(rack))), *pool[1:]]
    new_rack = rack & ~(1 << swapped[0]) | 1 << pool[0]
    hand.rearrange(swapped[::-1], {1: new_rack})
    assert hand.undrawn() == swapped[::-1] and hand.racks[1] == new_rack
    assert [tile_set.index(tile) for tile in hand.pool] == swapped[::-1]
    with pytest.raises(ValueError, match="same tiles"):
        hand.rearrange(swapped[1:])  # a tile lost
    with pytest.raises(ValueError, match="same tiles"):
        hand.rearrange(swapped[::-1], {0: hand.racks[0] | 1 << swapped[0]})  # one doubled
    with pytest.raises(ValueError, match="no seat 2"):
        hand.rearrange(swapped[::-1], {2: 0})
    assert hand.undrawn() == swapped[::-1] and hand.racks[1] == new_rack  # nothing changed


def test_draw_next_decides_the_tile_the_next_draw_brings() -> None:
    hand = Hand(CLASSIC_RULES, Deal.shuffle(CLASSIC_RULES, 2, random.Random(4)))
    while hand.phase != "play":
        hand.apply(GreedyBot().act(hand.observe(hand.to_move)))
    last = hand.undrawn()[-1]
    hand.draw_next(last)
    player = hand.to_move
    event = hand.apply(Draw())
    assert event.tile == hand.tile_set.tiles[last] and hand.racks[player] >> last & 1
    with pytest.raises(ValueError, match="not in the pool"):
        hand.draw_next(last)


def test_starter_draw_next_shows_a_tile_not_yet_shown_this_round() -> None:
    rules = EXTENDED_RULES
    hand = Hand(rules, make_deal(rules, ["", "", ""]))
    first, second = hand.starter_drawable()[:2]
    hand.starter_draw_next(first)
    assert shown(hand.apply(StarterDraw())) == hand.tile_set.tiles[first]
    assert first not in hand.starter_drawable() and first in hand.undrawn()
    with pytest.raises(ValueError, match="cannot be drawn"):
        hand.starter_draw_next(first)
    hand.starter_draw_next(second)
    assert shown(hand.apply(StarterDraw())) == hand.tile_set.tiles[second]
