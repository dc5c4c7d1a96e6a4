"""A player's finished games and statistics (issue 33, part 2), from the records of the
seats kept in the account (migration ``0015_friends`` makes the table).

A finished match never changes, so what the profile needs of a seat's match is worked
out once from its record (RECORD.md) and kept in ``seat_summaries``, by table code and
seat like the account's seats: a profile is then one query, however many games. A
request works out at most :data:`SUMMARIES_A_REQUEST` missing ones (a replay each), so
that an account moved in with hundreds of old games costs a few requests, not one long
one; the statistics say how many games are not counted yet (``pending``).

The player page shows the ratings and their history beside these statistics (from
:mod:`triominos.server.rating_store`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from triominos.server.account_store import AccountSeatRow
from triominos.server.store import Base, SeatRow, Store, TableInfo, TableRow

SUMMARIES_A_REQUEST = 50
"""The most records a request replays to work out missing summaries."""
GAMES_A_PAGE = 50
"""The most games one page lists."""
CUSTOM = "custom"
"""The edition of a match whose rules are no named preset's."""


class SeatSummaryRow(Base):
    """What the profile shows of one seat's finished match."""

    __tablename__ = "seat_summaries"

    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    edition: Mapped[str] = mapped_column(String(40))
    won: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    """The seat's points over the match's finished hands."""
    bonuses: Mapped[int] = mapped_column(Integer)
    best_hand: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[str]] = mapped_column(JSON)
    """The names as the match ended; the games list shows the seats' names of now
    instead, which a deleted account's seats have changed to the neutral one."""
    scores: Mapped[list[int]] = mapped_column(JSON)
    finished_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class Game:
    """One finished match of a player, as a profile lists it."""

    code: str
    seat: int
    edition: str
    won: bool
    players: list[str]
    scores: list[int]
    finished_at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "seat": self.seat,
            "edition": self.edition,
            "won": self.won,
            "players": self.players,
            "scores": self.scores,
            "finished_at": self.finished_at,
            "replay": f"/t/{self.code}?replay=1",
        }


def summary(record: Mapping[str, Any], seat: int, code: str, finished_at: float) -> SeatSummaryRow:
    """A seat's summary of a finished match's record (RECORD.md): its hand scores, the
    bonuses named in its placements, and whether it is among the winners."""
    hand_scores = [hand["scores"][seat] for hand in record["hands"] if hand.get("scores")]
    bonuses = sum(
        len(action.get("bonuses") or {})
        for hand in record["hands"]
        for action in hand["actions"]
        if action["player"] == seat
    )
    return SeatSummaryRow(
        code=code,
        seat=seat,
        edition=record.get("preset") or CUSTOM,
        won=seat in record["winners"],
        hands=len(hand_scores),
        points=sum(hand_scores),
        bonuses=bonuses,
        best_hand=max(hand_scores, default=0),
        players=[player["name"] for player in record["players"]],
        scores=list(record["scores"]),
        finished_at=finished_at,
    )


Replay = Callable[[TableInfo], Mapping[str, Any]]
"""A finished table's record (the service's snapshot of it, replayed from the store)."""


class ProfileStore:
    """The profile's part of the service's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._session = store.session

    def _finished(self, account_id: int) -> Any:
        return (
            select(AccountSeatRow.code, AccountSeatRow.seat, TableRow.finished_at)
            .join(TableRow, TableRow.code == AccountSeatRow.code)
            .where(AccountSeatRow.account_id == account_id, TableRow.status == "finished")
        )

    def summarise(self, account_id: int, replay: Replay) -> int:
        """Work out up to :data:`SUMMARIES_A_REQUEST` of the account's missing
        summaries; how many are still missing after."""
        with self._session() as session:
            missing = session.execute(
                self._finished(account_id)
                .outerjoin(
                    SeatSummaryRow,
                    (SeatSummaryRow.code == AccountSeatRow.code)
                    & (SeatSummaryRow.seat == AccountSeatRow.seat),
                )
                .where(SeatSummaryRow.code.is_(None))
                .order_by(TableRow.finished_at.desc())
            ).all()
        for code, seat, finished_at in missing[:SUMMARIES_A_REQUEST]:
            info = self.store.table(code)
            if info is None:
                continue
            row = summary(replay(info), seat, code, finished_at or info.created_at)
            try:
                with self._session() as session:
                    session.add(row)
            except IntegrityError:  # another request worked it out at the same moment
                pass
        return max(0, len(missing) - SUMMARIES_A_REQUEST)

    def games(self, account_id: int, offset: int, limit: int) -> tuple[list[Game], int]:
        """A page of the account's finished games, the newest first, and their total."""
        with self._session() as session:
            mine = self._mine(account_id)
            total = session.scalar(select(func.count()).select_from(mine.subquery())) or 0
            rows = session.scalars(
                mine.order_by(SeatSummaryRow.finished_at.desc(), SeatSummaryRow.code)
                .offset(offset)
                .limit(min(limit, GAMES_A_PAGE))
            ).all()
            names: dict[str, dict[int, str]] = {}
            for code, seat, name in session.execute(
                select(TableRow.code, SeatRow.seat, SeatRow.name)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(TableRow.code.in_([row.code for row in rows]))
            ):
                names.setdefault(code, {})[seat] = name
            games = [
                Game(
                    row.code,
                    row.seat,
                    row.edition,
                    row.won,
                    [names[row.code][seat] for seat in range(len(row.scores))],
                    list(row.scores),
                    row.finished_at,
                )
                for row in rows
            ]
            return games, total

    def stats(self, account_id: int) -> dict[str, dict[str, float]]:
        """Statistics by edition: matches, wins, win rate, points a hand, bonuses made
        and the best hand."""
        with self._session() as session:
            mine = self._mine(account_id).subquery()
            rows = session.execute(
                select(
                    mine.c.edition,
                    func.count(),
                    func.sum(func.cast(mine.c.won, Integer)),
                    func.sum(mine.c.hands),
                    func.sum(mine.c.points),
                    func.sum(mine.c.bonuses),
                    func.max(mine.c.best_hand),
                )
                .group_by(mine.c.edition)
                .order_by(mine.c.edition)
            ).all()
        return {
            edition: {
                "matches": matches,
                "wins": wins or 0,
                "win_rate": round((wins or 0) / matches, 3),
                "hands": hands or 0,
                "points_a_hand": round((points or 0) / hands, 1) if hands else 0.0,
                "bonuses": bonuses or 0,
                "best_hand": best or 0,
            }
            for edition, matches, wins, hands, points, bonuses, best in rows
        }

    @staticmethod
    def _mine(account_id: int) -> Any:
        return (
            select(SeatSummaryRow)
            .join(
                AccountSeatRow,
                (AccountSeatRow.code == SeatSummaryRow.code)
                & (AccountSeatRow.seat == SeatSummaryRow.seat),
            )
            .where(AccountSeatRow.account_id == account_id)
        )
