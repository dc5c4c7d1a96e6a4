"""Push notices for accounts, on SQLite and PostgreSQL (issue 33): a device that
subscribes while signed in hears of every seat its account holds (moved in before or
after it subscribed) and of the invitations its friends send, through the loopback push
service of test_server_push (which decrypts RFC 8291 and checks VAPID); signing out
here or everywhere, deleting the account or subscribing signed out ends that; a blocked
player's invitation is refused and never pushed; and a page signed in needs its sign-in's
CSRF token to tie a device to the account."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pywebpush")
pytest.importorskip("webauthn")

from sqlalchemy import inspect

from server_games import WAIT_SECONDS, Served, serve_app
from test_server_accounts import CHEAP, Device, devices, error, rows
from test_server_profile import befriend
from test_server_push import (
    CONTACT,
    Browser,
    PushService,
    check_vapid,
    two_people,
)
from triominos.server.account_api import CSRF_HEADER
from triominos.server.friends_store import Invitation
from triominos.server.push import invitation, your_turn
from triominos.server.push_store import DEVICES_PER_ACCOUNT, PushAccountRow, PushStore
from triominos.server.store import Store, TableInfo


@pytest.fixture
def served_here(database_url: str) -> Iterator[Served]:
    with serve_app(
        database_url,
        push_loopback=True,
        push_contact=CONTACT,
        trusted_proxies=["127.0.0.1"],
        password_hasher=CHEAP,
    ) as served:
        yield served


def subscribe(
    device: Device,
    browser: Browser,
    seats: list[dict[str, str]] | None = None,
    kinds: tuple[str, ...] = ("your_turn", "invitation"),
    csrf: str | None = None,
) -> Any:
    """Subscribe ``browser`` from ``device``'s page, signed in or not (``csrf``: a
    token other than the sign-in's)."""
    body = {"subscription": browser.subscription(), "kinds": list(kinds), "seats": seats or []}
    headers = {} if csrf is None else {CSRF_HEADER: csrf}
    return device.send("POST", "/api/push/subscriptions", body, **headers)


def move_seat(device: Device, code: str, seat: int, token: str) -> None:
    answer = device.send(
        "POST", "/api/account/seats", {"seats": [{"code": code, "seat": seat, "token": token}]}
    )
    assert answer.json()["moved"] == [{"code": code, "seat": seat}], answer.text


def table(served: Served, code: str) -> TableInfo:
    info = served.service.store.table(code)
    assert info is not None
    return info


def pushed(served: Served, info: TableInfo, seat: int, connected: tuple[int, ...] = ()) -> int:
    """Notify ``seat``'s turn at ``info``'s table: the devices that took it."""
    notice = your_turn(info, seat, connected)
    sent: int = served.app.state.push.notify(notice).result(WAIT_SECONDS)
    return sent


def test_a_signed_in_device_hears_of_every_seat_its_account_holds(
    served_here: Served, push_service: PushService
) -> None:
    """Ann subscribes her phone signed in, holding no seat on it; a seat she moves into
    her account from another device afterwards reaches the phone, with the payload a
    seat's device gets; a seat not in her account, or one she watches live, does not."""
    with devices(served_here, 2) as (phone, laptop):
        assert phone.sign_up("Ann").status_code == 201
        assert laptop.sign_in("Ann").status_code == 200
        browser = Browser(f"{push_service.url}/devices/phone")
        answer = subscribe(phone, browser)
        assert answer.status_code == 201, answer.text
        assert answer.json() == {"kinds": ["your_turn", "invitation"], "seats": 0, "account": "Ann"}

        code, tokens = two_people(served_here)
        info = table(served_here, code)
        assert pushed(served_here, info, 1) == 0  # not Ann's seat yet
        move_seat(laptop, code, 1, tokens[1])
        assert pushed(served_here, info, 1, connected=(1,)) == 0  # she watches it live
        assert pushed(served_here, info, 0) == 0  # the other seat's turn
        assert pushed(served_here, info, 1) == 1
        [received] = push_service.wait_for(1)
        assert received.path == "/devices/phone"
        assert browser.decrypt(received) == {
            "kind": "your_turn",
            "code": code,
            "url": f"/t/{code}",
            "to_move": info.seats[1].name,
            "hours_left": None,
            "from": None,
            "lang": "en",
        }
        check_vapid(received, served_here.http.get("/api/push/key").json()["key"], push_service.url)


def test_a_device_tied_both_ways_hears_once(served_here: Served, push_service: PushService) -> None:
    with devices(served_here, 1) as (phone,):
        phone.sign_up("Ann")
        code, tokens = two_people(served_here)
        move_seat(phone, code, 1, tokens[1])
        browser = Browser(f"{push_service.url}/devices/phone")
        assert subscribe(phone, browser, [{"code": code, "token": tokens[1]}]).status_code == 201
        assert pushed(served_here, table(served_here, code), 1) == 1


@pytest.mark.parametrize("how", ["here", "everywhere", "deleted", "signed_out_subscribe"])
def test_the_account_devices_stop_hearing(
    served_here: Served, push_service: PushService, how: str
) -> None:
    """Signing out on the device or everywhere ends the sign-in the device is tied
    through; deleting the account deletes the tie; subscribing again signed out makes
    the device nobody's. The account's seat no longer reaches it."""
    with devices(served_here, 2) as (phone, laptop):
        phone.sign_up("Ann")
        laptop.sign_in("Ann")
        code, tokens = two_people(served_here)
        move_seat(laptop, code, 1, tokens[1])
        browser = Browser(f"{push_service.url}/devices/phone")
        assert subscribe(phone, browser).status_code == 201
        info = table(served_here, code)
        assert pushed(served_here, info, 1) == 1
        if how == "here":
            assert phone.send("POST", "/api/account/sign-out", {}).status_code == 200
        elif how == "everywhere":
            everywhere = laptop.send("POST", "/api/account/sign-out", {"everywhere": True})
            assert everywhere.status_code == 200
        elif how == "deleted":
            assert laptop.send("DELETE", "/api/account", {}).status_code == 200
            assert rows(served_here, PushAccountRow) == []
        else:
            other, other_tokens = two_people(served_here)
            phone.http.cookies.clear()
            seats = [{"code": other, "token": other_tokens[0]}]
            answer = subscribe(phone, browser, seats)
            assert answer.status_code == 201 and answer.json()["account"] is None
        assert pushed(served_here, info, 1) == 0


def test_an_account_notifies_a_bounded_number_of_devices(
    served_here: Served, push_service: PushService
) -> None:
    with devices(served_here, 1) as (phone,):
        phone.sign_up("Ann")
        for number in range(DEVICES_PER_ACCOUNT + 1):
            browser = Browser(f"{push_service.url}/devices/{number}")
            assert subscribe(phone, browser).status_code == 201
        tied = PushStore(served_here.service.store).devices(
            "invitation", time.time(), accounts={rows(served_here, PushAccountRow)[0].account_id}
        )
        kept = {device.endpoint for device in tied}
        assert len(kept) == DEVICES_PER_ACCOUNT
        assert f"{push_service.url}/devices/0" not in kept  # the oldest tie went


def test_tying_a_device_to_an_account_needs_the_sign_ins_csrf_token(
    served_here: Served, push_service: PushService
) -> None:
    """Another site could otherwise tie its own endpoint to a visitor's account and read
    the account's notices; and signed out, a device names a seat."""
    with devices(served_here, 2) as (ann, nobody):
        ann.sign_up("Ann")
        browser = Browser(f"{push_service.url}/devices/thief")
        forged = subscribe(ann, browser, csrf="forged")
        assert error(forged, 403)["code"] == "bad_csrf"
        assert error(subscribe(nobody, browser), 400)["field"] == "seats"
        assert rows(served_here, PushAccountRow) == []


# --- invitations ------------------------------------------------------------------------


def test_a_friends_invitation_is_pushed_and_a_blocked_players_never(
    served_here: Served, push_service: PushService
) -> None:
    with devices(served_here, 3) as (ann, bob, cat):
        for device, name in [(ann, "Ann"), (bob, "Bob"), (cat, "Cat")]:
            assert device.sign_up(name).status_code == 201
        befriend(ann, bob, "Ann", "Bob")
        befriend(cat, bob, "Cat", "Bob")
        phone = Browser(f"{push_service.url}/devices/bob")
        assert subscribe(bob, phone, kinds=("invitation",)).status_code == 201
        code, _ = two_people(served_here)

        invited = ann.send("POST", "/api/account/invitations", {"name": "Bob", "code": code})
        assert invited.status_code == 201, invited.text
        [received] = push_service.wait_for(1)
        assert phone.decrypt(received) == {
            "kind": "invitation",
            "code": code,
            "url": f"/t/{code}",
            "to_move": None,
            "hours_left": None,
            "from": "Ann",
            "lang": "en",
        }

        assert bob.send("POST", "/api/account/blocks", {"name": "Ann"}).status_code == 200
        refused = ann.send("POST", "/api/account/invitations", {"name": "Bob", "code": code})
        assert error(refused, 403)["code"] == "not_friends"
        # Cat's invitation comes after Ann's refused one: had that been pushed, it would
        # have arrived first.
        again = cat.send("POST", "/api/account/invitations", {"name": "Bob", "code": code})
        assert again.status_code == 201, again.text
        second = push_service.wait_for(2)
        assert len(second) == 2 and phone.decrypt(second[1])["from"] == "Cat"


def test_an_invitation_reaches_only_the_devices_that_asked_for_it(
    served_here: Served, push_service: PushService
) -> None:
    with devices(served_here, 1) as (bob,):
        bob.sign_up("Bob")
        quiet = subscribe(bob, Browser(f"{push_service.url}/devices/quiet"), kinds=("your_turn",))
        assert quiet.status_code == 201
        code, _ = two_people(served_here)
        bob_id = rows(served_here, PushAccountRow)[0].account_id
        notice = invitation(Invitation(0, "Ann", bob_id, code, time.time()))
        assert served_here.app.state.push.notify(notice).result(WAIT_SECONDS) == 0
        assert push_service.received == []


# --- the migration ----------------------------------------------------------------------


def test_the_push_accounts_migration_goes_down_and_up_again(database_url: str) -> None:
    store = Store(database_url)
    ours = {"push_accounts", "push_reminders"}
    try:
        store.upgrade()
        assert ours <= set(inspect(store.engine).get_table_names())
        store.downgrade("0018_push_accounts-1")
        assert not ours & set(inspect(store.engine).get_table_names())
        store.upgrade()
        assert ours <= set(inspect(store.engine).get_table_names())
    finally:
        store.dispose()
