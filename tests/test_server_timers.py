"""The turn timer's default action and its clock across restarts, and bots run the way
the server runs them."""

from __future__ import annotations

import asyncio
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from sqlalchemy import text

from server_games import WAIT_SECONDS, serve_app, summary_of
from triominos.board import Placement
from triominos.bots.hint import Hint
from triominos.game import Draw, LegalAction, Match, Pass, StarterDraw
from triominos.lattice import Cell
from triominos.rules import preset
from triominos.server.bots import (
    BotWorker,
    best_placements,
    bot_seed,
    choose_action,
    process_pool,
)
from triominos.server.store import SeatInfo, Store, TableInfo, TableStatus
from triominos.server.tablestate import TableState
from triominos.server.timers import TIMEOUT_ACTIONS, TimeoutAction, default_action
from triominos.tiles import Tile

PLACE_LOW = Placement(Tile(0, 0, 1), Cell(1, 0, True), (0, 0, 1))
PLACE_HIGH = Placement(Tile(5, 5, 5), Cell(2, 0, True), (5, 5, 5))
TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        ([LegalAction(PLACE_HIGH, 15, {}), LegalAction(Draw(), -5, {})], Draw()),
        ([LegalAction(Pass(), -10, {})], Pass()),
        ([LegalAction(PLACE_LOW, 1, {}), LegalAction(PLACE_HIGH, 15, {})], PLACE_HIGH),
        ([LegalAction(PLACE_HIGH, 15, {}), LegalAction(PLACE_LOW, 15, {})], PLACE_HIGH),
        ([LegalAction(StarterDraw(), 0, {})], StarterDraw()),
    ],
)
def test_the_draw_timeout_draws_else_passes_else_scores_most(
    legal: list[LegalAction], expected: object
) -> None:
    assert default_action(legal, "draw") == expected


@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        ([LegalAction(Draw(), -5, {}), LegalAction(PLACE_HIGH, 15, {})], PLACE_HIGH),
        (
            [
                LegalAction(PLACE_LOW, 1, {}),
                LegalAction(Pass(), -10, {}),
                LegalAction(PLACE_HIGH, 2, {}),
            ],
            PLACE_HIGH,
        ),
        ([LegalAction(Draw(), -5, {}), LegalAction(Pass(), -10, {})], Draw()),
        ([LegalAction(Pass(), -10, {})], Pass()),
        ([LegalAction(StarterDraw(), 0, {})], StarterDraw()),
    ],
)
def test_the_place_timeout_lays_the_best_tile_when_one_fits(
    legal: list[LegalAction], expected: object
) -> None:
    assert default_action(legal, "place") == expected


@pytest.mark.parametrize("timeout_action", TIMEOUT_ACTIONS)
def test_the_default_action_needs_a_legal_action(timeout_action: TimeoutAction) -> None:
    with pytest.raises(ValueError, match="no legal action"):
        default_action([], timeout_action)


def test_the_default_opening_is_the_one_scoring_most() -> None:
    match = Match.from_preset("classic", 2, seed=8)
    legal = match.legal_actions()
    chosen = default_action(legal, "draw")
    assert chosen == max(legal, key=lambda option: option.points).action


def test_a_pickled_observation_gives_the_bot_the_same_move() -> None:
    match = Match.from_preset("classic", 3, seed=11)
    for _ in range(6):
        match.apply(match.legal_actions()[0].action)
    observation = match.observe(match.to_move)
    pickled = pickle.dumps(observation)
    again = pickle.loads(pickled)
    assert again.rack == observation.rack and len(again.board) == len(observation.board)
    assert again.legal_actions() == observation.legal_actions()
    legal = [option.action for option in observation.legal_actions()]
    for bot in ("random", "greedy", "expert"):
        assert choose_action(pickled, bot, None, 5) in legal
    assert choose_action(pickled, "random", None, 5) == choose_action(pickled, "random", None, 5)
    assert choose_action(pickled, "sim", 0.02, 5) in legal
    hints = best_placements(pickled)
    assert all(isinstance(hint, Hint) and hint.action in legal for hint in hints)


def test_bot_seeds_differ_by_version_and_seat_and_repeat() -> None:
    seeds = {bot_seed(2**62, version, seat) for version in range(50) for seat in range(6)}
    assert len(seeds) == 300
    assert bot_seed(7, 3, 1) == bot_seed(7, 3, 1)
    assert all(0 <= seed < 2**63 for seed in seeds)


def test_the_worker_process_thinks_while_the_event_loop_runs_on() -> None:
    """A sim bot thinks in another process: the event loop makes its own steps while the
    bot has not answered yet. Proved by order, not by speed: the bot is asked for a
    long think (a budget of many simulations), and the loop finishes a hundred steps
    of its own first; were the bot thinking on the loop, they would come after it."""
    match = Match.from_preset("classic", 2, seed=3)
    while len(match.hand.board) < 4:
        match.apply(match.legal_actions()[0].action)
    observation = match.observe(match.to_move)

    async def ask() -> tuple[object, list[str]]:
        worker = BotWorker(process_pool(1), slots=1)
        order: list[str] = []

        async def steps() -> None:
            for _ in range(100):
                await asyncio.sleep(0)
            order.append("loop")

        async def think() -> object:
            action = await worker.action(observation, "sim", 5.0, 1, "T")
            order.append("bot")
            return action

        action, _ = await asyncio.gather(think(), steps())
        worker.shutdown()
        return action, order

    action, order = asyncio.run(ask())
    assert action in [option.action for option in observation.legal_actions()]
    assert order == ["loop", "bot"]


def test_a_dead_worker_process_is_replaced() -> None:
    match = Match.from_preset("classic", 2, seed=3)
    observation = match.observe(match.to_move)

    async def ask_twice() -> object:
        worker = BotWorker(process_pool(1), slots=1, replace=lambda: process_pool(1))
        await worker.action(observation, "sim", 0.02, 1, "T")
        pool = worker.executor
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            process.kill()
            process.join()
        action = await worker.action(observation, "sim", 0.02, 1, "T")
        assert worker.executor is not pool
        worker.shutdown()
        return action

    assert asyncio.run(ask_twice()) in [option.action for option in observation.legal_actions()]


def test_a_worker_leaves_when_its_server_is_killed(tmp_path: Path) -> None:
    """A server killed by SIGKILL cannot stop its pool: the workers notice and exit."""
    script = tmp_path / "server.py"
    script.write_text(
        "import sys, time\n"
        "from triominos.server.bots import process_pool\n"
        "if __name__ == '__main__':\n"
        "    pool = process_pool(1)\n"
        "    print(pool.submit(__import__('os').getpid).result(), flush=True)\n"
        "    time.sleep(60)\n"
    )
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 10
    while alive(worker):
        assert time.monotonic() < deadline, f"worker {worker} outlived its server"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its reaper does not)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return status != "Z"


# --- the clock across restarts ----------------------------------------------------------


def timed_table(started_at: float | None, status: TableStatus = "playing") -> TableInfo:
    """A two-person table with a 30-second turn timer that began to play at ``started_at``."""
    seats = tuple(
        SeatInfo(seat, "person", f"P{seat}", token_hash=f"{seat:064d}") for seat in (0, 1)
    )
    return TableInfo(
        id=1,
        code="ABCDEF",
        preset="classic",
        rules=preset("classic").rules,
        players=2,
        seed=7,
        turn_seconds=30.0,
        status=status,
        created_at=0.0,
        finished_at=None,
        rematch_of=None,
        seats=seats,
        started_at=started_at,
    )


def test_the_first_turn_runs_from_when_the_table_began_to_play() -> None:
    began = 1000.0 - 12.5
    table = TableState(timed_table(began), [], now=1000.0)
    assert table.turn_deadline == began + 30.0


def test_a_table_whose_start_was_not_stored_starts_the_clock_when_loaded() -> None:
    assert TableState(timed_table(None), [], now=1000.0).turn_deadline == 1000.0 + 30.0


def test_the_last_seat_taken_starts_the_clock_at_the_stored_moment() -> None:
    table = TableState(timed_table(None, status="waiting"), [], now=1000.0)
    assert table.turn_deadline is None
    began = 1001.0
    table.reseat(timed_table(began), 1002.0)
    assert table.turn_deadline == began + 30.0


def test_a_restart_gives_the_first_turn_only_the_time_it_had_left(database_url: str) -> None:
    with serve_app(database_url) as served:
        at_creation = served.create(seats=TWO_PEOPLE, take=[0, 1], turn_seconds=30)["code"]
        by_joining = served.create(seats=TWO_PEOPLE, take=[0], turn_seconds=30)["code"]
        served.join(by_joining, "Bob")
        deadlines = {}
        for code in (at_creation, by_joining):
            with served.viewer(code) as watcher:
                deadlines[code] = watcher.view["turn_deadline"]
    time.sleep(0.3)  # the first turns run on while no server runs
    with serve_app(database_url) as served:
        for code, deadline in deadlines.items():
            with served.viewer(code) as watcher:
                assert watcher.view["version"] == 0
                assert watcher.view["turn_deadline"] == deadline
                assert deadline - time.time() < 30 - 0.3


def test_a_first_turn_that_ran_out_while_the_server_was_down_is_played_at_once(
    database_url: str,
) -> None:
    """The turn is a minute long and began two minutes ago (as stored), so a timer that
    waited a full turn again would play after the restart plus a minute: the action it
    plays is stamped with the moment it was made, which tells the two apart."""
    with serve_app(database_url) as served:
        code = served.create(seats=TWO_PEOPLE, take=[0, 1], turn_seconds=60)["code"]
    store = Store(database_url)
    with store.engine.begin() as connection:
        connection.execute(
            text("UPDATE tables SET started_at = :began WHERE code = :code"),
            {"began": time.time() - 120, "code": code},
        )
    restarted = time.time()
    with serve_app(database_url) as served:
        deadline = time.monotonic() + WAIT_SECONDS
        while summary_of(served.http, code)["version"] == 0:
            assert time.monotonic() < deadline, "the timer did not play"
            time.sleep(0.05)
    table = store.table(code)
    assert table is not None
    played = store.actions(table.id)[0]
    store.dispose()
    assert played.created_at < restarted + 60, "the timer waited for a full turn again"
