"""What issue 13's limits need of a table: its grace period, whether it is listed, and
who made it.

Revision ID: 0004_guard
Revises: 0003_started_at

``grace_seconds``: how long a person must be away before another player may give their
seat to a bot (60 s for the tables made before). ``listed``: whether the table shows in
the list of open tables. The tables made before never said, so none of them is listed:
a code is a secret unless its creator chose to show it.
``created_by``: a hash of the creator's address, which caps the tables one address keeps
waiting (NULL for the tables made before). Plain ALTER TABLE, as in 0003.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_guard"
down_revision: str | None = "0003_started_at"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("grace_seconds", sa.Float, nullable=False, server_default="60")
    )
    op.add_column(
        "tables", sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("created_by", sa.String(32), nullable=True))
    op.create_index("ix_tables_created_by", "tables", ["created_by"])


def downgrade() -> None:
    op.drop_index("ix_tables_created_by", "tables")
    op.drop_column("tables", "created_by")
    op.drop_column("tables", "listed")
    op.drop_column("tables", "grace_seconds")
