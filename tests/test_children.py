"""The children's scoring of seeds 001 and 004, as the presets classic-children and
extended-children: one point a tile, small bonuses, +5 for going out, nothing negative."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from triominos.board import Board, Placement
from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import Deal, Draw, Hand, Match, Pass, StarterDraw, placement_points
from triominos.lattice import ORIGIN, Cell
from triominos.rules import CHILDREN_SCORING, PRESETS, Rules
from triominos.tiles import Tile

SMALL = ((2, 2), (3, 2), (4, 2), (5, 2), (6, 2))
FIGURES = {"hexagon": 1, "double_hexagon": 2, "triple_hexagon": 3, "bridge": 4}


def children(name: str = "classic-children") -> Rules:
    return PRESETS[name].rules.replace(rack_sizes=SMALL)


def deal(rules: Rules, racks: Sequence[str], pool: Sequence[str] = ()) -> Deal:
    chosen = [tuple(Tile.from_name(n) for n in rack.split()) for rack in racks]
    first = [Tile.from_name(n) for n in pool]
    used = {*first, *(t for rack in chosen for t in rack)}
    return Deal(tuple(chosen), tuple(first + [t for t in rules.box if t not in used]))


def test_the_presets_are_the_classic_and_extended_games_with_the_children_values() -> None:
    for name, base in (("classic-children", "classic"), ("extended-children", "extended")):
        rules = PRESETS[name].rules
        assert rules == PRESETS[base].rules.replace(**CHILDREN_SCORING)
        assert "001_1b09aa5bbd6db9b8.txt" in PRESETS[name].seeds


@pytest.mark.parametrize(
    ("figure", "points"),
    [(None, 1), ("bridge", 2), ("hexagon", 2), ("double_hexagon", 3), ("triple_hexagon", 4)],
)
def test_one_point_a_tile_and_the_small_bonuses(figure: str | None, points: int) -> None:
    rules = children()
    code = FIGURES[figure] if figure else 0
    value = rules.tile_values[rules.tiles.index(Tile(5, 5, 5))]
    assert value == 1
    assert placement_points(rules, value, code, False)[0] == points


def test_a_hand_scores_one_a_tile_and_five_for_going_out_and_nothing_else() -> None:
    rules = children()
    hand = Hand(rules, deal(rules, ["5-5-5 3-5-5", "4-5-5 1-1-1"]))
    assert hand.to_move == 0
    opening = hand.apply(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    assert opening.points == 1 and opening.bonuses == ()  # no opening bonus
    hand.apply(Placement(Tile(4, 5, 5), Cell(0, 0, False), (5, 4, 5)))
    hand.apply(Placement(Tile(3, 5, 5), Cell(-1, 0, False), (3, 5, 5)))
    assert hand.end is not None and hand.end.reason == "out"
    assert hand.end.settlement == (5, 0)  # the others' racks are not collected
    assert hand.points == [7, 1]
    match = Match(rules, 2, seed=1, deals=[deal(rules, ["5-5-5 3-5-5", "4-5-5 1-1-1"])])
    for action in [event_action(event) for event in hand.events]:
        match.apply(action)
    assert match.is_over and match.totals == [7, 1] and match.winners == [0]


def event_action(event: object) -> Placement:
    assert isinstance(event, tuple)
    return Placement(event.tile, event.cell, event.corners)  # type: ignore[attr-defined]


def test_draws_and_passes_cost_nothing() -> None:
    rules = children()
    hand = Hand(rules, deal(rules, ["5-5-5 0-0-1", "0-1-1 0-0-2"], ["0-1-2", "0-2-2", "0-0-3"]))
    hand.apply(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    events = [hand.apply(Draw()) for _ in range(3)]
    events.append(hand.apply(Pass()))
    assert [event.points for event in events] == [0, 0, 0, 0]
    assert min(hand.points) >= 0


def test_a_blocked_hand_settles_nothing() -> None:
    rules = children()
    board = Board(rules.tiles)
    board.push(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    racks = [rules.tiles.mask([Tile(0, 0, 1)]), rules.tiles.mask([Tile(1, 2, 3), Tile(0, 0, 2)])]
    hand = Hand.resume(rules, board, racks, [], to_move=0, starter=0)
    assert [option.action for option in hand.legal_actions()] == [Pass()]
    hand.apply(Pass())
    assert hand.end is not None and hand.end.reason == "blocked"
    assert hand.end.settlement == (0, 0)  # classic rules would give seat 0 +5
    assert PRESETS["classic"].rules.blocked == "lowest_scores_difference"


def test_with_the_bell_only_the_first_player_out_scores_five() -> None:
    rules = children("extended-children")
    starters: Iterator[Tile] = iter([Tile(0, 0, 1), Tile(0, 1, 1), Tile(4, 4, 5)])
    racks = ["4-5-5 0-5-4", "3-5-5 1-1-1", "5-5-5 2-5-5"]
    hand = Hand(rules, deal(rules, racks, ["0-0-2", "0-0-3", "1-1-2"]), starter_tiles=starters)
    while hand.phase == "starter_draw":
        hand.apply(StarterDraw())
    assert hand.starter == 2
    hand.apply(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    hand.apply(Placement(Tile(4, 5, 5), Cell(0, 0, False), (5, 4, 5)))
    hand.apply(Placement(Tile(3, 5, 5), Cell(-1, 0, False), (3, 5, 5)))
    hand.apply(Placement(Tile(2, 5, 5), Cell(0, -1, False), (5, 5, 2)))  # seat 2 is out
    hand.apply(Placement(Tile(0, 5, 4), Cell(1, 0, True), (5, 4, 0)))  # seat 0 is out too
    for _ in range(3):
        hand.apply(Draw())
    hand.apply(Pass())
    assert hand.end is not None and (hand.end.reason, hand.end.player) == ("out", 2)
    assert hand.end.settlement == (0, 0, 5)
    assert hand.points == [2, 1, 7]


@pytest.mark.parametrize("name", ["classic-children", "extended-children"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_children_games_never_go_negative(name: str, players: int) -> None:
    match = Match(PRESETS[name].rules, players, seed=players)
    bots: list[Bot] = [GreedyBot() if seat % 2 else RandomBot(seat) for seat in range(players)]
    while not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
        assert min(match.observe(None).totals) >= 0
    assert len(match.hands) == 1
    hand = match.hand
    laid = [
        sum(1 for e in hand.events if e.action == "place" and e.player == s) for s in range(players)
    ]
    assert all(total >= count for total, count in zip(match.totals, laid, strict=True))


def test_board_figures_feed_the_children_bonuses() -> None:
    from shapes import HEXAGON, lay_shape, placement_for

    rules = PRESETS["extended-children"].rules
    board = Board(rules.tiles)
    lay_shape(board, HEXAGON[0])
    target = placement_for(HEXAGON[1])
    assert board.figure(target.cell) == "hexagon"
    value = rules.tile_values[rules.tiles.index(target.tile)]
    assert placement_points(rules, value, FIGURES["hexagon"], False) == (2, {"hexagon": 1})
