# ruff: noqa: RUF001, RUF003  (names that look alike are what is tested)
"""Accounts over HTTP, on SQLite and PostgreSQL (issue 33): sign up and in with a
password or a passkey, the pause after wrong passwords, signing out here and
everywhere, seats moved into an account, the profile, the export and the deletion; and
the hostile requests: another site's form, another account's cookie, a stolen seat
token, a replayed passkey answer, a sign-in flood, each refused with nothing changed."""

from __future__ import annotations

import ipaddress
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("webauthn")

import httpx
from argon2 import PasswordHasher
from sqlalchemy import select

from passkeys import SoftPasskey
from server_games import Served, serve_app
from triominos.server import account_store
from triominos.server.account_api import CSRF_HEADER, SESSION_COOKIE
from triominos.server.account_names import DisplayNameError, clean_name, name_key
from triominos.server.account_store import (
    CHALLENGE_SECONDS,
    FAILED_SIGN_INS,
    LOCKOUT_SECONDS,
    SESSION_SECONDS,
    AccountRow,
    AccountSeatRow,
    PasskeyRow,
    SessionRow,
)
from triominos.server.guard import LIMIT

PASSWORD = "correct horse battery"
SIGN_IN_BURST = LIMIT["sign_in"].burst
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""argon2id at a cost the tests can pay many times (the server's default is RFC 9106's)."""
ADDRESSES = (ipaddress.ip_address("198.18.0.0") + number for number in itertools.count(1))
"""Each device's own address (a test's, so that the per-address limits are its own), in
the benchmarking network 198.18.0.0/15: room for the 131,071 devices of a whole run, where
a /24 ran out after 255 and its next "address" was refused as malformed."""


@pytest.fixture
def served_here(database_url: str) -> Iterator[Served]:
    """The app, believing the test's X-Forwarded-For (each test plays its clients from
    addresses of its own, so the per-address limits are the test's to meet)."""
    with serve_app(database_url, trusted_proxies=["127.0.0.1"], password_hasher=CHEAP) as served:
        yield served


class Device:
    """One browser: its own cookies, its address, reaching the server as localhost (a
    relying party may not be an IP address)."""

    def __init__(self, served: Served, address: str = "", scheme: str = "http"):
        address = address or str(next(ADDRESSES))
        port = served.base_url.rsplit(":", 1)[1]
        self.origin = f"http://localhost:{port}"
        headers = {"Host": f"localhost:{port}", "X-Forwarded-For": address}
        if scheme == "https":
            headers["X-Forwarded-Proto"] = "https"
        self.http = httpx.Client(base_url=served.base_url, headers=headers, timeout=30)
        self.csrf = "-"

    def send(self, method: str, path: str, body: Any = None, **headers: str) -> httpx.Response:
        sent = {CSRF_HEADER: self.csrf, **headers}
        answer = self.http.request(method, path, json={} if body is None else body, headers=sent)
        if answer.status_code < 300 and "csrf" in answer.json():
            self.csrf = answer.json()["csrf"]
        return answer

    def me(self) -> dict[str, Any] | None:
        account: dict[str, Any] | None = self.http.get("/api/account").json()["account"]
        return account

    def sign_up(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.send("POST", "/api/account/sign-up", {"name": name, "password": password})

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.send("POST", "/api/account/sign-in", {"name": name, "password": password})

    def add_passkey(self, passkey: SoftPasskey, name: str | None = None) -> httpx.Response:
        asked = {} if name is None else {"name": name}
        options = self.send("POST", "/api/account/passkeys/options", asked)
        assert options.status_code == 200, options.text
        answer = passkey.register(options.json()["publicKey"])
        ceremony = options.json()["ceremony"]
        return self.send(
            "POST", "/api/account/passkeys", {"ceremony": ceremony, "credential": answer}
        )

    def passkey_options(self) -> dict[str, Any]:
        options = self.send("POST", "/api/account/passkey-sign-in/options")
        assert options.status_code == 200, options.text
        found: dict[str, Any] = options.json()
        return found


@contextmanager
def devices(served: Served, count: int) -> Iterator[list[Device]]:
    made = [Device(served) for _ in range(count)]
    try:
        yield made
    finally:
        for device in made:
            device.http.close()


def error(answer: httpx.Response, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    found: dict[str, Any] = answer.json()["error"]
    return found


def rows(served: Served, model: type[Any]) -> list[Any]:
    with served.service.store.session() as session:
        return list(session.scalars(select(model)))


# --- passwords ----------------------------------------------------------------------------


def test_sign_up_and_in_with_a_password_on_two_devices(served_here: Served) -> None:
    with devices(served_here, 2) as (phone, laptop):
        assert phone.me() is None
        signed_up = phone.sign_up("Ann")
        assert signed_up.status_code == 201, signed_up.text
        cookie = signed_up.headers["set-cookie"]
        assert f"{SESSION_COOKIE}=" in cookie
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        assert phone.me() == {
            "name": "Ann",
            "language": "en",
            "password": True,
            "passkeys": [],
            "created_at": signed_up.json()["account"]["created_at"],
        }
        assert laptop.me() is None
        assert error(laptop.sign_in("Ann", "wrong password"), 401)["code"] == "bad_sign_in"
        assert error(laptop.sign_in("Nobody"), 401)["code"] == "bad_sign_in"
        assert laptop.sign_in("ann").status_code == 200  # a name is found as it is compared
        assert laptop.me() is not None and laptop.me()["name"] == "Ann"  # type: ignore[index]
        # Only hashes are kept: of the sign-ins' ids, and argon2id of the password.
        kept = {row.id_hash for row in rows(served_here, SessionRow)}
        assert len(kept) == 2 and phone.http.cookies[SESSION_COOKIE] not in kept
        (account,) = rows(served_here, AccountRow)
        assert account.password_hash.startswith("$argon2id$")


def test_a_name_that_looks_like_a_taken_one_is_refused(served_here: Served) -> None:
    with devices(served_here, 1) as (device,):
        assert device.sign_up("Ann").status_code == 201
    with devices(served_here, 2) as (other, another):
        for lookalike in ("ANN", "Аnn", "A n n", "Ánn"):  # the second with a Cyrillic А
            assert error(other.sign_up(lookalike), 409)["code"] == "name_taken"
        assert error(another.sign_up("x"), 400)["field"] == "name"
        assert error(another.sign_up("Bob", "short"), 400)["field"] == "password"
    assert len(rows(served_here, AccountRow)) == 1


def test_wrong_passwords_pause_the_accounts_password_sign_in(served_here: Served) -> None:
    """Guesses from many addresses (past the per-address limit) still pause the account."""
    with devices(served_here, 1) as (owner,):
        assert owner.sign_up("Ann").status_code == 201
    with devices(served_here, FAILED_SIGN_INS) as guessers:
        for guesser in guessers:
            assert error(guesser.sign_in("Ann", "guess"), 401)["code"] == "bad_sign_in"
        locked = guessers[0].sign_in("Ann")  # even the right password now
        assert error(locked, 429)["code"] == "locked"
        assert int(locked.headers["Retry-After"]) > LOCKOUT_SECONDS - 5
        assert SESSION_COOKIE not in guessers[0].http.cookies
        served_here.later(LOCKOUT_SECONDS + 1)
        assert guessers[0].sign_in("Ann").status_code == 200


def test_a_sign_in_flood_is_refused_and_counts_for_nothing(served_here: Served) -> None:
    """Past the address's burst, sign-ins are refused before they are tried: they move
    no account towards its pause (else 5 + 5 + 4 wrong passwords would have paused it)."""
    with devices(served_here, 1) as (owner,):
        assert owner.sign_up("Ann").status_code == 201
    flooder = Device(served_here, "203.0.113.9")
    for _ in range(SIGN_IN_BURST):
        assert error(flooder.sign_in("Ann", "guess"), 401)["code"] == "bad_sign_in"
    for _ in range(SIGN_IN_BURST):
        refused = error(flooder.sign_in("Ann", "guess"), 429)
        assert refused["code"] == "rate_limited" and "sign_in" in refused["message"]
    (account,) = rows(served_here, AccountRow)
    assert account.failed_sign_ins == SIGN_IN_BURST
    with devices(served_here, 1) as (device,):
        for _ in range(FAILED_SIGN_INS - SIGN_IN_BURST - 1):
            assert error(device.sign_in("Ann", "guess"), 401)["code"] == "bad_sign_in"
        assert device.sign_in("Ann").status_code == 200


# --- signing out --------------------------------------------------------------------------


def test_sign_out_here_and_everywhere(served_here: Served) -> None:
    with devices(served_here, 3) as (phone, laptop, tablet):
        assert phone.sign_up("Ann").status_code == 201
        assert laptop.sign_in("Ann").status_code == 200
        old_cookie = phone.http.cookies[SESSION_COOKIE]
        assert phone.send("POST", "/api/account/sign-out").json() == {"account": None}
        assert phone.me() is None
        phone.http.cookies.set(SESSION_COOKIE, old_cookie)  # kept by a thief: worth nothing
        assert phone.me() is None
        assert laptop.me() is not None
        assert tablet.sign_in("Ann").status_code == 200
        everywhere = laptop.send("POST", "/api/account/sign-out", {"everywhere": True})
        assert everywhere.status_code == 200, everywhere.text
        assert laptop.me() is None and tablet.me() is None
        assert rows(served_here, SessionRow) == []


def test_a_sign_in_ends_after_its_time(served_here: Served) -> None:
    with devices(served_here, 1) as (device,):
        assert device.sign_up("Ann").status_code == 201
        served_here.later(SESSION_SECONDS - 60)
        assert device.me() is not None
        served_here.later(SESSION_SECONDS + 1)
        assert device.me() is None
        answer = device.send("PATCH", "/api/account", {"name": "Eve"})
        assert error(answer, 401)["code"] == "signed_out"


# --- what another site and another account cannot do --------------------------------------


def test_another_sites_form_cannot_change_an_account(served_here: Served) -> None:
    with devices(served_here, 1) as (device,):
        assert device.sign_up("Ann").status_code == 201
        form = device.http.post(
            "/api/account/sign-out",
            content=b"everywhere=true",
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": "https://evil.example",
            },
        )
        assert error(form, 403)["code"] == "bad_origin"
        same_site_form = device.http.post(
            "/api/account/sign-out",
            content=b"everywhere=true",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert error(same_site_form, 415)["code"] == "bad_content_type"
        for token in ("", "forged"):  # JSON with the cookie, without the page's token
            answer = device.send("POST", "/api/account/sign-out", **{CSRF_HEADER: token})
            assert error(answer, 403)["code"] == "bad_csrf"
        no_header = device.http.post(
            "/api/account/sign-in", json={"name": "Ann", "password": PASSWORD}
        )
        assert error(no_header, 403)["code"] == "bad_csrf"
        assert device.me() is not None
        assert len(rows(served_here, SessionRow)) == 1


def test_another_accounts_cookie_changes_only_its_own_account(served_here: Served) -> None:
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        passkey = SoftPasskey(ann.origin)
        assert ann.add_passkey(passkey).status_code == 201
        with_anns_token = bob.send(
            "PATCH", "/api/account", {"name": "Eve"}, **{CSRF_HEADER: ann.csrf}
        )
        assert error(with_anns_token, 403)["code"] == "bad_csrf"
        removed = bob.send("DELETE", f"/api/account/passkeys/{passkey.id}")
        assert error(removed, 404)["code"] == "not_found"
        assert bob.send("PATCH", "/api/account", {"name": "Bobby"}).status_code == 200
        assert ann.me()["name"] == "Ann" and len(ann.me()["passkeys"]) == 1  # type: ignore[index]
        assert bob.me()["name"] == "Bobby"  # type: ignore[index]
        assert (
            error(bob.send("PATCH", "/api/account", {"name": "ANN"}), 409)["code"] == "name_taken"
        )


# --- seats --------------------------------------------------------------------------------


def test_seats_move_into_the_account_and_a_stolen_token_cannot_take_them(
    served_here: Served,
) -> None:
    created = served_here.create(take=[0])
    code, token = created["code"], created["seats"][0]["token"]
    with devices(served_here, 4) as (phone, laptop, thief, stranger):
        assert phone.sign_up("Ann").status_code == 201
        moved = phone.send(
            "POST", "/api/account/seats", {"seats": [{"code": code, "seat": 0, "token": token}]}
        )
        assert moved.json() == {"moved": [{"code": code, "seat": 0}], "refused": []}
        assert laptop.sign_in("Ann").status_code == 200
        assert laptop.http.get("/api/account/seats").json() == {
            "seats": [{"code": code, "seat": 0, "token": token}]
        }
        assert thief.sign_up("Eve").status_code == 201
        stolen = thief.send(
            "POST", "/api/account/seats", {"seats": [{"code": code, "seat": 0, "token": token}]}
        )
        ((refused,),) = [stolen.json()["refused"]]
        assert refused["error"]["code"] == "claimed" and stolen.json()["moved"] == []
        assert thief.http.get("/api/account/seats").json() == {"seats": []}
        assert stranger.sign_up("Sam").status_code == 201
        guessed = stranger.send(
            "POST",
            "/api/account/seats",
            {
                "seats": [
                    {"code": code, "seat": 0, "token": "guess"},
                    {"code": "ZZZZZZ", "seat": 0, "token": token},
                ]
            },
        )
        assert [r["error"]["code"] for r in guessed.json()["refused"]] == ["bad_token", "not_found"]
        signed_out = Device(served_here)
        answer = signed_out.send(
            "POST", "/api/account/seats", {"seats": [{"code": code, "seat": 0, "token": token}]}
        )
        assert error(answer, 401)["code"] == "signed_out"
        assert phone.http.get("/api/account/seats").json()["seats"][0]["code"] == code


def test_a_seat_joined_signed_in_goes_into_the_account_at_once(
    served_here: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the seats this browser held when it signed in: "Your games" on the account's
    other devices has it. Signed out (or with a sign-in that is no more) the seat is the
    browser's alone; and an account that keeps the most seats still joins."""
    monkeypatch.setattr(account_store, "SEATS_PER_ACCOUNT", 1)
    first, second, third = (served_here.create()["code"] for _ in range(3))
    with devices(served_here, 3) as (phone, laptop, guest):
        assert phone.sign_up("Ann").status_code == 201
        joined = phone.send("POST", f"/api/tables/{first}/join", {"name": "Ann"})
        assert joined.status_code == 200, joined.text
        assert laptop.sign_in("Ann").status_code == 200
        assert laptop.http.get("/api/account/seats").json() == {
            "seats": [{"code": first, "seat": 0, "token": joined.json()["token"]}]
        }
        guest.http.cookies.set(SESSION_COOKIE, "a sign-in that is no more")
        assert guest.send("POST", f"/api/tables/{second}/join", {"name": "Bob"}).status_code == 200
        full = phone.send("POST", f"/api/tables/{third}/join", {"name": "Ann"})
        assert full.status_code == 200 and full.json()["seat"] == 0
        assert [(row.code, row.seat) for row in rows(served_here, AccountSeatRow)] == [(first, 0)]


# --- passkeys -----------------------------------------------------------------------------


def test_sign_up_and_in_with_a_passkey_and_a_replay_is_refused(served_here: Served) -> None:
    with devices(served_here, 2) as (phone, laptop):
        passkey = SoftPasskey(phone.origin)
        signed_up = phone.add_passkey(passkey, name="Ann")
        assert signed_up.status_code == 201, signed_up.text
        assert phone.me()["password"] is False  # type: ignore[index]
        assert [key["id"] for key in phone.me()["passkeys"]] == [passkey.id]  # type: ignore[index]

        options = laptop.passkey_options()
        answer = passkey.sign(options["publicKey"])
        body = {"ceremony": options["ceremony"], "credential": answer}
        assert laptop.send("POST", "/api/account/passkey-sign-in", body).status_code == 200
        assert laptop.me()["name"] == "Ann"  # type: ignore[index]
        (stored,) = rows(served_here, PasskeyRow)
        sessions = len(rows(served_here, SessionRow))

        thief = Device(served_here, "203.0.113.50")
        replayed = thief.send("POST", "/api/account/passkey-sign-in", body)
        assert error(replayed, 400)["code"] == "bad_challenge"
        fresh = thief.passkey_options()  # a new challenge, the old signed answer
        replayed = thief.send(
            "POST",
            "/api/account/passkey-sign-in",
            {"ceremony": fresh["ceremony"], "credential": answer},
        )
        assert error(replayed, 400)["code"] == "bad_passkey"
        assert thief.me() is None
        assert len(rows(served_here, SessionRow)) == sessions
        assert rows(served_here, PasskeyRow)[0].sign_count == stored.sign_count == 1


def test_a_passkey_challenge_expires(served_here: Served) -> None:
    with devices(served_here, 2) as (phone, laptop):
        passkey = SoftPasskey(phone.origin)
        assert phone.add_passkey(passkey, name="Ann").status_code == 201
        options = laptop.passkey_options()
        served_here.later(CHALLENGE_SECONDS + 1)
        body = {"ceremony": options["ceremony"], "credential": passkey.sign(options["publicKey"])}
        answer = laptop.send("POST", "/api/account/passkey-sign-in", body)
        assert error(answer, 400)["code"] == "bad_challenge"
        assert laptop.me() is None


def test_a_second_passkey_signs_in_to_the_same_account(served_here: Served) -> None:
    with devices(served_here, 2) as (phone, laptop):
        assert phone.sign_up("Ann").status_code == 201
        first, second = SoftPasskey(phone.origin), SoftPasskey(phone.origin)
        assert phone.add_passkey(first).status_code == 201
        assert phone.add_passkey(second).status_code == 201
        options = laptop.passkey_options()
        body = {"ceremony": options["ceremony"], "credential": second.sign(options["publicKey"])}
        assert laptop.send("POST", "/api/account/passkey-sign-in", body).status_code == 200
        assert len(laptop.me()["passkeys"]) == 2  # type: ignore[index]


def test_passkeys_need_a_host_name_not_an_ip_address(served_here: Served) -> None:
    answer = served_here.http.post(
        "/api/account/passkey-sign-in/options", json={}, headers={CSRF_HEADER: "-"}
    )
    assert error(answer, 400)["code"] == "no_passkeys"


def test_the_cookie_is_secure_over_tls(served_here: Served) -> None:
    device = Device(served_here, scheme="https")
    signed_up = device.sign_up("Ann")
    assert signed_up.status_code == 201 and "Secure" in signed_up.headers["set-cookie"]


# --- the profile, the export, deleting ----------------------------------------------------


def test_export_and_delete_an_account(served_here: Served) -> None:
    created = served_here.create(take=[0])
    code, token = created["code"], created["seats"][0]["token"]
    with devices(served_here, 1) as (device,):
        assert device.sign_up("Zoë").status_code == 201
        passkey = SoftPasskey(device.origin)
        assert device.add_passkey(passkey).status_code == 201
        assert device.send("PATCH", "/api/account", {"language": "nl"}).status_code == 200
        device.send(
            "POST", "/api/account/seats", {"seats": [{"code": code, "seat": 0, "token": token}]}
        )
        exported = device.http.get("/api/account/export")
        assert "attachment" in exported.headers["content-disposition"]
        everything = exported.json()
        assert everything["account"]["name"] == "Zoë" and everything["account"]["language"] == "nl"
        assert everything["account"]["password"] is True
        assert [key["id"] for key in everything["passkeys"]] == [passkey.id]
        assert everything["seats"] == [{"code": code, "seat": 0, "token": token}]
        assert len(everything["sign_ins"]) == 1
        assert "argon2" not in exported.text

        assert (
            error(device.send("DELETE", "/api/account", **{CSRF_HEADER: "x"}), 403)["code"]
            == "bad_csrf"
        )
        deleted = device.send("DELETE", "/api/account")
        assert deleted.status_code == 200, deleted.text
        assert device.me() is None
        for model in (AccountRow, PasskeyRow, SessionRow):
            assert rows(served_here, model) == []
        info = served_here.service.store.table(code)
        assert info is not None and info.seats[0].name == "Player 1"
        assert device.sign_up("Zoe").status_code == 201  # the name is free again


# --- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "ANN"),
        ("Ann", "Аnn"),  # Cyrillic А
        ("Olga", "0lga"),
        ("Iris", "lris"),
        ("Marco", "Rnarco"),
        ("Zoë", "Zoe"),
        ("Ann-Sofie", "Ann Sofie"),
        ("Ｋim", "Kim"),  # full-width K
    ],
)
def test_names_that_look_alike_have_one_key(first: str, second: str) -> None:
    assert name_key(first) == name_key(second)


def test_names_that_differ_have_different_keys() -> None:
    assert len({name_key(name) for name in ("Ann", "Anna", "Bob", "Kim", "Tim", "Jan")}) == 6


@pytest.mark.parametrize("name", ["a", "x" * 25, "Ann\u202e", "<b>", "12345", "   "])
def test_a_bad_display_name_is_refused(name: str) -> None:
    with pytest.raises(DisplayNameError):
        clean_name(name)


def test_a_display_name_is_kept_tidy() -> None:
    assert clean_name("  Ann   Marie ") == "Ann Marie"
    assert clean_name("Ｋim") == "Kim"


@pytest.mark.parametrize(
    "name",
    [
        "Player",
        "player 3",
        "PLAYER 12",
        "Player-0",
        "P l a y e r 1",
        "Plаyer 2",  # a Cyrillic а
        "Ｐｌａｙｅｒ ７",  # full width
        "Player²",
        "Players",  # one name with "Player5"
    ],
)
def test_the_neutral_name_of_deleted_accounts_is_nobodys(name: str) -> None:
    with pytest.raises(DisplayNameError, match="'Player' or 'Player' and a number"):
        clean_name(name)


@pytest.mark.parametrize("name", ["Player One", "Playful", "Player Ann", "Playa 2", "Ann Player"])
def test_names_beginning_like_the_neutral_name_are_free(name: str) -> None:
    assert clean_name(name) == name


def test_the_neutral_name_is_refused_at_sign_up_and_on_renaming(served_here: Served) -> None:
    """Whichever way a name is asked for, as any other name that may not be used."""
    with devices(served_here, 3) as (device, renamed, with_passkey):
        for name in ("Player", "player 2"):
            refused = error(device.sign_up(name), 400)
            assert refused["code"] == "bad_name" and refused["field"] == "name"
            assert "deleted account" in refused["message"]
        options = with_passkey.send("POST", "/api/account/passkeys/options", {"name": "PLAYER 1"})
        assert error(options, 400)["code"] == "bad_name"
        assert rows(served_here, AccountRow) == []
        assert renamed.sign_up("Ann").status_code == 201
        assert error(renamed.send("PATCH", "/api/account", {"name": "Plаyer 3"}), 400)["code"] == (
            "bad_name"
        )
        assert renamed.me()["name"] == "Ann"  # type: ignore[index]


# --- the migration ----------------------------------------------------------------------------


def test_the_accounts_migration_goes_down_and_up_again(database_url: str) -> None:
    from sqlalchemy import inspect

    from triominos.server.store import Store

    store = Store(database_url)
    try:
        store.upgrade()
        ours = {"accounts", "account_passkeys", "account_sessions", "account_challenges"}
        ours |= {"account_seats"}
        assert ours <= set(inspect(store.engine).get_table_names())
        store.downgrade("0012_accounts-1")
        assert not ours & set(inspect(store.engine).get_table_names())
        store.upgrade()
        assert ours <= set(inspect(store.engine).get_table_names())
    finally:
        store.dispose()
