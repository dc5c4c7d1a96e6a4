"""Puzzles (issue 19): the puzzles' ratings, the browsers that solve them, and each
browser's one rated attempt at a puzzle.

Revision ID: 0008_puzzles
Revises: 0007_analysis

``puzzle_ratings``: a puzzle's Glicko-2 rating once someone has tried it (a puzzle never
tried keeps the rating it ships with). ``puzzle_browsers``: a browser's rating, known
by the hash of the random id it keeps (as a seat by its token's). ``puzzle_attempts``:
one row per browser and puzzle, which makes a second rated attempt impossible.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_puzzles"
down_revision: str | None = "0007_analysis"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_browsers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("browser_id", sa.Integer, sa.ForeignKey("puzzle_browsers.id"), nullable=False),
        sa.Column("puzzle", sa.String(16), nullable=False),
        sa.Column("answer", sa.String(40), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("browser_id", "puzzle"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_browsers")
    op.drop_table("puzzle_ratings")
