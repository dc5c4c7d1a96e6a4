"""Games over days (issue 33): a table whose clock is days per move, the deadline on the
stored (database) clock whether or not anyone is connected, the timeout action or the
claim of the win, and what the API refuses."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette")

from sqlalchemy import update

from server_games import WAIT_SECONDS, Served, serve_app
from test_table_state import NOW, stored, table
from triominos.rules import preset
from triominos.server.protocol import ApiError
from triominos.server.store import SeatInfo, Store, TableRow
from triominos.server.tablestate import Act, ClaimWin, PlayDefault, TableState, token_hash
from triominos.server.timers import DAY_SECONDS, MOVE_DAYS

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def days_table(days: int = 2, *, claim_win: bool = False) -> TableState:
    """Two people playing over days since NOW; nobody connected."""
    return TableState(table(move_days=days, claim_win=claim_win), [], NOW)


@pytest.mark.parametrize("days", MOVE_DAYS)
def test_a_turn_lasts_its_days_from_the_stored_start(days: int) -> None:
    state = days_table(days)
    assert state.turn_deadline == NOW + days * DAY_SECONDS
    assert not state.connected


def test_the_timeout_action_plays_for_the_idle_seat_with_nobody_connected() -> None:
    state = days_table(1)
    idle = state.match.to_move
    stored(state, state.decide(PlayDefault(0), state.turn_deadline or 0.0))
    assert state.version == 1 and state.log[0].event.player == idle


def test_a_claim_of_the_win_ends_the_match_with_the_idle_seat_losing() -> None:
    state = days_table(3, claim_win=True)
    idle = state.match.to_move
    other = 1 - idle
    deadline = state.turn_deadline
    assert deadline is not None
    stored(state, state.decide(ClaimWin(other), deadline))
    assert state.match.is_over and state.info.status == "finished"
    assert state.match.winners == [other]
    assert state.turn_deadline is None


def test_the_idle_seat_may_still_move_after_its_days_until_someone_claims() -> None:
    state = days_table(1, claim_win=True)
    idle = state.match.to_move
    late = NOW + 2 * DAY_SECONDS
    action = state.legal_actions()[0].action
    stored(state, state.decide(Act(idle, 0, action), late))
    assert state.version == 1 and not state.match.is_over


@pytest.mark.parametrize(
    ("claimer", "at", "claim_win", "words"),
    [
        (None, 3 * DAY_SECONDS, True, "spectator watches"),
        ("idle", 3 * DAY_SECONDS, True, "your own turn"),
        ("other", DAY_SECONDS, True, "still has 86400 s to move"),
        ("other", 3 * DAY_SECONDS, False, "plays the timeout action"),
    ],
)
def test_a_claim_is_refused_unless_another_seat_claims_after_the_deadline(
    claimer: str | None, at: float, claim_win: bool, words: str
) -> None:
    state = days_table(2, claim_win=claim_win)
    idle = state.match.to_move
    seat = {None: None, "idle": idle, "other": 1 - idle}[claimer]
    with pytest.raises(ApiError, match=words):
        state.decide(ClaimWin(seat), NOW + at)
    assert state.version == 0 and not state.match.is_over


def test_a_claim_after_the_match_is_over_is_refused() -> None:
    state = days_table(1, claim_win=True)
    idle = state.match.to_move
    stored(state, state.decide(ClaimWin(1 - idle), NOW + DAY_SECONDS))
    with pytest.raises(ApiError, match="while the match is played"):
        state.decide(ClaimWin(idle), NOW + 9 * DAY_SECONDS)


# --- the deadline in the database -------------------------------------------------------


def test_a_restart_keeps_the_deadline_on_the_database_clock(
    store: Store, database_url: str
) -> None:
    made = store.create_table(
        preset="classic",
        rules=preset("classic").rules,
        players=2,
        seed=11,
        turn_seconds=None,
        seats=[
            SeatInfo(seat, "person", f"P{seat}", token_hash=token_hash(f"t{seat}"))
            for seat in range(2)
        ],
        move_days=7,
        claim_win=True,
    )
    assert made.started_at is not None  # began at once, on the database's clock
    deadline = TableState(made, [], made.started_at + 5.0).turn_deadline
    assert deadline == made.started_at + 7 * DAY_SECONDS
    store.dispose()

    again = Store(database_url)  # another process (a restart, another node), days later
    try:
        info = again.table(made.code)
        assert info is not None and info.move_days == 7 and info.claim_win
        reloaded = TableState(info, again.actions(info.id), made.started_at + 3 * DAY_SECONDS)
        assert reloaded.turn_deadline == deadline
    finally:
        again.dispose()


# --- the API ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"move_days": 5}, "move_days", "1, 2, 3, 7"),
        ({"move_days": "x"}, "move_days", "expected `int | null`"),
        ({"move_days": 2, "turn_seconds": 60}, "move_days", "or a turn timer"),
        ({"claim_win": True}, "claim_win", "days per move"),
    ],
)
def test_a_wrong_time_control_is_refused_and_says_why(
    served_sqlite: Served, body: dict[str, Any], field: str, words: str
) -> None:
    answer = served_sqlite.http.post(
        "/api/tables", json={"preset": "classic", "players": 2, "seats": TWO_PEOPLE, **body}
    )
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert words in error["message"] and error["field"] == field


def test_over_the_api_a_claim_waits_for_the_days_and_nobody_connected(
    served_sqlite: Served,
) -> None:
    served = served_sqlite
    made = served.create(seats=TWO_PEOPLE, take=[0], move_days=1, claim_win=True)
    code, ann = made["code"], made["seats"][0]["token"]
    bob = served.join(code)
    summary = served.http.get(f"/api/tables/{code}").json()
    assert summary["move_days"] == 1 and summary["claim_win"]
    idle = summary["to_move"]
    claimer = bob if idle == 0 else ann
    idle_token = ann if idle == 0 else bob
    early = served.http.post(f"/api/tables/{code}/claim", json={"token": claimer})
    assert early.status_code == 409 and early.json()["error"]["code"] == "no_claim"
    stranger = served.http.post(f"/api/tables/{code}/claim", json={"token": "x" * 32})
    assert stranger.status_code == 403

    served.later(DAY_SECONDS + 1)  # a day passes; no page is open
    own = served.http.post(f"/api/tables/{code}/claim", json={"token": idle_token})
    assert own.status_code == 409 and "your own turn" in own.json()["error"]["message"]
    claimed = served.http.post(f"/api/tables/{code}/claim", json={"token": claimer})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["status"] == "finished"


def test_a_restarted_server_plays_the_timeout_action_of_days_that_ran_out_unwatched(
    store: Store, database_url: str
) -> None:
    """The days ran out while no server ran and no page was open: the server that starts
    takes the table up and plays the idle seat's timeout action at once."""
    made = store.create_table(
        preset="classic",
        rules=preset("classic").rules,
        players=2,
        seed=5,
        turn_seconds=None,
        seats=[
            SeatInfo(seat, "person", f"P{seat}", token_hash=token_hash(f"t{seat}"))
            for seat in range(2)
        ],
        move_days=1,
    )
    with store.engine.begin() as connection:  # it began two days ago
        connection.execute(
            update(TableRow)
            .where(TableRow.id == made.id)
            .values(started_at=TableRow.started_at - 2 * DAY_SECONDS)
        )
    idle = TableState(made, [], NOW).match.to_move
    with serve_app(database_url) as served:
        waited = time.monotonic() + WAIT_SECONDS
        while not store.actions(made.id):
            assert time.monotonic() < waited, "the timeout action was not played"
            time.sleep(0.05)
        summary = served.http.get(f"/api/tables/{made.code}").json()
    assert store.actions(made.id)[0].seat == idle
    assert summary["status"] == "playing" and summary["move_days"] == 1
