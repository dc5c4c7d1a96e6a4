"""The bot worker shares its slots fairly (issue 13): ten tables of searching bots at
the longest think made a bystander's greedy bot wait 60.8 s instead of 0.4 s.

Proved by order, with an executor whose jobs finish only when the test says: nothing
here depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

pytest.importorskip("starlette")

from triominos.bots.levels import OFFERED
from triominos.game import Action, Match
from triominos.server.bots import THINKING_BOTS, BotWorker, choose_action

QUICK = [level.bot for level in OFFERED if level.bot not in THINKING_BOTS]
"""The offered bots that do not search."""


class HeldExecutor(Executor):
    """Runs nothing until released: each job's name is recorded when it starts."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.held: dict[str, threading.Event] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        name = str(args[0])
        self.started.append(name)
        release = self.held.setdefault(name, threading.Event())
        future: Future[Any] = Future()

        def run() -> None:
            release.wait(30)
            future.set_result(name)

        threading.Thread(target=run, daemon=True).start()
        return future

    def release(self, name: str) -> None:
        self.held.setdefault(name, threading.Event()).set()


def job(name: str) -> str:
    return name


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


def test_searching_bots_never_take_every_slot() -> None:
    async def scenario() -> list[str]:
        executor = HeldExecutor()
        worker = BotWorker(executor, slots=2)
        hogs = [
            asyncio.create_task(worker._run("think", f"hog{n}", job, f"hog{n}")) for n in range(4)
        ]
        await settle()
        assert executor.started == ["hog0"]  # one slot is kept for hints
        hint = asyncio.create_task(worker._run("hint", "bystander", job, "hint"))
        await settle()
        assert executor.started == ["hog0", "hint"]  # the free slot took it
        executor.release("hint")
        assert await hint == "hint"
        for n in range(4):
            executor.release(f"hog{n}")
        await asyncio.gather(*hogs)
        worker.shutdown()
        return executor.started

    started = asyncio.run(scenario())
    assert sorted(started) == ["hint", "hog0", "hog1", "hog2", "hog3"]


def test_a_bot_that_does_not_search_chooses_at_once_as_a_worker_would() -> None:
    """Greedy, expert and random choose on the event loop, never through the pool: the
    same action as in a worker, while every slot is held by searching bots."""
    match = Match.from_preset("classic", 2, seed=11)
    while len(match.hand.board) < 6:
        match.apply(match.legal_actions()[-1].action)
    observation = match.observe(match.to_move)

    async def scenario() -> list[Action]:
        executor = HeldExecutor()
        worker = BotWorker(executor, slots=1)
        hog = asyncio.create_task(worker._run("think", "hog", job, "hog"))
        await settle()
        chosen = [
            await asyncio.wait_for(worker.action(observation, bot, None, 5, "T"), 30)
            for bot in QUICK
        ]
        assert executor.started == ["hog"] and worker.waiting == 0
        executor.release("hog")
        await hog
        worker.shutdown()
        return chosen

    pickled = pickle.dumps(observation)
    assert asyncio.run(scenario()) == [choose_action(pickled, bot, None, 5) for bot in QUICK]


def test_the_table_that_used_the_workers_least_goes_first() -> None:
    now = [0.0]

    async def scenario() -> list[str]:
        executor = HeldExecutor()
        worker = BotWorker(executor, slots=1, clock=lambda: now[0])
        first = asyncio.create_task(worker._run("think", "busy", job, "busy-1"))
        await settle()
        now[0] += 10.0  # busy's bot thought for ten seconds
        again = asyncio.create_task(worker._run("think", "busy", job, "busy-2"))
        await settle()
        other = asyncio.create_task(worker._run("think", "calm", job, "calm-1"))
        executor.release("busy-1")
        await first
        await settle()
        executor.release("calm-1")
        executor.release("busy-2")
        await asyncio.gather(again, other)
        worker.shutdown()
        return executor.started

    assert asyncio.run(scenario()) == ["busy-1", "calm-1", "busy-2"]


def test_an_asker_that_gives_up_leaves_the_queue() -> None:
    async def scenario() -> list[str]:
        executor = HeldExecutor()
        worker = BotWorker(executor, slots=1)
        running = asyncio.create_task(worker._run("think", "a", job, "a"))
        gone = asyncio.create_task(worker._run("think", "b", job, "b"))
        await settle()
        gone.cancel()
        await settle()
        assert worker.waiting == 0
        executor.release("a")
        await running
        worker.shutdown()
        return executor.started

    assert asyncio.run(scenario()) == ["a"]
