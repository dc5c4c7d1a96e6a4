"""The WebSocket of one viewer: hello, then actions, hints and pings (PROTOCOL.md).

Each connection reads in one task and writes in another from its
:class:`~triominos.server.table.Viewer` outbox, so a slow client delays only itself.
Its Host and Origin were checked before it opened (:mod:`triominos.server.guard`). A
connection to a table another node holds is relayed to that node
(:mod:`triominos.server.proxy`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from triominos.game import Resign
from triominos.server.guard import client_key
from triominos.server.nodes import Node
from triominos.server.protocol import (
    CHAT_KEPT,
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
from triominos.server.service import Moved, Service
from triominos.server.store import StorageFault, chat_channel
from triominos.server.table import LiveTable, RateLimit, Refused, Viewer, encode, token_hash
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
            async with table.lock:
                if table.leave(viewer, service.clock()):
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


async def hello(service: Service, table: LiveTable, viewer: Viewer, message: Hello) -> bool:
    """Seat the viewer (or make it a spectator) and greet it; False (and the
    connection closing) for a bad token, or while storage cannot show the table.

    A person whose seat a bot plays takes it back by coming back (RULES.md §15).
    """
    if message.token is not None:
        seat = table.authenticate(message.token)
        if seat is None:
            viewer.send(
                Refused("bad_token", "this token sits at no seat of this table").to_message()
            )
            viewer.close(1008)
            return False
        viewer.seat = seat

    async def greet() -> None:
        if viewer.seat is not None and message.token is not None:
            await service.reclaim(table, viewer.seat, token_hash(message.token))
        arrived = table.arrive(viewer)
        greeting = table.greeting(viewer.seat, message.version)
        # The greeting brings the viewer's chat as kept: its last messages (none while
        # storage cannot show them: the game comes first).
        try:
            greeting["chat"] = await asyncio.to_thread(
                service.store.chats, table.info.id, chat_channel(viewer.seat), CHAT_KEPT
            )
        except StorageFault as fault:
            service.faults.failed(fault)
            greeting["chat"] = []
        viewer.send(greeting)
        if arrived:
            table.broadcast_presence(skip=viewer)

    try:
        # Then a reclaimed seat's turn, or a suspended table of bots woken by its viewer.
        await service.perform(table, greet)
    except (Moved, StorageFault):
        viewer.send(Refused("unavailable", "storage is unavailable; try again soon").to_message())
        viewer.close(TRY_AGAIN_LATER)
        return False
    return True


async def handle(
    service: Service,
    table: LiveTable,
    viewer: Viewer,
    message: ClientMessage,
) -> None:
    if isinstance(message, Ping):
        viewer.send({"type": "pong"})
    elif isinstance(message, Hello):
        viewer.send(Refused("bad_message", "hello is sent once, first").to_message())
    elif isinstance(message, ChatMessage):
        await chat(service, table, viewer, message.text)
    elif isinstance(message, ActionMessage):
        await service.submit(
            table,
            viewer.seat,
            message.version,
            message.action,
            client_id=message.id,
            sender=viewer,
        )
    elif isinstance(message, ResignMessage):
        await resign(service, table, viewer, message.id)
    elif isinstance(message, TakebackRequest):
        await service.ask_take_back(table, viewer.seat, message.id, viewer)
    elif isinstance(message, TakebackAnswer):
        await service.answer_take_back(table, viewer.seat, message.accept, viewer)
    elif isinstance(message, WentOn):
        await went_on(service, table, viewer, message.hand)
    else:
        await send_hints(service, table, viewer, message.id)


async def resign(service: Service, table: LiveTable, viewer: Viewer, client_id: str) -> None:
    """The seat gives up the match, at whatever version it is (RULES.md §16); among three
    or more players it asks the others first, and the match ends once every person has
    asked (the first one resigning): until then everyone is told who asked."""
    if viewer.seat is None:
        refusal = Refused("spectator", "a spectator watches; only a seated player resigns")
        viewer.send(refusal.to_message(client_id))
        return
    seat = viewer.seat

    async def ask() -> int | None:
        if table.match.is_over or table.info.status != "playing":
            return seat  # refused by the check, saying why
        resigner, asked = table.ask_to_end(seat)
        if resigner is None:  # kept, so that a restart or another node keeps it too
            info = await asyncio.to_thread(
                lambda: service.store.ask_to_end(table.info.id, asked, epoch=table.epoch)
            )
            table.info = info
            table.broadcast(
                lambda seat: {"type": "ending", "seats": table.ending, "view": table.view(seat)}
            )
        return resigner

    resigner = await service.answer(table, ask, viewer, client_id)
    if resigner is not None:
        await service.submit(
            table, resigner, table.version, Resign(resigner), client_id=client_id, sender=viewer
        )


async def went_on(service: Service, table: LiveTable, viewer: Viewer, hand: int) -> None:
    """The viewer's person closed a hand's end: their first turn's clock may start now;
    everyone sees the new deadline. Nothing to answer: a spectator's or a late word
    changes nothing."""
    if viewer.seat is None:
        return
    seat = viewer.seat

    async def go_on() -> None:
        if table.went_on(seat, hand, service.clock()):
            table.broadcast_presence()  # the new deadline; perform moves the timer to it

    await service.answer(table, go_on, viewer)


async def chat(service: Service, table: LiveTable, viewer: Viewer, text: str) -> None:
    """Keep a chat message with the table, then give it to the viewers of its chat: the
    players' (sent from a seat) or the spectators' (sent by a spectator); neither sees
    the other's. The text is the sender's words only, so it holds nothing hidden."""
    if not table.chat.allow(viewer):
        viewer.send(Refused("rate_limited", "too many chat messages; wait a moment").to_message())
        return
    channel = chat_channel(viewer.seat)
    name = str(viewer.spectator) if viewer.seat is None else table.seat(viewer.seat).name

    async def say() -> None:
        said = await asyncio.to_thread(
            lambda: service.store.add_chat(
                table.info.id, channel, viewer.seat, name, text.strip(), epoch=table.epoch
            )
        )
        message = encode({"type": "chat", "messages": [said]})
        for other in table.viewers:
            if chat_channel(other.seat) == channel:
                other.send_text(message)

    try:
        await service.perform(table, say)
    except StorageFault as fault:
        service.faults.failed(fault)
        viewer.send(Refused("unavailable", "the message could not be kept").to_message())
    except Moved:
        pass  # the viewers are sent on to the table's new owner


async def send_hints(service: Service, table: LiveTable, viewer: Viewer, client_id: str) -> None:
    """Hints wait behind every bot's move in the worker (:class:`BotWorker`)."""
    seat = viewer.seat
    if seat is None:
        viewer.send(Refused("spectator", "a spectator gets no hints").to_message(client_id))
        return
    if not table.info.hints:
        refusal = Refused("no_hints", "the table's creator chose to play without hints")
        viewer.send(refusal.to_message(client_id))
        return
    async with table.lock:  # the position as stored, never one still being written
        observation = table.match.observe(seat)
        legal = observation.legal_actions() if table.playing else []
    hints = await service.worker.hints(observation, table.code) if legal else []
    found = hints_json(hints, legal, observation.board, observation.rules)
    viewer.send({"type": "hint", "id": client_id, "hints": found})
