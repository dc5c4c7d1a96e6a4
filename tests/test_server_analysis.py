"""A finished match's analysis in the service: begun by a viewer, run in the bot workers
at the lowest priority, its progress polled, its result kept with the table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from sqlalchemy import inspect

from server_games import Served, serve_app
from test_server_bots import HeldExecutor, job, settle
from triominos.analysis import Analysis, analyse, positions
from triominos.rules import preset
from triominos.server.analysis_store import STALE_SECONDS, AnalysisStore
from triominos.server.bots import BotWorker
from triominos.server.store import SeatInfo, Store

SIMULATIONS = 4
BOTS_ONLY: dict[str, Any] = {
    "preset": "classic-children",
    "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
}


@pytest.fixture
def served(database_url: str) -> Iterator[Served]:
    with serve_app(database_url, analysis_simulations=SIMULATIONS) as served:
        yield served


def finished_table(served: Served) -> str:
    code: str = served.create(**BOTS_ONLY)["code"]
    deadline = time.monotonic() + 60
    while served.http.get(f"/api/tables/{code}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the match did not finish"
        time.sleep(0.05)
    return code


def until_done(served: Served, code: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        status: dict[str, Any] = served.http.get(f"/api/tables/{code}/analysis").json()
        if status["status"] == "done":
            return status
        assert status["status"] == "running" and 0 <= status["done"] <= status["total"]
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.05)


def test_a_finished_match_is_analysed_and_the_analysis_kept(served: Served) -> None:
    code = finished_table(served)
    assert served.http.get(f"/api/tables/{code}/analysis").json()["status"] == "none"
    begun = served.http.post(f"/api/tables/{code}/analysis", json={})
    assert begun.status_code == 202, begun.text
    record = served.http.get(f"/api/tables/{code}/record").json()
    assert begun.json()["status"] == "running"
    assert begun.json()["total"] == len(positions(record))
    done = until_done(served, code)
    assert done["done"] == done["total"]
    # The same analysis as `triominos analyse` on the record, with its seed and these sims.
    assert done["analysis"] == analyse(record, simulations=SIMULATIONS, seed=0).to_json()
    Analysis.from_json(done["analysis"], preset("classic-children").rules.tiles)
    again = served.http.post(f"/api/tables/{code}/analysis", json={})
    assert again.status_code == 200 and again.json() == done  # kept: at once


def test_a_match_being_played_is_never_analysed(served: Served) -> None:
    code = served.create()["code"]  # a person's turn: it waits for them
    for answer in (
        served.http.post(f"/api/tables/{code}/analysis", json={}),
        served.http.get(f"/api/tables/{code}/analysis"),
    ):
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "playing"


def test_the_analyses_under_way_are_capped(served: Served) -> None:
    code = finished_table(served)
    served.service.analyses.most_running = 0
    refused = served.http.post(f"/api/tables/{code}/analysis", json={})
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
    assert refused.headers["Retry-After"] == "30"


def test_asking_for_analyses_is_rate_limited(sqlite_url: str) -> None:
    with serve_app(sqlite_url, analysis_simulations=SIMULATIONS) as served:
        code = finished_table(served)
        answers = [
            served.http.post(f"/api/tables/{code}/analysis", json={}).status_code for _ in range(4)
        ]
        assert all(answer in (200, 202) for answer in answers[:3]) and answers[3] == 429


def test_one_analysis_a_table_and_a_silent_one_is_taken_over(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.upgrade()
        table = store.create_table(
            preset="classic",
            rules=preset("classic").rules,
            players=2,
            seed=1,
            turn_seconds=None,
            seats=[SeatInfo(0, "bot", "G", "greedy"), SeatInfo(1, "bot", "R", "random")],
        )
        now = [1000.0]
        rows = AnalysisStore(store, clock=lambda: now[0])
        assert rows.claim(table.id, 10, 0, 50)
        assert not rows.claim(table.id, 10, 0, 50)  # another node: it reads the progress
        rows.progress(table.id, 7)
        stored = rows.get(table.id)
        assert stored is not None and (stored.status, stored.done, stored.total) == (
            "running",
            7,
            50,
        )
        now[0] += STALE_SECONDS + 1  # the node running it died
        assert rows.claim(table.id, 10, 0, 50)
        rows.finish(table.id, {"format": "x"})
        stored = rows.get(table.id)
        assert stored is not None and stored.status == "done" and stored.done == 50
        assert stored.result == {"format": "x"}
        rows.drop(table.id)  # only a running one is dropped
        assert rows.get(table.id) is not None
    finally:
        store.dispose()


def test_the_migration_adds_the_analyses_and_takes_them_back(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.upgrade("0005_table")
        assert "analyses" not in inspect(store.engine).get_table_names()
        store.upgrade()
        assert "analyses" in inspect(store.engine).get_table_names()
        store.downgrade("0005_table")
        assert "analyses" not in inspect(store.engine).get_table_names()
        store.upgrade()
    finally:
        store.dispose()


def test_an_analysis_waits_for_every_live_job_and_leaves_a_slot_free() -> None:
    async def scenario() -> list[str]:
        executor = HeldExecutor()
        worker = BotWorker(executor, slots=2)
        first = asyncio.create_task(worker._run("analysis", "old", job, "analysis-1"))
        second = asyncio.create_task(worker._run("analysis", "old", job, "analysis-2"))
        await settle()
        assert executor.started == ["analysis-1"]  # the other slot stays for live tables
        move = asyncio.create_task(worker._run("think", "live", job, "move"))
        hint = asyncio.create_task(worker._run("hint", "live", job, "hint"))
        await settle()
        assert executor.started == ["analysis-1", "move"]
        executor.release("analysis-1")
        await first
        await settle()
        assert executor.started[-1] == "hint"  # live jobs before the next decision
        for name in ("move", "hint", "analysis-2"):
            executor.release(name)
        await asyncio.gather(move, hint, second)
        worker.shutdown()
        return executor.started

    assert asyncio.run(scenario())[-1] == "analysis-2"
