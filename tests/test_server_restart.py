"""A real ``triominos serve`` process killed in the middle of games resumes every table."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

import httpx

from server_games import Message, Served, Viewer, match_over, summary_of
from triominos.record import verify

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def served_by(server: Any, http: httpx.Client) -> Served:
    return Served(server.base_url, server.ws_url, http)


def without_presence(view: Message) -> Message:
    """A view less who is connected right now (the crash dropped every connection, and
    a restart counts everyone away from then)."""
    return {
        **view,
        "seats": [{**seat, "connected": None, "bot_allowed_at": None} for seat in view["seats"]],
    }


def play_on(viewers: list[Viewer], rng: random.Random, actions: int | None = None) -> None:
    """The seats play random legal actions, for ``actions`` actions or to the end."""
    done = 0
    while actions is None or done < actions:
        views = [viewer.view for viewer in viewers]
        if any(view["match_over"] for view in views):
            break
        version = max(view["version"] for view in views)
        mover = next((v for v in viewers if v.view["legal"] and v.view["version"] == version), None)
        if mover is None:
            for viewer in viewers:
                if viewer.view["version"] < version:
                    viewer.until(lambda message: "view" in message)
            continue
        option = rng.choice(mover.view["legal"])
        client_id = f"{mover.view['seat']}-{version}"
        mover.act(option["action"], client_id)
        mover.answer(client_id)
        done += 1
    latest = max(viewer.view["version"] for viewer in viewers)
    for viewer in viewers:
        while viewer.view["version"] < latest:
            viewer.until(lambda message: "view" in message)


def wait_for_status(http: httpx.Client, code: str, status: str, seconds: float = 60) -> Message:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        summary = summary_of(http, code)
        if summary["status"] == status:
            return summary
        time.sleep(0.05)
    raise AssertionError(f"table {code} is not {status}")


def test_a_killed_server_resumes_every_table_where_it_was(live_server: Any) -> None:
    server = live_server(TRIOMINOS_BOT_DELAY="0.02", TRIOMINOS_BOT_WORKERS="1")
    rng = random.Random(6)
    with httpx.Client(base_url=server.base_url, timeout=20) as http:
        served = served_by(server, http)
        people = served.create(
            preset="classic",
            seats=TWO_PEOPLE,
            take=[0, 1],
            options={"target_score": None, "hand_limit": 1},
        )
        code, tokens = people["code"], [seat["token"] for seat in people["seats"]]
        bots = served.create(
            preset="classic-children",
            seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        )["code"]
        timed = served.create(seats=TWO_PEOPLE, take=[0, 1], turn_seconds=0.5)["code"]
        viewers = [served.viewer(code, token) for token in tokens]
        play_on(viewers, rng, actions=8)
        before = [viewer.view for viewer in viewers]
        assert before[0]["version"] == before[1]["version"] == 8

        server.kill()
        for viewer in viewers:
            viewer.close()
        bots_version = http_version(server, bots)
        server.start()

        viewers = [
            served.viewer(code, token, version=view["version"])
            for token, view in zip(tokens, before, strict=True)
        ]
        for viewer, view in zip(viewers, before, strict=True):
            assert viewer.greeting["type"] == "catchup" and viewer.greeting["events"] == []
            assert without_presence(viewer.greeting["view"]) == without_presence(view)
        # A client that missed actions before the crash catches up from the database.
        with served.viewer(code, tokens[0], version=3) as late:
            assert late.greeting["type"] == "catchup" and len(late.greeting["events"]) == 5

        play_on(viewers, rng)
        assert all(match_over({"view": viewer.view}) for viewer in viewers)
        document = http.get(f"/api/tables/{code}/record").json()
        verify(document)
        assert document["scores"] == viewers[0].view["totals"]

        # The bots' table went on by itself after the restart and finished.
        summary = wait_for_status(http, bots, "finished")
        assert summary["version"] >= bots_version
        verify(http.get(f"/api/tables/{bots}/record").json())
        # The timed table's clock was restored: nobody plays there, the timer does.
        timed_summary = summary_of(http, timed)  # after the polling above: may wait
        assert timed_summary["version"] > 0
        log = server.log()
        assert "Traceback" not in log
        assert f"table {code} v8: seat" in log  # the service logs each action by its kind
        assert not any(token in log for token in tokens)


def http_version(server: Any, code: str) -> int:
    """The version a table had when the server died, read from its database."""
    from triominos.server.store import Store

    store = Store(server.database_url)
    try:
        info = store.table(code)
        assert info is not None
        return len(store.actions(info.id))
    finally:
        store.dispose()


def test_uvicorn_closes_a_connection_whose_message_is_too_large(live_server: Any) -> None:
    server = live_server()
    with httpx.Client(base_url=server.base_url, timeout=20) as http:
        served = served_by(server, http)
        code = served.create()["code"]
        with served.viewer(code) as watcher:
            watcher.connection.send("x" * 20_000)
            try:
                watcher.receive()
            except Exception as closed:
                assert "1009" in str(closed)
            else:
                raise AssertionError("the connection stayed open")
