"""Ratings in the service's database, on SQLite and PostgreSQL: the seam that rates a
finished table (once, even called twice or from two nodes at once), the matches it
refuses, the leaderboard of active players and a player's history; the API's answers
and its refusals of hostile queries."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("starlette")

from sqlalchemy import func, inspect, select
from starlette.applications import Starlette
from starlette.testclient import TestClient

from triominos.glicko import Rating
from triominos.ratings import ACTIVE_SECONDS, BOT_RATINGS, Pool, RatedMatchError, Seat
from triominos.server.rating_api import MAX_PAGE_SIZE, rating_routes
from triominos.server.rating_store import (
    RatedTableRow,
    RatingHistoryRow,
    RatingRow,
    RatingStore,
    TableResult,
)
from triominos.server.store import Store

NOW = 1_800_000_000.0
CLASSIC_2 = Pool("classic", 2)


def two_players(code: str, winner: str = "ann", loser: str = "bob") -> TableResult:
    return TableResult(code, "classic", [Seat(winner, total=400), Seat(loser, total=250)], 12)


def count(store: Store, row: Any) -> int:
    with store.session() as session:
        found: int = session.scalar(select(func.count()).select_from(row)) or 0
        return found


def test_a_finished_table_moves_both_ratings_and_writes_their_history(store: Store) -> None:
    rows = RatingStore(store)
    done = rows.rate_finished(two_players("AAAA11"), NOW)
    assert done is not None and done.unrated is None and done.pool == CLASSIC_2
    ann, bob = done.changes["ann"], done.changes["bob"]
    assert ann.before == bob.before == Rating()
    assert ann.after == Rating().rated([(Rating(), 1.0)])
    assert bob.after.rating < 1500 < ann.after.rating
    ratings, history = rows.player("ann", NOW)
    assert [(entry.pool, entry.rating, entry.games) for entry in ratings] == [
        (CLASSIC_2, ann.after, 1)
    ]
    assert [(point.table, point.rating.rating) for point in history] == [
        ("AAAA11", ann.after.rating)
    ]
    # the next match starts from the ratings the first left
    again = rows.rate_finished(two_players("AAAA12", "bob", "ann"), NOW + 60)
    assert again is not None and again.changes["ann"].before == ann.after
    assert [point.table for point in rows.player("ann", NOW + 60)[1]] == ["AAAA11", "AAAA12"]


def test_a_table_is_rated_once_however_often_the_seam_is_called(store: Store) -> None:
    rows = RatingStore(store)
    assert rows.rate_finished(two_players("ONCE22"), NOW) is not None
    before = rows.player("ann", NOW)
    assert rows.rate_finished(two_players("ONCE22"), NOW + 5) is None
    assert rows.player("ann", NOW) == before
    assert count(store, RatingHistoryRow) == 2 and count(store, RatedTableRow) == 1


def test_two_nodes_finishing_one_table_at_once_rate_it_once(database_url: str) -> None:
    stores = [Store(database_url) for _ in range(2)]
    stores[0].upgrade()
    try:
        with ThreadPoolExecutor(2) as pool:
            done = list(
                pool.map(
                    lambda store: RatingStore(store).rate_finished(two_players("RACE33"), NOW),
                    stores,
                )
            )
        assert sum(result is not None for result in done) == 1
        assert count(stores[0], RatingHistoryRow) == 2
        assert RatingStore(stores[0]).player("ann", NOW)[0][0].games == 1
    finally:
        for store in stores:
            store.dispose()


def test_a_shared_browser_or_an_early_resign_moves_nothing_and_is_kept(store: Store) -> None:
    rows = RatingStore(store)
    shared = TableResult(
        "SHAR44",
        "classic",
        [Seat("ann", 400, traces=frozenset({"b1"})), Seat("bob", 0, traces=frozenset({"b1"}))],
        12,
    )
    done = rows.rate_finished(shared, NOW)
    assert done is not None and done.unrated == "shared" and not done.changes
    resign = TableResult("RESI55", "classic", [Seat("ann", 10), Seat("bob", 0, True)], 1)
    done = rows.rate_finished(resign, NOW)
    assert done is not None and done.unrated == "early_resign"
    assert count(store, RatingRow) == 0 and count(store, RatingHistoryRow) == 0
    with store.session() as session:
        outcomes = session.execute(select(RatedTableRow.code, RatedTableRow.outcome)).all()
    assert sorted(outcomes) == [("RESI55", "early_resign"), ("SHAR44", "shared")]
    assert rows.rate_finished(shared, NOW + 1) is None


def test_a_match_with_a_bot_is_rated_in_the_bots_pool_and_the_bot_stays(store: Store) -> None:
    rows = RatingStore(store)
    seats = [Seat("ann", 100), Seat("sim", 400, bot=True), Seat("bob", 50)]
    done = rows.rate_finished(TableResult("BOTS66", "extended-children", seats, 20), NOW)
    assert done is not None and done.pool == Pool("extended", 3, "bots")
    assert set(done.changes) == {"ann", "bob"}
    assert done.changes["ann"].after == Rating().rated([(BOT_RATINGS["sim"], 0.0), (Rating(), 1.0)])
    with store.session() as session:
        assert session.scalars(select(RatingRow.player).order_by(RatingRow.player)).all() == [
            "ann",
            "bob",
        ]


def test_a_result_the_rows_cannot_keep_is_refused_before_anything_is_written() -> None:
    with pytest.raises(RatedMatchError, match="a table code is 1 to 12 characters"):
        two_players("X" * 13)
    with pytest.raises(RatedMatchError, match="a player id is 1 to 64 characters"):
        two_players("LONG01", "a" * 65)
    with pytest.raises(RatedMatchError, match="rounds is a count of turns, not -1"):
        TableResult("NEG001", "classic", [Seat("a"), Seat("b")], -1)


def test_the_leaderboard_lists_the_active_highest_first(store: Store) -> None:
    rows = RatingStore(store)
    rows.rate_finished(two_players("OLD777", "old", "older"), NOW - ACTIVE_SECONDS - 1)
    rows.rate_finished(two_players("NEW777", "ann", "bob"), NOW)
    rows.rate_finished(two_players("NEW778", "cid", "ann"), NOW)
    board = rows.leaderboard(CLASSIC_2, NOW, limit=10, offset=0)
    assert [(entry.player, name) for entry, name in board] == [
        ("cid", None),  # no account of that id (a deleted one): no name
        ("ann", None),
        ("bob", None),
    ]
    assert [entry.player for entry, _ in rows.leaderboard(CLASSIC_2, NOW, 1, 1)] == ["ann"]
    assert rows.leaderboard(Pool("classic", 3), NOW, 10, 0) == []


def test_the_migration_adds_the_rating_tables_and_takes_them_away(store: Store) -> None:
    names = {"ratings", "rating_history", "rated_tables"}
    assert names <= set(inspect(store.engine).get_table_names())
    store.downgrade("0014_ratings-1")
    assert not names & set(inspect(store.engine).get_table_names())
    store.upgrade()
    assert names <= set(inspect(store.engine).get_table_names())


# --- the API ----------------------------------------------------------------------------


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    rows = RatingStore(store)
    rows.rate_finished(two_players("API881", "ann", "bob"), NOW - 3600)
    rows.rate_finished(
        TableResult("API882", "classic", [Seat("ann", 9), Seat("greedy", 3, bot=True)], 9), NOW
    )
    app = Starlette(routes=rating_routes(store, clock=lambda: NOW))
    with TestClient(app) as test_client:
        yield test_client


def error_of(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == "bad_request"
    return error


def test_the_leaderboard_shows_ratings_with_their_deviation(client: TestClient) -> None:
    body = client.get("/api/ratings/leaderboard?edition=classic&players=2").json()
    assert body["pool"] == {
        "key": "classic-2",
        "edition": "classic",
        "players": 2,
        "against": "people",
    }
    assert body["active_days"] == 30
    first, second = body["players"]
    assert (first["rank"], first["player"], second["rank"], second["player"]) == (
        1,
        "ann",
        2,
        "bob",
    )
    assert first["rating"] > 1500 and first["deviation"] > 110 and first["provisional"]
    assert first["games"] == 1
    bots = client.get("/api/ratings/leaderboard?edition=classic&players=2&against=bots")
    assert [entry["player"] for entry in bots.json()["players"]] == ["ann"]
    page = client.get("/api/ratings/leaderboard?edition=classic&players=2&limit=1&offset=1")
    assert [(entry["rank"], entry["player"]) for entry in page.json()["players"]] == [(2, "bob")]


def test_a_players_ratings_and_history(client: TestClient) -> None:
    body = client.get("/api/ratings/ann").json()
    assert body["player"] == "ann"
    assert [entry["pool"]["key"] for entry in body["ratings"]] == ["classic-2", "classic-2-bots"]
    assert [point["table"] for point in body["history"]] == ["API881", "API882"]
    assert [point["pool"] for point in body["history"]] == ["classic-2", "classic-2-bots"]
    assert body["name"] == "Player"  # no account of that id
    assert client.get("/api/ratings/nobody").json() == {
        "player": "nobody",
        "name": "Player",
        "ratings": [],
        "history": [],
    }


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("players=2", "edition", "edition must be one of classic, extended, junior, not None"),
        ("edition=chess&players=2", "edition", "not 'chess'"),
        ("edition=classic", "players", "players must be a whole number 2 to 6"),
        ("edition=classic&players=7", "players", "2 to 6, not 7"),
        ("edition=classic&players=-2", "players", "2 to 6"),
        ("edition=classic&players=2.5", "players", "2 to 6"),
        ("edition=classic&players=%D9%A2", "players", "2 to 6"),  # an Arabic-Indic two
        ("edition=classic&players=" + "9" * 5000, "players", "2 to 6"),
        ("edition=classic&players=2&against=robots", "against", "one of people, bots"),
        ("edition=classic&players=2&limit=0", "limit", "1 to 100, not 0"),
        (f"edition=classic&players=2&limit={MAX_PAGE_SIZE + 1}", "limit", "1 to 100"),
        ("edition=classic&players=2&limit=100000000000", "limit", "1 to 100"),
        ("edition=classic&players=2&offset=10001", "offset", "0 to 10000, not 10001"),
    ],
)
def test_hostile_leaderboard_queries_are_refused_naming_the_bound(
    client: TestClient, query: str, field: str, message: str
) -> None:
    error = error_of(client.get(f"/api/ratings/leaderboard?{query}"))
    assert error["field"] == field and message in error["message"]


@pytest.mark.parametrize("player", ["a" * 65, "ann%20bob", "%00", "ann;drop"])
def test_a_malformed_player_id_is_refused(client: TestClient, player: str) -> None:
    assert error_of(client.get(f"/api/ratings/{player}"))["field"] == "player"


def test_one_newcomers_two_tables_finishing_at_once_both_count(database_url: str) -> None:
    """Both transactions may write ann's first row in the pool: one's insert is refused
    and that one is tried again, on the row the other wrote."""
    stores = [Store(database_url) for _ in range(2)]
    stores[0].upgrade()
    try:
        results = [two_players("PAIR91", "ann", "bob"), two_players("PAIR92", "ann", "cid")]
        with ThreadPoolExecutor(2) as pool:
            done = list(
                pool.map(
                    lambda pair: RatingStore(pair[0]).rate_finished(pair[1], NOW),
                    zip(stores, results, strict=True),
                )
            )
        assert all(result is not None for result in done)
        assert RatingStore(stores[0]).player("ann", NOW)[0][0].games == 2
    finally:
        for store in stores:
            store.dispose()
