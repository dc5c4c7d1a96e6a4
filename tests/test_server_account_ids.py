"""Account ids are never given twice, on SQLite and PostgreSQL (issue 33), and migration
``0019_account_ids`` brings an existing SQLite database there with every row kept."""

from __future__ import annotations

import sqlite3

import pytest

pytest.importorskip("starlette")

from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError

from triominos.server.account_store import AccountRefusal, AccountStore, SessionRow
from triominos.server.store import StorageFault, Store

BEFORE = "0018_push_accounts"
"""The revision before account ids were kept from being given twice."""


def accounts_of(store: Store, *names: str) -> list[int]:
    """Make an account of each name, signed in once; their ids."""
    accounts = AccountStore(store)
    made = [accounts.create(name, "en", f"handle-{name}", None, 1.0).id for name in names]
    for account_id in made:
        accounts.sign_in(account_id, f"sign-in-{account_id}", 2.0)
    return made


def test_a_deleted_accounts_id_is_not_given_to_the_next_account(store: Store) -> None:
    accounts = AccountStore(store)
    first, newest = accounts_of(store, "Ann", "Bob")
    accounts.delete(newest)
    (after,) = accounts_of(store, "Cleo")
    assert after > newest > first


def test_the_migration_keeps_every_account_and_what_refers_to_it(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.upgrade(BEFORE)
        ann, bob, cleo = accounts_of(store, "Ann", "Bob", "Cleo")
        AccountStore(store).delete(cleo)
        store.upgrade()

        accounts = AccountStore(store)
        kept = [accounts.account(account_id) for account_id in (ann, bob)]
        assert [(account.name, account.user_handle) for account in kept if account] == [
            ("Ann", "handle-Ann"),
            ("Bob", "handle-Bob"),
        ]
        assert accounts.signed_in(f"sign-in-{bob}", 3.0) == kept[1]
        with pytest.raises(AccountRefusal, match="taken"):  # the names' unique key is kept
            accounts.create("ANN", "en", "another handle", None, 3.0)
        accounts.delete(bob)
        (dana,) = accounts_of(store, "Dana")
        assert dana > bob  # Cleo was deleted before the migration: above hers is enough
        # The references are enforced again once migrated.
        with pytest.raises(IntegrityError), store.session() as session:
            session.add(SessionRow(id_hash="x", account_id=dana + 100, created_at=1, used_at=1))

        store.downgrade(BEFORE)
        assert AccountStore(store).account(ann) == kept[0]
        store.upgrade()
        assert AccountStore(store).account(ann) == kept[0]
    finally:
        store.dispose()


def test_on_sqlite_the_accounts_table_keeps_the_largest_id_given(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        store.upgrade()
        (ann,) = accounts_of(store, "Ann")
        with store.session() as session:
            made = session.scalar(text("SELECT sql FROM sqlite_master WHERE name='accounts'"))
            largest = session.scalar(text("SELECT seq FROM sqlite_sequence WHERE name='accounts'"))
        assert made is not None and "AUTOINCREMENT" in made
        assert largest == ann
    finally:
        store.dispose()


def test_a_migration_that_would_leave_a_dangling_reference_is_refused(sqlite_url: str) -> None:
    """A row that refers to an account that is not there (only a database whose keys
    were not enforced can have one) stops the migration, whose keys are not enforced
    while it runs, instead of being carried on."""
    store = Store(sqlite_url)
    try:
        store.upgrade(BEFORE)
        database = store.url.database
        assert database is not None
        with sqlite3.connect(database) as unchecked:  # foreign keys are off by default
            unchecked.execute(
                "INSERT INTO account_sessions (id_hash, account_id, created_at, used_at) "
                "VALUES ('x', 7, 1, 1)"
            )
        with pytest.raises(StorageFault, match="account_sessions"):
            store.upgrade()
        # The connection went back to the pool as it came: keys enforced, and a
        # transaction undone as a whole.
        with pytest.raises(ZeroDivisionError), store.session() as session:
            assert session.scalar(text("PRAGMA foreign_keys")) == 1
            session.execute(delete(SessionRow))
            _ = 1 / 0
        with store.session() as session:
            assert session.scalars(select(SessionRow.account_id)).all() == [7]
            session.execute(delete(SessionRow))
        store.upgrade()  # nothing of the refused migration is left in its way
        (ann,) = accounts_of(store, "Ann")
        assert AccountStore(store).signed_in(f"sign-in-{ann}", 3.0) is not None
    finally:
        store.dispose()
