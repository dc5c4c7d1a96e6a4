"""Web Push (issue 33): the service's VAPID key pair and the devices that asked for
notices, tied to seats.

Revision ID: 0013_push
Revises: 0012_accounts

``push_keys``: one row (id 1), made by the first node that starts; every node reads it.
``push_subscriptions``: a browser's PushSubscription (endpoint, p256dh, auth), the kinds
of notice it wants and its language. ``push_seats``: which seats (by their token's hash,
as ``seats`` keeps it) a device is tied to.
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_push"
down_revision: str | None = "0012_accounts"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("private_pem", sa.Text, nullable=False),
        sa.Column("public_key", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("kinds", sa.String(100), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "push_seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "subscription_id",
            sa.Integer,
            sa.ForeignKey("push_subscriptions.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("subscription_id", "token_hash"),
    )


def downgrade() -> None:
    op.drop_table("push_seats")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")
