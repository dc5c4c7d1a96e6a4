"""Puzzle attempts by address (issue 37): a wrong answer shows the solution, so a second
browser id at the same address could learn it and answer with the first.

Revision ID: 0011_puzzle_attempts
Revises: 0010_end_requests

``puzzle_browsers.address_hash`` and ``puzzle_attempts.address_hash``: the hash of the
address a browser id was made from and an answer came from (``service.address_hash``,
as the tables' creators are kept), to count the ids one address makes in a day and to
find another id's answer to the same puzzle from the same address. NULL for the rows
made before. ``puzzle_attempts.rated``: whether the answer moved the ratings (false when
another id at its address had answered the puzzle first); the rows before were all
rated. Plain ALTER TABLE, as in 0003.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_puzzle_attempts"
down_revision: str | None = "0010_end_requests"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("puzzle_browsers", sa.Column("address_hash", sa.String(32), nullable=True))
    op.create_index("puzzle_browsers_address", "puzzle_browsers", ["address_hash", "created_at"])
    op.add_column("puzzle_attempts", sa.Column("address_hash", sa.String(32), nullable=True))
    op.add_column(
        "puzzle_attempts",
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.create_index("puzzle_attempts_address", "puzzle_attempts", ["puzzle", "address_hash"])


def downgrade() -> None:
    op.drop_index("puzzle_attempts_address", "puzzle_attempts")
    op.drop_column("puzzle_attempts", "rated")
    op.drop_column("puzzle_attempts", "address_hash")
    op.drop_index("puzzle_browsers_address", "puzzle_browsers")
    op.drop_column("puzzle_browsers", "address_hash")
