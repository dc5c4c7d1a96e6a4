"""What issue 17's tables choose: what a turn that ran out plays, and whether hints may
be asked for.

Revision ID: 0005_table
Revises: 0004_guard

``timeout_action``: ``"draw"`` for the tables made before (their turn timer drew even
when a tile fitted, and a restarted server must go on as their stored actions did);
new tables say, ``"place"`` unless their creator chose otherwise (RULES.md §13).
``hints``: true for the tables made before, which all offered hints. Plain ALTER TABLE,
as in 0003 and 0004. ``chats``: each table's chat messages, the players' and the
spectators' apart (``channel``).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_table"
down_revision: str | None = "0004_guard"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("timeout_action", sa.String(8), nullable=False, server_default="draw")
    )
    op.add_column(
        "tables", sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.true())
    )
    op.create_table(
        "chats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_chats_table_id", "chats", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_chats_table_id", "chats")
    op.drop_table("chats")
    op.drop_column("tables", "hints")
    op.drop_column("tables", "timeout_action")
