"""Seats that change hands (issue 13): nobody is evicted for good by a page reload.

A seat goes to a bot only after its person has been away for the table's grace period,
the person who comes back with their token takes it back, a rematch seats the people of
the table, and a join racing a handover cannot both win.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

from server_games import Message, Served, match_over, my_turn
from triominos.server.protocol import DEFAULT_GRACE_SECONDS

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def to_bot(served: Served, code: str, seat: int, token: str, bot: str = "greedy") -> Any:
    return served.http.post(
        f"/api/tables/{code}/seats/{seat}/bot", json={"token": token, "bot": bot}
    )


def seat_is(seat: int, kind: str) -> Any:
    return lambda message: bool(
        message.get("view") and message["view"]["seats"][seat]["kind"] == kind
    )


def test_a_reload_cannot_evict_anyone(served: Served) -> None:
    """The exploit: Bob reloads his page (0.13 s away) and Ann gives his seat to a bot."""
    created = served.create(seats=TWO_PEOPLE, take=[0, 1], preset="classic-children")
    code = created["code"]
    ann, bob = (seat["token"] for seat in created["seats"])
    with served.viewer(code, ann) as ann_view:
        with served.viewer(code, bob):
            left = time.time()  # Bob's page reloads: he is away from a moment after this
        away = ann_view.until(
            lambda message: message["type"] == "presence" and not message["seats"][1]["connected"]
        )
        allowed_at = away["seats"][1]["bot_allowed_at"]
        assert allowed_at is not None  # the page counts down to it
        refused = to_bot(served, code, 1, ann)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "away_grace"
        wait = int(refused.headers["Retry-After"])
        # Bounded by the moments around it, not by how fast the machine got here.
        assert left + DEFAULT_GRACE_SECONDS - time.time() <= wait <= DEFAULT_GRACE_SECONDS
        with served.viewer(code, bob) as bob_view:  # he is back
            assert bob_view.view["seats"][1]["bot_allowed_at"] is None
            assert to_bot(served, code, 1, ann).json()["error"]["code"] == "connected"


def test_after_the_grace_period_a_bot_plays_and_the_person_takes_the_seat_back(
    served: Served,
) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1], preset="classic-children")
    code = created["code"]
    ann, bob = (seat["token"] for seat in created["seats"])
    with served.viewer(code, ann) as ann_view:
        served.later(DEFAULT_GRACE_SECONDS + 1)  # Bob never came
        given = to_bot(served, code, 1, ann)
        assert given.status_code == 200, given.text
        ann_view.until(seat_is(1, "bot"))
        assert to_bot(served, code, 0, ann).status_code == 200  # Ann's bot plays her
        with served.viewer(code, bob) as bob_view:  # Bob comes back with his token
            if bob_view.view["seats"][1]["kind"] == "bot":  # his bot was thinking
                bob_view.until(seat_is(1, "person"))
            assert bob_view.view["seats"][1]["kind"] == "person"
            while not bob_view.view["legal"]:
                bob_view.until(my_turn)
            event = bob_view.play_first_legal("bob-plays")
            assert event["type"] == "event" and event["event"]["player"] == 1


def test_a_player_may_give_their_own_seat_to_a_bot_at_once(served: Served) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1], preset="classic-children")
    code = created["code"]
    ann = created["seats"][0]["token"]
    with served.viewer(code, ann):
        answer = to_bot(served, code, 0, ann)
        assert answer.status_code == 200 and answer.json()["seats"][0]["kind"] == "bot"


def test_the_rematch_seats_the_people_of_the_table(served: Served) -> None:
    created = served.create(
        seats=TWO_PEOPLE, take=[0, 1], preset="classic-children", options={"target_score": 30}
    )
    code = created["code"]
    ann, bob = (seat["token"] for seat in created["seats"])
    served.later(DEFAULT_GRACE_SECONDS + 1)
    assert to_bot(served, code, 1, ann).status_code == 200
    assert to_bot(served, code, 0, ann).status_code == 200  # Ann leaves too: bots finish
    with served.viewer(code) as watcher:
        watcher.until(match_over, timeout=120)
    again = served.http.post(f"/api/tables/{code}/rematch", json={"token": bob})
    assert again.status_code == 201, again.text
    rematch = again.json()["code"]
    summary = served.http.get(f"/api/tables/{rematch}").json()
    assert [seat["kind"] for seat in summary["seats"]] == ["person", "person"]
    assert summary["status"] == "playing"  # both people hold their tokens
    with served.viewer(rematch, bob) as bob_view:
        assert bob_view.greeting["seat"] == 1
    refused = served.http.post(f"/api/tables/{rematch}/join", json={"name": "Eve"})
    assert refused.status_code == 409


def race_a_join_and_a_handover(served: Served) -> dict[str, int]:
    """Eve joins seat 2 while Ann gives it to a bot, both at once: their answers."""
    created = served.create(seats=[*TWO_PEOPLE, {"kind": "person"}], players=3, take=[0, 1])
    code, ann = created["code"], created["seats"][0]["token"]
    answers: dict[str, int] = {}
    start = threading.Barrier(2)

    def join() -> None:
        start.wait()
        body = {"name": "Eve", "seat": 2}
        answers["join"] = served.http.post(f"/api/tables/{code}/join", json=body).status_code

    def hand_over() -> None:
        start.wait()
        answers["bot"] = to_bot(served, code, 2, ann).status_code

    threads = [threading.Thread(target=join), threading.Thread(target=hand_over)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seat: Message = served.http.get(f"/api/tables/{code}").json()["seats"][2]
    assert seat["kind"] == ("person" if answers["join"] == 200 else "bot")
    return answers


def test_a_join_and_a_handover_of_one_seat_never_both_win(served: Served) -> None:
    for _ in range(4):  # within the create limit's burst (PROTOCOL.md, Limits)
        answers = race_a_join_and_a_handover(served)
        assert sorted(answers.values()) == [200, 409], answers
