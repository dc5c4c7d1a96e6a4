"""The reminder of a game over days, on SQLite and PostgreSQL (issue 33): when a quarter
of a turn's days is left, the person to move, away, gets one "your turn, N hours left"
push (through the loopback push service of test_server_push, which decrypts RFC 8291),
once a turn whichever node or timer asks; never while they watch the table live."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("pywebpush")

from server_games import Served, serve_app
from test_server_push import (
    CONTACT,
    Browser,
    PushService,
    subscribe,
)
from test_server_ws import TWO_PEOPLE
from triominos.server.push import REMIND_SHARE
from triominos.server.push_store import PushStore
from triominos.server.store import Store
from triominos.server.table import LiveTable
from triominos.server.timers import DAY_SECONDS

HOUR = 3600.0


@pytest.fixture
def served_here(database_url: str) -> Iterator[Served]:
    with serve_app(database_url, push_loopback=True, push_contact=CONTACT) as served:
        yield served


def days_table(served: Served, push_service: PushService) -> tuple[LiveTable, list[str], Browser]:
    """Two people at a table of one day per move, the device of the seat to move
    subscribed: the live table, the seats' tokens and that device."""
    created = served.create(seats=TWO_PEOPLE, take=[0, 1], move_days=1)
    code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
    table = served.run(served.service.locate(code))
    assert isinstance(table, LiveTable)
    device = Browser(f"{push_service.url}/devices/to-move")
    subscribe(served, device, [{"code": code, "token": tokens[table.match.to_move]}])
    return table, tokens, device


def remind(served: Served, table: LiveTable) -> bool:
    """Run the table's reminder, as its timer does (waiting for its time, which the
    test's clock has passed): whether it sent."""
    deadline = table.turn_deadline
    assert deadline is not None
    reminded: bool = served.run(served.service._remind(table, table.version, deadline))
    return reminded


def test_the_timer_reminds_the_away_player_once_a_quarter_of_the_days_is_left(
    served_here: Served, push_service: PushService
) -> None:
    table, _, device = days_table(served_here, push_service)
    served_here.later(19 * HOUR)  # five hours left; no page open
    with served_here.viewer(table.code):  # a spectator: the table's timer starts again
        [received] = push_service.wait_for(1)
    to_move = table.match.to_move
    assert device.decrypt(received) == {
        "kind": "your_turn",
        "code": table.code,
        "url": f"/t/{table.code}",
        "to_move": table.info.seats[to_move].name,
        "hours_left": 5,
        "from": None,
        "lang": "en",
    }
    assert remind(served_here, table) is False  # once a turn
    with served_here.viewer(table.code):
        pass
    assert remind(served_here, table) is False


def test_no_reminder_while_the_player_watches_nor_after_the_deadline(
    served_here: Served, push_service: PushService
) -> None:
    table, tokens, _ = days_table(served_here, push_service)
    served_here.later(DAY_SECONDS * (1 - REMIND_SHARE) + HOUR)
    with served_here.viewer(table.code, tokens[table.match.to_move]):
        assert remind(served_here, table) is False
        assert push_service.received == []  # nothing while the page is open
    # Once the page is closed the table's own timer may remind (hours are left) or apply
    # the timeout action: both are right then, and not what this test is about.
    served_here.later(DAY_SECONDS)  # past the deadline: the timeout action's time
    assert remind(served_here, table) is False


def test_a_new_turn_is_reminded_again(served_here: Served, push_service: PushService) -> None:
    """The player to move moves: the other seat's turn begins, and has its reminder."""
    table, tokens, _ = days_table(served_here, push_service)
    first = table.match.to_move
    other = Browser(f"{push_service.url}/devices/other")
    subscribe(served_here, other, [{"code": table.code, "token": tokens[1 - first]}])
    served_here.later(19 * HOUR)
    assert remind(served_here, table) is True
    push_service.wait_for(1)
    with served_here.viewer(table.code, tokens[first]) as viewer:
        while table.match.to_move == first:
            viewer.play_first_legal(f"move-{viewer.view['version']}")
    push_service.wait_for(2)  # the other's your_turn
    served_here.later(19 * HOUR)
    assert remind(served_here, table) is True
    third = push_service.wait_for(3)[2]
    assert third.path == "/devices/other" and other.decrypt(third)["hours_left"] == 5


def test_nodes_asking_at_once_remind_a_turn_once(database_url: str) -> None:
    stores = [Store(database_url) for _ in range(4)]
    stores[0].upgrade()
    try:
        start = threading.Barrier(len(stores))

        def ask(store: Store) -> Any:
            start.wait()
            return PushStore(store).first_reminder(7, 1000.0, 2000.0)

        with ThreadPoolExecutor(len(stores)) as pool:
            assert sorted(pool.map(ask, stores)) == [False, False, False, True]
        pushes = PushStore(stores[0])
        assert pushes.first_reminder(7, 1000.0, 2001.0) is False
        assert pushes.first_reminder(7, 5000.0, 6000.0) is True  # the next turn
        assert pushes.first_reminder(8, 1000.0, 2000.0) is True  # another table
    finally:
        for store in stores:
            store.dispose()
