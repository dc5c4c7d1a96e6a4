"""Rated tables over HTTP and the WebSocket, on SQLite and PostgreSQL (issue 33): a
rated match between two accounts moves both ratings once it finishes, one against a bot
moves its person's in the bots' pool; a resignation in the first moves, or a table not
rated, moves nothing; a seat of a rated table is an account's, and the leaderboard
names the accounts."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("webauthn")

from server_games import WAIT_SECONDS, Served, Viewer, match_over, serve_app
from test_server_accounts import CHEAP, Device, devices, error, rows
from triominos.ratings import RESIGN_FIRST_ROUNDS
from triominos.server.account_store import AccountRow, AccountSeatRow
from triominos.server.rating_store import (
    PENDING,
    TURN_ENDS,
    RatedTableRow,
    RatingHistoryRow,
    RatingRow,
)
from triominos.server.store import StorageFault

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


@pytest.fixture
def served(database_url: str) -> Iterator[Served]:
    with serve_app(database_url, trusted_proxies=["127.0.0.1"], password_hasher=CHEAP) as served:
        yield served


def create(device: Device, expect: int = 201, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` from the device: a rated classic table of two people, the
    creator at seat 0, unless ``body`` says otherwise."""
    table = {"preset": "classic", "players": 2, "seats": PEOPLE, "take": [0], "rated": True}
    answer = device.send("POST", "/api/tables", {**table, **body})
    assert answer.status_code == expect, answer.text
    created: dict[str, Any] = answer.json()
    return created


def join(device: Device, code: str) -> str:
    answer = device.send("POST", f"/api/tables/{code}/join", {"name": "Bob"})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def play_rounds(viewers: list[Viewer], rounds: int) -> None:
    """Play the first legal action of whoever is to move until every seat has had
    ``rounds`` turns (:data:`TURN_ENDS`: a draw is no turn of its own)."""
    turns = [0] * len(viewers)
    for step in itertools.count():
        if min(turns) >= rounds:
            return
        while not any(viewer.view["legal"] for viewer in viewers):  # a bot moves
            viewers[0].until(lambda message: message["type"] == "event")
        mover = next(viewer for viewer in viewers if viewer.view["legal"])
        played = mover.play_first_legal(f"m{step}")
        assert played["type"] == "event", played
        for viewer in viewers:
            if viewer is not mover:
                viewer.until(lambda message: message["type"] == "event")
        if played["event"]["action"] in TURN_ENDS:
            turns[viewers.index(mover)] += 1


def account_ids(served: Served) -> dict[str, str]:
    """Each account's id as the ratings name it, by its display name."""
    return {row.name: str(row.id) for row in rows(served, AccountRow)}


def resign(viewer: Viewer, watcher: Viewer) -> None:
    viewer.send({"type": "resign", "id": "resign"})
    watcher.until(match_over)


def outcome(served: Served, code: str) -> str:
    """The table's row in ``rated_tables`` once rating it is done (it runs after the move)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = [row.outcome for row in rows(served, RatedTableRow) if row.code == code]
        if found != [PENDING] or time.monotonic() > deadline:
            return found[0] if found else ""
        time.sleep(0.05)


def test_a_rated_match_between_two_accounts_moves_both_ratings(served: Served) -> None:
    with devices(served, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        table = create(ann)
        code, ann_token = table["code"], table["seats"][0]["token"]
        bob_token = join(bob, code)
        # the seats are the accounts', on every device they sign in
        assert {(row.code, row.seat) for row in rows(served, AccountSeatRow)} == {
            (code, 0),
            (code, 1),
        }
        with served.viewer(code, ann_token) as ann_view, served.viewer(code, bob_token) as bob_view:
            play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS)
            resign(bob_view, ann_view)
        assert outcome(served, code) == "rated"
        ids = account_ids(served)
        ratings = {row.player: row.rating for row in rows(served, RatingRow)}
        assert ratings[ids["Ann"]] > 1500 > ratings[ids["Bob"]]
        history = sorted(row.player for row in rows(served, RatingHistoryRow))
        assert history == sorted(ids.values())
        board = served.http.get("/api/ratings/leaderboard?edition=classic&players=2").json()
        assert [(entry["name"], entry["games"]) for entry in board["players"]] == [
            ("Ann", 1),
            ("Bob", 1),
        ]
        # a deleted account keeps its place on the board under the neutral name
        assert bob.send("DELETE", "/api/account").status_code == 200
        board = served.http.get("/api/ratings/leaderboard?edition=classic&players=2").json()
        assert [entry["name"] for entry in board["players"]] == ["Ann", "Player"]


def signed_up(*pairs: tuple[Device, str]) -> None:
    for device, name in pairs:
        assert device.sign_up(name).status_code == 201


def test_a_resignation_in_the_first_moves_rates_nothing(served: Served) -> None:
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"), (bob, "Bob"))
        table = create(ann)
        code, ann_token = table["code"], table["seats"][0]["token"]
        bob_token = join(bob, code)
        with served.viewer(code, ann_token) as ann_view, served.viewer(code, bob_token) as bob_view:
            play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS - 1)
            resign(bob_view, ann_view)
        assert outcome(served, code) == "early_resign"
        assert rows(served, RatingRow) == rows(served, RatingHistoryRow) == []


def test_a_table_not_rated_rates_nothing(served: Served) -> None:
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"), (bob, "Bob"))
        table = create(ann, rated=False)
        code, ann_token = table["code"], table["seats"][0]["token"]
        bob_token = join(bob, code)
        with served.viewer(code, ann_token) as ann_view, served.viewer(code, bob_token) as bob_view:
            play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS)
            resign(bob_view, ann_view)
        # no pending row was made, and rating a table without one writes nothing
        assert rows(served, RatedTableRow) == rows(served, RatingRow) == []


def test_a_rated_table_with_a_bot_is_rated_in_the_bots_pool(served: Served) -> None:
    with devices(served, 1) as (ann,):
        signed_up((ann, "Ann"))
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
        table = create(ann, seats=seats)
        code, token = table["code"], table["seats"][0]["token"]
        with served.viewer(code, token) as ann_view:
            play_rounds([ann_view], RESIGN_FIRST_ROUNDS + 1)  # the bot had one turn less at most
            ann_view.send({"type": "resign", "id": "resign"})
            ann_view.until(match_over)
        assert outcome(served, code) == "rated"
        (rating,) = rows(served, RatingRow)
        assert (rating.player, rating.pool) == (account_ids(served)["Ann"], "classic-2-bots")
        assert rating.rating < 1500  # she resigned: behind the bot
        people = served.http.get("/api/ratings/leaderboard?edition=classic&players=2").json()
        assert people["players"] == []


def test_a_rated_table_is_for_accounts_only(served: Served) -> None:
    with devices(served, 3) as (ann, bob, stranger):
        refused = create(stranger, 401)
        assert refused["error"]["code"] == "signed_out"
        signed_up((ann, "Ann"), (bob, "Bob"))
        assert create(ann, 400, take=[])["error"]["field"] == "take"
        code = create(ann)["code"]
        no_account = stranger.send("POST", f"/api/tables/{code}/join", {"name": "Eve"})
        assert error(no_account, 401)["code"] == "signed_out"
        twice = ann.send("POST", f"/api/tables/{code}/join", {"name": "Ann"})
        assert error(twice, 409)["code"] == "already_seated"
        seats = served.http.get(f"/api/tables/{code}").json()["seats"]
        assert [seat["taken"] for seat in seats] == [True, False]  # nothing changed
        join(bob, code)


def test_a_rating_that_fails_never_fails_the_move_and_is_made_on_the_next_start(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = served.service
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"), (bob, "Bob"))
        table = create(ann)
        code, ann_token = table["code"], table["seats"][0]["token"]
        bob_token = join(bob, code)

        tried = threading.Event()

        def storage_down(*_: object) -> None:
            tried.set()
            raise StorageFault("gone", "the database is gone")

        with monkeypatch.context() as patched:
            patched.setattr(service.ratings, "rate_table", storage_down)
            with (
                served.viewer(code, ann_token) as ann_view,
                served.viewer(code, bob_token) as bob_view,
            ):
                play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS)
                resign(bob_view, ann_view)  # the resignation holds
            assert tried.wait(WAIT_SECONDS)
            assert [row.outcome for row in rows(served, RatedTableRow)] == [PENDING]
        served.run(service.rate_pending())  # as the next start does
        assert outcome(served, code) == "rated"
        assert len(rows(served, RatingHistoryRow)) == 2
