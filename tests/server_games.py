"""The game service for the server tests: a real uvicorn in a thread, and a WebSocket
client that keeps every message it received (the secrecy test reads them all)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from triominos.server.app import create_app
from triominos.server.protocol import MAX_MESSAGE_BYTES, MESSAGES_PER_SECOND
from triominos.server.service import Service

Message = dict[str, Any]
Result = TypeVar("Result")
WAIT_SECONDS = 20.0
BURST = MESSAGES_PER_SECOND - 2
"""A test client sends at most this many messages in any 1.05 s: under the server's rate
limit (a person never comes near it)."""


@dataclass
class Served:
    """A running service: its URLs and an HTTP client on it."""

    base_url: str
    ws_url: str
    http: httpx.Client
    app: Any = None

    @property
    def service(self) -> Service:
        """The running service (a test moves its clock to see limits that need time)."""
        service: Service = self.app.state.service
        return service

    def run(self, coroutine: Coroutine[Any, Any, Result]) -> Result:
        """Run a coroutine on the service's event loop (in the server's thread)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.service.loop).result(WAIT_SECONDS)

    def later(self, seconds: float) -> None:
        """Move the service's clock ``seconds`` ahead."""
        ahead = self.service.clock() + seconds - time.time()
        self.service.clock = lambda: time.time() + ahead

    def create(self, expect: int = 201, **body: Any) -> Message:
        """POST /api/tables with a two-seat classic table (a person, greedy) by default."""
        body.setdefault("preset", "classic")
        body.setdefault("players", 2)
        body.setdefault(
            "seats", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
        )
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == expect, response.text
        answer: Message = response.json()
        return answer

    def join(self, code: str, name: str = "Bob", seat: int | None = None) -> str:
        body: Message = {"name": name} if seat is None else {"name": name, "seat": seat}
        response = self.http.post(f"/api/tables/{code}/join", json=body)
        assert response.status_code == 200, response.text
        token: str = response.json()["token"]
        return token

    def viewer(self, code: str, token: str | None = None, version: int | None = None) -> Viewer:
        """A connection that said hello; its greeting is ``viewer.greeting``."""
        viewer = Viewer(connect(f"{self.ws_url}/ws/{code}", max_size=2**24, legacy=True))
        viewer.send({"type": "hello", "token": token, "version": version})
        viewer.greeting = viewer.receive()
        return viewer


@contextmanager
def serve_app(database_url: str, **options: Any) -> Iterator[Served]:
    """The app on uvicorn in a thread, bots in threads and without delay by default."""
    executor = ThreadPoolExecutor(2)
    options.setdefault("bot_executor", executor)
    options.setdefault("bot_delay", 0.0)
    app = create_app(database_url, **options)
    # uvicorn's own frame limit is set above the protocol's, so that the app's check of a
    # message's size is what answers (the live server test covers uvicorn's).
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        proxy_headers=False,  # as triominos serve: the guard reads X-Forwarded-For
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=WAIT_SECONDS) as http:
        try:
            yield Served(base, f"ws://127.0.0.1:{port}", http, app)
        finally:
            server.should_exit = True
            thread.join(WAIT_SECONDS)
            executor.shutdown(wait=True, cancel_futures=True)


class Viewer:
    """A WebSocket client that keeps what it received, in order."""

    greeting: Message

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.received: list[Message] = []
        self._sent: deque[float] = deque(maxlen=BURST)

    def __enter__(self) -> Viewer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    def send(self, message: Message) -> None:
        if len(self._sent) == BURST:
            time.sleep(max(0.0, self._sent[0] + 1.05 - time.monotonic()))
        self._sent.append(time.monotonic())
        self.connection.send(json.dumps(message))

    def receive(self, timeout: float = WAIT_SECONDS) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until(self, done: Callable[[Message], bool], timeout: float = WAIT_SECONDS) -> Message:
        """Receive until a message ``done`` accepts; return it."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if done(message):
                return message

    def answer(self, client_id: str) -> Message:
        """The event or error that answers this connection's message ``client_id``."""
        return self.until(lambda message: message.get("id") == client_id)

    def error(self) -> Message:
        return self.until(lambda message: message["type"] == "error")

    @property
    def view(self) -> Message:
        """The latest view received."""
        for message in reversed([self.greeting, *self.received]):
            if "view" in message:
                view: Message = message["view"]
                return view
        raise AssertionError("no view received")

    def act(self, action: Message, client_id: str, version: int | None = None) -> None:
        view = self.view
        self.send(
            {
                "type": "action",
                "id": client_id,
                "version": view["version"] if version is None else version,
                "action": action,
            }
        )

    def play_first_legal(self, client_id: str) -> Message:
        """Play the first legal action; the event that answers it."""
        self.act(self.view["legal"][0]["action"], client_id)
        return self.answer(client_id)


def summary_of(http: httpx.Client, code: str) -> Message:
    """``GET /api/tables/CODE``, waiting as told when the look-up limit answers 429: a
    test that polls a table is a client like any other (PROTOCOL.md, Limits)."""
    while True:
        response = http.get(f"/api/tables/{code}")
        if response.status_code != 429:
            assert response.status_code == 200, response.text
            summary: Message = response.json()
            return summary
        time.sleep(float(response.headers["Retry-After"]))


def my_turn(message: Message) -> bool:
    view = message.get("view")
    return bool(view and view["legal"])


def match_over(message: Message) -> bool:
    view = message.get("view")
    return bool(view and view["match_over"])
