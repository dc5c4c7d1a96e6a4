"""The ratings of rated matches in the service's database (tables of migration
``0014_ratings``), and :meth:`RatingStore.rate_finished`, the one call that rates a finished table.

A player is an account id (the accounts' table is another part of the service: these
rows keep its id without a foreign key). ``ratings`` holds each player's rating per pool
as it was after their last rated match there; ``rating_history`` one row per player and
rated match, for the graph; ``rated_tables`` one row per finished rated table, rated or
refused, which is what makes rating a table once only: the second call, on this node or
another, finds the row and changes nothing. A table created rated gets its row at once,
``pending`` until it finishes: that row is what makes a table rated (:meth:`RatingStore.rated`),
so the tables' own rows need no column for it.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Float, Index, Integer, String, cast, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, QueryableAttribute, Session, mapped_column

from triominos.glicko import Rating
from triominos.ratings import (
    ACTIVE_SECONDS,
    Pool,
    RatedMatchError,
    Seat,
    aged,
    pool_of,
    rated,
    unrated_because,
)
from triominos.server.account_names import NEUTRAL_NAME
from triominos.server.account_store import AccountRow, AccountSeatRow
from triominos.server.store import Base, Store, TableRow
from triominos.server.trace_store import TraceStore

PLAYER_LENGTH = 64
"""The longest player (account) id the rows keep."""
CODE_LENGTH = 12
"""The longest table code (as the tables' own rows keep it)."""
HISTORY_ROWS = 1000
"""The newest rows of a player's history that :meth:`RatingStore.player` returns."""
PENDING = "pending"
"""The outcome of a rated table that has not finished yet."""
NO_ACCOUNT = "no_account"
"""The outcome of a rated table one of whose people seats is in no account at its end
(the account was deleted meanwhile): nobody's rating moves."""
TURN_ENDS = ("place", "pass")
"""The actions that end a seat's turn: what counts the rounds a match had (its draws,
starter draws and a resignation are no turn of their own)."""


class RatingRow(Base):
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_pool_rating", "pool", "rating"),)

    player: Mapped[str] = mapped_column(String(PLAYER_LENGTH), primary_key=True)
    pool: Mapped[str] = mapped_column(String(24), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    played_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(PLAYER_LENGTH), index=True)
    pool: Mapped[str] = mapped_column(String(24))
    table_code: Mapped[str] = mapped_column(String(CODE_LENGTH))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    played_at: Mapped[float] = mapped_column(Float)


class RatedTableRow(Base):
    __tablename__ = "rated_tables"

    code: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    pool: Mapped[str] = mapped_column(String(24))
    outcome: Mapped[str] = mapped_column(String(16))
    """``rated``, or why not (:func:`triominos.ratings.unrated_because`, :data:`NO_ACCOUNT`),
    or :data:`PENDING` while the table plays."""
    rated_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class TableResult:
    """A rated table that finished: its code and preset, its seats (accounts and bot
    levels, with their totals), and the rounds played (the turns every seat had)."""

    code: str
    preset: str
    seats: Sequence[Seat]
    rounds: int

    def __post_init__(self) -> None:
        if not 0 < len(self.code) <= CODE_LENGTH:
            raise RatedMatchError(f"a table code is 1 to {CODE_LENGTH} characters: {self.code!r}")
        for seat in self.seats:
            if not 0 < len(seat.player) <= PLAYER_LENGTH:
                raise RatedMatchError(
                    f"a player id is 1 to {PLAYER_LENGTH} characters: {seat.player!r}"
                )
        if self.rounds < 0:
            raise RatedMatchError(f"rounds is a count of turns, not {self.rounds}")


@dataclass(frozen=True, slots=True)
class Finished:
    """A rated table's end as the live table knows it: each seat's total, the seat that
    resigned, which seats a bot played (its level; None for a person's seat), and when
    it ended (what the window of :data:`~triominos.ratings.SHARED_SECONDS` ends at)."""

    code: str
    table_id: int
    preset: str
    totals: Sequence[int]
    resigned: int | None
    bots: Sequence[str | None]
    ended_at: float


@dataclass(frozen=True, slots=True)
class Change:
    """A player's rating before and after a rated match."""

    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class RatedTable:
    """What rating a table did: its pool, why it moved no rating (None when it did),
    and each person's change."""

    pool: Pool
    unrated: str | None
    changes: dict[str, Change]


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """What became of a rated table: its pool, ``rated`` or why not (or :data:`PENDING`
    while it plays), and when that was decided (when it was created, while pending)."""

    code: str
    pool: Pool
    outcome: str
    at: float


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's current rating in a pool: as stored, widened by the time since."""

    player: str
    pool: Pool
    rating: Rating
    games: int
    played_at: float


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's rating after one rated match."""

    pool: Pool
    table: str
    rating: Rating
    played_at: float


def _rate(session: Session, result: TableResult, now: float) -> RatedTable | None:
    """:meth:`RatingStore.rate_finished` in ``session``'s transaction; raises
    IntegrityError when another transaction rated the table or wrote a player's first
    rating in the pool meanwhile."""
    pool = pool_of(result.preset, result.seats)
    unrated = unrated_because(result.seats, result.rounds)
    if not _settle(session, result.code, pool, unrated or "rated", now):
        return None
    if unrated is not None:
        return RatedTable(pool, unrated, {})
    people = sorted(seat.player for seat in result.seats if not seat.bot)
    rows = {
        row.player: row
        for row in session.scalars(
            select(RatingRow)
            .where(RatingRow.pool == pool.key, RatingRow.player.in_(people))
            .order_by(RatingRow.player)  # one order of locks on every node: no deadlock
            .with_for_update()
        )
    }
    before = {
        player: _current(rows[player], now) if player in rows else Rating() for player in people
    }
    after = rated(result.seats, before)
    for player in people:
        rating = after[player]
        row = rows.get(player)
        if row is None:
            row = RatingRow(player=player, pool=pool.key, games=0)
            session.add(row)
        row.rating, row.deviation, row.volatility = (
            rating.rating,
            rating.deviation,
            rating.volatility,
        )
        row.games += 1
        row.played_at = now
        session.add(
            RatingHistoryRow(
                player=player,
                pool=pool.key,
                table_code=result.code,
                rating=rating.rating,
                deviation=rating.deviation,
                played_at=now,
            )
        )
    return RatedTable(
        pool, None, {player: Change(before[player], after[player]) for player in people}
    )


def _settle(session: Session, code: str, pool: Pool, outcome: str, now: float) -> bool:
    """Write the table's outcome; False when it was rated (or refused) before. The
    pending row is locked, so a second rating of the table waits here and then finds it
    settled; a table without one (rated directly) inserts it, and a second insert fails."""
    row = session.get(RatedTableRow, code, with_for_update=True)
    if row is not None and row.outcome != PENDING:
        return False
    if row is None:
        session.add(RatedTableRow(code=code, pool=pool.key, outcome=outcome, rated_at=now))
    else:
        row.pool, row.outcome, row.rated_at = pool.key, outcome, now
    session.flush()
    return True


def _current(row: RatingRow, now: float) -> Rating:
    return aged(Rating(row.rating, row.deviation, row.volatility), now - row.played_at)


def _account_of(player: str | QueryableAttribute[str]) -> ColumnElement[bool]:
    """The account whose id ``player`` is (a rating's player is an account's id as text)."""
    return cast(AccountRow.id, String) == player


def _player_rating(row: RatingRow, now: float) -> PlayerRating:
    return PlayerRating(
        row.player, Pool.from_key(row.pool), _current(row, now), row.games, row.played_at
    )


class RatingStore:
    """The ratings' part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._session = store.session  # its faults are StorageFaults: 503, try again
        self._traces = TraceStore(store)

    def register(self, code: str, pool: Pool, now: float) -> None:
        """Make a new table rated: its :data:`PENDING` row."""
        with self._session() as session:
            session.add(RatedTableRow(code=code, pool=pool.key, outcome=PENDING, rated_at=now))

    def rated(self, code: str) -> bool:
        """Whether the table was created rated."""
        with self._session() as session:
            return session.get(RatedTableRow, code) is not None

    def outcome(self, code: str) -> TableOutcome | None:
        """What became of a table created rated; None for any other table."""
        with self._session() as session:
            row = session.get(RatedTableRow, code)
            if row is None:
                return None
            return TableOutcome(row.code, Pool.from_key(row.pool), row.outcome, row.rated_at)

    def pending_finished(self) -> list[str]:
        """The codes of the rated tables that finished and are not rated yet: their
        rating failed, or their node stopped first (:meth:`Service.rate_pending`)."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(RatedTableRow.code)
                    .join(TableRow, TableRow.code == RatedTableRow.code)
                    .where(RatedTableRow.outcome == PENDING, TableRow.status == "finished")
                    .order_by(RatedTableRow.code)
                )
            )

    def rate_table(self, finished: Finished, now: float) -> RatedTable | None:
        """Rate a table that just finished if it was created rated and is not rated yet
        (None otherwise): each person seat's player is the account that holds it, with
        the account's traces before the end (:meth:`TraceStore.traces`), a bot's its
        level; the rounds are the turns every seat had (:data:`TURN_ENDS`)."""
        with self._session() as session:
            row = session.get(RatedTableRow, finished.code)
            if row is None or row.outcome != PENDING:
                return None
            pool = Pool.from_key(row.pool)
            held = session.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.code == finished.code
                )
            )
            accounts = {seat: account for seat, account in held}
        traces = self._traces.traces(set(accounts.values()), finished.ended_at)
        seats = [  # a seat in an account is its person's, even where a bot stood in at the end
            Seat(
                str(accounts[number]),
                total,
                number == finished.resigned,
                traces=traces[accounts[number]],
            )
            if number in accounts
            else Seat(bot or "", total, number == finished.resigned, bot=bot is not None)
            for number, (total, bot) in enumerate(zip(finished.totals, finished.bots, strict=True))
        ]
        if any(not seat.player for seat in seats):
            with self._session() as session:
                _settle(session, finished.code, pool, NO_ACCOUNT, now)
            return RatedTable(pool, NO_ACCOUNT, {})
        turns = [
            action.seat
            for action in self._store.actions(finished.table_id)
            if action.action["action"] in TURN_ENDS
        ]
        rounds = min(turns.count(number) for number in range(len(seats)))
        return self.rate_finished(TableResult(finished.code, finished.preset, seats, rounds), now)

    def rate_finished(self, result: TableResult, now: float) -> RatedTable | None:
        """Rate a finished rated table, once: the seam the service calls when a table
        flagged rated finishes. None when the table was rated before, by an earlier call
        or by another node at the same time (the ``rated_tables`` key lets one insert
        through; the other fails, and its second try finds the table rated). A second
        try also follows when another table wrote a player's first row in the pool at
        the same time, and then rates on that row."""
        try:
            with self._session() as session:
                return _rate(session, result, now)
        except IntegrityError:
            with self._session() as session:
                return _rate(session, result, now)

    def leaderboard(
        self, pool: Pool, now: float, limit: int, offset: int
    ) -> list[tuple[PlayerRating, str | None]]:
        """The pool's active players, highest rating first (ties by player id), each
        with its account's display name (None once it is deleted: the pages show
        :data:`~triominos.server.account_names.NEUTRAL_NAME` and no player page)."""
        with self._session() as session:
            rows = session.execute(
                select(RatingRow, AccountRow.name)
                .outerjoin(AccountRow, _account_of(RatingRow.player))
                .where(RatingRow.pool == pool.key, RatingRow.played_at >= now - ACTIVE_SECONDS)
                .order_by(RatingRow.rating.desc(), RatingRow.player)
                .limit(limit)
                .offset(offset)
            )
            return [(_player_rating(row, now), name) for row, name in rows]

    def name(self, player: str) -> str:
        """The display name of ``player``'s account (the neutral name,
        :data:`~triominos.server.account_names.NEUTRAL_NAME`, once it is deleted), which
        the pages show in place of the id."""
        with self._session() as session:
            name = session.scalar(select(AccountRow.name).where(_account_of(player)))
            return name or NEUTRAL_NAME

    def player(self, player: str, now: float) -> tuple[list[PlayerRating], list[HistoryPoint]]:
        """The player's ratings in every pool they played, and their history, oldest
        first (the newest :data:`HISTORY_ROWS`)."""
        with self._session() as session:
            ratings = session.scalars(
                select(RatingRow).where(RatingRow.player == player).order_by(RatingRow.pool)
            )
            current = [_player_rating(row, now) for row in ratings]
            history = session.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.player == player)
                .order_by(RatingHistoryRow.id.desc())
                .limit(HISTORY_ROWS)
            ).all()
            points = [
                HistoryPoint(
                    Pool.from_key(row.pool),
                    row.table_code,
                    Rating(row.rating, row.deviation),
                    row.played_at,
                )
                for row in reversed(history)
            ]
            return current, points

    def retire(self, player: str) -> None:
        """Move a player's ratings to an id no account has, as its account is deleted:
        the leaderboard keeps them, under the neutral name, and no account made later
        can meet them (ids are not given twice since migration 0019, but an id deleted
        before it, newer than every account kept, may be)."""
        retired = f"deleted-{player}-{secrets.token_hex(8)}"
        with self._session() as session:
            for model in (RatingRow, RatingHistoryRow):
                session.execute(update(model).where(model.player == player).values(player=retired))

    def export(self, player: str) -> dict[str, list[dict[str, Any]]]:
        """Every rating row of the player, as stored (the account's export): the rating
        in each pool and the whole history, oldest first."""
        with self._session() as session:
            ratings = session.scalars(
                select(RatingRow).where(RatingRow.player == player).order_by(RatingRow.pool)
            )
            history = session.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.player == player)
                .order_by(RatingHistoryRow.id)
            )
            return {
                "ratings": [
                    {
                        "pool": row.pool,
                        "rating": row.rating,
                        "deviation": row.deviation,
                        "volatility": row.volatility,
                        "games": row.games,
                        "played_at": row.played_at,
                    }
                    for row in ratings
                ],
                "history": [
                    {
                        "pool": row.pool,
                        "table": row.table_code,
                        "rating": row.rating,
                        "deviation": row.deviation,
                        "played_at": row.played_at,
                    }
                    for row in history
                ],
            }
