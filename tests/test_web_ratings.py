"""The ratings pages in Chromium: the leaderboard of a pool, another pool chosen, a
player's ratings with the graph of their history; on a phone, in French."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import PHONE, LiveServerFactory, watched_page
from triominos.ratings import Seat
from triominos.server.rating_store import RatingStore, TableResult
from triominos.server.store import Store
from web import open_in


def rate_some(database_url: str) -> None:
    """Three rated matches: ann beats bob, then cid, in 2-player classic; ann against a
    bot in 3-player extended."""
    store = Store(database_url)
    rows = RatingStore(store)
    now = time.time()
    for code, loser in (("WEB111", "bob"), ("WEB112", "cid")):
        rows.rate_finished(
            TableResult(code, "classic", [Seat("ann", 400), Seat(loser, 90)], 9), now
        )
    seats = [Seat("ann", 300), Seat("expert", 200, bot=True), Seat("dan", 100)]
    rows.rate_finished(TableResult("WEB113", "extended", seats, 9), now)
    store.dispose()


def test_the_leaderboard_and_a_players_graph(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    rate_some(server.database_url)
    open_in(page, f"{server.base_url}/ratings")
    rows = page.get_by_test_id("ratings-row")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("ann")
    expect(rows.first).to_contain_text("?")  # provisional after two matches
    page.get_by_test_id("ratings-edition").select_option("extended")
    page.get_by_test_id("ratings-players").select_option("3")
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
    page.get_by_test_id("ratings-against").select_option("bots")
    expect(rows).to_have_count(2)
    assert "against=bots" in page.url
    rows.first.get_by_role("link").click()
    expect(page).to_have_url(f"{server.base_url}/ratings/ann")
    expect(page.get_by_test_id("player-ratings").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("rating-graph")).to_be_visible()
    expect(page.get_by_test_id("rating-line")).to_have_count(2)


def test_the_leaderboard_on_a_phone_in_french(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    rate_some(server.database_url)
    with watched_page(browser, **PHONE) as page:
        open_in(page, f"{server.base_url}/ratings", "fr")
        expect(page.get_by_role("heading", name="Classements")).to_be_visible()
        table = page.get_by_test_id("leaderboard")
        expect(table).to_be_visible()
        box = table.bounding_box()
        assert box is not None and box["width"] <= PHONE["viewport"]["width"]
