"""A bare WebSocket echo server: the floor the load script compares the game server with.

Same stack as ``triominos serve`` (Starlette on uvicorn, one process, no compression), no
game: every text message on ``/ws`` is sent straight back. ``GET /`` answers 200 once up.

    python benchmarks/echo_server.py --port 8001
"""

from __future__ import annotations

import argparse

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        return


async def ready(request: Request) -> PlainTextResponse:
    return PlainTextResponse("echo")


app = Starlette(routes=[Route("/", ready), WebSocketRoute("/ws", echo)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    arguments = parser.parse_args()
    uvicorn.run(
        app,
        host=arguments.host,
        port=arguments.port,
        ws_per_message_deflate=False,  # as triominos serve
        log_level="warning",
    )


if __name__ == "__main__":
    main()
