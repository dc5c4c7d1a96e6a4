"""Analyses of finished matches, run in the bot workers without slowing live tables.

A viewer of a finished table asks for its analysis (``POST /api/tables/CODE/analysis``):
the record is replayed into its decisions (:func:`triominos.analysis.positions`), the
node claims the table's analysis row (one analysis per table, whichever node is asked:
:mod:`triominos.server.analysis_store`), and each decision goes to the bot workers as
one low-priority job (:meth:`BotWorker.analysis`): a live table's bot never waits
behind an analysis, only, with a single worker, behind one decision. Progress (decisions
done of total) is written to the row as it goes, so a viewer polling any node sees it;
the result is kept in the row, and every later visitor gets it at once.

Only a finished match is analysed: its record shows every rack anyway, and a live
game's racks never reach an analysis. :data:`MOST_RUNNING` caps the analyses under way
on one node; more are refused with ``503 busy`` until one ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from triominos.analysis import DEFAULT_SIMULATIONS, Analysis, Position, player_names, positions
from triominos.server.analysis_store import STALE_SECONDS, AnalysisStore, StoredAnalysis
from triominos.server.bots import BotWorker
from triominos.server.protocol import ApiError
from triominos.server.store import Store, TableInfo
from triominos.server.table import LiveTable

log = logging.getLogger("triominos.server")

MOST_RUNNING = 4
"""Analyses under way on one node at once; one more is refused (503 ``busy``)."""
PROGRESS_SECONDS = 1.0
"""The least time between two writes of an analysis's progress."""
SEED = 0
"""The seed of every analysis: the same as ``triominos analyse`` on the table's record
with ``--sims`` :data:`~triominos.analysis.DEFAULT_SIMULATIONS` (its defaults)."""

JsonObject = dict[str, Any]


class Analyses:
    """The analyses one node runs, and what any node stored."""

    def __init__(
        self,
        store: Store,
        worker: BotWorker,
        *,
        simulations: int = DEFAULT_SIMULATIONS,
        most_running: int = MOST_RUNNING,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.rows = AnalysisStore(store, clock)
        self.worker = worker
        self.simulations = simulations
        self.most_running = most_running
        self.clock = clock
        self.running: dict[int, tuple[asyncio.Task[None], list[int]]] = {}
        """By table id: the task, and [decisions done, total] (fresher than the row)."""

    async def status(self, info: TableInfo) -> JsonObject:
        """The table's analysis: ``none`` yet, ``running`` (``done`` of ``total``), or
        ``done`` with the analysis."""
        _finished_only(info)
        here = self.running.get(info.id)
        if here is not None:
            return _running(*here[1])
        stored = await asyncio.to_thread(self.rows.get, info.id)
        if stored is None or self._stale(stored):
            return {"status": "none", "done": 0, "total": 0, "analysis": None}
        if stored.status == "running":
            return _running(stored.done, stored.total)
        return {
            "status": "done",
            "done": stored.total,
            "total": stored.total,
            "analysis": stored.result,
        }

    async def start(self, table: LiveTable) -> JsonObject:
        """Begin the table's analysis unless it is done or under way; its status."""
        status = await self.status(table.info)
        if status["status"] != "none":
            return status
        if len(self.running) >= self.most_running:
            raise ApiError(
                503,
                "busy",
                f"the server is analysing {len(self.running)} matches; try again soon",
                retry_after=30,
            )
        record = table.record()
        found = await asyncio.to_thread(positions, record)
        table_id = table.info.id
        claimed = await asyncio.to_thread(
            self.rows.claim, table_id, self.simulations, SEED, len(found)
        )
        if not claimed or table_id in self.running:  # another node (or request) was first
            return await self.status(table.info)
        progress = [0, len(found)]
        task = asyncio.create_task(self._run(table, found, player_names(record), progress))
        self.running[table_id] = (task, progress)
        return _running(*progress)

    async def _run(
        self,
        table: LiveTable,
        found: list[Position],
        names: tuple[str, ...],
        progress: list[int],
    ) -> None:
        table_id = table.info.id
        try:
            decisions = []
            written = self.clock()
            for position in found:
                decisions.append(
                    await self.worker.analysis(position, self.simulations, SEED, table.code)
                )
                progress[0] = len(decisions)
                if self.clock() - written >= PROGRESS_SECONDS:
                    await asyncio.to_thread(self.rows.progress, table_id, progress[0])
                    written = self.clock()
            analysis = Analysis(names, self.simulations, SEED, tuple(decisions))
            await asyncio.to_thread(self.rows.finish, table_id, analysis.to_json())
            log.info("table %s: analysed, %d decisions", table.code, len(decisions))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the analysis failed", table.code)
            await asyncio.to_thread(self.rows.drop, table_id)
        finally:
            self.running.pop(table_id, None)

    def _stale(self, stored: StoredAnalysis) -> bool:
        """A running analysis whose node fell silent: it may be begun again."""
        return stored.status == "running" and stored.updated_at < self.clock() - STALE_SECONDS

    def stop(self) -> None:
        """Cancel the analyses under way (their rows go stale; another start resumes)."""
        for task, _ in self.running.values():
            task.cancel()


def _finished_only(info: TableInfo) -> None:
    if info.status != "finished":
        raise ApiError(409, "playing", "a match is analysed once it is over")


def _running(done: int, total: int) -> JsonObject:
    return {"status": "running", "done": done, "total": total, "analysis": None}
