"""The ratings pages in Chromium: the leaderboard of a pool, another pool chosen, a
player's ratings with the graph of their history; on a phone, in French."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import PHONE, LiveServerFactory, watched_page
from triominos.ratings import Seat
from triominos.server.account_store import AccountStore
from triominos.server.rating_store import RatingStore, TableResult
from triominos.server.store import Store
from web import open_in


def rate_some(database_url: str) -> dict[str, str]:
    """Three rated matches of four accounts: Ann beats Bob, then Cid, in 2-player
    classic; Ann against a bot in 3-player extended. Each account's id (the player a
    rating is for) by its name."""
    store = Store(database_url)
    now = time.time()
    accounts = AccountStore(store)
    ids = {
        name: str(accounts.create(name, "en", name, None, now).id)
        for name in ("Ann", "Bob", "Cid", "Dan")
    }
    rows = RatingStore(store)
    for code, loser in (("WEB111", "Bob"), ("WEB112", "Cid")):
        rows.rate_finished(
            TableResult(code, "classic", [Seat(ids["Ann"], 400), Seat(ids[loser], 90)], 9), now
        )
    seats = [Seat(ids["Ann"], 300), Seat("expert", 200, bot=True), Seat(ids["Dan"], 100)]
    rows.rate_finished(TableResult("WEB113", "extended", seats, 9), now)
    store.dispose()
    return ids


def test_the_leaderboard_and_a_players_graph(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    ids = rate_some(server.database_url)
    open_in(page, f"{server.base_url}/ratings")
    rows = page.get_by_test_id("ratings-row")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("Ann")  # the account's name, not its id
    expect(rows.first).to_contain_text("?")  # provisional after two matches
    page.get_by_test_id("ratings-edition").select_option("extended")
    page.get_by_test_id("ratings-players").select_option("3")
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
    page.get_by_test_id("ratings-against").select_option("bots")
    expect(rows).to_have_count(2)
    assert "against=bots" in page.url
    rows.first.get_by_role("link").click()
    expect(page).to_have_url(f"{server.base_url}/ratings/{ids['Ann']}")
    expect(page.get_by_role("heading", name="Ratings of Ann")).to_be_visible()
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
