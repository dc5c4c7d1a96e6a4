"""The store on both backends: tables, seats, actions, migrations, database URLs."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from sqlalchemy import MetaData, Table, event, insert, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError

from triominos.rules import preset
from triominos.server.nodes import Leases, Node
from triominos.server.protocol import CHAT_STORED
from triominos.server.store import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ActionWrite,
    ActionWriter,
    SeatInfo,
    StorageFault,
    Store,
    StoredAction,
    StoreError,
    TableInfo,
    default_database_url,
    engine_url,
    storage_fault,
)


def new_table(
    store: Store,
    *,
    people: int = 1,
    bots: int = 1,
    hashes: bool = False,
    listed: bool = True,
    created_by: str | None = None,
) -> TableInfo:
    seats = [
        SeatInfo(seat, "person", f"P{seat}", token_hash=f"{seat:064d}" if hashes else None)
        for seat in range(people)
    ]
    seats += [SeatInfo(people + seat, "bot", "greedy", "greedy") for seat in range(bots)]
    return store.create_table(
        preset="classic",
        rules=preset("classic").rules.replace(target_score=100),
        players=people + bots,
        seed=2**62 + 7,
        turn_seconds=30.0,
        seats=seats,
        listed=listed,
        created_by=created_by,
    )


def test_a_new_table_keeps_everything_it_was_made_with(store: Store) -> None:
    table = new_table(store)
    assert len(table.code) == CODE_LENGTH and set(table.code) <= set(CODE_ALPHABET)
    assert store.table(table.code) == table
    assert table.rules.target_score == 100
    assert table.seed == 2**62 + 7  # a 64-bit seed survives both backends
    assert table.turn_seconds == 30.0
    assert table.status == "waiting"
    assert [seat.kind for seat in table.seats] == ["person", "bot"]
    assert not table.seats[0].taken and table.seats[1].taken


def test_an_unknown_code_is_none(store: Store) -> None:
    assert store.table("NOSUCH") is None


def test_taking_seats_fills_the_table_and_never_twice(store: Store) -> None:
    table = new_table(store, people=2, bots=0)
    first = store.take_seat(table.id, None, "Ann", "a" * 64)
    assert first is not None
    seat, after = first
    assert seat == 0 and after.seats[0].name == "Ann" and after.status == "waiting"
    assert store.take_seat(table.id, 0, "Eve", "e" * 64) is None
    second = store.take_seat(table.id, None, "Bob", "b" * 64)
    assert second is not None and second[0] == 1 and second[1].status == "playing"
    assert store.take_seat(table.id, None, "Eve", "e" * 64) is None


def test_a_table_starts_playing_at_creation_when_no_seat_is_free(store: Store) -> None:
    full = new_table(store, people=1, hashes=True)
    assert full.status == "playing" and full.started_at is not None  # the database's now
    waiting = new_table(store, people=1)
    assert waiting.status == "waiting" and waiting.started_at is None


def test_the_moment_the_last_seat_fills_is_kept_once(store: Store) -> None:
    table = new_table(store, people=2, bots=0)
    first = store.take_seat(table.id, None, "Ann", "a" * 64)
    assert first is not None and first[1].started_at is None
    before = time.time()
    second = store.take_seat(table.id, None, "Bob", "b" * 64)
    assert second is not None
    started = second[1].started_at
    assert started is not None and before <= started <= time.time()
    later = store.give_seat_to_bot(table.id, 0, "greedy", None, "a" * 64)
    assert later is not None and later.started_at == started  # the table began once
    assert store.table(table.code) == later


def test_a_bot_seat_cannot_be_taken(store: Store) -> None:
    table = new_table(store, people=1, bots=1)
    assert store.take_seat(table.id, 1, "Eve", "e" * 64) is None


def test_a_seat_given_to_a_bot_keeps_its_token_and_starts_the_game(store: Store) -> None:
    table = new_table(store, people=2, bots=0, hashes=False)
    store.take_seat(table.id, 0, "Ann", "a" * 64)
    after = store.give_seat_to_bot(table.id, 0, "expert", None, "a" * 64)
    assert after is not None and after.seats[0].kind == "bot" and after.seats[0].bot == "expert"
    assert after.seats[0].token_hash == "a" * 64
    assert after.status == "waiting"  # seat 1 is still free
    after = store.give_seat_to_bot(table.id, 1, "sim", 0.5, None)
    assert after is not None and after.status == "playing" and after.seats[1].think == 0.5


def test_actions_come_back_in_order_and_a_version_is_stored_once(store: Store) -> None:
    table = new_table(store)
    second = StoredAction(2, 1, None, {"action": "draw"}, 2.5)
    first = StoredAction(1, 0, "my-id", {"action": "place", "tile": "0-0-0"}, 1.5)
    store.append_action(table.id, second, finished=False)
    store.append_action(table.id, first, finished=False)
    assert store.actions(table.id) == [first, second]
    with pytest.raises(IntegrityError):
        store.append_action(
            table.id, StoredAction(2, 0, None, {"action": "pass"}, 3.0), finished=False
        )
    assert store.actions(table.id) == [first, second]


def test_actions_of_many_tables_commit_together_and_a_bad_one_fails_alone(store: Store) -> None:
    first, second = new_table(store), new_table(store)
    taken = StoredAction(1, 0, None, {"action": "draw"}, 1.0)
    store.append_action(second.id, taken, finished=False)
    mine = StoredAction(1, 0, None, {"action": "pass"}, 2.0)
    again = StoredAction(1, 1, None, {"action": "pass"}, 2.0)
    after = StoredAction(2, 1, None, {"action": "pass"}, 3.0)
    errors = store.append_actions(
        [
            ActionWrite(first.id, mine, finished=True),
            ActionWrite(second.id, again, finished=False),
            ActionWrite(second.id, after, finished=False),
        ]
    )
    assert errors[0] is None and isinstance(errors[1], IntegrityError) and errors[2] is None
    assert store.actions(first.id) == [mine]
    assert store.actions(second.id) == [taken, after]
    statuses = [store.table(table.code) for table in (first, second)]
    assert [table and table.status for table in statuses] == ["finished", "waiting"]


def test_a_fenced_group_commit_finds_its_tables_by_key_on_sqlite(sqlite_url: str) -> None:
    """The fence's UPDATE looks its tables up by their key: a scan of every table ever
    made at every action would cost more the longer the server runs."""
    store = Store(sqlite_url)
    store.upgrade()
    node = Node.new("http://127.0.0.1:1")
    leases = Leases(store, node)
    leases.heartbeat()
    draw = StoredAction(1, 0, None, {"action": "draw"}, 1.0)
    tables = [new_table(store) for _ in range(3)]
    writes = [ActionWrite(table.id, draw, False, leases.claim(table.id)) for table in tables]
    updates: list[tuple[str, Sequence[object]]] = []

    def seen(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        if statement.lstrip().upper().startswith("UPDATE"):
            updates.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        assert store.append_actions(writes) == [None, None, None]
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    [(statement, parameters)] = updates
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as database:
        plan = [row[3] for row in database.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)]
    store.dispose()
    assert not any(step.startswith("SCAN tables") for step in plan), plan


def test_the_writer_stores_the_actions_waiting_for_it_in_one_commit(store: Store) -> None:
    table = new_table(store)
    batches: list[int] = []
    append_actions = store.append_actions

    def counted(writes: Sequence[ActionWrite]) -> list[Exception | None]:
        batches.append(len(writes))
        return append_actions(writes)

    store.append_actions = counted  # type: ignore[method-assign]
    actions = [StoredAction(version, 0, None, {"action": "draw"}, 1.0) for version in (1, 2, 3)]

    async def append_all() -> list[BaseException | None]:
        writer = ActionWriter(store)
        duplicate = StoredAction(2, 1, None, {"action": "pass"}, 2.0)
        return await asyncio.gather(
            *(writer.append(ActionWrite(table.id, action, False)) for action in actions),
            writer.append(ActionWrite(table.id, duplicate, False)),
            return_exceptions=True,
        )

    outcomes = asyncio.run(append_all())
    assert outcomes[:3] == [None, None, None] and isinstance(outcomes[3], IntegrityError)
    assert batches == [4]
    assert store.actions(table.id) == actions


def test_the_last_action_finishes_the_table(store: Store) -> None:
    table = new_table(store, people=1, hashes=True)
    assert table.status == "playing"
    store.append_action(table.id, StoredAction(1, 0, None, {"action": "pass"}, 9.0), finished=True)
    finished = store.table(table.code)
    assert finished is not None and finished.status == "finished" and finished.finished_at == 9.0


def test_open_tables_are_those_with_a_free_person_seat_newest_first(store: Store) -> None:
    full = new_table(store, people=1, hashes=True)
    older = new_table(store, people=1)
    newer = new_table(store, people=2, bots=0)
    assert [table.code for table in store.tables(open_only=True)] == [newer.code, older.code]
    assert [table.code for table in store.tables(open_only=False)] == [
        newer.code,
        older.code,
        full.code,
    ]


def test_only_the_tables_their_creators_listed_are_listed(store: Store) -> None:
    shown = new_table(store)
    new_table(store, listed=False)
    assert [table.code for table in store.tables(open_only=True)] == [shown.code]
    assert [table.code for table in store.tables(open_only=False)] == [shown.code]


def test_a_rematch_points_back_to_its_table(store: Store) -> None:
    table = new_table(store, hashes=True)
    assert store.rematch_code(table.id) is None
    again = store.create_table(
        preset=table.preset,
        rules=table.rules,
        players=table.players,
        seed=1,
        turn_seconds=None,
        seats=table.seats,
        rematch_of=table.id,
    )
    assert again.rematch_of == table.id
    assert again.seats == table.seats  # same names, kinds and token hashes
    assert store.rematch_code(table.id) == again.code


def test_migrations_make_the_schema_and_run_again_harmlessly(store: Store) -> None:
    store.upgrade()
    names = set(inspect(store.engine).get_table_names())
    assert {"tables", "seats", "actions", "alembic_version"} <= names


def test_a_database_of_the_previous_schema_upgrades_with_its_tables(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.upgrade("0002_pad")
        with store.engine.begin() as connection:
            old = MetaData()
            tables, seats = (
                Table(name, old, autoload_with=connection) for name in ("tables", "seats")
            )
            assert "started_at" not in tables.c
            inserted = connection.execute(
                insert(tables).values(
                    code="OLD234",
                    preset="classic",
                    rules=preset("classic").rules.to_dict(),
                    players=2,
                    seed=5,
                    turn_seconds=20.0,
                    status="waiting",
                    created_at=1.0,
                )
            ).inserted_primary_key
            assert inserted is not None
            table_id = inserted[0]
            connection.execute(
                insert(seats),
                [
                    {"table_id": table_id, "seat": 0, "kind": "person", "name": "Ann"},
                    {"table_id": table_id, "seat": 1, "kind": "bot", "bot": "greedy", "name": "G"},
                ],
            )
        store.upgrade()
        table = store.table("OLD234")
        assert table is not None and table.status == "waiting" and table.started_at is None
        assert table.turn_seconds == 20.0 and [seat.kind for seat in table.seats] == [
            "person",
            "bot",
        ]
        # Its turn timer still draws (its stored actions replay as they were), with hints.
        assert table.timeout_action == "draw" and table.hints
        taken = store.take_seat(table.id, 0, "Ann", "a" * 64)
        assert taken is not None and taken[1].status == "playing"
        assert taken[1].started_at is not None

        store.downgrade("0002_pad")
        assert "started_at" not in {
            column["name"] for column in inspect(store.engine).get_columns("tables")
        }
        store.upgrade()
        again = store.table("OLD234")
        assert again is not None and again.seats == taken[1].seats and again.started_at is None
    finally:
        store.dispose()


def test_a_new_table_stores_its_timeout_action_and_hints(store: Store) -> None:
    store.upgrade()
    made = store.create_table(
        preset="classic",
        rules=preset("classic").rules,
        players=2,
        seed=1,
        turn_seconds=30.0,
        seats=[SeatInfo(0, "bot", "G", "greedy"), SeatInfo(1, "bot", "R", "random")],
        hints=False,
    )
    stored = store.table(made.code)
    assert stored is not None and stored.timeout_action == "place" and not stored.hints


def test_postgresql_urls_use_psycopg_3() -> None:
    url = engine_url("postgresql://user:secret@db.example/games")
    assert url.drivername == "postgresql+psycopg" and url.database == "games"
    assert engine_url("sqlite:////tmp/x.db").drivername == "sqlite"


@pytest.mark.parametrize(
    ("url", "words"),
    [("not a url", "not a database URL"), ("mysql://db/games", "unsupported database")],
)
def test_a_database_url_that_cannot_be_used_says_why(url: str, words: str) -> None:
    with pytest.raises(StoreError, match=words):
        Store(url)


def test_the_default_database_is_a_sqlite_file_in_the_user_data_directory() -> None:
    url = default_database_url()
    assert url.startswith("sqlite:///") and url.endswith("triominos/triominos.db")


def test_sqlite_creates_its_directory_and_runs_in_wal_mode(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'new' / 'deeper' / 'games.db'}")
    store.upgrade()
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.dispose()
    assert (tmp_path / "new" / "deeper" / "games.db").is_file()


# --- issue 13: seats that change hands, waiting tables, storage that fails ------------------


def test_a_seat_goes_to_a_bot_only_while_its_person_is_the_one_expected(store: Store) -> None:
    """A join racing a handover: the second to reach the database loses, whichever."""
    table = new_table(store, people=2, bots=0)
    store.take_seat(table.id, 0, "Ann", "a" * 64)
    assert store.give_seat_to_bot(table.id, 1, "greedy", None, "b" * 64) is None
    store.take_seat(table.id, 1, "Bob", "b" * 64)  # Bob sat down after the look
    assert store.give_seat_to_bot(table.id, 1, "greedy", None, None) is None
    given = store.give_seat_to_bot(table.id, 1, "greedy", None, "b" * 64)
    assert given is not None and given.seats[1].kind == "bot"
    assert store.give_seat_to_bot(table.id, 1, "sim", None, "b" * 64) is None  # once


def test_a_person_takes_their_seat_back_from_the_bot_with_their_token(store: Store) -> None:
    table = new_table(store, people=2, bots=0)
    store.take_seat(table.id, 0, "Ann", "a" * 64)
    store.take_seat(table.id, 1, "Bob", "b" * 64)
    store.give_seat_to_bot(table.id, 1, "expert", None, "b" * 64)
    assert store.reclaim_seat(table.id, 1, "a" * 64) is None  # not Ann's seat
    back = store.reclaim_seat(table.id, 1, "b" * 64)
    assert back is not None and back.seats[1].kind == "person" and back.seats[1].bot is None
    assert back.seats[1].token_hash == "b" * 64 and back.status == "playing"
    assert store.reclaim_seat(table.id, 1, "b" * 64) is None  # a person plays it already


def test_waiting_tables_are_counted_per_creator_and_in_all(store: Store) -> None:
    new_table(store, created_by="me")
    new_table(store, created_by="me")
    new_table(store, created_by="you")
    new_table(store, people=1, hashes=True, created_by="me")  # playing: not waiting
    assert store.waiting_counts("me") == (2, 3)
    assert store.waiting_counts("nobody") == (0, 3)


def test_old_waiting_tables_expire_but_those_held_and_those_played(store: Store) -> None:
    old = new_table(store)
    kept = new_table(store)
    holder = Leases(store, Node.new("http://node.invalid"))
    holder.heartbeat()
    assert holder.claim(kept.id) == 1  # a node holds it: someone may watch it there
    playing = new_table(store, people=1, hashes=True)
    cutoff = time.time()
    young = new_table(store)
    assert store.expire_waiting(cutoff, cutoff) == [old.code]
    assert store.table(old.code) is None
    for table in (kept, playing, young):
        assert store.table(table.code) is not None


def test_a_waiting_table_someone_joined_keeps_longer(store: Store) -> None:
    lonely, joined = new_table(store, people=2), new_table(store, people=3)
    assert store.take_seat(joined.id, None, "Bob", "1" * 64) is not None
    cutoff = time.time()
    assert store.expire_waiting(cutoff, 0.0) == [lonely.code]
    assert store.expire_waiting(cutoff, cutoff) == [joined.code]


def test_eviction_takes_the_oldest_unjoined_table_of_the_biggest_holder(store: Store) -> None:
    here = Node.new("http://here.invalid")
    flood = [new_table(store, created_by="flood") for _ in range(3)]
    other = [new_table(store, created_by="other") for _ in range(3)]
    assert store.take_seat(other[0].id, None, "Bob", "1" * 64) is not None  # now playing
    watched = new_table(store, created_by="watched")
    elsewhere = Leases(store, Node.new("http://there.invalid"))
    elsewhere.heartbeat()
    assert elsewhere.claim(flood[2].id) == 1  # another node holds it
    # Evictable: two of the flood's (one is held elsewhere), two of the other's (one was
    # joined): on a tie the older goes, else the bigger holder's oldest.
    assert store.evict_waiting(here.id, keep=[watched.id]) == flood[0].code
    assert store.evict_waiting(here.id, keep=[watched.id]) == other[1].code
    assert store.evict_waiting(here.id, keep=[watched.id]) == flood[1].code
    assert store.evict_waiting(here.id, keep=[watched.id]) == other[2].code
    assert store.evict_waiting(here.id, keep=[watched.id]) is None
    assert store.table(watched.code) is not None and store.table(flood[2].code) is not None


def test_a_writable_database_passes_the_write_check(store: Store) -> None:
    store.check_writable()


def test_a_database_without_the_schema_fails_the_write_check(database_url: str) -> None:
    store = Store(database_url)
    try:
        with pytest.raises(StorageFault) as raised:
            store.check_writable()
        assert raised.value.kind in ("gone", "error", "schema")
    finally:
        store.dispose()


def test_a_removed_sqlite_file_is_a_fault_not_a_silent_loss(tmp_path: Path) -> None:
    """SQLite writes on into a deleted file through its open connections: every commit
    would "succeed" and be gone at the next start."""
    path = tmp_path / "games.db"
    store = Store(f"sqlite:///{path}")
    store.upgrade()
    table = new_table(store)
    store.append_action(table.id, StoredAction(1, 0, None, {"action": "draw"}, 1.0), finished=False)
    for name in ("games.db", "games.db-wal", "games.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with pytest.raises(StorageFault) as raised:
        store.append_action(
            table.id, StoredAction(2, 0, None, {"action": "draw"}, 2.0), finished=False
        )
    assert raised.value.kind == "gone"
    with pytest.raises(StorageFault):
        store.check_writable()
    store.dispose()


def test_a_locked_sqlite_database_fails_within_the_busy_bound(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = Store(f"sqlite:///{path}")
    store.upgrade()
    table = new_table(store)
    holder = sqlite3.connect(path, timeout=0)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StorageFault) as raised:
            store.append_action(
                table.id, StoredAction(1, 0, None, {"action": "draw"}, 1.0), finished=False
            )
        assert raised.value.kind == "locked"
    finally:
        holder.rollback()
        holder.close()
    store.append_action(table.id, StoredAction(1, 0, None, {"action": "draw"}, 1.0), finished=False)
    store.dispose()


def test_a_read_only_postgresql_database_fails_the_write_check(postgres_url: str) -> None:
    store = Store(postgres_url)
    store.upgrade()
    name = make_url(postgres_url).database
    with store.engine.connect() as connection:
        connection.execute(text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'))
        connection.commit()
    store.dispose()  # new connections take the setting
    try:
        with pytest.raises(StorageFault) as raised:
            store.check_writable()
        assert raised.value.kind == "read_only"
    finally:
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("SET default_transaction_read_only = off"))
            connection.execute(
                text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
            )
        store.dispose()


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("database is locked", "locked"),
        ("attempt to write a readonly database", "read_only"),
        ("cannot execute UPDATE in a read-only transaction", "read_only"),
        ("database or disk is full", "full"),
        ("could not extend file: No space left on device", "full"),
        ("canceling statement due to lock timeout", "locked"),
        ("connection refused", "unreachable"),
        ("something else", "error"),
    ],
)
def test_storage_faults_are_told_apart_by_kind(message: str, kind: str) -> None:
    assert storage_fault(OperationalError("SQL", {}, Exception(message))).kind == kind


def test_a_chat_keeps_its_last_messages_and_a_long_finished_table_none(store: Store) -> None:
    """1,675 chat rows a minute from one address were kept for ever."""
    played, finished = new_table(store, people=1, hashes=True), new_table(store, people=1)
    for number in range(CHAT_STORED + 5):
        store.add_chat(played.id, "players", 0, "P0", f"line {number}")
    store.add_chat(played.id, "spectators", None, "", "hello")
    kept = store.chats(played.id, "players", 10 * CHAT_STORED)
    assert [said["text"] for said in kept] == [f"line {n}" for n in range(5, CHAT_STORED + 5)]
    assert len(store.chats(played.id, "spectators", 10)) == 1  # each chat its own count
    store.add_chat(finished.id, "players", 0, "P0", "gg")
    store.append_action(
        finished.id, StoredAction(1, 0, None, {"action": "pass"}, 100.0), finished=True
    )
    assert store.forget_chat(finished_before=50.0) == 0
    assert store.forget_chat(finished_before=150.0) == 1
    assert store.chats(finished.id, "players", 10) == []
    assert len(store.chats(played.id, "players", 10)) == 10
