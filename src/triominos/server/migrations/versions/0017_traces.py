"""Traces of where accounts were used (issue 33's rating anti-abuse rule): the keyed
hashes of the browser ids and addresses each account's sign-ins were used from, and the
key they are hashed with.

Revision ID: 0017_traces
Revises: 0016_days

New tables only (server/trace_store.py says what each row is); no table of before changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_traces"
down_revision: str | None = "0016_days"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "trace_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_traces",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("trace", sa.String(64), nullable=False),
        sa.Column("first_seen", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index("ix_account_traces_account_trace", "account_traces", ["account_id", "trace"])
    op.create_index("ix_account_traces_last_seen", "account_traces", ["last_seen"])


def downgrade() -> None:
    op.drop_table("account_traces")
    op.drop_table("trace_keys")
