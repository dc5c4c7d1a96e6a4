"""Accounts' rows (issue 33): the accounts, their passkeys, sign-ins, the WebAuthn
challenges under way and the seats moved into them, in the service's database
(:class:`triominos.server.store.Store`; the tables come with migration ``0012_accounts``).

An account is optional: a table never refers to one, and a seat is still held by its
token. What the account adds is a place to keep the tokens of its seats, so that every
device signed in gets them ("Your games" on every device). So ``account_seats`` keeps
the token itself, where the seats table keeps only its hash: the account is the holder
of the seat from then on, and the token is given only to the account's own sign-ins.

Secrets stay out of the database where they can: a sign-in is kept by the SHA-256 of
its random id, a password by its argon2id hash. A WebAuthn challenge is kept until it is
used once or expires (:meth:`AccountStore.take_challenge` deletes it as it reads it).
Failed password sign-ins are counted on the account, so that the pause after too many
holds on every node.

Later parts of issue 33 (ratings, friends, push subscriptions) refer to ``accounts.id``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Table,
    UniqueConstraint,
    delete,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from triominos.server.account_names import name_key, neutral_name
from triominos.server.protocol import Refusal
from triominos.server.store import Base, ChatRow, SeatRow, Store, TableRow

Purpose = Literal["register", "sign_in"]

SESSION_SECONDS = 90 * 24 * 3600.0
"""How long a sign-in lasts (its cookie as long)."""
FAILED_SIGN_INS = 10
"""Wrong passwords in a row that pause an account's password sign-in..."""
LOCKOUT_SECONDS = 15 * 60.0
"""...for this long (a passkey still signs in: nobody guesses one)."""
CHALLENGE_SECONDS = 5 * 60.0
"""How long a WebAuthn challenge may be answered."""
SEATS_PER_ACCOUNT = 500
"""The most seats one account keeps."""


class AccountRefusal(Refusal):
    """A change the stored accounts refuse; ``code`` is the protocol's error code
    (``name_taken``, ``claimed``, ``bad_challenge``, ``passkey_known``, ``too_many_seats``)."""


def secret_hash(secret: str) -> str:
    """What the database keeps of a sign-in's id."""
    return hashlib.sha256(secret.encode()).hexdigest()


# --- the schema -----------------------------------------------------------------------


class AccountRow(Base):
    __tablename__ = "accounts"
    __table_args__ = ({"sqlite_autoincrement": True},)
    """An id is never given twice, also on SQLite (whose plain rowid gives the newest
    deleted account's id to the next one): what is kept under an account's id elsewhere
    (ratings, traces...) never passes to another account (migration ``0019``)."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    """The name's skeleton (:func:`~triominos.server.account_names.name_key`): two names
    that look alike cannot both be taken."""
    language: Mapped[str] = mapped_column(String(8))
    user_handle: Mapped[str] = mapped_column(String(88), unique=True)
    """The account's WebAuthn user id (random, base64url), which passkeys carry."""
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    failed_sign_ins: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    __tablename__ = "account_passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    credential_id: Mapped[str] = mapped_column(String(400), unique=True)
    """base64url, as the browser names it."""
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SessionRow(Base):
    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float] = mapped_column(Float)


class ChallengeRow(Base):
    """A WebAuthn ceremony under way: registering a passkey (for a new account named
    ``name``, or for ``account_id``'s) or signing in with one."""

    __tablename__ = "account_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    challenge: Mapped[str] = mapped_column(String(128))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    user_handle: Mapped[str | None] = mapped_column(String(88), nullable=True)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class AccountSeatRow(Base):
    """A seat moved into an account; a seat is in one account at most. By its table's
    code, not a foreign key: a waiting table that expires is deleted without knowing of
    accounts, and its seats here then name a table that is gone (left out where shown)."""

    __tablename__ = "account_seats"
    __table_args__ = (UniqueConstraint("code", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    code: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int] = mapped_column(Integer)
    token: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


# --- what the rest of the service sees --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Passkey:
    credential_id: str
    public_key: bytes
    sign_count: int
    created_at: float
    used_at: float | None


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    language: str
    user_handle: str
    password_hash: str | None
    failed_sign_ins: int
    locked_until: float | None
    created_at: float


@dataclass(frozen=True, slots=True)
class Challenge:
    purpose: Purpose
    challenge: str
    account_id: int | None
    name: str | None
    user_handle: str | None
    language: str | None
    """A new account's: its name, WebAuthn user id and language."""


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat an account holds: its table's code, its number and its token."""

    code: str
    seat: int
    token: str


def _account(row: AccountRow) -> Account:
    return Account(
        row.id,
        row.name,
        row.language,
        row.user_handle,
        row.password_hash,
        row.failed_sign_ins,
        row.locked_until,
        row.created_at,
    )


def _passkey(row: PasskeyRow) -> Passkey:
    return Passkey(row.credential_id, row.public_key, row.sign_count, row.created_at, row.used_at)


def name_taken(name: str) -> AccountRefusal:
    return AccountRefusal("name_taken", f"the name {name!r} (or one that looks like it) is taken")


class AccountStore:
    """The accounts' part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._session = store.session  # its faults are StorageFaults: 503, try again

    # --- accounts ---------------------------------------------------------------------

    def create(
        self, name: str, language: str, user_handle: str, password_hash: str | None, now: float
    ) -> Account:
        """A new account, or :class:`AccountRefusal` ``name_taken``."""
        row = AccountRow(
            name=name,
            name_key=name_key(name),
            language=language,
            user_handle=user_handle,
            password_hash=password_hash,
            failed_sign_ins=0,
            created_at=now,
        )
        try:
            with self._session() as session:
                session.add(row)
                session.flush()
                return _account(row)
        except IntegrityError:
            raise name_taken(name) from None

    def name_free(self, name: str) -> bool:
        with self._session() as session:
            found = session.scalar(
                select(AccountRow.id).where(AccountRow.name_key == name_key(name))
            )
            return found is None

    def by_name(self, name: str) -> Account | None:
        """The account whose name looks like ``name`` (as two names are compared)."""
        with self._session() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            return None if row is None else _account(row)

    def account(self, account_id: int) -> Account | None:
        with self._session() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None else _account(row)

    def change(self, account_id: int, *, name: str | None, language: str | None) -> Account:
        """Rename the account and/or change its language; ``name_taken`` when another
        account's name looks like the new one."""
        try:
            with self._session() as session:
                row = session.get_one(AccountRow, account_id)
                if name is not None:
                    row.name, row.name_key = name, name_key(name)
                if language is not None:
                    row.language = language
                session.flush()
                return _account(row)
        except IntegrityError:
            raise name_taken(name or "") from None

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self._session() as session:
            session.get_one(AccountRow, account_id).password_hash = password_hash

    def failed_sign_in(self, account_id: int, now: float) -> None:
        """Count a wrong password; the :data:`FAILED_SIGN_INS`-th pauses the account's
        password sign-in for :data:`LOCKOUT_SECONDS` and starts the count again."""
        with self._session() as session:
            row = session.get_one(AccountRow, account_id, with_for_update=True)
            row.failed_sign_ins += 1
            if row.failed_sign_ins >= FAILED_SIGN_INS:
                row.failed_sign_ins = 0
                row.locked_until = now + LOCKOUT_SECONDS

    def delete(self, account_id: int) -> None:
        """Forget the account and everything kept for it: every row that refers to it,
        whichever module declares it (friends, invitations...). The seats it held keep
        their tables' games, under a neutral name (:func:`neutral_name`), and so does
        their chat."""
        with self._session() as session:
            held = session.execute(
                select(TableRow.id, AccountSeatRow.seat)
                .join(TableRow, TableRow.code == AccountSeatRow.code)
                .where(AccountSeatRow.account_id == account_id)
            ).all()
            for table_id, seat in held:
                neutral = neutral_name(seat)
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(name=neutral)
                )
                session.execute(
                    update(ChatRow)
                    .where(ChatRow.table_id == table_id, ChatRow.seat == seat)
                    .values(name=neutral)
                )
            for table, column in _referring():
                session.execute(delete(table).where(column == account_id))
            session.execute(delete(AccountRow).where(AccountRow.id == account_id))

    # --- sign-ins ---------------------------------------------------------------------

    def sign_in(self, account_id: int, session_id: str, now: float) -> None:
        """Keep a new sign-in of the account (by its id's hash), and forget its expired
        ones; a right password or passkey also ends a count of wrong passwords."""
        with self._session() as session:
            session.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id,
                    SessionRow.created_at < now - SESSION_SECONDS,
                )
            )
            session.add(
                SessionRow(
                    id_hash=secret_hash(session_id),
                    account_id=account_id,
                    created_at=now,
                    used_at=now,
                )
            )
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(failed_sign_ins=0)
            )

    def signed_in(self, session_id: str, now: float) -> Account | None:
        """The account of a sign-in still valid, which is used now; else None."""
        with self._session() as session:
            row = session.get(SessionRow, secret_hash(session_id))
            if row is None or row.created_at + SESSION_SECONDS < now:
                return None
            if now - row.used_at > 3600:  # a write an hour at most, not one a request
                row.used_at = now
            return _account(session.get_one(AccountRow, row.account_id))

    def sign_out(self, session_id: str) -> None:
        with self._session() as session:
            session.execute(delete(SessionRow).where(SessionRow.id_hash == secret_hash(session_id)))

    def sign_out_everywhere(self, account_id: int) -> None:
        with self._session() as session:
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    # --- passkeys and their challenges ------------------------------------------------

    def add_challenge(self, ceremony: str, challenge: Challenge, now: float) -> None:
        """Keep a challenge until it is answered, and forget those expired."""
        with self._session() as session:
            session.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < now))
            session.add(
                ChallengeRow(
                    id=ceremony,
                    purpose=challenge.purpose,
                    challenge=challenge.challenge,
                    account_id=challenge.account_id,
                    name=challenge.name,
                    user_handle=challenge.user_handle,
                    language=challenge.language,
                    expires_at=now + CHALLENGE_SECONDS,
                )
            )

    def take_challenge(self, ceremony: str, purpose: Purpose, now: float) -> Challenge:
        """The challenge of a ceremony, deleted as it is read, so that it is answered
        once: two answers at once find it once (the delete's row count decides)."""
        with self._session() as session:
            row = session.get(ChallengeRow, ceremony)
            taken = session.execute(delete(ChallengeRow).where(ChallengeRow.id == ceremony))
            if (
                row is None
                or taken.rowcount != 1  # type: ignore[attr-defined]
                or row.purpose != purpose
                or row.expires_at < now
            ):
                raise AccountRefusal(
                    "bad_challenge", "this passkey challenge was used already or has expired"
                )
            return Challenge(
                purpose, row.challenge, row.account_id, row.name, row.user_handle, row.language
            )

    def add_passkey(
        self, account_id: int, credential_id: str, public_key: bytes, sign_count: int, now: float
    ) -> None:
        try:
            with self._session() as session:
                session.add(
                    PasskeyRow(
                        account_id=account_id,
                        credential_id=credential_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        created_at=now,
                    )
                )
        except IntegrityError:
            raise AccountRefusal("passkey_known", "this passkey is registered already") from None

    def passkeys(self, account_id: int) -> list[Passkey]:
        with self._session() as session:
            rows = session.scalars(
                select(PasskeyRow)
                .where(PasskeyRow.account_id == account_id)
                .order_by(PasskeyRow.id)
            )
            return [_passkey(row) for row in rows]

    def passkey(self, credential_id: str) -> tuple[int, Passkey] | None:
        """The account and passkey of a credential id."""
        with self._session() as session:
            row = session.scalar(
                select(PasskeyRow).where(PasskeyRow.credential_id == credential_id)
            )
            return None if row is None else (row.account_id, _passkey(row))

    def passkey_used(self, credential_id: str, before: int, after: int, now: float) -> bool:
        """Move a passkey's signature counter on from ``before`` (as verified) to
        ``after``; False when another sign-in moved it meanwhile (a replay raced it)."""
        with self._session() as session:
            moved = session.execute(
                update(PasskeyRow)
                .where(PasskeyRow.credential_id == credential_id, PasskeyRow.sign_count == before)
                .values(sign_count=after, used_at=now)
            )
            count: int = moved.rowcount  # type: ignore[attr-defined]
            return count == 1

    def remove_passkey(self, account_id: int, credential_id: str) -> bool:
        """Remove one of the account's own passkeys; False when it has none of that id."""
        with self._session() as session:
            removed = session.execute(
                delete(PasskeyRow).where(
                    PasskeyRow.account_id == account_id, PasskeyRow.credential_id == credential_id
                )
            )
            count: int = removed.rowcount  # type: ignore[attr-defined]
            return count == 1

    # --- seats ------------------------------------------------------------------------

    def seats(self, account_id: int) -> list[HeldSeat]:
        with self._session() as session:
            return _held(session, account_id)

    def move_seat(self, account_id: int, code: str, seat: int, token: str, now: float) -> None:
        """Move a seat (whose token the caller checked) into the account: ``claimed``
        when it is in another account (a token alone never takes it from there)."""
        try:
            with self._session() as session:
                owner = session.scalar(
                    select(AccountSeatRow.account_id).where(
                        AccountSeatRow.code == code, AccountSeatRow.seat == seat
                    )
                )
                if owner == account_id:
                    return
                if owner is not None:
                    raise AccountRefusal("claimed", f"seat {seat} of {code} is in another account")
                if len(_held(session, account_id)) >= SEATS_PER_ACCOUNT:
                    raise AccountRefusal(
                        "too_many_seats", f"an account keeps {SEATS_PER_ACCOUNT} seats at most"
                    )
                session.add(
                    AccountSeatRow(
                        account_id=account_id, code=code, seat=seat, token=token, created_at=now
                    )
                )
        except IntegrityError:  # moved into another account at the same moment
            raise AccountRefusal(
                "claimed", f"seat {seat} of {code} is in another account"
            ) from None

    # --- everything, for the account's owner --------------------------------------------

    def export(self, account_id: int) -> dict[str, Any]:
        """Everything kept about the account, but what would let anyone sign in as it
        (the password's hash, the sign-ins' ids are kept only hashed anyway)."""
        with self._session() as session:
            row = session.get_one(AccountRow, account_id)
            sessions = session.scalars(
                select(SessionRow).where(SessionRow.account_id == account_id)
            ).all()
            return {
                "format": "triominos-account/1",
                "account": {
                    "name": row.name,
                    "language": row.language,
                    "created_at": row.created_at,
                    "password": row.password_hash is not None,
                    "failed_sign_ins": row.failed_sign_ins,
                    "locked_until": row.locked_until,
                },
                "passkeys": [
                    {
                        "id": passkey.credential_id,
                        "public_key": passkey.public_key.hex(),
                        "sign_count": passkey.sign_count,
                        "created_at": passkey.created_at,
                        "used_at": passkey.used_at,
                    }
                    for passkey in self.passkeys(account_id)
                ],
                "sign_ins": [
                    {"created_at": signed.created_at, "used_at": signed.used_at}
                    for signed in sessions
                ],
                "seats": [
                    {"code": held.code, "seat": held.seat, "token": held.token}
                    for held in _held(session, account_id)
                ],
            }


def _held(session: Session, account_id: int) -> list[HeldSeat]:
    rows = session.execute(
        select(AccountSeatRow.code, AccountSeatRow.seat, AccountSeatRow.token)
        .where(AccountSeatRow.account_id == account_id)
        .order_by(AccountSeatRow.id)
    ).all()
    return [HeldSeat(code, seat, token) for code, seat, token in rows]


def _referring() -> list[tuple[Table, Column[Any]]]:
    """Every column of the service's tables that refers to ``accounts.id``."""
    accounts_id = AccountRow.__table__.c.id
    return [
        (table, column)
        for table in Base.metadata.sorted_tables
        for column in table.columns
        if any(key.column is accounts_id for key in column.foreign_keys)
    ]
