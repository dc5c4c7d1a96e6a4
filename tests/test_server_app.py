"""The HTTP side of the service: presets, tables, seats, rematches, records, pages."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

from server_games import Served, match_over, my_turn, serve_app, summary_of
from triominos.record import verify
from triominos.server.app import STATIC


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) <= {"code", "message", "field"} and error["message"]
    assert "Traceback" not in response.text
    return error


def wait_until_finished(served: Served, code: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = summary_of(served.http, code)
        if summary["status"] == "finished":
            return summary
        time.sleep(0.05)
    raise AssertionError(f"table {code} did not finish")


BOTS_ONLY: dict[str, Any] = {
    "preset": "classic-children",
    "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
}


def test_presets_list_every_preset_its_player_counts_and_the_bots(served: Served) -> None:
    answer = served.http.get("/api/presets").json()
    names = [entry["name"] for entry in answer["presets"]]
    assert names[0] == "classic" and "junior" in names
    junior = next(entry for entry in answer["presets"] if entry["name"] == "junior")
    assert junior["players"] == [2, 3, 4] and junior["rules"]["bank"] == 60
    assert [bot["name"] for bot in answer["bots"]] == ["random", "greedy", "expert", "sim"]
    assert "target_score" in answer["options"]


def test_a_new_table_has_a_code_a_link_and_tokens_for_the_seats_taken(served: Served) -> None:
    created = served.create(
        players=3,
        seats=[
            {"kind": "person", "name": "Ann"},
            {"kind": "person"},
            {"kind": "bot", "bot": "sim", "think": 0.5},
        ],
        options={"target_score": 150},
        turn_seconds=30,
        take=[0],
    )
    code = created["code"]
    assert created["link"] == f"{served.base_url}/t/{code}"
    assert [seat["seat"] for seat in created["seats"]] == [0]
    token = created["seats"][0]["token"]
    assert len(token) >= 40
    summary = served.http.get(f"/api/tables/{code.lower()}").json()
    assert summary["code"] == code and summary["status"] == "waiting"
    assert summary["rules"]["target_score"] == 150 and summary["turn_seconds"] == 30
    assert [seat["name"] for seat in summary["seats"]] == ["Ann", "Player 2", "sim"]
    assert [seat["taken"] for seat in summary["seats"]] == [True, False, True]
    assert summary["seats"][2]["think"] == 0.5
    assert token not in str(summary)


def test_joining_takes_the_first_free_seat_or_the_one_asked(served: Served) -> None:
    code = served.create(players=3, seats=[{"kind": "person"}] * 3)["code"]
    first = served.http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 2}).json()
    assert first["seat"] == 2
    second = served.http.post(f"/api/tables/{code}/join", json={"name": "Cy"}).json()
    assert second["seat"] == 0 and second["token"] != first["token"]
    error = error_of(
        served.http.post(f"/api/tables/{code}/join", json={"name": "Eve", "seat": 2}), 409
    )
    assert error["code"] == "taken"
    summary = served.http.get(f"/api/tables/{code}").json()
    assert [seat["name"] for seat in summary["seats"]] == ["Cy", "Player 2", "Bob"]


def test_open_tables_are_the_listed_ones_with_a_free_seat_newest_first(served: Served) -> None:
    full = served.create(take=[0], listed=True)["code"]
    older = served.create(listed=True)["code"]
    served.create()  # private: its code is for those its link was given to
    newer = served.create(listed=True)["code"]
    listed = [table["code"] for table in served.http.get("/api/tables?open=1").json()["tables"]]
    assert listed == [newer, older]
    everything = [table["code"] for table in served.http.get("/api/tables").json()["tables"]]
    assert everything == [newer, older, full]


def test_a_finished_match_has_a_record_that_verifies(served: Served) -> None:
    code = served.create(**BOTS_ONLY)["code"]
    summary = wait_until_finished(served, code)
    document = served.http.get(f"/api/tables/{code}/record").json()
    verify(document)
    assert document["preset"] == "classic-children"
    assert [player["kind"] for player in document["players"]] == ["bot", "bot"]
    assert document["scores"] == summary["totals"]
    assert sum(len(hand["actions"]) for hand in document["hands"]) == summary["version"]


def test_the_record_of_a_match_being_played_is_refused(served: Served) -> None:
    code = served.create()["code"]
    assert error_of(served.http.get(f"/api/tables/{code}/record"), 409)["code"] == "playing"


def test_a_rematch_has_the_same_rules_and_seats_and_the_same_tokens(served: Served) -> None:
    created = served.create(
        preset="classic-children",
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
        take=[0],
        turn_seconds=20,
    )
    code, token = created["code"], created["seats"][0]["token"]
    early = served.http.post(f"/api/tables/{code}/rematch", json={"token": token})
    assert error_of(early, 409)["code"] == "playing"
    with served.viewer(code, token) as ann:
        while not ann.view["match_over"]:
            if ann.view["legal"]:
                ann.play_first_legal(f"v{ann.view['version']}")
            else:
                ann.until(lambda message: my_turn(message) or match_over(message))
        answer = served.http.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert answer.status_code == 201
        again = answer.json()
        announced = ann.until(lambda message: message["type"] == "rematch")
        assert announced == {"type": "rematch", **again}
    assert served.http.post(f"/api/tables/{code}/rematch", json={"token": token}).json() == again
    summary = served.http.get(f"/api/tables/{again['code']}").json()
    assert summary["preset"] == "classic-children" and summary["turn_seconds"] == 20
    assert [(seat["name"], seat["kind"]) for seat in summary["seats"]] == [
        ("Ann", "person"),
        ("greedy", "bot"),
    ]
    assert summary["status"] == "playing"
    with served.viewer(again["code"], token) as ann_again:
        assert ann_again.greeting["type"] == "welcome" and ann_again.greeting["seat"] == 0


def test_a_seat_whose_person_left_can_be_given_to_a_bot(served: Served) -> None:
    created = served.create(
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}], take=[0, 1]
    )
    code = created["code"]
    ann, bob = (seat["token"] for seat in created["seats"])
    with served.viewer(code, ann) as ann_view:
        busy = served.http.post(
            f"/api/tables/{code}/seats/0/bot", json={"token": bob, "bot": "greedy"}
        )
        assert error_of(busy, 409)["code"] == "connected"
        early = served.http.post(
            f"/api/tables/{code}/seats/1/bot", json={"token": ann, "bot": "greedy"}
        )
        assert error_of(early, 409)["code"] == "away_grace"  # Bob may still come
        assert 0 < int(early.headers["Retry-After"]) <= 60
        served.later(61)
        given = served.http.post(
            f"/api/tables/{code}/seats/1/bot", json={"token": ann, "bot": "greedy"}
        )
        assert given.status_code == 200, given.text
        assert given.json()["seats"][1]["kind"] == "bot"
        presence = ann_view.until(
            lambda message: message["type"] == "presence" and message["seats"][1]["kind"] == "bot"
        )
        assert presence["seats"][1] == {
            "name": "Bob",
            "kind": "bot",
            "bot": "greedy",
            "think": None,
            "connected": True,
            "bot_allowed_at": None,
            "returns": True,
        }
        # The game goes on: Ann plays, the bot answers.
        for number in range(3):
            if not ann_view.view["legal"]:
                ann_view.until(my_turn)
            ann_view.play_first_legal(f"a{number}")
        assert any(
            message["type"] == "event" and message["event"]["player"] == 1
            for message in ann_view.received
        )
    again = served.http.post(
        f"/api/tables/{code}/seats/1/bot", json={"token": ann, "bot": "expert"}
    )
    assert error_of(again, 409)["code"] == "taken"


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"preset": None}, "preset", "expected `str`"),
        ({"preset": "chess"}, "preset", "must be one of"),
        ({"options": {"target_score": 0}}, "options.target_score", "from 1 to 10000"),
        ({"options": {"opening": "never"}}, "options.opening", "must be one of"),
        ({"options": {"colour": "red"}}, "options.colour", "not a rule option"),
        ({"preset": "junior", "players": 5}, "players", "2 to 4"),
        ({"players": "two"}, "players", "expected `int`"),
        ({"seats": [{"kind": "person"}]}, "seats", "has 2 seats"),
        (
            {"seats": [{"kind": "person"}, {"kind": "bot", "bot": "alphazero"}]},
            "seats[1].bot",
            "must be one of",
        ),
        ({"seats": [{"kind": "person"}, {"kind": "robot"}]}, "seats[1].kind", "invalid enum value"),
        ({"take": [1]}, "take", "not a person seat"),
        ({"take": [7]}, "take", "not a person seat"),
        ({"turn_seconds": -5}, "turn_seconds", ">"),
        (
            {"seats": [{"kind": "person", "name": "x" * 41}, {"kind": "person"}]},
            "seats[0].name",
            "length",
        ),
    ],
)
def test_a_bad_table_is_refused_naming_the_field(
    served_sqlite: Served, body: dict[str, Any], field: str, words: str
) -> None:
    full = {
        "preset": "classic",
        "players": 2,
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}],
        **body,
    }
    full = {
        key: value
        for key, value in full.items()
        if not (key == "preset" and "preset" not in body and field == "preset")
    }
    error = error_of(served_sqlite.http.post("/api/tables", json=full), 400)
    assert error["code"] == "bad_request" and error["field"] == field
    assert words.lower() in error["message"].lower()


def test_a_body_that_is_not_json_or_too_large_is_refused(served_sqlite: Served) -> None:
    json_type = {"Content-Type": "application/json"}
    error = error_of(
        served_sqlite.http.post("/api/tables", content=b"{nope", headers=json_type), 400
    )
    assert error["code"] == "bad_request" and "not JSON" in error["message"]
    huge = b'{"preset": "' + b"x" * 70_000 + b'"}'
    assert (
        error_of(served_sqlite.http.post("/api/tables", content=huge), 413)["code"] == "too_large"
    )


def test_join_errors(served_sqlite: Served) -> None:
    http = served_sqlite.http
    code = served_sqlite.create()["code"]
    assert (
        error_of(http.post("/api/tables/NOSUCH/join", json={"name": "A"}), 404)["code"]
        == "not_found"
    )
    assert error_of(http.post(f"/api/tables/{code}/join", json={}), 400)["field"] == "name"
    assert (
        error_of(http.post(f"/api/tables/{code}/join", json={"name": "A", "seat": 2}), 400)["field"]
        == "seat"
    )
    assert (
        error_of(http.post(f"/api/tables/{code}/join", json={"name": "A", "seat": 1}), 409)["code"]
        == "taken"
    )
    assert (
        error_of(http.post(f"/api/tables/{code}/join", json={"name": ""}), 400)["field"] == "name"
    )
    finished = served_sqlite.create(**BOTS_ONLY)["code"]
    wait_until_finished(served_sqlite, finished)
    assert (
        error_of(http.post(f"/api/tables/{finished}/join", json={"name": "A"}), 409)["code"]
        == "over"
    )


def test_seat_and_rematch_requests_need_a_token_of_the_table(served_sqlite: Served) -> None:
    http = served_sqlite.http
    code = served_sqlite.create(take=[0])["code"]
    other = served_sqlite.create(take=[0])["seats"][0]["token"]
    refused = http.post(f"/api/tables/{code}/seats/0/bot", json={"token": other, "bot": "greedy"})
    assert error_of(refused, 403)["code"] == "bad_token"
    refused = http.post(f"/api/tables/{code}/rematch", json={"token": other})
    assert error_of(refused, 403)["code"] == "bad_token"
    assert error_of(http.post(f"/api/tables/{code}/rematch", json={}), 400)["field"] == "token"
    token = http.post(f"/api/tables/{code}/join", json={"name": "x"})
    assert token.status_code == 409  # the only person seat is taken
    own = served_sqlite.create(take=[0])
    mine = own["seats"][0]["token"]
    for seat, body, field in [
        ("9", {"token": mine, "bot": "greedy"}, "seat"),
        ("one", {"token": mine, "bot": "greedy"}, "seat"),
        ("0", {"token": mine, "bot": "deep-blue"}, "bot"),
        ("0", {"token": mine, "bot": "sim", "think": 0}, "think"),
    ]:
        answer = http.post(f"/api/tables/{own['code']}/seats/{seat}/bot", json=body)
        assert error_of(answer, 400)["field"] == field


def test_unknown_tables_and_routes_answer_404_in_json(served_sqlite: Served) -> None:
    http = served_sqlite.http
    assert error_of(http.get("/api/tables/ZZZZZZ"), 404)["code"] == "not_found"
    assert error_of(http.get("/api/tables/not-a-code!"), 404)["code"] == "not_found"
    assert error_of(http.get("/api/tables/ZZZZZZ/record"), 404)["code"] == "not_found"
    assert error_of(http.get("/api/nothing"), 404)["code"] == "not_found"


def test_pages_are_the_static_files(served_sqlite: Served) -> None:
    http = served_sqlite.http
    for path, file in [
        ("/", "index.html"),
        ("/t/ABCDEF", "index.html"),
        ("/pad", "pad/index.html"),
        ("/pad/3", "pad/index.html"),
    ]:
        answer = http.get(path)
        if (STATIC / file).is_file():
            assert answer.status_code == 200 and answer.text == (STATIC / file).read_text()
        else:
            assert error_of(answer, 404)["message"] == f"the page {file} is not installed"
    present = sorted(path for path in STATIC.rglob("*") if path.is_file())
    if present:
        relative = present[0].relative_to(STATIC).as_posix()
        assert http.get(f"/static/{relative}").content == present[0].read_bytes()
    assert http.get("/static/no-such-file.js").status_code == 404


def test_a_broken_database_is_a_json_error_without_a_trace(sqlite_url: str) -> None:
    with serve_app(sqlite_url) as served:
        served.create(listed=True)
        with contextlib.closing(sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))) as db:
            db.execute("DROP TABLE seats")
            db.commit()
        answer = served.http.get("/api/tables")
        error = error_of(answer, 503)
        assert error["code"] == "unavailable" and answer.headers["Retry-After"] == "5"
