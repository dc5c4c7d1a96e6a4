"""One table's locked row holds up no other table (issue 37): on PostgreSQL a row lock
held 30 s made the node's other tables wait up to 10.4 s between moves, because the one
commit shared by all the tables' actions waited out the lock. On a real PostgreSQL and
a real server: another connection holds one table's row, and a second table's moves are
acknowledged while the first table's move waits; the first is acknowledged once the
row is let go."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("starlette")

import psycopg

from server_games import WAIT_SECONDS, Message, Served, Viewer, serve_app
from test_server_store import new_table
from triominos.server import store as store_module
from triominos.server.store import ActionWrite, Store, StoredAction, TableBusy

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


@pytest.fixture
def served(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """The server on PostgreSQL, its statements waiting for a lock far longer than the
    test needs: the first table's move waits for its row until the test lets it go, so
    that nothing here depends on the machine's speed."""
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 120.0)
    with serve_app(postgres_url) as served:
        yield served


def seated(served: Served) -> tuple[str, Viewer, Viewer]:
    """A table of two people: its code, the viewer to move and the other."""
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    viewers = [served.viewer(created["code"], seat["token"]) for seat in created["seats"]]
    mover = next(viewer for viewer in viewers if viewer.view["legal"])
    return created["code"], mover, next(viewer for viewer in viewers if viewer is not mover)


def heard_so_far(viewer: Viewer) -> list[Message]:
    """The messages the viewer has been sent until now, without waiting for more."""
    heard = []
    while True:
        try:
            heard.append(viewer.receive(timeout=0))
        except TimeoutError:
            return heard


def at_version(version: int) -> Callable[[Message], bool]:
    """Whether a message is the event of this version."""
    return lambda message: message.get("version") == version


def wait_for_a_lock_wait(holder: psycopg.Connection) -> None:
    """Until a statement of the server waits for a lock (the first table's write)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        waiting = holder.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        ).fetchone()
        if waiting is not None and waiting[0] > 0:
            return
        assert time.monotonic() < deadline, "the first table's write never waited for its row"
        time.sleep(0.05)


def test_a_locked_row_of_one_table_holds_up_no_move_of_another(
    served: Served, postgres_url: str
) -> None:
    held_code, held_mover, _ = seated(served)
    free_code, first, second = seated(served)
    with psycopg.connect(postgres_url.replace("+psycopg", "")) as holder:
        with psycopg.connect(postgres_url.replace("+psycopg", ""), autocommit=True) as watcher:
            holder.execute("SELECT id FROM tables WHERE code = %s FOR UPDATE", (held_code,))
            held_mover.act(held_mover.view["legal"][0]["action"], "held")
            wait_for_a_lock_wait(watcher)
            movers = [first, second]
            for number in range(4):
                mover = next(viewer for viewer in movers if viewer.view["legal"])
                answer = mover.play_first_legal(f"free-{number}")
                assert answer["type"] == "event", answer
                other = movers[1 - movers.index(mover)]
                other.until(at_version(answer["version"]))
            # Four moves of the other table acknowledged; the held one not answered yet.
            assert all(message.get("id") != "held" for message in heard_so_far(held_mover))
            holder.rollback()
        answer = held_mover.answer("held")
        assert answer["type"] == "event", answer
    assert served.http.get(f"/api/tables/{held_code}").json()["version"] == 1
    assert served.http.get(f"/api/tables/{free_code}").json()["version"] == 4
    for viewer in (held_mover, first, second):
        viewer.close()


def test_a_group_commit_leaves_a_held_table_out_without_waiting_and_writes_the_rest(
    postgres_url: str,
) -> None:
    store = Store(postgres_url)
    store.upgrade()
    held, free = new_table(store), new_table(store)
    draw = StoredAction(1, 0, None, {"action": "draw"}, 1.0)
    writes = [ActionWrite(held.id, draw, False), ActionWrite(free.id, draw, False)]
    with psycopg.connect(postgres_url.replace("+psycopg", "")) as holder:
        holder.execute("SELECT id FROM tables WHERE id = %s FOR UPDATE", (held.id,))
        errors = store.append_actions(writes)
        assert isinstance(errors[0], TableBusy) and errors[0].table_id == held.id
        assert errors[1] is None
        assert store.actions(held.id) == [] and store.actions(free.id) == [draw]
        holder.rollback()
    assert store.append_alone(writes[0]) is None
    assert store.actions(held.id) == [draw]
    store.dispose()


def test_a_group_commit_of_held_tables_only_leaves_them_all_out_without_waiting(
    postgres_url: str,
) -> None:
    """Every table of the group is held: nothing is written, each write is to be made
    alone, and the group commit itself waited for no row."""
    store = Store(postgres_url)
    store.upgrade()
    tables = [new_table(store), new_table(store)]
    draw = StoredAction(1, 0, None, {"action": "draw"}, 1.0)
    writes = [ActionWrite(table.id, draw, False) for table in tables]
    with psycopg.connect(postgres_url.replace("+psycopg", "")) as holder:
        holder.execute(
            "SELECT id FROM tables WHERE id = ANY(%s) FOR UPDATE", ([t.id for t in tables],)
        )
        errors = store.append_actions(writes)
        assert [type(error) for error in errors] == [TableBusy, TableBusy]
        assert all(store.actions(table.id) == [] for table in tables)
        holder.rollback()
    store.dispose()
