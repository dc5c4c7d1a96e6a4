"""Storage that fails under a running server (issue 13): nothing is acknowledged that is
not durable, nobody is blamed, the log says it once, and every table, its timer and its
bots included, goes on once storage works again."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from sqlalchemy import event, text

from server_games import WAIT_SECONDS, Served, Viewer, serve_app, summary_of
from triominos.rules import preset
from triominos.server.store import ActionWrite, SeatInfo, Store, StoredAction

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]
BOTS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


@contextlib.contextmanager
def full_disk(sqlite_url: str) -> Iterator[None]:
    """Every new action fails as on a full disk, until the block ends."""
    database = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
    try:
        database.execute(
            "CREATE TRIGGER full_disk BEFORE INSERT ON actions "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
        database.commit()
        yield
        database.execute("DROP TRIGGER full_disk")
        database.commit()
    finally:
        database.close()


def version(served: Served, code: str) -> int:
    answer: int = summary_of(served.http, code)["version"]
    return answer


def wait_for_version(served: Served, code: str, at_least: int) -> int:
    deadline = time.monotonic() + WAIT_SECONDS
    while (seen := version(served, code)) < at_least:
        assert time.monotonic() < deadline, f"table {code} stayed at version {seen}"
        time.sleep(0.05)
    return seen


def test_the_turn_timer_and_the_bots_outlive_a_failed_write(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """One failed write used to stop a table's timer for good."""
    caplog.set_level(logging.INFO, logger="triominos.server")
    with serve_app(sqlite_url) as served:
        with full_disk(sqlite_url):
            timed = served.create(seats=TWO_PEOPLE, take=[0, 1], turn_seconds=0.2)["code"]
            bots = served.create(preset="classic-children", seats=BOTS)["code"]
            time.sleep(1.5)  # the timer and the bots try, fail, and try again
            assert version(served, timed) == 0
            stuck = version(served, bots)
        wait_for_version(served, timed, 2)
        wait_for_version(served, bots, stuck + 2)
    failures = [record for record in caplog.records if "storage failed" in record.message]
    assert len(failures) == 1 and "full" in failures[0].message  # one line, not one a try
    assert not any("illegal" in record.message for record in caplog.records)
    assert any("storage works again" in record.message for record in caplog.records)


@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/pad/games", {"players": ["Ann", "Bob"]}), ("/api/puzzles/browsers", {})],
)
def test_the_pad_and_the_puzzles_acknowledge_nothing_once_the_database_file_is_gone(
    sqlite_url: str, path: str, body: dict[str, object]
) -> None:
    """Their stores opened sessions of their own, without the store's check of the SQLite
    file: a new pad game or browser was acknowledged (201) into a removed file."""
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    with serve_app(sqlite_url) as served:
        assert served.http.post(path, json=body).status_code == 201
        for name in (database.name, f"{database.name}-wal", f"{database.name}-shm"):
            (database.parent / name).unlink(missing_ok=True)
        refused = served.http.post(path, json=body)
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "unavailable"


def test_a_locked_database_answers_503_soon_and_reads_do_not_wait(sqlite_url: str) -> None:
    with serve_app(sqlite_url) as served:
        code = served.create(seats=TWO_PEOPLE, take=[0, 1])["code"]
        holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=0)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            created = served.http.post(
                "/api/tables", json={"preset": "classic", "players": 2, "seats": BOTS}
            )
            assert created.status_code == 503, created.text
            assert created.json()["error"]["code"] == "unavailable"
            assert created.headers["Retry-After"] == "5"
        finally:
            holder.rollback()
            holder.close()
        assert served.http.get(f"/api/tables/{code}").status_code == 200
        assert served.http.get("/readyz").json() == {"ready": True}


def mover_of(served: Served, created: dict[str, object]) -> Viewer:
    """A viewer of the seat whose turn it is at a table of two people."""
    code = str(created["code"])
    for seat in created["seats"]:  # type: ignore[attr-defined]
        viewer = served.viewer(code, seat["token"])
        if viewer.view["legal"]:
            return viewer
        viewer.close()
    raise AssertionError(f"nobody may move at {code}")


def test_actions_at_a_locked_database_are_refused_saying_so_and_change_nothing(
    sqlite_url: str,
) -> None:
    """An action waited out the lock twice (10 s for one table, 24.7 s for three) where
    PROTOCOL.md says 5 s: now the refusal says the database is locked, and nothing moved."""
    with serve_app(sqlite_url) as served:
        tables = [served.create(seats=TWO_PEOPLE, take=[0, 1]) for _ in range(3)]
        movers = [mover_of(served, created) for created in tables]
        holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=0)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            for number, mover in enumerate(movers):
                mover.act(mover.view["legal"][0]["action"], f"held{number}")
            answers = [mover.answer(f"held{number}") for number, mover in enumerate(movers)]
        finally:
            holder.rollback()
            holder.close()
        for answer in answers:
            assert answer["type"] == "error" and answer["code"] == "unavailable", answer
            assert "locked" in answer["message"]
        for created, mover in zip(tables, movers, strict=True):
            assert version(served, str(created["code"])) == 0
            mover.close()


def test_a_locked_sqlite_file_is_waited_for_once_for_all_the_actions(sqlite_url: str) -> None:
    """The one commit of several tables' actions failed on the lock, then each action was
    tried alone and waited out the lock again: on SQLite the whole file is locked, so
    every action hears of the one fault."""
    store = Store(sqlite_url)
    store.upgrade()
    infos = [
        store.create_table(
            preset="classic",
            rules=preset("classic").rules,
            players=2,
            seed=7,
            turn_seconds=None,
            seats=[SeatInfo(0, "bot", "greedy", "greedy"), SeatInfo(1, "bot", "greedy", "greedy")],
        )
        for _ in range(3)
    ]
    writes = [
        ActionWrite(info.id, StoredAction(1, 0, None, {"action": "draw"}, 1.0), finished=False)
        for info in infos
    ]
    transactions: list[object] = []
    event.listen(store.engine, "begin", transactions.append)
    holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=0)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        errors = store.append_actions(writes)
    finally:
        holder.rollback()
        holder.close()
    assert [getattr(error, "kind", None) for error in errors] == ["locked"] * 3
    assert len(transactions) == 1
    assert all(store.actions(info.id) == [] for info in infos)
    store.dispose()


def test_a_read_during_a_slow_write_shows_what_is_stored_without_waiting(
    sqlite_url: str,
) -> None:
    """A write waits on a lock held elsewhere; the table look-up answers meanwhile."""
    with serve_app(sqlite_url) as served:
        created = served.create(seats=TWO_PEOPLE, take=[0, 1])
        code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
        mover = served.viewer(code, tokens[0])
        if not mover.view["legal"]:
            mover.close()
            mover = served.viewer(code, tokens[1])
        holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=0)
        with mover:
            holder.execute("BEGIN EXCLUSIVE")
            try:
                mover.act(mover.view["legal"][0]["action"], "held")
                time.sleep(0.3)  # the write is waiting for the lock now
                looked = served.http.get(f"/api/tables/{code}")
                assert looked.status_code == 200 and looked.json()["version"] == 0
            finally:
                holder.rollback()
                holder.close()
            answer = mover.answer("held")
            assert answer["type"] in ("event", "error")


def test_a_hello_is_greeted_while_a_write_waits_on_a_locked_database(sqlite_url: str) -> None:
    """A spectator's hello waited for the table's lock behind a write to a locked
    database (9 s, where PROTOCOL.md says 5 s): the table state is only ever what is
    stored, so a hello is greeted from it while the write still waits."""
    with serve_app(sqlite_url) as served:
        created = served.create(seats=TWO_PEOPLE, take=[0, 1])
        code = str(created["code"])
        mover = mover_of(served, created)
        table = served.service.tables[code]

        async def writing() -> bool:
            return table.lock.locked()

        holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=0)
        with mover:
            holder.execute("BEGIN EXCLUSIVE")
            try:
                mover.act(mover.view["legal"][0]["action"], "held")
                deadline = time.monotonic() + WAIT_SECONDS
                while not served.run(writing()):
                    assert time.monotonic() < deadline, "the action was never written"
                    time.sleep(0.01)
                with served.viewer(code) as watcher:
                    still_writing = served.run(writing())
                    greeting = watcher.greeting
            finally:
                holder.rollback()
                holder.close()
            assert greeting["type"] == "welcome" and greeting["version"] == 0, greeting
            assert still_writing, "the hello waited for the write"
            assert mover.answer("held")["type"] in ("event", "error")


def test_a_removed_database_file_acknowledges_nothing(sqlite_url: str) -> None:
    """After its files were removed, the server accepted 117 actions that a restart lost."""
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    with serve_app(sqlite_url) as served:
        created = served.create(seats=TWO_PEOPLE, take=[0, 1])
        code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
        viewers = [served.viewer(code, token) for token in tokens]
        mover = next(viewer for viewer in viewers if viewer.view["legal"])
        for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
            (path.parent / name).unlink(missing_ok=True)
        mover.act(mover.view["legal"][0]["action"], "lost")
        error = mover.answer("lost")
        assert error["type"] == "error" and error["code"] == "unavailable"
        ready = served.http.get("/readyz")
        assert ready.status_code == 503 and ready.json() == {"ready": False, "storage": "gone"}
        assert path.name not in ready.text  # the database's path is the log's, not anyone's
        for viewer in viewers:
            viewer.close()


def read_only_mount(folder: Path) -> contextlib.AbstractContextManager[Path]:
    @contextlib.contextmanager
    def mounted() -> Iterator[Path]:
        target = folder.parent / f"{folder.name}-ro"
        target.mkdir()
        bind = subprocess.run(["mount", "--bind", str(folder), str(target)], capture_output=True)
        if bind.returncode != 0:
            pytest.skip(f"cannot bind-mount here: {bind.stderr.decode().strip()}")
        try:
            remount = subprocess.run(
                ["mount", "-o", "remount,bind,ro", str(target)], capture_output=True
            )
            if remount.returncode != 0:
                pytest.skip(f"cannot remount read-only: {remount.stderr.decode().strip()}")
            yield target
        finally:
            subprocess.run(["umount", "--lazy", str(target)], check=True)

    return mounted()


def test_a_read_only_database_is_found_at_start_and_by_the_readiness_probe(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    Store(f"sqlite:///{folder / 'games.db'}").upgrade()
    with read_only_mount(folder) as mounted:
        url = f"sqlite:///{mounted / 'games.db'}"
        started = subprocess.run(
            [str(Path(sys.executable).parent / "triominos"), "serve", "--database", url],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert started.returncode == 2
        assert "--database: cannot" in started.stderr and "Traceback" not in started.stderr
        store = Store(url)
        with pytest.raises(Exception, match="read"):
            store.check_writable()
        store.dispose()


def test_a_postgresql_table_lock_answers_503_within_the_bound(postgres_url: str) -> None:
    with serve_app(postgres_url) as served:
        code = served.create(seats=TWO_PEOPLE, take=[0, 1])["code"]
        store = Store(postgres_url)
        with store.engine.connect() as holder:
            holder.execute(text("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE"))
            created = served.http.post(
                "/api/tables", json={"preset": "classic", "players": 2, "seats": BOTS}
            )
            assert created.status_code == 503 and created.json()["error"]["code"] == "unavailable"
            holder.rollback()
        store.dispose()
        assert served.http.get(f"/api/tables/{code}").status_code == 200


def test_on_postgresql_a_failed_write_is_retried_and_nothing_blamed(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="triominos.server")
    store = Store(postgres_url)
    with serve_app(postgres_url) as served:
        with store.engine.begin() as connection:
            connection.execute(
                text(
                    "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; "
                    "END $$"
                )
            )
            connection.execute(
                text(
                    "CREATE TRIGGER full_disk BEFORE INSERT ON actions "
                    "FOR EACH ROW EXECUTE FUNCTION full_disk()"
                )
            )
        bots = served.create(preset="classic-children", seats=BOTS)["code"]
        time.sleep(1.0)
        assert version(served, bots) == 0
        with store.engine.begin() as connection:
            connection.execute(text("DROP TRIGGER full_disk ON actions"))
        wait_for_version(served, bots, 2)
    store.dispose()
    failures = [record for record in caplog.records if "storage failed" in record.message]
    assert len(failures) == 1 and "full" in failures[0].message
    assert not any("illegal" in record.message for record in caplog.records)


def storage_failing(served: Served) -> int:
    metrics = served.http.get("/metrics").text
    line = next(
        line for line in metrics.splitlines() if line.startswith("triominos_storage_failing")
    )
    return int(line.split()[1])


def test_readiness_fails_while_a_table_lock_stops_every_write_and_names_no_database(
    postgres_url: str,
) -> None:
    """LOCK TABLE actions froze every table 12 s while /readyz said 200."""
    with serve_app(postgres_url) as served:
        assert served.http.get("/readyz").json() == {"ready": True}
        with served.service.store.engine.connect() as holder, holder.begin():
            holder.execute(text("LOCK TABLE actions"))
            ready = served.http.get("/readyz")
            assert ready.status_code == 503
            assert ready.json() == {"ready": False, "storage": "locked"}  # no path, no detail
        assert served.http.get("/readyz").json() == {"ready": True}


def test_every_node_says_storage_works_again_without_storing_an_action(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The storage-failing gauge stayed 1 for 60 s after the database came back, and
    "storage works again" was never logged on the nodes that stored no action since:
    what their lease renewals met is over once a renewal goes through."""
    with serve_app(postgres_url) as served:
        with served.service.store.engine.connect() as holder, holder.begin():
            holder.execute(text("LOCK TABLE nodes"))  # the renewals wait, then fail
            deadline = time.monotonic() + WAIT_SECONDS
            while not storage_failing(served) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert storage_failing(served) == 1
        with caplog.at_level(logging.WARNING, logger="triominos.server"):
            deadline = time.monotonic() + WAIT_SECONDS
            while storage_failing(served) and time.monotonic() < deadline:
                time.sleep(0.1)
        assert storage_failing(served) == 0
        assert any("storage works again" in record.getMessage() for record in caplog.records)
