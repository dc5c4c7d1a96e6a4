"""The game service: the live tables of one server, their database, bots and timers.

Every change to a table, whoever makes it (a person, a bot, the turn timer, an HTTP
request), is a command of :mod:`triominos.server.tablestate` and goes through
:meth:`Service.perform`: under the table's lock the table state decides it, what it
decided is written to the database under this node's claim, and only then does the
state change and every viewer hear of it, each its own event and view. An action is
acknowledged only once it is durable, and the state is only ever what is stored.

Storage can fail (a locked file, a full disk, a read-only mount, a database that went
away): then nothing is acknowledged, nobody is blamed, the log says so once per kind of
fault (:class:`FaultLog`), and the table tries again with backoff, its turn timer and
its bots included, until storage works again.

The service is one node of several on one database (:mod:`triominos.server.nodes`): the
live tables are those this node claimed, and every write is fenced by the claim. A
table another node holds is that node's to serve (:meth:`Service.locate` names it, and
the routes proxy to it); a table nobody holds is claimed by the node that needs it, and
the tables being played whose owner died are claimed by the nodes left
(:meth:`Service.claim_orphans`), their timers and bots resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Literal

import httpx

from triominos.analysis import DEFAULT_SIMULATIONS
from triominos.server.analyses import Analyses
from triominos.server.bots import BotWorker, bot_seed
from triominos.server.friends_store import unheard_seats
from triominos.server.metrics import ActionMetrics, NodeMetrics, TrafficMetrics
from triominos.server.nodes import RENEW_SECONDS, SCAN_SECONDS, Leases, Node
from triominos.server.protocol import (
    CHAT_FINISHED_DAYS,
    CHAT_KEPT,
    CODE_PATTERN,
    CONNECTIONS_PER_ADDRESS,
    MAX_THINK_SECONDS,
    SERVICE_RESTART,
    ApiError,
)
from triominos.server.proxy import http_client
from triominos.server.push import REMIND_SHARE, Pusher, reminder, your_turn
from triominos.server.push import finished as finished_notice
from triominos.server.rating_store import Finished, RatingStore
from triominos.server.room import Viewer
from triominos.server.store import (
    ActionWrite,
    ActionWriter,
    LeaseLost,
    StorageFault,
    Store,
    TableInfo,
    chat_channel,
    storage_fault,
)
from triominos.server.table import LiveTable
from triominos.server.tablestate import (
    Act,
    AppendAction,
    ChatLine,
    ClaimWin,
    Command,
    Decision,
    EndRequest,
    PlayDefault,
    Reclaim,
    ReclaimSeat,
    Refused,
    Resign,
    SeatToBot,
    TableState,
    TakeSeat,
    Told,
    token_hash,
)
from triominos.server.timers import default_action

log = logging.getLogger("triominos.server")

IDLE_FINISHED_TABLES = 50
RETRY_FIRST_SECONDS = 0.5
RETRY_MOST_SECONDS = 30.0
"""Storage is tried again after a fault 0.5 s later, then twice as late each time, up to
30 s between tries."""
REACH_SELF_TRIES = 5
REACH_SELF_SECONDS = 1.0
"""A node asks its own URL 5 times a second apart once it started (:meth:`Service.start`)."""
SWEEP_SECONDS = 60.0
"""How often waiting tables are looked at for expiry."""

Outcome = Literal["accepted", "refused", "unavailable"]


Part = Literal["tables", "node"]
"""What met a storage fault: the tables' writes and reads, or the node's own (its lease
renewal, its readiness check, its background jobs)."""


class FaultLog:
    """One log line per kind of storage fault while it lasts, and one when it is over:
    a read-only disk under a busy server is two lines, not a traceback per action.

    A kind is over once every part that met it worked again: a renewal of the lease
    ends what the renewals met (a database restart: every node says it is over, not
    only those that store an action), never what only the tables' writes meet (a full
    disk that still refuses the actions)."""

    def __init__(self) -> None:
        self.failing: dict[str, str] = {}
        self._met_by: dict[str, set[Part]] = {}

    def failed(self, error: BaseException, part: Part = "tables") -> StorageFault:
        fault = storage_fault(error)
        if fault.kind not in self.failing:
            self.failing[fault.kind] = fault.detail
            if fault.kind == "error":
                log.error("storage failed: %s", fault.detail, exc_info=error)
            else:
                log.error("storage failed (%s): %s; retrying", fault.kind, fault.detail)
        self._met_by.setdefault(fault.kind, set()).add(part)
        return fault

    def recovered(self, part: Part = "tables") -> None:
        """``part`` of the service just used storage without a fault."""
        for parts in self._met_by.values():
            parts.discard(part)
        over = [kind for kind, parts in self._met_by.items() if not parts]
        for kind in over:
            del self._met_by[kind]
            self.failing.pop(kind, None)
        if over:
            log.warning("storage works again (it failed: %s)", ", ".join(over))


def unavailable(fault: StorageFault | None = None) -> ApiError:
    """503 for a request that storage could not serve now."""
    reason = "" if fault is None else f" ({fault.kind})"
    return ApiError(
        503, "unavailable", f"storage is unavailable{reason}; try again soon", retry_after=5
    )


def address_hash(client: str) -> str:
    """What the database keeps of a creator's address: enough to count, not to read."""
    return hashlib.sha256(client.encode()).hexdigest()[:32]


class Moved(ApiError):
    """This node no longer holds the table (another node claimed it): nothing changed
    here, and the request is to be made again, which reaches the new owner."""

    def __init__(self) -> None:
        super().__init__(
            503, "unavailable", "the table is moving to another node; try again", retry_after=1
        )


class Draining(StorageFault):
    """This node is stopping: it claims no table now (another node will)."""

    def __init__(self) -> None:
        super().__init__("draining", "this node is stopping; try again")


class Service:
    """The live tables of one node, their database, bots and timers.

    ``node``: this process as the other nodes see it. ``waiting_per_address``,
    ``waiting_in_all``, ``waiting_seconds`` (a waiting table someone joined),
    ``unjoined_seconds`` (one nobody joined) and ``connections_per_address`` are limits
    of PROTOCOL.md; ``clock`` is this machine's time (Unix seconds), which the service
    corrects to the database's (:meth:`Leases.database_now`) and counts them by.
    ``analysis_simulations``: what a finished match's analysis spends a decision
    (:mod:`triominos.server.analyses`).
    """

    def __init__(
        self,
        store: Store,
        worker: BotWorker,
        bot_delay: float,
        *,
        node: Node,
        waiting_per_address: int,
        waiting_in_all: int,
        waiting_seconds: float,
        unjoined_seconds: float,
        connections_per_address: int = CONNECTIONS_PER_ADDRESS,
        analysis_simulations: int = DEFAULT_SIMULATIONS,
        clock: Callable[[], float] = time.time,
        pusher: Pusher | None = None,
    ) -> None:
        self.store = store
        self.pusher = pusher
        """Sends the players who are away a push when it is their turn or the match ended."""
        self.node = node
        self.leases = Leases(store, node, clock=clock)
        self.single_node = store.url.get_backend_name() == "sqlite"
        """SQLite: the one node of its database, which owns every table."""
        self.writer = ActionWriter(store)
        self.worker = worker
        self.bot_delay = bot_delay
        self.waiting_per_address = waiting_per_address
        self.waiting_in_all = waiting_in_all
        self.waiting_seconds = waiting_seconds
        self.unjoined_seconds = unjoined_seconds
        self.clock: Callable[[], float] = self.leases.database_now
        """The database's clock, which every node times turns and limits by."""
        self.tables: dict[str, LiveTable] = {}
        self.faults = FaultLog()
        self.metrics = ActionMetrics()
        self.node_metrics = NodeMetrics()
        self.traffic = TrafficMetrics()
        self.connections_per_address = connections_per_address
        self.connections: Counter[str] = Counter()
        """Open WebSocket connections by client address (guard.client_key)."""
        self._loading = asyncio.Lock()
        self.analyses = Analyses(store, worker, simulations=analysis_simulations)
        self._claiming: set[int] = set()
        """Tables claimed and still being loaded: not forgotten leases (:meth:`renew`)."""
        self._tasks: list[asyncio.Task[None]] = []
        self.renewed_at = -float("inf")
        """When (monotonic) the last renewal of the leases began that succeeded."""
        self.draining = False
        self.http = http_client()
        """Requests proxied to the nodes that hold their tables."""
        self.ratings = RatingStore(store)
        self._rating: set[asyncio.Task[None]] = set()
        """Rated tables that finished and are being rated (kept so none is collected)."""

    async def start(self) -> None:
        """Upgrade the schema, check that it can be written, register the node, then
        resume the tables being played that no node holds: bots, timers; rate the
        rated tables left unrated. Waiting tables load when someone asks for them."""
        self.loop = asyncio.get_running_loop()
        await asyncio.to_thread(self.store.upgrade)
        await asyncio.to_thread(self.store.check_writable)
        if self.single_node:
            await asyncio.to_thread(self.leases.take_over)
        await self.renew()
        await self.claim_orphans()
        log.info("node %s at %s: resumed %d tables", self.node.id, self.node.url, len(self.tables))
        self._tasks = [
            asyncio.create_task(self._every(SWEEP_SECONDS, self.sweep)),
            asyncio.create_task(self.rate_pending()),
        ]
        if not self.single_node:
            self._tasks += [
                asyncio.create_task(self._every(RENEW_SECONDS, self.renew)),
                asyncio.create_task(self._every(SCAN_SECONDS, self.claim_orphans)),
            ]
        if self.node.url and not self.single_node:  # no URL: an app no other node reaches
            self._tasks.append(asyncio.create_task(self._reach_self()))

    async def _reach_self(self) -> None:
        """Once listening: this node must answer at its own URL, where the other nodes
        send its tables' viewers and requests. One that cannot be reached there
        (a wrong ``--node-url``) says so, hands its tables over and exits with status 1,
        instead of serving while the other nodes' requests for its tables wait and fail.
        """
        url = f"{self.node.url}/healthz"
        for _ in range(REACH_SELF_TRIES):
            await asyncio.sleep(REACH_SELF_SECONDS)
            try:
                await self.http.get(url)
                return  # any answer: something listens there, this node
            except httpx.HTTPError as error:
                failure = error
        log.error(
            "--node-url %s: this node cannot be reached there (%s); the other nodes "
            "could not reach it either: stopping",
            self.node.url,
            failure,
        )
        await self.drain()
        os._exit(1)

    async def stop(self) -> None:
        """The end of the process: the viewers left are told it goes away (1001), and
        the leases are given up, unless :meth:`drain` did all that already."""
        for task in self._tasks:
            task.cancel()
        self.analyses.stop()
        for table in list(self.tables.values()):
            self._drop(table, close=1001)  # going away
        if not self.draining:
            try:
                await asyncio.to_thread(self.leases.leave)
            except Exception as error:  # the leases run out by themselves
                self.faults.failed(error, "node")
        self.worker.shutdown()
        await self.http.aclose()
        await asyncio.to_thread(self.store.dispose)

    async def drain(self) -> None:
        """Stop for good without anyone seeing an error (SIGTERM): claim nothing more,
        let each table's write in progress finish, give every lease up at once so
        that other nodes claim the tables now, then send every viewer to reconnect
        (close 1012), which brings them to the table's new owner."""
        self.draining = True
        for task in self._tasks:
            if task is not asyncio.current_task():  # :meth:`_reach_self` drains too
                task.cancel()
        dropped = []
        for table in list(self.tables.values()):
            async with table.lock:  # a write in progress is finished first
                self._drop(table, close=None)
            dropped.append(table)
        try:
            await asyncio.to_thread(self.leases.leave)
        except Exception as error:  # the leases run out by themselves
            self.faults.failed(error)
        self.node_metrics.released += len(dropped)
        for table in dropped:
            table.room.close_all(SERVICE_RESTART)
        log.info("node %s: drained, %d tables handed over", self.node.id, len(dropped))

    async def ready(self) -> StorageFault | None:
        """None when storage takes writes, the schema is current and this node holds
        its leases (it renewed them lately, and it is not stopping), else why not."""
        if self.draining:
            return Draining()
        try:
            await asyncio.to_thread(self.store.check_writable)
        except Exception as error:
            return self.faults.failed(error, "node")
        self.faults.recovered("node")
        if time.monotonic() - self.renewed_at > self.leases.lease_seconds:
            await self.renew()  # storage works again: say so now, not a renewal later
            if time.monotonic() - self.renewed_at > self.leases.lease_seconds:
                return StorageFault("node", "this node could not renew its leases lately")
        return None

    async def _every(self, seconds: float, job: Callable[[], Any]) -> None:
        """Run ``job`` about every ``seconds`` (spread a little, so that the nodes do
        not all ask at the same moment) until cancelled; a fault is logged, not fatal."""
        while True:
            await asyncio.sleep(seconds * random.uniform(0.8, 1.2))
            try:
                await job()
            except Exception as error:
                self.faults.failed(error, "node")

    # --- ownership ----------------------------------------------------------------

    async def renew(self) -> None:
        """Renew this node's leases; the tables another node claimed since are given
        up (their viewers reconnect to it), and so is every table once the leases
        could not be renewed for a whole lease: other nodes may own them by now."""
        began = time.monotonic()
        live = list(self.tables.values())
        try:
            held = await asyncio.to_thread(self.leases.heartbeat)
        except Exception as error:
            self.faults.failed(error, "node")
            overdue = began - self.renewed_at > self.leases.lease_seconds
            if overdue and self.tables and not self.single_node:  # SQLite: nobody else
                log.warning("node %s: leases not renewed in time; giving tables up", self.node.id)
                for table in list(self.tables.values()):
                    self._lose(table)
            return
        self.renewed_at = began
        self.faults.recovered("node")
        for table in live:
            if self.tables.get(table.code) is table and held.get(table.info.id) != table.epoch:
                log.warning("table %s: claimed by another node", table.code)
                self._lose(table)
        mine = {table.info.id for table in self.tables.values()} | self._claiming
        forgotten = {table_id: epoch for table_id, epoch in held.items() if table_id not in mine}
        if forgotten:  # tables this node no longer keeps in memory
            await asyncio.to_thread(self.leases.release, forgotten)
            self.node_metrics.released += len(forgotten)

    async def claim_orphans(self) -> None:
        """Claim this node's share of the tables being played whose owner is gone, and
        resume their timers and bots."""
        if self.draining:
            return
        async with self._loading:
            claims = await asyncio.to_thread(self.leases.claim_orphans)
            for claim in claims:
                self._claiming.add(claim.table_id)
            try:
                for claim in claims:
                    try:
                        table = await asyncio.to_thread(self._load, claim.code, claim.epoch)
                    except Exception as error:  # renew gives the lease up
                        self.faults.failed(error)
                        continue
                    if table is not None:
                        log.info("table %s: taken over (epoch %d)", table.code, claim.epoch)
                        self._install(table)
                        if claim.lease_ended is not None:
                            waited = self.leases.database_now() - claim.lease_ended
                            self.node_metrics.failover.observe(waited)
            finally:
                self._claiming.difference_update(claim.table_id for claim in claims)

    def _install(self, table: LiveTable) -> None:
        stale = self.tables.get(table.code)
        if stale is not None:  # a copy from an older claim of this node's
            self._lose(stale)
        self.tables[table.code] = table
        self.node_metrics.claimed += 1
        self.changed(table)

    def _lose(self, table: LiveTable) -> None:
        """Another node owns the table now, or may: forget it and send its viewers to
        reconnect, which brings them to the new owner. Counted once, though the renewal
        and a refused write may both find the loss."""
        if self.tables.get(table.code) is table:
            self.node_metrics.lost += 1
        self._drop(table, close=SERVICE_RESTART)

    def _drop(self, table: LiveTable, close: int | None) -> None:
        """Forget a live table: nothing more is accepted for it here, its bot and
        timer stop, and its viewers are closed with ``close`` (None: not yet)."""
        table.gone = True
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        for task in (table.bot_task, table.timer_task, table.retry_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if close is not None:
            table.room.close_all(close)

    # --- tables -------------------------------------------------------------------

    async def locate(self, code: str) -> LiveTable | Node | None:
        """Where the table of a code lives: this node's live table (claimed and loaded,
        replayed from the database, when no node held it), the node that holds it, or
        None when no table has the code; StorageFault when the database cannot say,
        :class:`Draining` for a table nobody holds while this node stops."""
        code = code.upper()
        if not CODE_PATTERN.fullmatch(code):
            return None
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(code)
            if table is not None:
                return table
            found = await asyncio.to_thread(self._claim, code)
            if isinstance(found, LiveTable):
                self._install(found)
                self._claiming.discard(found.info.id)  # in memory now: renew sees it
            return found

    def _claim(self, code: str) -> LiveTable | Node | None:
        """In a worker thread: claim and load the table, or name the node holding it.
        A table claimed stays in ``_claiming`` until :meth:`locate` has it in memory."""
        info = self.store.table(code)
        if info is None:
            return None
        for _ in range(3):  # the owner's lease may run out between the two questions
            if not self.draining:
                self._claiming.add(info.id)
                loaded = None
                try:
                    epoch = self.leases.claim(info.id)
                    if epoch is not None:
                        loaded = self._load(code, epoch)
                        return loaded
                finally:
                    if loaded is None:
                        self._claiming.discard(info.id)
            owner = self.leases.owner(info.id)
            if owner is not None:
                return owner
            if self.draining:
                raise Draining()
        raise StorageFault("locked", f"table {code}: its owner changed while it was looked up")

    def _load(self, code: str, epoch: int) -> LiveTable | None:
        """The table as stored once this node claimed it (read after the claim, so
        that no write of the previous owner is missed)."""
        info = self.store.table(code)
        if info is None:
            return None
        table = LiveTable(info, self.store.actions(info.id), now=self.clock())
        table.epoch = epoch
        return table

    def snapshot(self, info: TableInfo) -> LiveTable:
        """In a worker thread: the table as stored, for a read on any node (a record,
        the lobby): replayed from the database, never claimed, never kept."""
        actions = [] if info.status == "waiting" else self.store.actions(info.id)
        return LiveTable(info, actions, now=self.clock())

    async def existing(self, code: str) -> LiveTable | Node:
        """The table of a code for an HTTP request, or the node that holds it: 404, or
        503 when storage fails."""
        try:
            found = await self.locate(code)
        except StorageFault as fault:
            self.faults.failed(fault)
            raise unavailable(fault) from None
        if found is None:
            raise ApiError(404, "not_found", f"no table has the code {code!r}")
        return found

    async def replayed(self, table: LiveTable) -> bool:
        """Under the table's lock: make a stale table the database's again; whether it
        is now (False: storage still fails; it stays stale and refuses)."""
        try:
            await self._replay(table)
        except StorageFault:
            return False
        return True

    async def _replay(self, table: LiveTable) -> None:
        """:meth:`replayed`, raising the storage fault when the table stays stale."""
        if not table.stale:
            return
        try:
            info = await asyncio.to_thread(self.store.table, table.code)
            assert info is not None
            actions = await asyncio.to_thread(self.store.actions, info.id)
            table.replay(info, actions, self.clock())
        except Exception as error:
            raise self.faults.failed(error) from None
        table.stale = False

    async def fresh(self, table: LiveTable) -> LiveTable:
        """The table for a request that shows it: 503 while it is stale."""
        if table.stale:
            async with table.lock:
                if not await self.replayed(table):
                    raise unavailable()
        return table

    # --- changes ------------------------------------------------------------------

    async def perform(
        self, table: LiveTable, command: Command, sender: Viewer | None = None
    ) -> Told:
        """The one path of every change to a live table: an action (a person's, a
        bot's, the turn timer's), a resignation or a request to end the match, a
        takeback asked or answered, a turn's clock moved, a chat line, a seat taken,
        given to a bot or taken back.

        Under the table's lock: :class:`Moved` once this node gave the table up, the
        storage fault while it is stale and cannot be read back; then the table state
        decides (:meth:`TableState.decide`), what it decided is written under this
        node's claim (the epoch fence of :func:`triominos.server.store.fence`), and only
        then does the state change and every viewer hear of it (``sender``'s copy with
        its id): nothing is acknowledged before it is durable. A write the fence refuses
        (:class:`LeaseLost`: another node claimed the table) gives the table up, its
        viewers sent on to the new owner, and is :class:`Moved`; another failed write is
        its storage fault, the table read back and tried again later. After it, the bot
        to move and the turn timer are scheduled again. Refusals (:class:`Refused`,
        :class:`ApiError`) and faults are the caller's to answer.
        """
        began = time.monotonic()
        counted = isinstance(command, Act | PlayDefault | Resign | ClaimWin)  # the action metrics
        try:
            async with table.lock:
                if table.gone:  # another node has it now: its viewers reconnect there
                    raise Moved()
                await self._replay(table)
                mover = table.match.to_move if table.playing else None
                decision = table.decide(command, self.clock())
                answer = None if decision.write is None else await self._write(table, decision)
                told = decision.settle(answer)
                table.room.deliver(told, sender=sender)
        except Refused:
            if counted:
                self.metrics.record("refused", time.monotonic() - began)
            raise
        except (StorageFault, Moved):
            if counted:
                self.metrics.record("unavailable", time.monotonic() - began)
            raise
        if counted and isinstance(decision.write, AppendAction):
            self.metrics.record("accepted", time.monotonic() - began)
        if isinstance(decision.write, AppendAction):
            self._push(table, mover, decision.write.finished)
            if decision.write.finished:
                self._rate(table)
        self.changed(table)
        return told

    def _push(self, table: TableState, mover: int | None, finished: bool) -> None:
        """After an action was stored: the players who are not watching the table hear
        that the match ended, or the person now to move that it is their turn (not again
        while the same seat goes on moving). Sent on the pusher's threads, never waited
        for; a notice nobody is away for is not sent."""
        if self.pusher is None:
            return
        info = table.info
        if finished:
            notice = finished_notice(info, table.connected)
        elif not table.playing:
            return
        else:
            seat = table.match.to_move
            if seat == mover or table.seat(seat).kind != "person":
                return
            notice = your_turn(info, seat, table.connected)
        if notice.token_hashes:
            self.pusher.notify(notice)

    def _rate(self, table: TableState) -> None:
        """The match just finished, durably: rate it if it was created rated, in a
        thread and after the move's answer. A failure is logged and never the move's
        (rating is idempotent; :meth:`rate_pending` tries again on the next start). The
        accounts' traces count up to the match's end, however late it is rated."""
        info, match = table.info, table.match
        finished = Finished(
            info.code,
            info.id,
            info.preset,
            tuple(match.totals),
            match.resigned,
            tuple(seat.bot if seat.kind == "bot" else None for seat in info.seats),
            self.clock() if info.finished_at is None else info.finished_at,
        )

        async def rate() -> None:
            try:
                await asyncio.to_thread(self.ratings.rate_table, finished, self.clock())
            except Exception:
                log.exception("table %s: not rated now; tried again on the next start", info.code)

        task = asyncio.create_task(rate())
        self._rating.add(task)
        task.add_done_callback(self._rating.discard)

    async def rate_pending(self) -> None:
        """On start: rate the rated tables that finished unrated (their rating failed,
        or their node stopped before it), each replayed from the database."""
        try:
            codes = await asyncio.to_thread(self.ratings.pending_finished)
            for code in codes:
                info = await asyncio.to_thread(self.store.table, code)
                if info is not None:
                    actions = await asyncio.to_thread(self.store.actions, info.id)
                    self._rate(TableState(info, actions, self.clock()))
        except Exception:
            log.exception("the rated tables left unrated: not rated now")

    async def attempt(self, table: LiveTable, command: Command) -> Outcome:
        """:meth:`perform` for the server's own commands (a bot's move, the turn
        timer's): what came of it, a refusal or a fault being nobody's to hear."""
        try:
            await self.perform(table, command)
        except Refused:
            return "refused"
        except (StorageFault, Moved):
            return "unavailable"
        return "accepted"

    async def _write(self, table: LiveTable, decision: Decision) -> Any:
        """Under the table's lock: make what ``decision`` stores durable, under this
        node's claim; the store's answer. A failed write marks the table stale, reads
        it back and tries again later; the storage fault is raised."""
        write, table_id, epoch = decision.write, table.info.id, table.epoch
        store = self.store
        try:
            match write:
                case AppendAction(stored, finished):
                    await self.writer.append(ActionWrite(table_id, stored, finished, epoch))
                    answer: Any = None
                case TakeSeat(seat, name, hashed):
                    answer = await asyncio.to_thread(
                        store.take_seat, table_id, seat, name, hashed, epoch=epoch
                    )
                case SeatToBot(seat, bot, think, hashed):
                    answer = await asyncio.to_thread(
                        store.give_seat_to_bot, table_id, seat, bot, think, hashed, epoch=epoch
                    )
                case ReclaimSeat(seat, hashed):
                    answer = await asyncio.to_thread(
                        store.reclaim_seat, table_id, seat, hashed, epoch=epoch
                    )
                case EndRequest(seats):
                    answer = await asyncio.to_thread(store.ask_to_end, table_id, seats, epoch=epoch)
                case ChatLine(channel, seat, name, text):
                    answer = await asyncio.to_thread(
                        store.add_chat, table_id, channel, seat, name, text, epoch=epoch
                    )
        except LeaseLost:
            log.warning("table %s: claimed by another node; nothing changed", table.code)
            self._lose(table)
            raise Moved() from None
        except Exception as error:
            fault = self.faults.failed(error)
            table.stale = True  # the write may have been made after all: read it back
            await self.replayed(table)
            self._retry_later(table)
            raise fault from None
        self.faults.recovered()
        table.retry_delay = 0.0
        if isinstance(write, AppendAction):
            table.bot_choice = None
            stored = write.stored
            log.info(
                "table %s v%d: seat %d %s",
                table.code,
                stored.version,
                stored.seat,
                stored.action["action"],
            )
        return answer

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
        memory, the oldest go (the database keeps them; the next request replays them,
        on whichever node; :meth:`renew` gives their leases up)."""
        idle = [
            code for code, table in self.tables.items() if table.match.is_over and not table.viewers
        ]
        for code in idle[: max(0, len(idle) - IDLE_FINISHED_TABLES)]:
            del self.tables[code]

    # --- viewers and seats ------------------------------------------------------

    async def welcome(
        self, table: LiveTable, viewer: Viewer, last_seen: int | None, token: str | None
    ) -> None:
        """Greet a viewer who said hello, from the table as stored: the state is only
        ever what is stored, so a spectator never waits for a change in progress (a
        write to a locked database holds the lock up to 5 s). A seat's person may take
        the seat back from a bot first (RULES.md §15), a change, which waits for the one
        in progress (a handover being written, say). :class:`Moved` or the storage fault
        when the table cannot be shown now."""
        if viewer.seat is not None and token is not None:
            await self.reclaim(table, viewer.seat, token_hash(token))
        if table.gone:
            raise Moved()
        if table.stale:
            async with table.lock:
                await self._replay(table)
        # The greeting brings the viewer's chat as kept: its last messages (none while
        # storage cannot show them: the game comes first).
        try:
            chat = await asyncio.to_thread(self._kept_chat, table, viewer.seat)
        except StorageFault as fault:
            self.faults.failed(fault)
            chat = []
        arrived = table.enter(viewer)
        viewer.send({**table.greeting(viewer.seat, last_seen), "chat": chat})
        if arrived:
            table.room.deliver(table.presence(), skip=viewer)
        self.changed(table)  # a suspended table of bots, woken by its viewer

    def _kept_chat(self, table: LiveTable, seat: int | None) -> list[dict[str, Any]]:
        """In a worker thread: the last lines kept of the chat ``seat`` reads, but those
        of the seats its account blocked."""
        lines = self.store.chats(table.info.id, chat_channel(seat), CHAT_KEPT)
        if seat is None:
            return lines
        unheard = unheard_seats(self.store, table.code).get(seat, frozenset())
        return [line for line in lines if line["seat"] not in unheard]

    async def unheard_by(self, table: LiveTable, seat: int | None) -> frozenset[int]:
        """The seats whose account blocked the account of ``seat``: its chat lines are
        not theirs (:class:`~triominos.server.tablestate.Say`). Asked of the database at
        each line, so that a block made on any node holds at once."""
        if seat is None:
            return frozenset()
        unheard = await asyncio.to_thread(unheard_seats, self.store, table.code)
        return frozenset(listener for listener, speakers in unheard.items() if seat in speakers)

    def farewell(self, table: LiveTable, viewer: Viewer) -> None:
        """A viewer left: the others hear of it when its seat's person is away now."""
        if table.depart(viewer, self.clock()):
            table.room.deliver(table.presence())
        self.forget_idle_tables()

    async def reclaim(self, table: LiveTable, seat: int, token_hash: str) -> None:
        """The person who came back takes their seat back from the bot (at the bot's
        move, when it thinks about this seat's now: :meth:`LiveTable.decide`); when
        storage fails, at the seat's next turn."""
        try:
            await self.perform(table, Reclaim(seat, token_hash))
        except StorageFault:
            table.reclaims.add(seat)

    # --- bots ---------------------------------------------------------------------

    def _schedule_bot(self, table: LiveTable) -> None:
        if (
            table.bot_task is None
            and table.retry_task is None
            and table.to_move_is_bot()
            and not table.suspended(self.clock())
        ):
            table.bot_task = asyncio.create_task(self._bot_turn(table))

    async def _bot_turn(self, table: LiveTable) -> None:
        """The bot to move thinks in the worker, then plays through :meth:`perform`."""
        try:
            await self._bot_move(table)
        except Exception:
            log.exception("table %s: a bot's turn failed", table.code)
            return
        finally:
            table.bot_task = None
        for seat in sorted(table.reclaims):  # people who came back while their bot thought
            with contextlib.suppress(Moved):  # the table is another node's now
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
        outcome = await self.attempt(table, Act(seat, version, action, by_server=True))
        if outcome == "refused" and table.version == version and table.to_move_is_bot():
            log.error("table %s: bot %s chose an illegal action", table.code, info.bot)
            table.bot_choice = None
            await self.attempt(table, PlayDefault(version))

    # --- the turn timer -----------------------------------------------------------

    def _reset_timer(self, table: LiveTable) -> None:
        running = table.timer_task
        if running is not None and running is not asyncio.current_task():
            running.cancel()
        table.timer_task = None
        deadline = table.turn_deadline
        if deadline is None or table.retry_task is not None:
            return
        reminds = table.info.move_days is not None and self.pusher is not None
        # A table that offers "claim the win" does nothing at the deadline: the others
        # claim it (tablestate.ClaimWin), judged by the stored clock, not by a timer.
        if reminds or not table.info.claim_win:
            table.timer_task = asyncio.create_task(
                self._turn_clock(table, table.version, deadline, reminds=reminds)
            )

    async def _turn_clock(
        self, table: LiveTable, version: int, deadline: float, *, reminds: bool
    ) -> None:
        """A game over days' reminder (:meth:`_remind`); then, at the deadline, the
        default action for the seat to move (if nothing moved), unless the table offers
        "claim the win". When storage fails, :meth:`perform` tries again later, and the
        timer with it."""
        if reminds:
            await self._remind(table, version, deadline)
        if table.info.claim_win:
            return
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        if table.version != version or not table.playing:
            return
        seat = table.match.to_move
        log.info("table %s v%d: seat %d ran out of time", table.code, version, seat)
        try:
            await self.attempt(table, PlayDefault(version))
        except Exception:
            log.exception("table %s: the turn timer's action failed", table.code)

    async def _remind(self, table: LiveTable, version: int, deadline: float) -> bool:
        """When a quarter of a turn's days is left (:data:`REMIND_SHARE`): the person to
        move, if away, hears how many hours they have, once a turn on whichever node
        (the database says whether the turn was reminded: a node that takes the table
        over, or a timer reset by a spectator, sends nothing more). Whether it did."""
        length = table.info.turn_length
        assert length is not None and self.pusher is not None
        await asyncio.sleep(max(0.0, deadline - length * REMIND_SHARE - self.clock()))
        now = self.clock()
        if table.version != version or not table.playing or now >= deadline:
            return False
        seat = table.match.to_move
        if table.seat(seat).kind != "person":
            return False
        notice = reminder(table.info, seat, table.connected, deadline - now)
        if not notice.token_hashes:  # the person watches the table live
            return False
        store = self.pusher.store
        try:
            first = await asyncio.to_thread(
                store.first_reminder, table.info.id, table.turn_started, now
            )
        except Exception as error:  # the deadline's action must not wait on a reminder
            self.faults.failed(error, "node")
            return False
        if first:
            log.info("table %s v%d: seat %d reminded of its turn", table.code, version, seat)
            self.pusher.notify(notice)
        return first

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
            watched = [table.info.id for table in self.tables.values() if table.viewers]
            evicted = await asyncio.to_thread(self.store.evict_waiting, self.node.id, watched)
            if evicted is None:
                raise ApiError(
                    503,
                    "busy",
                    "the server has as many tables waiting for players as it takes",
                    retry_after=60,
                )
            table = self.tables.get(evicted)
            if table is not None:
                self._drop(table, close=None)
            log.info("table %s: evicted, the server is full of waiting tables", evicted)
        return creator

    async def sweep(self) -> list[str]:
        """Forget the waiting tables nobody watches here (the database keeps them) and
        give their leases up, then delete the waiting tables that no node holds (nobody
        watches them anywhere) older than ``unjoined_seconds`` that nobody joined, or
        older than ``waiting_seconds``; and the chat of tables finished long ago."""
        idle = [
            table
            for table in self.tables.values()
            if table.info.status == "waiting" and not table.viewers and not table.lock.locked()
        ]
        for table in idle:
            self._drop(table, close=None)
        if self.single_node:  # its lease is renewed only here: what it holds is its own
            await self.renew()
        released = {table.info.id: table.epoch for table in idle if table.epoch is not None}
        if released:
            await asyncio.to_thread(self.leases.release, released)
            self.node_metrics.released += len(released)
        now = self.clock()
        codes = await asyncio.to_thread(
            self.store.expire_waiting, now - self.unjoined_seconds, now - self.waiting_seconds
        )
        for code in codes:
            log.info("table %s: expired, nobody came to play", code)
        await asyncio.to_thread(self.store.forget_chat, now - CHAT_FINISHED_DAYS * 86400)
        return codes
