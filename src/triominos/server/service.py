"""The game service: the live tables of one server, their database, bots and timers.

Every action, whoever sends it (a person, a bot, the turn timer), goes through
:meth:`Service.submit`: under the table's lock it is checked on the live match, written
to the database, and only then sent to every viewer, each its own event and view. An
action is acknowledged only once it is durable.

Storage can fail (a locked file, a full disk, a read-only mount, a database that went
away): then nothing is acknowledged, nobody is blamed, the log says so once per kind of
fault (:class:`FaultLog`), and the table tries again with backoff, its turn timer and
its bots included, until storage works again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Literal

from triominos.analysis import DEFAULT_SIMULATIONS
from triominos.game import Action
from triominos.server.analyses import Analyses
from triominos.server.bots import BotWorker, bot_seed
from triominos.server.metrics import ActionMetrics
from triominos.server.protocol import (
    CODE_PATTERN,
    CONNECTIONS_PER_ADDRESS,
    MAX_THINK_SECONDS,
    ApiError,
)
from triominos.server.store import (
    ActionWriter,
    StorageFault,
    Store,
    StoredAction,
    TableInfo,
    storage_fault,
)
from triominos.server.table import LiveTable, Refused, Viewer
from triominos.server.timers import default_action
from triominos.server.views import LoggedEvent

log = logging.getLogger("triominos.server")

IDLE_FINISHED_TABLES = 50
RETRY_FIRST_SECONDS = 0.5
RETRY_MOST_SECONDS = 30.0
"""Storage is tried again after a fault 0.5 s later, then twice as late each time, up to
30 s between tries."""
SWEEP_SECONDS = 60.0
"""How often waiting tables are looked at for expiry."""

Outcome = Literal["accepted", "refused", "unavailable"]


class FaultLog:
    """One log line per kind of storage fault while it lasts, and one when it is over:
    a read-only disk under a busy server is two lines, not a traceback per action."""

    def __init__(self) -> None:
        self.failing: dict[str, str] = {}

    def failed(self, error: BaseException) -> StorageFault:
        fault = storage_fault(error)
        if fault.kind not in self.failing:
            self.failing[fault.kind] = fault.detail
            if fault.kind == "error":
                log.error("storage failed: %s", fault.detail, exc_info=error)
            else:
                log.error("storage failed (%s): %s; retrying", fault.kind, fault.detail)
        return fault

    def recovered(self) -> None:
        if self.failing:
            log.warning("storage works again (it failed: %s)", ", ".join(self.failing))
            self.failing.clear()


def unavailable(fault: StorageFault | None = None) -> ApiError:
    """503 for a request that storage could not serve now."""
    reason = "" if fault is None else f" ({fault.kind})"
    return ApiError(
        503, "unavailable", f"storage is unavailable{reason}; try again soon", retry_after=5
    )


def address_hash(client: str) -> str:
    """What the database keeps of a creator's address: enough to count, not to read."""
    return hashlib.sha256(client.encode()).hexdigest()[:32]


class Service:
    """The live tables of one server, their database, bots and timers.

    ``waiting_per_address``, ``waiting_in_all``, ``waiting_seconds`` and
    ``connections_per_address`` are limits of PROTOCOL.md; ``clock`` is the time (Unix
    seconds) they count by. ``analysis_simulations``: what a finished match's analysis
    spends a decision (:mod:`triominos.server.analyses`).
    """

    def __init__(
        self,
        store: Store,
        worker: BotWorker,
        bot_delay: float,
        *,
        waiting_per_address: int,
        waiting_in_all: int,
        waiting_seconds: float,
        connections_per_address: int = CONNECTIONS_PER_ADDRESS,
        analysis_simulations: int = DEFAULT_SIMULATIONS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.writer = ActionWriter(store)
        self.worker = worker
        self.bot_delay = bot_delay
        self.waiting_per_address = waiting_per_address
        self.waiting_in_all = waiting_in_all
        self.waiting_seconds = waiting_seconds
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self.faults = FaultLog()
        self.metrics = ActionMetrics()
        self.connections_per_address = connections_per_address
        self.connections: Counter[str] = Counter()
        """Open WebSocket connections by client address (guard.client_key)."""
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.analyses = Analyses(store, worker, simulations=analysis_simulations)

    async def start(self) -> None:
        """Upgrade the schema, check that it can be written, then resume every table
        being played: bots, timers. Waiting tables load when someone asks for them."""
        self.loop = asyncio.get_running_loop()
        await asyncio.to_thread(self.store.upgrade)
        await asyncio.to_thread(self.store.check_writable)
        for code in await asyncio.to_thread(self.store.playing_codes):
            await self.table(code)
        log.info("resumed %d tables", len(self.tables))
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.analyses.stop()
        for table in self.tables.values():
            for task in (table.bot_task, table.timer_task, table.retry_task):
                if task is not None:
                    task.cancel()
            for viewer in table.viewers:
                viewer.close(1001)  # going away
        self.worker.shutdown()
        await asyncio.to_thread(self.store.dispose)

    async def ready(self) -> StorageFault | None:
        """None when storage takes writes and the schema is current, else why not."""
        try:
            await asyncio.to_thread(self.store.check_writable)
        except Exception as error:
            return storage_fault(error)
        return None

    # --- tables -------------------------------------------------------------------

    async def table(self, code: str) -> LiveTable | None:
        """The live table of a code, loaded (replayed) from the database on first use;
        StorageFault when the database cannot say."""
        code = code.upper()
        if not CODE_PATTERN.fullmatch(code):
            return None
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(code)
            if table is None:
                table = await asyncio.to_thread(self._load, code)
                if table is None:
                    return None
                self.tables[code] = table
                self.changed(table)
        return table

    def _load(self, code: str) -> LiveTable | None:
        info = self.store.table(code)
        if info is None:
            return None
        return LiveTable(info, self.store.actions(info.id), now=self.clock())

    async def existing(self, code: str) -> LiveTable:
        """The table of a code for an HTTP request: 404, or 503 when storage fails."""
        try:
            table = await self.table(code)
        except StorageFault as fault:
            self.faults.failed(fault)
            raise unavailable(fault) from None
        if table is None:
            raise ApiError(404, "not_found", f"no table has the code {code!r}")
        return table

    async def replayed(self, table: LiveTable) -> bool:
        """Under the table's lock: make a stale table the database's again; whether it
        is now (False: storage still fails; it stays stale and refuses)."""
        if not table.stale:
            return True
        try:
            info = await asyncio.to_thread(self.store.table, table.code)
            assert info is not None
            actions = await asyncio.to_thread(self.store.actions, info.id)
            table.replay(info, actions)
        except Exception as error:
            self.faults.failed(error)
            return False
        return True

    async def fresh(self, table: LiveTable) -> LiveTable:
        """The table for a request that shows it: 503 while it is stale."""
        if table.stale:
            async with table.lock:
                if not await self.replayed(table):
                    raise unavailable()
        return table

    # --- actions ------------------------------------------------------------------

    async def submit(
        self,
        table: LiveTable,
        seat: int | None,
        version: int,
        action: Mapping[str, Any] | Action,
        *,
        client_id: str | None = None,
        sender: Viewer | None = None,
        by_server: bool = False,
    ) -> Outcome:
        """Check, store, then broadcast one action; refusals go to the sender only.

        ``by_server``: a bot's move or the turn timer's, which may play any seat.
        """
        arrived = time.monotonic()
        outcome = await self._submit(
            table, seat, version, action, client_id=client_id, sender=sender, by_server=by_server
        )
        self.metrics.record(outcome, time.monotonic() - arrived)
        return outcome

    async def _submit(
        self,
        table: LiveTable,
        seat: int | None,
        version: int,
        action: Mapping[str, Any] | Action,
        *,
        client_id: str | None,
        sender: Viewer | None,
        by_server: bool,
    ) -> Outcome:
        async with table.lock:
            if not await self.replayed(table):
                self._refuse_unavailable(sender, client_id)
                return "unavailable"
            try:
                checked = table.check(seat, client_id, version, action, by_server=by_server)
                assert seat is not None  # check refuses spectators
                logged, stored = table.apply(seat, checked, client_id, self.clock())
            except Refused as refusal:
                if sender is not None:
                    sender.send(refusal.to_message(client_id))
                return "refused"
            outcome = await self._store(table, logged, stored, sender, client_id)
        if outcome == "accepted":
            self.changed(table)
        return outcome

    async def _store(
        self,
        table: LiveTable,
        logged: LoggedEvent,
        stored: StoredAction,
        sender: Viewer | None,
        client_id: str | None,
    ) -> Outcome:
        """Under the table's lock: write what the live table just did, then tell every
        viewer; when the write fails, the table is replayed from the database."""
        finished = table.match.is_over
        try:
            await self.writer.append(table.info.id, stored, finished=finished)
        except Exception as error:
            self.faults.failed(error)
            table.stale = True  # memory is ahead of the database: replay it
            await self.replayed(table)
            self._refuse_unavailable(sender, client_id)
            self._retry_later(table)
            return "unavailable"
        self.faults.recovered()
        table.retry_delay = 0.0
        table.bot_choice = None
        table.stored()
        if finished:
            table.finish(stored.created_at)
        log.info(
            "table %s v%d: seat %d %s",
            table.code,
            stored.version,
            stored.seat,
            stored.action["action"],
        )
        table.broadcast_event(logged, sender, client_id)
        return "accepted"

    async def ask_take_back(
        self, table: LiveTable, seat: int | None, client_id: str, sender: Viewer
    ) -> None:
        """A seat asks to take back its last action: every viewer hears of it, and it is
        taken back at once when no other person has to agree (bots always do)."""
        async with table.lock:
            if not await self.replayed(table):
                self._refuse_unavailable(sender, client_id)
                return
            try:
                takeback = table.ask_take_back(seat)
            except Refused as refusal:
                sender.send(refusal.to_message(client_id))
                return
            if takeback.waiting:
                self._tell_takeback(table, "asked", takeback.seat)
                return
            outcome = await self._take_back(table, takeback.seat, sender, client_id)
        if outcome == "accepted":
            self.changed(table)

    async def answer_take_back(
        self, table: LiveTable, seat: int | None, accept: bool, sender: Viewer
    ) -> None:
        """A person answers the takeback asked for: declined, or taken back once the
        last of the others accepted."""
        async with table.lock:
            if not await self.replayed(table):
                self._refuse_unavailable(sender, None)
                return
            asked = table.takeback
            try:
                takeback = table.answer_take_back(seat, accept)
            except Refused as refusal:
                sender.send(refusal.to_message())
                return
            assert asked is not None  # answer_take_back refuses otherwise
            if takeback is None:
                self._tell_takeback(table, "declined", asked.seat)
                return
            if takeback.waiting:
                self._tell_takeback(table, "asked", takeback.seat)
                return
            outcome = await self._take_back(table, takeback.seat, None, None)
        if outcome == "accepted":
            self.changed(table)

    async def _take_back(
        self, table: LiveTable, seat: int, sender: Viewer | None, client_id: str | None
    ) -> Outcome:
        """Under the table's lock: take back, store, tell everyone (an ``event``)."""
        logged, stored = table.take_back(seat, self.clock())
        return await self._store(table, logged, stored, sender, client_id)

    @staticmethod
    def _tell_takeback(table: LiveTable, state: str, seat: int) -> None:
        table.broadcast(
            lambda viewer: {
                "type": "takeback",
                "state": state,
                "seat": seat,
                "view": table.view(viewer),
            }
        )

    @staticmethod
    def _refuse_unavailable(sender: Viewer | None, client_id: str | None) -> None:
        if sender is not None:
            refusal = Refused("unavailable", "the action could not be saved; nothing changed")
            sender.send(refusal.to_message(client_id))

    def _retry_later(self, table: LiveTable) -> None:
        """After a storage fault: replay the table, then its bot and timer, later and
        later while storage keeps failing."""
        if table.retry_task is not None:
            return
        delay = table.retry_delay = min(
            RETRY_MOST_SECONDS, max(RETRY_FIRST_SECONDS, table.retry_delay * 2)
        )

        async def retry() -> None:
            await asyncio.sleep(delay)
            table.retry_task = None
            async with table.lock:
                replayed = await self.replayed(table)
            if not replayed:
                self._retry_later(table)
                return
            self.changed(table)

        table.retry_task = asyncio.create_task(retry())

    def changed(self, table: LiveTable) -> None:
        """After any change: a bot to move thinks, the turn timer restarts."""
        self._schedule_bot(table)
        self._reset_timer(table)
        if table.match.is_over:
            self.forget_idle_tables()

    def forget_idle_tables(self) -> None:
        """Keep at most IDLE_FINISHED_TABLES finished tables that nobody watches in
        memory, the oldest go (the database keeps them; the next request replays them)."""
        idle = [
            code for code, table in self.tables.items() if table.match.is_over and not table.viewers
        ]
        for code in idle[: max(0, len(idle) - IDLE_FINISHED_TABLES)]:
            del self.tables[code]

    # --- seats --------------------------------------------------------------------

    def reseated(self, table: LiveTable, info: TableInfo) -> None:
        """A seat of ``table`` changed in the database: the live table follows."""
        table.reseat(info, self.clock())
        table.broadcast_presence()

    async def reclaim(self, table: LiveTable, seat: int, token_hash: str) -> bool:
        """Under the table's lock: the person who came back takes their seat back from
        the bot, unless the bot is thinking about this seat's move right now (then the
        seat comes back when that move is made, at the latest on its next turn).
        Whether the seat is the person's again now."""
        if table.seat(seat).kind != "bot" or table.seat(seat).token_hash != token_hash:
            return False
        if table.bot_task is not None and table.match.to_move == seat:
            table.reclaims.add(seat)
            return False
        try:
            info = await asyncio.to_thread(self.store.reclaim_seat, table.info.id, seat, token_hash)
        except Exception as error:
            self.faults.failed(error)
            table.reclaims.add(seat)  # tried again at the seat's next turn
            return False
        table.reclaims.discard(seat)
        if info is None:
            return False
        self.reseated(table, info)
        log.info("table %s: seat %d taken back from its bot", table.code, seat)
        return True

    # --- bots ---------------------------------------------------------------------

    def _schedule_bot(self, table: LiveTable) -> None:
        if table.bot_task is None and table.retry_task is None and table.to_move_is_bot():
            table.bot_task = asyncio.create_task(self._bot_turn(table))

    async def _bot_turn(self, table: LiveTable) -> None:
        """The bot to move thinks in the worker, then plays through :meth:`submit`."""
        try:
            await self._bot_move(table)
        except Exception:
            log.exception("table %s: a bot's turn failed", table.code)
            return
        finally:
            table.bot_task = None
        if table.reclaims:  # people who came back while their bot thought
            async with table.lock:
                for seat in sorted(table.reclaims):
                    await self.reclaim(table, seat, table.seat(seat).token_hash or "")
        self._schedule_bot(table)  # the same bot again after a draw, or the next one

    async def _bot_move(self, table: LiveTable) -> None:
        started = time.monotonic()
        version, seat = table.version, table.match.to_move
        info = table.seat(seat)
        assert info.bot is not None
        if table.bot_choice is not None and table.bot_choice[0] == version:
            action = table.bot_choice[1]  # chosen before storage failed: no thinking again
        else:
            think = None if info.think is None else min(info.think, MAX_THINK_SECONDS)
            try:
                action = await self.worker.action(
                    table.match.observe(seat),
                    info.bot,
                    think,
                    bot_seed(table.info.seed, version, seat),
                    table.code,
                )
            except Exception:
                log.exception("table %s: bot %s failed; the default action", table.code, info.bot)
                action = default_action(table.legal_actions(), table.info.timeout_action)
            table.bot_choice = version, action
        await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))
        outcome = await self.submit(table, seat, version, action, by_server=True)
        if outcome == "refused" and table.version == version and table.to_move_is_bot():
            log.error("table %s: bot %s chose an illegal action", table.code, info.bot)
            table.bot_choice = None
            await self.submit(
                table,
                seat,
                version,
                default_action(table.legal_actions(), table.info.timeout_action),
                by_server=True,
            )

    # --- the turn timer -----------------------------------------------------------

    def _reset_timer(self, table: LiveTable) -> None:
        running = table.timer_task
        if running is not None and running is not asyncio.current_task():
            running.cancel()
        table.timer_task = None
        deadline = table.turn_deadline
        if deadline is not None and table.retry_task is None:
            table.timer_task = asyncio.create_task(self._timeout(table, table.version, deadline))

    async def _timeout(self, table: LiveTable, version: int, deadline: float) -> None:
        """At the deadline, the default action for the seat to move (if nothing moved).
        When storage fails, :meth:`submit` tries again later, and the timer with it."""
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        if table.version != version or not table.playing:
            return
        seat = table.match.to_move
        log.info("table %s v%d: seat %d ran out of time", table.code, version, seat)
        try:
            action = default_action(table.legal_actions(), table.info.timeout_action)
            await self.submit(table, seat, version, action, by_server=True)
        except Exception:
            log.exception("table %s: the turn timer's action failed", table.code)

    # --- waiting tables -----------------------------------------------------------

    async def may_create(self, client: str) -> str:
        """Refuse a new table past the caps on waiting tables; the creator's hash."""
        creator = address_hash(client)
        try:
            mine, every = await asyncio.to_thread(self.store.waiting_counts, creator)
        except StorageFault as fault:
            self.faults.failed(fault)
            raise unavailable(fault) from None
        if mine >= self.waiting_per_address:
            raise ApiError(
                429,
                "too_many_tables",
                f"this address has {mine} tables waiting for players, the most it may "
                "have; start or finish one first",
                retry_after=60,
            )
        if every >= self.waiting_in_all:
            raise ApiError(
                503,
                "busy",
                "the server has as many tables waiting for players as it takes",
                retry_after=60,
            )
        return creator

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception as error:
                self.faults.failed(error)

    async def sweep(self) -> list[str]:
        """Delete the waiting tables older than ``waiting_seconds`` that nobody watches,
        and forget the waiting tables nobody watches (the database keeps them)."""
        watched = {code for code, table in self.tables.items() if table.viewers}
        codes = await asyncio.to_thread(
            self.store.expire_waiting, self.clock() - self.waiting_seconds, watched
        )
        for code in codes:
            log.info("table %s: expired, nobody came to play", code)
        for code, table in list(self.tables.items()):
            if table.info.status == "waiting" and not table.viewers and not table.lock.locked():
                del self.tables[code]
        return codes
