"""The table on a phone (390 by 844): on your turn the board, the whole rack and the actions on
one screen without scrolling, in every edition at every number of players; the side's
parts behind tabs; an invitee's seat form first; and the desktop's layout beside them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE, LiveServer, LiveServerFactory, watched_page
from web import (
    FAST_BOTS,
    ann_and_bob,
    expect_new_version,
    open_seats,
    play_turn,
    post_table,
    table_state,
)

EDITIONS = {"classic": range(2, 7), "extended": range(2, 7), "junior": range(2, 5)}
"""Each tile set's preset and its numbers of players."""


def ann_and_bots(server: LiveServer, preset: str, players: int) -> dict[str, Any]:
    """A table of Ann (this device's seat) and random bots, made through the API."""
    bots = [{"kind": "bot", "bot": "random"}] * (players - 1)
    seats = [{"kind": "person", "name": "Ann"}, *bots]
    return post_table(server, {"preset": preset, "players": players, "seats": seats, "take": [0]})


def my_turn_to_place(page: Page) -> None:
    """Wait for Ann's turn past the starter draws (drawing hers)."""
    for _ in range(10):
        assert table_state(page) == "turn"
        if not page.get_by_test_id("starter-draw").count():
            return
        with expect_new_version(page):
            page.get_by_test_id("starter-draw").click()
    raise AssertionError("still drawing starters")


def off_screen(page: Page, test_ids: tuple[str, ...]) -> list[str]:
    """What of these (and of the rack's tiles) is not wholly on the screen; the page must
    not scroll either."""
    missing: list[str] = page.evaluate(
        """(testIds) => {
            const out = [];
            const inside = (box) => box.width > 0 && box.top >= 0 && box.left >= 0
                && box.bottom <= innerHeight && box.right <= innerWidth;
            const rack = document.querySelector('[data-testid=rack]').getBoundingClientRect();
            for (const id of testIds) {
                const element = document.querySelector(`[data-testid=${id}]`);
                if (!element || !inside(element.getBoundingClientRect())) out.push(id);
            }
            for (const tile of document.querySelectorAll('.rack-tile')) {
                const box = tile.getBoundingClientRect();
                const cut = box.top < rack.top || box.bottom > rack.bottom + 1;
                if (!inside(box) || cut) out.push(tile.dataset.tile);
            }
            if (document.documentElement.scrollHeight > innerHeight) out.push('page scrolls');
            return out;
        }""",
        list(test_ids),
    )
    return missing


def test_on_a_phone_your_turn_fits_one_screen_in_every_edition(
    live_server: LiveServerFactory, phone_page: Page, screenshot_dir: Path
) -> None:
    page = phone_page
    for preset, counts in EDITIONS.items():
        server = live_server(**FAST_BOTS)  # a server an edition: an address makes 10 a minute
        for players in counts:
            open_seats(page, server, ann_and_bots(server, preset, players))
            my_turn_to_place(page)
            assert off_screen(page, ("board", "rack", "draw", "pass")) == [], (preset, players)
            # A rack grown by draws still fits (it scrolls within itself past three rows).
            for _ in range(3):
                draw = page.get_by_test_id("draw")
                if not draw.is_enabled():
                    break
                with expect_new_version(page):
                    draw.click()
                if table_state(page) != "turn":
                    break
                assert off_screen(page, ("board", "rack", "draw", "pass")) == [], (preset, players)
            page.screenshot(path=str(screenshot_dir / f"table-phone-{preset}-{players}.png"))


def test_on_a_phone_the_side_is_behind_tabs(
    live_server: LiveServerFactory, phone_page: Page, browser: Browser, screenshot_dir: Path
) -> None:
    page = phone_page
    server = live_server(**FAST_BOTS)
    table = ann_and_bots(server, "classic", 4)
    open_seats(page, server, table)
    my_turn_to_place(page)
    for part in ("players", "chat", "score-table", "score-sheet"):
        expect(page.get_by_test_id(part)).to_be_hidden()
    for tab, part in (
        ("players", "players"),
        ("chat", "chat"),
        ("scores", "score-table"),
        ("moves", "score-sheet"),
    ):
        page.get_by_test_id(f"tab-{tab}").tap()
        expect(page.get_by_test_id(part)).to_be_in_viewport()
        expect(page.get_by_test_id("rack")).to_be_hidden()
    page.screenshot(path=str(screenshot_dir / "table-phone-moves-tab.png"))
    page.get_by_test_id("tab-play").tap()
    expect(page.get_by_test_id("rack")).to_be_in_viewport()

    # The desktop shows everything side by side, without tabs.
    with watched_page(browser, **DESKTOP) as desktop:
        open_seats(desktop, server, table)
        my_turn_to_place(desktop)
        expect(desktop.get_by_test_id("tabs")).to_be_hidden()
        assert (
            off_screen(desktop, ("board", "rack", "draw", "pass", "players", "chat", "score-sheet"))
            == []
        )
        desktop.screenshot(path=str(screenshot_dir / "table-desktop.png"))


def test_a_phone_invitee_sees_the_seat_form_first(
    live_server: LiveServerFactory, browser: Browser, screenshot_dir: Path
) -> None:
    server = live_server(**FAST_BOTS)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}]
    table = post_table(server, {"preset": "classic", "players": 2, "seats": seats, "take": [0]})
    with watched_page(browser, **PHONE) as invitee:
        invitee.goto(f"{server.base_url}/t/{table['code']}")
        form = invitee.get_by_test_id("join-form")
        expect(form).to_be_in_viewport()
        board = invitee.get_by_test_id("board").bounding_box()
        box = form.bounding_box()
        assert box is not None and board is not None and box["y"] + box["height"] <= board["y"]
        invitee.screenshot(path=str(screenshot_dir / "table-phone-invitee.png"))


def test_on_a_phone_a_takeback_is_answered_and_a_declined_one_waits(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    """No toast lies over Accept and Decline, and a declined takeback is not asked again at
    once (the server refuses it: PROTOCOL.md)."""
    server = live_server(**FAST_BOTS)
    table = ann_and_bob(server, take=[0, 1])
    with watched_page(browser, **PHONE) as ann, watched_page(browser, **PHONE) as bob:
        for page, seat in ((ann, 0), (bob, 1)):
            open_seats(page, server, {**table, "seats": [table["seats"][seat]]})
        expect(ann.locator(".player.to-move")).to_have_count(1)
        mover, other = (ann, bob) if ann.locator(".player.to-move.mine").count() else (bob, ann)
        assert table_state(mover) == "turn"
        play_turn(mover)
        mover.get_by_test_id("takeback").tap()
        question = other.get_by_test_id("takeback-asked")
        expect(question).to_be_in_viewport()
        for test_id in ("takeback-accept", "takeback-decline"):
            button = other.get_by_test_id(test_id)
            expect(button).to_be_in_viewport()
            # What a tap at the button's middle reaches is the button itself.
            assert button.evaluate(
                """(button) => {
                    const box = button.getBoundingClientRect();
                    const middle = [box.x + box.width / 2, box.y + box.height / 2];
                    return document.elementFromPoint(...middle) === button;
                }"""
            ), test_id
        other.get_by_test_id("takeback-decline").tap()
        expect(mover.get_by_test_id("toast").first).to_contain_text("declined")
        mover.get_by_test_id("takeback").tap()
        expect(mover.get_by_test_id("toast").last).to_contain_text("No takeback is possible now")
        expect(other.get_by_test_id("takeback-asked")).to_have_count(0)


def three_at_table(server: LiveServer) -> dict[str, Any]:
    """Ann, Bob and a bot, the people's seats taken: the API's answer."""
    seats = [
        {"kind": "person", "name": "Ann"},
        {"kind": "person", "name": "Bob"},
        {"kind": "bot", "bot": "greedy"},
    ]
    return post_table(server, {"preset": "classic", "players": 3, "seats": seats, "take": [0, 1]})


def test_at_three_players_a_player_leaves_and_the_others_play_on(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    page = phone_page
    server = live_server(**FAST_BOTS)
    table = three_at_table(server)
    open_seats(page, server, {**table, "seats": [table["seats"][0]]})
    page.get_by_test_id("leave").tap()
    expect(page.get_by_test_id("resign-confirm")).to_contain_text("the others play on")
    page.get_by_test_id("resign-yes").tap()
    expect(page.get_by_test_id("watching")).to_be_visible()
    page.get_by_test_id("tab-players").tap()
    ann = page.locator(".player[data-seat='0']")
    expect(ann.get_by_test_id("bot-badge")).to_be_visible()
    expect(page.get_by_test_id("table")).to_have_attribute("data-over", "false")


def test_at_three_players_a_resignation_ends_the_match_when_everyone_agrees(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    table = three_at_table(server)
    with watched_page(browser, **PHONE) as ann, watched_page(browser, **PHONE) as bob:
        for page, seat in ((ann, 0), (bob, 1)):
            open_seats(page, server, {**table, "seats": [table["seats"][seat]]})
        ann.get_by_test_id("resign").tap()
        expect(ann.get_by_test_id("resign-confirm")).to_contain_text("the others are asked")
        ann.get_by_test_id("resign-yes").tap()
        expect(ann.get_by_test_id("ending-waiting")).to_be_visible()
        expect(ann.get_by_test_id("resign")).to_have_count(0)
        expect(ann.get_by_test_id("leave")).to_be_visible()  # the other way out stays
        expect(bob.get_by_test_id("ending-asked")).to_contain_text("Ann resigns and loses it")
        expect(bob.get_by_test_id("table")).to_have_attribute("data-over", "false")
        bob.get_by_test_id("ending-agree").tap()
        for page in (ann, bob):
            expect(page.get_by_test_id("table")).to_have_attribute("data-over", "true")
