"""A live table: its state (:mod:`~triominos.server.tablestate`), its room of viewers
(:mod:`~triominos.server.room`) and what this node runs for it (its lock, its bot, its
turn timer, its retry after a storage fault, the claim it holds it under).

A table is changed only under its ``lock``, by
:meth:`~triominos.server.service.Service.perform`: deciding, storing and telling is one
step for everyone else. Its state is always what is stored (a decision settles only once
written), so a viewer may be greeted from it without waiting for the lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from triominos.game import Action
from triominos.server.protocol import BOT_TABLE_IDLE_SECONDS
from triominos.server.room import Room, Viewer
from triominos.server.store import StoredAction, TableInfo
from triominos.server.tablestate import Command, Decision, Reclaim, TableState, Told
from triominos.server.tablestate import token_hash as token_hash


class LiveTable(TableState):
    """A table held live by this node, rebuilt from the database at ``now``."""

    def __init__(self, info: TableInfo, actions: Sequence[StoredAction], now: float) -> None:
        super().__init__(info, actions, now)
        self.room = Room()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.retry_task: asyncio.Task[None] | None = None
        self.retry_delay = 0.0
        """Seconds before storage is tried again after a fault (0: no fault now)."""
        self.stale = False
        """A write failed, and may have been made after all: the table is read back from
        the database before anything else is shown or accepted."""
        self.reclaims: set[int] = set()
        """Seats whose person came back while their bot thought: theirs at its move."""
        self.bot_choice: tuple[int, Action] | None = None
        """The bot's action for a version, kept when storing it failed: the retry plays
        it without thinking again."""
        self.epoch: int | None = None
        """The claim this node holds the table under (:mod:`triominos.server.nodes`);
        None for a copy read from the database that no node claimed."""
        self.gone = False
        """This node gave the table up (another one owns it now): nothing is accepted."""
        self.unwatched_since = now
        """When its last viewer left (or it was loaded): a table of bots only that
        nobody watches for long is suspended (:meth:`suspended`)."""

    @property
    def viewers(self) -> set[Viewer]:
        return self.room.viewers

    def enter(self, viewer: Viewer) -> bool:
        """A viewer comes in; whether its seat's person was away until now."""
        self.room.add(viewer)
        return self.arrive(viewer.seat)

    def depart(self, viewer: Viewer, now: float) -> bool:
        """A viewer left at ``now``; whether its seat's person is away from now on."""
        self.room.viewers.discard(viewer)
        if not self.room.viewers:
            self.unwatched_since = now
        return self.leave(viewer.seat, now)

    def decide(self, command: Command, now: float) -> Decision:
        """:meth:`TableState.decide`, and a seat whose bot thinks about its move now is
        given back to its person only at that move (:meth:`Service.reclaim`)."""
        if isinstance(command, Reclaim):
            seat = command.seat
            if self.bot_task is not None and self.match.to_move == seat:
                return Decision(None, lambda _: self._reclaim_later(seat))
            decision = super().decide(command, now)

            def settle(answer: object) -> Told:
                self.reclaims.discard(seat)
                return decision.settle(answer)

            return Decision(decision.write, settle)
        return super().decide(command, now)

    def _reclaim_later(self, seat: int) -> Told:
        self.reclaims.add(seat)
        return Told()

    def suspended(self, now: float) -> bool:
        """Whether this is a table of bots only that nobody has watched for
        BOT_TABLE_IDLE_SECONDS: its bots wait for a viewer (they would play on for
        nobody, at the server's cost)."""
        return (
            not self.viewers
            and all(seat.kind == "bot" for seat in self.info.seats)
            and now - self.unwatched_since >= BOT_TABLE_IDLE_SECONDS
        )
