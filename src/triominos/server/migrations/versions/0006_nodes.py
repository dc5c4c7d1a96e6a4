"""Issue 16's nodes: several ``triominos serve`` processes on one database.

Revision ID: 0006_nodes
Revises: 0005_table

``nodes``: each running node, the URL the other nodes reach it at, the secret they
prove a proxied request with, and until when its lease on all its tables holds
(``lease_until``, the database's clock). On ``tables``: the node that holds the table
live (``owner``) and the claim's number (``epoch``, raised by every claim; a write under
an older one is refused). Tables made before are nobody's: the first node that needs
one claims it. Plain ALTER TABLE, as in 0003 to 0005.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_nodes"
down_revision: str | None = "0005_table"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("url", sa.String(200), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("lease_until", sa.Float, nullable=False),
    )
    op.add_column("tables", sa.Column("owner", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_tables_owner", "tables", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_tables_owner", "tables")
    op.drop_column("tables", "epoch")
    op.drop_column("tables", "owner")
    op.drop_table("nodes")
