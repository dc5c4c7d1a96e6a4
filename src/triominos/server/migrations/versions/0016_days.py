"""Games over days (issue 33): a table's clock may be days per move, and its idle seat's
opponents may claim the win once those days ran out.

Revision ID: 0016_days
Revises: 0015_friends

``tables.move_days``: the days each move may take (1, 2, 3 or 7), NULL for a table timed
by ``turn_seconds`` or not at all (every table made before). ``tables.claim_win``: the
creator chose "claim the win" over the timeout action (false before).
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_days"
down_revision: str | None = "0015_friends"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("move_days", sa.Integer, nullable=True))
    op.add_column(
        "tables",
        sa.Column("claim_win", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("tables", "claim_win")
    op.drop_column("tables", "move_days")
