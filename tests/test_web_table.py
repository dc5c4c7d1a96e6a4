"""The table page in Chromium: whole matches played by clicks, the spectator view with its
hand ends, the replay, the keyboard, dragging, hints and the rematch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright")

import httpx
from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from web import (
    FAST_BOTS,
    create_game,
    expect_new_version,
    open_in,
    play_to_end,
    play_turn,
    play_until_a_tile_fits,
    post_table,
    table_state,
    watch_texts,
    written,
)


def draw_or_pass_by_keyboard(page: Page) -> None:
    with expect_new_version(page):
        page.keyboard.press("d" if page.get_by_test_id("draw").is_enabled() else "p")


def test_a_whole_match_against_a_bot_by_clicks(
    live_server: LiveServerFactory, page: Page, screenshot_dir: Path
) -> None:
    server = live_server(**FAST_BOTS)
    missing = watch_texts(page)
    code = create_game(page, server, rules={"target_score": "25"})
    expect(page.get_by_test_id("pool-size")).to_contain_text("Pool:")
    expect(page.get_by_test_id("rack-size")).to_have_count(2)
    expect(page.get_by_test_id("player")).to_have_count(2)

    # The first placement by clicks, looked at closely.
    assert table_state(page) == "turn"
    playable = page.locator(".rack-tile.playable")
    if playable.count():
        playable.first.click()
        cells = page.get_by_test_id("legal-cell")
        expect(cells.first).to_be_visible()
        points = cells.first.get_attribute("data-points")
        cells.first.click()
        expect(page.get_by_test_id("confirm-points")).to_have_text(f"+{points}")
        page.screenshot(path=str(screenshot_dir / "table-desktop.png"))
        with expect_new_version(page):
            page.get_by_test_id("place").click()
        last = page.locator("[data-testid=board-tile][data-last=true]")
        expect(last).to_have_count(1)
    else:
        expect(page.get_by_test_id("draw")).to_contain_text("\u22125")
        play_turn(page)

    play_to_end(page)
    dialog = page.get_by_test_id("match-end")
    expect(dialog).to_be_visible()
    document = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
    # One winner, or a shared win when both totals reach the target level.
    shared = len(document["winners"]) > 1
    expect(page.get_by_test_id("winner")).to_contain_text("Shared win" if shared else "wins")
    page.screenshot(path=str(screenshot_dir / "table-desktop-end.png"))

    # The score sheet lists every action of the record, with its points.
    actions = [action for hand in document["hands"] for action in hand["actions"]]
    rows = page.get_by_test_id("sheet-row")
    expect(rows).to_have_count(len(actions))
    for index in (0, len(actions) - 1):
        if "points" in actions[index]:
            points = actions[index]["points"]
            text = f"+{points}" if points > 0 else ("0" if points == 0 else f"\u2212{-points}")
            expect(rows.nth(index).locator(".points")).to_have_text(text)
    totals = page.get_by_test_id("total")
    for seat, score in enumerate(document["scores"]):
        expect(totals.nth(seat)).to_have_text(written(score))

    # A rematch: a new table with the same seats, where this browser plays on.
    page.get_by_test_id("rematch").click()
    page.wait_for_url(lambda url: "/t/" in url and not url.endswith(code))
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    expect(page.locator(".player.mine")).to_have_count(1)
    assert missing == []


def test_a_spectator_sees_each_hand_end_and_the_replay(
    live_server: LiveServerFactory, page: Page, screenshot_dir: Path
) -> None:
    server = live_server(**FAST_BOTS)
    missing = watch_texts(page)
    answer = post_table(
        server,
        {
            "preset": "classic",
            "players": 2,
            "options": {"target_score": None, "hand_limit": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        },
    )
    code = answer["code"]
    open_in(page, f"{server.base_url}/t/{code}")
    hand_ends: list[str] = []
    state = table_state(page)
    # The bots may be done before the page is: either the hand end is shown, or the match.
    while state == "hand-end":
        hand_ends.append(page.locator("dialog[open]").inner_text())
        page.get_by_test_id("continue").click()
        state = table_state(page)
    assert state == "over"
    document = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
    # A match that ended in front of the page shows its dialog with the last hand's
    # settlement (one that ended before the page opened, only its result); the sheet
    # shows both ends.
    if page.locator("dialog[open]").count():
        expect(page.get_by_test_id("winner")).to_be_visible()
        expect(page.locator("dialog[open] .settlement")).to_be_visible()
        page.get_by_test_id("close").click()
    expect(page.get_by_test_id("over-winner")).to_be_visible()
    expect(page.get_by_test_id("sheet-end")).to_have_count(2)
    for text in hand_ends:
        assert "Hand 1 is over" in text and "Settlement" in text
    expect(page.get_by_test_id("watching")).to_be_visible()
    expect(page.get_by_test_id("rack")).to_be_hidden()

    # The replay goes through the record move by move, to the final scores.
    page.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("replay")).to_be_visible()
    first_hand = len(document["hands"][0]["actions"])
    expect(page.get_by_test_id("replay-step")).to_have_text(f"move 0 of {first_hand}")
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"move 1 of {first_hand}")
    expect(page.get_by_test_id("board-tile")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"move 2 of {first_hand}")
    page.get_by_test_id("replay-last").click()
    totals = page.get_by_test_id("replay-total")
    for seat, score in enumerate(document["scores"]):
        expect(totals.nth(seat)).to_have_text(written(score))
    page.screenshot(path=str(screenshot_dir / "replay-desktop.png"))
    assert missing == []


def test_a_move_by_keyboard_alone(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    page.get_by_test_id("keys").click()
    expect(page.get_by_test_id("keys-help")).to_contain_text("turn the tile")
    page.keyboard.press("?")
    expect(page.get_by_test_id("keys-help")).to_be_hidden()
    play_until_a_tile_fits(page, draw_or_pass_by_keyboard)
    # Tab to a playable tile, choose it, walk its cells, turn it, place it.
    playable = page.locator(".rack-tile.playable").first.get_attribute("data-tile")
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.tile || ''")
        if focused == playable:
            break
    else:
        raise AssertionError("Tab never reached the playable tile")
    page.keyboard.press("Enter")
    expect(page.locator(".rack-tile.selected")).to_have_attribute("data-tile", playable or "")
    page.keyboard.press("ArrowRight")
    preview = page.get_by_test_id("preview")
    expect(preview).to_be_visible()
    corners = preview.get_attribute("data-corners")
    page.keyboard.press("r")  # another rotation, if one fits there too
    rotations = page.get_by_test_id("rotate").count()
    if rotations:
        expect(preview).not_to_have_attribute("data-corners", corners or "")
    with expect_new_version(page):
        page.keyboard.press("Enter")
    expect(page.locator(f"[data-testid=board-tile][data-tile='{playable}']")).to_have_count(1)


def test_a_tile_dragged_onto_the_board(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    play_until_a_tile_fits(page)
    tile = page.locator(".rack-tile.playable").first
    name = tile.get_attribute("data-tile")
    start = tile.bounding_box()
    assert start is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 30, start["y"] - 30, steps=4)
    target = page.get_by_test_id("legal-cell").first
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None
    # The middle of a triangle's box is inside the triangle.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    with expect_new_version(page):
        page.mouse.up()
    expect(page.locator(f"[data-testid=board-tile][data-tile='{name}']")).to_have_count(1)


FARTHEST_LIT_CELL = """() => {
    // The lit cell farthest from the board's middle, and the middle of its box where it
    // is drawn now (the middle of a triangle's box is inside the triangle).
    const board = document.querySelector('[data-testid=legal-cell]').ownerSVGElement;
    const frame = board.getBoundingClientRect();
    const [mx, my] = [frame.left + frame.width / 2, frame.top + frame.height / 2];
    const cells = [...document.querySelectorAll('[data-testid=legal-cell]')].map((cell) => {
        const box = cell.getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        return { cell: cell.dataset.cell, x, y, far: Math.hypot(x - mx, y - my) };
    });
    return cells.reduce((best, cell) => (cell.far > best.far ? cell : best));
}"""


def test_a_lit_cell_clicked_while_the_board_glides_is_the_one_under_the_pointer(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    play_until_a_tile_fits(page)
    while not page.get_by_test_id("board-tile").count():  # past the opening's one cell
        play_turn(page)
        play_until_a_tile_fits(page)
    page.locator(".rack-tile.playable").first.click()
    expect(page.get_by_test_id("legal-cell").first).to_be_visible()
    for _ in range(3):
        page.get_by_role("button", name="Zoom out").click()
    # Back to the board's own view, gliding slowly enough to be clicked on the way.
    page.emulate_media(reduced_motion="no-preference")
    page.add_style_tag(content=".viewport.animate { transition: transform 600s linear; }")
    page.get_by_test_id("recentre").click()
    target = page.evaluate(FARTHEST_LIT_CELL)
    page.mouse.click(target["x"], target["y"])
    expect(page.get_by_test_id("preview")).to_have_attribute("data-cell", target["cell"])


def test_a_hint_lights_up_the_bots_placements(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    play_until_a_tile_fits(page)
    page.get_by_test_id("hint").click()
    items = page.get_by_test_id("hint-item")
    expect(items.first).to_be_visible(timeout=15_000)
    items.first.click()
    expect(page.get_by_test_id("preview")).to_be_visible()
    with expect_new_version(page):
        page.get_by_test_id("place").click()


def test_a_hint_to_draw_on_purpose_says_why(live_server: LiveServerFactory, page: Page) -> None:
    """Two-player bots fish often: within a few turns with a tile that fits, the hint
    says to draw anyway, and why, in words (the house reading: seed 002 draws only when no
    tile fits)."""
    server = live_server(**FAST_BOTS)
    create_game(page, server, preset="classic-house")
    for _ in range(30):
        play_until_a_tile_fits(page)
        page.get_by_test_id("hint").click()
        expect(page.get_by_test_id("hint-item").first).to_be_visible(timeout=15_000)
        fishing = page.get_by_test_id("hint-fishing")
        if fishing.count():
            expect(fishing).to_have_text(
                re.compile(
                    r"^Draw a tile on purpose\. Your best tile scores \d+ now; "
                    r"a draw costs 5 points, and you can still lay that tile after it"
                )
            )
            page.get_by_test_id("language").select_option("fr")
            expect(fishing).to_contain_text("Piochez exprès.")
            return
        play_turn(page)
    raise AssertionError("no hint to draw on purpose in 30 turns")


def test_the_turn_timer_counts_down(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server, turn_seconds=30)
    assert table_state(page) == "turn"
    clock = page.locator("[data-testid=status] [data-testid=clock]")
    # The clock ticks outside every live region: a screen reader would read it each second.
    assert page.locator("[aria-live] [data-testid=clock]").count() == 0
    expect(clock).to_have_text(re.compile(r"^0:[0-3][0-9]$"))
    first = clock.inner_text()
    page.wait_for_timeout(1600)
    assert clock.inner_text() < first
    expect(page.locator(".player.to-move .clock")).to_have_text(re.compile(r"^0:[0-3][0-9]$"))
