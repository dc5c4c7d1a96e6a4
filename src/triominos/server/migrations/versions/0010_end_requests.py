"""Who asked to end the match among three or more players (issue 37): it was kept in
memory only, so a restart, or the table moving to another node, forgot it.

Revision ID: 0010_end_requests
Revises: 0009_joined_at

``ending``: the person seats that asked, in the order they asked, as a JSON list (NULL:
nobody asked, and for the tables made before). Plain ALTER TABLE, as in 0003.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_end_requests"
down_revision: str | None = "0009_joined_at"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("ending", sa.JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "ending")
