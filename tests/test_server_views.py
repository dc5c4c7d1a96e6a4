"""What a viewer gets: views and events built per seat, and action objects parsed back."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

import msgspec

from junior_games import can_take_joker, first_position, positions
from triominos.board import Placement
from triominos.bots.hint import Hint
from triominos.game import Draw, Match, Pass, StarterDraw, TakeJoker, action_json
from triominos.lattice import Cell
from triominos.rules import PRESETS, preset
from triominos.server.store import SeatInfo, TableInfo
from triominos.server.views import (
    ActionFieldError,
    LoggedEvent,
    ViewCache,
    build_view,
    event_json,
    hints_json,
    parse_action,
    seats_json,
    table_summary,
)
from triominos.tiles import Tile


def table_info(match: Match, name: str = "classic") -> TableInfo:
    seats = tuple(
        SeatInfo(seat, "person", f"P{seat}", token_hash="x" * 64) for seat in range(match.players)
    )
    return TableInfo(
        1, "ABCDEF", name, match.rules, match.players, 0, None, "playing", 0.0, None, None, seats
    )


def view(match: Match, seat: int | None, *, may_act: bool = True) -> dict[str, Any]:
    return build_view(
        table_info(match),
        match,
        seat=seat,
        version=7,
        connected={0},
        bot_allowed_at=[None] * match.players,
        may_act=may_act,
        turn_deadline=None,
    )


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("extended", 3), ("junior", 3)])
def test_every_legal_action_parses_back_to_itself(name: str, players: int) -> None:
    checked = 0
    for match in positions(name, players, seed=4):
        if match.is_over:
            break
        board = match.hand.board
        for option in match.legal_actions():
            sent = action_json(option.action, board.joker_cell)
            assert parse_action(sent, match.rules, board) == option.action
            checked += 1
    assert checked > 100


def test_taking_the_joker_back_names_the_joker_cell_and_parses_back() -> None:
    match = first_position(can_take_joker)
    board = match.hand.board
    take = next(o.action for o in match.legal_actions() if isinstance(o.action, TakeJoker))
    sent = action_json(take, board.joker_cell)
    assert sent["action"] == "take_joker" and board.joker_cell is not None
    assert sent["cell"] == board.joker_cell.to_json()
    assert parse_action(sent, match.rules, board) == take
    elsewhere = {**sent, "cell": [40, 40, "up"]}
    with pytest.raises(ActionFieldError) as error:
        parse_action(elsewhere, match.rules, board)
    assert error.value.field == "action.cell"


def test_simple_actions_parse_and_buy_is_a_draw_with_a_bank() -> None:
    rules, board = PRESETS["classic"].rules, Match().hand.board
    assert parse_action({"action": "draw"}, rules, board) == Draw()
    assert parse_action({"action": "buy"}, PRESETS["junior"].rules, board) == Draw()
    with pytest.raises(ActionFieldError, match=r"needs a bank \(rule bank\)"):
        parse_action({"action": "buy"}, rules, board)
    assert parse_action({"action": "pass"}, rules, board) == Pass()
    assert parse_action({"action": "starter_draw"}, rules, board) == StarterDraw()
    placement = parse_action(
        {"action": "place", "tile": "1-2-3", "cell": [0, 0, "up"], "corners": [2, 3, 1]},
        rules,
        board,
    )
    assert placement == Placement(Tile(1, 2, 3), Cell(0, 0, True), (2, 3, 1))


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        ({"action": "jump"}, "action.action", "must be one of"),
        ({}, "action.action", "not null"),
        ({"action": "place", "cell": [0, 0, "up"], "corners": [1, 2, 3]}, "action.tile", "missing"),
        (
            {"action": "place", "tile": 5, "cell": [0, 0, "up"], "corners": [1, 2, 3]},
            "action.tile",
            "tile name",
        ),
        (
            {"action": "place", "tile": "1-2", "cell": [0, 0, "up"], "corners": [1, 2, 3]},
            "action.tile",
            "three numbers",
        ),
        (
            {"action": "place", "tile": "J", "cell": [0, 0, "up"], "corners": [1, 2, 3]},
            "action.tile",
            "not a tile",
        ),
        ({"action": "place", "tile": "1-2-3", "corners": [1, 2, 3]}, "action.cell", "missing"),
        (
            {"action": "place", "tile": "1-2-3", "cell": [0, 0, "left"], "corners": [1, 2, 3]},
            "action.cell",
            "cell is written",
        ),
        (
            {"action": "place", "tile": "1-2-3", "cell": [10**9, 0, "up"], "corners": [1, 2, 3]},
            "action.cell",
            "outside the board",
        ),
        ({"action": "place", "tile": "1-2-3", "cell": [0, 0, "up"]}, "action.corners", "missing"),
        (
            {"action": "place", "tile": "1-2-3", "cell": [0, 0, "up"], "corners": [1, 2]},
            "action.corners",
            "three numbers",
        ),
        (
            {"action": "place", "tile": "1-2-3", "cell": [0, 0, "up"], "corners": [1, None, 3]},
            "action.corners[1]",
            "only the joker has free corners",
        ),
        (
            {"action": "place", "tile": "1-2-3", "cell": [0, 0, "up"], "corners": [1, True, 3]},
            "action.corners[1]",
            "whole number",
        ),
    ],
)
def test_an_action_that_is_no_action_names_its_field(
    sent: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(ActionFieldError, match=words) as error:
        parse_action(sent, PRESETS["classic"].rules, Match().hand.board)
    assert error.value.field == field
    assert str(error.value).startswith(field)


def played_until_a_draw(name: str = "classic") -> tuple[Match, LoggedEvent]:
    for match in positions(name, 2, seed=1):
        hand = match.hand
        if hand.events and hand.events[-1].action == "draw":
            event = hand.events[-1]
            return match, LoggedEvent(9, hand.number, event, None, None)
    raise AssertionError("no draw in the game")


def test_a_drawn_tile_is_shown_to_its_drawer_only() -> None:
    match, logged = played_until_a_draw()
    drawer = logged.event.player
    rules = match.rules
    mine = event_json(logged, drawer, rules)
    assert mine["tile"] == logged.event.tile.name and mine["hand"] == logged.hand  # type: ignore[union-attr]
    for seat in (1 - drawer, None):
        seen = event_json(logged, seat, rules)
        assert "tile" not in seen
        assert seen == {"hand": logged.hand, "player": drawer, "action": "draw", "points": -5}


def test_with_open_racks_every_draw_is_shown() -> None:
    match, logged = played_until_a_draw()
    rules = match.rules.replace(open_racks=True)
    assert event_json(logged, None, rules)["tile"] == logged.event.tile.name  # type: ignore[union-attr]


def test_an_event_that_ends_the_match_carries_the_end_and_the_winners() -> None:
    match = Match(preset("classic-children").rules, 2, seed=3)
    while not match.is_over:
        event = match.apply(match.legal_actions()[0].action)
    end = match.hand.end
    assert end is not None
    body = event_json(LoggedEvent(50, 1, event, end, tuple(match.winners)), None, match.rules)
    assert body["end"] == end.to_record() and body["winners"] == match.winners


def test_a_seat_sees_its_rack_and_the_player_to_move_its_legal_actions() -> None:
    match = Match.from_preset("classic", 2, seed=8)
    to_move = match.to_move
    mine = view(match, to_move)
    assert mine["rack"] == [tile.name for tile in match.hand.rack(to_move)]
    assert len(mine["legal"]) == len(match.legal_actions()) > 0
    assert mine["version"] == 7 and mine["code"] == "ABCDEF" and mine["seat"] == to_move
    assert mine["seats"][0]["connected"] and not mine["seats"][1]["connected"]
    other = view(match, 1 - to_move)
    assert other["rack"] == [tile.name for tile in match.hand.rack(1 - to_move)]
    assert other["legal"] == []
    assert view(match, to_move, may_act=False)["legal"] == []


def test_a_spectator_sees_no_rack_and_no_drawn_tile() -> None:
    match, _ = played_until_a_draw()
    watched = view(match, None)
    assert watched["rack"] is None and watched["legal"] == [] and watched["open_racks"] is None
    assert all("tile" not in event for event in watched["history"] if event["action"] == "draw")
    assert watched["rack_sizes"] == [len(match.hand.rack(seat)) for seat in range(2)]


def test_the_board_is_in_placement_order() -> None:
    match = Match.from_preset("classic", 2, seed=8)
    placed: list[str] = []
    while len(placed) < 5:
        event = match.apply(match.legal_actions()[0].action)
        if event.action == "place":
            placed.append(event.tile.name)  # type: ignore[union-attr]
    assert [entry["tile"] for entry in view(match, None)["board"]] == placed


def test_finished_hands_are_listed_with_their_end_and_history() -> None:
    match = Match(preset("classic").rules.replace(target_score=10_000, hand_limit=2), 2, seed=5)
    while len(match.hands) < 2:
        match.apply(match.legal_actions()[0].action)
    first = match.hands[0]
    hands = view(match, None)["hands"]
    assert len(hands) == 1
    assert hands[0]["number"] == 1 and hands[0]["points"] == first.points
    assert hands[0]["end"] == first.end.to_record()  # type: ignore[union-attr]
    assert len(hands[0]["history"]) == len(first.events)
    assert view(match, None)["history"] == []


@pytest.mark.parametrize(("name", "players", "seed"), [("classic", 2, 3), ("junior", 3, 0)])
def test_a_table_cache_gives_every_seat_the_view_built_from_scratch(
    name: str, players: int, seed: int
) -> None:
    """Through a whole match (draws, hands that end, Junior's joker taken back), the
    cached views are the views built from nothing, and a view once made never changes."""
    cache = ViewCache()
    made: list[tuple[dict[str, Any], bytes]] = []
    for match in positions(name, players, seed):
        info = table_info(match)
        for seat in [None, *range(players)]:
            cached = build_view(
                info,
                match,
                seat=seat,
                version=7,
                connected={0},
                bot_allowed_at=[None] * players,
                may_act=True,
                turn_deadline=None,
                cache=cache,
            )
            assert cached == view(match, seat)
            made.append((cached, msgspec.json.encode(cached)))
    actions = [event.action for hand in match.hands for event in hand.events]
    assert len(match.hands) > 1 or "take_joker" in actions
    assert all(msgspec.json.encode(cached) == text for cached, text in made)


def test_junior_views_show_the_bank_and_open_racks_when_the_rules_say_so() -> None:
    rules = PRESETS["junior"].rules.replace(open_racks=True, joker=False)
    match = Match(rules, 2, seed=2)
    watched = view(match, None)
    assert watched["bank"] == 60 - 8
    assert watched["open_racks"] == [[tile.name for tile in match.hand.rack(s)] for s in range(2)]


def test_hints_carry_the_points_their_placement_scores_now() -> None:
    match = Match.from_preset("classic", 2, seed=8)
    legal = match.legal_actions()
    best = max(legal, key=lambda option: option.points)
    body = hints_json([Hint(best.action, 12.345)], legal, match.hand.board, match.rules)
    assert body == [
        {
            "action": action_json(best.action, match.hand.board.joker_cell),
            "points": best.points,
            "bonuses": dict(best.bonuses),
            "value": 12.35,
        }
    ]


@pytest.mark.parametrize(("draw_ends_turn", "place_after"), [(False, True), (True, False)])
def test_a_draw_on_purpose_says_why(draw_ends_turn: bool, place_after: bool) -> None:
    # The house reading offers a draw beside a fitting tile (seed 002 does not).
    rules = PRESETS["classic-house"].rules.replace(draw_ends_turn=draw_ends_turn, draw_penalty=7)
    match = Match(rules, 2, seed=8)
    while not {Draw, Placement} <= {type(option.action) for option in match.legal_actions()}:
        match.apply(max(match.legal_actions(), key=lambda option: option.points).action)
    legal = match.legal_actions()
    best = max(o.points for o in legal if isinstance(o.action, Placement))
    (body,) = hints_json([Hint(Draw(), 3.0)], legal, match.hand.board, rules)
    assert body["action"] == {"action": "draw"}
    assert body["fishing"] == {"best": best, "cost": 7, "place_after": place_after}


def test_seats_and_summaries_show_who_is_here_and_no_secret() -> None:
    match = Match.from_preset("classic", 2, seed=8)
    info = table_info(match)
    seats = seats_json(
        (info.seats[0], SeatInfo(1, "bot", "sim", "sim", 1.0, "b" * 64)),
        connected=set(),
        bot_allowed_at=[75.0, None],
    )
    assert seats == [
        {
            "name": "P0",
            "kind": "person",
            "bot": None,
            "think": None,
            "connected": False,
            "bot_allowed_at": 75.0,
            "returns": False,
        },
        {
            "name": "sim",
            "kind": "bot",
            "bot": "sim",
            "think": 1.0,
            "connected": True,
            "bot_allowed_at": None,
            "returns": True,  # a person may take the seat back
        },
    ]
    summary = table_summary(
        info,
        link="http://x/t/ABCDEF",
        version=3,
        connected={1},
        bot_allowed_at=[None, None],
        totals=[5, 0],
        to_move=0,
        turn_deadline=None,
        rematch=None,
    )
    assert summary["to_move"] == 0
    assert summary["seats"][1]["connected"] and not summary["seats"][0]["connected"]
    assert "token_hash" not in str(summary) and "x" * 64 not in str(summary)
    assert summary["totals"] == [5, 0] and summary["version"] == 3
