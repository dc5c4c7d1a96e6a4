"""The page on a phone: a game started and a tile placed by taps, everything the player
must see on screen without scrolling sideways (the players behind their tab), and a
screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from web import (
    FAST_BOTS,
    expect_new_version,
    open_in,
    play_until_a_tile_fits,
    with_board_view,
)


def test_a_game_on_a_phone_by_taps(
    live_server: LiveServerFactory, phone_page: Page, screenshot_dir: Path
) -> None:
    page = phone_page
    server = live_server(**FAST_BOTS)
    page.emulate_media(reduced_motion="reduce")
    open_in(page, f"{server.base_url}/")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    page.screenshot(path=str(screenshot_dir / "table-phone-start.png"))

    play_until_a_tile_fits(page)
    page.locator(".rack-tile.playable").first.tap()
    page.get_by_test_id("legal-cell").first.tap()
    expect(page.get_by_test_id("preview")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "table-phone.png"))
    with expect_new_version(page):
        page.get_by_test_id("place").tap()

    # Nothing wider than the screen; the pool and turn in sight, the scores and rack sizes
    # one tap away.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    for test_id in ("pool-size", "turn", "board", "rack"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, test_id
    page.get_by_test_id("tab-players").tap()
    expect(page.get_by_test_id("players")).to_be_in_viewport()


def test_the_board_pans_and_zooms_with_fingers(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    """Pinch and pan by touch events, as a phone sends them, move the board's view."""
    page = phone_page
    server = live_server()
    page.goto(f"{server.base_url}/")
    scale = with_board_view(
        page,
        "position: fixed; inset: 0; z-index: 99",
        """
            const board = new BoardView(box);
            board.render({ cards: false, placements: [
                { tile: '5-5-5', cell: [0, 0, 'up'], corners: [5, 5, 5] }] });
            const before = board.transform.scale;
            const touch = (type, id, x, y) => board.svg.dispatchEvent(new PointerEvent(type,
                { pointerId: id, pointerType: 'touch', clientX: x, clientY: y, bubbles: true,
                  isPrimary: id === 1 }));
            touch('pointerdown', 1, 150, 400);
            touch('pointerdown', 2, 250, 400);
            touch('pointermove', 1, 137.5, 400);
            touch('pointermove', 2, 262.5, 400);
            touch('pointerup', 2, 262.5, 400);
            const pinched = board.transform.scale;
            const x = board.transform.x;
            touch('pointermove', 1, 197.5, 400);
            touch('pointerup', 1, 197.5, 400);
            return { before, pinched, panned: board.transform.x - x };""",
    )
    assert abs(scale["pinched"] / scale["before"] - 1.25) < 0.01
    assert abs(scale["panned"] - 60) < 0.01
