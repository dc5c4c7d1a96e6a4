"""Nodes and leases: several ``triominos serve`` processes on one database, each table
live on exactly one of them.

Every process is a node: a random id, the URL the other nodes reach it at, and a secret
that proves a request proxied to it came from a node (:mod:`triominos.server.proxy`).
A table that is live in memory is owned by one node (``tables.owner``) under the claim
numbered ``tables.epoch``, for as long as that node's lease holds (``nodes.lease_until``,
on the database's clock, which times the turns too). A node claims a table with one
conditional UPDATE (nobody's, or its owner's lease ran out) that raises the epoch, and
every write of the table's actions and seats is fenced by that epoch in its own
transaction (:func:`triominos.server.store.fence`): once another node has claimed the
table, the old owner's writes fail, whatever the clocks and pauses.

One lease a node, not one a table: renewing it is one UPDATE of the node's own row
every :data:`RENEW_SECONDS`, which never waits for a table's row (a write in progress
locks its table's row until its commit).

SQLite is the one-node database: the node there takes over every table at its start
(a node before it on the same file is a previous run).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import aliased
from sqlalchemy.sql.expression import ColumnElement

from triominos.server.store import DatabaseNow, NodeRow, Store, TableRow, leased, unowned

LEASE_SECONDS = 2.0
"""How long a node's lease holds without renewal: a dead node's tables wait this long,
then an orphan scan, then a replay (benchmarks/failover.py: 3 s at most in all)."""
RENEW_SECONDS = 0.4
"""How often a node renews its lease: five times a lease, so that a node whose event
loop or database stalls for a second keeps its tables."""
SCAN_SECONDS = 0.4
"""How often a node looks for tables being played whose owner is gone."""
OFFSET_TOLERANCE = 1.0
"""A node's clock is corrected to the database's once they differ by more than this:
within it, a measurement's own jitter (the round trip) would make the node's clock step
back and forth by milliseconds, and a turn's or a grace period's seconds with it."""
FORGET_NODE_SECONDS = 3600.0
"""A node whose lease ran out this long ago is forgotten (its row)."""


@dataclass(frozen=True)
class Node:
    """One ``triominos serve`` process: where the other nodes reach it, and the secret
    they prove a proxied request with (each node reads it from the database)."""

    id: str
    url: str
    secret: str = field(repr=False)

    @classmethod
    def new(cls, url: str) -> Node:
        return cls(secrets.token_hex(8), url.rstrip("/"), secrets.token_urlsafe(32))


class Claim(NamedTuple):
    """A table this node has just claimed, under ``epoch``; ``lease_ended``: when the
    lease of the node that owned it ran out (the database's clock), None when nobody
    owned it (its owner left or gave it up)."""

    table_id: int
    code: str
    epoch: int
    lease_ended: float | None = None


class Leases:
    """A node's lease and its claims on tables, in the store's database; every method
    is one short transaction, called from a worker thread like the store's."""

    def __init__(
        self,
        store: Store,
        node: Node,
        lease_seconds: float = LEASE_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.node = node
        self.lease_seconds = lease_seconds
        self.clock = clock
        self.offset = 0.0
        """The database's clock less this machine's (``clock``), as the last renewal
        measured it: a node times turns by the database's clock, so that a node whose
        own clock is off by a minute still gives every turn its time."""

    def database_now(self) -> float:
        """The database's clock now, as this machine's clock and the offset tell it."""
        return self.clock() + self.offset

    def _until(self) -> ColumnElement[float]:
        return DatabaseNow() + self.lease_seconds

    def heartbeat(self) -> dict[int, int]:
        """Renew this node's lease (registering the node when it is not, or no longer,
        in the database). Returns the tables it owns now and their epochs: a table it
        thought it owned and that is not there, or under another epoch, is another
        node's now."""
        node = self.node
        with self.store.session() as session:
            asked = self.clock()
            database = session.scalar(select(DatabaseNow()))
            assert database is not None
            offset = database - (asked + self.clock()) / 2
            if abs(offset - self.offset) > OFFSET_TOLERANCE:
                self.offset = offset
            renewed = session.execute(
                update(NodeRow).where(NodeRow.id == node.id).values(lease_until=self._until())
            )
            if renewed.rowcount != 1:  # type: ignore[attr-defined]
                session.add(NodeRow(id=node.id, url=node.url, secret=node.secret, lease_until=0))
                session.flush()
                session.execute(
                    update(NodeRow).where(NodeRow.id == node.id).values(lease_until=self._until())
                )
            held = session.execute(
                select(TableRow.id, TableRow.epoch).where(TableRow.owner == node.id)
            ).all()
        return {row.id: row.epoch for row in held}

    def claim(self, table_id: int) -> int | None:
        """Claim one table if nobody holds it (or this node does); its new epoch, or
        None when another node holds it."""
        claimable = unowned() | (TableRow.owner == self.node.id)
        with self.store.session() as session:
            return session.scalar(
                update(TableRow)
                .where(TableRow.id == table_id, claimable)
                .values(owner=self.node.id, epoch=TableRow.epoch + 1)
                .returning(TableRow.epoch)
            )

    def claim_orphans(self) -> list[Claim]:
        """Claim this node's share of the tables being played whose owner is gone: as
        many as there are of them over the live nodes, picked at random, so that the
        nodes left after one died split its tables between them. The condition is
        checked again by the UPDATE itself, so two nodes never claim one table. (This
        node's own tables are never orphans: while nobody claimed them, they are still
        its own, its lease late or not.)"""
        with self.store.session() as session:
            nodes = session.scalar(select(func.count()).select_from(NodeRow).where(leased())) or 1
            orphaned = (
                (TableRow.status == "playing")
                & unowned()
                & (TableRow.owner.is_(None) | (TableRow.owner != self.node.id))
            )
            count = session.scalar(select(func.count()).select_from(TableRow).where(orphaned))
            if not count:
                return []
            owner = aliased(NodeRow)  # apart from the one ``orphaned`` looks for
            ended = {  # when each orphan's owner's lease ran out
                table_id: until
                for table_id, until in session.execute(
                    select(TableRow.id, owner.lease_until)
                    .join(owner, owner.id == TableRow.owner)
                    .where(orphaned)
                )
            }
            share = select(TableRow.id).where(orphaned).order_by(func.random())
            claimed = session.execute(
                update(TableRow)
                .where(TableRow.id.in_(share.limit(math.ceil(count / nodes))), orphaned)
                .values(owner=self.node.id, epoch=TableRow.epoch + 1)
                .returning(TableRow.id, TableRow.code, TableRow.epoch)
            ).all()
            session.execute(
                delete(NodeRow).where(NodeRow.lease_until < DatabaseNow() - FORGET_NODE_SECONDS)
            )
        return [Claim(row.id, row.code, row.epoch, ended.get(row.id)) for row in claimed]

    def owner(self, table_id: int) -> Node | None:
        """The node whose lease on the table holds now, or None."""
        query = (
            select(NodeRow)
            .join(TableRow, TableRow.owner == NodeRow.id)
            .where(TableRow.id == table_id, leased())
        )
        with self.store.session() as session:
            row = session.scalar(query)
            return None if row is None else Node(row.id, row.url, row.secret)

    def release(self, claims: Mapping[int, int]) -> None:
        """Give up these tables (id to the epoch claimed) so any node may claim them at
        once; one claimed again since is left alone."""
        with self.store.session() as session:
            for table_id, epoch in claims.items():
                session.execute(
                    update(TableRow)
                    .where(
                        TableRow.id == table_id,
                        TableRow.epoch == epoch,
                        TableRow.owner == self.node.id,
                    )
                    .values(owner=None)
                )

    def leave(self) -> None:
        """Give up every table and the node's row: this node stops (SIGTERM)."""
        with self.store.session() as session:
            session.execute(
                update(TableRow).where(TableRow.owner == self.node.id).values(owner=None)
            )
            session.execute(delete(NodeRow).where(NodeRow.id == self.node.id))

    def take_over(self) -> None:
        """One node on the database (SQLite): the tables of the nodes before it are
        nobody's, so that a restart resumes them at once, not a lease later."""
        with self.store.session() as session:
            session.execute(
                update(TableRow).where(TableRow.owner != self.node.id).values(owner=None)
            )
            session.execute(delete(NodeRow).where(NodeRow.id != self.node.id))
