"""Bot moves and hints, searching bots' in worker processes so that no table waits for
another.

The ``sim`` bot holds the GIL for its whole think time, so a thread would stall the
event loop and every other table: searching bots, hints and analyses run in a process
pool instead. What crosses to the worker is the seat's
:class:`~triominos.game.Observation`, an immutable snapshot (its board a
:class:`~triominos.board.FrozenBoard`: the board's history, a few KB pickled), pickled at
once on the event loop. A bot that does not search chooses on the event loop: a greedy
move takes microseconds, where handing its observation to a worker and back cost the
node about a millisecond (the pickle, the pipes and their threads, and the board rebuilt
from its history in the worker). Only what that seat may see ever reaches a bot. A bot
is seeded by the table's seed and the version it moves at, so a restarted server asks
the same question with the same seed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from triominos.analysis import Decision, Position, decide
from triominos.bots import Budget, make_bot
from triominos.bots.hint import Hint, hint
from triominos.bots.levels import SIMULATIONS
from triominos.game import Action, Observation

HINT_COUNT = 3

log = logging.getLogger("triominos.server")
Result = TypeVar("Result")


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of the bot moving at ``version``: the same after a restart."""
    return (table_seed * 1_000_003 + version * 8 + seat) % 2**63


def budget_of(bot: str, think: float | None) -> Budget | None:
    """A bot seat's budget: its ``think`` seconds, else its level's simulations
    (:data:`~triominos.bots.levels.SIMULATIONS`), else none (a bot that does not search)."""
    if think is not None:
        return Budget(seconds=think)
    simulations = SIMULATIONS.get(bot)
    return None if simulations is None else Budget(simulations=simulations)


def choose_action(pickled: bytes, bot: str, think: float | None, seed: int) -> Action:
    """In the worker: the bot's action for a pickled observation."""
    return choose(pickle.loads(pickled), bot, think, seed)


def choose(observation: Observation, bot: str, think: float | None, seed: int) -> Action:
    """The bot's action for an observation, wherever it thinks."""
    return make_bot(bot, seed, budget_of(bot, think)).act(observation)


def best_placements(pickled: bytes) -> list[Hint]:
    """In the worker: the hints for a pickled observation."""
    observation: Observation = pickle.loads(pickled)
    return hint(observation, HINT_COUNT)


def analyse_position(pickled: bytes, simulations: int, seed: int) -> Decision:
    """In the worker: one decision of a finished match analysed (:func:`decide`)."""
    position: Position = pickle.loads(pickled)
    return decide(position, simulations, seed)


def pool_size() -> int:
    """The bot worker processes: env ``TRIOMINOS_BOT_WORKERS``, else 2."""
    return int(os.environ.get("TRIOMINOS_BOT_WORKERS", "2"))


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """The pool bots think in: ``workers`` processes (:func:`pool_size`).

    Spawned, not forked: a fork of a process running an event loop and threads
    inherits their locks in whatever state they were. Each worker leaves when the
    server dies, even by SIGKILL (:func:`follow_parent`).
    """
    if workers is None:
        workers = pool_size()
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


THINKING_BOTS = frozenset({"sim"})
"""The bots that search, for their level's simulations or ``think`` seconds, in a worker:
the others answer in microseconds, on the event loop (a greedy or expert move at most 2
ms with the pure-Python engine)."""
USAGE_HALF_LIFE = 60.0
"""Seconds over which a table's use of the workers counts half as much: the measure of
fairness between tables."""

Kind = Literal["think", "hint", "analysis"]
"""A job's kind, in the order they are served: a searching bot's move, a hint (hints wait
for moves), one decision of a finished match's analysis (analyses wait for everything
live)."""
_ORDER: dict[Kind, int] = {"think": 0, "hint": 1, "analysis": 2}


@dataclass(eq=False)
class Job:
    kind: Kind
    table: str
    function: Callable[..., Any]
    arguments: tuple[object, ...]
    future: asyncio.Future[Any]
    number: int


class BotWorker:
    """Asks the pool for searching bots' moves, hints and analyses without blocking the
    event loop, fairly (a bot that does not search chooses at once: :meth:`action`).

    The pool's own queue is first come, first served: ten tables of searching bots
    would make everyone else's hints wait for all their thinking. So jobs wait here and
    go to the pool only when one of its ``slots`` is free, the next one chosen by kind
    (searching bots' moves, then hints, then analyses), then by how much of the
    workers its table used lately (:data:`USAGE_HALF_LIFE`), then by age. Searching jobs
    never hold every slot: with two or more, one is always left for hints. An analysis
    job (one decision, a fraction of a second) takes a slot only when one more stays
    free, or when it is the only slot and nothing live waits: a live table's bot waits
    for no analysis but, with a single slot, one decision's.

    A pool whose process died (killed, out of memory) is replaced by ``replace``, when
    given, so one lost worker does not stop every bot of the server.
    """

    def __init__(
        self,
        executor: Executor,
        *,
        slots: int,
        replace: Callable[[], Executor] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.executor = executor
        self.slots = slots
        self._replace = replace
        self._clock = clock
        self._waiting: list[Job] = []
        self._running: dict[Kind, int] = {"think": 0, "hint": 0, "analysis": 0}
        self._usage: dict[str, tuple[float, float]] = {}
        self._numbers = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a slot (the bot queue)."""
        return len(self._waiting)

    async def action(
        self, observation: Observation, bot: str, think: float | None, seed: int, table: str
    ) -> Action:
        """The bot's action: a searching bot's from a worker, another's chosen here."""
        if bot not in THINKING_BOTS:
            return choose(observation, bot, think, seed)
        pickled = pickle.dumps(observation)
        result: Action = await self._run("think", table, choose_action, pickled, bot, think, seed)
        return result

    async def hints(self, observation: Observation, table: str) -> list[Hint]:
        pickled = pickle.dumps(observation)
        result: list[Hint] = await self._run("hint", table, best_placements, pickled)
        return result

    async def analysis(
        self, position: Position, simulations: int, seed: int, table: str
    ) -> Decision:
        pickled = pickle.dumps(position)
        result: Decision = await self._run(
            "analysis", table, analyse_position, pickled, simulations, seed
        )
        return result

    async def _run(
        self, kind: Kind, table: str, function: Callable[..., Any], *arguments: object
    ) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job = Job(kind, table, function, arguments, future, next(self._numbers))
        self._waiting.append(job)
        self._dispatch()
        try:
            return await future
        finally:
            if job in self._waiting:  # the asker gave up before its turn came
                self._waiting.remove(job)

    def usage(self, table: str) -> float:
        """Seconds of worker time the table used, the older the less."""
        used, then = self._usage.get(table, (0.0, 0.0))
        decay: float = 0.5 ** ((self._clock() - then) / USAGE_HALF_LIFE)
        return used * decay

    def _dispatch(self) -> None:
        while self._waiting and sum(self._running.values()) < self.slots:
            busy = sum(self._running.values())
            thinking_full = self._running["think"] >= max(1, self.slots - 1)
            analysis_full = busy + 1 >= self.slots and self.slots > 1
            ready = [
                job
                for job in self._waiting
                if not (job.kind == "think" and thinking_full)
                and not (job.kind == "analysis" and analysis_full)
            ]
            if not ready:
                return
            job = min(ready, key=lambda job: (_ORDER[job.kind], self.usage(job.table), job.number))
            self._waiting.remove(job)
            self._running[job.kind] += 1
            task = asyncio.create_task(self._execute(job))
            self._tasks.add(task)  # the loop keeps only weak references to tasks
            task.add_done_callback(self._tasks.discard)

    async def _execute(self, job: Job) -> None:
        started = self._clock()
        try:
            result = await self._in_pool(job.function, *job.arguments)
        except BaseException as error:  # the asker hears of it
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._usage[job.table] = (
                self.usage(job.table) + self._clock() - started,
                self._clock(),
            )
            self._running[job.kind] -= 1
            self._forget_idle()
            self._dispatch()

    def _forget_idle(self) -> None:
        if len(self._usage) > 10_000:
            self._usage = {
                table: entry for table, entry in self._usage.items() if self.usage(table) > 0.01
            }

    async def _in_pool(self, function: Callable[..., Result], *arguments: object) -> Result:
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
        for job in self._waiting:
            job.future.cancel()
        self._waiting.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
