"""Web Push's rows: the service's VAPID key pair and the devices that asked for notices,
in the service's database (:class:`triominos.server.store.Store`; the tables come with
migrations ``0013_push`` and ``0018_push_accounts``).

A device is tied to seats by the hash of their tokens, as the seats themselves keep
them: a rematch keeps its players' tokens, so a device that asked for one table's
notices gets its rematch's too, and the database never holds a token.

A device that subscribed while signed in is tied to its account as well, through that
sign-in: it hears of every seat the account holds when a notice is sent (looked up then
in ``account_seats``, so a seat moved in later counts), and of the account's
invitations, for as long as that sign-in lasts. Signing out here or everywhere ends the
sign-in and so the tie; deleting the account deletes the tie's row.

The reminder of a game over days is sent once a turn whichever node sends it: the row
of ``push_reminders`` names the turn last reminded (:meth:`PushStore.first_reminder`).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Collection
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    delete,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.sql.expression import ColumnElement

from triominos.server.account_store import (
    SESSION_SECONDS,
    AccountSeatRow,
    SessionRow,
    secret_hash,
)
from triominos.server.protocol import Refusal
from triominos.server.store import Base, Store

KINDS = ("your_turn", "finished", "invitation", "rematch")
"""The kinds of notice a device may ask for (PROTOCOL.md, "Push notifications")."""

DEVICES_PER_SEAT = 8
"""The devices one seat notifies at most: a ninth pushes out the one tied longest ago."""
SEATS_PER_DEVICE = 200
"""The seats one device is tied to at most: the oldest ties go first."""
DEVICES_PER_ACCOUNT = 8
"""The devices one account notifies at most: a ninth pushes out the one tied longest ago."""

KEY_ROW = 1
"""The one row of ``push_keys``: every node inserts it under this id, so a race at first
start leaves one key pair."""


class SubscriptionConflict(Refusal):
    """An endpoint already subscribed with other keys: only its own browser may change
    it (code ``subscription_conflict``)."""


class PushKeyRow(Base):
    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_key: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[float] = mapped_column(Float)


class PushSubscriptionRow(Base):
    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    kinds: Mapped[str] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float] = mapped_column(Float)


class PushSeatRow(Base):
    __tablename__ = "push_seats"
    __table_args__ = (UniqueConstraint("subscription_id", "token_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(ForeignKey("push_subscriptions.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[float] = mapped_column(Float)


class PushAccountRow(Base):
    """A device that subscribed while signed in, tied to its account for as long as
    that sign-in lasts (``session_hash``: the sign-in's, as ``account_sessions`` keeps
    it; no foreign key, so that signing out never waits on this row). A device belongs
    to one account at most: the last one signed in when it subscribed."""

    __tablename__ = "push_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(ForeignKey("push_subscriptions.id"), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    session_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class PushReminderRow(Base):
    """The turn of a game over days whose reminder was sent, by when the turn began
    (the table's ``turn_started``): one row a table, no foreign key, so that a table is
    deleted without knowing of it."""

    __tablename__ = "push_reminders"

    table_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    turn_started: Mapped[float] = mapped_column(Float)
    sent_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """The account a device subscribes for and the id of the sign-in it did it with."""

    account_id: int
    session_id: str


@dataclass(frozen=True, slots=True)
class VapidKeys:
    """The service's key pair: the private key as PEM, the public one as the browser's
    ``applicationServerKey`` wants it (the uncompressed P-256 point, base64url)."""

    private_pem: str
    public_key: str


@dataclass(frozen=True, slots=True)
class Device:
    """A browser's PushSubscription (keys base64url, as the browser gives them), the
    kinds of notice it asked for and the language it reads."""

    endpoint: str
    p256dh: str
    auth: str
    kinds: frozenset[str]
    lang: str

    def info(self) -> dict[str, object]:
        """The subscription as ``pywebpush`` takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def new_keys() -> VapidKeys:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return VapidKeys(pem, b64url(point))


def b64url(data: bytes) -> str:
    """Base64url without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _device(row: PushSubscriptionRow) -> Device:
    kinds = frozenset(kind for kind in row.kinds.split(",") if kind)
    return Device(row.endpoint, row.p256dh, row.auth, kinds, row.lang)


class PushStore:
    """Web Push's part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._session = store.session  # its faults are StorageFaults: 503, try again

    def keys(self) -> VapidKeys:
        """The service's VAPID keys, made by the first node that asks: a node that
        loses the race to insert them reads the winner's."""
        with self._session() as session:
            row = session.get(PushKeyRow, KEY_ROW)
            if row is not None:
                return VapidKeys(row.private_pem, row.public_key)
        made = new_keys()
        try:
            with self._session() as session:
                session.add(
                    PushKeyRow(
                        id=KEY_ROW,
                        private_pem=made.private_pem,
                        public_key=made.public_key,
                        created_at=time.time(),
                    )
                )
        except IntegrityError:
            with self._session() as session:
                row = session.get(PushKeyRow, KEY_ROW)
                assert row is not None  # the winner's insert is committed
                return VapidKeys(row.private_pem, row.public_key)
        return made

    def subscribe(
        self, device: Device, token_hashes: Collection[str], signed_in: SignedIn | None = None
    ) -> None:
        """Keep ``device`` (its kinds and language replace those it had), tie it to the
        seats of ``token_hashes`` and to the account ``signed_in`` (None: to no account
        any more). An endpoint subscribed with other keys is refused: an endpoint alone
        proves nothing of the browser."""
        now = time.time()
        with self._session() as session:
            row = session.scalar(
                select(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == device.endpoint)
            )
            if row is None:
                row = PushSubscriptionRow(
                    endpoint=device.endpoint, p256dh=device.p256dh, auth=device.auth, created_at=now
                )
                session.add(row)
            elif (row.p256dh, row.auth) != (device.p256dh, device.auth):
                raise SubscriptionConflict(
                    "subscription_conflict",
                    "this endpoint is subscribed with other keys; unsubscribe it there first",
                )
            row.kinds = ",".join(kind for kind in KINDS if kind in device.kinds)
            row.lang = device.lang
            session.flush()
            tied = set(
                session.scalars(
                    select(PushSeatRow.token_hash).where(PushSeatRow.subscription_id == row.id)
                )
            )
            for token_hash in set(token_hashes) - tied:
                session.add(
                    PushSeatRow(subscription_id=row.id, token_hash=token_hash, created_at=now)
                )
            session.flush()
            for token_hash in token_hashes:
                _keep_newest(
                    session, PushSeatRow, PushSeatRow.token_hash == token_hash, DEVICES_PER_SEAT
                )
            _keep_newest(
                session, PushSeatRow, PushSeatRow.subscription_id == row.id, SEATS_PER_DEVICE
            )
            session.execute(delete(PushAccountRow).where(PushAccountRow.subscription_id == row.id))
            if signed_in is not None:
                _tie_to_account(session, row.id, signed_in, now)

    def unsubscribe(self, endpoint: str, auth: str, kinds: frozenset[str] | None) -> list[str]:
        """Stop ``kinds`` (None: every kind) for the device of ``endpoint``, which its
        auth secret proves; the kinds it still gets (none: it is forgotten)."""
        with self._session() as session:
            row = session.scalar(
                select(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
            )
            if row is None or row.auth != auth:
                return []
            left = [kind for kind in _device(row).kinds if kinds is not None and kind not in kinds]
            left.sort(key=KINDS.index)
            if left:
                row.kinds = ",".join(left)
            else:
                _forget(session, row)
            return left

    def devices(
        self,
        kind: str,
        now: float,
        *,
        token_hashes: Collection[str] = (),
        seats: Collection[tuple[str, int]] = (),
        accounts: Collection[int] = (),
    ) -> list[Device]:
        """The devices that asked for ``kind`` and are tied to any of these seats (by
        their token's hash), or signed in, at ``now``, to an account that holds one of
        ``seats`` (table code, seat number) or is one of ``accounts``; each once."""
        chosen = []
        if token_hashes:
            chosen.append(
                select(PushSeatRow.subscription_id).where(
                    PushSeatRow.token_hash.in_(list(token_hashes))
                )
            )
        if seats or accounts:
            holders = select(AccountSeatRow.account_id).where(
                tuple_(AccountSeatRow.code, AccountSeatRow.seat).in_(list(seats))
            )
            chosen.append(
                select(PushAccountRow.subscription_id)
                .join(
                    SessionRow,
                    and_(
                        SessionRow.id_hash == PushAccountRow.session_hash,
                        SessionRow.account_id == PushAccountRow.account_id,
                    ),
                )
                .where(
                    SessionRow.created_at > now - SESSION_SECONDS,
                    or_(
                        PushAccountRow.account_id.in_(list(accounts)),
                        PushAccountRow.account_id.in_(holders),
                    ),
                )
            )
        if not chosen:
            return []
        with self._session() as session:
            rows = session.scalars(
                select(PushSubscriptionRow).where(
                    or_(*(PushSubscriptionRow.id.in_(ids) for ids in chosen))
                )
            )
            return [device for device in map(_device, rows) if kind in device.kinds]

    def first_reminder(self, table_id: int, turn_started: float, now: float) -> bool:
        """Whether this is the first call for the turn of the table that began at
        ``turn_started``: True once a turn, on whichever node asks first (the row is
        changed or made under the database's own lock)."""
        try:
            with self._session() as session:
                moved = session.execute(
                    update(PushReminderRow)
                    .where(
                        PushReminderRow.table_id == table_id,
                        PushReminderRow.turn_started != turn_started,
                    )
                    .values(turn_started=turn_started, sent_at=now)
                )
                if moved.rowcount:  # type: ignore[attr-defined]
                    return True
                if session.get(PushReminderRow, table_id) is not None:
                    return False  # this turn's reminder was sent
                session.add(
                    PushReminderRow(table_id=table_id, turn_started=turn_started, sent_at=now)
                )
        except IntegrityError:  # another node made the row at the same moment
            return False
        return True

    def drop(self, endpoint: str) -> None:
        """Forget a device whose push service says it is gone (404, 410)."""
        with self._session() as session:
            row = session.scalar(
                select(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
            )
            if row is not None:
                _forget(session, row)


def _forget(session: Session, row: PushSubscriptionRow) -> None:
    """Delete a device and its ties."""
    for tie in (PushSeatRow, PushAccountRow):
        session.execute(delete(tie).where(tie.subscription_id == row.id))
    session.delete(row)


def _tie_to_account(
    session: Session, subscription_id: int, signed_in: SignedIn, now: float
) -> None:
    """Tie a device to the account it subscribed for, through its sign-in; forget the
    account's ties whose sign-in has ended, and all but its newest devices."""
    account_id = signed_in.account_id
    mine = PushAccountRow.account_id == account_id
    live = select(SessionRow.id_hash).where(SessionRow.account_id == account_id)
    session.execute(delete(PushAccountRow).where(mine, PushAccountRow.session_hash.not_in(live)))
    session.add(
        PushAccountRow(
            subscription_id=subscription_id,
            account_id=account_id,
            session_hash=secret_hash(signed_in.session_id),
            created_at=now,
        )
    )
    session.flush()
    _keep_newest(session, PushAccountRow, mine, DEVICES_PER_ACCOUNT)


def _keep_newest(
    session: Session,
    tie: type[PushSeatRow] | type[PushAccountRow],
    which: ColumnElement[bool],
    count: int,
) -> None:
    """Delete all but the newest ``count`` ties of the kind ``tie`` that match ``which``."""
    newest = select(tie.id).where(which).order_by(tie.created_at.desc(), tie.id.desc()).limit(count)
    kept = set(session.scalars(newest))
    session.execute(delete(tie).where(which, tie.id.not_in(kept)))
