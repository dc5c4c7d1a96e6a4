"""The score pad's HTTP API on SQLite and PostgreSQL: games entered, undone, finished and
exported; players' statistics over known games; bad entries refused with a message."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.applications import Starlette
from starlette.testclient import TestClient

from triominos.server.pad_api import pad_routes
from triominos.server.store import Store


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    store = Store(database_url)
    store.upgrade()
    with TestClient(Starlette(routes=pad_routes(store))) as test_client:
        yield test_client
    store.dispose()


def new_game(client: TestClient, *players: str, **body: Any) -> dict[str, Any]:
    response = client.post("/api/pad/games", json={"players": list(players), **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def enter(client: TestClient, game: str, *entries: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for entry in entries:
        response = client.post(f"/api/pad/games/{game}/entries", json={"entry": entry})
        assert response.status_code == 201, response.text
        answer = response.json()
    return answer


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


SHORT = {"rack_sizes": {str(n): 2 for n in range(2, 7)}, "target_score": 60}
"""Two tiles a rack and a target of 60: a hand or two make a whole match."""


def play_short_match(client: TestClient, ann: str, bob: str) -> dict[str, Any]:
    """Ann opens 5-5-5 (25), Bob lays 4-5-5 with a bridge (54), Ann goes out with 3-4-5
    and collects Bob's last tile (12 + 25 + 7): 69 to 54, and the match is over."""
    game = new_game(client, ann, bob, preset="classic", options=SHORT)
    code = game["id"]
    enter(
        client,
        code,
        {"kind": "lay", "player": 0, "tile": "5-5-5"},
        {"kind": "lay", "player": 1, "tile": "4-5-5", "figure": "bridge"},
        {"kind": "lay", "player": 0, "tile": "3-4-5"},
    )
    answer = enter(client, code, {"kind": "go_out", "player": 0, "remaining": [0, 7]})
    assert answer["sheet"]["is_over"] and answer["sheet"]["winners"] == [0]
    finished = client.post(f"/api/pad/games/{code}/finish", json={"version": 4})
    assert finished.status_code == 200, finished.text
    result: dict[str, Any] = finished.json()
    return result


def test_a_game_is_entered_finished_and_kept(client: TestClient) -> None:
    game = new_game(client, "Ann", "Bob", preset="classic")
    assert game["link"].endswith(f"/pad/{game['id']}")
    assert game["version"] == 0 and game["sheet"]["totals"] == [0, 0]
    code = game["id"]
    answer = enter(
        client,
        code,
        {"kind": "lay", "player": 0, "tile": "5-5-5"},
        {"kind": "draw", "player": 1, "count": 3},
        {"kind": "pass", "player": 1},
    )
    assert answer["version"] == 3 and answer["sheet"]["totals"] == [25, -25]
    undone = client.post(f"/api/pad/games/{code}/undo", json={"version": 3})
    assert undone.status_code == 200 and undone.json()["sheet"]["totals"] == [25, -15]
    shown = client.get(f"/api/pad/games/{code}").json()
    assert shown["version"] == 2 and shown["sheet"]["racks"] == [8, 12]
    finished = client.post(f"/api/pad/games/{code}/finish").json()
    assert finished["finished"] and finished["sheet"]["winners"] == [0]
    assert finished["sheet"]["stopped"]
    refused = client.post(f"/api/pad/games/{code}/entries", json={"entry": {"kind": "pass"}})
    assert error_of(refused, 409)["code"] == "finished"
    assert error_of(client.post(f"/api/pad/games/{code}/undo"), 409)["code"] == "finished"


def test_statistics_sum_the_finished_games(client: TestClient) -> None:
    first = play_short_match(client, "Ann", "Bob")
    assert first["finished"] and not first["sheet"]["stopped"]
    play_short_match(client, "bob", "Cas")  # the same Bob, whatever the case
    unfinished = new_game(client, "Ann", "Dee")
    enter(client, unfinished["id"], {"kind": "lay", "player": 0, "tile": "5-5-5"})
    players = {stat["name"]: stat for stat in client.get("/api/pad/players").json()["players"]}
    assert set(players) == {"Ann", "Bob", "Cas"}  # Dee has no finished game
    assert players["Ann"] == {
        "name": "Ann",
        "games": 1,
        "won": 1,
        "hands": 1,
        "average_hand": 69.0,
        "best_hand": 69,
        "bonuses": {"opening_triple": 1},
    }
    assert players["Bob"] == {
        "name": "Bob",
        "games": 2,
        "won": 1,
        "hands": 2,
        "average_hand": 61.5,
        "best_hand": 69,
        "bonuses": {"opening_triple": 1, "bridge": 1},
    }
    assert players["Cas"]["won"] == 0 and players["Cas"]["bonuses"] == {"bridge": 1}


def test_bad_entries_are_refused_with_a_message(client: TestClient) -> None:
    code = new_game(client, "Ann", "Bob")["id"]
    url = f"/api/pad/games/{code}/entries"
    for entry, field, words in [
        ({"kind": "lay", "player": 0, "tile": "6-6-6"}, "entry.tile", "not a tile"),
        ({"kind": "lay", "player": 2, "tile": "5-5-5"}, "entry.player", "from 0 to 1"),
        ({"kind": "fly", "player": 0}, "entry.kind", "must be one of"),
        ({"kind": "lay", "tile": "5-5-5"}, "entry.player", "needs player"),
    ]:
        error = error_of(client.post(url, json={"entry": entry}), 400)
        assert (error["code"], error["field"]) == ("bad_entry", field)
        assert words in error["message"]
    enter(client, code, {"kind": "lay", "player": 0, "tile": "5-5-5"})
    for entry, field, words in [
        ({"kind": "draw", "player": 1, "count": -1}, "entry.count", "at least 1"),
        ({"kind": "lay", "player": 1, "tile": "5-5-5"}, "entry.tile", "already on the table"),
        ({"kind": "lay", "player": 1, "value": 3, "figure": "star"}, "entry.figure", "one of"),
    ]:
        error = error_of(client.post(url, json={"entry": entry}), 400)
        assert (error["code"], error["field"]) == ("bad_entry", field)
        assert words in error["message"]
    # The pad's reason, for the page to say in any language (issue 32).
    laid_twice = {"kind": "lay", "player": 1, "tile": "5-5-5"}
    error = error_of(client.post(url, json={"entry": laid_twice}), 400)
    assert error["reason"] == {"key": "already_laid", "params": {"tile": "5-5-5"}}
    shapeless = error_of(client.post(url, json={"entry": {"kind": "fly", "player": 0}}), 400)
    assert "reason" not in shapeless
    assert error_of(client.post(url, content=b"{nope"), 400)["code"] == "bad_request"
    stale = client.post(url, json={"entry": {"kind": "pass", "player": 1}, "version": 0})
    assert error_of(stale, 409)["code"] == "stale_version"
    assert client.get(f"/api/pad/games/{code}").json()["version"] == 1


def test_bad_games_are_refused_with_a_message(client: TestClient) -> None:
    for body, field in [
        ({"players": ["Ann"]}, "players"),
        ({"players": ["Ann", "ANN"]}, "players"),
        ({"players": ["Ann", "Bob"], "preset": "chess"}, "preset"),
        ({"players": ["Ann", "Bob"], "options": {"target_score": 0}}, "options.target_score"),
        ({"players": ["Ann", "Bob"], "options": {"colour": "red"}}, "options.colour"),
    ]:
        error = error_of(client.post("/api/pad/games", json=body), 400)
        assert error["field"] == field, error
    assert error_of(client.get("/api/pad/games/NOPE1234"), 404)["code"] == "not_found"


def test_a_result_is_exported_as_csv_and_json(client: TestClient) -> None:
    code = play_short_match(client, "Ann", "Bob")["id"]
    exported = client.get(f"/api/pad/games/{code}/export.csv")
    assert exported.headers["content-type"].startswith("text/csv")
    assert f"triominos-pad-{code}.csv" in exported.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0] == ["hand", "entry", "player", "detail", "Ann", "Bob"]
    assert rows[-1] == ["", "", "", "match total", "69", "54"]
    document = client.get(f"/api/pad/games/{code}/export.json")
    assert "attachment" in document.headers["content-disposition"]
    sheet = document.json()["sheet"]
    assert sheet["format"] == "triominos-pad/1" and sheet["totals"] == [69, 54]
    assert [entry["kind"] for entry in sheet["entries"]] == ["lay", "lay", "lay", "go_out"]


def test_a_game_outlives_the_server(database_url: str, client: TestClient) -> None:
    code = new_game(client, "Ann", "Bob", preset="extended")["id"]
    enter(
        client,
        code,
        {"kind": "lay", "player": 1, "tile": "2-4-5"},
        {"kind": "draw", "player": 0, "count": 2},
        {"kind": "lay", "player": 0, "value": 9, "figure": "bridge"},
    )
    before = client.get(f"/api/pad/games/{code}").json()
    store = Store(database_url)  # another server on the same database
    with TestClient(Starlette(routes=pad_routes(store))) as other:
        after = other.get(f"/api/pad/games/{code}").json()
        undone = other.post(f"/api/pad/games/{code}/undo", json={"version": 3})
        assert undone.status_code == 200 and undone.json()["sheet"]["totals"] == [-10, 11]
    store.dispose()
    assert after == before and after["sheet"]["totals"] == [39, 11]
    assert client.get(f"/api/pad/games/{code}").json()["version"] == 2
