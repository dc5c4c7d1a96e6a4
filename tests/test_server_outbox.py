"""A viewer that reads slower than its table plays (issue 37): its outbox is bounded,
and when it overflows the connection closes with a code that says so."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette")

from server_games import WAIT_SECONDS, Served
from triominos.server import outbox
from triominos.server.outbox import FELL_BEHIND, OUTBOX_MESSAGES, Outbox


def test_an_outbox_gives_its_messages_in_order_then_its_close_code() -> None:
    async def drain() -> list[str | int]:
        box = Outbox(limit_bytes=100)
        box.put_text("one")
        box.put_text("two")
        box.put_close(1000)
        box.put_text("after the close")  # dropped: the connection ends
        return [await box.get() for _ in range(len(box))]

    assert asyncio.run(drain()) == ["one", "two", 1000]


def test_an_outbox_that_overflows_drops_its_backlog_and_closes() -> None:
    async def overflow() -> tuple[list[str | int], int]:
        box = Outbox(limit_bytes=10)
        box.put_text("12345")
        box.put_text("é" * 3)  # 6 bytes: 11 in all
        size = box.size
        return [await box.get() for _ in range(len(box))], size

    assert asyncio.run(overflow()) == ([FELL_BEHIND], 0)


def test_an_outbox_holds_a_bounded_number_of_tiny_messages() -> None:
    box = Outbox()
    for _ in range(OUTBOX_MESSAGES + 5):
        box.put_text("{}")
    assert len(box) == 1 and box.closing


class RawSpectator:
    """A WebSocket client on a bare socket with a tiny receive buffer, which reads only
    when told to: nothing buffers the server's messages behind the test's back."""

    def __init__(self, ws_url: str, code: str) -> None:
        address = urlsplit(ws_url)
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.socket.settimeout(WAIT_SECONDS)
        self.socket.connect((address.hostname, address.port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(
            f"GET /ws/{code} HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.socket.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, message: dict[str, object]) -> None:
        payload = json.dumps(message).encode()
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.socket.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            received = self.socket.recv(65536)
            assert received, "the server closed the socket without a close frame"
            self.buffer += received
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def close_code(self) -> int:
        """Read frames until the close frame; its code."""
        while True:
            opcode, length = self.read(2)
            length &= 0x7F
            if length >= 126:
                length = int.from_bytes(self.read(2 if length == 126 else 8), "big")
            payload = self.read(length)
            if opcode & 0x0F == 0x8:
                return int.from_bytes(payload[:2], "big")


def test_a_spectator_that_stops_reading_is_closed_as_fallen_behind(
    served_sqlite: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10 spectators that read slowly grew the server by 0.81 MB a second: now a
    spectator's outbox holds at most its bound, then the connection closes with 4000."""
    monkeypatch.setattr(outbox, "OUTBOX_BYTES", 100_000)
    code = served_sqlite.create(
        players=4,
        seats=[{"kind": "bot", "bot": "greedy"}] * 4,
        options={"target_score": 1000},
    )["code"]
    spectator = RawSpectator(served_sqlite.ws_url, code)
    spectator.send({"type": "hello"})
    table = served_sqlite.service.tables[code]
    deadline = time.monotonic() + 6 * WAIT_SECONDS
    while not table.viewers:
        assert time.monotonic() < deadline, "the spectator was never greeted"
        time.sleep(0.01)
    while table.viewers and not any(viewer.outbox.closing for viewer in table.viewers):
        assert all(viewer.outbox.size <= 100_000 for viewer in table.viewers)
        assert table.playing and time.monotonic() < deadline, "it never fell behind"
        time.sleep(0.01)
    assert spectator.close_code() == FELL_BEHIND
