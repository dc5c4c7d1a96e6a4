"""The puzzles' rows: the puzzles' ratings, the browsers that solve them and their
attempts, in the service's database (:class:`triominos.server.store.Store`; the tables
come with migrations ``0008_puzzles`` and ``0011_puzzle_attempts``).

A browser is known by the hash of the random id the server gave it (the id itself is
kept only in the browser, as a seat's token is). An attempt moves both ratings at once,
in one transaction that holds both rows: the browser's against the puzzle's rating as
it was, the puzzle's against the browser's as it was (Glicko-2, one rating period each).
A puzzle that nobody has tried has no row: it is rated as it ships until its first
attempt writes one.

An answer shows the solution, so the ids at one address share each puzzle's one rated
answer: the first id to answer it from there is rated, the others' answers are kept
and checked but move no rating (otherwise a throwaway id answers wrong, learns the
solution and the main id answers right). The address is kept hashed, as a table's
creator's is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from triominos.glicko import Rating
from triominos.server.protocol import Refusal
from triominos.server.store import Base, Store


class PuzzleConflictError(Refusal):
    """An attempt that may not be made: ``code`` is ``unknown_browser`` or ``attempted``."""


class PuzzleRatingRow(Base):
    __tablename__ = "puzzle_ratings"

    puzzle: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)


class PuzzleBrowserRow(Base):
    __tablename__ = "puzzle_browsers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
    address_hash: Mapped[str | None] = mapped_column(String(32))


class PuzzleAttemptRow(Base):
    __tablename__ = "puzzle_attempts"
    __table_args__ = (UniqueConstraint("browser_id", "puzzle"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    browser_id: Mapped[int] = mapped_column(ForeignKey("puzzle_browsers.id"))
    puzzle: Mapped[str] = mapped_column(String(16))
    answer: Mapped[str] = mapped_column(String(40))
    solved: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Float)
    address_hash: Mapped[str | None] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean)


@dataclass(frozen=True, slots=True)
class Attempt:
    """An attempt: what was answered, whether it was rated, and both ratings before and
    after it (the same when it was not rated)."""

    puzzle: str
    answer: str
    solved: bool
    rated: bool
    browser_before: Rating
    browser_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


@dataclass(frozen=True, slots=True)
class PastAttempt:
    """What a browser answered a puzzle, and whether it solved it."""

    answer: str
    solved: bool


@dataclass(frozen=True, slots=True)
class BrowserInfo:
    """A browser's rating and the puzzles it has made its one attempt at."""

    rating: Rating
    attempted: frozenset[str]


def _rating(row: PuzzleRatingRow | PuzzleBrowserRow) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


def _set(row: PuzzleRatingRow | PuzzleBrowserRow, rating: Rating) -> None:
    row.rating, row.deviation, row.volatility = rating.rating, rating.deviation, rating.volatility


class PuzzleStore:
    """The puzzles' part of the service's database."""

    def __init__(self, store: Store) -> None:
        self._session = store.session  # its faults are StorageFaults: 503, try again

    def new_browser(self, key_hash: str, address: str) -> Rating:
        """Keep a new browser made from ``address`` (hashed), rated as a newcomer."""
        rating = Rating()
        with self._session() as session:
            session.add(
                PuzzleBrowserRow(
                    key_hash=key_hash,
                    rating=rating.rating,
                    deviation=rating.deviation,
                    volatility=rating.volatility,
                    created_at=time.time(),
                    address_hash=address,
                )
            )
        return rating

    def browsers_made(self, address: str, since: float) -> list[float]:
        """When the browsers made from ``address`` (hashed) since ``since`` were made."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(PuzzleBrowserRow.created_at).where(
                        PuzzleBrowserRow.address_hash == address,
                        PuzzleBrowserRow.created_at >= since,
                    )
                )
            )

    def browser(self, key_hash: str) -> BrowserInfo | None:
        """The browser with this id's hash, or None when there is none."""
        with self._session() as session:
            row = session.scalar(
                select(PuzzleBrowserRow).where(PuzzleBrowserRow.key_hash == key_hash)
            )
            if row is None:
                return None
            attempted = session.scalars(
                select(PuzzleAttemptRow.puzzle).where(PuzzleAttemptRow.browser_id == row.id)
            ).all()
            return BrowserInfo(_rating(row), frozenset(attempted))

    def ratings(self) -> dict[str, Rating]:
        """The ratings of the puzzles tried so far, by puzzle id."""
        with self._session() as session:
            return {row.puzzle: _rating(row) for row in session.scalars(select(PuzzleRatingRow))}

    def attempt_of(self, key_hash: str, puzzle: str) -> PastAttempt | None:
        """This browser's attempt at the puzzle, or None."""
        with self._session() as session:
            found = session.execute(
                select(PuzzleAttemptRow.answer, PuzzleAttemptRow.solved)
                .join(PuzzleBrowserRow, PuzzleAttemptRow.browser_id == PuzzleBrowserRow.id)
                .where(PuzzleBrowserRow.key_hash == key_hash, PuzzleAttemptRow.puzzle == puzzle)
            ).first()
            return None if found is None else PastAttempt(found.answer, found.solved)

    def attempt(
        self, key_hash: str, puzzle: str, shipped: Rating, answer: str, solved: bool, address: str
    ) -> Attempt:
        """Record the browser's one attempt at ``puzzle``, made from ``address`` (hashed),
        and move both ratings unless another browser answered it from there first.

        ``shipped``: the puzzle's rating when nobody has tried it yet. Raises
        :class:`PuzzleConflictError` for a browser unknown here or a second attempt
        (also when two arrive at once: the unique (browser, puzzle) pair refuses one).
        """
        for _ in range(2):  # a second try when another first attempt wrote the puzzle's row
            try:
                return self._attempt(key_hash, puzzle, shipped, answer, solved, address)
            except IntegrityError:
                attempted = self.attempt_of(key_hash, puzzle)
                if attempted is not None:
                    raise _attempted(puzzle) from None
        raise PuzzleConflictError("busy", f"puzzle {puzzle} is being rated by many; try again")

    def _attempt(
        self, key_hash: str, puzzle: str, shipped: Rating, answer: str, solved: bool, address: str
    ) -> Attempt:
        with self._session() as session:
            browser = session.scalar(
                select(PuzzleBrowserRow)
                .where(PuzzleBrowserRow.key_hash == key_hash)
                .with_for_update()
            )
            if browser is None:
                raise PuzzleConflictError("unknown_browser", "this browser id is not known here")
            done = session.scalar(
                select(PuzzleAttemptRow.id).where(
                    PuzzleAttemptRow.browser_id == browser.id, PuzzleAttemptRow.puzzle == puzzle
                )
            )
            if done is not None:
                raise _attempted(puzzle)
            shown_here = session.scalar(
                select(PuzzleAttemptRow.id)
                .where(PuzzleAttemptRow.puzzle == puzzle, PuzzleAttemptRow.address_hash == address)
                .limit(1)
            )
            row = session.get(PuzzleRatingRow, puzzle, with_for_update=True)
            browser_before = _rating(browser)
            puzzle_before = shipped if row is None else _rating(row)
            rated = shown_here is None
            browser_after, puzzle_after = browser_before, puzzle_before
            if rated:
                if row is None:
                    row = PuzzleRatingRow(puzzle=puzzle, attempts=0, solved=0)
                    session.add(row)
                score = 1.0 if solved else 0.0
                browser_after = browser_before.rated([(puzzle_before, score)])
                puzzle_after = puzzle_before.rated([(browser_before, 1 - score)])
                _set(browser, browser_after)
                _set(row, puzzle_after)
                row.attempts += 1
                row.solved += solved
            session.add(
                PuzzleAttemptRow(
                    browser_id=browser.id,
                    puzzle=puzzle,
                    answer=answer,
                    solved=solved,
                    created_at=time.time(),
                    address_hash=address,
                    rated=rated,
                )
            )
        return Attempt(
            puzzle,
            answer,
            solved,
            rated,
            browser_before,
            browser_after,
            puzzle_before,
            puzzle_after,
        )


def _attempted(puzzle: str) -> PuzzleConflictError:
    return PuzzleConflictError(
        "attempted", f"this browser has made its rated attempt at puzzle {puzzle} already"
    )
