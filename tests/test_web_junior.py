"""Triominos Junior in the browser: coloured cards, the joker, counters and the bank, played
by clicks to the end."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright")

import httpx
from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from web import FAST_BOTS, create_game, play_to_end, watch_texts, with_board_view

CARD_COLORS = {"#e03131", "#f08c00", "#1971c2", "#2f9e44", "#9c36b5"}


def test_a_junior_game_by_clicks(
    live_server: LiveServerFactory, page: Page, screenshot_dir: Path
) -> None:
    server = live_server(**FAST_BOTS)
    missing = watch_texts(page)
    code = create_game(page, server, preset="junior")
    # Cards: each corner on a patch of its symbol's colour; the rack too.
    patches = page.locator("[data-testid=board-tile] .patch")
    expect(patches.first).to_be_visible()
    colors = set(patches.evaluate_all("patches => patches.map(p => p.getAttribute('fill'))"))
    assert colors and colors <= CARD_COLORS
    expect(page.locator("[data-testid=rack-tile] .patch").first).to_be_attached()
    expect(page.get_by_test_id("bank")).to_contain_text("Bank:")
    expect(page.locator(".player .total.counters")).to_have_count(2)
    expect(page.get_by_test_id("draw")).to_have_text("Buy a card \u22121")

    play_to_end(page)
    document = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
    # Counters: the totals shown are the counters each holds, bank and players make 60.
    totals = page.get_by_test_id("total")
    for seat, counters in enumerate(document["scores"]):
        expect(totals.nth(seat)).to_have_text(str(counters))
    expect(page.get_by_test_id("bank")).to_have_text(f"Bank: {60 - sum(document['scores'])}")
    page.get_by_test_id("close").click()
    page.screenshot(path=str(screenshot_dir / "table-junior.png"))
    assert missing == []


def test_the_joker_shows_the_numbers_around_it(live_server: LiveServerFactory, page: Page) -> None:
    """A joker's corner shows what the cards at its vertex show, ``*`` where none touches."""
    server = live_server()
    page.goto(f"{server.base_url}/")
    corners = with_board_view(
        page,
        "position: relative; width: 400px; height: 300px",
        """
            new BoardView(box).render({
                cards: true,
                placements: [
                    { tile: '1-2-3', cell: [0, 0, 'up'], corners: [1, 2, 3] },
                    { tile: 'J', cell: [0, 0, 'down'], corners: [2, null, 3] },
                ],
            });
            const joker = box.querySelector('[data-tile=J]');
            return {
                numbers: [...joker.querySelectorAll('text.number')].map((t) => t.textContent),
                star: joker.querySelectorAll('.star').length,
                mark: joker.querySelector('.joker-mark').textContent,
            };""",
    )
    assert corners == {"numbers": ["2", "*", "3"], "star": 1, "mark": "J"}
