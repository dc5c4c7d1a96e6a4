"""Resigning and taking back at a live table: who may, who must agree, what is kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette")

from server_games import Message, Served, Viewer, serve_app
from test_server_ws import refusal, to_move_and_other, two_people
from triominos.record import verify
from triominos.server.protocol import TAKEBACK_PAUSE, TAKEBACKS_PER_SEAT


def takeback_said(viewer: Viewer, state: str) -> Message:
    return viewer.until(lambda m: m["type"] == "takeback" and m["state"] == state)


@contextmanager
def opened_by_one_of_two(served: Served) -> Iterator[tuple[Viewer, Viewer]]:
    """Ann and Bob's table, its opening played: the opener's connection and the other's."""
    code, tokens = two_people(served)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        mover.play_first_legal("open")
        other.until(lambda m: m["type"] == "event")
        yield mover, other


def event_of(viewer: Viewer, action: str) -> Message:
    return viewer.until(lambda m: m["type"] == "event" and m["event"]["action"] == action)


def test_a_player_who_resigns_loses_at_once_and_the_record_says_so(served: Served) -> None:
    code, tokens = two_people(served)
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other, served.viewer(code) as watcher:
        mover.play_first_legal("open")  # the opener leads by the tile's points
        other.until(lambda m: m["type"] == "event")
        leader = mover.greeting["seat"]
        watcher.send({"type": "resign", "id": "w"})
        assert refusal(watcher, "spectator")["id"] == "w"
        mover.send({"type": "resign", "id": "r"})  # not mover's turn: a resignation holds
        resigned = mover.answer("r")
        assert resigned["event"]["action"] == "resign" and resigned["event"]["player"] == leader
        assert resigned["event"]["end"]["reason"] == "resigned"
        assert resigned["event"]["winners"] == [1 - leader]
        for viewer in (other, watcher):
            seen = event_of(viewer, "resign")
            assert seen["view"]["match_over"] and seen["view"]["winners"] == [1 - leader]
        mover.send({"type": "resign", "id": "again"})
        assert refusal(mover, "over")["id"] == "again"
    assert served.http.get(f"/api/tables/{code}").json()["status"] == "finished"
    document = served.http.get(f"/api/tables/{code}/record").json()
    assert document["hands"][0]["actions"][-1] == {
        "player": leader,
        "action": "resign",
        "points": 0,
    }
    assert document["winners"] == [1 - leader]
    verify(document)


def three_at_table(served: Served) -> tuple[str, list[str]]:
    """Ann, Bob and a bot at three seats: the code and the people's tokens."""
    people = [{"kind": "person", "name": name} for name in ("Ann", "Bob")]
    created = served.create(
        players=3, seats=[*people, {"kind": "bot", "bot": "greedy"}], take=[0, 1]
    )
    return created["code"], [seat["token"] for seat in created["seats"]]


def test_among_three_a_resignation_waits_until_everyone_asks(served: Served) -> None:
    """At three players a resignation would end the match for two who did not ask: Ann's
    asks the others, and the match ends, as her resignation, once Bob asks too (the bot
    agrees)."""
    code, (ann_token, bob_token) = three_at_table(served)
    with served.viewer(code, ann_token) as ann, served.viewer(code, bob_token) as bob:
        assert not ann.view["may_resign"] and ann.view["ending"] == []
        ann.send({"type": "resign", "id": "r"})
        asked = bob.until(lambda m: m["type"] == "ending")
        assert asked["seats"] == [0] and asked["view"]["may_resign"]
        assert not ann.until(lambda m: m["type"] == "ending")["view"]["may_resign"]
        assert not bob.view["match_over"]
        bob.send({"type": "resign", "id": "b"})
        ended = bob.answer("b")
        assert ended["event"]["action"] == "resign" and ended["event"]["player"] == 0
        assert ended["view"]["match_over"] and 0 not in ended["view"]["winners"]
        assert event_of(ann, "resign")["event"]["player"] == 0


def test_a_request_to_end_the_match_outlives_a_restart(database_url: str) -> None:
    """It was kept in memory only: a restart (or the table moving to another node) forgot
    Ann's request, and Bob's then only asked again instead of ending the match."""
    with serve_app(database_url) as served:
        code, (ann_token, bob_token) = three_at_table(served)
        with served.viewer(code, ann_token) as ann:
            ann.send({"type": "resign", "id": "r"})
            assert ann.until(lambda m: m["type"] == "ending")["seats"] == [0]
    with serve_app(database_url) as served, served.viewer(code, bob_token) as bob:
        assert bob.view["ending"] == [0] and bob.view["may_resign"]
        bob.send({"type": "resign", "id": "b"})
        ended = bob.answer("b")
        assert ended["event"]["action"] == "resign" and ended["event"]["player"] == 0


def test_among_three_a_player_leaves_to_a_bot_and_the_others_play_on(served: Served) -> None:
    """The way out of a table of three: the player gives the seat to a bot; the match goes
    on, and the last person among bots may resign alone."""
    code, (ann_token, bob_token) = three_at_table(served)
    with served.viewer(code, bob_token) as bob:
        left = served.http.post(
            f"/api/tables/{code}/seats/0/bot", json={"token": ann_token, "bot": "greedy"}
        )
        assert left.status_code == 200, left.text
        view = bob.until(
            lambda m: m["type"] == "presence" and m["view"]["seats"][0]["kind"] == "bot"
        )["view"]
        assert view["may_resign"] and not view["match_over"]
        bob.send({"type": "resign", "id": "b"})
        resigned = event_of(bob, "resign")
        assert resigned["event"]["player"] == 1 and resigned["view"]["match_over"]


def test_a_takeback_between_people_needs_the_others_yes(served: Served) -> None:
    code, tokens = two_people(served)
    mover, other = to_move_and_other(served, code, tokens)
    seat = mover.greeting["seat"]
    with mover, other:
        rack = mover.view["rack"]
        assert not mover.view["may_take_back"]
        mover.play_first_legal("open")
        other.until(lambda m: m["type"] == "event")
        assert mover.view["may_take_back"] and not other.view["may_take_back"]
        other.send({"type": "takeback", "id": "not-mine"})
        assert "not player" in refusal(other, "no_takeback")["message"]
        mover.send({"type": "takeback", "id": "t1"})
        asked = takeback_said(other, "asked")
        assert asked["seat"] == seat and asked["view"]["takeback"] == {
            "seat": seat,
            "waiting": [1 - seat],
        }
        assert not takeback_said(mover, "asked")["view"]["may_take_back"]
        mover.send({"type": "takeback_answer", "accept": True})
        assert "no takeback waits" in refusal(mover, "no_takeback")["message"]
        other.send({"type": "takeback_answer", "accept": False})
        assert takeback_said(mover, "declined")["view"]["takeback"] is None
        assert mover.view["version"] == 1 and mover.view["board"]
        served.later(TAKEBACK_PAUSE)  # (asking again at once is refused: below)
        mover.send({"type": "takeback", "id": "t2"})
        takeback_said(other, "asked")
        other.send({"type": "takeback_answer", "accept": True})
        taken = event_of(mover, "takeback")
        assert taken["version"] == 2 and taken["event"]["player"] == seat
        assert taken["event"]["undone"]["action"] == "place"
        view = taken["view"]
        assert view["board"] == [] and sorted(view["rack"]) == sorted(rack)
        assert view["to_move"] == seat and view["legal"] and view["takeback"] is None
        assert event_of(other, "takeback")["view"]["legal"] == []
    with served.viewer(code, tokens[seat], version=1) as back:  # catches up over it
        assert [e["action"] for e in back.greeting["events"]] == ["takeback"]
    served.service.tables.clear()  # the table is replayed from the database
    with served.viewer(code, tokens[seat]) as replayed:
        assert replayed.view["version"] == 2 and replayed.view["board"] == []


def test_a_declined_takeback_is_asked_again_only_after_a_pause(served: Served) -> None:
    with opened_by_one_of_two(served) as (mover, other):
        mover.send({"type": "takeback", "id": "t1"})
        takeback_said(other, "asked")
        other.send({"type": "takeback_answer", "accept": False})
        takeback_said(mover, "declined")
        mover.send({"type": "takeback", "id": "at-once"})
        refused = refusal(mover, "no_takeback")
        assert refused["id"] == "at-once"
        assert f"declined: ask again in {TAKEBACK_PAUSE:.0f} s" in refused["message"]
        served.later(TAKEBACK_PAUSE - 1)
        mover.send({"type": "takeback", "id": "still"})
        assert "ask again in 1 s" in refusal(mover, "no_takeback")["message"]
        served.later(1)
        mover.send({"type": "takeback", "id": "t2"})
        assert takeback_said(other, "asked")["seat"] == mover.greeting["seat"]


def test_a_takeback_lapses_when_the_game_moves_on(served: Served) -> None:
    with opened_by_one_of_two(served) as (mover, other):
        mover.send({"type": "takeback", "id": "t"})
        takeback_said(other, "asked")
        other.play_first_legal("mine")
        assert mover.until(lambda m: m["type"] == "event")["view"]["takeback"] is None
        other.send({"type": "takeback_answer", "accept": True})
        refusal(other, "no_takeback")


def test_a_drawn_tile_is_never_taken_back(served: Served) -> None:
    code, tokens = two_people(served, preset="classic-house")  # a draw beside fitting tiles
    mover, other = to_move_and_other(served, code, tokens)
    with mover, other:
        mover.play_first_legal("open")
        other.until(lambda m: m["type"] == "event")
        other.act({"action": "draw"}, "d")
        assert other.answer("d")["type"] == "event"
        assert not other.view["may_take_back"]
        other.send({"type": "takeback", "id": "t"})
        assert "drawn tile" in refusal(other, "no_takeback")["message"]


def test_takebacks_asked_are_rate_limited(served: Served) -> None:
    with opened_by_one_of_two(served) as (mover, other):
        count, _ = TAKEBACKS_PER_SEAT
        for number in range(count):
            served.later(TAKEBACK_PAUSE)  # past the pause after the last one declined
            mover.send({"type": "takeback", "id": f"t{number}"})
            takeback_said(other, "asked")
            other.send({"type": "takeback_answer", "accept": False})
            takeback_said(mover, "declined")
        served.later(TAKEBACK_PAUSE)
        mover.send({"type": "takeback", "id": "once-more"})
        assert refusal(mover, "rate_limited")["id"] == "once-more"


@pytest.fixture
def slow_bot(sqlite_url: str) -> Iterator[Served]:
    """Bots that wait a minute before each move: the person has time to take one back.

    Without rate limits: the test creates tables until one's random seed gives the
    opening to the person, which may take more than the ten a minute allowed."""
    with serve_app(sqlite_url, bot_delay=60.0, rate_limits=False) as served:
        yield served


def test_a_bot_accepts_a_takeback_at_once(slow_bot: Served) -> None:
    for _ in range(30):  # a table's seed is random: until Ann holds the opening tile
        created = slow_bot.create(take=[0])
        code, token = created["code"], created["seats"][0]["token"]
        ann = slow_bot.viewer(code, token)
        if ann.view["legal"]:
            break
        ann.close()
    with ann:
        ann.play_first_legal("open")
        ann.send({"type": "takeback", "id": "t"})
        taken = ann.answer("t")
        assert taken["event"]["action"] == "takeback" and taken["view"]["legal"]
        assert taken["view"]["board"] == []


def test_resign_and_takeback_messages_are_documented() -> None:
    from pathlib import Path

    protocol = (Path(__file__).resolve().parent.parent / "PROTOCOL.md").read_text()
    for text in ("| `resign` |", "| `takeback` |", "| `takeback_answer` |", "`no_takeback`"):
        assert text in protocol


# --- the end of a hand, looked at ---------------------------------------------------------


def play_out_the_hand(viewers: tuple[Viewer, Viewer]) -> Message:
    """Both people play their first legal action until the hand ends: the last event."""
    for _ in range(500):
        mover = next((each for each in viewers if each.view["legal"]), None)
        if mover is None:
            viewers[0].until(lambda m: "view" in m, timeout=5)
            continue
        version = mover.view["version"]
        event = mover.play_first_legal(f"v{version}")
        for each in viewers:
            while each.view["version"] <= version:
                each.receive()
        if event["event"].get("end"):
            return event
    raise AssertionError("the hand did not end")


def test_the_first_turn_clock_waits_while_its_player_looks_at_the_hand_end(
    served: Served,
) -> None:
    seconds = 600.0
    code, tokens = two_people(
        served,
        turn_seconds=seconds,
        options={
            "rack_sizes": {str(count): 2 for count in range(2, 7)},
            "target_score": None,
            "hand_limit": 2,
        },
    )
    viewers = to_move_and_other(served, code, tokens)
    with viewers[0], viewers[1]:
        before_end = time.time()
        play_out_the_hand(viewers)
        after_end = time.time()
        mover = next(each for each in viewers if each.view["legal"])
        other = viewers[1] if mover is viewers[0] else viewers[0]
        deadline = mover.view["turn_deadline"]
        assert mover.view["reading"] and other.view["reading"]  # a reload shows the end again
        # A turn to read the end, then the turn itself.
        assert before_end + 2 * seconds <= deadline <= after_end + 2 * seconds
        other.send({"type": "went_on", "hand": 1})  # not to move: nothing changes
        mover.send({"type": "went_on", "hand": 9})  # a hand that is not the last: neither
        sent = time.time()
        mover.send({"type": "went_on", "hand": 1})
        presence = other.until(lambda m: m["type"] == "presence")
        heard = time.time()
        started = presence["view"]["turn_deadline"] - seconds
        assert sent <= started <= heard
        mine = mover.until(lambda m: m["type"] == "presence")["view"]
        assert mine["turn_deadline"] == presence["view"]["turn_deadline"] and mine["legal"]
        assert not mine["reading"] and not presence["view"]["reading"]
        mover.send({"type": "went_on", "hand": 1})  # said once is enough
        mover.send({"type": "ping"})
        assert mover.until(lambda m: m["type"] in ("pong", "presence"))["type"] == "pong"


def test_a_takeback_gives_the_turn_back_with_its_clock_and_leaves_the_record(
    served: Served,
) -> None:
    seconds = 600.0
    code, tokens = two_people(served, turn_seconds=seconds)
    mover, other = to_move_and_other(served, code, tokens)
    seat = mover.greeting["seat"]
    with mover, other:
        mover.play_first_legal("open")
        other.until(lambda m: m["type"] == "event")
        mover.send({"type": "takeback", "id": "t"})
        takeback_said(other, "asked")
        sent = time.time()
        other.send({"type": "takeback_answer", "accept": True})
        taken = event_of(mover, "takeback")
        heard = time.time()
        assert sent <= taken["view"]["turn_deadline"] - seconds <= heard  # a fresh turn
        opening = mover.view["legal"][-1]["action"]  # the opening again, maybe turned
        mover.act(opening, "again")
        assert mover.answer("again")["type"] == "event"
        other.send({"type": "resign", "id": "r"})
        other.answer("r")
    document = served.http.get(f"/api/tables/{code}/record").json()
    actions = document["hands"][0]["actions"]
    assert [action["action"] for action in actions] == ["place", "resign"]
    assert actions[0]["player"] == seat and actions[0]["tile"] == opening["tile"]
    assert document["winners"] == [seat]
    verify(document)
