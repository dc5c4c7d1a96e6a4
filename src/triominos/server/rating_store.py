"""The ratings of rated matches in the service's database (tables of migration
``0014_ratings``), and :meth:`RatingStore.rate_finished`, the one call that rates a finished table.

A player is an account id (the accounts' table is another part of the service: these
rows keep its id without a foreign key). ``ratings`` holds each player's rating per pool
as it was after their last rated match there; ``rating_history`` one row per player and
rated match, for the graph; ``rated_tables`` one row per finished rated table, rated or
refused, which is what makes rating a table once only: the second call, on this node or
another, finds the row and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Float, Index, Integer, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

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
from triominos.server.store import Base, Store

PLAYER_LENGTH = 64
"""The longest player (account) id the rows keep."""
CODE_LENGTH = 12
"""The longest table code (as the tables' own rows keep it)."""
HISTORY_ROWS = 1000
"""The newest rows of a player's history that :meth:`RatingStore.player` returns."""


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
    """``rated``, or why not (:func:`triominos.ratings.unrated_because`)."""
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
    if session.get(RatedTableRow, result.code) is not None:
        return None
    pool = pool_of(result.preset, result.seats)
    unrated = unrated_because(result.seats, result.rounds)
    session.add(
        RatedTableRow(code=result.code, pool=pool.key, outcome=unrated or "rated", rated_at=now)
    )
    session.flush()  # the table's key first: a second rating of it waits here, then fails
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


def _current(row: RatingRow, now: float) -> Rating:
    return aged(Rating(row.rating, row.deviation, row.volatility), now - row.played_at)


def _player_rating(row: RatingRow, now: float) -> PlayerRating:
    return PlayerRating(
        row.player, Pool.from_key(row.pool), _current(row, now), row.games, row.played_at
    )


class RatingStore:
    """The ratings' part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._session = store.session  # its faults are StorageFaults: 503, try again

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

    def leaderboard(self, pool: Pool, now: float, limit: int, offset: int) -> list[PlayerRating]:
        """The pool's active players, highest rating first (ties by player id)."""
        with self._session() as session:
            rows = session.scalars(
                select(RatingRow)
                .where(RatingRow.pool == pool.key, RatingRow.played_at >= now - ACTIVE_SECONDS)
                .order_by(RatingRow.rating.desc(), RatingRow.player)
                .limit(limit)
                .offset(offset)
            )
            return [_player_rating(row, now) for row in rows]

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
