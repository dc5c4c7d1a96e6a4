"""The table page in Chromium: whole matches played by clicks, the spectator view with its
hand ends, the replay, the keyboard, dragging, hints and the rematch.

The helpers here (creating a game through the home page, playing one turn by clicks,
playing to the end) are shared by the other browser tests, test_web_*.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from conftest import LiveServer, LiveServerFactory, PageErrors

FAST_BOTS = {"TRIOMINOS_BOT_DELAY": "0"}
"""Server bots move at once, so a whole match takes seconds."""

TURN_TIMEOUT_MS = 20_000


def watch_texts(page: Page) -> list[str]:
    """Collect the page's warnings about missing translations (i18n.js warns, never errs)."""
    missing: list[str] = []
    page.on(
        "console",
        lambda message: missing.append(message.text) if message.text.startswith("i18n:") else None,
    )
    return missing


@contextmanager
def page_expecting(browser: Browser, *expected: str, **options: Any) -> Iterator[Page]:
    """A page whose console errors fail the test, except those that contain one of
    ``expected``: what Chromium itself logs for a refused request the test provokes."""
    context = browser.new_context(**options)
    page = context.new_page()
    errors = PageErrors(page)
    try:
        yield page
    finally:
        context.close()
    unexpected = [
        message for message in errors.messages if not any(text in message for text in expected)
    ]
    assert unexpected == [], "\n".join(unexpected)


def create_game(
    page: Page,
    server: LiveServer,
    *,
    preset: str = "classic",
    name: str = "Ann",
    seats: tuple[str, ...] = ("bot:greedy",),
    rules: dict[str, str] | None = None,
    turn_seconds: int | None = None,
    language: str = "en",
) -> str:
    """Start a game through the home page's form; returns the table's code.

    The page is asked for reduced motion: the board then moves without animation, so
    clicks need not wait for it to settle.
    """
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{server.base_url}/")
    page.evaluate(f"localStorage.setItem('triominos.lang', '{language}')")
    page.reload()
    page.get_by_test_id(f"preset-{preset}").locator("..").click()
    page.get_by_test_id(f"players-{len(seats) + 1}").locator("..").click()
    page.get_by_test_id("your-name").fill(name)
    for index, seat in enumerate(seats, start=1):
        page.get_by_test_id(f"seat-{index}").select_option(seat)
    if rules or turn_seconds:
        page.get_by_test_id("house-rules").click()
    for option, value in (rules or {}).items():
        page.get_by_test_id(f"rule-{option}").fill(value)
    if turn_seconds:
        page.get_by_test_id("turn-seconds").select_option(str(turn_seconds))
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    return code


def table_state(page: Page) -> str:
    """Wait until something is asked of this page: "turn", "hand-end" or "over"."""
    page.wait_for_function(
        """() => {
            const table = document.querySelector('[data-testid=table]');
            return table && (table.dataset.myTurn === 'true' || table.dataset.over === 'true'
                || document.querySelector('dialog[open]'));
        }""",
        timeout=TURN_TIMEOUT_MS,
    )
    dialog = page.locator("dialog[open]")
    if dialog.count():
        return "over" if dialog.get_attribute("data-testid") == "match-end" else "hand-end"
    return "over" if page.get_by_test_id("table").get_attribute("data-over") == "true" else "turn"


def version(page: Page) -> int:
    return int(page.get_by_test_id("table").get_attribute("data-version") or "-1")


def wait_for_version_after(page: Page, seen: int) -> None:
    page.wait_for_function(
        f"Number(document.querySelector('[data-testid=table]').dataset.version) > {seen}",
        timeout=TURN_TIMEOUT_MS,
    )


def play_turn(page: Page) -> str:
    """Play one action by clicks: a placement when a tile fits, else draw, else pass.

    Returns the action's kind.
    """
    seen = version(page)
    playable = page.locator(".rack-tile.playable")
    if playable.count():
        playable.first.click()
        page.get_by_test_id("legal-cell").first.click()
        expect(page.get_by_test_id("preview")).to_be_visible()
        page.get_by_test_id("place").click()
        kind = "place"
    elif page.get_by_test_id("starter-draw").count():
        page.get_by_test_id("starter-draw").click()
        kind = "starter_draw"
    elif page.get_by_test_id("draw").is_enabled():
        page.get_by_test_id("draw").click()
        kind = "draw"
    else:
        page.get_by_test_id("pass").click()
        kind = "pass"
    wait_for_version_after(page, seen)
    return kind


def play_to_end(page: Page, *, on_hand_end: list[str] | None = None, turns: int = 400) -> int:
    """Play every turn of this page's seat by clicks until the match is over."""
    played = 0
    for _ in range(turns):
        state = table_state(page)
        if state == "over":
            return played
        if state == "hand-end":
            if on_hand_end is not None:
                on_hand_end.append(page.locator("dialog[open]").inner_text())
            page.get_by_test_id("continue").click()
            continue
        play_turn(page)
        played += 1
    raise AssertionError(f"the match did not end within {turns} turns")


# --- the tests --------------------------------------------------------------------------


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
        seen = version(page)
        page.get_by_test_id("place").click()
        wait_for_version_after(page, seen)
        last = page.locator("[data-testid=board-tile][data-last=true]")
        expect(last).to_have_count(1)
    else:
        expect(page.get_by_test_id("draw")).to_contain_text("\u22125")
        play_turn(page)

    play_to_end(page)
    dialog = page.get_by_test_id("match-end")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("winner")).to_contain_text("wins")
    page.screenshot(path=str(screenshot_dir / "table-desktop-end.png"))

    # The score sheet lists every action of the record, with its points.
    document = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
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
        expect(totals.nth(seat)).to_have_text(str(score))

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
    answer = httpx.post(
        f"{server.base_url}/api/tables",
        json={
            "preset": "classic",
            "players": 2,
            "options": {"target_score": None, "hand_limit": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        },
    ).json()
    code = answer["code"]
    page.goto(f"{server.base_url}/t/{code}")
    page.evaluate("localStorage.setItem('triominos.lang', 'en')")
    page.reload()
    hand_ends: list[str] = []
    state = table_state(page)
    # The bots may be done before the page is: either the hand end is shown, or the match.
    while state == "hand-end":
        hand_ends.append(page.locator("dialog[open]").inner_text())
        page.get_by_test_id("continue").click()
        state = table_state(page)
    assert state == "over"
    document = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
    expect(page.get_by_test_id("winner")).to_be_visible()
    # The match's end shows the last hand's settlement; the sheet shows both ends.
    expect(page.locator("dialog[open] .settlement")).to_be_visible()
    expect(page.get_by_test_id("sheet-end")).to_have_count(2)
    for text in hand_ends:
        assert "Hand 1 is over" in text and "Settlement" in text
    expect(page.get_by_test_id("watching")).to_be_visible()
    expect(page.get_by_test_id("rack")).to_be_hidden()
    page.get_by_test_id("close").click()

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
        expect(totals.nth(seat)).to_have_text(str(score))
    page.screenshot(path=str(screenshot_dir / "replay-desktop.png"))
    assert missing == []


def test_a_move_by_keyboard_alone(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    page.get_by_test_id("keys").click()
    expect(page.get_by_test_id("keys-help")).to_contain_text("turn the tile")
    page.keyboard.press("?")
    expect(page.get_by_test_id("keys-help")).to_be_hidden()
    for _ in range(20):
        assert table_state(page) == "turn"
        if page.locator(".rack-tile.playable").count():
            break
        seen = version(page)
        page.keyboard.press("d" if page.get_by_test_id("draw").is_enabled() else "p")
        wait_for_version_after(page, seen)
    else:
        raise AssertionError("no tile fitted in 20 turns")
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
    seen = version(page)
    page.keyboard.press("Enter")
    wait_for_version_after(page, seen)
    expect(page.locator(f"[data-testid=board-tile][data-tile='{playable}']")).to_have_count(1)


def test_a_tile_dragged_onto_the_board(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    for _ in range(20):
        assert table_state(page) == "turn"
        if page.locator(".rack-tile.playable").count():
            break
        play_turn(page)
    else:
        raise AssertionError("no tile fitted in 20 turns")
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
    seen = version(page)
    page.mouse.up()
    wait_for_version_after(page, seen)
    expect(page.locator(f"[data-testid=board-tile][data-tile='{name}']")).to_have_count(1)


def test_a_hint_lights_up_the_bots_placements(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    for _ in range(20):
        assert table_state(page) == "turn"
        if page.locator(".rack-tile.playable").count():
            break
        play_turn(page)
    else:
        raise AssertionError("no tile fitted in 20 turns")
    page.get_by_test_id("hint").click()
    items = page.get_by_test_id("hint-item")
    expect(items.first).to_be_visible(timeout=15_000)
    items.first.click()
    expect(page.get_by_test_id("preview")).to_be_visible()
    seen = version(page)
    page.get_by_test_id("place").click()
    wait_for_version_after(page, seen)


def test_the_turn_timer_counts_down(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server, turn_seconds=30)
    assert table_state(page) == "turn"
    clock = page.locator("[data-testid=turn] [data-testid=clock]")
    expect(clock).to_have_text(re.compile(r"^0:[0-3][0-9]$"))
    first = clock.inner_text()
    page.wait_for_timeout(1600)
    assert clock.inner_text() < first
    expect(page.locator(".player.to-move .clock")).to_have_text(re.compile(r"^0:[0-3][0-9]$"))
