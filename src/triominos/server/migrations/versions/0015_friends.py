"""Profile and friends (issue 33, part 2): friendships, blocks, invitations to a table,
when an account was last seen, and the summaries of finished seats' matches.

Revision ID: 0015_friends
Revises: 0014_ratings

New tables only (server/friends_store.py and server/profile_store.py say what each row
is); no table of before changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_friends"
down_revision: str | None = "0014_ratings"
branch_labels: str | None = None
depends_on: str | None = None


def _account(column: str) -> sa.Column[int]:
    return sa.Column(column, sa.Integer, sa.ForeignKey("accounts.id"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("id", sa.Integer, primary_key=True),
        _account("asker_id"),
        _account("asked_id"),
        sa.Column("accepted", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("asker_id", "asked_id"),
    )
    op.create_table(
        "account_blocks",
        sa.Column("id", sa.Integer, primary_key=True),
        _account("blocker_id"),
        _account("blocked_id"),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("blocker_id", "blocked_id"),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True),
        _account("from_id"),
        _account("to_id"),
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    for table, column in (
        ("friendships", "asker_id"),
        ("friendships", "asked_id"),
        ("account_blocks", "blocker_id"),
        ("account_blocks", "blocked_id"),
        ("invitations", "from_id"),
        ("invitations", "to_id"),
    ):
        op.create_index(f"ix_{table}_{column}", table, [column])
    op.create_table(
        "account_presence",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "seat_summaries",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("edition", sa.String(40), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("bonuses", sa.Integer, nullable=False),
        sa.Column("best_hand", sa.Integer, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "seat_summaries",
        "account_presence",
        "invitations",
        "account_blocks",
        "friendships",
    ):
        op.drop_table(table)
