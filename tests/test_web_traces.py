"""The table page says why a rated match moved no rating (issue 33's anti-abuse rule), in
Chromium on a phone and a desktop: two accounts playing from one address (no trusted
proxy, so a client's own X-Forwarded-For is not believed) are unrated ``shared``."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")
pytest.importorskip("webauthn")

import httpx
from playwright.sync_api import Browser, expect

from conftest import DESKTOP, PHONE, LiveServerFactory, watched_page
from server_games import WAIT_SECONDS, Served
from test_server_accounts import Device
from test_server_rated import create, join, play_rounds, resign, signed_up
from triominos.ratings import RESIGN_FIRST_ROUNDS


def rating_outcome(http: httpx.Client, code: str) -> str:
    """The table's outcome once it is rated (just after its end): ``rated`` or why not."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found: str = http.get(f"/api/ratings/tables/{code}").json()["outcome"]
        if found != "pending" or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_the_table_page_says_a_match_of_one_address_was_not_rated(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    with httpx.Client(base_url=server.base_url) as http:
        served = Served(server.base_url, server.ws_url, http)
        ann, bob = Device(served), Device(served)
        try:
            signed_up((ann, "Ann"), (bob, "Bob"))
            table = create(ann)
            code, ann_token = table["code"], table["seats"][0]["token"]
            bob_token = join(bob, code)
            with (
                served.viewer(code, ann_token) as ann_view,
                served.viewer(code, bob_token) as bob_view,
            ):
                play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS)
                resign(bob_view, ann_view)
        finally:
            ann.http.close()
            bob.http.close()
        assert rating_outcome(http, code) == "shared"
    for context in (PHONE, DESKTOP):
        with watched_page(browser, **context) as page:
            page.goto(f"{server.base_url}/t/{code}#seat=0&token={ann_token}")
            expect(page.get_by_test_id("rating-outcome")).to_have_text(
                "Not rated: two of the players' accounts were used from one browser or one "
                "address in the last day."
            )
