"""Issue 33's "done when", end to end in Chromium: two players who come back.

Ann on a phone and Bob on a desktop, each in a browser context of their own with a
virtual authenticator (Chrome DevTools Protocol), sign up with a passkey on the account
page. Ann creates a rated table of two people with days per move on the home page; Bob
takes the free seat from the table's link. Each opts in to "your turn" notices on the
table page. Their moves are then played through the API with the seat tokens their
browsers hold, up to a hand's last moves; both pages close; Bob's move hands the turn
to Ann, and the server's push reaches the test's push service on loopback, which
decrypts it (RFC 8291) and checks its VAPID signature. Handed to Ann's service worker,
it shows the notice, whose URL Ann opens in a new page; the match is finished there, her
moves by clicks. Both ratings moved, on the API and the ratings pages, and Ann's profile
lists the game.

Chromium cannot reach its own push service here, so each page is given a subscription
of the test's own in place of the browser's (``FAKE_PUSH`` of test_web_push: the page's
own "Notify me" sends it to the server, which then pushes to the test).

The two accounts come from two addresses (a trusted proxy's ``X-Forwarded-For``) and two
browsers, as two people's would: no anti-abuse rule may take them for one person.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("pywebpush")
pytest.importorskip("webauthn")

from playwright.sync_api import Browser as Chromium
from playwright.sync_api import BrowserContext, Page, expect

from conftest import DESKTOP, PHONE, PageErrors
from server_games import WAIT_SECONDS, Message, Served, Viewer, serve_app
from test_server_push import CONTACT, PushService, check_vapid
from test_server_push import Browser as PushDevice
from test_web_accounts import add_authenticator, on_localhost
from test_web_push import FAKE_PUSH, deliver, notifications, registration_id
from web import play_turn, show_tab, table_state, version

ANN, BOB = 0, 1
"""The seats: Ann creates the table and sits first, Bob takes the other."""
ADDRESSES = {ANN: "198.51.100.7", BOB: "203.0.113.9"}
"""Where each player's browser is, as the trusted proxy tells the server."""
ACTIONS = 400
"""More actions than one hand of two players takes (38 tiles to draw, 18 to lay)."""


@pytest.fixture
def served(sqlite_url: str) -> Iterator[Served]:
    with serve_app(
        sqlite_url, trusted_proxies=["127.0.0.1"], push_loopback=True, push_contact=CONTACT
    ) as served:
        yield served


def player_context(
    browser: Chromium, seat: int, size: dict[str, Any], device: PushDevice
) -> BrowserContext:
    """A browser of one player's own: its address, notifications allowed, and the test's
    push subscription in place of Chromium's on every page."""
    context = browser.new_context(
        **size,
        permissions=["notifications"],
        extra_http_headers={"X-Forwarded-For": ADDRESSES[seat]},
        reduced_motion="reduce",
    )
    context.add_init_script(f"({FAKE_PUSH})({json.dumps(device.subscription())})")
    return context


def watched(context: BrowserContext, watches: list[PageErrors]) -> Page:
    """A new page of ``context`` whose console errors fail the test at its end."""
    page = context.new_page()
    watches.append(PageErrors(page))
    return page


def sign_up_with_a_passkey(page: Page, base: str, name: str) -> None:
    add_authenticator(page)
    page.goto(f"{base}/account")
    page.get_by_test_id("new-name").fill(name)
    page.get_by_role("button", name="Create with a passkey").click()
    expect(page.get_by_role("heading", name=f"Signed in as {name}")).to_be_visible()


def create_rated_table_over_days(page: Page, base: str) -> str:
    """On the home page: two seats, the other for a friend invited by link; two days
    per move, one hand, rated. The table's code."""
    page.goto(f"{base}/")
    page.get_by_test_id("players-2").locator("..").click()
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("seat-1").select_option("invite")
    page.get_by_test_id("house-rules").click()
    page.get_by_test_id("turn-seconds").select_option("d2")
    page.get_by_test_id("rule-hand_limit").fill("1")
    page.get_by_role("checkbox", name=re.compile("^Rated")).check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    return page.url.rsplit("/", 1)[1]


def notify_me_of_my_turn(page: Page) -> None:
    """The table page's "Notify me", opened and "It is my turn" ticked."""
    if page.get_by_test_id("tabs").is_visible():  # a phone shows the players in a tab
        show_tab(page, "players")
    control = page.get_by_test_id("notify")
    control.get_by_text("Notify me").click()
    control.get_by_role("checkbox", name="It is my turn").check()
    expect(control).to_have_attribute("data-state", "notify_on")


def seat_token(page: Page, code: str) -> str:
    """The token of the one seat this browser holds at table ``code``."""
    [held] = page.evaluate(f"JSON.parse(localStorage.getItem('triominos.seats'))[{code!r}]")
    token: str = held["token"]
    return token


def play(viewers: dict[int, Viewer], until: Callable[[Message], bool]) -> None:
    """Play the first legal action of whoever is to move, through the API, until
    ``until`` accepts the table's view (every viewer has seen the last action)."""
    watching = next(iter(viewers.values()))
    for _ in range(ACTIONS):
        if until(watching.view):
            return
        assert not watching.view["match_over"], "the match ended early"
        mover = next(viewer for viewer in viewers.values() if viewer.view["legal"])
        played = mover.play_first_legal(f"at-{mover.view['version']}")
        assert played["type"] == "event", played
        for viewer in viewers.values():
            if viewer is not mover:
                catch_up(viewer, played["view"]["version"])
    raise AssertionError(f"not there within {ACTIONS} actions")


def near_the_end(view: Message) -> bool:
    """Bob to move, who cannot go out with one tile, and a rack of three tiles at most
    on the table: the hand (the match) is a few moves from its end. It comes before the
    hand ends unless the hand is blocked: a rack empties one tile a turn."""
    sizes: list[int] = view["rack_sizes"]
    return bool(view["to_move"] == BOB and sizes[BOB] >= 2 and min(sizes) <= 3)


def away(served: Served, code: str, seat: int) -> None:
    """Wait until the server knows that nobody watches ``code`` from ``seat``."""

    async def connected() -> set[int]:
        return set(served.service.tables[code].connected)

    deadline = time.monotonic() + WAIT_SECONDS
    while seat in served.run(connected()):
        assert time.monotonic() < deadline, f"seat {seat} still watches table {code}"
        time.sleep(0.05)


def catch_up(viewer: Viewer, seen: int) -> None:
    """Receive until ``viewer`` has the table's view of version ``seen`` or later."""
    viewer.until(lambda message: "view" in message and message["view"]["version"] >= seen)


def finish_on_the_page(page: Page, bob: Viewer) -> None:
    """Ann's turns by clicks on her page, Bob's through the API, to the match's end."""
    for _ in range(ACTIONS):
        if bob.view["match_over"]:
            return
        if bob.view["legal"]:
            played = bob.play_first_legal(f"at-{bob.view['version']}")
            assert played["type"] == "event", played
            continue
        page.wait_for_function(
            "version => Number(document.querySelector('[data-testid=table]')"
            ".dataset.version) >= version",
            arg=bob.view["version"],
        )
        if table_state(page) == "over":
            return
        play_turn(page)
        catch_up(bob, version(page))
    raise AssertionError(f"the match did not end within {ACTIONS} actions")


def leaderboard(served: Served) -> dict[str, Message]:
    """The 2-player classic leaderboard by name, once both players are on it (a rated
    match is rated in a thread after its last move)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        answer = served.http.get("/api/ratings/leaderboard?edition=classic&players=2")
        assert answer.status_code == 200, answer.text
        players = {entry["name"]: entry for entry in answer.json()["players"]}
        if len(players) == 2 or time.monotonic() > deadline:
            return players
        time.sleep(0.05)


def test_two_players_come_back_to_a_game_over_days(
    browser: Chromium, served: Served, push_service: PushService
) -> None:
    base = on_localhost(served)
    devices = {seat: PushDevice(f"{push_service.url}/devices/{seat}") for seat in (ANN, BOB)}
    contexts = {
        ANN: player_context(browser, ANN, PHONE, devices[ANN]),
        BOB: player_context(browser, BOB, DESKTOP, devices[BOB]),
    }
    watches: list[PageErrors] = []
    try:
        pages = {seat: watched(context, watches) for seat, context in contexts.items()}
        sign_up_with_a_passkey(pages[ANN], base, "Ann")
        sign_up_with_a_passkey(pages[BOB], base, "Bob")

        code = create_rated_table_over_days(pages[ANN], base)
        pages[BOB].goto(f"{base}/t/{code}")
        pages[BOB].get_by_test_id("join-name").fill("Bob")
        pages[BOB].get_by_role("button", name="Take a free seat").click()
        for page in pages.values():
            expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
            notify_me_of_my_turn(page)
        expect(pages[BOB].get_by_test_id("clock").first).to_have_text(re.compile(r"^1 d 23 h$"))
        tokens = {seat: seat_token(page, code) for seat, page in pages.items()}
        held = pages[BOB].evaluate("fetch('/api/account/seats').then((answer) => answer.json())")
        assert [(seat["code"], seat["seat"]) for seat in held["seats"]] == [(code, BOB)]

        with served.viewer(code, tokens[BOB]) as bob:
            with served.viewer(code, tokens[ANN]) as ann:
                play({ANN: ann, BOB: bob}, near_the_end)
            for page in pages.values():
                page.close()
            away(served, code, ANN)
            assert push_service.received == []  # everyone watched until now
            play({BOB: bob}, lambda view: view["to_move"] == ANN)

            [received] = push_service.wait_for(1)
            assert received.path == f"/devices/{ANN}"
            notice = devices[ANN].decrypt(received)
            assert notice == {
                "kind": "your_turn",
                "code": code,
                "url": f"/t/{code}",
                "to_move": "Ann",
                "lang": "en",
                "hours_left": None,  # not a reminder: the turn has just begun
                "from": None,  # not an invitation
            }
            check_vapid(received, served.http.get("/api/push/key").json()["key"], push_service.url)

            page = watched(contexts[ANN], watches)  # the phone shows the notice...
            page.goto(f"{base}/")
            session, registration = registration_id(contexts[ANN], page)
            deliver(session, base, registration, json.dumps(notice))
            [shown] = notifications(page, f"Ann, it is your turn at table {code}.")
            assert shown["data"] == {"url": f"/t/{code}"}
            page.goto(f"{base}{shown['data']['url']}")  # ...and Ann taps it
            expect(page.get_by_role("tab", name="Table")).to_have_attribute("aria-selected", "true")
            expect(page.get_by_role("strong").filter(has_text="Your turn")).to_be_visible()
            expect(page.get_by_role("group", name="Your rack")).to_be_visible()
            finish_on_the_page(page, bob)
        expect(page.get_by_role("dialog")).to_be_visible()
        assert len(push_service.received) == 1  # nobody is told while watching
        totals = bob.view["totals"]
        ahead = {
            seat: (totals[seat] > totals[1 - seat]) - (totals[seat] < totals[1 - seat])
            for seat in (ANN, BOB)
        }

        board = leaderboard(served)
        assert set(board) == {"Ann", "Bob"}
        for seat, name in ((ANN, "Ann"), (BOB, "Bob")):
            entry = board[name]
            assert entry["games"] == 1
            assert (entry["rating"] > 1500) - (entry["rating"] < 1500) == ahead[seat]
            found = served.http.get(f"/api/ratings/{entry['player']}").json()
            assert found["name"] == name
            assert [point["table"] for point in found["history"]] == [code]

        page.goto(f"{base}/ratings")
        rows = page.get_by_role("row")
        for name in ("Ann", "Bob"):
            expect(rows.filter(has_text=name)).to_contain_text(str(board[name]["rating"]))
        page.get_by_role("link", name="Bob").click()  # the leaderboard links the player page
        expect(page).to_have_url(f"{base}/players/Bob")
        expect(page.get_by_role("heading", name="Bob")).to_be_visible()
        expect(page.get_by_test_id("rating-line")).to_have_count(1)  # the graph of one pool

        page.goto(f"{base}/players/Ann")
        expect(page.get_by_role("heading", name="Ann")).to_be_visible()
        game = page.get_by_role("listitem").filter(has=page.get_by_role("link", name=code))
        expect(game).to_contain_text("won" if ahead[ANN] > 0 else "lost")
    finally:
        for context in contexts.values():
            context.close()
    for watch in watches:
        watch.fail_if_any()
