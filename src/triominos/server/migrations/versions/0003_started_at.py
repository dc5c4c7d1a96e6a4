"""When each table began to play, so the turn timer's first turn survives a restart.

Revision ID: 0003_started_at
Revises: 0002_pad

Tables already playing keep NULL: when they began was not stored, so their first turn
(if it is still running) runs from the moment the server loads them, as before. Both
steps are plain ALTER TABLE, which SQLite has had since 3.35: a batch copy of ``tables``
would drop the table that ``seats`` and ``actions`` point to, which SQLite's foreign keys
refuse.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_started_at"
down_revision: str | None = "0002_pad"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("started_at", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "started_at")
