"""Deeply nested JSON (issue 37): 10,000 nested objects in under 64 KiB made ten POST
routes answer 500 with a traceback, and a 15 KB nested WebSocket message dropped the
connection (1006). One decoding, with a depth limit, answers 400 or a protocol error."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from server_games import Served
from triominos.server.protocol import MAX_JSON_DEPTH, BadMessageError, decode, nesting_depth


def nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def test_the_depth_of_json_counts_brackets_outside_strings() -> None:
    assert nesting_depth(b'{"a": [1, {"b": "[[[{{{"}]}') == 3
    assert nesting_depth(b'"\\"[[["') == 0
    assert nesting_depth(nested(MAX_JSON_DEPTH).encode()) == MAX_JSON_DEPTH
    assert decode(nested(MAX_JSON_DEPTH), dict[str, Any])["a"]
    with pytest.raises(BadMessageError, match=f"nest at most {MAX_JSON_DEPTH} deep"):
        decode(nested(MAX_JSON_DEPTH + 1), dict[str, Any])


def test_every_post_route_refuses_deep_nesting_with_400(served_sqlite: Served) -> None:
    code = served_sqlite.create(take=[0])["code"]
    puzzle = served_sqlite.http.get("/api/puzzles/daily").json()["puzzle"]["id"]
    body = nested(10_000)  # the routes that read a body (POST /api/puzzles/browsers reads none)
    assert len(body) < 64 * 1024
    routes = [
        "/api/tables",
        f"/api/tables/{code}/join",
        f"/api/tables/{code}/seats/1/bot",
        f"/api/tables/{code}/rematch",
        f"/api/tables/{code}/seats/0/qr",
        "/api/pad/games",
        f"/api/puzzles/{puzzle}/attempts",
    ]
    for route in routes:
        answer = served_sqlite.http.post(
            route, content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 400, (route, answer.text)
        assert answer.json()["error"]["code"] in ("bad_request", "bad_message"), route


def test_a_deeply_nested_websocket_message_is_a_bad_message(served_sqlite: Served) -> None:
    code = served_sqlite.create()["code"]
    with served_sqlite.viewer(code) as viewer:
        viewer.connection.send('{"type":"ping","x":' + nested(2_000) + "}")
        refusal = viewer.until(lambda message: message["type"] == "error")
        assert refusal["code"] == "bad_message" and "nest at most" in refusal["message"]
        viewer.send({"type": "ping"})
        viewer.until(lambda message: message["type"] == "pong")  # still connected
