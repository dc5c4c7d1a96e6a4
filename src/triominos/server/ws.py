"""The WebSocket of one viewer: hello, then actions, hints and pings (PROTOCOL.md).

Each connection reads in one task and writes in another from its
:class:`~triominos.server.room.Viewer` outbox, so a slow client delays only itself.
Every change a message asks for is a command of :mod:`triominos.server.tablestate`,
made by :meth:`Service.perform <triominos.server.service.Service.perform>`.
Its Host and Origin were checked before it opened (:mod:`triominos.server.guard`). A
connection to a table another node holds is relayed to that node
(:mod:`triominos.server.proxy`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from triominos.server.guard import client_key
from triominos.server.limits import RateLimit
from triominos.server.nodes import Node
from triominos.server.protocol import (
    MAX_MESSAGE_BYTES,
    MESSAGES_PER_SECOND,
    TRY_AGAIN_LATER,
    ActionMessage,
    BadMessageError,
    ChatMessage,
    ClientMessage,
    Hello,
    Ping,
    ResignMessage,
    TakebackAnswer,
    TakebackRequest,
    WentOn,
    decode_client_message,
)
from triominos.server.proxy import is_hop, relay
from triominos.server.room import Viewer
from triominos.server.service import Moved, Service
from triominos.server.store import StorageFault
from triominos.server.table import LiveTable
from triominos.server.tablestate import (
    Act,
    AnswerTakeback,
    AskTakeback,
    Command,
    GoOn,
    Refused,
    Resign,
    Say,
)
from triominos.server.views import hints_json

log = logging.getLogger("triominos.server")


async def play(websocket: WebSocket) -> None:
    service: Service = websocket.app.state.service
    address = client_key(websocket.scope)
    if service.connections[address] >= service.connections_per_address:
        await websocket.accept()
        refusal = Refused(
            "too_many_connections",
            f"an address holds at most {service.connections_per_address} connections at once",
        )
        await websocket.send_json(refusal.to_message())
        await websocket.close(code=1008)
        return
    service.connections[address] += 1
    try:
        await serve_viewer(service, websocket, address)
    finally:
        service.connections[address] -= 1
        if not service.connections[address]:
            del service.connections[address]


async def serve_viewer(service: Service, websocket: WebSocket, address: str) -> None:
    try:
        table = await service.locate(websocket.path_params["code"])
    except StorageFault as fault:
        service.faults.failed(fault)
        await websocket.accept()
        await websocket.send_json(
            Refused("unavailable", "storage is unavailable; try again soon").to_message()
        )
        await websocket.close(code=TRY_AGAIN_LATER)
        return
    if isinstance(table, Node):
        # The table moved meanwhile, or its owner was this node's run before a restart
        # (its lease runs out soon): the client asks again.
        if is_hop(websocket.scope) or table.url == service.node.url:
            await websocket.accept()
            await websocket.close(code=TRY_AGAIN_LATER)
            return
        await relay(websocket, table, address, service.node_metrics)
        return
    await websocket.accept()
    if table is None:
        await websocket.send_json(Refused("not_found", "no table has this code").to_message())
        await websocket.close(code=1008)
        return
    viewer = Viewer()
    writer = asyncio.create_task(write(websocket, viewer))
    greeted = False
    limit = RateLimit(MESSAGES_PER_SECOND, 1.0)
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
                greeted = await hello(service, table, viewer, message)
                if not greeted:
                    await writer
                    break
                continue
            await handle(service, table, viewer, message)
    finally:
        if greeted:
            service.farewell(table, viewer)
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


async def hello(service: Service, table: LiveTable, viewer: Viewer, message: Hello) -> bool:
    """Seat the viewer (or make it a spectator) and greet it; False (and the
    connection closing) for a bad token, or while storage cannot show the table."""
    if message.token is not None:
        seat = table.authenticate(message.token)
        if seat is None:
            viewer.send(
                Refused("bad_token", "this token sits at no seat of this table").to_message()
            )
            viewer.close(1008)
            return False
        viewer.seat = seat
    try:
        await service.welcome(table, viewer, message.version, message.token)
    except (Moved, StorageFault):
        viewer.send(Refused("unavailable", "storage is unavailable; try again soon").to_message())
        viewer.close(TRY_AGAIN_LATER)
        return False
    return True


UNSAVED_CHAT = Refused("unavailable", "the message could not be kept")
"""A chat line storage failed to keep, or to check whom it may reach."""


async def handle(
    service: Service,
    table: LiveTable,
    viewer: Viewer,
    message: ClientMessage,
) -> None:
    seat = viewer.seat
    if isinstance(message, Ping):
        viewer.send({"type": "pong"})
    elif isinstance(message, Hello):
        viewer.send(Refused("bad_message", "hello is sent once, first").to_message())
    elif isinstance(message, ChatMessage):
        if seat is None and not viewer.chat_limit.allow():  # a spectator's own budget
            viewer.send(
                Refused("rate_limited", "too many chat messages; wait a moment").to_message()
            )
            return
        try:
            unheard_by = await service.unheard_by(table, seat)
        except StorageFault:
            viewer.send(UNSAVED_CHAT.to_message())
            return
        await change(service, table, viewer, Say(seat, viewer.spectator, message.text, unheard_by))
    elif isinstance(message, ActionMessage):
        command = Act(seat, message.version, message.action, message.id)
        await change(service, table, viewer, command, message.id)
    elif isinstance(message, ResignMessage):
        await change(service, table, viewer, Resign(seat, message.id), message.id)
    elif isinstance(message, TakebackRequest):
        await change(service, table, viewer, AskTakeback(seat, message.id), message.id)
    elif isinstance(message, TakebackAnswer):
        await change(service, table, viewer, AnswerTakeback(seat, message.accept))
    elif isinstance(message, WentOn):
        await change(service, table, viewer, GoOn(seat, message.hand))
    else:
        await send_hints(service, table, viewer, message.id)


async def change(
    service: Service,
    table: LiveTable,
    viewer: Viewer,
    command: Command,
    client_id: str | None = None,
) -> None:
    """Perform the change a viewer's message asks for; a refusal is said to the viewer
    (``unavailable`` while storage fails), with the message's id."""
    try:
        await service.perform(table, command, sender=viewer)
    except Refused as refusal:
        viewer.send(refusal.to_message(client_id))
    except Moved:
        pass  # the viewers are sent on to the table's new owner
    except StorageFault as fault:
        if isinstance(command, Say):
            unsaved = UNSAVED_CHAT
        else:  # never the fault's detail, which may name the database
            unsaved = Refused(
                "unavailable",
                f"the action could not be saved (storage: {fault.kind}); nothing changed",
            )
        viewer.send(unsaved.to_message(client_id))


async def send_hints(service: Service, table: LiveTable, viewer: Viewer, client_id: str) -> None:
    """Hints wait behind every bot's move in the worker (:class:`BotWorker`); they are
    of the position as stored, which is the only one the table state holds."""
    seat = viewer.seat
    if seat is None:
        viewer.send(Refused("spectator", "a spectator gets no hints").to_message(client_id))
        return
    if not table.info.hints:
        refusal = Refused("no_hints", "the table's creator chose to play without hints")
        viewer.send(refusal.to_message(client_id))
        return
    observation = table.match.observe(seat)
    legal = observation.legal_actions() if table.playing else []
    hints = await service.worker.hints(observation, table.code) if legal else []
    found = hints_json(hints, legal, observation.board, observation.rules)
    viewer.send({"type": "hint", "id": client_id, "hints": found})
