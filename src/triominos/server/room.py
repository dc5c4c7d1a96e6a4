"""The viewers of a table and their outboxes: where what a change tells is delivered.

The room knows connections, never the game: what each audience is told comes built
from the table state (:class:`~triominos.server.tablestate.Told`), and the room encodes
it once per audience and queues it in each viewer's outbox, as lila-ws keeps sockets
apart from game state.
"""

from __future__ import annotations

from itertools import count

import msgspec

from triominos.server.limits import RateLimit
from triominos.server.outbox import Outbox
from triominos.server.protocol import CHAT_PER_CONNECTION
from triominos.server.tablestate import Audience, Told
from triominos.server.views import JsonObject


def encode(message: JsonObject) -> str:
    """A message as the JSON text sent on the WebSocket."""
    return msgspec.json.encode(message).decode()


class Viewer:
    """One connection: a seat or a spectator (``seat`` None), with its outbox.

    Messages are queued as JSON text, not sent: a slow connection delays only itself, and
    each connection gets its messages in the order the table made them. Being text, a
    queued message is what the table was when it was made, and one text serves every
    viewer of a seat. A close code in the outbox ends the connection after what was
    queued before it; an outbox that overflows closes it (:mod:`triominos.server.outbox`).
    """

    def __init__(self, seat: int | None = None) -> None:
        self.seat = seat
        self.spectator: int | None = None
        """A spectator's number at this table, by which the spectators' chat tells them
        apart: the lowest that no spectator here holds when it came (so a reload keeps
        it); None for a seat."""
        self.outbox = Outbox()
        self.chat_limit = RateLimit(*CHAT_PER_CONNECTION)
        """A spectator's own chat budget, besides the spectators' chat's (the table's)."""

    def send(self, message: JsonObject) -> None:
        self.outbox.put_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (:func:`encode`)."""
        self.outbox.put_text(text)

    def close(self, code: int = 1000) -> None:
        """Close the connection with this WebSocket close code once the outbox is sent."""
        self.outbox.put_close(code)


class Room:
    """The viewers of one table."""

    def __init__(self) -> None:
        self.viewers: set[Viewer] = set()

    def add(self, viewer: Viewer) -> None:
        """A viewer comes in; a spectator gets its number."""
        if viewer.seat is None and viewer.spectator is None:
            held = {other.spectator for other in self.viewers}
            viewer.spectator = next(number for number in count(1) if number not in held)
        self.viewers.add(viewer)

    def deliver(
        self, told: Told, *, sender: Viewer | None = None, skip: Viewer | None = None
    ) -> None:
        """Queue what each viewer but ``skip`` is told, built and encoded once per
        audience; the ``sender``'s copy gets the fields of ``told.to_sender`` too."""
        if told.build is None:
            return
        built: dict[Audience, tuple[JsonObject, str] | None] = {}
        for viewer in self.viewers:
            if viewer is skip:
                continue
            if viewer.seat not in built:
                message = told.build(viewer.seat)
                built[viewer.seat] = None if message is None else (message, encode(message))
            made = built[viewer.seat]
            if made is None:
                continue
            message, text = made
            if viewer is sender and told.to_sender:
                text = encode({**message, **told.to_sender})
            viewer.send_text(text)

    def send_all(self, message: JsonObject) -> None:
        text = encode(message)
        for viewer in self.viewers:
            viewer.send_text(text)

    def close_all(self, code: int) -> None:
        for viewer in self.viewers:
            viewer.close(code)
