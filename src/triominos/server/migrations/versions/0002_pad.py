"""The score pad: games and their entries, players by name, finished games' results.

Revision ID: 0002_pad
Revises: 0001_tables
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_pad"
down_revision: str | None = "0001_tables"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "pad_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("stopped", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_table(
        "pad_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("pad_games.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "number"),
    )
    op.create_table(
        "pad_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(40), nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
    )
    op.create_table(
        "pad_results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("pad_games.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("pad_players.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("hand_points", sa.Integer, nullable=False),
        sa.Column("best_hand", sa.Integer, nullable=True),
        sa.Column("bonuses", sa.JSON, nullable=False),
        sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_index("ix_pad_results_player_id", "pad_results", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_pad_results_player_id", "pad_results")
    op.drop_table("pad_results")
    op.drop_table("pad_players")
    op.drop_table("pad_entries")
    op.drop_table("pad_games")
