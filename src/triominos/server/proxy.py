"""Any node serves any table: what reaches a node that does not hold the table goes on
to the node that does (its owner, :mod:`triominos.server.nodes`).

A WebSocket is relayed message by message in both directions (the ``websockets``
client), an HTTP request that changes a live table is sent on whole (``httpx``). The
hop carries the owner's own secret (:data:`NODE_HEADER`), which each node reads from the
database, and the client's address (:data:`CLIENT_HEADER`): the owner limits and counts
connections by the player's address, and believes that header only beside its secret
(:meth:`triominos.server.guard.Guard.hop_client`). A hop is never sent on again.

When the owner dies, its relayed connections are closed with 1012 (service restart):
the client reconnects, and by then another node owns the table, or soon does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from triominos.server.metrics import NodeMetrics
from triominos.server.nodes import Node
from triominos.server.protocol import SERVICE_RESTART, TRY_AGAIN_LATER, ApiError

log = logging.getLogger("triominos.server")

NODE_HEADER = "x-triominos-node"
"""The secret of the node a request is proxied to: it proves the request came from a
node of the same database."""
CLIENT_HEADER = "x-triominos-client"
"""The address of the client a proxied request or connection came from."""
HOP = "triominos.hop"
"""The ASGI scope key set on a request that came from another node."""
CONNECT_SECONDS = 3.0
"""How long a node waits for the owner to answer the opening of a hop."""
ANSWER_SECONDS = 5.0
"""How long a node waits for the owner's answer to a request sent on: the owner answers
at once or, when storage fails, in its own lock timeout; an owner that is paused or
dying is not waited for longer (the client asks again, and reaches the next owner)."""
PING_SECONDS = 5.0
"""How often a relayed connection checks that the owner is still there."""
FORWARDED_REQUEST_HEADERS = ("host", "origin", "content-type", "x-forwarded-proto", "cookie")
"""What of a client's request the owner needs: the cookie carries the account's sign-in
(who joins a rated table) and the browser id (the account's traces). No ``set-cookie``
comes back: the node the browser talks to sets its own cookies."""
FORWARDED_RESPONSE_HEADERS = ("content-type", "retry-after")


def is_hop(scope: object) -> bool:
    """Whether a request came from another node (the guard checked its secret)."""
    return isinstance(scope, dict) and bool(scope.get(HOP))


def hop_headers(owner: Node, client: str) -> dict[str, str]:
    return {NODE_HEADER: owner.secret, CLIENT_HEADER: client}


class Unreachable(Exception):
    """The owner did not take the hop: the request never reached it (nothing changed
    there), so it may be sent again."""


class OwnerFailed(ApiError):
    """The owner took the request and failed before it answered (it died, or it is
    paused): the request may or may not have changed something there, so it is not sent
    again; the client looks again (by then another node may hold the table)."""

    def __init__(self) -> None:
        super().__init__(
            503, "unavailable", "the table's node failed to answer; look again", retry_after=1
        )


def http_client() -> httpx.AsyncClient:
    """The client a node sends requests to other nodes with (never through a proxy of
    the environment: nodes talk on their own network)."""
    timeout = httpx.Timeout(ANSWER_SECONDS, connect=CONNECT_SECONDS)
    return httpx.AsyncClient(timeout=timeout, trust_env=False)


async def forward_request(
    client: httpx.AsyncClient, request: Request, owner: Node, address: str
) -> Response:
    """The owner's answer to this request; :class:`Unreachable` when it could not be
    sent (an error after it was sent is an error: it may have changed something)."""
    headers = {
        name: value
        for name in FORWARDED_REQUEST_HEADERS
        if (value := request.headers.get(name)) is not None
    }
    url = owner.url + request.url.path
    if request.url.query:
        url += "?" + request.url.query
    try:
        answer = await client.request(
            request.method,
            url,
            content=await request.body(),
            headers={**headers, **hop_headers(owner, address)},
        )
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as error:
        raise Unreachable(str(error)) from error
    except httpx.TransportError as error:  # sent, then the owner died or hung
        log.info("%s %s: its node %s failed to answer (%s)", request.method, url, owner.id, error)
        raise OwnerFailed() from error
    kept = {
        name: value
        for name in FORWARDED_RESPONSE_HEADERS
        if (value := answer.headers.get(name)) is not None
    }
    return Response(answer.content, status_code=answer.status_code, headers=kept)


async def relay(websocket: WebSocket, owner: Node, address: str, metrics: NodeMetrics) -> None:
    """Relay a WebSocket to the table's owner until either side closes; the owner's
    close code goes to the client (1012 when the owner vanished without one, 1013 when
    it could not be reached at all: the client tries again)."""
    code = websocket.path_params["code"]
    target = owner.url.replace("http", "ws", 1) + f"/ws/{code}"
    try:
        upstream = await connect(
            target,
            additional_headers=hop_headers(owner, address),
            open_timeout=CONNECT_SECONDS,
            ping_interval=PING_SECONDS,
            ping_timeout=PING_SECONDS,
            max_size=None,
            proxy=None,
            compression=None,
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidStatus, InvalidURI) as error:
        metrics.relay_failed(owner, f"a connection to table {code}", error)
        await websocket.accept()
        await websocket.close(TRY_AGAIN_LATER)
        return
    metrics.relayed(owner)
    metrics.proxied_connections += 1
    metrics.proxying += 1
    try:
        await websocket.accept()
        if await _pump(websocket, upstream):
            metrics.relay_failed(owner, f"a connection to table {code}", "closed without a word")
    finally:
        metrics.proxying -= 1
        await upstream.close()


async def _pump(websocket: WebSocket, upstream: ClientConnection) -> bool:
    """Pass the messages both ways until one side closes; whether the owner vanished
    (it closed without a code: it died or its connection dropped)."""

    async def to_owner() -> None:
        with contextlib.suppress(WebSocketDisconnect, ConnectionClosed, RuntimeError, OSError):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                await upstream.send(text if text is not None else message.get("bytes") or b"")

    async def to_client() -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketDisconnect, RuntimeError, OSError):
            async for message in upstream:
                if isinstance(message, str):
                    await websocket.send_text(message)
                else:
                    await websocket.send_bytes(message)

    client_side = asyncio.create_task(to_owner())
    owner_side = asyncio.create_task(to_client())
    done, pending = await asyncio.wait(
        {client_side, owner_side}, return_when=asyncio.FIRST_COMPLETED
    )
    for task in pending:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    if owner_side not in done:
        return False
    close = upstream.close_code  # the owner closed: say how, or that it is gone
    vanished = close in (None, 1005, 1006)  # 1006: it went without a word
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        await websocket.close(SERVICE_RESTART if close is None or vanished else close)
    return vanished
