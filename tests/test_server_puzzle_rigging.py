"""Puzzle ratings that cannot be rigged (issue 37): a wrong answer shows the solution, so
a throwaway browser id learnt it and the main id answered (100/100 solved, 1500 to 2507
in 3 minutes). The ids at one address share each puzzle's one rated answer, and one
address makes a bounded number of ids a day; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.applications import Starlette
from starlette.testclient import TestClient

from test_server_puzzles import PUZZLES, answer, error_of, new_browser, rating_of
from triominos.server.puzzle_api import BROWSERS_PER_ADDRESS, puzzle_routes
from triominos.server.store import Store

HOME, ELSEWHERE = "203.0.113.7", "198.51.100.9"


@pytest.fixture
def clients(database_url: str) -> Iterator[dict[str, TestClient]]:
    """One app, reached from two addresses: a client for each."""
    store = Store(database_url)
    store.upgrade()
    app = Starlette(routes=puzzle_routes(store, PUZZLES))
    with ExitStack() as stack:
        yield {
            address: stack.enter_context(TestClient(app, client=(address, 40000)))
            for address in (HOME, ELSEWHERE)
        }
    store.dispose()


def attempt(client: TestClient, browser: dict[str, str], puzzle_id: str, body: Any) -> Any:
    path = f"/api/puzzles/{puzzle_id}/attempts"
    tried = client.post(path, json={"answer": body}, headers=browser)
    assert tried.status_code == 201, tried.text
    return tried.json()


def test_a_throwaway_id_at_the_same_address_no_longer_raises_the_main_one(
    clients: dict[str, TestClient],
) -> None:
    home = clients[HOME]
    main, throwaway = new_browser(home), new_browser(home)
    for _ in range(3):
        puzzle = PUZZLES.by_id[home.get("/api/puzzles/next", headers=main).json()["puzzle"]["id"]]
        learnt = attempt(home, throwaway, puzzle.id, answer(puzzle, False))
        assert learnt["rated"] and not learnt["solved"]
        # The main id is still not shown the solution ...
        shown = home.get(f"/api/puzzles/{puzzle.id}", headers=main).json()["puzzle"]
        assert shown["attempt"] is None
        # ... and its answer with it is checked, kept, and rated by nobody.
        cheated = attempt(home, main, puzzle.id, learnt["solution"])
        assert cheated["solved"] and not cheated["rated"]
        assert cheated["browser"]["before"] == cheated["browser"]["after"]
        puzzle_after = learnt["puzzle"]["after"]
        assert cheated["puzzle"]["before"] == cheated["puzzle"]["after"] == puzzle_after
        again = home.post(
            f"/api/puzzles/{puzzle.id}/attempts",
            json={"answer": learnt["solution"]},
            headers=main,
        )
        assert error_of(again, 409)["code"] == "attempted"
    assert rating_of(home, main) == {
        "rating": {"rating": 1500, "deviation": 350, "volatility": 0.06},
        "attempts": 3,
    }


def test_ids_at_other_addresses_are_each_rated(clients: dict[str, TestClient]) -> None:
    """A puzzle answered at one address is rated as ever for an id at another."""
    puzzle = PUZZLES.puzzles[0]
    first = attempt(clients[HOME], new_browser(clients[HOME]), puzzle.id, answer(puzzle, False))
    there = new_browser(clients[ELSEWHERE])
    second = attempt(clients[ELSEWHERE], there, puzzle.id, answer(puzzle, True))
    assert first["rated"] and second["rated"]
    assert second["browser"]["after"]["rating"] > 1500
    assert second["puzzle"]["before"] == first["puzzle"]["after"]


def test_a_flood_of_ids_from_one_address_is_refused_and_others_still_get_theirs(
    clients: dict[str, TestClient],
) -> None:
    home = clients[HOME]
    for _ in range(BROWSERS_PER_ADDRESS):
        new_browser(home)
    refused = home.post("/api/puzzles/browsers", json={})
    error = error_of(refused, 429)
    assert error["code"] == "too_many_browsers"
    assert "browser ids" in error["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= 24 * 3600
    new_browser(clients[ELSEWHERE])
