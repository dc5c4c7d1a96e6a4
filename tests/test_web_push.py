"""The installable app in Chromium: the manifest, the service worker that shows a pushed
notice and opens its table, the offline page, and the table page's "Notify me".

Subscribing needs the browser's push service, which is not reachable here, so the tests
deliver push messages to the registered worker with the Chrome DevTools Protocol
(``ServiceWorker.deliverPushMessage``). The opt-in test gives the page a subscription of
the test's own (a loopback push service and keys the test holds) in place of the
browser's: the server then pushes to the test, which decrypts the message and hands it
to the worker, so the notice shown is the one the server sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("pywebpush")

from playwright.sync_api import Browser as Chromium
from playwright.sync_api import BrowserContext, CDPSession, Page, expect
from sqlalchemy import select

from conftest import DESKTOP, PHONE, watched_page
from server_games import WAIT_SECONDS, Served, serve_app
from test_server_push import Browser, PushService
from test_server_ws import TWO_PEOPLE
from triominos.server.account_store import AccountRow
from triominos.server.push import your_turn
from triominos.server.push_store import PushAccountRow, PushStore
from triominos.server.table import token_hash
from web import show_tab

NOTICE = {"kind": "your_turn", "code": "ABC234", "url": "/t/ABC234", "to_move": "Bob"}


@pytest.fixture
def served(sqlite_url: str) -> Iterator[Served]:
    with serve_app(sqlite_url, push_loopback=True) as served:
        yield served


def worker_ready(page: Page) -> str:
    """Wait until the page's service worker is active; its scope."""
    scope: str = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    return scope


def registration_id(context: BrowserContext, page: Page) -> tuple[CDPSession, str]:
    """A DevTools session on the page and the id of its service worker registration."""
    session = context.new_cdp_session(page)
    found: list[str] = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.extend(r["registrationId"] for r in event["registrations"]),
    )
    session.send("ServiceWorker.enable")
    deadline = time.monotonic() + WAIT_SECONDS
    while not found:
        assert time.monotonic() < deadline, "no service worker registration was reported"
        page.wait_for_timeout(50)
    return session, found[0]


def deliver(session: CDPSession, origin: str, registration: str, data: str) -> None:
    session.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration, "data": data},
    )


def notifications(page: Page, body: str) -> list[dict[str, Any]]:
    """The notifications the worker shows, once one of them says ``body``."""
    script = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
        .map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }))"""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        shown: list[dict[str, Any]] = page.evaluate(script)
        if any(notice["body"] == body for notice in shown):
            return shown
        assert time.monotonic() < deadline, f"no notification says {body!r}: {shown}"
        page.wait_for_timeout(50)


def test_the_site_is_installable(served: Served) -> None:
    manifest = served.http.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    assert {icon["sizes"] for icon in body["icons"]} >= {"192x192", "512x512"}
    for icon in body["icons"]:
        assert served.http.get(icon["src"]).status_code == 200
    worker = served.http.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"
    assert 'rel="manifest"' in served.http.get("/").text


def test_a_pushed_notice_is_shown_in_the_chosen_language(browser: Chromium, served: Served) -> None:
    with watched_page(browser, **DESKTOP, permissions=["notifications"]) as page:
        page.goto(f"{served.base_url}/")
        assert worker_ready(page) == f"{served.base_url}/"
        session, registration = registration_id(page.context, page)
        deliver(session, served.base_url, registration, json.dumps({**NOTICE, "lang": "fr"}))
        [shown] = notifications(page, "Bob, c'est votre tour à la table ABC234.")
        assert shown["title"] == "Triominos"
        assert shown["data"] == {"url": "/t/ABC234"}
        assert shown["tag"] == "ABC234:your_turn"
        deliver(session, served.base_url, registration, json.dumps({**NOTICE, "lang": "de"}))
        # the same table's turn replaces the notice
        assert len(notifications(page, "Bob, du bist am Zug an Tisch ABC234.")) == 1


def test_invitations_and_reminders_say_who_invites_and_the_hours_left(
    browser: Chromium, served: Served
) -> None:
    invited = {**NOTICE, "kind": "invitation", "to_move": None, "from": "Ann", "lang": "es"}
    reminded = {**NOTICE, "hours_left": 6, "lang": "en"}
    with watched_page(browser, **DESKTOP, permissions=["notifications"]) as page:
        page.goto(f"{served.base_url}/")
        assert worker_ready(page) == f"{served.base_url}/"
        session, registration = registration_id(page.context, page)
        deliver(session, served.base_url, registration, json.dumps(invited))
        shown = notifications(page, "Ann te invita a la mesa ABC234.")
        assert {"data": {"url": "/t/ABC234"}, "tag": "ABC234:invitation"}.items() <= shown[
            0
        ].items()
        deliver(session, served.base_url, registration, json.dumps(reminded))
        notifications(page, "Bob, it is your turn at table ABC234: 6 hours left.")


def test_the_offline_page_says_so(browser: Chromium, sqlite_url: str) -> None:
    """The network goes down for real (the server stops) as well as for the page
    (``set_offline``, which may reach a service worker late)."""
    offline = ("ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_REFUSED", "Failed to load resource")
    with watched_page(browser, *offline, **PHONE) as page:
        with serve_app(sqlite_url) as served:
            code = served.create()["code"]
            page.goto(f"{served.base_url}/")
            page.evaluate("localStorage.setItem('triominos.lang', 'de')")
            worker_ready(page)
            page.reload()  # under the worker now: the files it loads are kept
            expect(page.locator("[data-testid=language]")).to_have_value("de")
            assert page.evaluate("navigator.serviceWorker.controller !== null")
        page.context.set_offline(True)
        page.goto(f"{served.base_url}/t/{code}")
        expect(page.get_by_test_id("offline").locator("h1")).to_have_text("Du bist offline")
        expect(page.get_by_test_id("offline-retry")).to_have_text("Noch einmal versuchen")


FAKE_PUSH = r"""subscription => {
  let current = null;
  const made = () => ({
    endpoint: subscription.endpoint,
    toJSON: () => subscription,
    unsubscribe: async () => { current = null; return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    const bytes = String.fromCharCode(...new Uint8Array(options.applicationServerKey));
    window.subscribedWith = btoa(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    current = made();
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
}"""
"""The browser's push service, which Chromium cannot reach here: the page gets the
test's subscription instead."""


def test_notify_me_on_a_phone_end_to_end(
    browser: Chromium, served: Served, push_service: PushService, screenshot_dir: Path
) -> None:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
    device = Browser(f"{push_service.url}/devices/phone")
    with watched_page(browser, **PHONE, permissions=["notifications"]) as page:
        page.add_init_script(f"({FAKE_PUSH})({json.dumps(device.subscription())})")
        page.goto(f"{served.base_url}/")
        page.evaluate(
            """([code, token]) => {
                const seats = { [code]: [{ seat: 1, token }] };
                localStorage.setItem('triominos.seats', JSON.stringify(seats));
                localStorage.setItem('triominos.lang', 'nl');
            }""",
            [code, tokens[1]],
        )
        page.goto(f"{served.base_url}/t/{code}")
        show_tab(page, "players")
        control = page.get_by_test_id("notify")
        control.locator("summary").click()
        expect(control).to_have_attribute("data-state", "notify_off")
        page.get_by_test_id("notify-your_turn").check()
        expect(control).to_have_attribute("data-state", "notify_on")
        page.screenshot(path=str(screenshot_dir / "table-phone-notify.png"))
        key = served.http.get("/api/push/key").json()["key"]
        assert page.evaluate("window.subscribedWith") == key

        store = PushStore(served.service.store)
        seat = {token_hash(tokens[1])}
        [kept] = store.devices("your_turn", time.time(), token_hashes=seat)
        assert kept.endpoint == device.endpoint and kept.lang == "nl"
        assert store.devices("finished", time.time(), token_hashes=seat) == []

        info = served.service.store.table(code)
        assert info is not None
        pusher = served.app.state.push
        assert pusher.notify(your_turn(info, 1, connected=())).result(WAIT_SECONDS) == 1
        [received] = push_service.wait_for(1)
        session, registration = registration_id(page.context, page)
        message = device.decrypt(received)
        deliver(session, served.base_url, registration, json.dumps(message))
        [shown] = notifications(page, f"Bob, je bent aan de beurt aan tafel {code}.")
        assert shown["data"] == {"url": f"/t/{code}"}

        page.get_by_test_id("notify-your_turn").uncheck()
        expect(control).to_have_attribute("data-state", "notify_off")
        assert store.devices("your_turn", time.time(), token_hashes=seat) == []


def test_a_signed_in_page_ties_its_device_to_the_account(
    browser: Chromium, served: Served, push_service: PushService
) -> None:
    """Signed in, "Notify me" works at a table where this browser holds no seat: the
    device is the account's (its seats, its invitations), with the sign-in's CSRF token."""
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    device = Browser(f"{push_service.url}/devices/phone")
    with watched_page(browser, **PHONE, permissions=["notifications"]) as page:
        page.add_init_script(f"({FAKE_PUSH})({json.dumps(device.subscription())})")
        page.goto(f"{served.base_url}/")
        signed_up = page.evaluate(
            """async () => (await fetch('/api/account/sign-up', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': '-' },
                body: JSON.stringify({ name: 'Ann', password: 'correct horse battery' }),
            })).status"""
        )
        assert signed_up == 201
        page.goto(f"{served.base_url}/t/{created['code']}")
        show_tab(page, "players")
        control = page.get_by_test_id("notify")
        control.locator("summary").click()
        expect(control).to_have_attribute("data-state", "notify_off")
        page.get_by_test_id("notify-invitation").check()
        expect(control).to_have_attribute("data-state", "notify_on")
        with served.service.store.session() as session:
            [tie] = session.scalars(select(PushAccountRow)).all()
            account = session.get_one(AccountRow, tie.account_id)
            assert account.name == "Ann"
