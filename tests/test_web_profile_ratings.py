"""The ratings on the pages, in Chromium: the leaderboard of a pool, each name a link to
its player page (none for a deleted account); the player page with each pool's rating,
the graph of its history (an image named in the accessibility tree) and the same points
as a table reached by keyboard; the old /ratings/ID address moved to it. In every
language the site ships, on a desktop and on a phone (390x844)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE, LiveServer, LiveServerFactory, watched_page
from triominos.ratings import Seat
from triominos.server.account_store import AccountStore
from triominos.server.rating_store import RatingStore, TableResult
from triominos.server.store import Store
from web import STATIC, open_in, watch_texts

LANGUAGES = sorted(path.stem for path in (STATIC / "locales").glob("*.json"))
"""Every language the site ships."""


def messages(language: str) -> dict[str, str]:
    found: dict[str, str] = json.loads((STATIC / "locales" / f"{language}.json").read_text())
    return found


def rate_some(server: LiveServer) -> dict[str, str]:
    """Accounts Ann (who reads French), Bob and Cid, and three rated matches: Ann beats
    Bob, then Cid, in 2-player classic; Ann against a bot in 3-player extended with Dan,
    whose account is gone (a player id no account has). Each account's id, by name."""
    store = Store(server.database_url)
    try:
        accounts = AccountStore(store)
        now = time.time()
        ids = {
            name: str(accounts.create(name, language, f"handle-{name}", None, now).id)
            for name, language in (("Ann", "fr"), ("Bob", "en"), ("Cid", "en"))
        }
        rows = RatingStore(store)
        for code, loser in (("WEB111", "Bob"), ("WEB112", "Cid")):
            seats = [Seat(ids["Ann"], 400), Seat(ids[loser], 90)]
            rows.rate_finished(TableResult(code, "classic", seats, 9), now)
        seats = [Seat(ids["Ann"], 300), Seat("expert", 200, bot=True), Seat("gone", 100)]
        rows.rate_finished(TableResult("WEB113", "extended", seats, 9), now)
        return ids
    finally:
        store.dispose()


def test_the_leaderboard_links_names_to_player_pages(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    rate_some(server)
    open_in(page, f"{server.base_url}/ratings")
    rows = page.get_by_test_id("ratings-row")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("Ann")
    expect(rows.first).to_contain_text("?")  # provisional after two matches
    expect(rows.first.get_by_role("link", name="Ann")).to_have_attribute("href", "/players/Ann")
    page.get_by_test_id("ratings-edition").select_option("extended")
    page.get_by_test_id("ratings-players").select_option("3")
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
    page.get_by_test_id("ratings-against").select_option("bots")
    expect(rows).to_have_count(2)
    assert "against=bots" in page.url
    gone = rows.filter(has_text="Player")
    expect(gone).to_have_count(1)
    expect(gone.get_by_role("link")).to_have_count(0)  # a deleted account has no page
    rows.first.get_by_role("link").click()
    expect(page).to_have_url(f"{server.base_url}/players/Ann")
    expect(page.get_by_test_id("player-rating")).to_have_count(2)
    expect(page.get_by_test_id("rating-line")).to_have_count(2)


def test_the_old_ratings_address_opens_the_player_page(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    ids = rate_some(server)
    with watched_page(browser, "404", **DESKTOP) as page:
        page.goto(f"{server.base_url}/ratings/{ids['Bob']}")
        expect(page).to_have_url(f"{server.base_url}/players/Bob")
        expect(page.get_by_test_id("player-name")).to_have_text("Bob")
        expect(page.get_by_test_id("player-rating")).to_have_count(1)
        page.goto(f"{server.base_url}/ratings/999999")
        expect(
            page.get_by_role("heading", name="There is nothing at this address.")
        ).to_be_visible()


def players_page_in_every_language(
    browser: Browser, server: LiveServer, size: dict[str, Any]
) -> None:
    """Ann's page in each language: its texts all there, the graph named as the language
    names it, its table opened and walked by keyboard, nothing wider than the screen."""
    for language in LANGUAGES:
        texts = messages(language)
        with watched_page(browser, **size) as page:
            missing = watch_texts(page)
            open_in(page, f"{server.base_url}/players/Ann", language)
            expect(page.get_by_test_id("player-name")).to_have_text("Ann")
            expect(page.get_by_test_id("player-language")).to_contain_text(
                texts["player_language"].split("{")[0].strip()
            )
            graph = page.get_by_role("img", name=texts["ratings_graph"])
            expect(graph).to_be_visible()
            assert (
                f'img "{texts["ratings_graph"]}"'
                in page.get_by_test_id("player-ratings").aria_snapshot()
            )
            expect(page.get_by_test_id("rating-line")).to_have_count(2)
            points = page.get_by_test_id("rating-point")
            expect(points.first).to_be_hidden()  # folded until asked for
            summary = page.get_by_text(texts["ratings_history_table"], exact=True)
            for _ in range(40):  # Tab from the top of the page to the table's summary
                page.keyboard.press("Tab")
                if summary.evaluate("(element) => element === document.activeElement"):
                    break
            else:
                raise AssertionError(f"{language}: the table's summary is not reached by Tab")
            page.keyboard.press("Enter")
            expect(points).to_have_count(3)
            expect(points.first).to_be_visible()
            page.keyboard.press("Tab")  # the first point's replay
            focused = page.evaluate("document.activeElement.getAttribute('href')")
            assert focused == "/t/WEB111?replay=1"
            card, table = (
                page.get_by_test_id("player-ratings").bounding_box(),
                page.get_by_test_id("rating-table").bounding_box(),
            )
            assert card is not None and table is not None
            assert table["x"] + table["width"] <= card["x"] + card["width"], (
                language
            )  # it scrolls inside
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{language}: {overflow} px wider than the screen"
            assert missing == [], language


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_player_page_in_every_language(
    live_server: LiveServerFactory, browser: Browser, size: dict[str, Any]
) -> None:
    server = live_server()
    rate_some(server)
    players_page_in_every_language(browser, server, size)
