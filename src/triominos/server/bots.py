"""Bot moves and hints, computed in worker processes so that no table waits for another.

The ``sim`` bot holds the GIL for its whole think time, so a thread would stall the
event loop and every other table: bots think in a process pool instead. What crosses to
the worker is the seat's :class:`~triominos.game.Observation`, an immutable snapshot
(its board a :class:`~triominos.board.FrozenBoard`: the board's history, a few KB
pickled), pickled at once on the event loop. Only what that seat may see ever reaches a
bot. A bot is seeded by the table's seed and the version it moves at, so a restarted
server asks the same question with the same seed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from triominos.bots import Budget, make_bot
from triominos.bots.hint import Hint, hint
from triominos.game import Action, Observation

HINT_COUNT = 3

log = logging.getLogger("triominos.server")
Result = TypeVar("Result")


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of the bot moving at ``version``: the same after a restart."""
    return (table_seed * 1_000_003 + version * 8 + seat) % 2**63


def choose_action(pickled: bytes, bot: str, think: float | None, seed: int) -> Action:
    """In the worker: the bot's action for a pickled observation."""
    observation: Observation = pickle.loads(pickled)
    budget = None if think is None else Budget(seconds=think)
    return make_bot(bot, seed, budget).act(observation)


def best_placements(pickled: bytes) -> list[Hint]:
    """In the worker: the hints for a pickled observation."""
    observation: Observation = pickle.loads(pickled)
    return hint(observation, HINT_COUNT)


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """The pool bots think in: ``workers`` processes (env ``TRIOMINOS_BOT_WORKERS``, 2).

    Spawned, not forked: a fork of a process running an event loop and threads
    inherits their locks in whatever state they were. Each worker leaves when the
    server dies, even by SIGKILL (:func:`follow_parent`).
    """
    if workers is None:
        workers = int(os.environ.get("TRIOMINOS_BOT_WORKERS", "2"))
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=follow_parent,
        initargs=(os.getpid(),),
    )


def follow_parent(parent: int, every: float = 0.5) -> None:
    """In a worker: exit as soon as ``parent`` (the server) is gone.

    A killed server cannot stop its pool, and its workers would wait for work forever;
    a daemon thread notices that the worker has another parent now and ends it.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


class BotWorker:
    """Asks the pool for bot moves and hints without blocking the event loop.

    A pool whose process died (killed, out of memory) is replaced once per request by
    ``replace``, when given, so one lost worker does not stop every bot of the server.
    """

    def __init__(self, executor: Executor, replace: Callable[[], Executor] | None = None) -> None:
        self.executor = executor
        self._replace = replace

    async def action(
        self, observation: Observation, bot: str, think: float | None, seed: int
    ) -> Action:
        pickled = pickle.dumps(observation)
        return await self._run(choose_action, pickled, bot, think, seed)

    async def hints(self, observation: Observation) -> list[Hint]:
        pickled = pickle.dumps(observation)
        return await self._run(best_placements, pickled)

    async def _run(self, function: Callable[..., Result], *arguments: object) -> Result:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, function, *arguments)
        except BrokenProcessPool:
            if self._replace is None:
                raise
            log.error("a bot worker process died; starting a new pool")
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._replace()
            return await loop.run_in_executor(self.executor, function, *arguments)

    def shutdown(self) -> None:
        """Stop the workers; one still thinking ends with the server (follow_parent)."""
        self.executor.shutdown(wait=False, cancel_futures=True)
