"""Ratings of rated matches (issue 33): each player's rating per pool, its history, and
the tables rated so far.

Revision ID: 0014_ratings
Revises: 0013_push

``ratings``: a player's (an account id's; no foreign key) Glicko-2 rating in a pool
(edition, player count, against people or bots) after their last rated match there.
``rating_history``: one row per player and rated match, for the graph. ``rated_tables``:
one row per finished rated table, rated or why not, which rates a table only once.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_ratings"
down_revision: str | None = "0013_push"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("pool", sa.String(24), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("played_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(24), nullable=False),
        sa.Column("table_code", sa.String(12), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("played_at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player"])
    op.create_table(
        "rated_tables",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("pool", sa.String(24), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_tables")
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_pool_rating", "ratings")
    op.drop_table("ratings")
