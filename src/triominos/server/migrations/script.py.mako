<%!
    def literal(value):
        """A Python literal as ruff formats it: strings in double quotes."""
        return repr(value).replace("'", '"')
%>"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
"""

import sqlalchemy as sa
from alembic import op
${imports if imports else ""}
revision = ${literal(up_revision)}
down_revision: str | None = ${literal(down_revision)}
branch_labels: str | None = ${literal(branch_labels)}
depends_on: str | None = ${literal(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    ${downgrades if downgrades else "pass"}
