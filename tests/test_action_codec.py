"""The action codec, declared once (triominos.game.ACTION_FIELDS): every action a game
offers goes to JSON and back, and to text and back, as itself; a record's action is its
JSON with the record's own fields beside; what is not an action names its field."""

from __future__ import annotations

from typing import Any

import pytest

from junior_games import can_take_joker, first_position, positions
from triominos.board import Placement
from triominos.game import (
    ACTION_FIELDS,
    ACTION_NAMES,
    BOARD_ACTIONS,
    ActionFieldError,
    Draw,
    Pass,
    Resign,
    StarterDraw,
    TakeJoker,
    action_from_json,
    action_json,
)
from triominos.notation import NAMED_ACTIONS, NotationError, action_from_text, action_to_text
from triominos.record import JsonField, RecordError
from triominos.tiles import CLASSIC, JUNIOR


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("junior", 3)])
def test_every_offered_action_goes_to_json_and_text_and_back(name: str, players: int) -> None:
    kinds: set[str] = set()
    for match in positions(name, players, seed=3):
        if match.is_over:
            break
        board, tiles = match.hand.board, match.rules.tiles
        for option in match.legal_actions():
            action = option.action
            written = action_json(action, board.joker_cell)
            assert set(written) == {"action", *ACTION_FIELDS[written["action"]]}
            assert action_from_json(written, tiles, joker_cell=board.joker_cell) == action
            assert action_from_text(action_to_text(action), board) == action
            kinds.add(written["action"])
    assert {"place", "draw"} <= kinds


def test_taking_the_joker_back_goes_to_json_and_text_and_back() -> None:
    match = first_position(can_take_joker)
    board = match.hand.board
    take = next(o.action for o in match.legal_actions() if isinstance(o.action, TakeJoker))
    written = action_json(take, board.joker_cell)
    assert board.joker_cell is not None and written["cell"] == board.joker_cell.to_json()
    assert action_from_json(written, match.rules.tiles, joker_cell=board.joker_cell) == take
    assert action_from_text(action_to_text(take), board) == take
    elsewhere = {**written, "cell": [40, 40, "up"]}
    with pytest.raises(ActionFieldError, match="the joker lies at") as error:
        action_from_json(elsewhere, match.rules.tiles, joker_cell=board.joker_cell)
    assert error.value.field == "action.cell"


def test_the_names_are_the_declarations_and_a_resignation_names_no_player() -> None:
    assert tuple(ACTION_FIELDS) == ACTION_NAMES
    assert {name for name, fields in ACTION_FIELDS.items() if fields} == BOARD_ACTIONS
    assert set(NAMED_ACTIONS) == set(ACTION_FIELDS) - BOARD_ACTIONS
    for action in (Draw(), Pass(), StarterDraw(), Resign(1)):
        assert action_from_json(action_json(action), CLASSIC, player=1) == action
        assert action_from_text(action_to_text(action), player=1) == action
    assert action_json(Resign(1)) == {"action": "resign"}
    assert action_from_text("buy") == Draw()


PLACE = {"action": "place", "tile": "1-2-3", "cell": [0, 0, "up"], "corners": [1, 2, 3]}
"""A placement's JSON, which the cases below spoil one field at a time."""


@pytest.mark.parametrize(
    ("written", "field", "words"),
    [
        ([], "move", "must be an object"),
        ({"action": "jump"}, "move.action", "must be one of"),
        ({"action": "resign"}, "move.action", "the player who resigns"),
        ({k: v for k, v in PLACE.items() if k != "tile"}, "move.tile", "missing"),
        ({**PLACE, "tile": 7}, "move.tile", "tile name"),
        ({**PLACE, "cell": [0, 0]}, "move.cell", "cell is written"),
        ({**PLACE, "corners": [1, 2]}, "move.corners", "three numbers"),
        ({**PLACE, "corners": [1, -2, 3]}, "move.corners[1]", "from 0"),
        ({**PLACE, "action": "take_joker", "tile": "J"}, "move.tile", "not the joker"),
    ],
)
def test_what_is_no_action_names_its_field(written: Any, field: str, words: str) -> None:
    with pytest.raises(ActionFieldError, match=words) as error:
        action_from_json(written, JUNIOR, path="move")
    assert isinstance(error.value, ValueError)
    assert error.value.field == field and str(error.value).startswith(f"{field}: ")


def test_a_records_action_is_read_by_the_codec_with_the_records_path() -> None:
    field = JsonField({"action": "place", "tile": "9-9-9"}, "hands[0].actions[2]", 1)
    with pytest.raises(RecordError) as error:
        field.action(CLASSIC, 0)
    assert error.value.field == "hands[0].actions[2].tile"
    assert "not a tile of the classic set" in str(error.value)


def test_text_that_is_no_action_says_what_was_expected() -> None:
    with pytest.raises(NotationError, match="one of 'draw'"):
        action_from_text("drow")
    with pytest.raises(NotationError, match="the player who resigns"):
        action_from_text("resign")
    assert isinstance(action_from_text("312@J"), TakeJoker)
    assert isinstance(action_from_text("545@0,0v"), Placement)
