"""Push notices for accounts (issue 33): a device that subscribed while signed in is
tied to its account, through that sign-in; and the reminders of games over days.

Revision ID: 0018_push_accounts
Revises: 0016_days

``push_accounts``: one row per device tied to an account (``subscription_id`` unique),
with the hash of the sign-in it subscribed with (``account_sessions.id_hash``): the tie
holds while that sign-in does. ``push_reminders``: per table, the turn (by when it
began) whose reminder was sent, so that it is sent once whichever node sends it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_push_accounts"
down_revision: str | None = "0017_traces"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "push_accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "subscription_id",
            sa.Integer,
            sa.ForeignKey("push_subscriptions.id"),
            nullable=False,
            unique=True,
        ),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True
        ),
        sa.Column("session_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "push_reminders",
        sa.Column("table_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("turn_started", sa.Float, nullable=False),
        sa.Column("sent_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("push_reminders")
    op.drop_table("push_accounts")
