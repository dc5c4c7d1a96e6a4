"""The WebSocket protocol: greetings, actions, events per viewer, and every error path."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from server_games import Message, Served, Viewer, my_turn, serve_app
from triominos.server.protocol import (
    CHAT_PER_CONNECTION,
    CHAT_PER_SEAT,
    MAX_CHAT_CHARS,
    MAX_MESSAGE_BYTES,
    MESSAGES_PER_SECOND,
)

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


HOUSE = "classic-house"
"""The preset of the tables whose tests draw while a tile fits (seed 002's classic does not
let a player draw then)."""


def two_people(served: Served, **options: Any) -> tuple[str, list[str]]:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1], **options)
    return created["code"], [seat["token"] for seat in created["seats"]]


def to_move_and_other(served: Served, code: str, tokens: list[str]) -> tuple[Viewer, Viewer]:
    viewers = [served.viewer(code, token) for token in tokens]
    to_move = viewers[0].greeting["view"]["to_move"]
    return viewers[to_move], viewers[1 - to_move]


def refusal(viewer: Viewer, code: str) -> Message:
    error = viewer.error()
    assert error["code"] == code, error
    assert error["message"] and "Traceback" not in error["message"]
    return error


def assert_closed_with(viewer: Viewer, code: int) -> None:
    """The server closed the connection with this close code."""
    with pytest.raises(ConnectionClosed) as closed:
        viewer.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code


def test_hello_with_a_token_gets_the_seat_view(served: Served) -> None:
    code, tokens = two_people(served)
    with served.viewer(code, tokens[1]) as bob:
        welcome = bob.greeting
        assert welcome["type"] == "welcome" and welcome["seat"] == 1 and welcome["version"] == 0
        view = welcome["view"]
        assert view["seat"] == 1 and view["code"] == code and len(view["rack"]) == 9
        assert view["seats"][1] == {
            "name": "Bob",
            "kind": "person",
            "bot": None,
            "think": None,
            "connected": True,
            "bot_allowed_at": None,
            "returns": False,
        }


def test_a_spectator_sees_no_rack_and_cannot_act(served: Served) -> None:
    code, _ = two_people(served)
    with served.viewer(code) as watcher:
        assert watcher.greeting["seat"] is None and watcher.greeting["view"]["rack"] is None
        watcher.act({"action": "draw"}, "x")
        assert refusal(watcher, "spectator")["id"] == "x"
        watcher.send({"type": "hint", "id": "h"})
        assert refusal(watcher, "spectator")["id"] == "h"


def test_an_action_reaches_every_viewer_and_the_id_only_its_sender(served: Served) -> None:
    code, tokens = two_people(served)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other, served.viewer(code) as watcher:
        opening = mover.view["legal"][0]
        event = mover.play_first_legal("first")
        assert event["type"] == "event" and event["version"] == 1 and event["id"] == "first"
        assert event["event"]["action"] == "place" and event["event"]["hand"] == 1
        assert event["event"]["tile"] == opening["action"]["tile"]
        assert event["view"]["version"] == 1 and event["view"]["legal"] == []
        for viewer in (other, watcher):
            seen = viewer.until(lambda message: message["type"] == "event")
            assert "id" not in seen and seen["event"] == event["event"] and seen["version"] == 1
        assert other.view["legal"], "the other player is to move now"
        assert other.view["board"] == [
            {key: opening["action"][key] for key in ("tile", "cell", "corners")}
        ]


def test_the_player_to_move_gets_legal_actions_with_points(served: Served) -> None:
    code, tokens = two_people(served)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        legal = mover.view["legal"]
        assert legal and all({"action", "points", "bonuses"} == set(option) for option in legal)
        assert all(option["action"]["action"] == "place" for option in legal)  # the opening
        assert other.view["legal"] == []


def test_stale_duplicate_and_out_of_turn_actions_change_nothing(served: Served) -> None:
    code, tokens = two_people(served, preset=HOUSE)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        stale = mover.view["legal"][0]["action"]
        other.act({"action": "draw"}, "early")
        assert refusal(other, "not_your_turn")["id"] == "early"
        mover.play_first_legal("one")
        mover.act(stale, "two", version=0)
        assert refusal(mover, "stale_version")["id"] == "two"
        mover.act(stale, "one", version=0)
        assert refusal(mover, "duplicate")["id"] == "one"
        other.until(my_turn)
        other.act({"action": "draw"}, "one")  # ids belong to their seat: Bob may use "one"
        drawn = other.answer("one")
        assert drawn["type"] == "event" and drawn["version"] == 2
    with served.viewer(code) as watcher:
        assert watcher.greeting["version"] == 2


def test_an_illegal_move_names_the_rule_it_breaks(served: Served) -> None:
    code, tokens = two_people(served)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        view = mover.view
        allowed = {option["action"]["tile"] for option in view["legal"]}
        tile = next(name for name in view["rack"] if name not in allowed)
        wrong = {
            "action": "place",
            "tile": tile,
            "cell": [0, 0, "up"],
            "corners": [int(n) for n in tile.split("-")],
        }
        mover.act(wrong, "bad")
        error = refusal(mover, "illegal")
        assert error["rule"] == "opening_tile" and error["id"] == "bad"
        mover.act({"action": "draw"}, "draw")
        assert refusal(mover, "illegal")["rule"] == "opening"
        foreign = next(name for name in other.view["rack"])
        mover.act(
            {"action": "place", "tile": foreign, "cell": [0, 0, "up"], "corners": [0, 0, 0]}, "x"
        )
        assert refusal(mover, "illegal")["rule"] == "own_tile"


def test_an_action_object_that_names_no_action_is_a_bad_message(served_sqlite: Served) -> None:
    code, tokens = two_people(served_sqlite)
    mover, other = to_move_and_other(served_sqlite, code, tokens)
    with mover, other:
        mover.act(
            {"action": "place", "tile": "9-9-9", "cell": [0, 0, "up"], "corners": [9, 9, 9]}, "a"
        )
        error = refusal(mover, "bad_message")
        assert error["field"] == "action.tile" and error["id"] == "a"
        mover.act({"action": "fly"}, "b")
        assert refusal(mover, "bad_message")["field"] == "action.action"


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        ("not json at all", None, "not JSON"),
        ("[1, 2]", None, "JSON object"),
        ('{"type": "dance"}', "type", "unknown message type 'dance'"),
        ('{"version": 0}', "type", "missing"),
        ('{"type": "action", "version": 0, "action": {}}', "id", "missing"),
        (
            '{"type": "action", "id": "a", "version": "0", "action": {}}',
            "version",
            "expected `int`",
        ),
        (
            '{"type": "action", "id": "a", "version": 0, "action": []}',
            "action",
            "expected `object`",
        ),
        (
            '{"type": "action", "id": "' + "x" * 65 + '", "version": 0, "action": {}}',
            "id",
            "length <= 64",
        ),
        ('{"type": "hint"}', "id", "missing"),
    ],
)
def test_a_malformed_message_is_answered_naming_the_field(
    served_sqlite: Served, sent: str, field: str | None, words: str
) -> None:
    code, tokens = two_people(served_sqlite)
    with served_sqlite.viewer(code, tokens[0]) as ann:
        ann.connection.send(sent)
        error = refusal(ann, "bad_message")
        assert error.get("field") == field and words in error["message"]
        ann.send({"type": "ping"})
        assert ann.receive() == {"type": "pong"}  # the connection lives on


def test_the_first_message_must_be_hello_and_a_bad_token_is_refused(served_sqlite: Served) -> None:
    code, _ = two_people(served_sqlite)
    with connect(f"{served_sqlite.ws_url}/ws/{code}", legacy=True) as connection:
        viewer = Viewer(connection)
        viewer.send({"type": "ping"})
        assert "hello" in refusal(viewer, "bad_message")["message"]
        viewer.send({"type": "hello", "token": "forged" * 8, "version": None})
        refusal(viewer, "bad_token")
        assert_closed_with(viewer, 1008)


def test_hello_is_said_once(served_sqlite: Served) -> None:
    code, tokens = two_people(served_sqlite)
    with served_sqlite.viewer(code, tokens[0]) as ann:
        ann.send({"type": "hello", "token": None, "version": None})
        assert "once" in refusal(ann, "bad_message")["message"]


def test_an_unknown_table_is_refused(served_sqlite: Served) -> None:
    with connect(f"{served_sqlite.ws_url}/ws/NOSUCH", legacy=True) as connection:
        viewer = Viewer(connection)
        refusal(viewer, "not_found")


def test_a_message_over_the_size_limit_closes_the_connection(served_sqlite: Served) -> None:
    code, tokens = two_people(served_sqlite)
    with served_sqlite.viewer(code, tokens[0]) as ann:
        ann.connection.send(json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}))
        refusal(ann, "too_large")
        assert_closed_with(ann, 1009)


def test_too_many_messages_a_second_are_refused(served_sqlite: Served) -> None:
    code, tokens = two_people(served_sqlite)
    with served_sqlite.viewer(code, tokens[0]) as ann:
        for _ in range(MESSAGES_PER_SECOND + 10):
            ann.connection.send('{"type": "ping"}')
        answers = [ann.receive()["type"] for _ in range(MESSAGES_PER_SECOND + 10)]
        assert answers.count("pong") <= MESSAGES_PER_SECOND
        assert answers.count("error") >= 10
        assert ann.received[-1] == {
            "type": "error",
            "code": "rate_limited",
            "message": f"at most {MESSAGES_PER_SECOND} messages a second",
        }
        time.sleep(1.05)
        ann.send({"type": "ping"})
        assert ann.receive() == {"type": "pong"}


def test_a_foreign_origin_is_refused_and_the_own_accepted(served_sqlite: Served) -> None:
    code, _ = two_people(served_sqlite)
    url = f"{served_sqlite.ws_url}/ws/{code}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin("http://evil.example"), legacy=True)
    assert refused.value.response.status_code == 403
    host = served_sqlite.base_url.removeprefix("http://")
    with connect(url, origin=Origin(f"http://{host}"), legacy=True) as connection:
        viewer = Viewer(connection)
        viewer.send({"type": "hello", "token": None, "version": None})
        assert viewer.receive()["type"] == "welcome"


def test_a_reconnecting_client_catches_up_or_gets_a_fresh_view(served: Served) -> None:
    code, tokens = two_people(served, preset=HOUSE)
    mover, other = to_move_and_other(served, code, tokens)
    seat = other.greeting["seat"]
    token = tokens[seat]
    with mover:
        other.close()
        mover.play_first_legal("a")
        with served.viewer(code, token, version=0) as back:
            caught = back.greeting
            assert caught["type"] == "catchup" and caught["version"] == 1
            assert [event["action"] for event in caught["events"]] == ["place"]
            assert caught["view"]["legal"]
            back.act({"action": "draw"}, "d")
            drawn = back.answer("d")
            assert drawn["event"]["tile"] in drawn["view"]["rack"]
        with served.viewer(code, version=1) as watcher:
            caught = watcher.greeting
            assert caught["type"] == "catchup" and len(caught["events"]) == 1
            assert "tile" not in caught["events"][0], "a spectator does not see the drawn tile"
        with served.viewer(code, token, version=2) as current:
            assert current.greeting["type"] == "catchup" and current.greeting["events"] == []
        for version in (None, 99):
            with served.viewer(code, token, version=version) as fresh:
                assert fresh.greeting["type"] == "welcome" and fresh.greeting["version"] == 2


def test_presence_follows_connections(served: Served) -> None:
    code, tokens = two_people(served)
    with served.viewer(code, tokens[0]) as ann:
        assert not ann.view["seats"][1]["connected"]
        bob = served.viewer(code, tokens[1])
        arrived = ann.until(lambda message: message["type"] == "presence")
        assert arrived["seats"][1]["connected"] and arrived["view"]["seats"][1]["connected"]
        bob.close()
        left = ann.until(lambda message: message["type"] == "presence")
        assert not left["seats"][1]["connected"]


def test_nothing_is_played_before_every_seat_is_taken(served: Served) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0])
    code, ann_token = created["code"], created["seats"][0]["token"]
    with served.viewer(code, ann_token) as ann:
        assert ann.view["status"] == "waiting" and ann.view["legal"] == []
        ann.act({"action": "draw"}, "early")
        assert "every seat" in refusal(ann, "not_your_turn")["message"]
        served.join(code, "Bob")
        joined = ann.until(
            lambda message: message["type"] == "presence" and message["view"]["status"] == "playing"
        )
        assert joined["seats"][1]["name"] == "Bob"


def test_a_seat_played_by_a_bot_may_watch_but_not_act(served: Served) -> None:
    """A seat a bot was made with (no person's token) watches the bot play."""
    created = served.create(
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
        take=[0],
        preset="classic-children",
    )
    code, ann = created["code"], created["seats"][0]["token"]
    with served.viewer(code, ann) as player:
        served.http.post(f"/api/tables/{code}/seats/0/bot", json={"token": ann, "bot": "greedy"})
        player.until(lambda message: message.get("view", {}).get("seats", [{}])[0].get("bot"))
        assert player.view["legal"] == []  # a bot plays Ann's seat now (she gave it)
        player.act({"action": "draw"}, "x", version=player.view["version"])
        error = player.until(lambda message: message["type"] == "error")
        assert error["code"] in ("not_your_turn", "stale_version")


def test_hints_answer_the_player_to_move(served: Served) -> None:
    code, tokens = two_people(served, hints=True)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        mover.send({"type": "hint", "id": "h1"})
        answer = mover.until(lambda message: message["type"] == "hint")
        assert answer["id"] == "h1" and 1 <= len(answer["hints"]) <= 3
        legal = {json.dumps(option["action"]): option for option in mover.view["legal"]}
        for hint in answer["hints"]:
            option = legal[json.dumps(hint["action"])]
            assert hint["points"] == option["points"] and hint["bonuses"] == option["bonuses"]
            assert isinstance(hint["value"], float)
        other.send({"type": "hint", "id": "h2"})
        assert other.until(lambda message: message["type"] == "hint") == {
            "type": "hint",
            "id": "h2",
            "hints": [],
        }


def test_hints_are_off_between_people_unless_the_creator_turns_them_on(served: Served) -> None:
    code, tokens = two_people(served)
    summary = served.http.get(f"/api/tables/{code}").json()
    assert summary["hints"] is False
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        assert mover.view["hints"] is False
        mover.send({"type": "hint", "id": "h1"})
        refusal = mover.until(lambda message: message["type"] == "error")
        assert refusal["code"] == "no_hints" and refusal["id"] == "h1"
    # Against a bot, hints are on unless the creator turns them off.
    alone = served.create()
    assert served.http.get(f"/api/tables/{alone['code']}").json()["hints"] is True
    without = served.create(hints=False)
    assert served.http.get(f"/api/tables/{without['code']}").json()["hints"] is False


def test_a_wrong_timeout_action_names_itself_and_its_values(served: Served) -> None:
    answer = served.http.post(
        "/api/tables",
        json={
            "preset": "classic",
            "players": 2,
            "seats": TWO_PEOPLE,
            "timeout_action": "skip",
        },
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["field"] == "timeout_action" and "'place'" in error["message"]


def chats_of(viewer: Viewer) -> list[str]:
    """The chat texts a connection got, in order: those its greeting brought, then the new."""
    kept = [said["text"] for said in viewer.greeting["chat"]]
    return kept + [
        said["text"] for m in viewer.received if m["type"] == "chat" for said in m["messages"]
    ]


def test_the_players_and_the_spectators_chat_apart_and_it_is_kept(served: Served) -> None:
    code, tokens = two_people(served)
    with (
        served.viewer(code, tokens[0]) as ann,
        served.viewer(code, tokens[1]) as bob,
        served.viewer(code) as watcher,
    ):
        ann.send({"type": "chat", "text": "<img src=x onerror=alert(1)> good luck"})
        said = bob.until(lambda message: message["type"] == "chat" and message["messages"])
        assert said["messages"][0]["name"] == "Ann" and said["messages"][0]["seat"] == 0
        assert said["messages"][0]["spectator"] is None
        # Kept as sent: the page writes it as text, never as HTML.
        assert said["messages"][0]["text"] == "<img src=x onerror=alert(1)> good luck"
        watcher.send({"type": "chat", "text": "go Bob"})
        watcher.until(lambda message: message["type"] == "chat" and message["messages"])
        ann.send({"type": "ping"})
        ann.until(lambda message: message["type"] == "pong")
        assert chats_of(watcher) == ["go Bob"] and "go Bob" not in chats_of(ann)
    # Someone who comes back later gets their chat's history, and only theirs.
    with served.viewer(code, tokens[1]) as again, served.viewer(code) as spectator:
        assert chats_of(again) == ["<img src=x onerror=alert(1)> good luck"]
        assert chats_of(spectator) == ["go Bob"]


def test_spectators_are_numbered_in_their_chat_and_the_number_is_kept(served: Served) -> None:
    code, _ = two_people(served)
    with served.viewer(code) as first, served.viewer(code) as second:
        for watcher, text in ((first, "hello"), (second, "hi")):
            watcher.send({"type": "chat", "text": text})
            watcher.until(lambda message: message["type"] == "chat" and message["messages"])
        with served.viewer(code) as third:
            third.send({"type": "chat", "text": "hey"})
            third.until(lambda message: message["type"] == "chat" and message["messages"])
    # Number 1 is free again once its spectator left: the next one (a reload) takes it.
    with served.viewer(code) as later:
        later.send({"type": "chat", "text": "back"})
        later.until(lambda message: message["type"] == "chat" and message["messages"])
    with served.viewer(code) as reader:
        kept = reader.greeting["chat"]
    assert [(said["text"], said["spectator"], said["name"]) for said in kept] == [
        ("hello", 1, ""),
        ("hi", 2, ""),
        ("hey", 3, ""),
        ("back", 1, ""),
    ]


def test_chat_is_short_and_rate_limited(served: Served) -> None:
    code, tokens = two_people(served)
    with served.viewer(code, tokens[0]) as ann:
        ann.send({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)})
        error = ann.until(lambda message: message["type"] == "error")
        assert error["code"] == "bad_message" and error["field"] == "text"
        count, _ = CHAT_PER_CONNECTION
        for number in range(count + 1):
            ann.send({"type": "chat", "text": f"hello {number}"})
        refused = ann.until(lambda message: message["type"] == "error")
        assert refused["code"] == "rate_limited"
        ann.send({"type": "ping"})
        ann.until(lambda message: message["type"] == "pong")
        assert chats_of(ann) == [f"hello {number}" for number in range(count)]


def test_actions_after_the_end_are_refused(served_sqlite: Served) -> None:
    created = served_sqlite.create(
        preset="classic-children",
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
        take=[0],
    )
    with served_sqlite.viewer(created["code"], created["seats"][0]["token"]) as ann:
        while not ann.view["match_over"]:
            if ann.view["legal"]:
                ann.play_first_legal(f"v{ann.view['version']}")
            else:
                ann.until(lambda message: "view" in message)
        ann.act({"action": "draw"}, "late")
        assert refusal(ann, "over")["id"] == "late"
        final = ann.view
        assert final["winners"] and final["end"] is not None and final["hands"]


def run_out(served: Served, code: str, token: str) -> tuple[list[Any], dict[str, Any]]:
    """The legal actions of the player of ``token`` and the event its turn timer played."""
    with served.viewer(code, token) as player:
        legal, seen = player.view["legal"], player.view["version"]
        if not legal:
            return [], {}
        message = player.until(lambda m: m["type"] == "event" and m["version"] == seen + 1)
    return legal, message["event"]


def test_the_turn_timer_lays_the_best_tile_by_default(served: Served) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1], turn_seconds=0.5)
    code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
    assert served.http.get(f"/api/tables/{code}").json()["timeout_action"] == "place"
    for _ in range(3):  # the opening, then the next turns that run out
        with served.viewer(code) as watcher:
            mover = watcher.view["to_move"]
        legal, event = run_out(served, code, tokens[mover])
        if not legal:
            continue  # the time ran out before this player was connected
        places = [entry for entry in legal if entry["action"]["action"] == "place"]
        if places:
            assert event["action"] == "place"
            assert event["points"] == max(entry["points"] for entry in places)
        else:
            assert event["action"] in ("draw", "pass")


def test_a_table_can_keep_the_old_turn_timer_that_draws(served: Served) -> None:
    before = time.time()
    created = served.create(
        seats=TWO_PEOPLE, take=[0, 1], turn_seconds=0.3, timeout_action="draw", preset=HOUSE
    )
    code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
    # From version 0: the catch-up holds whatever the timer played before we got here.
    with served.viewer(code, version=0) as watcher:
        deadline = watcher.view["turn_deadline"]
        assert deadline is not None and before + 0.3 <= deadline
        # A catch-up lists the events themselves: on a busy machine the timer may have
        # played before we connected.
        events = list(watcher.greeting.get("events", []))
        while len(events) < 5:
            events.append(watcher.until(lambda message: message["type"] == "event")["event"])
        opening, after = events[0], events[1:5]
        assert opening["action"] == "place"  # the opening scoring most
        with served.viewer(code, tokens[opening["player"]]) as opener:
            assert opener.view["board"][0]["tile"] == opening["tile"]
        assert after[0]["action"] == "draw"  # the second player does nothing: draws, ...
        assert [event["player"] for event in after[:3]] == [after[0]["player"]] * 3


def test_bots_think_in_worker_processes(sqlite_url: str) -> None:
    """The default executor: observations go to another process and actions come back."""
    with serve_app(sqlite_url, bot_executor=None) as served:
        created = served.create(
            preset="classic-children",
            seats=[{"kind": "bot", "bot": "sim", "think": 0.05}, {"kind": "bot", "bot": "expert"}],
        )
        with served.viewer(created["code"]) as watcher:
            watcher.until(
                lambda message: bool(message.get("view", {}).get("match_over")), timeout=120
            )
            players = {m["event"]["player"] for m in watcher.received if m["type"] == "event"}
            assert players == {0, 1}


def test_an_action_that_cannot_be_saved_changes_nothing(sqlite_url: str) -> None:
    database = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
    with serve_app(sqlite_url) as served, contextlib.closing(database):
        code, tokens = two_people(served)
        mover, other = to_move_and_other(served, code, tokens)
        with mover, other:
            database.execute(
                "CREATE TRIGGER full_disk BEFORE INSERT ON actions "
                "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
            )
            database.commit()
            opening = mover.view["legal"][0]["action"]
            mover.act(opening, "first")
            error = refusal(mover, "unavailable")
            assert error["id"] == "first" and "nothing changed" in error["message"]
            with pytest.raises(TimeoutError):  # what was not stored was never sent
                other.until(lambda message: message["type"] == "event", timeout=0.3)
            database.execute("DROP TRIGGER full_disk")
            database.commit()
            mover.act(opening, "first", version=0)  # the same id: it was never accepted
            accepted = mover.answer("first")
            assert accepted["type"] == "event" and accepted["version"] == 1
            seen = other.until(lambda message: message["type"] == "event")
            assert seen["version"] == 1


def test_the_turn_clock_starts_when_the_last_seat_is_taken(served_sqlite: Served) -> None:
    created = served_sqlite.create(seats=TWO_PEOPLE, take=[0], turn_seconds=0.5)
    code = created["code"]
    with served_sqlite.viewer(code) as watcher:
        assert watcher.view["turn_deadline"] is None  # waiting: no clock
        time.sleep(0.7)
        joining = time.time()
        served_sqlite.join(code, "Bob")
        started = watcher.until(lambda message: message["type"] == "presence")
        joined = time.time()
        deadline = started["view"]["turn_deadline"]
        assert deadline is not None and joining + 0.5 <= deadline <= joined + 0.5
        assert started["view"]["version"] == 0


def test_spectators_cannot_silence_the_players(served: Served) -> None:
    """Four spectators spent the table's one chat budget and the players got 0 of 20
    lines through: the spectators' chat has a budget of its own."""
    code, tokens = two_people(served)
    crowd = [served.viewer(code) for _ in range(4)]
    try:
        count, _ = CHAT_PER_CONNECTION
        for spectator in crowd:
            for number in range(count):
                spectator.send({"type": "chat", "text": f"noise {number}"})
            spectator.send({"type": "ping"})
            spectator.until(lambda message: message["type"] == "pong")
        with served.viewer(code, tokens[0]) as ann, served.viewer(code, tokens[1]) as bob:
            ann.send({"type": "chat", "text": "your move"})
            said = bob.until(lambda message: message["type"] == "chat")
            assert said["messages"][0]["text"] == "your move"
    finally:
        for spectator in crowd:
            spectator.close()


def test_a_seat_has_one_chat_budget_over_all_its_connections(served: Served) -> None:
    code, tokens = two_people(served)
    count, _ = CHAT_PER_SEAT
    with served.viewer(code, tokens[0]) as phone, served.viewer(code, tokens[0]) as laptop:
        for number in range(count):
            phone.send({"type": "chat", "text": f"hi {number}"})
        phone.send({"type": "ping"})
        phone.until(lambda message: message["type"] == "pong")
        laptop.send({"type": "chat", "text": "one more"})
        assert laptop.until(lambda message: message["type"] == "error")["code"] == "rate_limited"
