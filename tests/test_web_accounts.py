"""Accounts in Chromium (issue 33), with a virtual authenticator through the Chrome
DevTools Protocol: sign up with a passkey, the seats of this browser moved into the
account, sign out, sign in again with the passkey and find the games there; by keyboard
with a password; on a phone (390x844) as on a desktop."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("webauthn")

from playwright.sync_api import Page, expect

from conftest import LiveServer, LiveServerFactory
from server_games import Served
from web import ann_and_bob, watch_texts


def on_localhost(server: LiveServer | Served) -> str:
    """The server's address by name: a passkey's relying party cannot be an IP address."""
    return server.base_url.replace("127.0.0.1", "localhost")


def add_authenticator(page: Page) -> Any:
    """A platform authenticator that keeps discoverable passkeys and verifies its user
    at once, as a phone's fingerprint would; its DevTools session."""
    session = page.context.new_cdp_session(page)
    session.send("WebAuthn.enable")
    session.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return session


def hold_seat(page: Page, base: str, table: dict[str, Any]) -> None:
    """This browser holds the table's first seat, as the home page leaves its creator."""
    page.goto(f"{base}/")
    page.evaluate(
        "([code, seats]) => localStorage.setItem("
        "'triominos.seats', JSON.stringify({ [code]: seats }))",
        [table["code"], table["seats"]],
    )


def held_codes(page: Page) -> list[str]:
    codes: list[str] = page.evaluate(
        "Object.keys(JSON.parse(localStorage.getItem('triominos.seats') || '{}'))"
        ".filter((code) => JSON.parse(localStorage.getItem('triominos.seats'))[code].length)"
    )
    return codes


def sign_up_sign_out_and_in_with_a_passkey(page: Page, server: LiveServer) -> None:
    base = on_localhost(server)
    add_authenticator(page)
    missing = watch_texts(page)
    table = ann_and_bob(server, take=[0])
    hold_seat(page, base, table)

    page.goto(f"{base}/account")
    expect(page.get_by_test_id("account-link")).to_have_text("Sign in")
    page.get_by_test_id("new-name").fill("Ann")
    page.get_by_test_id("passkey-sign-up").click()
    expect(page.get_by_test_id("signed-in-as")).to_have_text("Signed in as Ann")
    expect(page.get_by_test_id("account-link")).to_have_text("Ann")
    expect(page.get_by_test_id("passkey")).to_have_count(1)
    seats = page.evaluate("fetch('/api/account/seats').then((answer) => answer.json())")
    assert [(seat["code"], seat["seat"]) for seat in seats["seats"]] == [(table["code"], 0)]
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0

    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("passkey-sign-in")).to_be_visible()
    expect(page.get_by_test_id("account-link")).to_have_text("Sign in")
    assert held_codes(page) == []  # the account's seats left this browser with it

    page.get_by_test_id("passkey-sign-in").click()
    expect(page.get_by_test_id("signed-in-as")).to_have_text("Signed in as Ann")
    page.goto(f"{base}/")
    game = page.get_by_test_id("my-game")
    expect(game).to_have_count(1)
    expect(game).to_have_attribute("data-code", table["code"])
    assert missing == []


def test_a_passkey_signs_up_and_in_and_the_games_follow(
    live_server: LiveServerFactory, page: Page
) -> None:
    sign_up_sign_out_and_in_with_a_passkey(page, live_server())


def test_a_passkey_signs_up_and_in_on_a_phone(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    sign_up_sign_out_and_in_with_a_passkey(phone_page, live_server())


def test_a_password_account_by_keyboard_alone(live_server: LiveServerFactory, page: Page) -> None:
    """Sign up and in with a password, change the language, and delete the account,
    with the keys a keyboard player uses."""
    base = on_localhost(live_server())
    page.goto(f"{base}/account")
    page.get_by_test_id("new-name").focus()
    page.keyboard.type("Bob")
    page.keyboard.press("Tab")  # the passkey's button
    page.keyboard.press("Tab")
    page.keyboard.type("a good password")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("signed-in-as")).to_have_text("Signed in as Bob")

    page.get_by_test_id("profile-language").select_option("fr")
    page.get_by_test_id("profile-save").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("signed-in-as")).to_have_text("Connecté en tant que Bob")

    page.get_by_test_id("sign-out").focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("sign-in-name").focus()
    page.keyboard.type("bob")
    page.keyboard.press("Tab")
    page.keyboard.type("a good password")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("signed-in-as")).to_have_text("Connecté en tant que Bob")

    page.get_by_test_id("delete").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("delete-confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("passkey-sign-in")).to_be_visible()
    assert page.evaluate("fetch('/api/account').then((answer) => answer.json())") == {
        "account": None
    }
