"""``GET /metrics`` on a real server (issue 37): each figure an operator asked for is there
once something provoked it: HTTP answers by status, WebSocket closes by code, requests
refused for their rate, the actions' commits, the event loop's lag, a table's failover
from a node whose lease ran out, the process's CPU and memory. Counts and presence only,
never times: those depend on the machine."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest

pytest.importorskip("starlette")

from websockets.exceptions import ConnectionClosed, InvalidStatus

from server_games import WAIT_SECONDS, Served, serve_app
from test_server_nodes import expire, node
from test_server_store import new_table
from triominos.server.guard import LIMIT

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def sample(served: Served, name: str) -> float | None:
    """The value of one sample (``name`` with its labels, as the text has it), or None."""
    text = served.http.get("/metrics").text
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return None if found is None else float(found.group(1))


def eventually(served: Served, name: str, done: Callable[[float], bool]) -> float:
    """The sample once ``done`` holds of it (a background task may yet have to run)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        value = sample(served, name)
        if value is not None and done(value):
            return value
        assert time.monotonic() < deadline, f"{name} is {value}"
        time.sleep(0.1)


def closed_code(served: Served, code: str) -> int | None:
    """The code a viewer's connection to the table ends with (its messages skipped)."""
    with pytest.raises(ConnectionClosed) as closed:
        viewer = served.viewer(code)
        while True:
            viewer.receive()
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def test_answers_closes_commits_and_the_process_are_counted(sqlite_url: str) -> None:
    with serve_app(sqlite_url) as served:
        assert served.http.get("/healthz").status_code == 200
        assert served.http.get("/api/tables/NOPE99").status_code == 404
        created = served.create(seats=TWO_PEOPLE, take=[0, 1])
        viewers = [served.viewer(created["code"], seat["token"]) for seat in created["seats"]]
        mover = next(viewer for viewer in viewers if viewer.view["legal"])
        assert mover.play_first_legal("one")["type"] == "event"
        for viewer in viewers:
            viewer.close()
        assert closed_code(served, "NOPE99") == 1008  # no such table

        assert (sample(served, 'triominos_http_responses_total{status="200"}') or 0) >= 1
        assert sample(served, 'triominos_http_responses_total{status="404"}') == 1
        assert sample(served, 'triominos_http_responses_total{status="201"}') == 1
        eventually(served, 'triominos_websocket_closes_total{code="1000"}', lambda n: n == 2)
        assert sample(served, 'triominos_websocket_closes_total{code="1008"}') == 1
        assert (sample(served, "triominos_commit_seconds_count") or 0) >= 1
        assert sample(served, 'triominos_commit_seconds_bucket{le="+Inf"}') == sample(
            served, "triominos_commit_seconds_count"
        )
        eventually(served, "triominos_event_loop_lag_seconds_count", lambda n: n >= 1)
        assert (sample(served, "process_cpu_seconds_total") or 0) > 0
        assert (sample(served, "process_resident_memory_bytes") or 0) > 0
        assert sample(served, 'triominos_rate_limited_total{transport="http"}') == 0


def test_requests_and_handshakes_refused_for_their_rate_are_counted(sqlite_url: str) -> None:
    with serve_app(sqlite_url) as served:
        code = served.create()["code"]
        answers: list[int] = []
        while 429 not in answers:  # the bucket refills meanwhile: a few more than its burst
            assert len(answers) < 3 * LIMIT["look_up"].burst
            answers.append(served.http.get(f"/api/tables/{code}").status_code)
        with pytest.raises(InvalidStatus):  # the handshake, past the same budget
            served.viewer(code)
        assert sample(served, 'triominos_rate_limited_total{transport="http"}') == answers.count(
            429
        )
        assert sample(served, 'triominos_http_responses_total{status="429"}') == answers.count(429)
        assert sample(served, 'triominos_rate_limited_total{transport="websocket"}') == 1
        assert sample(served, 'triominos_websocket_closes_total{code="1008"}') == 1


def test_a_table_taken_over_from_a_dead_node_is_a_failover(postgres_url: str) -> None:
    with serve_app(postgres_url) as served:
        store = served.service.store
        assert sample(served, "triominos_failover_seconds_count") == 0
        ghost = node(store, "ghost")
        table = new_table(store, people=1, hashes=True)  # being played
        assert ghost.claim(table.id) is not None
        expire(ghost)  # the ghost died: its lease ran out
        eventually(served, "triominos_failover_seconds_count", lambda n: n == 1)
        assert (sample(served, "triominos_failover_seconds_sum") or 0) > 0
        assert sample(served, 'triominos_leases_total{event="claimed"}') == 1
