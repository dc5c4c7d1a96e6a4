"""A puzzle's answer on a real server (issue 37): ``{"action": "buy"}`` was accepted in
classic, which has no bank, and stored as a draw."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from server_games import Served


def test_an_action_these_rules_do_not_have_is_refused_naming_the_rule(
    served_sqlite: Served,
) -> None:
    http = served_sqlite.http
    browser = {"X-Puzzle-Browser": http.post("/api/puzzles/browsers", json={}).json()["browser"]}
    puzzle = http.get("/api/puzzles/next", headers=browser).json()["puzzle"]
    assert puzzle["rules"]["bank"] is None
    answer = http.post(
        f"/api/puzzles/{puzzle['id']}/attempts", json={"answer": {"action": "buy"}}, headers=browser
    )
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_answer" and error["field"] == "answer.action.action"
    assert "rule bank" in error["message"]
    me = http.get("/api/puzzles/me", headers=browser).json()
    assert me["attempts"] == 0  # nothing was stored
