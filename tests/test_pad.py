"""The score pad: each rule's arithmetic on small hand-built hands, refused entries, and
whole engine matches replayed into the pad giving the engine's points hand by hand."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path

import pytest

from junior_games import play_by, table_bots
from triominos.game import Hand, Match
from triominos.pad import (
    FIGURE_NAMES,
    REFUSALS,
    Blocked,
    Correction,
    DrawTiles,
    Entry,
    GoOut,
    LastRound,
    Lay,
    Pad,
    PadError,
    PassTurn,
    TakeJoker,
    entry_from_json,
    entry_to_json,
    pad_rules,
)
from triominos.rules import PRESETS, Rules, preset

PAD_LOCALES = Path(__file__).resolve().parent.parent / "src/triominos/server/static/pad/locales"


def pad(name: str = "classic", players: int = 2, **options: object) -> Pad:
    rules = preset(name).rules.replace(**options)
    return Pad(rules, ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay"][:players], name)


def enter(sheet: Pad, *entries: Entry) -> list[tuple[int, ...]]:
    return [sheet.add(entry).points for entry in entries]


def refused(sheet: Pad, entry: Entry, field: str, words: str) -> None:
    before = sheet.sheet()
    with pytest.raises(PadError) as raised:
        sheet.add(entry)
    assert raised.value.field == field
    assert words in str(raised.value)
    assert sheet.sheet() == before  # a refused entry changes nothing


# --- the arithmetic of each rule -------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "points"), [("5-5-5", 25), ("0-0-0", 40), ("3-3-3", 19), ("4-5-5", 14)]
)
def test_the_opening_scores_its_bonus(tile: str, points: int) -> None:
    assert enter(pad(), Lay(0, tile)) == [(points, 0)]


def test_a_value_only_one_tile_has_names_that_tile() -> None:
    sheet = pad()
    assert enter(sheet, Lay(0, value=15)) == [(25, 0)]  # only 5-5-5 is worth 15
    refused(sheet, Lay(1, value=15), "tile", "5-5-5 is already on the table")
    assert enter(pad(), Lay(1, value=0)) == [(0, 40)]  # 0-0-0


def test_the_extended_opening_has_no_bonus_and_may_be_given_by_value() -> None:
    assert enter(pad("extended"), Lay(1, "5-5-5")) == [(0, 15)]
    assert enter(pad("extended"), Lay(1, value=7)) == [(0, 7)]


def test_a_placement_scores_its_value_and_one_figure() -> None:
    sheet = pad()
    points = enter(
        sheet,
        Lay(0, "5-5-5"),
        Lay(1, "4-5-5", figure="bridge"),
        Lay(0, value=9, figure="hexagon"),
        Lay(1, "2-3-4", figure="double_hexagon"),
        Lay(0, "1-3-2", figure="triple_hexagon"),  # read in any order: it is 1-2-3
    )
    assert points == [(25, 0), (0, 54), (59, 0), (0, 69), (76, 0)]
    assert sheet.running_totals == [160, 123]
    assert sheet.hand.entries[1].bonuses == {"bridge": 40}


def test_three_draws_and_a_pass_cost_25() -> None:
    sheet = pad()
    assert enter(sheet, Lay(0, "5-5-5"), DrawTiles(1, 2), DrawTiles(1), PassTurn(1)) == [
        (25, 0),
        (0, -10),
        (0, -5),
        (0, -10),
    ]
    assert sheet.hand.racks == [8, 12]
    assert sheet.hand.pool == 56 - 18 - 3


def test_a_pass_with_an_empty_pool_costs_nothing_and_its_house_rule_ten() -> None:
    for penalty in (0, 10):
        sheet = pad(players=6, empty_pool_pass_penalty=penalty, max_draws=None)
        enter(sheet, Lay(0, "5-5-5"), DrawTiles(1, 20), Lay(1, "4-5-5"))
        assert sheet.hand.pool == 0
        assert enter(sheet, PassTurn(2)) == [(0, 0, -penalty, 0, 0, 0)]


def test_going_out_scores_25_and_the_others_racks_and_ends_the_hand() -> None:
    sheet = pad(rack_sizes={"2": 2, "3": 2, "4": 2, "5": 2, "6": 2})
    enter(sheet, Lay(0, "5-5-5"), Lay(1, "4-5-5"), Lay(0, "3-4-5"))
    assert sheet.hand.awaiting == "out"
    refused(sheet, Lay(1, "1-1-1"), "kind", "Ann went out")
    assert enter(sheet, GoOut(0, (0, 7))) == [(32, 0)]
    assert [hand.points for hand in sheet.hands] == [[25 + 12 + 32, 14], [0, 0]]
    first = sheet.hands[0]
    assert first.end is not None and first.end.to_json() == {
        "reason": "out",
        "player": 0,
        "settlement": [32, 0],
        "remaining": [0, 7],
    }
    assert sheet.totals == [69, 14]


def test_a_blocked_hand_pays_the_lowest_rack_the_difference() -> None:
    sheet = pad(players=3, max_draws=None)
    enter(sheet, Lay(0, "5-5-5"), DrawTiles(1, 56 - 21), Lay(1, "4-5-5"))
    refused(sheet, Blocked((5, 5)), "remaining", "give 3 rack totals")
    assert enter(sheet, Blocked((5, 5, 20))) == [(20, 20, 0)]


def test_a_blocked_hand_needs_an_empty_pool() -> None:
    refused(pad(), Blocked((1, 2)), "kind", "the pool still holds 38")


def test_each_loses_own_as_a_house_rule() -> None:
    sheet = pad(max_draws=None, blocked="each_loses_own")
    enter(sheet, Lay(0, "5-5-5"), DrawTiles(1, 38))
    assert enter(sheet, Blocked((30, 40))) == [(-30, -40)]


def test_with_the_bell_the_round_is_finished_and_only_the_first_out_scores() -> None:
    sheet = pad("extended", players=3, rack_sizes={str(n): 1 for n in range(2, 7)})
    enter(sheet, Lay(1, "5-5-5"))  # the starter: seat 2 and seat 0 play after
    assert sheet.hand.out == [1] and sheet.hand.awaiting is None
    enter(sheet, Lay(2, "4-5-5"))
    assert sheet.hand.awaiting is None
    enter(sheet, DrawTiles(0, 3), PassTurn(0))
    assert sheet.hand.awaiting == "out"
    refused(sheet, GoOut(2, (5, 0, 0)), "player", "Bob went out first")
    assert enter(sheet, GoOut(1, (5, 0, 0))) == [(0, 30, 0)]
    assert sheet.hands[0].points == [-25, 45, 14]


def test_the_childrens_scoring_counts_one_a_tile_and_five_for_going_out() -> None:
    sheet = pad("classic-children", rack_sizes={str(n): 2 for n in range(2, 7)})
    points = enter(
        sheet, Lay(0, "5-5-5"), DrawTiles(1, 3), PassTurn(1), Lay(0, figure="bridge"), GoOut(0)
    )
    assert points == [(1, 0), (0, 0), (0, 0), (2, 0), (5, 0)]
    assert sheet.is_over and sheet.winners == [0]


def test_junior_pays_counters_from_the_bank() -> None:
    sheet = pad("junior", rack_sizes={"2": 1, "3": 1, "4": 1})
    assert sheet.running_totals == [4, 4] and sheet.bank == 52
    # The last card earns one more counter; a buy costs one and ends the turn.
    assert enter(sheet, Lay(0, "J", figure="hexagon")) == [(3, 0)]
    assert enter(sheet, DrawTiles(1)) == [(0, -1)]
    assert sheet.hand.to_move == 0
    assert enter(sheet, TakeJoker(0, "1-1-1")) == [(0, 0)]
    refused(sheet, TakeJoker(1), "kind", "the joker is not on the table")
    refused(sheet, DrawTiles(1, 2), "count", "at most 1")
    assert sheet.bank == 52 - 3 + 1


def test_juniors_last_round_ends_after_the_next_turn_of_who_took_the_last_card() -> None:
    sheet = pad("junior", players=2, rack_sizes={"2": 6, "3": 6, "4": 6}, starting_score=15)
    pool = sheet.hand.pool
    for turn in range(pool):
        sheet.add(DrawTiles(turn % 2))
    assert sheet.hand.pool == 0 and sheet.hand.awaiting is None
    refused(sheet, Blocked(), "kind", "the last round has begun")
    enter(sheet, PassTurn(1))
    assert sheet.hand.awaiting is None
    enter(sheet, Lay(0))
    assert sheet.hand.awaiting == "last_round"
    refused(sheet, Lay(1), "kind", "the last round is over")
    assert enter(sheet, LastRound()) == [(0, 0)]
    assert sheet.is_over


def test_the_bank_pays_no_more_than_it_holds() -> None:
    sheet = pad("junior", players=4, starting_score=14, bank=60)
    assert sheet.bank == 4
    enter(sheet, Lay(0), Lay(1))
    assert sheet.bank == 2
    assert enter(sheet, Lay(2, figure="double_hexagon")) == [(0, 0, 2, 0)]
    assert sheet.bank == 0


def test_a_correction_adds_points_with_its_note() -> None:
    sheet = pad()
    enter(sheet, Lay(0, "5-5-5"))
    assert enter(sheet, Correction(1, -7, "miscounted")) == [(0, -7)]
    assert sheet.running_totals == [25, -7]


# --- the match ------------------------------------------------------------------------


def test_the_hand_after_a_total_reaches_the_target_is_not_dealt() -> None:
    sheet = pad(target_score=60, rack_sizes={str(n): 2 for n in range(2, 7)})
    enter(sheet, Lay(0, "5-5-5"), Lay(1, "4-5-5"))
    assert not sheet.final_hand
    enter(sheet, Lay(0, "3-5-5", figure="bridge"))
    assert sheet.final_hand  # the "gong": 25 + 53 is past 60
    enter(sheet, GoOut(0, (0, 5)))
    assert sheet.is_over and sheet.winners == [0] and len(sheet.hands) == 1
    refused(sheet, Correction(1, 5), "kind", "the match is over")


def test_a_total_that_falls_back_below_the_target_plays_on() -> None:
    sheet = pad("classic-house", target_score=30, max_draws=None)  # the match ends after a hand
    enter(sheet, Lay(0, "5-5-5"), DrawTiles(1), Lay(1, "4-5-5", figure="bridge"))
    assert sheet.running_totals == [25, 49] and sheet.final_hand
    enter(sheet, Correction(1, -30, "no bridge after all"))
    assert not sheet.final_hand
    enter(sheet, DrawTiles(0, 37), Blocked((20, 20)))
    assert not sheet.is_over and sheet.hand.number == 2


def test_stopping_ends_the_match_where_it_stands() -> None:
    sheet = pad()
    enter(sheet, Lay(0, "5-5-5"), Lay(1, "4-5-5", figure="bridge"))
    sheet.stop()
    assert sheet.is_over and sheet.winners == [1]
    with pytest.raises(PadError, match="stopped"):
        sheet.undo()
    assert Pad.from_json(sheet.to_json()).winners == [1]


def test_undo_takes_back_the_last_entry_even_a_settlement() -> None:
    sheet = pad(rack_sizes={str(n): 1 for n in range(2, 7)})
    enter(sheet, Lay(0, "5-5-5"), GoOut(0, (0, 12)))
    assert sheet.hand.number == 2 and sheet.totals == [62, 0]
    assert sheet.undo() == GoOut(0, (0, 12))
    assert sheet.hand.number == 1 and sheet.hand.awaiting == "out"
    assert sheet.undo() == Lay(0, "5-5-5")
    assert sheet.running_totals == [0, 0] and sheet.hand.racks == [1, 1]
    with pytest.raises(PadError, match="no entry to undo"):
        sheet.undo()


def test_results_count_hands_and_bonuses() -> None:
    sheet = pad(rack_sizes={str(n): 2 for n in range(2, 7)}, target_score=60)
    enter(sheet, Lay(0, "5-5-5"), Lay(1, "4-5-5", figure="bridge"), Lay(0, "1-1-1"))
    enter(sheet, GoOut(0, (0, 5)))
    ann, bob = sheet.results()
    assert (ann.total, ann.won, ann.hands, dict(ann.bonuses)) == (
        58,
        False,
        (58,),
        {"opening_triple": 1},
    )
    assert (bob.total, bob.won, bob.hands, dict(bob.bonuses)) == (54, False, (54,), {"bridge": 1})
    # 58 does not reach 60: a second hand is dealt.
    assert not sheet.is_over


# --- refusals -------------------------------------------------------------------------


def test_impossible_entries_are_refused_naming_the_field() -> None:
    sheet = pad("classic-house")  # no bonus for two sides
    refused(sheet, Lay(0, "6-6-6"), "tile", "not a tile of the classic set")
    refused(sheet, Lay(0, "5-5"), "tile", "three numbers")
    refused(sheet, Lay(0, value=7), "tile", "name the opening tile")
    refused(sheet, DrawTiles(1), "kind", "opening tile")
    refused(sheet, Lay(2, "5-5-5"), "player", "from 0 to 1")
    refused(sheet, Lay(-1, "5-5-5"), "player", "not -1")
    refused(sheet, Lay(0, "5-5-5", figure="bridge"), "figure", "opening tile makes no figure")
    enter(sheet, Lay(0, "5-5-5"))
    refused(sheet, Lay(1, "5-5-5"), "tile", "already on the table")
    refused(sheet, Lay(1, value=16), "value", "no tile of the classic set is worth 16")
    refused(sheet, Lay(1, "1-2-3", value=7), "value", "worth 6")
    refused(sheet, Lay(1, "1-2-3", figure="two_sides"), "figure", "no bonus for two_sides")
    refused(sheet, Lay(1, "1-2-3", figure="star"), "figure", "must be one of")
    refused(sheet, Lay(1), "tile", "name the tile laid or give its value")
    refused(sheet, DrawTiles(1, -2), "count", "at least 1")
    refused(sheet, DrawTiles(1, 4), "count", "at most 3")
    refused(sheet, PassTurn(1), "kind", "Bob can still draw")
    refused(sheet, GoOut(1, (0, 0)), "player", "Bob still holds 9")
    refused(sheet, TakeJoker(1, "1-2-3"), "kind", "without the joker")
    refused(sheet, LastRound(), "kind", "pool's last card")
    refused(sheet, Correction(1, 0), "points", "non-zero")
    enter(sheet, DrawTiles(1, 2))
    refused(sheet, DrawTiles(1, 2), "count", "2 drawn already")


def test_the_extended_set_keeps_mirror_tiles_apart() -> None:
    sheet = pad("extended")
    enter(sheet, Lay(0, "1-2-3"), Lay(1, "1-3-2"))
    refused(sheet, Lay(0, "2-1-3"), "tile", "1-3-2 is already on the table")


def test_settlements_are_checked_against_the_counts() -> None:
    sheet = pad(rack_sizes={str(n): 2 for n in range(2, 7)})
    enter(sheet, Lay(0, "5-5-5"), Lay(1, "4-5-5"), Lay(0, "1-1-1"))
    refused(sheet, GoOut(0), "remaining", "give every player's rack total")
    refused(sheet, GoOut(0, (0, 16)), "remaining", "worth at most 15")
    refused(sheet, GoOut(0, (3, 4)), "remaining", "worth at most 0")
    refused(sheet, GoOut(0, (0, -1)), "remaining", "negative")
    refused(sheet, Blocked((0, 4)), "kind", "settle the hand with go_out")


def test_player_names_and_rules_are_checked() -> None:
    rules = Rules()
    with pytest.raises(PadError, match="players: these rules are for 2 to 6 players"):
        Pad(rules, ["Ann"])
    with pytest.raises(PadError, match="their own name: Ann"):
        Pad(rules, ["Ann", "ann"])
    with pytest.raises(PadError, match="non-empty"):
        Pad(rules, ["Ann", "  "])
    assert Pad(rules, ["  Ann   Lee ", "Bob"]).players == ("Ann Lee", "Bob")
    with pytest.raises(PadError) as raised:
        pad_rules("classic", {"target_score": -3})
    assert raised.value.field == "options.target_score"
    with pytest.raises(PadError, match="preset: must be one of"):
        pad_rules("chess")
    assert pad_rules(None, {"target_score": 200}) == Rules(target_score=200)


def test_entries_from_json_check_their_fields() -> None:
    assert entry_from_json({"kind": "lay", "player": 1, "tile": "1-2-3"}) == Lay(1, "1-2-3")
    assert entry_from_json({"kind": "blocked", "remaining": [1, 2]}) == Blocked((1, 2))
    for data, field in [
        ({"kind": "jump", "player": 1}, "kind"),
        ({"kind": "lay"}, "player"),
        ({"kind": "draw", "player": 0, "count": "2"}, "count"),
        ({"kind": "draw", "player": True}, "player"),
        ({"kind": "lay", "player": 0, "colour": "red"}, "colour"),
        ({"kind": "blocked", "remaining": [1, "x"]}, "remaining"),
        ({"kind": "correction", "player": 0, "points": 3, "note": 4}, "note"),
        ([1, 2], "entry"),
    ]:
        with pytest.raises(PadError) as raised:
            entry_from_json(data)
        assert raised.value.field == field


def test_the_document_round_trips_and_replays_its_checks() -> None:
    sheet = pad("extended", players=3, target_score=200)
    enter(sheet, Lay(2, "2-4-5"), DrawTiles(0, 2), Lay(0, value=8, figure="bridge"))
    enter(sheet, Correction(1, 3, "a late bridge"))
    document = json.loads(json.dumps(sheet.to_json()))
    again = Pad.from_json(document)
    assert again.sheet() == sheet.sheet()
    assert again.rules == sheet.rules and again.players == sheet.players
    document["entries"].append({"kind": "lay", "player": 1, "tile": "2-4-5"})
    with pytest.raises(PadError) as raised:
        Pad.from_json(document)
    assert raised.value.field == "entries.4.tile"
    with pytest.raises(PadError, match="format"):
        Pad.from_json({"format": "something else"})
    assert [entry_from_json(entry_to_json(entry)) for entry in sheet.entries] == list(sheet.entries)


def test_the_csv_lists_every_entry_and_the_totals() -> None:
    sheet = pad(rack_sizes={str(n): 1 for n in range(2, 7)}, target_score=50)
    enter(sheet, Lay(0, "5-5-5"), GoOut(0, (0, 9)))
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows == [
        ["hand", "entry", "player", "detail", "Ann", "Bob"],
        ["1", "1", "Ann", "lay tile=5-5-5 opening_triple+10", "25", "0"],
        ["1", "2", "Ann", "go_out remaining=0/9", "34", "0"],  # a number a player
        ["1", "", "", "hand total", "59", "0"],
        ["", "", "", "match total", "59", "0"],
    ]


def test_a_tile_is_kept_by_its_own_name_however_it_was_read() -> None:
    sheet = pad()
    enter(sheet, Lay(0, "5-5-5"), Lay(1, "5-5-4"), Lay(0, "3-2-1"))
    assert [entry.tile for entry in sheet.entries if isinstance(entry, Lay)] == [
        "5-5-5",
        "4-5-5",
        "1-2-3",
    ]
    assert sheet.to_json()["entries"][2]["tile"] == "1-2-3"


# --- whole engine matches replayed into the pad ----------------------------------------


def replay_into_pad(match: Match, name: str, rng: random.Random) -> Pad:
    """Every action of ``match`` entered into a pad as a player at the table would (tiles
    by name or by value, draws one by one or together), checked hand by hand."""
    sheet = Pad(match.rules, [f"P{seat}" for seat in range(match.players)], name)
    for hand in match.hands:
        assert sheet.hand.number == hand.number
        replay_hand(sheet, hand, rng)
        assert hand.end is not None
        end = hand.end
        remaining = tuple(sum(tile.value for tile in rack) for rack in end.remaining)
        final: Entry | None = None
        if end.reason == "out":
            assert end.player is not None
            final = GoOut(end.player, remaining)
        elif end.reason == "blocked":
            final = Blocked(remaining)
        elif end.reason == "last_round":
            final = LastRound()
        # A total at the target ends the hand by itself (match_end="first_to_target").
        if final is not None:
            assert sheet.add(final).points == end.settlement
        finished = sheet.hands[hand.number - 1]
        assert finished.gong == hand.gong
        assert finished.points == hand.points, f"hand {hand.number}"
        assert finished.end is not None and finished.end.player == end.player
    assert sheet.totals == match.totals
    assert sheet.is_over and sheet.winners == match.winners
    return sheet


def replay_hand(sheet: Pad, hand: Hand, rng: random.Random) -> None:
    events = [event for event in hand.events if event.action != "starter_draw"]
    index = 0
    while index < len(events):
        event = events[index]
        entry: Entry
        points = event.points
        if event.action == "place":
            assert event.tile is not None
            figure = next((name for name, _ in event.bonuses if name in FIGURE_NAMES), None)
            by_value = sheet.hand.starter is not None and rng.random() < 0.3
            if by_value:
                entry = Lay(event.player, value=event.tile.value, figure=figure)
            else:
                entry = Lay(event.player, event.tile.name, figure=figure)
            assert sheet.add(entry).bonuses == dict(event.bonuses)
            assert sheet.hand.points == hand_points_after(hand, event)
            index += 1
            continue
        if event.action in ("draw", "buy"):
            count = 1
            while (
                rng.random() < 0.5
                and index + count < len(events)
                and events[index + count].action == event.action
                and events[index + count].player == event.player
            ):
                count += 1
            entry, points = DrawTiles(event.player, count), event.points * count
        elif event.action == "pass":
            entry = PassTurn(event.player)
        else:
            assert event.action == "take_joker" and event.tile is not None
            entry = TakeJoker(event.player, event.tile.name)
        scored = sheet.add(entry)
        assert scored.points[event.player] == points, f"{entry} in hand {hand.number}"
        index += getattr(entry, "count", 1)


def hand_points_after(hand: Hand, event: object) -> list[int]:
    """The engine's points of the hand up to and with ``event``."""
    points = [0] * hand.players
    for earlier in hand.events:
        points[earlier.player] += earlier.points
        if earlier is event:
            break
    return points


CASES = [
    (name, players)
    for name, chosen in PRESETS.items()
    for players in range(chosen.rules.min_players, chosen.rules.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_matches_replayed_into_the_pad_give_the_engines_totals(
    name: str, players: int
) -> None:
    rules = PRESETS[name].rules
    if rules.target_score is not None:
        rules = rules.replace(target_score=200)  # a few hands each, and fast
    for seed in range(3):
        match = play_by(Match(rules, players, seed), table_bots(players, seed))
        replay_into_pad(match, name, random.Random(seed))


@pytest.mark.parametrize(
    "options",
    [
        {"blocked": "each_loses_own", "max_draws": None, "empty_pool_pass_penalty": 10},
        {"two_sides_bonus": 40, "max_draws": 0, "target_score": 100},
        {"going_out": "finish_round", "opening": "starter_draw", "tile_set": "extended"},
        {"blocked_difference": "each_difference", "blocked_tie": "nobody_scores"},
        {"draw_when": "unable", "match_end": "gong"},
    ],
)
def test_house_rules_replayed_into_the_pad(options: dict[str, object]) -> None:
    rules = Rules(target_score=150).replace(**options)
    for seed, players in [(3, 2), (4, 4)]:
        match = play_by(Match(rules, players, seed), table_bots(players, seed))
        sheet = replay_into_pad(match, "classic", random.Random(seed))
        assert Pad.from_json(json.loads(json.dumps(sheet.to_json()))).sheet() == sheet.sheet()


def test_the_csv_never_hands_a_spreadsheet_a_formula() -> None:
    """A player named ``=HYPERLINK(...)`` is text in the export, not a link to click."""
    names = ['=HYPERLINK("http://x.example")', "+1", "@Bob", "-x"]
    sheet = Pad(preset("classic").rules, names, "classic")
    enter(sheet, Lay(0, "5-5-5"))
    header = next(csv.reader(io.StringIO(sheet.to_csv())))
    assert header[4:] == ['\'=HYPERLINK("http://x.example")', "'+1", "'@Bob", "'-x"]


# --- the end of the match: after the hand, the gong, the first to the target ---------

GONG_RULES = Rules(
    rack_sizes=((2, 2), (3, 2), (4, 2), (5, 2), (6, 2)),
    target_score=25,
    going_out_bonus=0,
    going_out_collects=False,
)
"""Two tiles a rack; seat 0 opens with 5-5-5 for 25, the target, then falls back."""


def gong_pad(match_end: str) -> Pad:
    pad = Pad(GONG_RULES.replace(match_end=match_end), ["Ann", "Bob"])
    pad.add(Lay(0, tile="5-5-5"))
    return pad


def play_on_below_the_target(pad: Pad) -> None:
    """Ann draws three and passes (back to 0); Bob goes out on 21."""
    for entry in (Lay(1, tile="0-5-5"), DrawTiles(0, 3), PassTurn(0), Lay(1, tile="1-5-5")):
        pad.add(entry)
    pad.add(GoOut(1))


def test_pad_after_hand_takes_the_gong_back_when_the_total_falls() -> None:
    pad = gong_pad("after_hand")
    assert pad.final_hand and pad.hand.gong is None
    play_on_below_the_target(pad)
    assert pad.totals == [0, 21] and not pad.is_over and len(pad.hands) == 2


def test_pad_gong_makes_the_hand_the_last_for_good() -> None:
    pad = gong_pad("gong")
    assert pad.hand.gong == 0 and pad.sheet()["hands"][0]["gong"] == 0
    pad.add(Lay(1, tile="0-5-5"))
    pad.add(DrawTiles(0, 3))
    assert pad.running_totals == [10, 10] and pad.final_hand  # below, the gong stands
    pad.add(PassTurn(0))
    pad.add(Lay(1, tile="1-5-5"))
    pad.add(GoOut(1))
    assert pad.is_over and pad.totals == [0, 21] and pad.winners == [1]


def test_pad_first_to_target_ends_the_match_at_once() -> None:
    pad = gong_pad("first_to_target")
    end = pad.hands[0].end
    assert end is not None and (end.reason, end.player) == ("target", 0)
    assert pad.is_over and pad.winners == [0] and pad.totals == [25, 0]
    with pytest.raises(PadError, match="the match is over"):
        pad.add(Lay(1, tile="0-5-5"))
    pad.undo()  # back before the opening: the end goes with it
    assert not pad.is_over and pad.hand.end is None


def test_junior_last_round_before_the_taker_replayed_into_the_pad() -> None:
    rules = PRESETS["junior"].rules.replace(last_round_ends="before_taker")
    for seed, players in [(1, 2), (2, 3), (3, 4)]:
        match = play_by(Match(rules, players, seed), table_bots(players, seed))
        end = match.hands[0].end
        assert end is not None and end.reason == "last_round"
        replay_into_pad(match, "junior", random.Random(seed))


# --- issue 36: the bell round, the dry pool; issue 32: refusals in every language -------


def test_going_out_with_the_bell_is_settled_only_when_the_round_is_played_out() -> None:
    """Seed 001: "Gebeurt dit midden in een ronde, dan moet deze ronde wel uitgespeeld
    worden, zodat alle spelers een gelijk aantal beurten hebben kunnen spelen!"."""
    sheet = pad("extended", players=3, rack_sizes={str(n): 1 for n in range(2, 7)})
    enter(sheet, Lay(1, "5-5-5"))  # Bob opens and goes out: Cas and Ann still play
    refused(sheet, GoOut(1, (5, 0, 5)), "kind", "Cas is still to play")
    enter(sheet, Lay(2, "4-5-5"))
    refused(sheet, GoOut(1, (5, 0, 0)), "kind", "Ann is still to play")
    with pytest.raises(PadError) as raised:
        sheet.add(GoOut(1, (5, 0, 0)))
    assert (raised.value.key, raised.value.params) == (
        "round_not_over",
        {"name": "Bob", "next": "Ann"},
    )
    enter(sheet, DrawTiles(0, 3), PassTurn(0))
    assert sheet.hand.awaiting == "out"
    assert enter(sheet, GoOut(1, (5, 0, 0))) == [(0, 30, 0)]


def test_the_extended_pad_spares_a_pass_when_the_pool_ran_dry() -> None:
    """Seed 001: "de pot is leeg? Uw beurt is voorbij ... (geen min score)"; seed 002
    keeps its -10: "Legt de speler geen steen aan dan krijgt hij nog 10 eens punten
    aftrek"."""
    for name, penalty in (("extended", 0), ("classic-002", 10)):
        racks = (len(preset(name).rules.box) - 4) // 2  # four tiles in the pool
        sheet = pad(name, max_players=2, rack_sizes={"2": racks})
        enter(sheet, Lay(0, "5-5-5"), DrawTiles(1, 2), Lay(1, value=7), Lay(0, value=8))
        enter(sheet, DrawTiles(1, 2))  # the pool runs dry at the second draw
        assert sheet.hand.pool == 0
        assert enter(sheet, PassTurn(1)) == [(0, -penalty)]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("language", ["en", "nl", "fr", "de", "es", "pt"])
def test_every_refusal_has_its_text_in_every_language(language: str) -> None:
    texts = json.loads((PAD_LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    english = json.loads((PAD_LOCALES / "en.json").read_text(encoding="utf-8"))
    for key in REFUSALS:
        text = texts[f"refusal.{key}"]
        assert text.strip() and placeholders(text) == placeholders(english[f"refusal.{key}"])


def test_a_refusal_names_its_reason_and_the_params_its_text_needs() -> None:
    english = json.loads((PAD_LOCALES / "en.json").read_text(encoding="utf-8"))
    sheet = pad()
    for entry in (Lay(0, value=7), DrawTiles(1), Lay(0, "6-6-6"), Blocked((1, 2))):
        with pytest.raises(PadError) as raised:
            sheet.add(entry)
        key = raised.value.key
        assert key in REFUSALS
        assert placeholders(english[f"refusal.{key}"]) == set(raised.value.params)


def test_a_saved_pad_keeps_its_rules_when_an_option_is_added_later() -> None:
    """An extended pad saved before ``dry_pool_no_penalty`` existed charged -10 for the
    pass after a draw that emptied the pool; replayed, its rules (not the preset's
    value now) decide, as in a record."""
    racks = (len(preset("extended").rules.box) - 2) // 2  # two tiles in the pool
    sheet = pad("extended", max_players=2, rack_sizes={"2": racks}, dry_pool_no_penalty=False)
    enter(sheet, Lay(0, "5-5-5"), DrawTiles(1, 2), PassTurn(1))
    document = sheet.to_json()
    del document["rules"]["dry_pool_no_penalty"]
    assert Pad.from_json(document).running_totals == sheet.running_totals == [15, -20]
