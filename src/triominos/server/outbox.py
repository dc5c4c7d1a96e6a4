"""A connection's outbox: the messages queued for one viewer, bounded.

Messages are queued, not sent, so that a slow connection delays only itself; but a
reader that never reads (or reads slower than its table plays) made its queue grow
without end (10 slow spectators: +0.81 MB/s). An outbox holds at most
:data:`OUTBOX_BYTES` of text and :data:`OUTBOX_MESSAGES` messages; one more, and what is
queued is dropped and the connection closed with :data:`FELL_BEHIND`. The client then
reconnects as after any close, and its ``hello`` brings what it missed or a fresh view
(PROTOCOL.md, "Reconnecting"), which is smaller than the backlog it could not read.
"""

from __future__ import annotations

import asyncio
from collections import deque

OUTBOX_BYTES = 1024 * 1024
OUTBOX_MESSAGES = 1000
"""The most an outbox holds: text (UTF-8 bytes), and messages (a flood of tiny ones)."""
FELL_BEHIND = 4000
"""The close code of a viewer whose outbox overflowed: reconnect for a fresh view."""


class Outbox:
    """Text messages and, last, a close code, taken in order by the connection's writer.

    Once a close code is in, anything put after it is dropped: the connection ends.
    ``limit_bytes``: None for :data:`OUTBOX_BYTES` as it is when the outbox is made.
    """

    def __init__(self, limit_bytes: int | None = None) -> None:
        self.limit_bytes = OUTBOX_BYTES if limit_bytes is None else limit_bytes
        self._items: deque[str | int] = deque()
        self.size = 0
        """The UTF-8 bytes of the text queued."""
        self._ready = asyncio.Event()
        self.closing = False

    def put_text(self, text: str) -> None:
        if self.closing:
            return
        size = len(text.encode())
        if self.size + size > self.limit_bytes or len(self._items) >= OUTBOX_MESSAGES:
            self._items.clear()
            self.size = 0
            self.put_close(FELL_BEHIND)
            return
        self._items.append(text)
        self.size += size
        self._ready.set()

    def put_close(self, code: int) -> None:
        """End the connection with ``code`` after what is queued."""
        if self.closing:
            return
        self.closing = True
        self._items.append(code)
        self._ready.set()

    async def get(self) -> str | int:
        """The next message, or the close code, waiting until there is one."""
        while not self._items:
            self._ready.clear()
            await self._ready.wait()
        item = self._items.popleft()
        if isinstance(item, str):
            self.size -= len(item.encode())
        return item

    def __len__(self) -> int:
        return len(self._items)
