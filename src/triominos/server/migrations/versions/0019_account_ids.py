"""Account ids are never given twice (issue 33): SQLite's ``AUTOINCREMENT`` on ``accounts``.

Revision ID: 0019_account_ids
Revises: 0018_push_accounts

On SQLite a plain ``INTEGER PRIMARY KEY`` gives the next account the id of the newest
one deleted, and with it whatever was still kept under that id. ``AUTOINCREMENT`` keeps
the largest id ever given (in ``sqlite_sequence``) and never goes below it; SQLite adds
it only as a table is made, so the table is made again (alembic's batch mode), with
every row, id, index and constraint. PostgreSQL's sequence never gives an id twice:
nothing changes there.

The largest id kept is where ``AUTOINCREMENT`` starts: the id of an account deleted
before this migration and newer than every account kept is not known, and may be given
once more (its ratings were moved away as it was deleted: ``RatingStore.retire``).
"""

from alembic import op

revision = "0019_account_ids"
down_revision: str | None = "0018_push_accounts"
branch_labels: str | None = None
depends_on: str | None = None


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table(
        "accounts", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass


def upgrade() -> None:
    _rebuild(autoincrement=True)


def downgrade() -> None:
    _rebuild(autoincrement=False)
