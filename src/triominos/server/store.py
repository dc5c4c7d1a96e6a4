"""The database: tables, their seats and every accepted action, through SQLAlchemy 2.

The true state of a table is never stored as such: it is rebuilt by replaying the
stored actions on ``Match(rules, players, seed)``, so the rows are few and simple and a
restarted server resumes every table exactly. The same code runs on SQLite (the default,
a file in the user's data directory, in WAL mode) and on PostgreSQL (psycopg 3); the
schema is Alembic's (``migrations/``), upgraded programmatically by :meth:`Store.upgrade`
on every start.

The rest of the service sees plain frozen dataclasses (:class:`TableInfo`,
:class:`SeatInfo`, :class:`StoredAction`), never ORM rows: rows stay inside a session.
Every method of :class:`Store` is synchronous and short; the app calls them from a worker
thread so the event loop never waits on the disk, and stores accepted actions through
:class:`ActionWriter`, which commits the actions of many tables at once.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    Session,
    mapped_column,
    relationship,
    selectinload,
    sessionmaker,
)
from sqlalchemy.sql.expression import ColumnElement, FunctionElement

from triominos.rules import Rules
from triominos.server.metrics import Histogram
from triominos.server.protocol import CHAT_STORED
from triominos.server.timers import DEFAULT_TIMEOUT_ACTION, MoveDays, TimeoutAction, turn_length

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

SeatKind = Literal["person", "bot"]
TableStatus = Literal["waiting", "playing", "finished"]
"""``waiting``: a person seat is still free; ``playing``: every seat is taken;
``finished``: the match is over."""

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Letters and digits that cannot be misread for one another (no 0/O, 1/I/L)."""
CODE_LENGTH = 6


BUSY_SECONDS = 5.0
"""The longest a statement waits for a lock held by another connection: then it fails
(503 with Retry-After) instead of holding its table, or a request, for longer."""
STATEMENT_SECONDS = 15.0
"""The longest any statement may run on PostgreSQL."""
MIGRATION_SECONDS = 120
"""The longest a node waits for another node's migration at its start."""
MIGRATION_LOCK = 0x7472696F6D696E6F
"""The PostgreSQL advisory lock a migration holds ("triomino" in ASCII)."""


class StoreError(ValueError):
    """A database URL this service cannot use, said in words."""


class LeaseLost(RuntimeError):
    """A write under a claim on a table that another claim has replaced since: this
    node no longer owns the table, and nothing was written."""

    def __init__(self, claims: Mapping[int, int | None]) -> None:
        named = ", ".join(f"table {table_id} (epoch {epoch})" for table_id, epoch in claims.items())
        super().__init__(f"a claim is not the table's now, of {named}")
        self.claims = dict(claims)


class StorageFault(RuntimeError):
    """The database cannot be used now: locked, read-only, gone, full or unreachable.

    Never the fault of a player or a bot: the service answers 503 (or ``unavailable``)
    and tries again later. ``kind`` groups faults for the log, which says each kind
    once while it lasts (:class:`triominos.server.service.FaultLog`).
    """

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


_FAULT_KINDS = (
    (
        "locked",
        (
            "database is locked",
            "lock timeout",
            "canceling statement due to lock",
            "could not obtain lock",
        ),
    ),
    ("read_only", ("readonly database", "read-only", "read only")),
    ("full", ("disk is full", "no space left", "could not extend")),
    ("gone", ("no such table", "disk i/o error", "unable to open database")),
    ("timeout", ("statement timeout", "canceling statement due to statement timeout")),
)


def storage_fault(error: BaseException) -> StorageFault:
    """The :class:`StorageFault` a database error means."""
    if isinstance(error, StorageFault):
        return error
    original = getattr(error, "orig", None) or error
    detail = (str(original).strip().splitlines() or [type(original).__name__])[0]
    lowered = detail.lower()
    for kind, phrases in _FAULT_KINDS:
        if any(phrase in lowered for phrase in phrases):
            return StorageFault(kind, detail)
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return StorageFault("unreachable", detail)
    if "connect" in lowered or "server closed" in lowered or "terminating" in lowered:
        return StorageFault("unreachable", detail)
    return StorageFault("error", detail)


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created on first start)."""
    return f"sqlite:///{Path(platformdirs.user_data_dir('triominos')) / 'triominos.db'}"


def engine_url(database_url: str) -> URL:
    """The SQLAlchemy URL for a database URL: ``postgresql://`` goes through psycopg 3."""
    try:
        url = make_url(database_url)
    except ArgumentError:
        raise StoreError(
            f"not a database URL: {database_url!r}; use sqlite:///FILE or postgresql://…"
        ) from None
    if url.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        return url.set(drivername="postgresql+psycopg")
    if url.drivername in ("sqlite", "sqlite+pysqlite"):
        return url
    raise StoreError(
        f"unsupported database {url.drivername!r}: use sqlite:///FILE or postgresql://…"
    )


# --- the schema -----------------------------------------------------------------------


class Base(DeclarativeBase):
    """The declarative base every model of the service is declared on."""


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    preset: Mapped[str] = mapped_column(String(40))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    grace_seconds: Mapped[float] = mapped_column(Float, default=60.0)
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    timeout_action: Mapped[str] = mapped_column(String(8), default="place")
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    move_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A game over days: each move may take this many days (timers.MOVE_DAYS); None: the
    turn timer's ``turn_seconds``, if any."""
    claim_win: Mapped[bool] = mapped_column(Boolean, default=False)
    """A game over days whose idle seat, once its days ran out, is not played for: the
    others may claim the win (RULES.md §13)."""
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    joined_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a person first took a seat after the table was made (None: nobody did)."""
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    ending: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """Among three or more players, the person seats that asked to end the match, in the
    order they asked (RULES.md 16); None: nobody asked."""
    rematch_of: Mapped[int | None] = mapped_column(
        ForeignKey("tables.id"), nullable=True, index=True
    )
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The node that holds the table live in memory, while its lease holds
    (:mod:`triominos.server.nodes`)."""
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Raised by every claim: a write made under an older claim is refused."""
    seats: Mapped[list[SeatRow]] = relationship(order_by="SeatRow.seat")


class NodeRow(Base):
    """A running node (:mod:`triominos.server.nodes`): where the other nodes reach it,
    the secret they prove a proxied request with, and until when its lease on all its
    tables holds (the database's clock, Unix seconds)."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    url: Mapped[str] = mapped_column(String(200))
    secret: Mapped[str] = mapped_column(String(64))
    lease_until: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    think: Mapped[float | None] = mapped_column(Float, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """One chat message, kept with its table: the players' chat or the spectators'."""

    __tablename__ = "chats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[float] = mapped_column(Float)


ChatChannel = Literal["players", "spectators"]


def chat_channel(seat: int | None) -> ChatChannel:
    """The chat a viewer speaks and reads: the players' from a seat, else the spectators'."""
    return "spectators" if seat is None else "players"


def _chat_json(row: ChatRow) -> dict[str, Any]:
    """A kept message as the viewers get it. A spectator's (``seat`` NULL) keeps the
    spectator's number at the table in ``name``, given as ``spectator`` (None for one
    kept before spectators were numbered, or for a seat)."""
    spectator = row.seat is None
    return {
        "seat": row.seat,
        "name": "" if spectator else row.name,
        "spectator": int(row.name) if spectator and row.name.isdigit() else None,
        "text": row.text,
        "at": row.created_at,
    }


# --- what the rest of the service sees --------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: a person (``token_hash`` set once someone sits) or a bot."""

    seat: int
    kind: SeatKind
    name: str
    bot: str | None = None
    think: float | None = None
    token_hash: str | None = field(default=None, repr=False)

    @property
    def taken(self) -> bool:
        """Whether someone plays this seat: a bot, or a person who joined."""
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as stored: everything but its actions.

    ``started_at``: when the table began to play (its last seat was taken, or its
    creation when no seat was free); the turn timer's first turn runs from it. None while
    waiting, and for a table that began before this was stored (migration 0003).
    ``grace_seconds``: how long a person is away before another player may give their
    seat to a bot. ``listed``: shown among the open tables. ``created_by``: a hash of
    the creator's address, which caps how many tables one address keeps waiting, and
    how many tables of bots only it has played at once.
    ``timeout_action``: what the turn timer plays (timers.TimeoutAction). ``hints``:
    whether the players may ask for hints. ``ending``: who asked to end the match, in
    order (among three or more players, RULES.md 16). ``move_days``, ``claim_win``: a
    game over days (:class:`TableRow`).
    """

    id: int
    code: str
    preset: str
    rules: Rules
    players: int
    seed: int
    turn_seconds: float | None
    status: TableStatus
    created_at: float
    finished_at: float | None
    rematch_of: int | None
    seats: tuple[SeatInfo, ...]
    started_at: float | None = None
    grace_seconds: float = 60.0
    listed: bool = False
    created_by: str | None = None
    timeout_action: TimeoutAction = DEFAULT_TIMEOUT_ACTION
    hints: bool = True
    ending: tuple[int, ...] = ()
    move_days: MoveDays | None = None
    claim_win: bool = False

    @property
    def turn_length(self) -> float | None:
        """How long a turn lasts in seconds (None: no clock)."""
        return turn_length(self.turn_seconds, self.move_days)


@dataclass(frozen=True, slots=True)
class StoredAction:
    """An accepted action: the ``version`` it made, who sent it and when."""

    version: int
    seat: int
    client_id: str | None
    action: dict[str, Any]
    created_at: float


class DatabaseNow(FunctionElement[float]):
    """The database's clock in Unix seconds: every node judges a lease by this one
    clock, never by its own."""

    type = Float()
    inherit_cache = True


@compiles(DatabaseNow, "postgresql")
def _postgresql_now(element: DatabaseNow, compiler: Any, **options: Any) -> str:
    # clock_timestamp(), not now(): the time of the statement, not of its transaction.
    return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"


@compiles(DatabaseNow, "sqlite")
def _sqlite_now(element: DatabaseNow, compiler: Any, **options: Any) -> str:
    return "((julianday('now') - 2440587.5) * 86400.0)"


def fence(connection: Connection, claims: Mapping[int, int | None]) -> None:
    """In a write's transaction: go on only while each table's claim is still the epoch
    given (table id to epoch; None: no claim to check, a tool or a test writing alone),
    else :class:`LeaseLost` (for several, one of them at least is lost).

    The UPDATE locks the tables' rows until the commit, so a claim made meanwhile waits
    for this write, and a write after a claim sees the new epoch: the database, not
    timing, decides which node writes. One statement for all the tables of a group
    commit, so that the actions' rows are still inserted together.
    """
    checked = [(table_id, epoch) for table_id, epoch in claims.items() if epoch is not None]
    if not checked:
        return
    held = connection.execute(
        _FENCE, {"ids": [table_id for table_id, _ in checked], "claims": checked}
    )
    if held.rowcount != len(checked):
        raise LeaseLost(dict(checked))


_FENCE = (
    update(TableRow)
    .where(
        TableRow.id.in_(bindparam("ids", expanding=True)),
        tuple_(TableRow.id, TableRow.epoch).in_(bindparam("claims", expanding=True)),
    )
    .values(epoch=TableRow.epoch)
)
""":func:`fence`'s statement, made once: SQLAlchemy compiles it once too (its lists are
parameters), where a statement built for each write was built, keyed and looked up
again at every action. The ids alone first: SQLite finds the rows by their key for an
``IN`` list of ids, but scans the whole table for one of (id, epoch) pairs."""


def _started(session: Session, table_id: int) -> None:
    """The table begins to play now, on the database's clock: the one its turns are
    timed by, whichever node holds it (:attr:`triominos.server.nodes.Leases.offset`)."""
    session.execute(
        update(TableRow)
        .where(TableRow.id == table_id)
        .values(started_at=DatabaseNow())
        .execution_options(synchronize_session=False)
    )


def leased() -> ColumnElement[bool]:
    """Nodes whose lease holds now."""
    return NodeRow.lease_until >= DatabaseNow()


def unowned() -> ColumnElement[bool]:
    """Tables no node holds: never claimed, released, or whose owner's lease ran out
    (the owner died, or could not renew)."""
    alive = select(NodeRow.id).where(NodeRow.id == TableRow.owner, leased()).exists()
    return TableRow.owner.is_(None) | ~alive


def _table_info(row: TableRow) -> TableInfo:
    return TableInfo(
        id=row.id,
        code=row.code,
        preset=row.preset,
        rules=Rules.from_dict(row.rules),
        players=row.players,
        seed=row.seed,
        turn_seconds=row.turn_seconds,
        status=row.status,  # type: ignore[arg-type]  # only the store writes it
        created_at=row.created_at,
        finished_at=row.finished_at,
        rematch_of=row.rematch_of,
        started_at=row.started_at,
        grace_seconds=row.grace_seconds,
        listed=row.listed,
        created_by=row.created_by,
        timeout_action=row.timeout_action,  # type: ignore[arg-type]  # only the store writes it
        hints=row.hints,
        ending=tuple(row.ending or ()),
        move_days=row.move_days,  # type: ignore[arg-type]  # only the store writes it
        claim_win=row.claim_win,
        seats=tuple(
            SeatInfo(
                seat.seat,
                seat.kind,  # type: ignore[arg-type]  # only the store writes it
                seat.name,
                seat.bot,
                seat.think,
                seat.token_hash,
            )
            for seat in row.seats
        ),
    )


def _status(seats: Sequence[SeatRow]) -> TableStatus:
    free = any(seat.kind == "person" and seat.token_hash is None for seat in seats)
    return "waiting" if free else "playing"


# --- the store ------------------------------------------------------------------------


class Store:
    """The database of one service: create, read and change tables, append actions.

    ``engine`` and :data:`Base` ``.metadata`` are public so that other parts of the
    service (the score pad) keep their own models in the same database.
    """

    def __init__(self, database_url: str) -> None:
        url = engine_url(database_url)
        self.url = url
        if url.get_backend_name() == "sqlite":
            if url.database and url.database != ":memory:":
                folder = Path(url.database).expanduser().parent
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise StoreError(
                        f"cannot make the folder {folder} for the database: "
                        f"{error.strerror or error}"
                    ) from None
            self.engine: Engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": BUSY_SECONDS}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            lock, statement = int(BUSY_SECONDS * 1000), int(STATEMENT_SECONDS * 1000)
            self.engine = create_engine(
                url,
                pool_pre_ping=True,
                pool_timeout=BUSY_SECONDS,
                connect_args={
                    "connect_timeout": int(BUSY_SECONDS),
                    "options": f"-c lock_timeout={lock} -c statement_timeout={statement}",
                },
            )
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.commits = Histogram()
        """How long the accepted actions' commits took (``GET /metrics``)."""
        self._file = self._database_file()
        self._identity: tuple[int, int] | None = None

    def __repr__(self) -> str:
        return f"<Store {self.url.render_as_string(hide_password=True)}>"

    def upgrade(self, revision: str = "head") -> None:
        """Bring the schema to the newest migration (every start; a no-op when current),
        or up to an older ``revision`` (how a database of an older release is made)."""
        self._migrate(command.upgrade, revision)

    def downgrade(self, revision: str) -> None:
        """Take the schema back to ``revision``, undoing the newer migrations."""
        self._migrate(command.downgrade, revision)

    def _migrate(self, step: Callable[[Config, str], None], revision: str) -> None:
        """Several nodes starting at once migrate one after the other: on PostgreSQL
        each waits for a lock of the migration's own (SQLite takes one writer anyway).
        On SQLite the references are checked once migrations ran, as they were not
        enforced meanwhile (:func:`_migration_transaction`)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.connect() as connection, _migration_transaction(connection):
            if connection.dialect.name == "postgresql":
                for setting in ("lock_timeout", "statement_timeout"):
                    connection.execute(text(f"SET LOCAL {setting} = '{MIGRATION_SECONDS}s'"))
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            before = MigrationContext.configure(connection).get_current_revision()
            config.attributes["connection"] = connection
            step(config, revision)
            after = MigrationContext.configure(connection).get_current_revision()
            if connection.dialect.name == "sqlite" and after != before:
                _check_references(connection)

    def dispose(self) -> None:
        self.engine.dispose()

    def _database_file(self) -> Path | None:
        database = self.url.database
        if self.url.get_backend_name() != "sqlite" or not database or database == ":memory:":
            return None
        return Path(database).expanduser().resolve()

    def _check_file(self) -> None:
        """A SQLite file that was removed or replaced under the server is a fault.

        SQLite keeps writing to a deleted file through the connections that have it
        open, and every commit "succeeds" into a file nobody will ever open again: so
        the file must still be the one the server started on, before and after a write.
        """
        if self._file is None:
            return
        try:
            stat = self._file.stat()
        except OSError as error:
            if self._identity is None:
                return  # not made yet: the first connection makes it
            raise StorageFault(
                "gone", f"the database file {self._file}: {error.strerror}"
            ) from None
        identity = (stat.st_dev, stat.st_ino)
        if self._identity is None:
            self._identity = identity
        elif identity != self._identity:
            raise StorageFault("gone", f"the database file {self._file} was replaced")

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction; a database error leaves it as a :class:`StorageFault`, except
        the constraint violations that callers act on (:class:`IntegrityError`)."""
        with self._faults(), self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """:meth:`session` without the ORM, for the accepted actions' writes: the ORM's
        unit of work, and its evaluation of an UPDATE's criteria against the objects
        in the session, cost the event loop's process more than the statements did."""
        with self._faults(), self.engine.begin() as connection:
            yield connection

    @contextmanager
    def _faults(self) -> Iterator[None]:
        """Around a transaction: the database file checked before and after it, a
        database error raised as a :class:`StorageFault` (but :class:`IntegrityError`)."""
        self._check_file()
        try:
            yield
        except IntegrityError:
            raise
        except SQLAlchemyError as error:
            raise storage_fault(error) from None
        self._check_file()

    def check_writable(self) -> None:
        """Write, commit and read back, or raise StorageFault: the start-up check and
        the readiness probe. Also: the schema is the newest migration's, and on
        PostgreSQL nobody holds a lock that would stop the tables' writes (a ``LOCK
        TABLE`` froze every table while this probe's own write went through)."""
        with self.session() as session:
            if self.engine.dialect.name == "postgresql":
                session.execute(
                    text("LOCK TABLE tables, seats, actions, chats IN ROW EXCLUSIVE MODE NOWAIT")
                )
            version = session.execute(
                text("UPDATE alembic_version SET version_num = version_num")
            ).rowcount  # type: ignore[attr-defined]
            if version != 1:
                raise StorageFault("schema", "the database has no migration applied")
            current = session.scalar(text("SELECT version_num FROM alembic_version"))
        if current != head_revision():
            raise StorageFault("schema", f"the schema is at {current}, not {head_revision()}")

    # --- tables ---------------------------------------------------------------------

    def create_table(
        self,
        *,
        preset: str,
        rules: Rules,
        players: int,
        seed: int,
        turn_seconds: float | None,
        seats: Sequence[SeatInfo],
        rematch_of: int | None = None,
        grace_seconds: float = 60.0,
        listed: bool = False,
        created_by: str | None = None,
        timeout_action: TimeoutAction = DEFAULT_TIMEOUT_ACTION,
        hints: bool = True,
        owner: str | None = None,
        move_days: MoveDays | None = None,
        claim_win: bool = False,
    ) -> TableInfo:
        """A new table with a fresh short code (retried on the rare collision); it starts
        playing at once when no person seat is free. ``owner``: the node that made it
        holds it from the start (no other node takes a new table of bots up first)."""
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            seat_rows = [
                SeatRow(
                    seat=seat.seat,
                    kind=seat.kind,
                    bot=seat.bot,
                    think=seat.think,
                    name=seat.name,
                    token_hash=seat.token_hash,
                )
                for seat in seats
            ]
            now = time.time()
            status = _status(seat_rows)
            row = TableRow(
                code=code,
                preset=preset,
                rules=rules.to_dict(),
                players=players,
                seed=seed,
                turn_seconds=turn_seconds,
                grace_seconds=grace_seconds,
                listed=listed,
                created_by=created_by,
                timeout_action=timeout_action,
                hints=hints,
                move_days=move_days,
                claim_win=claim_win,
                status=status,
                created_at=now,
                rematch_of=rematch_of,
                owner=owner,
                seats=seat_rows,
            )
            try:
                with self.session() as session:
                    session.add(row)
                    if status == "playing":
                        session.flush()
                        _started(session, row.id)
            except IntegrityError:
                continue  # the code was taken: draw another
            found = self.table(code)
            assert found is not None  # just committed
            return found
        raise RuntimeError("no free table code after 20 tries")

    def table(self, code: str) -> TableInfo | None:
        with self.session() as session:
            row = session.scalar(
                select(TableRow).where(TableRow.code == code).options(selectinload(TableRow.seats))
            )
            return None if row is None else _table_info(row)

    def tables(self, *, open_only: bool, limit: int = 50) -> list[TableInfo]:
        """The newest listed tables first (their creators listed them; the codes of the
        others are secrets); ``open_only``: those with a free person seat."""
        query = select(TableRow).options(selectinload(TableRow.seats))
        query = query.where(TableRow.listed.is_(True))
        if open_only:
            query = query.where(TableRow.status == "waiting")
        query = query.order_by(TableRow.created_at.desc(), TableRow.id.desc()).limit(limit)
        with self.session() as session:
            return [_table_info(row) for row in session.scalars(query)]

    def waiting_counts(self, created_by: str) -> tuple[int, int]:
        """Tables waiting for players: those ``created_by`` made, and all of them."""
        waiting = select(func.count()).select_from(TableRow).where(TableRow.status == "waiting")
        with self.session() as session:
            mine = session.scalar(waiting.where(TableRow.created_by == created_by)) or 0
            every = session.scalar(waiting) or 0
        return mine, every

    def bot_tables_playing(self, created_by: str) -> int:
        """Tables of bots only that ``created_by`` made and that are still played."""
        person = select(SeatRow.id).where(SeatRow.table_id == TableRow.id, SeatRow.kind == "person")
        query = (
            select(func.count())
            .select_from(TableRow)
            .where(
                TableRow.status == "playing",
                TableRow.created_by == created_by,
                ~person.exists(),
            )
        )
        with self.session() as session:
            return session.scalar(query) or 0

    def expire_waiting(self, unjoined_before: float, joined_before: float) -> list[str]:
        """Delete the tables still waiting for players that were made before
        ``unjoined_before`` and nobody joined, or before ``joined_before``, but those a
        node holds live (someone may be watching them there), and return their codes:
        nobody played at them (a waiting table has no actions), and nothing of them is
        lost but the code."""
        made = TableRow.created_at
        old = (made < joined_before) | (TableRow.joined_at.is_(None) & (made < unjoined_before))
        return self._delete_waiting((TableRow.status == "waiting") & old & unowned())

    def evict_waiting(self, node: str, keep: Collection[int]) -> str | None:
        """Make room for a new waiting table when the server holds as many as it takes:
        delete the oldest table nobody joined of the creator who holds the most of them
        (on a tie, the one whose table is oldest), but tables another node holds and the
        tables ``keep`` (watched here); its code, or None when no table may go.

        A flood of waiting tables from many addresses then costs its own oldest tables,
        and a new creator is never refused for what others hold."""
        mine = (TableRow.owner == node) | unowned()
        evictable = (
            (TableRow.status == "waiting")
            & TableRow.joined_at.is_(None)
            & TableRow.created_by.is_not(None)
            & mine
        )
        if keep:
            evictable &= TableRow.id.not_in(keep)
        with self.session() as session:
            holder = session.scalar(
                select(TableRow.created_by)
                .where(evictable)
                .group_by(TableRow.created_by)
                .order_by(func.count().desc(), func.min(TableRow.created_at))
                .limit(1)
            )
            if holder is None:
                return None
            oldest = session.scalar(
                select(TableRow.id)
                .where(evictable & (TableRow.created_by == holder))
                .order_by(TableRow.created_at, TableRow.id)
                .limit(1)
            )
        codes = self._delete_waiting(evictable & (TableRow.id == oldest))
        return codes[0] if codes else None

    def _delete_waiting(self, which: ColumnElement[bool]) -> list[str]:
        """Delete the waiting tables ``which`` selects, their seats and chat; their codes."""
        with self.session() as session:
            rows = session.execute(select(TableRow.id, TableRow.code).where(which)).all()
            ids = [row.id for row in rows]
            if ids:
                session.execute(
                    update(TableRow).where(TableRow.rematch_of.in_(ids)).values(rematch_of=None)
                )
                session.execute(delete(ChatRow).where(ChatRow.table_id.in_(ids)))
                session.execute(delete(SeatRow).where(SeatRow.table_id.in_(ids)))
                session.execute(delete(TableRow).where(TableRow.id.in_(ids)))
        return [row.code for row in rows]

    # --- chat -----------------------------------------------------------------------

    def add_chat(
        self,
        table_id: int,
        channel: ChatChannel,
        seat: int | None,
        name: str,
        text: str,
        *,
        epoch: int | None = None,
    ) -> dict[str, Any]:
        """Keep a chat message, under the owner's claim ``epoch`` (:func:`fence`); the
        message as the viewers get it."""
        row = ChatRow(
            table_id=table_id,
            channel=channel,
            seat=seat,
            name=name,
            text=text,
            created_at=time.time(),
        )
        with self.session() as session:
            fence(session.connection(), {table_id: epoch})
            session.add(row)
            session.flush()
            kept = (
                select(ChatRow.id)
                .where(ChatRow.table_id == table_id, ChatRow.channel == channel)
                .order_by(ChatRow.id.desc())
                .offset(CHAT_STORED)
                .limit(1)
                .scalar_subquery()
            )
            session.execute(
                delete(ChatRow).where(
                    ChatRow.table_id == table_id, ChatRow.channel == channel, ChatRow.id <= kept
                )
            )
            return _chat_json(row)

    def forget_chat(self, finished_before: float) -> int:
        """Delete the chat of the tables finished before that time; how many messages."""
        old = select(TableRow.id).where(
            TableRow.status == "finished", TableRow.finished_at < finished_before
        )
        with self.session() as session:
            deleted = session.execute(delete(ChatRow).where(ChatRow.table_id.in_(old)))
            return int(deleted.rowcount)  # type: ignore[attr-defined]

    def chats(self, table_id: int, channel: ChatChannel, last: int) -> list[dict[str, Any]]:
        """The ``last`` messages of a table's chat, oldest first."""
        query = (
            select(ChatRow)
            .where(ChatRow.table_id == table_id, ChatRow.channel == channel)
            .order_by(ChatRow.id.desc())
            .limit(last)
        )
        with self.session() as session:
            return [_chat_json(row) for row in reversed(session.scalars(query).all())]

    def rematch_code(self, table_id: int) -> str | None:
        """The code of the table created as this one's rematch, if any."""
        query = select(TableRow.code).where(TableRow.rematch_of == table_id).limit(1)
        with self.session() as session:
            return session.scalar(query)

    # --- seats ----------------------------------------------------------------------

    def take_seat(
        self,
        table_id: int,
        seat: int | None,
        name: str,
        token_hash: str,
        *,
        epoch: int | None = None,
    ) -> tuple[int, TableInfo] | None:
        """Sit at a free person seat (the first free one when ``seat`` is None).

        Returns the seat taken and the table after, or None when that seat (or every
        seat) is taken. The update is conditional, so two people racing for one seat
        cannot both get it; ``epoch``: the owner's claim it is made under (:func:`fence`).
        """
        with self.session() as session:
            fence(session.connection(), {table_id: epoch})
            query = select(SeatRow.seat).where(
                SeatRow.table_id == table_id,
                SeatRow.kind == "person",
                SeatRow.token_hash.is_(None),
            )
            if seat is not None:
                query = query.where(SeatRow.seat == seat)
            for candidate in session.scalars(query.order_by(SeatRow.seat)).all():
                taken = session.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.table_id == table_id,
                        SeatRow.seat == candidate,
                        SeatRow.token_hash.is_(None),
                    )
                    .values(name=name, token_hash=token_hash)
                )
                if taken.rowcount == 1:  # type: ignore[attr-defined]
                    session.execute(
                        update(TableRow)
                        .where(TableRow.id == table_id, TableRow.joined_at.is_(None))
                        .values(joined_at=time.time())
                    )
                    self._refresh_status(session, table_id)
                    return candidate, self._info(session, table_id)
        return None

    def give_seat_to_bot(
        self,
        table_id: int,
        seat: int,
        bot: str,
        think: float | None,
        token_hash: str | None,
        *,
        epoch: int | None = None,
    ) -> TableInfo | None:
        """A bot plays the person seat from now on, if its person is still the one
        ``token_hash`` names (None: nobody sat there yet); None when that changed.

        The update is conditional, so a join racing the handover and the handover
        cannot both win. The person's token still shows the seat, and takes it back
        (:meth:`reclaim_seat`).
        """
        person = (
            SeatRow.token_hash.is_(None) if token_hash is None else SeatRow.token_hash == token_hash
        )
        changed = (SeatRow.kind == "person", person)
        return self._change_seat(table_id, seat, changed, epoch, kind="bot", bot=bot, think=think)

    def reclaim_seat(
        self, table_id: int, seat: int, token_hash: str, *, epoch: int | None = None
    ) -> TableInfo | None:
        """The person whose token sits at a seat a bot plays takes it back; None when
        the seat is not such a seat (any more)."""
        changed = (SeatRow.kind == "bot", SeatRow.token_hash == token_hash)
        return self._change_seat(
            table_id, seat, changed, epoch, kind="person", bot=None, think=None
        )

    def ask_to_end(
        self, table_id: int, seats: Sequence[int], *, epoch: int | None = None
    ) -> TableInfo:
        """Keep who asked to end the match, in order, under the owner's claim ``epoch``
        (:func:`fence`): a restart or another node keeps the request; the table after."""
        with self.session() as session:
            fence(session.connection(), {table_id: epoch})
            session.execute(
                update(TableRow).where(TableRow.id == table_id).values(ending=list(seats))
            )
            return self._info(session, table_id)

    def _change_seat(
        self,
        table_id: int,
        seat: int,
        only_if: Sequence[Any],
        epoch: int | None,
        **values: object,
    ) -> TableInfo | None:
        """Change a seat only while it is as ``only_if`` says, under the owner's claim
        ``epoch`` (:func:`fence`); the table after, or None."""
        with self.session() as session:
            fence(session.connection(), {table_id: epoch})
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, *only_if)
                .values(**values)
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                return None
            self._refresh_status(session, table_id)
            return self._info(session, table_id)

    def _refresh_status(self, session: Session, table_id: int) -> None:
        """The status after a seat changed; the moment the last seat fills is kept."""
        row = session.get(TableRow, table_id)
        assert row is not None
        session.refresh(row, ["seats"])
        if row.status == "waiting" and _status(row.seats) == "playing":
            row.status = "playing"
            session.flush()
            _started(session, table_id)

    def _info(self, session: Session, table_id: int) -> TableInfo:
        session.flush()
        row = session.get(TableRow, table_id)
        assert row is not None
        session.refresh(row)
        session.refresh(row, ["seats"])
        return _table_info(row)

    # --- actions --------------------------------------------------------------------

    def append_action(
        self, table_id: int, action: StoredAction, *, finished: bool, epoch: int | None = None
    ) -> None:
        """Write one accepted action (and, when it ended the match, the table's end).

        One transaction: when this returns, the action survives a crash. A second
        action with the same version violates the unique constraint and raises; one
        made under a claim that is not the table's now raises :class:`LeaseLost`.
        """
        with self.connection() as connection:
            _add_actions(connection, [ActionWrite(table_id, action, finished, epoch)])

    def append_actions(self, writes: Sequence[ActionWrite]) -> list[Exception | None]:
        """Write accepted actions of any tables in one transaction: one commit for all.

        Returns, for each write, None once it is committed or the error that kept it
        out. A table whose row another transaction holds (PostgreSQL) is left out at
        once, not waited for: its write gets :class:`TableBusy`, to be made alone
        (:meth:`append_alone`), so that one table's lock never holds up the others'
        moves (a row held 30 s made every table of the node wait 10.4 s between moves).
        When the one transaction fails, each write is tried alone, so that a write that
        cannot be made fails only its own action; but not when storage itself failed (a
        lock on a whole table or file, a full or read-only disk): the whole database is
        at fault, and trying each write again only made every sender wait out the lock
        once more (10 s for one table, 25 s for three, where PROTOCOL.md says 5).
        """
        busy: set[int] = set()
        try:
            with self._commit() as connection:
                busy = _busy_tables(connection, {write.table_id for write in writes})
                _add_actions(connection, [write for write in writes if write.table_id not in busy])
        except StorageFault as fault:
            return [fault] * len(writes)
        except Exception:
            return [self.append_alone(write) for write in writes]
        return [TableBusy(write.table_id) if write.table_id in busy else None for write in writes]

    def append_alone(self, write: ActionWrite) -> Exception | None:
        """Write one action in a transaction of its own, waiting for its table's row as
        long as any statement waits for a lock (:data:`BUSY_SECONDS`); the error that
        kept it out, or None."""
        try:
            with self._commit() as connection:
                _add_actions(connection, [write])
        except Exception as error:
            return error
        return None

    @contextmanager
    def _commit(self) -> Iterator[Connection]:
        """:meth:`connection` for the actions' writes, timed into :attr:`commits` when it
        commits."""
        started = time.monotonic()
        with self.connection() as connection:
            yield connection
        self.commits.observe(time.monotonic() - started)

    def actions(self, table_id: int) -> list[StoredAction]:
        """Every accepted action of a table, by version."""
        query = select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.version)
        with self.session() as session:
            return [
                StoredAction(row.version, row.seat, row.client_id, row.action, row.created_at)
                for row in session.scalars(query)
            ]


class TableBusy(StorageFault):
    """A table's row was held by another transaction when a group commit came to it:
    its write was left out of the group, to be made alone."""

    def __init__(self, table_id: int) -> None:
        super().__init__("locked", f"the row of table {table_id} is held by another transaction")
        self.table_id = table_id


class ActionWrite(NamedTuple):
    """One accepted action to store; ``finished``: it ended the match; ``epoch``: the
    claim of the node that accepted it (:func:`fence`)."""

    table_id: int
    action: StoredAction
    finished: bool
    epoch: int | None = None


def _busy_tables(connection: Connection, table_ids: Collection[int]) -> set[int]:
    """Lock the tables' rows for this transaction, skipping those another transaction
    holds (PostgreSQL's ``SKIP LOCKED``): the ids skipped, which the caller leaves out
    rather than wait for. SQLite locks the whole file and has no row to skip: none."""
    if connection.dialect.name == "sqlite":
        return set()
    locked = connection.scalars(_LOCK_TABLES, {"ids": list(table_ids)})
    return set(table_ids) - set(locked)


_LOCK_TABLES = (
    select(TableRow.id)
    .where(TableRow.id.in_(bindparam("ids", expanding=True)))
    .with_for_update(skip_locked=True)
)


def _add_actions(connection: Connection, writes: Sequence[ActionWrite]) -> None:
    if not writes:  # every table of a group commit was busy
        return
    claims: dict[int, int | None] = {}
    for write in writes:
        if claims.setdefault(write.table_id, write.epoch) != write.epoch:
            # Two claims of one table in a batch: one is stale (each alone tells which).
            raise LeaseLost({write.table_id: write.epoch})
    fence(connection, claims)
    connection.execute(
        insert(ActionRow),
        [
            {
                "table_id": write.table_id,
                "version": write.action.version,
                "seat": write.action.seat,
                "client_id": write.action.client_id,
                "action": write.action.action,
                "created_at": write.action.created_at,
            }
            for write in writes
        ],
    )
    for write in writes:
        if write.finished:
            connection.execute(
                update(TableRow)
                .where(TableRow.id == write.table_id)
                .values(status="finished", finished_at=write.action.created_at)
            )


class ActionWriter:
    """Stores accepted actions for the event loop, many to a commit (group commit).

    A commit costs the same for one action as for fifty (on PostgreSQL, a flush to
    disk), and a hop to a worker thread costs the event loop time too. So actions wait
    here while the one write in progress runs, and the next write takes all of them in
    one transaction. :meth:`append` still returns only once its own action is committed:
    nobody hears of an action before it is stored.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: list[tuple[ActionWrite, asyncio.Future[None]]] = []
        self._writing: asyncio.Task[None] | None = None
        self._alone: set[asyncio.Task[None]] = set()
        """Writes being made alone (:meth:`_write_alone`), kept from the collector."""

    async def append(self, write: ActionWrite) -> None:
        """Store the action; returns once it is committed, raises what kept it out."""
        stored = asyncio.get_running_loop().create_future()
        self._waiting.append((write, stored))
        if self._writing is None:
            self._writing = asyncio.create_task(self._write_all())
        await stored

    async def _write_all(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    errors = await asyncio.to_thread(
                        self.store.append_actions, [write for write, _ in batch]
                    )
                except Exception as failure:  # each sender hears of it
                    errors = [failure] * len(batch)
                for (write, stored), error in zip(batch, errors, strict=True):
                    if isinstance(error, TableBusy):
                        alone = asyncio.create_task(self._write_alone(write, stored))
                        self._alone.add(alone)
                        alone.add_done_callback(self._alone.discard)
                    else:
                        _settle(stored, error)
        finally:
            self._writing = None

    async def _write_alone(self, write: ActionWrite, stored: asyncio.Future[None]) -> None:
        """A write whose table's row was held: made in a thread of its own while the
        group commits go on for the other tables. The service writes a table's actions
        one at a time (under the table's lock), so no later write of this table can
        overtake it."""
        _settle(stored, await asyncio.to_thread(self.store.append_alone, write))


def _settle(stored: asyncio.Future[None], error: Exception | None) -> None:
    """Tell the sender waiting on ``stored`` that its write is committed, or why not."""
    if stored.done():
        return
    if error is None:
        stored.set_result(None)
    else:
        stored.set_exception(error)


@functools.cache
def head_revision() -> str:
    """The newest migration's revision: what :meth:`Store.upgrade` brings a schema to."""
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@contextmanager
def _migration_transaction(connection: Connection) -> Iterator[None]:
    """The transaction the migrations run in. On SQLite, two things more:

    - It holds the schema's changes too: the driver would begin a transaction only
      before a row's change, so a migration that failed half-way left the tables it
      had made so far, in the way of its next try.
    - The foreign keys are not enforced in it, as SQLite's own procedure for changing
      a table says: SQLite changes a table by making it again (alembic's batch mode),
      and a table that others refer to cannot be dropped for its copy while they are.
    """
    if connection.dialect.name != "sqlite":
        with connection.begin():
            yield
        return
    connection.execution_options(isolation_level="AUTOCOMMIT")  # BEGIN is ours to say
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # SQLite ignores it in a transaction
    connection.commit()
    try:
        with connection.begin():
            connection.exec_driver_sql("BEGIN")
            yield
    finally:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()


def _check_references(connection: Connection) -> None:
    """Raise :class:`StorageFault` ``schema`` when a row of the SQLite database refers
    to a row that is not there (what a migration must never leave)."""
    dangling = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
    if dangling is not None:
        table, rowid, parent, _ = dangling
        raise StorageFault(
            "schema", f"row {rowid} of {table} refers to a row of {parent} that is not there"
        )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), durable against a crashed process."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
