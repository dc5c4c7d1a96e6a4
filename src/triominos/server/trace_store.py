"""Where accounts were used, for the ratings' anti-abuse rule (issue 33): a match between
two accounts seen with one browser or one address in the
:data:`~triominos.ratings.SHARED_SECONDS` before its end is not rated
(:func:`triominos.ratings.unrated_because`), as the same person, or a pair trading a
rating, would play it. Migration ``0017_traces`` makes the tables.

**What is kept.** A trace is a keyed hash (HMAC-SHA256, :func:`trace`) of the browser id
(:data:`BROWSER_COOKIE`, a random ``HttpOnly`` cookie the server gives every browser
that lacks one) or of the client's address as the guard resolves it (an IPv6 address by
its /64, :func:`~triominos.server.guard.client_key`); never the id or the address. The
key is made once, by the first node that needs it, and kept in the database
(``trace_keys``), so every node
hashes alike and a leaked table of traces cannot be reversed by hashing every IPv4
address. A row is an account, a trace and when it was first and last seen with it,
written when the account's sign-in is used (:meth:`TraceStore.seen`), at most once every
:data:`SEEN_EVERY`.

**For how long.** Rows unseen for :data:`~triominos.ratings.SHARED_SECONDS` (and
:data:`PRUNE_MARGIN`) are deleted by the next write, and an account keeps its
:data:`TRACES_PER_ACCOUNT` newest; deleting the account deletes them (they refer to
``accounts.id``, :meth:`triominos.server.account_store.AccountStore.delete`), and its
export lists them.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import Float, ForeignKey, Index, Integer, String, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from triominos.ratings import SHARED_SECONDS
from triominos.server.guard import client_key
from triominos.server.proxy import is_hop
from triominos.server.store import Base, StorageFault, Store

log = logging.getLogger("triominos.server")

BROWSER_COOKIE = "triominos_browser"
BROWSER_SECONDS = 400 * 24 * 3600
"""How long the browser id cookie lasts: the longest a browser keeps one (Chromium's cap)."""
BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{32}")
"""What a browser id the server made looks like (24 random bytes, base64url)."""
BROWSER_SCOPE = "triominos.browser"
"""The ASGI scope key of the request's browser id (:class:`BrowserIds`)."""
SEEN_EVERY = 600.0
"""The most often one trace of an account is written again."""
TRACES_PER_ACCOUNT = 50
"""The traces one account keeps at most (a phone changes address often): the newest."""
PRUNE_MARGIN = 3600.0
"""How long past the window a row waits to be deleted: a write never updates a row
older than the window, so a deletion and a write never wait for each other's row."""
KEY_ROW = 1
"""The one row of ``trace_keys``: every node inserts it under this id, so a race at first
use leaves one key."""


class TraceKeyRow(Base):
    __tablename__ = "trace_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    """32 random bytes, hex."""
    created_at: Mapped[float] = mapped_column(Float)


class TraceRow(Base):
    """An account seen with a trace from ``first_seen`` to ``last_seen``: one span of
    use. A trace unseen for the window starts a new row; the old one is only deleted."""

    __tablename__ = "account_traces"
    __table_args__ = (
        Index("ix_account_traces_account_trace", "account_id", "trace"),
        Index("ix_account_traces_last_seen", "last_seen"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    trace: Mapped[str] = mapped_column(String(64))
    """:func:`trace` of a browser id or an address."""
    first_seen: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class Trace:
    """A trace of an account and when it was first and last seen with it."""

    trace: str
    first_seen: float
    last_seen: float


def trace(key: bytes, kind: Literal["browser", "address"], value: str) -> str:
    """The trace of a browser id or an address: the two kinds never collide, and without
    the key no value can be tried."""
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def whereabouts(connection: HTTPConnection) -> tuple[str | None, str | None]:
    """The request's browser id (None where :class:`BrowserIds` gave it none) and its
    client's address as the guard resolved it, an IPv6 address by its /64 (None for a
    connection that has none, rather than one "unknown" address shared by all)."""
    browser: str | None = connection.scope.get(BROWSER_SCOPE)
    return browser, client_key(connection.scope) if connection.scope.get("client") else None


class BrowserIds:
    """ASGI middleware inside the guard: gives every browser that lacks one a browser id,
    a random ``HttpOnly`` cookie that outlives sign-ins, and puts the request's id in
    its scope (:func:`whereabouts`). A request another node sent on carries no cookie,
    and gets none: the node it reached first gave the browser its id."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_hop(scope):
            await self.app(scope, receive, send)
            return
        browser = HTTPConnection(scope).cookies.get(BROWSER_COOKIE, "")
        if BROWSER_ID.fullmatch(browser):
            scope[BROWSER_SCOPE] = browser
            await self.app(scope, receive, send)
            return
        browser = secrets.token_urlsafe(24)
        scope[BROWSER_SCOPE] = browser
        cookie = (
            f"{BROWSER_COOKIE}={browser}; Max-Age={BROWSER_SECONDS}; Path=/; HttpOnly; SameSite=lax"
        )
        if scope.get("scheme") == "https":
            cookie += "; Secure"

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


class TraceStore:
    """The traces' part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._session = store.session  # its faults are StorageFaults: 503, try again
        self._key: bytes | None = None

    def key(self) -> bytes:
        """The service's trace key, made by the first node that asks: a node that loses
        the race to insert it reads the winner's."""
        if self._key is None:
            self._key = bytes.fromhex(self._stored_key())
        return self._key

    def _stored_key(self) -> str:
        with self._session() as session:
            row = session.get(TraceKeyRow, KEY_ROW)
            if row is not None:
                return row.key
        made = secrets.token_hex(32)
        try:
            with self._session() as session:
                session.add(TraceKeyRow(id=KEY_ROW, key=made, created_at=time.time()))
        except IntegrityError:
            with self._session() as session:
                return session.get_one(TraceKeyRow, KEY_ROW).key
        return made

    def seen(self, account_id: int, browser: str | None, address: str | None, now: float) -> None:
        """The account's sign-in was used now from this browser and address: keep their
        traces. A trace seen within :data:`SEEN_EVERY` is not written again; one unseen
        for the window starts a new span. Then the old rows go, in a transaction of
        their own (:func:`_forget_old`)."""
        key = self.key()
        traces = {trace(key, "browser", browser)} if browser is not None else set()
        if address is not None:
            traces.add(trace(key, "address", address))
        if not traces:
            return
        with self._session() as session:
            live = {
                row.trace: row
                for row in session.scalars(
                    select(TraceRow)
                    .where(
                        TraceRow.account_id == account_id,
                        TraceRow.trace.in_(traces),
                        TraceRow.last_seen >= now - SHARED_SECONDS,
                    )
                    .order_by(TraceRow.id)
                )
            }
            fresh = {kept for kept, row in live.items() if row.last_seen > now - SEEN_EVERY}
            if fresh == traces:
                return
            for stale in sorted(traces - fresh):
                row = live.get(stale) or TraceRow(
                    account_id=account_id, trace=stale, first_seen=now
                )
                row.last_seen = now
                session.add(row)
        try:
            with self._session() as session:
                _forget_old(session, account_id, now)
        except StorageFault as fault:  # never the request's: the next write prunes
            log.info("old traces not deleted now: %s", fault)

    def traces(self, accounts: Collection[int], end: float) -> dict[int, frozenset[str]]:
        """Each account's traces seen in the :data:`~triominos.ratings.SHARED_SECONDS`
        before ``end`` (a match's end), as :class:`triominos.ratings.Seat` takes them."""
        found: dict[int, set[str]] = {account: set() for account in accounts}
        with self._session() as session:
            rows = session.execute(
                select(TraceRow.account_id, TraceRow.trace).where(
                    TraceRow.account_id.in_(found),
                    TraceRow.last_seen >= end - SHARED_SECONDS,
                    TraceRow.first_seen <= end,
                )
            )
            for account, kept in rows:
                found[account].add(kept)
        return {account: frozenset(kept) for account, kept in found.items()}

    def of(self, account_id: int) -> list[Trace]:
        """The account's traces, newest first: what its export shows."""
        with self._session() as session:
            rows = session.scalars(
                select(TraceRow)
                .where(TraceRow.account_id == account_id)
                .order_by(TraceRow.last_seen.desc(), TraceRow.id.desc())
            )
            return [Trace(row.trace, row.first_seen, row.last_seen) for row in rows]


def _forget_old(session: Session, account_id: int, now: float) -> None:
    """Delete every account's traces unseen for the window (and :data:`PRUNE_MARGIN`),
    and this account's beyond its :data:`TRACES_PER_ACCOUNT` newest."""
    session.execute(
        delete(TraceRow).where(TraceRow.last_seen < now - SHARED_SECONDS - PRUNE_MARGIN)
    )
    newest = (
        select(TraceRow.id)
        .where(TraceRow.account_id == account_id)
        .order_by(TraceRow.last_seen.desc(), TraceRow.id.desc())
        .limit(TRACES_PER_ACCOUNT)
    )
    kept = set(session.scalars(newest))
    session.execute(
        delete(TraceRow).where(TraceRow.account_id == account_id, TraceRow.id.not_in(kept))
    )
