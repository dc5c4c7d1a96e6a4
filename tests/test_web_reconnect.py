"""A dropped connection: the server crashes and comes back; the page shows that it is
offline and recovers by itself, at the same version, and play goes on."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import LiveServer, LiveServerFactory, watched_page
from web import FAST_BOTS, create_game, play_turn, table_state, version

EXPECTED_WHILE_DOWN = ("WebSocket connection to", "ERR_CONNECTION_REFUSED")
"""What Chromium itself logs while the server is down: the page's own retries failing."""


def test_the_page_reconnects_by_itself_after_a_crash(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    with watched_page(browser, *EXPECTED_WHILE_DOWN) as page:
        play_across_a_crash(page, server)


def play_across_a_crash(page: Page, server: LiveServer) -> None:
    create_game(page, server)
    assert table_state(page) == "turn"
    play_turn(page)
    assert table_state(page) == "turn"
    before = version(page)
    rows = page.get_by_test_id("sheet-row").count()

    server.kill()
    badge = page.get_by_test_id("connection")
    expect(badge).to_have_attribute("data-state", "offline")
    expect(badge).to_have_text("Reconnecting…")
    server.start()
    expect(badge).to_have_attribute("data-state", "online", timeout=20_000)
    assert version(page) == before
    expect(page.get_by_test_id("sheet-row")).to_have_count(rows)

    # The game goes on from where it was.
    assert table_state(page) == "turn"
    play_turn(page)
    assert version(page) > before


def test_the_page_gives_up_a_silent_server_within_seconds_and_comes_back(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    """A paused server keeps its sockets open and says nothing: the page waited 40 s of
    silence before it tried again (its viewers froze). It pings every 2.5 s and gives a
    line 9 s without a word up; the page's clock is Playwright's, moved on by the test."""
    server = live_server(**FAST_BOTS)
    with watched_page(browser, *EXPECTED_WHILE_DOWN) as page:
        page.clock.install()
        create_game(page, server)
        badge = page.get_by_test_id("connection")
        expect(badge).to_have_attribute("data-state", "online")
        server.pause()
        try:
            page.clock.run_for(10_000)
            expect(badge).to_have_attribute("data-state", "offline")
        finally:
            server.resume()
        page.clock.run_for(10_000)  # the next try, after its backoff
        expect(badge).to_have_attribute("data-state", "online", timeout=20_000)
        assert table_state(page) == "turn"
