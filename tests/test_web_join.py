"""Two people at one table: from two browsers (the second joins by the code from the home
page; a move made in one is seen in the other; a player who left is replaced by a bot),
and two players taking turns on one device."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, LiveServerFactory, watched_page
from web import FAST_BOTS, create_game, open_in, play_turn, version


def test_a_friend_joins_by_code_and_each_sees_the_others_move(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    code = create_game(page, server, seats=("invite",), grace_seconds=10)
    expect(page.get_by_test_id("invite")).to_contain_text(code)
    expect(page.get_by_test_id("turn")).to_contain_text("Waiting for players")

    with watched_page(browser, **DESKTOP, locale="en-GB") as friend:
        friend.emulate_media(reduced_motion="reduce")
        friend.goto(f"{server.base_url}/")
        friend.get_by_test_id("join-code").fill(code.lower())
        friend.get_by_test_id("join-go").click()
        expect(friend.get_by_test_id("watching")).to_be_visible()
        friend.get_by_test_id("join-name").fill("Bob")
        friend.get_by_test_id("join").click()
        expect(friend.get_by_test_id("watching")).to_be_hidden()
        expect(friend.locator(".player.mine .player-name")).to_have_text("Bob")
        expect(page.locator(".player[data-seat='1'] .player-name")).to_have_text("Bob")
        expect(page.get_by_test_id("invite")).to_be_hidden()

        # Whoever is to move plays; the other page shows the same action and version.
        played = 0
        for _ in range(100):
            if played == 3:
                break
            movers = [
                each
                for each in (page, friend)
                if each.get_by_test_id("table").get_attribute("data-my-turn") == "true"
            ]
            if not movers:
                page.wait_for_timeout(100)
                continue
            mover = movers[0]
            other = friend if mover is page else page
            kind = play_turn(mover)
            played += 1
            seen = version(mover)
            other.wait_for_function(
                f"Number(document.querySelector('[data-testid=table]').dataset.version) >= {seen}"
            )
            rows = other.get_by_test_id("sheet-row")
            expect(rows.last).to_have_attribute("data-action", kind)
            expect(rows).to_have_count(mover.get_by_test_id("sheet-row").count())
            expect(other.get_by_test_id("board-tile")).to_have_count(
                mover.get_by_test_id("board-tile").count()
            )
        assert played == 3

    # Bob has gone: his seat shows it, with the countdown of the table's grace period (10 s)
    # before Ann may hand it to a bot so the match goes on.
    bob = page.locator(".player[data-seat='1']")
    expect(bob.locator(".presence")).to_have_class("presence away")
    expect(bob.get_by_test_id("away-countdown")).to_contain_text("A bot may play in")
    expect(bob.get_by_test_id("give-to-bot")).to_be_visible(timeout=30_000)
    # "Let a bot play" asks which level: the beginner plays Bob's seat, under his name.
    expect(bob.get_by_test_id("bot-level-strength")).to_have_text(
        "Beats the Beginner bot about 4 games in 5."
    )
    bob.get_by_test_id("bot-level").select_option("random")
    expect(bob.get_by_test_id("bot-level-strength")).to_have_text("Plays any tile that fits.")
    bob.get_by_test_id("give-to-bot").click()
    expect(bob.get_by_test_id("bot-badge")).to_have_text("bot · level 1 · beginner")
    expect(bob.locator(".presence")).to_have_class("presence here")


def test_two_players_take_turns_on_one_device(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server(**FAST_BOTS)
    page.emulate_media(reduced_motion="reduce")
    open_in(page, f"{server.base_url}/")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("seat-1").select_option("here")
    page.get_by_test_id("seat-name-1").fill("Bob")
    page.get_by_test_id("create").click()
    expect(page.locator(".player.mine")).to_have_count(2)
    # One of them is always to move, and shown: there is no other rack to switch to.
    expect(page.get_by_test_id("seat-switch")).to_be_disabled()
    # Each turn: "pass the device" to the player to move, by name, the rack hidden; then
    # that player shows it and is told it is their turn, by name.
    movers = []
    for turn in range(6):
        page.wait_for_function(
            """() => !document.querySelector('[data-testid=pass-device]').hidden
                || document.querySelector('[data-testid=table]').dataset.myTurn === 'true'"""
        )
        handover = page.get_by_test_id("pass-device")
        if turn == 0 or handover.is_visible():  # not after a draw: the same player goes on
            expect(handover).to_be_visible()
            expect(page.get_by_test_id("rack")).to_be_hidden()
            name = re.search(r"to (\w+)\.", handover.inner_text())
            assert name is not None
            movers.append(name.group(1))
            page.get_by_test_id("show-rack").click()
            expect(page.get_by_test_id("rack")).to_be_visible()
            expect(page.get_by_test_id("turn")).to_have_text(f"Your turn, {movers[-1]}")
        play_turn(page)
    assert set(movers) == {"Ann", "Bob"}
    players = {
        row.split("\t")[0].strip() for row in page.get_by_test_id("sheet-row").all_inner_texts()
    }
    assert players == {"Ann", "Bob"}
