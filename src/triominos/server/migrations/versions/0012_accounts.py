"""Accounts (issue 33): accounts, their passkeys and sign-ins, the WebAuthn challenges
under way, and the seats moved into an account.

Revision ID: 0012_accounts
Revises: 0011_puzzle_attempts

New tables only (server/account_store.py says what each row is); no table of before
changes, so a database without accounts works as it did.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_accounts"
down_revision: str | None = "0011_puzzle_attempts"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("user_handle", sa.String(88), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("failed_sign_ins", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_passkeys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("credential_id", sa.String(400), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_account_passkeys_account_id", "account_passkeys", ["account_id"])
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "account_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("user_handle", sa.String(88), nullable=True),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_account_challenges_expires_at", "account_challenges", ["expires_at"])
    op.create_table(
        "account_seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("token", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("code", "seat"),
    )
    op.create_index("ix_account_seats_account_id", "account_seats", ["account_id"])


def downgrade() -> None:
    for table in (
        "account_seats",
        "account_challenges",
        "account_sessions",
        "account_passkeys",
        "accounts",
    ):
        op.drop_table(table)
