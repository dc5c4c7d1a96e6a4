"""Nodes and leases on both databases (issue 16): a claim raises the epoch, a write under
an older claim changes nothing, two nodes racing for one table never both win, leases
are renewed, given up, and claimed once they ran out, on the database's clock."""

from __future__ import annotations

import logging
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette")
from sqlalchemy import event, inspect, text, update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server_games import WAIT_SECONDS, Served, Viewer, serve_app
from test_server_store import new_table
from triominos.server.nodes import Leases, Node
from triominos.server.protocol import SERVICE_RESTART
from triominos.server.store import (
    ActionWrite,
    DatabaseNow,
    LeaseLost,
    NodeRow,
    Store,
    StoredAction,
    TableRow,
)


def node(store: Store, name: str, lease_seconds: float = 5.0) -> Leases:
    leases = Leases(store, Node(name, f"http://{name}.invalid", f"secret-{name}"), lease_seconds)
    leases.heartbeat()
    return leases


def draw(version: int) -> StoredAction:
    return StoredAction(version, 0, f"c{version}", {"action": "draw"}, float(version))


def playing(store: Store) -> int:
    return new_table(store, people=1, hashes=True).id


def expire(leases: Leases) -> None:
    """The node's lease ran out (on the database's clock), as when it died."""
    with leases.store.session() as session:
        session.execute(
            update(NodeRow)
            .where(NodeRow.id == leases.node.id)
            .values(lease_until=DatabaseNow() - 1.0)
        )


def test_a_claim_raises_the_epoch_and_holds_against_other_nodes(store: Store) -> None:
    table = playing(store)
    ann, bob = node(store, "ann"), node(store, "bob")
    assert ann.claim(table) == 1
    assert bob.claim(table) is None  # Ann's lease holds
    assert bob.owner(table) == ann.node
    assert ann.claim(table) == 2  # the owner may claim again (it reloads the table)


def test_a_write_under_a_replaced_claim_is_refused_and_changes_nothing(store: Store) -> None:
    table = playing(store)
    ann, bob = node(store, "ann"), node(store, "bob")
    first = ann.claim(table)
    assert first is not None
    store.append_action(table, draw(1), finished=False, epoch=first)
    expire(ann)
    second = bob.claim(table)
    assert second == first + 1
    with pytest.raises(LeaseLost):
        store.append_action(table, draw(2), finished=True, epoch=first)
    with pytest.raises(LeaseLost):
        store.take_seat(table, None, "Eve", "e" * 64, epoch=first)
    with pytest.raises(LeaseLost):
        store.give_seat_to_bot(table, 0, "greedy", None, f"{0:064d}", epoch=first)
    assert [action.version for action in store.actions(table)] == [1]
    info = store.table(code_of(store, table))
    assert info is not None and info.status == "playing" and info.seats[0].kind == "person"
    store.append_action(table, draw(2), finished=False, epoch=second)  # Bob's claim writes
    assert [action.version for action in store.actions(table)] == [1, 2]


def code_of(store: Store, table_id: int) -> str:
    with store.session() as session:
        row = session.get(TableRow, table_id)
        assert row is not None
        return row.code


def test_a_fenced_write_fails_alone_in_a_group_commit(store: Store) -> None:
    mine, theirs = playing(store), playing(store)
    ann, bob = node(store, "ann"), node(store, "bob")
    mine_epoch, theirs_epoch = ann.claim(mine), ann.claim(theirs)
    expire(ann)
    assert bob.claim(theirs) is not None
    errors = store.append_actions(
        [
            ActionWrite(mine, draw(1), False, mine_epoch),
            ActionWrite(theirs, draw(1), False, theirs_epoch),
        ]
    )
    assert errors[0] is None and isinstance(errors[1], LeaseLost)
    assert len(store.actions(mine)) == 1 and store.actions(theirs) == []


def test_two_claims_of_one_table_in_a_group_commit_store_only_the_current_one(
    store: Store,
) -> None:
    table = playing(store)
    ann = node(store, "ann")
    first = ann.claim(table)
    second = ann.claim(table)  # the node reloaded the table: its old copy's claim is stale
    assert first is not None and second == first + 1
    errors = store.append_actions(
        [ActionWrite(table, draw(1), False, first), ActionWrite(table, draw(1), False, second)]
    )
    assert isinstance(errors[0], LeaseLost) and errors[1] is None
    assert [action.version for action in store.actions(table)] == [1]


def test_a_group_commit_fences_all_its_tables_in_one_statement(store: Store) -> None:
    tables = [playing(store) for _ in range(3)]
    ann = node(store, "ann")
    epochs = [ann.claim(table) for table in tables]
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        statements.append(statement)

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        errors = store.append_actions(
            [
                ActionWrite(table, draw(1), False, epoch)
                for table, epoch in zip(tables, epochs, strict=True)
            ]
        )
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    assert errors == [None, None, None]
    assert sum(statement.lstrip().upper().startswith("UPDATE") for statement in statements) == 1
    assert all(len(store.actions(table)) == 1 for table in tables)


def race(store: Store, table: int, nodes: int) -> list[int | None]:
    """``nodes`` nodes claim one table at the same moment; what each got."""
    racers = [node(store, f"n{number}") for number in range(nodes)]
    won: list[int | None] = [None] * nodes
    start = threading.Barrier(nodes)

    def claim(number: int) -> None:
        start.wait()
        won[number] = racers[number].claim(table)

    threads = [threading.Thread(target=claim, args=(number,)) for number in range(nodes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return won


def test_two_nodes_racing_for_one_table_never_both_win(store: Store) -> None:
    for _ in range(20):
        won = race(store, playing(store), 4)
        assert sorted(won, key=lambda epoch: epoch is not None) == [None, None, None, 1]


def test_orphans_are_claimed_once_by_the_nodes_left(store: Store) -> None:
    tables = [playing(store) for _ in range(6)]
    waiting = new_table(store).id  # nobody plays it: it waits for someone to ask
    dead = node(store, "dead")
    for table in tables:
        dead.claim(table)
    left = [node(store, "ann"), node(store, "bob")]
    assert [leases.claim_orphans() for leases in left] == [[], []]  # the leases hold
    expire(dead)
    claims = [claim for leases in left for claim in leases.claim_orphans()]
    claims += [claim for leases in left for claim in leases.claim_orphans()]
    assert sorted(claim.table_id for claim in claims) == sorted(tables)  # each once
    assert all(claim.epoch == 2 for claim in claims)
    assert waiting not in {claim.table_id for claim in claims}


def test_renewal_keeps_the_lease_and_tells_a_lost_one(store: Store) -> None:
    table, other = playing(store), playing(store)
    ann, bob = node(store, "ann", lease_seconds=5.0), node(store, "bob")
    epoch = ann.claim(table)
    ann.claim(other)
    expire(ann)
    assert ann.claim_orphans() == []  # still Ann's own, her lease late or not
    assert ann.heartbeat()[table] == epoch  # renewed: nobody claimed it meanwhile
    assert bob.claim(table) is None
    expire(ann)
    taken = bob.claim(other)
    assert taken is not None
    held = ann.heartbeat()
    assert table in held and other not in held  # Bob's now: Ann drops it
    assert bob.heartbeat() == {other: taken}


def test_a_released_table_is_claimed_at_once_and_an_old_release_is_harmless(
    store: Store,
) -> None:
    table = playing(store)
    ann, bob = node(store, "ann"), node(store, "bob")
    first = ann.claim(table)
    assert first is not None
    ann.release({table: first})
    second = bob.claim(table)
    assert second == first + 1
    ann.release({table: first})  # late: Bob's claim stays
    assert ann.owner(table) == bob.node


def test_a_node_that_leaves_gives_everything_up(store: Store) -> None:
    tables = [playing(store) for _ in range(3)]
    ann, bob = node(store, "ann"), node(store, "bob")
    for table in tables:
        ann.claim(table)
    ann.leave()
    assert all(bob.claim(table) == 2 for table in tables)
    assert bob.owner(tables[0]) == bob.node


def test_a_node_alone_on_its_database_takes_every_table_over(store: Store) -> None:
    table = playing(store)
    before, after = node(store, "before"), node(store, "after")
    before.claim(table)
    after.take_over()
    assert after.claim(table) == 2
    assert before.heartbeat() == {}


def test_expired_waiting_tables_keep_those_a_node_holds(store: Store) -> None:
    held, free = new_table(store), new_table(store)
    node(store, "ann").claim(held.id)
    assert store.expire_waiting(float("inf"), float("inf")) == [free.code]


def test_the_migration_adds_the_nodes_and_goes_back(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.upgrade("0005_table")
        table = new_table_old(store)
        store.upgrade()
        columns = {column["name"] for column in inspect(store.engine).get_columns("tables")}
        assert {"owner", "epoch"} <= columns
        assert "nodes" in inspect(store.engine).get_table_names()
        assert node(store, "ann").claim(table) == 1  # an old table is nobody's
        store.downgrade("0005_table")
        inspector = inspect(store.engine)
        assert "nodes" not in inspector.get_table_names()
        assert "epoch" not in {column["name"] for column in inspector.get_columns("tables")}
        store.upgrade()
    finally:
        store.dispose()


def new_table_old(store: Store) -> int:
    """A table made by the schema before nodes (0005_table), written by plain SQL."""
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO tables (code, preset, rules, players, seed, status, created_at,"
                " grace_seconds, listed, timeout_action, hints)"
                " VALUES ('OLD234', 'classic', '{}', 2, 5, 'playing', 1.0, 60, false,"
                " 'place', true)"
            )
        )
        table_id = connection.execute(text("SELECT id FROM tables")).scalar_one()
    assert isinstance(table_id, int)
    return table_id


# --- a node of the service ----------------------------------------------------------------

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def another_node_takes(served: Served, code: str) -> Leases:
    """The service's node falls silent and another node claims the table (again if the
    service renewed its lease in between, as its renewal runs every 0.4 s)."""
    store = served.service.store
    rival = node(store, "rival")
    info = store.table(code)
    assert info is not None
    for _ in range(20):
        expire(served.service.leases)
        if rival.claim(info.id) is not None:
            return rival
    raise AssertionError(f"the rival never claimed table {code}")


def closed_with(viewer: Viewer) -> int | None:
    """The close code the viewer's connection ends with (messages before it skipped)."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            viewer.receive()
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def test_a_node_whose_table_was_claimed_stores_nothing_more_and_sends_its_viewers_on(
    served: Served,
) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
    viewers = [served.viewer(code, token) for token in tokens]
    mover = next(viewer for viewer in viewers if viewer.view["legal"])
    another_node_takes(served, code)
    mover.act(mover.view["legal"][0]["action"], "late")  # fenced out: not stored
    assert all(closed_with(viewer) == SERVICE_RESTART for viewer in viewers)
    assert served.service.store.actions(served.service.store.table(code).id) == []  # type: ignore[union-attr]
    assert code not in served.service.tables
    assert 'triominos_leases_total{event="lost"} 1' in served.http.get("/metrics").text


def test_renewal_finds_a_table_claimed_elsewhere_and_sends_its_viewers_on(
    served: Served,
) -> None:
    code = served.create(seats=TWO_PEOPLE, take=[0, 1])["code"]
    viewer = served.viewer(code)
    another_node_takes(served, code)
    served.run(served.service.renew())
    assert closed_with(viewer) == SERVICE_RESTART
    assert code not in served.service.tables


def test_a_drained_node_is_not_ready_and_its_tables_are_claimable_at_once(
    served: Served,
) -> None:
    code = served.create(seats=TWO_PEOPLE, take=[0, 1])["code"]
    viewer = served.viewer(code)
    served.run(served.service.drain())
    assert closed_with(viewer) == SERVICE_RESTART
    ready = served.http.get("/readyz")
    assert ready.status_code == 503 and ready.json()["storage"] == "draining"
    info = served.service.store.table(code)
    assert info is not None and node(served.service.store, "next").claim(info.id) == 2


def stored_seats(served: Served, code: str) -> list[str | None]:
    info = served.service.store.table(code)
    assert info is not None
    return [seat.token_hash for seat in info.seats]


def test_a_join_on_a_table_claimed_elsewhere_is_503_and_the_node_gives_it_up(
    served: Served,
) -> None:
    code = served.create(seats=TWO_PEOPLE, take=[0])["code"]
    before = stored_seats(served, code)
    another_node_takes(served, code)
    joined = served.http.post(f"/api/tables/{code}/join", json={"name": "Bob"})
    assert joined.status_code == 503 and joined.json()["error"]["code"] == "unavailable"
    assert stored_seats(served, code) == before  # fenced out: nobody sat down
    assert code not in served.service.tables


def test_a_seat_given_to_a_bot_on_a_table_claimed_elsewhere_is_503_and_given_up(
    served: Served,
) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0])
    code, token = created["code"], created["seats"][0]["token"]
    another_node_takes(served, code)
    given = served.http.post(
        f"/api/tables/{code}/seats/1/bot", json={"token": token, "bot": "greedy"}
    )
    assert given.status_code == 503 and given.json()["error"]["code"] == "unavailable"
    info = served.service.store.table(code)
    assert info is not None and info.seats[1].kind == "person"
    assert code not in served.service.tables


def test_a_chat_line_on_a_table_claimed_elsewhere_is_not_kept(served: Served) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    code, token = created["code"], created["seats"][0]["token"]
    viewer = served.viewer(code, token)
    another_node_takes(served, code)
    viewer.send({"type": "chat", "text": "written after the claim"})
    assert closed_with(viewer) == SERVICE_RESTART
    info = served.service.store.table(code)
    assert info is not None and served.service.store.chats(info.id, "players", 10) == []
    assert code not in served.service.tables


@contextmanager
def fake_node(answer: bytes | None = None) -> Iterator[tuple[str, list[bytes]]]:
    """The URL of a node that reads each request, keeps it (the list yielded beside the
    URL), then sends ``answer`` as it is; without one it dies before it answers: it
    resets the connection."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()
    received: list[bytes] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                received.append(connection.recv(65536))
                if answer is None:
                    linger = struct.pack("ii", 1, 0)
                    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                else:
                    connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", received
    finally:
        stop.set()
        thread.join()
        listener.close()


def hand_over(served: Served, code: str, url: str) -> None:
    """The table ``code`` passes to a rival node at ``url``: the service gives it up."""
    store = served.service.store
    rival = Leases(store, Node("rival", url, "secret-rival"))
    rival.heartbeat()
    expire(served.service.leases)
    info = store.table(code)
    assert info is not None and rival.claim(info.id) is not None
    served.run(served.service.renew())  # the node gives the table up: the rival's now
    assert code not in served.service.tables


def test_a_look_up_proxied_to_an_owner_that_dies_answering_is_503(served: Served) -> None:
    code = served.create(seats=TWO_PEOPLE, take=[0])["code"]
    with fake_node() as (url, _):
        hand_over(served, code, url)
        looked = served.http.get(f"/api/tables/{code}")
    assert looked.status_code == 503 and looked.json()["error"]["code"] == "unavailable"
    assert served.service.node_metrics.relay_errors == 1  # counted as a failed hop


def test_a_request_proxied_to_the_owner_carries_the_sign_in_cookie(served: Served) -> None:
    """A player signed in on one node joins a rated table another node holds: the owner
    needs the account's cookie to know who joins (and to record the account's traces)."""
    code = served.create(seats=TWO_PEOPLE, take=[0])["code"]
    answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
    with fake_node(answer) as (url, received):
        hand_over(served, code, url)
        served.http.cookies.set("triominos_sign_in", "the-session")
        looked = served.http.get(f"/api/tables/{code}")
    assert looked.status_code == 200 and looked.json() == {}
    headers = received[0].decode().lower().split("\r\n")
    assert any(
        line.startswith("cookie:") and "triominos_sign_in=the-session" in line for line in headers
    )


SLOW_SECONDS = 70.0
"""How far behind the real time the clock of a node in the tests below is."""


def test_a_turn_begun_on_a_node_with_a_slow_clock_lasts_its_time_on_the_next_owner(
    database_url: str,
) -> None:
    """Deadlines are on the database's clock: with an owner 70 s slow, the node that
    took its table over played the idle player's move 10.5 s into a 60 s turn."""
    with serve_app(database_url, clock=lambda: time.time() - SLOW_SECONDS) as slow:
        created = slow.create(seats=TWO_PEOPLE, take=[0, 1], turn_seconds=60)
        code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
        viewers = [slow.viewer(code, token) for token in tokens]
        mover = next(viewer for viewer in viewers if viewer.view["legal"])
        mover.play_first_legal("first")
        for viewer in viewers:
            viewer.close()
    with serve_app(database_url) as served:  # the slow node is gone: this one takes over
        viewer = served.viewer(code)
        view = viewer.greeting["view"]
        assert view["version"] == 1, "the idle player's turn was played at once"
        assert view["turn_deadline"] > time.time() + 30
        viewer.close()


def test_an_unreachable_owner_is_said_once_in_the_log_and_each_failed_hop_counted(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    """≈50 "its node … is unreachable" lines a kill: one line an owner now, and the
    count in /metrics."""
    code = served.create(seats=TWO_PEOPLE, take=[0])["code"]
    store = served.service.store
    with socket.create_server(("127.0.0.1", 0)) as closed:
        url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    rival = Leases(store, Node("rival", url, "secret-rival"))
    rival.heartbeat()
    expire(served.service.leases)
    info = store.table(code)
    assert info is not None and rival.claim(info.id) is not None
    served.run(served.service.renew())  # the rival's now, at an address nobody answers
    with caplog.at_level(logging.INFO, logger="triominos.server"):
        for _ in range(3):
            with (
                connect(f"{served.ws_url}/ws/{code}", legacy=True) as connection,
                pytest.raises(ConnectionClosed) as closed_by,
            ):
                connection.recv(timeout=WAIT_SECONDS)
            assert closed_by.value.rcvd is not None and closed_by.value.rcvd.code == 1013
    said = [record for record in caplog.records if "unreachable" in record.getMessage()]
    assert len(said) == 1, [record.getMessage() for record in said]
    assert "triominos_relay_errors_total 3" in served.http.get("/metrics").text


def test_a_single_node_keeps_the_waiting_table_it_holds_past_its_lease(sqlite_url: str) -> None:
    """SQLite's one node renews its lease only when it needs it: the sweep of abandoned
    waiting tables took a watched one for nobody's once a lease had passed."""
    with serve_app(sqlite_url, waiting_seconds=3600) as served:
        watched = served.create()["code"]
        with served.viewer(watched):
            time.sleep(served.service.leases.lease_seconds + 0.5)  # the lease ran out
            served.later(3601)
            assert served.run(served.service.sweep()) == []
