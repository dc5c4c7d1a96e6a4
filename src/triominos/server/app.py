"""The Starlette application: HTTP for tables, one WebSocket per viewer for play.

:func:`create_app` wires a :class:`Service` (the store, the live tables, the bot
worker, the turn timers) to the routes of PROTOCOL.md. Every action, whoever sends it
(a person, a bot, the turn timer), goes through :meth:`Service.submit`: under the
table's lock it is checked on the live match, written to the database, and only then
sent to every viewer, each its own event and view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from triominos.bots import BOTS
from triominos.game import Action
from triominos.rules import PRESETS, RuleOptionError
from triominos.server.bots import BotWorker, bot_seed, process_pool
from triominos.server.pad_api import pad_routes
from triominos.server.presets import presets_payload
from triominos.server.protocol import (
    MAX_MESSAGE_BYTES,
    MESSAGES_PER_SECOND,
    ActionMessage,
    ApiError,
    BadMessageError,
    CreateTable,
    Decoded,
    GiveSeatToBot,
    Hello,
    HintRequest,
    JoinTable,
    Ping,
    TokenRequest,
    decode,
    decode_client_message,
)
from triominos.server.store import ActionWriter, SeatInfo, Store, TableInfo
from triominos.server.table import LiveTable, Refused, Viewer, token_hash
from triominos.server.timers import default_action
from triominos.server.views import JsonObject, hints_json, table_summary

log = logging.getLogger("triominos.server")

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY_BYTES = 64 * 1024
CODE_PATTERN = re.compile(r"[A-Za-z0-9]{1,12}")
TOKEN_BYTES = 32
IDLE_FINISHED_TABLES = 50


def bad_request(field: str | None, message: str) -> ApiError:
    return ApiError(400, "bad_request", message, field)


def new_token() -> str:
    """A seat token: 32 random bytes, URL-safe; the database keeps only its hash."""
    return secrets.token_urlsafe(TOKEN_BYTES)


# --- the service --------------------------------------------------------------------------


class Service:
    """The live tables of one server, their database, bots and timers."""

    def __init__(self, store: Store, worker: BotWorker, bot_delay: float) -> None:
        self.store = store
        self.writer = ActionWriter(store)
        self.worker = worker
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()

    async def start(self) -> None:
        """Upgrade the schema, then resume every unfinished table: bots, timers."""
        await asyncio.to_thread(self.store.upgrade)
        for code in await asyncio.to_thread(self.store.unfinished_codes):
            table = await self.table(code)
            assert table is not None
        log.info("resumed %d unfinished tables", len(self.tables))

    async def stop(self) -> None:
        for table in self.tables.values():
            for task in (table.bot_task, table.timer_task):
                if task is not None:
                    task.cancel()
            for viewer in table.viewers:
                viewer.close(1001)  # going away
        self.worker.shutdown()
        await asyncio.to_thread(self.store.dispose)

    async def table(self, code: str) -> LiveTable | None:
        """The live table of a code, loaded (replayed) from the database on first use."""
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
        return LiveTable(info, self.store.actions(info.id))

    async def reload(self, table: LiveTable) -> None:
        """Rebuild a table from the database after a failed write, under its lock.

        When even that fails, the table leaves memory and its viewers are let go: they
        reconnect to a table replayed from the database, never to one that differs.
        """
        try:
            info = await asyncio.to_thread(self.store.table, table.code)
            assert info is not None
            actions = await asyncio.to_thread(self.store.actions, info.id)
            table.replay(info, actions)
        except Exception:
            log.exception("table %s: rebuilding from the database failed", table.code)
            if self.tables.get(table.code) is table:
                del self.tables[table.code]
            for viewer in table.viewers:
                viewer.close(1011)  # an internal error: reconnect
            table.viewers.clear()

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
    ) -> bool:
        """Check, store, then broadcast one action; refusals go to the sender only.

        ``by_server``: a bot's move or the turn timer's, which may play any seat.
        Returns whether the action was accepted.
        """
        async with table.lock:
            try:
                checked = table.check(seat, client_id, version, action, by_server=by_server)
                assert seat is not None  # check refuses spectators
                logged, stored = table.apply(seat, checked, client_id, time.time())
            except Refused as refusal:
                if sender is not None:
                    sender.send(refusal.to_message(client_id))
                return False
            finished = table.match.is_over
            try:
                await self.writer.append(table.info.id, stored, finished=finished)
            except Exception:
                log.exception("table %s: storing version %d failed", table.code, stored.version)
                await self.reload(table)
                if sender is not None:
                    sender.send(
                        Refused(
                            "unavailable", "the action could not be saved; nothing changed"
                        ).to_message(client_id)
                    )
                return False
            if finished:
                table.finish(stored.created_at)
            log.info(
                "table %s v%d: seat %d %s",
                table.code,
                stored.version,
                seat,
                stored.action["action"],
            )
            table.broadcast_event(logged, sender, client_id)
        self.changed(table)
        return True

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

    # --- bots ---------------------------------------------------------------------

    def _schedule_bot(self, table: LiveTable) -> None:
        if table.bot_task is None and table.to_move_is_bot():
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
        self._schedule_bot(table)  # the same bot again after a draw, or the next one

    async def _bot_move(self, table: LiveTable) -> None:
        started = time.monotonic()
        version, seat = table.version, table.match.to_move
        info = table.seat(seat)
        assert info.bot is not None
        try:
            action = await self.worker.action(
                table.match.observe(seat),
                info.bot,
                info.think,
                bot_seed(table.info.seed, version, seat),
            )
        except Exception:
            log.exception("table %s: bot %s failed; the default action", table.code, info.bot)
            action = default_action(table.legal_actions())
        await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))
        accepted = await self.submit(table, seat, version, action, by_server=True)
        if not accepted and table.version == version and table.to_move_is_bot():
            log.error("table %s: bot %s chose an illegal action", table.code, info.bot)
            await self.submit(
                table, seat, version, default_action(table.legal_actions()), by_server=True
            )

    # --- the turn timer -----------------------------------------------------------

    def _reset_timer(self, table: LiveTable) -> None:
        running = table.timer_task
        if running is not None and running is not asyncio.current_task():
            running.cancel()
        table.timer_task = None
        deadline = table.turn_deadline
        if deadline is not None:
            table.timer_task = asyncio.create_task(self._timeout(table, table.version, deadline))

    async def _timeout(self, table: LiveTable, version: int, deadline: float) -> None:
        """At the deadline, the default action for the seat to move (if nothing moved)."""
        await asyncio.sleep(max(0.0, deadline - time.time()))
        if table.version != version or not table.playing:
            return
        seat = table.match.to_move
        log.info("table %s v%d: seat %d ran out of time", table.code, version, seat)
        try:
            action = default_action(table.legal_actions())
            await self.submit(table, seat, version, action, by_server=True)
        except Exception:
            log.exception("table %s: the turn timer's action failed", table.code)

    # --- HTTP helpers -------------------------------------------------------------

    async def existing(self, code: str) -> LiveTable:
        table = await self.table(code)
        if table is None:
            raise ApiError(404, "not_found", f"no table has the code {code!r}")
        return table


# --- HTTP handlers ------------------------------------------------------------------------


def service_of(connection: HTTPConnection) -> Service:
    service: Service = connection.app.state.service
    return service


def table_link(connection: HTTPConnection, code: str) -> str:
    return str(connection.base_url).rstrip("/") + f"/t/{code}"


async def request_body(request: Request, kind: type[Decoded]) -> Decoded:
    """The request's JSON body as ``kind``; 400 naming the field, 413 when too large."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise ApiError(413, "too_large", f"a request body is at most {MAX_BODY_BYTES} bytes")
    try:
        return decode(body, kind)
    except BadMessageError as error:
        raise bad_request(error.field, str(error)) from None


async def presets(request: Request) -> JSONResponse:
    """The presets, their options and player counts, and the bots: the home page form."""
    return JSONResponse(
        {
            **presets_payload(),
            "bots": [
                {"name": name, "level": level, "thinks": name == "sim"}
                for level, name in enumerate(BOTS, 1)
            ],
        }
    )


async def create_table(request: Request) -> JSONResponse:
    service = service_of(request)
    body = await request_body(request, CreateTable)
    if body.preset not in PRESETS:
        raise bad_request("preset", f"must be one of {', '.join(map(repr, PRESETS))}")
    rules = PRESETS[body.preset].rules
    try:
        rules = rules.replace(**body.options)
        rules.check_players(body.players)
    except RuleOptionError as error:
        field = "players" if error.option == "players" else f"options.{error.option}"
        raise bad_request(field, str(error)) from None
    except (TypeError, ValueError) as error:
        raise bad_request("options", f"not a set of rule options: {error}") from None
    if len(body.seats) != body.players:
        raise bad_request("seats", f"a table of {body.players} players has {body.players} seats")
    seats: list[SeatInfo] = []
    for number, seat in enumerate(body.seats):
        if seat.kind == "bot":
            if seat.bot not in BOTS:
                raise bad_request(f"seats[{number}].bot", f"must be one of {', '.join(BOTS)}")
            seats.append(SeatInfo(number, "bot", seat.name or seat.bot, seat.bot, seat.think))
        else:
            seats.append(SeatInfo(number, "person", seat.name or f"Player {number + 1}"))
    taken = sorted(set(body.take))
    for number in taken:
        if not 0 <= number < body.players or seats[number].kind != "person":
            raise bad_request("take", f"seat {number} is not a person seat of this table")
    tokens = {number: new_token() for number in taken}
    for number, token in tokens.items():
        seats[number] = SeatInfo(number, "person", seats[number].name, token_hash=token_hash(token))
    info = await asyncio.to_thread(
        lambda: service.store.create_table(
            preset=body.preset,
            rules=rules,
            players=body.players,
            seed=secrets.randbits(63),
            turn_seconds=body.turn_seconds,
            seats=seats,
        )
    )
    await service.table(info.code)  # live from now: bots may start at once
    log.info("table %s created: %s, %d players", info.code, body.preset, body.players)
    return JSONResponse(
        {
            "code": info.code,
            "link": table_link(request, info.code),
            "seats": [{"seat": number, "token": token} for number, token in tokens.items()],
        },
        status_code=201,
    )


async def list_tables(request: Request) -> JSONResponse:
    service = service_of(request)
    open_only = request.query_params.get("open") in ("1", "true")
    infos = await asyncio.to_thread(lambda: service.store.tables(open_only=open_only))
    return JSONResponse({"tables": [await summary(request, info.code) for info in infos]})


async def summary(connection: HTTPConnection, code: str) -> JsonObject:
    service = service_of(connection)
    table = await service.existing(code)
    rematch = await asyncio.to_thread(service.store.rematch_code, table.info.id)
    async with table.lock:  # never an action that is still being written
        return table_summary(
            table.info,
            link=table_link(connection, table.code),
            version=table.version,
            connected=table.connected,
            totals=table.match.totals,
            rematch=rematch,
        )


async def get_table(request: Request) -> JSONResponse:
    return JSONResponse(await summary(request, request.path_params["code"]))


async def join_table(request: Request) -> JSONResponse:
    service = service_of(request)
    table = await service.existing(request.path_params["code"])
    body = await request_body(request, JoinTable)
    if body.seat is not None and not 0 <= body.seat < table.info.players:
        raise bad_request("seat", f"seats are numbered 0 to {table.info.players - 1}")
    if table.match.is_over:
        raise ApiError(409, "over", "the match is over")
    token = new_token()
    async with table.lock:
        taken = await asyncio.to_thread(
            service.store.take_seat, table.info.id, body.seat, body.name, token_hash(token)
        )
        if taken is None:
            which = "every seat is" if body.seat is None else f"seat {body.seat} is"
            raise ApiError(409, "taken", f"{which} taken or played by a bot")
        seat, info = taken
        table.reseat(info)
        table.broadcast_presence()
    service.changed(table)
    log.info("table %s: seat %d taken", table.code, seat)
    return JSONResponse({"seat": seat, "token": token})


def seated(table: LiveTable, token: str) -> int:
    """The seat of a token at this table, or 403 ``bad_token``."""
    seat = table.authenticate(token)
    if seat is None:
        raise ApiError(403, "bad_token", "this token sits at no seat of this table")
    return seat


async def give_seat_to_bot(request: Request) -> JSONResponse:
    service = service_of(request)
    table = await service.existing(request.path_params["code"])
    body = await request_body(request, GiveSeatToBot)
    seated(table, body.token)
    try:
        number = int(request.path_params["seat"])
    except ValueError:
        raise bad_request("seat", "a seat is a number") from None
    if not 0 <= number < table.info.players:
        raise bad_request("seat", f"seats are numbered 0 to {table.info.players - 1}")
    if body.bot not in BOTS:
        raise bad_request("bot", f"must be one of {', '.join(BOTS)}")
    async with table.lock:
        if table.match.is_over:
            raise ApiError(409, "over", "the match is over")
        if table.seat(number).kind == "bot":
            raise ApiError(409, "taken", f"a bot already plays seat {number}")
        if number in table.connected:
            raise ApiError(409, "connected", f"seat {number}'s player is still connected")
        table.reseat(
            await asyncio.to_thread(
                service.store.give_seat_to_bot, table.info.id, number, body.bot, body.think
            )
        )
        table.broadcast_presence()
    service.changed(table)
    log.info("table %s: seat %d given to %s", table.code, number, body.bot)
    return JSONResponse(await summary(request, table.code))


async def rematch(request: Request) -> JSONResponse:
    service = service_of(request)
    table = await service.existing(request.path_params["code"])
    body = await request_body(request, TokenRequest)
    seated(table, body.token)
    async with table.lock:
        if not table.match.is_over:
            raise ApiError(409, "playing", "a rematch follows a finished match")
        existing = await asyncio.to_thread(service.store.rematch_code, table.info.id)
        if existing is not None:
            return JSONResponse({"code": existing, "link": table_link(request, existing)})
        info: TableInfo = table.info
        created = await asyncio.to_thread(
            lambda: service.store.create_table(
                preset=info.preset,
                rules=info.rules,
                players=info.players,
                seed=secrets.randbits(63),
                turn_seconds=info.turn_seconds,
                seats=info.seats,
                rematch_of=info.id,
            )
        )
        link = table_link(request, created.code)
        table.send_all({"type": "rematch", "code": created.code, "link": link})
    await service.table(created.code)
    log.info("table %s: rematch %s", table.code, created.code)
    return JSONResponse({"code": created.code, "link": link}, status_code=201)


async def record(request: Request) -> JSONResponse:
    table = await service_of(request).existing(request.path_params["code"])
    async with table.lock:  # the last action is stored before the record shows it
        if not table.match.is_over:
            raise ApiError(409, "playing", "the record is shown once the match is over")
        document = table.record()
    return JSONResponse(document)


# --- pages --------------------------------------------------------------------------------


def page(relative: str) -> Any:
    async def serve(request: Request) -> Response:
        path = STATIC / relative
        if not path.is_file():
            raise ApiError(404, "not_found", f"the page {relative} is not installed")
        return FileResponse(path)

    return serve


# --- the WebSocket ------------------------------------------------------------------------


def origin_allowed(websocket: WebSocket) -> bool:
    """A browser's Origin must be this server's own host; no Origin: not a browser."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == websocket.headers.get("host", "").lower()


class RateLimit:
    """At most ``per_second`` messages in any second."""

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self.times: deque[float] = deque(maxlen=per_second)

    def allow(self) -> bool:
        moment = time.monotonic()
        if len(self.times) == self.per_second and moment - self.times[0] < 1.0:
            return False
        self.times.append(moment)
        return True


async def play(websocket: WebSocket) -> None:
    service = service_of(websocket)
    if not origin_allowed(websocket):
        log.warning("refused a WebSocket from origin %r", websocket.headers.get("origin"))
        await websocket.close(code=1008)
        return
    await websocket.accept()
    table = await service.table(websocket.path_params["code"])
    if table is None:
        await websocket.send_json(Refused("not_found", "no table has this code").to_message())
        await websocket.close(code=1008)
        return
    viewer = Viewer()
    writer = asyncio.create_task(write(websocket, viewer))
    greeted = False
    limit = RateLimit(MESSAGES_PER_SECOND)
    try:
        while True:
            text = await receive_text(websocket)
            if text is None:
                break
            if len(text.encode()) > MAX_MESSAGE_BYTES:
                viewer.send(
                    Refused(
                        "too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes"
                    ).to_message()
                )
                viewer.close(1009)
                await writer
                break
            if not limit.allow():
                viewer.send(
                    Refused(
                        "rate_limited", f"at most {MESSAGES_PER_SECOND} messages a second"
                    ).to_message()
                )
                continue
            try:
                message = decode_client_message(text)
            except BadMessageError as error:
                viewer.send(Refused("bad_message", str(error), field=error.field).to_message())
                continue
            if not greeted:
                if not isinstance(message, Hello):
                    viewer.send(Refused("bad_message", "the first message is a hello").to_message())
                    continue
                greeted = await hello(table, viewer, message)
                if not greeted:
                    viewer.close(1008)
                    await writer
                    break
                continue
            await handle(service, table, viewer, message)
    finally:
        if greeted:
            async with table.lock:
                table.viewers.discard(viewer)
                if viewer.seat is not None and viewer.seat not in table.connected:
                    table.broadcast_presence()
            service.forget_idle_tables()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


async def receive_text(websocket: WebSocket) -> str | None:
    """The next message's text (bytes read as UTF-8), or None once the client left."""
    try:
        message = await websocket.receive()
    except WebSocketDisconnect:
        return None
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        text: str = message["text"]
        return text
    data: bytes = message.get("bytes") or b""
    return data.decode("utf-8", errors="replace")


async def write(websocket: WebSocket, viewer: Viewer) -> None:
    """Send the viewer's outbox in order until a close code comes or the client is gone."""
    while True:
        message = await viewer.outbox.get()
        try:
            if isinstance(message, int):
                await websocket.close(code=message)
                return
            await websocket.send_text(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return


async def hello(table: LiveTable, viewer: Viewer, message: Hello) -> bool:
    """Seat the viewer (or make it a spectator) and greet it; False for a bad token."""
    if message.token is not None:
        seat = table.authenticate(message.token)
        if seat is None:
            viewer.send(
                Refused("bad_token", "this token sits at no seat of this table").to_message()
            )
            return False
        viewer.seat = seat
    async with table.lock:
        arrived = viewer.seat is not None and viewer.seat not in table.connected
        table.viewers.add(viewer)
        viewer.send(table.greeting(viewer.seat, message.version))
        if arrived:
            table.broadcast_presence(skip=viewer)
    return True


async def handle(
    service: Service,
    table: LiveTable,
    viewer: Viewer,
    message: ActionMessage | HintRequest | Ping | Hello,
) -> None:
    if isinstance(message, Ping):
        viewer.send({"type": "pong"})
    elif isinstance(message, Hello):
        viewer.send(Refused("bad_message", "hello is sent once, first").to_message())
    elif isinstance(message, ActionMessage):
        await service.submit(
            table,
            viewer.seat,
            message.version,
            message.action,
            client_id=message.id,
            sender=viewer,
        )
    else:
        await send_hints(service, table, viewer, message.id)


async def send_hints(service: Service, table: LiveTable, viewer: Viewer, client_id: str) -> None:
    seat = viewer.seat
    if seat is None:
        viewer.send(Refused("spectator", "a spectator gets no hints").to_message(client_id))
        return
    observation = table.match.observe(seat)
    legal = observation.legal_actions() if table.playing else []
    board_placements = observation.board
    hints = await service.worker.hints(observation) if legal else []
    viewer.send(
        {"type": "hint", "id": client_id, "hints": hints_json(hints, legal, board_placements)}
    )


# --- the application ----------------------------------------------------------------------


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return error.response()


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = "not_found" if error.status_code == 404 else "http_error"
    return ApiError(error.status_code, code, str(error.detail)).response()


async def server_error(request: Request, error: Exception) -> Response:
    return ApiError(500, "internal", "the server failed; the error is logged").response()


def create_app(
    database_url: str,
    *,
    bot_executor: Executor | None = None,
    bot_delay: float | None = None,
) -> Starlette:
    """The service as an ASGI app on ``database_url``.

    ``bot_executor``: where bots think (default: a process pool); ``bot_delay``: the
    least time a bot move takes, so people see it (default: env
    ``TRIOMINOS_BOT_DELAY``, else 0.4 s).
    """
    store = Store(database_url)
    if bot_delay is None:
        bot_delay = float(os.environ.get("TRIOMINOS_BOT_DELAY", "0.4"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if bot_executor is None:
            worker = BotWorker(process_pool(), replace=process_pool)
        else:
            worker = BotWorker(bot_executor)
        service = Service(store, worker, bot_delay)
        app.state.service = service
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    routes: list[BaseRoute] = [
        Route("/api/presets", presets),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables),
        Route("/api/tables/{code}", get_table),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/tables/{code}/seats/{seat}/bot", give_seat_to_bot, methods=["POST"]),
        Route("/api/tables/{code}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{code}/record", record),
        WebSocketRoute("/ws/{code}", play),
        *pad_routes(store),
        Route("/", page("index.html")),
        Route("/t/{code}", page("index.html")),
        Route("/pad", page("pad/index.html")),
        Route("/pad/{id}", page("pad/index.html")),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
    app.state.store = store
    return app
