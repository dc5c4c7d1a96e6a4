"""The puzzles' HTTP API on SQLite and PostgreSQL: a browser id, puzzles shown without
their solution, one rated attempt each that moves both ratings, the puzzle of the day,
the next puzzle near the rating; hostile requests refused with nothing changed."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("starlette")

from sqlalchemy import inspect
from starlette.applications import Starlette
from starlette.testclient import TestClient

from puzzle_cases import made_puzzles
from triominos.board import Placement
from triominos.explain import where
from triominos.game import action_json
from triominos.puzzles import Puzzle, PuzzleSet
from triominos.server.puzzle_api import BROWSER_HEADER, puzzle_routes
from triominos.server.puzzle_store import PuzzleConflictError, PuzzleStore
from triominos.server.service import address_hash
from triominos.server.store import Store
from triominos.server.table import token_hash

DAY = datetime.date(2026, 12, 1)
PUZZLES = PuzzleSet(made_puzzles(6))


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    app = Starlette(routes=puzzle_routes(store, PUZZLES, today=lambda: DAY))
    with TestClient(app) as test_client:
        yield test_client


def new_browser(client: TestClient) -> dict[str, str]:
    answer = client.post("/api/puzzles/browsers", json={})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["rating"] == {"rating": 1500, "deviation": 350, "volatility": 0.06}
    return {BROWSER_HEADER: body["browser"]}


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def answer(puzzle: Puzzle, solved: bool) -> dict[str, Any]:
    """The solution, or a legal action that is not it."""
    board = puzzle.observation.board
    if solved:
        return action_json(puzzle.solution, board.joker_cell)
    wrong = next(
        o.action for o in puzzle.observation.legal_actions() if o.action != puzzle.solution
    )
    return action_json(wrong, board.joker_cell)


def rating_of(client: TestClient, browser: dict[str, str]) -> dict[str, Any]:
    me = client.get("/api/puzzles/me", headers=browser)
    assert me.status_code == 200, me.text
    found: dict[str, Any] = me.json()
    return found


def test_a_puzzle_is_shown_as_its_seat_sees_it_and_never_with_its_solution(
    client: TestClient,
) -> None:
    puzzle = PUZZLES.puzzles[0]
    shown = client.get(f"/api/puzzles/{puzzle.id}", headers=new_browser(client))
    assert shown.status_code == 200
    view = shown.json()["puzzle"]
    observation = puzzle.observation
    assert view["id"] == puzzle.id and view["seat"] == observation.seat
    assert view["rack"] == [tile.name for tile in observation.rack_tiles]
    assert len(view["board"]) == len(observation.board)
    assert view["attempt"] is None and view["rating"]["rating"] == 1500
    assert len(view["legal"]) == len(observation.legal_actions())
    for word in ("solution", "obvious", "explanation", "margin"):
        assert word not in shown.text
    # Another seat's rack appears nowhere: only its size.
    assert view["rack_sizes"] == list(observation.rack_sizes)


def test_solving_raises_the_browser_and_lowers_the_puzzle_once(client: TestClient) -> None:
    browser = new_browser(client)
    puzzle = PUZZLES.puzzles[1]
    result = client.post(
        f"/api/puzzles/{puzzle.id}/attempts", json={"answer": answer(puzzle, True)}, headers=browser
    )
    assert result.status_code == 201, result.text
    body = result.json()
    board = puzzle.observation.board
    # Each move as the log has it, its place also in words: the tiles beside it.
    for name, move in (("solution", puzzle.solution), ("obvious", puzzle.obvious)):
        shown = {**action_json(move, board.joker_cell)}
        if isinstance(move, Placement):
            shown["where"] = where(board, move.cell).to_json()
            assert shown["where"]["beside"]
        assert body[name] == shown
    assert body["solved"]
    assert body["explanation"] == [reason.to_json() for reason in puzzle.explanation]
    assert body["browser"]["before"]["rating"] == 1500 < body["browser"]["after"]["rating"]
    assert body["puzzle"]["before"]["rating"] == 1500 > body["puzzle"]["after"]["rating"]
    assert rating_of(client, browser) == {"rating": body["browser"]["after"], "attempts": 1}
    # The page shown again holds the result; the puzzle's rating moved for everyone.
    again = client.get(f"/api/puzzles/{puzzle.id}", headers=browser).json()["puzzle"]
    assert again["attempt"]["solved"] and again["attempt"]["solution"] == body["solution"]
    other = client.get(f"/api/puzzles/{puzzle.id}", headers=new_browser(client)).json()["puzzle"]
    assert other["attempt"] is None and other["rating"] == body["puzzle"]["after"]
    # A replay of the attempt, right or wrong, changes nothing.
    for solved in (True, False):
        replay = client.post(
            f"/api/puzzles/{puzzle.id}/attempts",
            json={"answer": answer(puzzle, solved)},
            headers=browser,
        )
        assert error_of(replay, 409)["code"] == "attempted"
    assert rating_of(client, browser) == {"rating": body["browser"]["after"], "attempts": 1}


def test_failing_lowers_the_browser_and_raises_the_puzzle(client: TestClient) -> None:
    browser = new_browser(client)
    puzzle = PUZZLES.puzzles[2]
    result = client.post(
        f"/api/puzzles/{puzzle.id}/attempts",
        json={"answer": answer(puzzle, False)},
        headers=browser,
    )
    body = result.json()
    assert result.status_code == 201 and not body["solved"]
    assert body["browser"]["after"]["rating"] < 1500 < body["puzzle"]["after"]["rating"]


def test_the_next_puzzle_is_one_not_tried_until_none_is_left(client: TestClient) -> None:
    browser = new_browser(client)
    seen = set()
    for _ in PUZZLES.puzzles:
        shown = client.get("/api/puzzles/next", headers=browser)
        assert shown.status_code == 200, shown.text
        puzzle = PUZZLES.by_id[shown.json()["puzzle"]["id"]]
        assert puzzle.id not in seen
        seen.add(puzzle.id)
        tried = client.post(
            f"/api/puzzles/{puzzle.id}/attempts",
            json={"answer": answer(puzzle, True)},
            headers=browser,
        )
        assert tried.status_code == 201
    assert error_of(client.get("/api/puzzles/next", headers=browser), 404)["code"] == "none_left"


def test_the_puzzle_of_the_day_is_the_same_for_everyone(client: TestClient) -> None:
    shown = [
        client.get("/api/puzzles/daily", headers=headers).json()
        for headers in ({}, new_browser(client), new_browser(client))
    ]
    assert {day["puzzle"]["id"] for day in shown} == {PUZZLES.daily(DAY).id}
    assert shown[0]["date"] == "2026-12-01"


def test_hostile_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    browser = new_browser(client)
    puzzle = PUZZLES.puzzles[3]
    path = f"/api/puzzles/{puzzle.id}/attempts"
    good = {"answer": answer(puzzle, True)}
    assert (
        error_of(client.post("/api/puzzles/NOPE/attempts", json=good, headers=browser), 404)["code"]
        == "not_found"
    )
    assert error_of(client.get("/api/puzzles/NOPE"), 404)["code"] == "not_found"
    # No id, a malformed id, an id this server never gave.
    assert error_of(client.post(path, json=good), 400)["field"] == "browser"
    bad = client.post(path, json=good, headers={BROWSER_HEADER: "x' OR 1=1"})
    assert error_of(bad, 400)["field"] == "browser"
    stranger = {BROWSER_HEADER: "A" * 43}
    assert (
        error_of(client.post(path, json=good, headers=stranger), 403)["code"] == "unknown_browser"
    )
    assert (
        error_of(client.get("/api/puzzles/next", headers=stranger), 403)["code"]
        == "unknown_browser"
    )
    # Answers that are not one of the puzzle's legal actions.
    off_board = {"action": "place", "tile": "5-5-5", "cell": [40, 40, "up"], "corners": [5, 5, 5]}
    for body, field in [
        ({"answer": off_board}, "answer"),
        ({"answer": {"action": "pass"}}, "answer"),
        ({"answer": {"action": "fly"}}, "answer.action.action"),
        ({"answer": "draw"}, "answer"),
        ({}, "answer"),
    ]:
        refused = client.post(path, json=body, headers=browser)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"]["field"] == field
    not_json = client.post(path, content=b"{", headers=browser)
    assert error_of(not_json, 400)["code"] == "bad_request"
    assert rating_of(client, browser) == {
        "rating": {"rating": 1500, "deviation": 350, "volatility": 0.06},
        "attempts": 0,
    }
    shown = client.get(f"/api/puzzles/{puzzle.id}").json()["puzzle"]
    assert shown["rating"]["rating"] == 1500


def test_the_migration_adds_the_puzzle_tables_and_takes_them_away(store: Store) -> None:
    names = set(inspect(store.engine).get_table_names())
    assert {"puzzle_ratings", "puzzle_browsers", "puzzle_attempts"} <= names
    store.downgrade("0005_table")
    names = set(inspect(store.engine).get_table_names())
    assert not names & {"puzzle_ratings", "puzzle_browsers", "puzzle_attempts"}
    assert "chats" in names
    store.upgrade()
    assert "puzzle_attempts" in set(inspect(store.engine).get_table_names())


def test_two_answers_at_once_rate_once_and_two_browsers_at_once_both(store: Store) -> None:
    """The same browser's answer sent twice at once (a double tap, a replayed request):
    one is rated, the other refused; two browsers' first answers to one puzzle at once:
    both rated, the puzzle's rating row written once."""
    rows = PuzzleStore(store)
    puzzle = PUZZLES.puzzles[4]
    keys = [token_hash(f"browser-{number}") for number in range(3)]
    address = {key: address_hash(f"192.0.2.{number}") for number, key in enumerate(keys)}
    for key in keys:
        rows.new_browser(key, address[key])  # each at an address of its own

    def attempt(key: str) -> str:
        try:
            rows.attempt(key, puzzle.id, puzzle.rating, "draw", True, address[key])
        except PuzzleConflictError as error:
            return error.code
        return "rated"

    with ThreadPoolExecutor(4) as pool:
        same = sorted(pool.map(attempt, [keys[0]] * 4))
    assert same == ["attempted", "attempted", "attempted", "rated"]
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(attempt, keys[1:])) == ["rated", "rated"]
    info = rows.browser(keys[0])
    assert info is not None and info.attempted == {puzzle.id}
