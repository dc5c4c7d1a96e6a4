"""A game over days on a phone (390 by 844): the create form offers days per move and
the claim of the win, the table's clock shows the days left, and "Your games" says how
long you have. The table is made through the API (no hands clicked through)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from server_games import Served
from triominos.server.timers import DAY_SECONDS, MOVE_DAYS
from web import ann_and_bob, open_seats

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def test_the_form_offers_days_per_move_and_the_table_shows_the_days_left(
    phone_page: Page, live_server: LiveServerFactory
) -> None:
    server = live_server()
    page = phone_page
    page.goto(f"{server.base_url}/")
    page.get_by_test_id("house-rules").click()
    clock = page.get_by_test_id("turn-seconds")
    for days in MOVE_DAYS:
        expect(clock.locator(f"option[value=d{days}]")).to_have_count(1)
    expect(clock.locator("option[value=d2]")).to_have_text("2 days per move")
    expect(page.get_by_test_id("claim-win")).to_have_count(0)
    clock.select_option("d2")
    expect(page.get_by_test_id("claim-win")).to_be_visible()

    table = ann_and_bob(server, take=[0, 1], move_days=2, claim_win=True)
    open_seats(page, server, table)
    expect(page.get_by_test_id("clock").first).to_have_text(re.compile(r"^1 d 23 h$"))
    expect(page.get_by_test_id("claim-win").first).to_be_hidden()  # nobody ran out yet

    page.goto(f"{server.base_url}/")
    game = page.get_by_test_id("my-game")
    expect(game).to_have_attribute("data-my-turn", "true")
    expect(game.get_by_test_id("my-game-time-left")).to_have_text("1 d 23 h left")


def test_once_the_days_ran_out_the_other_seat_claims_the_win(
    served_sqlite: Served, phone_page: Page
) -> None:
    """Both clocks moved a day on (the service's and the page's): the button appears for
    the seat that waits, and its click ends the match. (The server is asked for first, so
    it stops after the page closed.)"""
    served, page = served_sqlite, phone_page
    made = served.create(seats=TWO_PEOPLE, take=[0], move_days=1, claim_win=True)
    tokens = {0: made["seats"][0]["token"], 1: served.join(made["code"])}
    idle = served.http.get(f"/api/tables/{made['code']}").json()["to_move"]
    waiting = 1 - idle
    page.clock.install()
    open_seats(page, served, {**made, "seats": [{"seat": waiting, "token": tokens[waiting]}]})
    expect(page.get_by_test_id("clock").first).to_have_text(re.compile(r"^23 h 5\d min$"))
    claim = page.get_by_test_id("claim-win").first
    expect(claim).to_be_hidden()

    served.later(DAY_SECONDS + 60)
    page.clock.fast_forward(int((DAY_SECONDS + 60) * 1000))
    expect(claim).to_be_visible()
    claim.click()
    expect(page.get_by_test_id("turn").first).to_have_text("The match is over")
    assert served.http.get(f"/api/tables/{made['code']}").json()["status"] == "finished"
