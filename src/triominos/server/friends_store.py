"""Friends' rows (issue 33, part 2): friendships, blocks, invitations to a table and when
an account was last seen, in the service's database (migration ``0015_friends``).

**A friendship is asked for and accepted**, not a one-way follow: a friend sees when the
other is online and may invite them, which nobody should get by merely typing a name.
One row per pair, from the one who asked to the one asked, ``accepted`` once the other
says yes (asking back accepts).

**Online** means an account's sign-in made a request within :data:`ONLINE_SECONDS`
(the account page asks for its friends every minute while open). The time is a row of
the database, written at most once every :data:`SEEN_EVERY` seconds, so every node
answers the same; a live table connection is not tied to an account and is not counted.

**A block** cuts a friendship and the invitations between the two, and from then the
blocked account can neither ask for friendship nor invite; at a table, the blocker no
longer hears the blocked player's chat (:func:`unheard_seats`: seats are tied to
accounts by ``account_seats``, the seats moved into them). Floods are bounded per
account here, on every node alike (:data:`PENDING_REQUESTS`,
:data:`FRIENDS_PER_ACCOUNT`, :data:`INVITATIONS_PER_HOUR`), beside the guard's
per-address ``account`` limit.

Deleting an account deletes its rows here too (every row that refers to ``accounts.id``,
:meth:`triominos.server.account_store.AccountStore.delete`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    and_,
    delete,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column
from sqlalchemy.sql.expression import ColumnElement

from triominos.server.account_store import AccountRow, AccountSeatRow
from triominos.server.protocol import Refusal
from triominos.server.store import Base, Store

ONLINE_SECONDS = 5 * 60.0
"""A friend is online who made a signed-in request this recently."""
SEEN_EVERY = 60.0
"""The most often an account's last request is written."""
FRIENDS_PER_ACCOUNT = 200
"""Friends and requests of one account, in all."""
PENDING_REQUESTS = 20
"""Requests one account has made that are not answered yet."""
INVITATIONS_PER_HOUR = 30
"""Invitations one account sends in an hour."""
INVITATION_SECONDS = 7 * 24 * 3600.0
"""How long an invitation is shown."""


class FriendRefusal(Refusal):
    """A change of friends refused; ``code``: ``blocked``, ``not_friends``, ``yourself``,
    ``too_many`` (each API says its status)."""


class FriendshipRow(Base):
    __tablename__ = "friendships"
    __table_args__ = (UniqueConstraint("asker_id", "asked_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    asker_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    asked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    accepted: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Float)


class BlockRow(Base):
    __tablename__ = "account_blocks"
    __table_args__ = (UniqueConstraint("blocker_id", "blocked_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    blocker_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)


class InvitationRow(Base):
    """An invitation to the table ``code`` (a code, as seats in accounts are kept)."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    code: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    __tablename__ = "account_presence"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class Friend:
    name: str
    online: bool


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation as its receiver sees it (and as a push would name it)."""

    id: int
    from_name: str
    to_id: int
    code: str
    created_at: float


@dataclass(frozen=True, slots=True)
class Friends:
    """What an account's page shows of its friends."""

    friends: list[Friend]
    asking: list[str]
    """Who asked this account (to accept or decline)."""
    asked: list[str]
    """Whom this account asked, not answered yet."""
    blocked: list[str]
    invitations: list[Invitation]


def _between(a: int, b: int) -> ColumnElement[bool]:
    return or_(
        and_(FriendshipRow.asker_id == a, FriendshipRow.asked_id == b),
        and_(FriendshipRow.asker_id == b, FriendshipRow.asked_id == a),
    )


def _blocked(session: Session, a: int, b: int) -> bool:
    found = session.scalar(
        select(BlockRow.id).where(
            or_(
                and_(BlockRow.blocker_id == a, BlockRow.blocked_id == b),
                and_(BlockRow.blocker_id == b, BlockRow.blocked_id == a),
            )
        )
    )
    return found is not None


def blocked(store: Store, account_a: int, account_b: int) -> bool:
    """Whether either account blocked the other: then no request or invitation passes
    between them (a table's chat: :func:`unheard_seats`)."""
    with store.session() as session:
        return _blocked(session, account_a, account_b)


def unheard_seats(store: Store, code: str) -> dict[int, frozenset[int]]:
    """For each seat of the table ``code`` whose account blocked the account of another
    of its seats, those seats: their chat does not reach it. Only the blocker is spared
    the other's lines; a seat held in no account blocks nobody and is blocked by nobody."""
    blocker = aliased(AccountSeatRow)
    blocked_seat = aliased(AccountSeatRow)
    with store.session() as session:
        pairs = session.execute(
            select(blocker.seat, blocked_seat.seat)
            .join(BlockRow, BlockRow.blocker_id == blocker.account_id)
            .join(blocked_seat, blocked_seat.account_id == BlockRow.blocked_id)
            .where(blocker.code == code, blocked_seat.code == code)
        ).all()
    unheard: dict[int, set[int]] = {}
    for listener, speaker in pairs:
        unheard.setdefault(listener, set()).add(speaker)
    return {listener: frozenset(speakers) for listener, speakers in unheard.items()}


class FriendStore:
    """The friends' part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._session = store.session

    def seen(self, account_id: int, now: float) -> None:
        """The account made a signed-in request now (written once a minute at most)."""
        try:
            with self._session() as session:
                moved = session.execute(
                    update(PresenceRow)
                    .where(
                        PresenceRow.account_id == account_id,
                        PresenceRow.seen_at < now - SEEN_EVERY,
                    )
                    .values(seen_at=now)
                )
                count: int = moved.rowcount  # type: ignore[attr-defined]
                if count == 0 and session.get(PresenceRow, account_id) is None:
                    session.add(PresenceRow(account_id=account_id, seen_at=now))
        except IntegrityError:  # its first two requests at once: the other one wrote it
            pass

    def ask(self, asker: int, asked: int, now: float) -> bool:
        """Ask ``asked`` for friendship, or accept when they asked first: True when the
        two are friends now."""
        if asker == asked:
            raise FriendRefusal("yourself", "you cannot be your own friend")
        with self._session() as session:
            if _blocked(session, asker, asked):
                raise FriendRefusal("blocked", "this player takes no friend request from you")
            row = session.scalar(select(FriendshipRow).where(_between(asker, asked)))
            if row is not None:
                if row.asked_id == asker:
                    row.accepted = True
                return row.accepted
            _check_room(session, asker)
            session.add(
                FriendshipRow(asker_id=asker, asked_id=asked, accepted=False, created_at=now)
            )
            return False

    def unfriend(self, account_id: int, other: int) -> bool:
        """End a friendship, decline a request or take one back; False if none was."""
        with self._session() as session:
            gone = session.execute(delete(FriendshipRow).where(_between(account_id, other)))
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def block(self, blocker: int, other: int, now: float) -> None:
        """Block ``other``: their friendship and invitations between the two go."""
        if blocker == other:
            raise FriendRefusal("yourself", "you cannot block yourself")
        with self._session() as session:
            session.execute(delete(FriendshipRow).where(_between(blocker, other)))
            session.execute(
                delete(InvitationRow).where(
                    or_(
                        and_(InvitationRow.from_id == blocker, InvitationRow.to_id == other),
                        and_(InvitationRow.from_id == other, InvitationRow.to_id == blocker),
                    )
                )
            )
            known = session.scalar(
                select(BlockRow.id).where(
                    BlockRow.blocker_id == blocker, BlockRow.blocked_id == other
                )
            )
            if known is None:
                session.add(BlockRow(blocker_id=blocker, blocked_id=other, created_at=now))

    def unblock(self, blocker: int, other: int) -> bool:
        with self._session() as session:
            gone = session.execute(
                delete(BlockRow).where(BlockRow.blocker_id == blocker, BlockRow.blocked_id == other)
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def invite(self, sender: int, friend: int, code: str, now: float) -> Invitation:
        """Invite a friend to the table ``code``: ``not_friends`` unless the two are
        (a block ended it), ``too_many`` past :data:`INVITATIONS_PER_HOUR`."""
        with self._session() as session:
            friends = session.scalar(
                select(FriendshipRow.id).where(_between(sender, friend), FriendshipRow.accepted)
            )
            if friends is None or _blocked(session, sender, friend):
                raise FriendRefusal("not_friends", "you may invite only your friends")
            sent = session.scalar(
                select(func.count(InvitationRow.id)).where(
                    InvitationRow.from_id == sender, InvitationRow.created_at > now - 3600
                )
            )
            if (sent or 0) >= INVITATIONS_PER_HOUR:
                raise FriendRefusal(
                    "too_many", f"at most {INVITATIONS_PER_HOUR} invitations an hour"
                )
            row = InvitationRow(from_id=sender, to_id=friend, code=code, created_at=now)
            session.add(row)
            session.flush()
            name = session.get_one(AccountRow, sender).name
            return Invitation(row.id, name, friend, code, now)

    def dismiss(self, account_id: int, invitation_id: int) -> bool:
        """Forget an invitation the account received."""
        with self._session() as session:
            gone = session.execute(
                delete(InvitationRow).where(
                    InvitationRow.id == invitation_id, InvitationRow.to_id == account_id
                )
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def friends(self, account_id: int, now: float) -> Friends:
        with self._session() as session:
            other = aliased(AccountRow)
            rows = session.execute(
                select(FriendshipRow, other.name, PresenceRow.seen_at)
                .join(
                    other,
                    other.id
                    == func.coalesce(
                        # the other side of the pair
                        func.nullif(FriendshipRow.asker_id, account_id),
                        FriendshipRow.asked_id,
                    ),
                )
                .outerjoin(PresenceRow, PresenceRow.account_id == other.id)
                .where(
                    or_(FriendshipRow.asker_id == account_id, FriendshipRow.asked_id == account_id)
                )
                .order_by(other.name)
            ).all()
            blocks = session.scalars(
                select(AccountRow.name)
                .join(BlockRow, BlockRow.blocked_id == AccountRow.id)
                .where(BlockRow.blocker_id == account_id)
                .order_by(AccountRow.name)
            ).all()
            invitations = session.execute(
                select(InvitationRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == InvitationRow.from_id)
                .where(
                    InvitationRow.to_id == account_id,
                    InvitationRow.created_at > now - INVITATION_SECONDS,
                )
                .order_by(InvitationRow.id.desc())
                .limit(INVITATIONS_PER_HOUR)
            ).all()
        friends, asking, asked = [], [], []
        for row, name, seen_at in rows:
            if row.accepted:
                online = seen_at is not None and seen_at > now - ONLINE_SECONDS
                friends.append(Friend(name, online))
            elif row.asked_id == account_id:
                asking.append(name)
            else:
                asked.append(name)
        return Friends(
            friends,
            asking,
            asked,
            list(blocks),
            [
                Invitation(row.id, name, row.to_id, row.code, row.created_at)
                for row, name in invitations
            ],
        )


def _check_room(session: Session, asker: int) -> None:
    """``too_many`` when the asker has too many requests waiting, or friends in all."""
    mine = or_(FriendshipRow.asker_id == asker, FriendshipRow.asked_id == asker)
    total = session.scalar(select(func.count(FriendshipRow.id)).where(mine)) or 0
    waiting = (
        session.scalar(
            select(func.count(FriendshipRow.id)).where(
                FriendshipRow.asker_id == asker, ~FriendshipRow.accepted
            )
        )
        or 0
    )
    if waiting >= PENDING_REQUESTS:
        raise FriendRefusal(
            "too_many", f"at most {PENDING_REQUESTS} friend requests may wait for an answer"
        )
    if total >= FRIENDS_PER_ACCOUNT:
        raise FriendRefusal("too_many", f"an account has {FRIENDS_PER_ACCOUNT} friends at most")
