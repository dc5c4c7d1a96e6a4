"""A finished table's analysis in the service's database: one row a table, claimed by
the node that runs it, its progress while it runs, its result once done (migration
0007_analysis).

The row is the lock: its ``table_id`` is unique, so of two nodes asked at once only one
inserts it and analyses; the other reads its progress. A node that dies leaves the row
``running``; once its last word is older than :data:`STALE_SECONDS` another node may
take it over.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from triominos.server.store import Base, Store

STALE_SECONDS = 120.0
"""A running analysis whose node said nothing for this long is taken over: its node died."""

AnalysisStatus = Literal["running", "done"]


class AnalysisRow(Base):
    __tablename__ = "analyses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), unique=True)
    status: Mapped[str] = mapped_column(String(8))
    simulations: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    updated_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """A table's analysis as stored: under way (``done`` of ``total``) or done."""

    status: AnalysisStatus
    done: int
    total: int
    result: dict[str, Any] | None
    updated_at: float


class AnalysisStore:
    """The analyses' part of the service's database."""

    def __init__(self, store: Store, clock: Any = time.time) -> None:
        self._session = store.session
        self._clock = clock

    def get(self, table_id: int) -> StoredAnalysis | None:
        with self._session() as session:
            row = session.scalar(select(AnalysisRow).where(AnalysisRow.table_id == table_id))
            return None if row is None else _stored(row)

    def claim(self, table_id: int, simulations: int, seed: int, total: int) -> bool:
        """Whether this node now runs the table's analysis: it was not begun, or the node
        running it fell silent (:data:`STALE_SECONDS`)."""
        now = self._clock()
        row = AnalysisRow(
            table_id=table_id,
            status="running",
            simulations=simulations,
            seed=seed,
            done=0,
            total=total,
            updated_at=now,
        )
        try:
            with self._session() as session:
                session.add(row)
            return True
        except IntegrityError:
            pass
        taken_over = (
            update(AnalysisRow)
            .where(
                AnalysisRow.table_id == table_id,
                AnalysisRow.status == "running",
                AnalysisRow.updated_at < now - STALE_SECONDS,
            )
            .values(simulations=simulations, seed=seed, done=0, total=total, updated_at=now)
        )
        with self._session() as session:
            return bool(session.execute(taken_over).rowcount)  # type: ignore[attr-defined]

    def progress(self, table_id: int, done: int) -> None:
        with self._session() as session:
            session.execute(
                update(AnalysisRow)
                .where(AnalysisRow.table_id == table_id, AnalysisRow.status == "running")
                .values(done=done, updated_at=self._clock())
            )

    def finish(self, table_id: int, result: dict[str, Any]) -> None:
        with self._session() as session:
            session.execute(
                update(AnalysisRow)
                .where(AnalysisRow.table_id == table_id)
                .values(
                    status="done", result=result, done=AnalysisRow.total, updated_at=self._clock()
                )
            )

    def drop(self, table_id: int) -> None:
        """Forget an analysis that failed, so that it may be asked for again."""
        with self._session() as session:
            session.execute(
                delete(AnalysisRow).where(
                    AnalysisRow.table_id == table_id, AnalysisRow.status == "running"
                )
            )


def _stored(row: AnalysisRow) -> StoredAnalysis:
    return StoredAnalysis(
        row.status,  # type: ignore[arg-type]  # only this store writes it
        row.done,
        row.total,
        row.result,
        row.updated_at,
    )
