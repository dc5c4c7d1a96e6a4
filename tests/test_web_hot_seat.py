"""Two people on one phone (hot-seat): behind "Pass the device to …" no tile of any seat
shows, in the page or in its accessibility tree, and nothing can be done, by a button or
a key; the score sheet shows the others' draws as a spectator sees them."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from web import FAST_BOTS, ann_and_bob, expect_new_version, open_seats, play_turn, version

TILE = re.compile(r"\b\d-\d-\d\b")


def rack_of(page: Page) -> set[str]:
    return set(page.locator(".rack-tile").evaluate_all("tiles => tiles.map(t => t.dataset.tile)"))


def test_nothing_of_any_seat_shows_or_acts_behind_the_handover(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    page = phone_page
    server = live_server(**FAST_BOTS)
    # The house reading lets a seat draw beside a tile that fits: a draw at every turn.
    open_seats(page, server, ann_and_bob(server, take=[0, 1], preset="classic-house"))
    racks: dict[str, set[str]] = {}  # each player's rack, as last seen on their turn
    checked_after_a_draw = False
    drew: str | None = None
    for _ in range(12):
        page.wait_for_function(
            """() => document.querySelector('[data-testid=pass-device]')?.hidden === false
                || document.querySelector('[data-testid=table]')?.dataset.myTurn === 'true'"""
        )
        handover = page.get_by_test_id("pass-device")
        if handover.is_visible():
            # Nothing of anyone's rack: not in what is shown, not in what is read out.
            shown = page.locator("body").inner_text()
            read_out = page.locator("body").aria_snapshot()
            board = set(
                page.get_by_test_id("board-tile").evaluate_all(
                    "tiles => tiles.map(t => t.dataset.tile)"
                )
            )
            for tiles in racks.values():
                for tile in tiles - board:  # a tile laid since is the board's
                    assert tile not in shown and tile not in read_out, tile
            for row in page.locator("[data-testid=sheet-row][data-action=draw]").all_inner_texts():
                assert not TILE.search(row), row
            checked_after_a_draw |= drew is not None
            # No action: no button to press, and the keys do nothing.
            for test_id in ("rack", "draw", "pass", "hint", "resign", "takeback"):
                expect(page.get_by_test_id(test_id)).to_be_hidden()
            before = version(page)
            for key in ("d", "p", "h", "Enter"):
                page.keyboard.press(key)
            page.get_by_test_id("show-rack").click()
            state = page.evaluate(
                """() => { const table = document.querySelector('[data-testid=table]');
                    return [table.dataset.myTurn, Number(table.dataset.version)]; }"""
            )
            assert state == ["true", before]  # nothing sent, so nothing pending or answered
            expect(page.get_by_test_id("hints")).to_be_hidden()
        name = re.sub(r"Your turn, ", "", page.get_by_test_id("turn").inner_text())
        if len(racks) == 1 and name not in racks and drew is None:
            # The second player draws: the first must not see which tile.
            with expect_new_version(page):
                page.get_by_test_id("draw").click()
            drew = name
        racks[name] = rack_of(page)
        play_turn(page)
    assert drew is not None and checked_after_a_draw
