"""Game records: engine -> record -> engine gives the same game; broken records are caught."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import junior_games
from triominos.board import Placement
from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import Match
from triominos.record import (
    FORMAT,
    PlayerInfo,
    RecordError,
    VerificationError,
    dumps_record,
    iter_records,
    load_match,
    match_record,
    read_records,
    replay_steps,
    verify,
    write_records,
)
from triominos.rules import PRESETS, Rules
from triominos.tiles import Tile

Document = dict[str, Any]

CLASSIC = PRESETS["classic"].rules
EXTENDED = PRESETS["extended"].rules


def seat_bots(players: int, seed: int) -> list[Bot]:
    """Greedy and random bots taking turns at the seats."""
    return [GreedyBot() if seat % 2 == 0 else RandomBot(seed * 8 + seat) for seat in range(players)]


def play(rules: Rules, players: int, seed: int, actions: int | None = None) -> Match:
    """A match played by bots to its end, or for ``actions`` actions."""
    return junior_games.play_by(Match(rules, players, seed), seat_bots(players, seed), actions)


def set_at(document: Any, path: tuple[str | int, ...], value: Any) -> None:
    """Put ``value`` at ``path`` inside a record document (keys and list indices)."""
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def assert_round_trip(match: Match) -> None:
    """Engine -> record -> JSON -> engine gives the same game and the same record."""
    document = match_record(match)
    parsed = json.loads(dumps_record(document))
    assert parsed == document
    replayed = load_match(parsed)
    assert_same_game(match, replayed)
    assert match_record(replayed) == document


def assert_same_game(original: Match, replayed: Match) -> None:
    assert len(replayed.hands) == len(original.hands)
    for mine, theirs in zip(original.hands, replayed.hands, strict=True):
        assert theirs.events == mine.events
        assert theirs.end == mine.end
        assert theirs.points == mine.points
        assert theirs.racks == mine.racks
        assert theirs.pool == mine.pool
        assert list(theirs.board) == list(mine.board)
        assert (theirs.phase, theirs.to_move, theirs.starter) == (
            mine.phase,
            mine.to_move,
            mine.starter,
        )
    assert replayed.totals == original.totals
    assert replayed.winners == original.winners
    assert replayed.is_over == original.is_over


@cache
def _finished(preset: str, players: int, seed: int, target: int | None) -> Document:
    rules = PRESETS[preset].rules
    if target is not None:
        rules = rules.replace(target_score=target)
    return match_record(play(rules, players, seed))


def finished(
    preset: str = "classic", players: int = 2, seed: int = 1, target: int | None = None
) -> Document:
    """A fresh copy of a finished match's record, safe to tamper with."""
    document: Document = copy.deepcopy(_finished(preset, players, seed, target))
    return document


def several_hands() -> Document:
    """A record of at least three hands."""
    for seed in range(40):
        document = finished(players=4, seed=seed, target=300)
        if len(document["hands"]) >= 3:
            return document
    raise AssertionError("no seed gives three hands")


def actions_of(document: Document, kind: str) -> list[tuple[int, int, dict[str, Any]]]:
    """(hand position, action index, action) of every action of a kind."""
    return [
        (position, index, action)
        for position, hand in enumerate(document["hands"])
        for index, action in enumerate(hand["actions"])
        if action["action"] == kind
    ]


def record_error(document: Document, line: int | None = None) -> RecordError:
    with pytest.raises(RecordError) as caught:
        load_match(document, line=line)
    return caught.value


def verification_error(document: Document, index: int = 1) -> VerificationError:
    with pytest.raises(VerificationError) as caught:
        load_match(document, index=index)
    return caught.value


# --- round trips --------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "extended"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_record_replays_to_the_same_match(preset: str, players: int) -> None:
    for seed in (players, 100 + players):
        match = play(PRESETS[preset].rules.replace(target_score=200), players, seed)
        assert_round_trip(match)


@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC,
        EXTENDED,
        CLASSIC.replace(blocked="each_loses_own", max_draws=None, target_score=150),
        CLASSIC.replace(going_out="finish_round", two_sides_bonus=5, target_score=150),
        EXTENDED.replace(target_score=None, hand_limit=2),
    ],
    ids=["classic", "extended", "each-loses-own", "finish-round", "hand-limit"],
)
def test_house_rules_replay_too(rules: Rules) -> None:
    match = play(rules, 3, 11)
    document = match_record(match)
    assert document["rules"] == rules.to_dict()
    assert_same_game(match, load_match(json.loads(dumps_record(document))))


def test_the_document_follows_record_md() -> None:
    document = finished()
    assert document["format"] == FORMAT == "triominos-record/1"
    assert document["preset"] == "classic"
    assert document["players"] == [
        {"name": "player 0", "kind": "bot"},
        {"name": "player 1", "kind": "bot"},
    ]
    first = document["hands"][0]
    assert first["number"] == 1
    assert len(first["deal"]["racks"]) == 2
    assert all(len(rack) == 9 for rack in first["deal"]["racks"])
    assert len(first["deal"]["pool"]) == 56 - 18
    opening = first["actions"][0]
    assert opening["player"] == first["starter"]
    assert set(opening) == {"player", "action", "tile", "cell", "corners", "points", "bonuses"}
    assert opening["cell"] == [0, 0, "up"]
    assert set(first["end"]) == {"reason", "player", "settlement", "remaining"}
    totals = [0, 0]
    for hand in document["hands"]:
        totals = [
            total
            + sum(a.get("points", 0) for a in hand["actions"] if a["player"] == seat)
            + hand["end"]["settlement"][seat]
            for seat, total in enumerate(totals)
        ]
        assert hand["scores"] == totals
    assert document["scores"] == totals
    assert document["winners"] == [totals.index(max(totals))]


def test_starter_draws_are_actions_before_the_opening() -> None:
    document = finished("extended", players=3, seed=4)
    for hand in document["hands"]:
        draws = [a for a in hand["actions"] if a["action"] == "starter_draw"]
        assert len(draws) >= 3
        assert hand["actions"][: len(draws)] == draws
        assert all(set(draw) == {"player", "action", "tile"} for draw in draws)
        assert hand["actions"][len(draws)]["player"] == hand["starter"]


@pytest.mark.parametrize("actions", [0, 1, 2, 5, 40, 120])
@pytest.mark.parametrize("preset", ["classic", "extended"])
def test_an_unfinished_match_replays_to_the_same_position(preset: str, actions: int) -> None:
    match = play(PRESETS[preset].rules.replace(target_score=100), 2, 3, actions)
    document = match_record(match)
    if not match.is_over:
        assert "end" not in document["hands"][-1]
        assert document["winners"] == []
    replayed = load_match(json.loads(dumps_record(document)))
    assert_same_game(match, replayed)
    # Both go on the same way, except for starter draws that the record does not hold yet.
    bots = seat_bots(2, 3)
    same = match.hand.phase != "starter_draw"
    while not replayed.is_over:
        action = bots[replayed.to_move].act(replayed.observe(replayed.to_move))
        event = replayed.apply(action)
        if same:
            assert event == match.apply(action)


def test_a_record_right_after_a_hand_ends_holds_the_next_deal() -> None:
    document = several_hands()
    rules = Rules.from_dict(document["rules"])
    match = Match(rules, 4, document["seed"])
    bots = seat_bots(4, document["seed"])
    while len(match.hands) < 2:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
    unfinished = match_record(match)
    assert unfinished["hands"][-1]["actions"] == []
    assert unfinished["scores"] == unfinished["hands"][0]["scores"]
    assert_same_game(match, load_match(unfinished))


def test_players_and_preset_are_written_as_given() -> None:
    match = play(CLASSIC.replace(target_score=50), 2, 1)
    players = [PlayerInfo("Ann", "human"), PlayerInfo("greedy")]
    document = match_record(match, players, preset="house")
    assert document["players"] == [
        {"name": "Ann", "kind": "human"},
        {"name": "greedy", "kind": "bot"},
    ]
    assert document["preset"] == "house"
    assert match_record(match)["preset"] is None  # no preset has a target of 50
    load_match(document)
    with pytest.raises(ValueError, match="has 2 players, not 1"):
        match_record(match, players[:1])
    with pytest.raises(ValueError, match="'human' or 'bot'"):
        PlayerInfo("Eve", "alien")


def test_verify_is_load_match() -> None:
    document = finished()
    assert verify(document).totals == load_match(document).totals


def test_replay_steps_show_each_action_on_the_live_hand() -> None:
    document = finished("extended", players=2, seed=5)
    steps = list(replay_steps(document))
    assert len(steps) == sum(len(hand["actions"]) for hand in document["hands"])
    step = next(iter(replay_steps(document)))
    assert (step.hand_number, step.action_index) == (1, 0)
    placed = 0
    for step in replay_steps(document):
        recorded = document["hands"][step.hand_number - 1]["actions"][step.action_index]
        assert step.event.to_record() == recorded
        if step.action_index == 0:
            placed = 0
        if step.event.action == "place":
            placed += 1
            assert step.event.cell is not None
            assert step.hand.board.tile_at(step.event.cell) is not None
        assert len(step.hand.board) == placed  # the live board, just after the action
    assert steps[0].hand is steps[1].hand


def test_replay_steps_check_as_they_go() -> None:
    document = finished()
    document["hands"][0]["actions"][3]["points"] += 1
    steps = replay_steps(document)
    for _ in range(3):
        next(steps)
    with pytest.raises(VerificationError, match="action 3: points are"):
        next(steps)


# --- files --------------------------------------------------------------------------


def test_json_lines_hold_many_records(tmp_path: Path) -> None:
    documents = [finished(players=2 + seed % 5, seed=seed, target=100) for seed in range(12)]
    path = tmp_path / "records.jsonl"
    write_records(path, documents)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert len(lines) == 13 and lines[-1] == ""
    assert lines[0] == dumps_record(documents[0])
    assert read_records(path) == documents
    for index, (line, document) in enumerate(iter_records(str(path)), 1):
        assert line == index
        load_match(document, index=index, line=line)


def test_blank_lines_are_skipped_and_lines_still_counted(tmp_path: Path) -> None:
    document = finished()
    path = tmp_path / "records.jsonl"
    path.write_text(f"\n{dumps_record(document)}\n\n  \n{dumps_record(document)}\n")
    assert [line for line, _ in iter_records(path)] == [2, 5]


def test_a_file_may_hold_one_indented_document(tmp_path: Path) -> None:
    document = finished()
    path = tmp_path / "record.json"
    path.write_text("\n" + json.dumps(document, indent=2))
    assert list(iter_records(path)) == [(2, document)]


def test_names_keep_every_character(tmp_path: Path) -> None:
    match = play(CLASSIC.replace(target_score=50), 2, 1)
    document = match_record(match, [PlayerInfo("Zoë\u2028"), PlayerInfo("李")])
    path = tmp_path / "records.jsonl"
    write_records(path, [document, document])
    assert read_records(path) == [document, document]


# --- malformed files and documents ---------------------------------------------------


def error_reading(tmp_path: Path, text: str | bytes) -> RecordError:
    path = tmp_path / "records.jsonl"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        read_records(path)
    return caught.value


def test_a_line_that_is_not_json_is_named(tmp_path: Path) -> None:
    good = dumps_record(finished())
    error = error_reading(tmp_path, f"{good}\n{good}\n{good[:-9]}\n{good}\n")
    assert error.line == 3
    assert str(error).startswith("line 3: not JSON: ")


def test_a_syntax_error_in_a_long_document_is_found_by_line(tmp_path: Path) -> None:
    text = json.dumps(finished(), indent=2).replace('"seed"', "seed", 1)
    error = error_reading(tmp_path, text)
    wanted = next(
        n for n, line in enumerate(text.split("\n"), 1) if line.strip().startswith("seed")
    )
    assert error.line == wanted
    assert "not JSON: Expecting property name" in str(error)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: the file holds no record"),
        ("[1, 2]\n", "line 1: a record is a JSON object, not an array"),
        ('{"format": "triominos-record/1"}\n"x"\n', "line 2: a record is a JSON object, not a "),
        ('\n{"hands": []}\n', 'line 2: format: missing; a record begins with "format": '),
        (
            '{"format": "pgn"}',
            "line 1: format: is \"pgn\"; this program reads 'triominos-record/1'",
        ),
        (b"\xff\xfe{}", "the file is not UTF-8 text"),
    ],
)
def test_files_that_hold_no_record(tmp_path: Path, text: str | bytes, message: str) -> None:
    assert str(error_reading(tmp_path, text)).startswith(message)


def test_a_missing_field_is_named_with_its_path_and_line() -> None:
    document = finished()
    del document["hands"][0]["deal"]
    error = record_error(document, line=4)
    assert (error.line, error.field) == (4, "hands[0].deal")
    assert str(error) == "line 4: hands[0].deal: missing"
    document = finished()
    del document["winners"]
    assert str(record_error(document)) == "winners: missing"


def test_an_unknown_tile_name_is_named() -> None:
    document = finished()
    document["hands"][0]["actions"][0]["tile"] = "9-9-9"
    error = record_error(document, line=1)
    assert error.field == "hands[0].actions[0].tile"
    assert str(error) == "line 1: hands[0].actions[0].tile: 9-9-9 is not a tile of the classic set"
    document["hands"][0]["deal"]["pool"][2] = "five"
    assert str(record_error(document)).startswith(
        "hands[0].deal.pool[2]: a tile is written as three numbers like '0-1-2'"
    )


def test_a_cell_that_is_not_a_cell_is_named() -> None:
    document = finished()
    document["hands"][0]["actions"][3]["cell"] = [0, 0]
    assert str(record_error(document, line=3)) == (
        'line 3: hands[0].actions[3].cell: a cell is written [x, y, "up"] or [x, y, "down"], '
        "not [0, 0]"
    )
    document["hands"][0]["actions"][3]["cell"] = [500, 0, "up"]
    assert "outside the board" in str(record_error(document))


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rules", "colour"), "red", "rules.colour: is not a rule option"),
        (("rules", "max_draws"), -1, "rules.max_draws: must be a whole number of at least 0"),
        (("rules", "tile_set"), ["x"], "rules: not a set of rule options"),
        (("players",), [{"name": "solo"}], "players: these rules are for 2 to 6 players, not 1"),
        (("players", 0, "kind"), "alien", "players[0].kind: is 'alien'; it must be one of"),
        (("seed",), "x", 'seed: must be a whole number, not "x"'),
        (("preset",), 3, "preset: must be a string, not 3"),
        (("hands",), [], "hands: a record holds at least one hand"),
        (("hands", 0, "number"), 2, "hands[0].number: is 2; hands are numbered 1, 2, 3"),
        (("hands", 0, "actions", 1, "points"), "5", "actions[1].points: must be a whole number"),
        (("hands", 0, "actions", 1, "action"), "swap", "actions[1].action: is 'swap'; it must be"),
        (("hands", 0, "actions", 0, "corners"), [5, 5], "corners: a placement's corners are three"),
        (("hands", 0, "actions", 0, "bonuses"), [], "bonuses: must be an object, not []"),
        (("hands", 0, "end", "reason"), "won", "end.reason: is 'won'; it must be one of"),
        (("hands", 0, "deal", "racks"), [[]], "deal.racks: holds 1 racks for 2 players"),
        (("hands", 0, "end"), None, "hands[0].end: missing; a finished hand has both"),
    ],
)
def test_malformed_content_is_named(path: tuple[str | int, ...], value: Any, message: str) -> None:
    document = finished()
    set_at(document, path, value)
    assert message in str(record_error(document))


def test_a_deal_that_is_not_a_whole_set_is_named() -> None:
    document = finished()
    deal = document["hands"][0]["deal"]
    deal["pool"][0] = deal["racks"][0][0]
    error = record_error(document)
    assert error.field == "hands[0].deal"
    assert error.message.startswith(f"dealt more than once: {deal['racks'][0][0]}")


# --- wrong play ---------------------------------------------------------------------


def test_an_illegal_placement_names_the_rule() -> None:
    document = finished()
    _, index, action = actions_of(document, "place")[3]
    action["cell"] = [40, 40, "up"]
    error = verification_error(document, index=7)
    assert (error.record, error.hand, error.action, error.rule) == (7, 1, index, "edge_contact")
    assert str(error) == (
        f"record 7, hand 1, action {index}: [40, 40, 'up'] shares no edge with a tile on the "
        "table (rule edge_contact)"
    )


def test_a_flipped_tile_is_illegal() -> None:
    document = finished()
    position, index, action = next(
        (p, i, a) for p, i, a in actions_of(document, "place") if len(set(a["corners"])) == 3
    )
    action["corners"] = action["corners"][::-1]
    error = verification_error(document)
    assert (error.hand, error.action, error.rule) == (position + 1, index, "no_flip")
    assert "a tile is turned, never flipped" in error.message


def test_wrong_points_are_named() -> None:
    document = finished()
    position, index, action = actions_of(document, "place")[5]
    action["points"] += 3
    error = verification_error(document)
    assert (error.hand, error.action) == (position + 1, index)
    assert error.message == f"points are {action['points']}, the rules give {action['points'] - 3}"


def test_wrong_bonuses_are_named() -> None:
    document = finished()
    position, index, action = next(
        entry for entry in actions_of(document, "place") if entry[2]["bonuses"]
    )
    bonuses, points = action["bonuses"], action["points"]
    action["bonuses"] = {}
    error = verification_error(document)
    assert (error.hand, error.action) == (position + 1, index)
    assert error.message == f"bonuses are {{}}, the rules give {bonuses}"
    action["points"] = points - sum(bonuses.values())
    assert str(verification_error(document)) == (
        f"record 1, hand {position + 1}, action {index}: points are {action['points']}, the "
        f"rules give {points} (bonuses {bonuses} expected, {{}} recorded)"
    )


def test_a_wrong_drawn_tile_is_named() -> None:
    document = finished()
    position, index, action = actions_of(document, "draw")[0]
    drawn = action["tile"]
    action["tile"] = document["hands"][position]["deal"]["pool"][-1]
    error = verification_error(document)
    assert (error.hand, error.action) == (position + 1, index)
    assert error.message == f"draws {action['tile']}, but the next tile in the pool is {drawn}"


def test_a_draw_from_an_empty_pool_is_illegal() -> None:
    for seed in range(40):
        document = finished(seed=seed, target=100)
        empty = next(
            (
                (step.hand_number, step.action_index + 1, step.hand.to_move)
                for step in replay_steps(document)
                if step.hand.pool_size == 0 and step.hand.end is None
            ),
            None,
        )
        if empty is not None:
            break
    else:
        raise AssertionError("no seed empties the pool")
    number, index, player = empty
    document["hands"][number - 1]["actions"].insert(
        index, {"player": player, "action": "draw", "tile": "0-0-0", "points": -5}
    )
    error = verification_error(document)
    assert (error.hand, error.action, error.rule) == (number, index, "empty_pool")
    assert error.message == "the pool is empty (rule empty_pool)"


def test_a_player_out_of_turn_is_named() -> None:
    document = finished()
    action = document["hands"][0]["actions"][1]
    action["player"] = 1 - action["player"]
    error = verification_error(document)
    assert error.action == 1
    assert error.message == (
        f"player {action['player']} plays, but it is player {1 - action['player']}'s turn"
    )


def test_actions_after_the_end_of_a_hand_are_wrong() -> None:
    document = finished()
    actions = document["hands"][0]["actions"]
    actions.append(dict(actions[-1]))
    error = verification_error(document)
    assert error.action == len(actions) - 1
    assert error.message.startswith("the hand is already over (")


def test_a_hand_cut_short_is_wrong() -> None:
    document = finished()
    actions = document["hands"][0]["actions"]
    actions.pop()
    error = verification_error(document)
    assert (error.hand, error.action) == (1, None)
    assert error.message.startswith(
        f"the hand is recorded as over, but after its {len(actions)} actions player"
    )
    del document["hands"][0]["end"], document["hands"][0]["scores"]
    if len(document["hands"]) > 1:
        assert "yet hand 2 is recorded" in verification_error(document).message


def test_a_finished_hand_needs_its_end() -> None:
    document = finished()
    last = document["hands"][-1]
    del last["end"], last["scores"]
    assert "but no end is recorded" in verification_error(document).message


def test_a_wrong_starter_is_named() -> None:
    document = finished()
    hand = document["hands"][0]
    hand["starter"] = 1 - hand["starter"]
    error = verification_error(document)
    assert error.message == f"starter is {hand['starter']}, the rules give {1 - hand['starter']}"


def test_a_settlement_that_does_not_add_up_is_named() -> None:
    document = finished()
    end = document["hands"][0]["end"]
    right = list(end["settlement"])
    end["settlement"][0] += 7
    error = verification_error(document)
    assert (error.hand, error.action) == (1, None)
    assert error.message == f"end.settlement is {end['settlement']}, the rules give {right}"


def test_wrong_remaining_tiles_and_reason_are_named() -> None:
    document = finished()
    end = document["hands"][0]["end"]
    end["remaining"] = [[], []]
    assert verification_error(document).message.startswith("end.remaining is [[], []], the rules")
    end["reason"] = "blocked" if end["reason"] == "out" else "out"
    assert verification_error(document).message.startswith(f'end.reason is "{end["reason"]}"')


def test_the_order_of_remaining_tiles_does_not_matter() -> None:
    document = finished()
    for hand in document["hands"]:
        for rack in hand["end"]["remaining"]:
            rack.reverse()
    load_match(document)


def test_wrong_hand_scores_are_named() -> None:
    document = several_hands()
    right = list(document["hands"][1]["scores"])
    document["hands"][1]["scores"][2] += 1
    error = verification_error(document)
    assert (error.hand, error.action) == (2, None)
    assert error.message == (
        f"scores after the hand are {document['hands'][1]['scores']}, the rules give {right}"
    )


def test_wrong_final_totals_and_winners_are_named() -> None:
    document = several_hands()
    right = list(document["scores"])
    document["scores"][0] += 10
    error = verification_error(document)
    assert (error.hand, error.action) == (len(document["hands"]), None)
    assert error.message == f"final scores are {document['scores']}, the rules give {right}"
    document["scores"] = right
    winners = document["winners"]
    document["winners"] = [seat for seat in range(4) if seat not in winners][:1]
    assert verification_error(document).message == (
        f"winners are {document['winners']}, the rules give {winners}"
    )


def test_missing_hands_are_named() -> None:
    document = several_hands()
    count = len(document["hands"])
    del document["hands"][-1]
    document["scores"] = document["hands"][-1]["scores"]
    error = verification_error(document)
    assert (error.hand, error.action) == (count, None)
    assert error.message.startswith(
        f"hand {count} is missing: the totals after hand {count - 1} are "
        f"{document['scores']}, and the match ends when a total reaches 300"
    )


def test_a_hand_after_the_end_of_the_match_is_wrong() -> None:
    document = several_hands()
    extra = copy.deepcopy(document["hands"][-1])
    extra["number"] = len(document["hands"]) + 1
    document["hands"].append(extra)
    error = verification_error(document)
    assert (error.hand, error.action) == (extra["number"], None)
    assert error.message.startswith(f"hand {extra['number']} is recorded after the match ended")


# --- Triominos Junior and the children's scoring -------------------------------------


@cache
def _junior(preset: str, players: int, seed: int) -> Document:
    return match_record(junior_games.played(preset, players, seed))


def junior(preset: str = "junior", players: int = 2, seed: int = 1) -> Document:
    """A fresh copy of the record of a Junior (or children's) match played to its end."""
    document: Document = copy.deepcopy(_junior(preset, players, seed))
    return document


def junior_with(kind: str, players: int = 2) -> tuple[Document, int, int, dict[str, Any]]:
    """A Junior record holding an action of a kind: (record, hand position, index, action)."""
    for seed in range(60):
        document = junior(players=players, seed=seed)
        found = actions_of(document, kind)
        if found:
            return (document, *found[0])
    raise AssertionError(f"no Junior game has a {kind}")


@pytest.mark.parametrize(
    ("preset", "players"),
    [("junior", 2), ("junior", 3), ("junior", 4), ("classic-children", 3),
     ("extended-children", 2), ("extended-children", 4)],
)  # fmt: skip
def test_junior_and_children_records_replay_to_the_same_match(preset: str, players: int) -> None:
    for seed in range(4):
        match = junior_games.played(preset, players, seed)
        assert_round_trip(match)


def test_junior_records_hold_every_junior_action() -> None:
    documents = [junior(players=2 + seed % 3, seed=seed) for seed in range(30)]
    kinds = {a["action"] for d in documents for hand in d["hands"] for a in hand["actions"]}
    assert kinds == {"place", "buy", "take_joker", "pass"}
    reasons = {hand["end"]["reason"] for d in documents for hand in d["hands"]}
    assert "last_round" in reasons


def test_a_junior_record_follows_the_extension() -> None:
    document = junior(players=3, seed=2)
    assert document["preset"] == "junior"
    (hand,) = document["hands"]
    deal = hand["deal"]
    first = deal["first"]
    assert first != "J" and first not in deal["pool"]
    assert all(first not in rack for rack in deal["racks"])
    assert 3 * 6 + len(deal["pool"]) + 1 == 36
    assert hand["starter"] == 0
    counters = [4, 4, 4]
    for action in hand["actions"]:
        counters[action["player"]] += action["points"]
        if action["action"] == "buy":
            assert set(action) == {"player", "action", "tile", "points"}
            assert action["points"] == -1
    assert hand["scores"] == counters == document["scores"]
    assert sum(counters) <= 60
    assert document["winners"] == [s for s in range(3) if counters[s] == max(counters)]


def test_a_joker_placement_writes_its_free_corners_as_null() -> None:
    placements = [
        action
        for seed in range(20)
        for _, _, action in actions_of(junior(seed=seed), "place")
        if action["tile"] == "J"
    ]
    assert any(None in action["corners"] for action in placements)
    for action in placements:
        assert all(number is None or 1 <= number <= 5 for number in action["corners"])
        assert set(action) == {"player", "action", "tile", "cell", "corners", "points", "bonuses"}


def test_a_take_joker_names_the_card_the_cell_and_its_corners() -> None:
    document, position, index, action = junior_with("take_joker")
    assert set(action) == {"player", "action", "tile", "cell", "corners", "points"}
    assert action["points"] == 0 and action["tile"] != "J"
    earlier = document["hands"][position]["actions"][:index]
    laid = [a for a in earlier if a["action"] == "place" and a["tile"] == "J"]
    assert laid[-1]["cell"] == action["cell"]  # where the joker was laid last
    step = next(
        step
        for step in replay_steps(document)
        if (step.hand_number, step.action_index) == (position + 1, index)
    )
    board = step.hand.board
    assert board.joker_cell is None
    assert step.event.cell is not None
    assert board.tile_at(step.event.cell) == Placement(
        Tile.from_name(action["tile"]), step.event.cell, tuple(action["corners"])
    )


def test_classic_records_have_no_first_card() -> None:
    assert "first" not in finished()["hands"][0]["deal"]


# --- Junior records with wrong play or wrong form --------------------------------------


def test_a_take_joker_that_does_not_fit_exactly_is_wrong() -> None:
    document, position, index, action = junior_with("take_joker")
    card = action["corners"]
    others = [card[1:] + card[:1], card[2:] + card[:2]]
    action["corners"] = next(rotation for rotation in others if rotation != card)
    error = verification_error(document)
    assert (error.hand, error.action, error.rule) == (position + 1, index, "joker_exact_fit")
    assert error.message.startswith(
        f"{action['tile']} with corners {action['corners']} does not fit exactly where the "
        f"joker lies, {action['cell']}"
    )


def test_a_take_joker_elsewhere_than_the_joker_is_wrong() -> None:
    document, position, index, action = junior_with("take_joker")
    where = action["cell"]
    action["cell"] = [where[0] + 1, where[1], where[2]]
    error = verification_error(document)
    assert (error.hand, error.action) == (position + 1, index)
    assert error.message == (
        f"takes the joker back from {json.dumps(action['cell'])}, but the joker lies at "
        f"{json.dumps(where)}"
    )


def test_a_take_joker_without_a_joker_on_the_table_is_wrong() -> None:
    document = junior(seed=3)
    hand = document["hands"][0]
    player = hand["actions"][0]["player"]
    hand["actions"].insert(
        0,
        {"player": player, "action": "take_joker", "tile": hand["deal"]["racks"][player][0],
         "cell": [0, 0, "down"], "corners": [1, 2, 3], "points": 0},
    )  # fmt: skip
    error = verification_error(document)
    assert (error.action, error.rule) == (0, "joker_on_table")


def test_a_buy_without_a_counter_is_wrong() -> None:
    # A seat that bought until its counters ran out, to move again with the pot not empty.
    match = junior_games.first_position(
        lambda m: not m.is_over and m.hand.totals[m.to_move] == 0 and m.hand.pool_size > 0
    )
    document = match_record(match)
    hand = document["hands"][0]
    player = match.to_move
    hand["actions"].append(
        {"player": player, "action": "buy", "tile": match.hand.pool[0].name, "points": -1}
    )
    error = verification_error(document)
    assert (error.hand, error.action, error.rule) == (1, len(hand["actions"]) - 1, "pay_to_buy")
    assert error.message == "buying a card costs 1 counter(s); none left (rule pay_to_buy)"


def test_a_buy_recorded_as_a_draw_is_wrong() -> None:
    document, position, index, action = junior_with("buy")
    action["action"] = "draw"
    error = verification_error(document)
    assert (error.hand, error.action) == (position + 1, index)
    assert error.message == (
        "is recorded as a draw, the rules make it a buy (taking a tile costs a counter when "
        "the rules pay in counters)"
    )
    document, position, index, action = junior_with("buy")
    action["tile"] = document["hands"][position]["deal"]["pool"][-1]
    assert verification_error(document).message.startswith(
        f"buys {action['tile']}, but the next card in the pot is "
    )


def test_wrong_counters_are_named_with_the_bank() -> None:
    document = junior(players=3, seed=5)
    hand = document["hands"][0]
    right = list(hand["scores"])
    bank = 60 - sum(right)
    hand["scores"][1] += 1
    error = verification_error(document)
    assert (error.hand, error.action) == (1, None)
    assert error.message == (
        f"counters after the hand are {hand['scores']} (bank {bank - 1}), the rules give "
        f"{right} (bank {bank})"
    )
    hand["scores"][1] = 61 - sum(right) + right[1]
    assert verification_error(document).message == (
        f"counters after the hand are {hand['scores']}: 61 in all, more than the 60 counters "
        "of the game (the players' and the bank's)"
    )
    hand["scores"] = [-1, *right[1:]]
    assert verification_error(document).message == (
        f"counters after the hand are {hand['scores']}: no player holds fewer than 0 counters"
    )
    hand["scores"] = right
    document["scores"] = [right[0] + 2, *right[1:]]
    assert verification_error(document).message == (
        f"final counters are {document['scores']} (bank {bank - 2}), the rules give {right} "
        f"(bank {bank})"
    )


def test_a_joker_with_corners_other_than_the_boards_is_wrong() -> None:
    for seed in range(40):
        document = junior(seed=seed)
        found = [
            (p, i, a) for p, i, a in actions_of(document, "place")
            if a["tile"] == "J" and None in a["corners"]
        ]  # fmt: skip
        if found:
            break
    position, index, action = found[0]
    action["corners"] = [1 if n is None else n for n in action["corners"]]
    error = verification_error(document)
    assert (error.hand, error.action, error.rule) == (position + 1, index, "joker_corners")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("hands", 0, "deal", "first"), None, "hands[0].deal: the pool_card opening needs a first"),
        (("hands", 0, "deal", "first"), "J", "hands[0].deal: the joker is never the first card"),
        (("hands", 0, "deal", "first"), "0-1-2", "deal.first: 0-1-2 is not a tile of the junior"),
        (("hands", 0, "deal", "first"), 5, 'deal.first: must be a tile name like "0-1-2", not 5'),
        (("hands", 0, "actions", 0, "corners", 1), None,
         "actions[0].corners[1]: must be a number; only the joker has free corners (null)"),
        (("hands", 0, "actions", 0, "corners", 1), -1, "corners[1]: must be a number from 0"),
        (("hands", 0, "end", "reason"), "empty", "end.reason: is 'empty'; it must be one of 'out'"),
    ],
)  # fmt: skip
def test_malformed_junior_content_is_named(
    path: tuple[str | int, ...], value: Any, message: str
) -> None:
    document = next(  # one whose first action is a placement, for the paths above
        d for d in (junior(seed=seed) for seed in range(20))
        if d["hands"][0]["actions"][0]["action"] == "place"
    )  # fmt: skip
    set_at(document, path, value)
    assert message in str(record_error(document))


def test_a_first_card_under_rules_without_one_is_named() -> None:
    document = finished()
    document["hands"][0]["deal"]["first"] = document["hands"][0]["deal"]["pool"].pop()
    assert str(record_error(document)) == (
        "hands[0].deal: the highest_triple opening needs no first card"
    )


def test_the_joker_cannot_take_its_own_place() -> None:
    document, _, index, action = junior_with("take_joker")
    action["tile"] = "J"
    error = record_error(document)
    assert error.field == f"hands[0].actions[{index}].tile"
    assert error.message == "is the card that takes the joker's place, not the joker"


def test_last_round_is_an_end_reason_that_is_checked() -> None:
    document = next(
        d for d in (junior(seed=seed) for seed in range(20))
        if d["hands"][0]["end"]["reason"] == "last_round"
    )  # fmt: skip
    document["hands"][0]["end"]["reason"] = "blocked"
    assert verification_error(document).message == (
        'end.reason is "blocked", the rules give "last_round"'
    )
