"""What issue 19's analysis keeps with a finished table: its analysis, and how far one
under way has come.

Revision ID: 0007_analysis
Revises: 0006_nodes

``analyses``: one row a table (``table_id`` unique: one analysis per table, whichever
node runs it). ``status`` is ``running`` while a node analyses (``done`` of ``total``
decisions, ``updated_at`` its last word: a row left running by a node that died is
taken over once it is stale) and ``done`` with ``result``, the analysis as JSON
(``triominos-analysis/1``), once finished. A new table: nothing before changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_analysis"
down_revision: str | None = "0006_nodes"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, unique=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("simulations", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
