"""When someone first joined a waiting table (issue 37): a waiting table nobody joined
expires soon, one somebody joined keeps its day.

Revision ID: 0009_joined_at
Revises: 0008_puzzles

``joined_at``: when a person first took a seat of the table after it was made (NULL:
nobody joined yet, and for the tables made before, which then count as not joined).
Plain ALTER TABLE, as in 0003.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_joined_at"
down_revision: str | None = "0008_puzzles"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("joined_at", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "joined_at")
