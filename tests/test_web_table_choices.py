"""Resigning and taking back in Chromium (RULES.md §16): a resignation asks first, then
ends the match; a takeback is asked from one browser and answered in the other. And the
personal link's QR code, for the seat's holder only."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, Route, expect

from conftest import DESKTOP, LiveServer, LiveServerFactory, watched_page
from web import (
    FAST_BOTS,
    TURN_TIMEOUT_MS,
    create_game,
    open_in,
    play_turn,
    post_table,
    table_state,
)


def the_one_to_move(pages: tuple[Page, ...]) -> Page:
    """The page whose player is to move, once one is (within 20 s)."""
    for _ in range(400):
        for each in pages:
            if each.get_by_test_id("table").get_attribute("data-my-turn") == "true":
                return each
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody is to move")


def test_a_player_resigns_only_after_saying_so_twice(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    assert table_state(page) == "turn"
    page.get_by_test_id("resign").click()
    dialog = page.get_by_test_id("resign-confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("you lose it")
    expect(page.get_by_test_id("resign-no")).to_be_focused()
    page.get_by_test_id("resign-no").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("table")).to_have_attribute("data-over", "false")
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-yes").click()
    end = page.get_by_test_id("match-end")
    expect(end).to_be_visible()
    expect(page.get_by_test_id("winner")).to_contain_text("wins")
    expect(page.get_by_test_id("winner")).not_to_contain_text("Ann")
    expect(end).to_contain_text("Ann resigned")
    page.get_by_test_id("close").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-over", "true")
    expect(page.get_by_test_id("resign")).to_have_count(0)
    expect(page.locator("[data-testid=sheet-row][data-action=resign]")).to_contain_text("resigned")


def test_a_takeback_is_asked_in_one_browser_and_answered_in_the_other(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    code = create_game(page, server, seats=("invite",))
    with watched_page(browser, **DESKTOP, locale="en-GB") as friend:
        friend.emulate_media(reduced_motion="reduce")
        friend.goto(f"{server.base_url}/t/{code}")
        friend.get_by_test_id("join-name").fill("Bob")
        friend.get_by_test_id("join").click()
        expect(friend.locator(".player.mine .player-name")).to_have_text("Bob")
        pages = (page, friend)
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=player]')].length === 2"
        )
        for each in pages:
            expect(each.get_by_test_id("takeback")).to_have_count(0)
        mover = the_one_to_move(pages)
        other = friend if mover is page else page
        rack = mover.locator(".rack-tile").count()
        assert play_turn(mover) == "place"  # the opening
        expect(other.get_by_test_id("board-tile")).to_have_count(1)
        expect(other.get_by_test_id("takeback")).to_have_count(0)  # not Bob's move

        mover.get_by_test_id("takeback").click()
        expect(mover.get_by_test_id("takeback-waiting")).to_be_visible()
        asked = other.get_by_test_id("takeback-asked")
        expect(asked).to_contain_text("asks to take back their last move")
        other.get_by_test_id("takeback-accept").click()
        for each in pages:
            expect(each.get_by_test_id("board-tile")).to_have_count(0)
            expect(each.get_by_test_id("sheet-row")).to_have_count(0)
        expect(other.locator("#toasts")).to_contain_text("took back their last move")
        expect(mover.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
        expect(mover.locator(".rack-tile")).to_have_count(rack)
        expect(mover.get_by_test_id("takeback")).to_have_count(0)

        # Played again and asked again, declined: not asked once more at once (PROTOCOL.md).
        assert play_turn(mover) == "place"
        mover.get_by_test_id("takeback").click()
        other.get_by_test_id("takeback-decline").click()
        expect(asked).to_be_hidden()
        expect(mover.locator("#toasts")).to_contain_text("Your takeback was declined.")
        expect(mover.get_by_test_id("takeback-waiting")).to_be_hidden()
        expect(mover.get_by_test_id("board-tile")).to_have_count(1)
        mover.get_by_test_id("takeback").click()
        expect(mover.locator("#toasts")).to_contain_text("No takeback is possible now")
        expect(other.get_by_test_id("takeback-asked")).to_have_count(0)


def test_the_personal_link_comes_with_its_qr_code(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    with page.expect_response(lambda response: response.url.endswith("/seats/0/qr")) as answer:
        page.get_by_test_id("other-device").locator("summary").click()
    response = answer.value
    assert response.status == 200 and response.request.method == "POST"
    assert response.headers["content-type"] == "image/svg+xml"
    assert "no-store" in response.headers["cache-control"]
    assert "token" not in response.url  # the token goes in the body, never in an address
    qr = page.get_by_test_id("personal-qr")
    expect(qr).to_be_visible()
    expect(qr).to_have_attribute("alt", "QR code of the personal link of Ann")
    expect(qr).to_have_attribute("src", re.compile(r"^blob:"))
    page.wait_for_function("document.querySelector('[data-testid=personal-qr]').naturalWidth > 100")
    # Kept open while the game goes on (the page draws itself again at every move).
    if table_state(page) == "turn":
        play_turn(page)
    expect(page.get_by_test_id("other-device")).to_have_attribute("open", "")
    expect(qr).to_be_visible()


def test_a_qr_code_refused_is_told_once_and_not_asked_again_and_again(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    asked: list[str] = []

    def refuse(route: Route) -> None:
        asked.append(route.request.url)
        route.fulfill(status=503, json={"error": {"code": "unavailable", "message": "busy"}})

    with watched_page(browser, "status of 503", **DESKTOP) as page:
        create_game(page, server)
        page.route("**/seats/0/qr", refuse)
        page.get_by_test_id("other-device").locator("summary").click()
        expect(page.get_by_test_id("toast")).to_have_count(1)
        page.wait_for_timeout(1000)  # (asked again at every render: a round in milliseconds)
        assert len(asked) == 1
        expect(page.get_by_test_id("toast")).to_have_count(1)
        expect(page.get_by_test_id("personal-link")).to_be_visible()  # the link still works


def short_hands_against_greedy(server: LiveServer, hands: int, **body: Any) -> str:
    """Ann's link to a table where she plays ``hands`` hands of two tiles a rack against
    a greedy bot."""
    answer = post_table(
        server,
        {
            "preset": "classic",
            "players": 2,
            "options": {
                "rack_sizes": {str(count): 2 for count in range(2, 7)},
                "target_score": None,
                "hand_limit": hands,
            },
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
            "take": [0],
            **body,
        },
    )
    return f"{server.base_url}/t/{answer['code']}#seat=0&token={answer['seats'][0]['token']}"


def test_each_hand_end_waits_for_this_player_and_spares_their_clock(
    live_server: LiveServerFactory, page: Page
) -> None:
    """Ann against a bot that moves at once: after each hand the bot may already play the
    next one while Ann still looks at the end; her board stays the finished hand's, and
    when the next hand opens with her turn, her clock waits for her (RULES.md §13)."""
    server = live_server(**FAST_BOTS)
    page.emulate_media(reduced_motion="reduce")
    open_in(page, short_hands_against_greedy(server, hands=5, turn_seconds=600))
    ends = 0
    while (state := table_state(page)) != "over":
        if state == "turn":
            play_turn(page)
            continue
        ends += 1
        hand = ends
        placed = page.locator(f"[data-testid=sheet-row][data-hand='{hand}'][data-action=place]")
        expect(page.get_by_test_id("board-tile")).to_have_count(placed.count())
        turn = page.get_by_test_id("turn")
        expect(turn).not_to_be_empty()
        if "Your turn" in turn.inner_text():
            # Her clock counts the time to read the end too: a turn's more than the 10 min.
            minutes = int(page.get_by_test_id("clock").inner_text().split(":")[0])
            assert minutes >= 10
            page.get_by_test_id("continue").click()
            expect(page.get_by_test_id("clock")).to_have_text(re.compile(r"^(10:00|9:\d\d)$"))
        else:
            # The bot opens the next hand at once; behind the dialog it is not on the board.
            following = page.locator(f"[data-testid=sheet-row][data-hand='{hand + 1}']")
            expect(following).not_to_have_count(0)
            expect(page.get_by_test_id("board-tile")).to_have_count(placed.count())
            page.get_by_test_id("continue").click()
            shown = page.locator(
                f"[data-testid=sheet-row][data-hand='{hand + 1}'][data-action=place]"
            )
            expect(page.get_by_test_id("board-tile")).to_have_count(shown.count())
    assert ends >= 1


def test_a_page_loaded_again_shows_the_hand_end_its_player_had_not_closed(
    live_server: LiveServerFactory, page: Page
) -> None:
    url = short_hands_against_greedy(live_server(**FAST_BOTS), hands=3)
    # No board moving under the clicks of play_turn (a busy machine once clicked beside
    # a lit cell while the board glided to fit the tile chosen).
    page.emulate_media(reduced_motion="reduce")
    open_in(page, url)
    while (state := table_state(page)) == "turn":
        play_turn(page)
    assert state == "hand-end"
    summary = page.get_by_test_id("hand-end").inner_text()
    page.reload()
    assert table_state(page) == "hand-end"
    assert page.get_by_test_id("hand-end").inner_text() == summary
    page.get_by_test_id("continue").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    # Closed once, it stays closed once the server heard that Ann went on.
    deadline = time.monotonic() + TURN_TIMEOUT_MS / 1000
    while True:
        page.reload()
        page.wait_for_function(
            "Number(document.querySelector('[data-testid=table]')?.dataset.version ?? -1) >= 0"
        )
        if not page.locator("dialog[open]").count():
            break
        assert time.monotonic() < deadline, "the closed hand's end kept coming back"
