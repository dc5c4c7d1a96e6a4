"""Profile and friends in Chromium (issue 33, part 2): two accounts (signed up through
the API), one asks the other, who accepts on the account page and sees the friend
online; an invitation to a table reaches the friend, who opens the table from it; the
profile shows a finished match with its replay link, and the public page too. On a
desktop and on a phone (390x844)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("webauthn")

from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE, LiveServer, LiveServerFactory, watched_page
from web import post_table, watch_texts

SIGN_UP = """async (name) => {
  const answer = await fetch('/api/account/sign-up', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': '-' },
    body: JSON.stringify({ name, password: 'a good password' }),
  });
  return answer.status;
}"""

RESIGN = """async ([code, token]) => {
  const me = await fetch('/api/account').then((answer) => answer.json());
  await fetch('/api/account/seats', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf },
    body: JSON.stringify({ seats: [{ code, seat: 0, token }] }),
  });
  const socket = new WebSocket(`ws://${location.host}/ws/${code}`);
  return await new Promise((done) => {
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', token, version: null }));
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.type === 'welcome') socket.send(JSON.stringify({ type: 'resign', id: 'r' }));
      if (data.id === 'r') { socket.close(); done(data.type); }
    };
  });
}"""


def on_localhost(server: LiveServer) -> str:
    return server.base_url.replace("127.0.0.1", "localhost")


def signed_up(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/")
    assert page.evaluate(SIGN_UP, name) == 201


def a_finished_match(page: Page, server: LiveServer) -> str:
    """A match against a bot in the page's account, which it resigns: its code."""
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
    table = post_table(server, {"preset": "classic", "players": 2, "seats": seats, "take": [0]})
    code: str = table["code"]
    assert page.evaluate(RESIGN, [code, table["seats"][0]["token"]]) != "error"
    return code


def friends_invite_and_profile(browser: Browser, server: LiveServer, size: dict[str, Any]) -> None:
    base = on_localhost(server)
    with watched_page(browser, **size) as ann, watched_page(browser, **size) as bob:
        missing = watch_texts(ann) + watch_texts(bob)
        signed_up(ann, base, "Ann")
        signed_up(bob, base, "Bob")
        finished = a_finished_match(ann, server)

        ann.goto(f"{base}/account")
        ann.get_by_test_id("friend-name").fill("Bob")
        ann.get_by_test_id("friend-name").press("Enter")
        expect(ann.get_by_test_id("asked")).to_contain_text("Bob")

        bob.goto(f"{base}/account")
        expect(bob.get_by_test_id("asking")).to_contain_text("Ann")
        bob.get_by_test_id("accept").click()
        friend = bob.get_by_test_id("friend")
        expect(friend).to_contain_text("Ann")
        expect(friend).to_have_attribute("data-online", "true")
        expect(friend).to_contain_text("online")

        table = post_table(
            server,
            {
                "preset": "classic",
                "players": 2,
                "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}],
                "take": [0],
            },
        )
        ann.evaluate(
            "([code, seats]) => localStorage.setItem('triominos.seats', "
            "JSON.stringify({ [code]: seats }))",
            [table["code"], table["seats"]],
        )
        ann.reload()
        expect(ann.get_by_test_id("friend")).to_contain_text("Bob")
        ann.get_by_test_id("invite-table").select_option(table["code"])
        ann.get_by_test_id("invite").click()
        expect(ann.get_by_text("Invitation sent.")).to_be_visible()

        game = ann.get_by_test_id("profile-game")
        expect(game).to_have_count(1)
        expect(game.get_by_test_id("replay-link")).to_have_attribute(
            "href", f"/t/{finished}?replay=1"
        )
        # the edition by the name the home page gives it, not the preset's key
        expect(ann.get_by_test_id("profile-edition").get_by_role("rowheader")).to_have_text(
            re.compile(r"^Classic \(56 tiles\)")
        )
        expect(game.get_by_test_id("replay-link")).to_contain_text("Classic (56 tiles)")
        overflow = ann.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 0

        bob.reload()
        invitation = bob.get_by_test_id("invitation-link")
        expect(invitation).to_contain_text("Ann")
        invitation.focus()  # opened by keyboard
        bob.keyboard.press("Enter")
        bob.wait_for_url(f"{base}/t/{table['code']}")
        expect(bob.get_by_test_id("players")).to_be_attached()  # the table page drew

        bob.goto(f"{base}/players/Ann")
        expect(bob.get_by_test_id("player-name")).to_have_text("Ann")
        expect(bob.get_by_test_id("profile-game")).to_have_count(1)
        assert table["seats"][0]["token"] not in bob.content()
        assert missing == []


def test_friends_invitations_and_the_profile_on_a_desktop(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    friends_invite_and_profile(browser, live_server(), DESKTOP)


def test_friends_invitations_and_the_profile_on_a_phone(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    friends_invite_and_profile(browser, live_server(), PHONE)
