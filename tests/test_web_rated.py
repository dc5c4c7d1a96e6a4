"""The create form's rated option in Chromium (issue 33): offered only signed in, and a
table created rated keeps its creator's seat in the account."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")
pytest.importorskip("webauthn")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from test_web_accounts import on_localhost
from web import watch_texts


def test_a_signed_in_player_creates_a_rated_table(
    live_server: LiveServerFactory, page: Page
) -> None:
    base = on_localhost(live_server())
    missing = watch_texts(page)
    page.goto(f"{base}/")
    page.get_by_test_id("house-rules").click()
    expect(page.get_by_test_id("hints-option")).to_be_visible()
    expect(page.get_by_test_id("rated-option")).to_have_count(0)  # signed out: not offered

    page.goto(f"{base}/account")
    page.get_by_test_id("new-name").fill("Ann")
    page.get_by_test_id("new-password").fill("a good password")
    page.get_by_test_id("password-sign-up").click()
    expect(page.get_by_test_id("signed-in-as")).to_have_text("Signed in as Ann")

    page.goto(f"{base}/")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("house-rules").click()
    page.get_by_test_id("rated-option").check()
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    held = page.evaluate("fetch('/api/account/seats').then((answer) => answer.json())")
    assert [(seat["code"], seat["seat"]) for seat in held["seats"]] == [(code, 0)]
    assert missing == []
