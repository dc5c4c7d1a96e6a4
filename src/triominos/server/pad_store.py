"""The score pad's rows: games with their entries, players by name, and each finished
game's results, in the service's database (:class:`triominos.server.store.Store`).

A pad game is kept as its rules, its player names and its entries, one row an entry; the
sheet is rebuilt by replaying them (:meth:`triominos.pad.Pad.from_json`), as the game
service rebuilds a table from its actions. Finishing a game writes one result row a
player, from which the players' statistics are summed.

Players are known by name: one name is one player across all games, compared without
case and spaces at the ends ("Ann" and " ann" are the same person). A table of friends
sharing a server is the pad's use; there are no accounts.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    delete,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from triominos.pad import FORMAT, Pad
from triominos.server.protocol import Refusal
from triominos.server.store import CODE_ALPHABET, Base, Store

PAD_CODE_LENGTH = 8


class PadConflictError(Refusal):
    """A change based on an old version of a game, or to a finished one."""


class PadGameRow(Base):
    __tablename__ = "pad_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    stopped: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class PadEntryRow(Base):
    __tablename__ = "pad_entries"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("pad_games.id"))
    number: Mapped[int] = mapped_column(Integer)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class PadPlayerRow(Base):
    __tablename__ = "pad_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(40))


class PadResultRow(Base):
    __tablename__ = "pad_results"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("pad_games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("pad_players.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    hand_points: Mapped[int] = mapped_column(Integer)
    best_hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bonuses: Mapped[dict[str, int]] = mapped_column(JSON)


@dataclass(frozen=True, slots=True)
class PadGame:
    """A stored pad game: its share code, the sheet rebuilt, and whether it is final."""

    code: str
    pad: Pad
    finished: bool
    created_at: float
    finished_at: float | None

    @property
    def version(self) -> int:
        """The number of entries: a client changes the game only from the newest one."""
        return len(self.pad.entries)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's finished pad games, summed."""

    name: str
    games: int
    won: int
    hands: int
    average_hand: float | None
    best_hand: int | None
    bonuses: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "won": self.won,
            "hands": self.hands,
            "average_hand": self.average_hand,
            "best_hand": self.best_hand,
            "bonuses": dict(self.bonuses),
        }


def player_key(name: str) -> str:
    """The name a player is known by: case and spaces do not count."""
    return " ".join(name.split()).casefold()


class PadStore:
    """The pad's part of the service's database (its tables come with the migrations)."""

    def __init__(self, store: Store) -> None:
        self._session = store.session  # its faults are StorageFaults: 503, try again

    def create(self, pad: Pad) -> PadGame:
        """Store a new, empty pad under a fresh share code."""
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(PAD_CODE_LENGTH))
            row = PadGameRow(
                code=code,
                preset=pad.preset,
                rules=pad.rules.to_dict(),
                players=list(pad.players),
                finished=False,
                stopped=False,
                created_at=time.time(),
            )
            try:
                with self._session() as session:
                    session.add(row)
            except IntegrityError:
                continue  # the code was taken: draw another
            return PadGame(code, pad, False, row.created_at, None)
        raise RuntimeError("no free pad code after 20 tries")

    def game(self, code: str) -> PadGame | None:
        """The game with this code, its entries replayed; None when there is none."""
        with self._session() as session:
            row = session.scalar(select(PadGameRow).where(PadGameRow.code == code))
            if row is None:
                return None
            entries = session.scalars(
                select(PadEntryRow.entry)
                .where(PadEntryRow.game_id == row.id)
                .order_by(PadEntryRow.number)
            ).all()
            document = {
                "format": FORMAT,
                "preset": row.preset,
                "rules": row.rules,
                "players": row.players,
                "entries": list(entries),
                "stopped": row.stopped,
            }
            return PadGame(
                row.code, Pad.from_json(document), row.finished, row.created_at, row.finished_at
            )

    def append(self, game: PadGame, entry: Mapping[str, Any]) -> None:
        """Write the entry that made ``game.version`` (already added to ``game.pad``).

        A second writer of the same version breaks the unique (game, number) pair and
        is told the game moved on.
        """
        try:
            with self._session() as session:
                row = self._open_row(session, game.code)
                session.add(
                    PadEntryRow(
                        game_id=row.id,
                        number=game.version,
                        entry=dict(entry),
                        created_at=time.time(),
                    )
                )
        except IntegrityError:
            raise PadConflictError(
                "stale_version", "someone else changed this game: reload it"
            ) from None

    def remove_last(self, game: PadGame, number: int) -> None:
        """Delete entry ``number``, the one an undo took back."""
        with self._session() as session:
            row = self._open_row(session, game.code)
            removed = session.execute(
                delete(PadEntryRow).where(
                    PadEntryRow.game_id == row.id,
                    PadEntryRow.number == number,
                    # Only while it is still the last one.
                    ~select(PadEntryRow.id)
                    .where(PadEntryRow.game_id == row.id, PadEntryRow.number > number)
                    .exists(),
                )
            )
            if removed.rowcount != 1:  # type: ignore[attr-defined]
                raise PadConflictError("stale_version", "someone else changed this game: reload it")

    def finish(self, game: PadGame) -> PadGame:
        """Make the game final and write each player's result for the statistics."""
        now = time.time()
        with self._session() as session:
            row = self._open_row(session, game.code)
            row.finished, row.stopped, row.finished_at = True, game.pad.stopped, now
            for result in game.pad.results():
                player = self._player(session, result.name)
                session.add(
                    PadResultRow(
                        game_id=row.id,
                        player_id=player.id,
                        seat=result.seat,
                        total=result.total,
                        won=result.won,
                        hands=len(result.hands),
                        hand_points=sum(result.hands),
                        best_hand=max(result.hands, default=None),
                        bonuses=dict(result.bonuses),
                    )
                )
        return PadGame(game.code, game.pad, True, game.created_at, now)

    def _open_row(self, session: Session, code: str) -> PadGameRow:
        row = session.scalar(select(PadGameRow).where(PadGameRow.code == code).with_for_update())
        if row is None:
            raise PadConflictError("not_found", f"no score pad game {code!r}")
        if row.finished:
            raise PadConflictError("finished", "this game is finished: its sheet is final")
        return row

    def _player(self, session: Session, name: str) -> PadPlayerRow:
        key = player_key(name)
        player = session.scalar(select(PadPlayerRow).where(PadPlayerRow.key == key))
        if player is None:
            player = PadPlayerRow(key=key, name=name)
            session.add(player)
            session.flush()
        return player

    def players(self, names: Sequence[str] | None = None) -> list[PlayerStats]:
        """Every player with a finished game (or those of ``names``), most games first."""
        query = select(PadPlayerRow, PadResultRow).join(
            PadResultRow, PadResultRow.player_id == PadPlayerRow.id
        )
        if names is not None:
            query = query.where(PadPlayerRow.key.in_([player_key(name) for name in names]))
        summed: dict[int, list[Any]] = {}
        with self._session() as session:
            for player, result in session.execute(query):
                summed.setdefault(player.id, [player.name, []])[1].append(result)
        stats = [_stats(name, results) for name, results in summed.values()]
        return sorted(stats, key=lambda stat: (-stat.games, player_key(stat.name)))


def _stats(name: str, results: Sequence[PadResultRow]) -> PlayerStats:
    hands = sum(result.hands for result in results)
    bonuses: dict[str, int] = {}
    for result in results:
        for bonus, count in result.bonuses.items():
            bonuses[bonus] = bonuses.get(bonus, 0) + count
    best = [result.best_hand for result in results if result.best_hand is not None]
    return PlayerStats(
        name=name,
        games=len(results),
        won=sum(result.won for result in results),
        hands=hands,
        average_hand=round(sum(r.hand_points for r in results) / hands, 1) if hands else None,
        best_hand=max(best, default=None),
        bonuses=dict(sorted(bonuses.items())),
    )
