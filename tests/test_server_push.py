"""Web Push end to end, where the test owns every part: a push service on loopback
receives what the server sends, decrypts it (RFC 8291, aes128gcm) with the keys of the
subscription the test made, and checks the VAPID token (ES256) against the server's
public key. Plus the keys shared by nodes, opting out, and hostile subscriptions."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("pywebpush")

import http_ece  # type: ignore[import-untyped]
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import func, select

from server_games import WAIT_SECONDS, Served, serve_app
from test_server_ws import TWO_PEOPLE
from triominos.server.guard import LIMIT
from triominos.server.push import TTL_SECONDS, check_endpoint, your_turn
from triominos.server.push_api import MAX_BODY
from triominos.server.push_store import (
    DEVICES_PER_SEAT,
    KINDS,
    PushKeyRow,
    PushStore,
    PushSubscriptionRow,
)
from triominos.server.store import Store
from triominos.server.table import token_hash

CONTACT = "mailto:ops@triominos.example"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --- a push service on loopback ---------------------------------------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Answers 201 to every push, 410 on ``/gone/…``, a redirect to ``/devices/inside``
    on ``/moved/…``, and holds ``/slow/…`` until ``release`` is set."""

    url: str = ""
    received: list[Received] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    release: threading.Event = field(default_factory=threading.Event)

    def wait_for(self, count: int) -> list[Received]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.received) >= count, WAIT_SECONDS)
            return list(self.received)


@contextmanager
def running_push_service() -> Iterator[PushService]:
    """A :class:`PushService` on a loopback port, in threads, for the test's length."""
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.path.startswith("/slow/"):
                service.release.wait(WAIT_SECONDS)
            with service.arrived:
                service.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                service.arrived.notify_all()
            if self.path.startswith("/moved/"):
                self.send_response(307)
                self.send_header("Location", f"{service.url}/devices/inside")
            else:
                self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.release.set()
        server.shutdown()
        server.server_close()


# --- a browser's subscription -----------------------------------------------------------


@dataclass
class Browser:
    """What a browser keeps of its PushSubscription: the private key and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def decrypt(self, received: Received) -> dict[str, Any]:
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        message: dict[str, Any] = json.loads(plain)
        return message


def check_vapid(received: Received, server_key: str, audience: str) -> dict[str, Any]:
    """The VAPID token's claims, once its ES256 signature is checked against the
    server's public key (RFC 8292: ``Authorization: vapid t=JWT, k=KEY``)."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):  # and it is this token's signature, no other's
        public.verify(der, f"{header}.{claims}x".encode(), ec.ECDSA(hashes.SHA256()))
    found: dict[str, Any] = json.loads(unb64url(claims))
    assert found["aud"] == audience
    assert found["sub"] == CONTACT
    assert time.time() < found["exp"] <= time.time() + 24 * 3600
    return found


# --- the service ------------------------------------------------------------------------


@pytest.fixture
def served(sqlite_url: str) -> Iterator[Served]:
    with serve_app(sqlite_url, push_loopback=True, push_contact=CONTACT) as served:
        yield served


def two_people(served: Served) -> tuple[str, list[str]]:
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    return created["code"], [seat["token"] for seat in created["seats"]]


def subscribe(
    served: Served,
    browser: Browser,
    seats: list[dict[str, str]],
    kinds: tuple[str, ...] = KINDS,
    expect: int = 201,
    lang: str = "en",
) -> dict[str, Any]:
    body = {"subscription": browser.subscription(), "kinds": list(kinds), "seats": seats}
    answer = served.http.post("/api/push/subscriptions", json={**body, "lang": lang})
    assert answer.status_code == expect, answer.text
    found: dict[str, Any] = answer.json()
    return found


def devices(served: Served) -> int:
    with served.service.store.session() as session:
        return int(session.scalar(select(func.count()).select_from(PushSubscriptionRow)) or 0)


def test_a_your_turn_push_arrives_encrypted_and_signed(
    served: Served, push_service: PushService
) -> None:
    code, tokens = two_people(served)
    bob = Browser(f"{push_service.url}/devices/bob")
    kept = subscribe(served, bob, [{"code": code, "token": tokens[1]}], lang="fr")
    assert kept == {"kinds": list(KINDS), "seats": 1, "account": None}
    info = served.service.store.table(code)
    assert info is not None
    pusher = served.app.state.push

    assert pusher.notify(your_turn(info, 1, connected={1})).result(WAIT_SECONDS) == 0
    assert pusher.notify(your_turn(info, 0, connected=())).result(WAIT_SECONDS) == 0
    assert push_service.received == []  # Bob watches live; Ann's turn is not Bob's

    assert pusher.notify(your_turn(info, 1, connected={0})).result(WAIT_SECONDS) == 1
    [received] = push_service.wait_for(1)
    assert received.path == "/devices/bob"
    assert received.headers["ttl"] == str(TTL_SECONDS)
    assert bob.decrypt(received) == {
        "kind": "your_turn",
        "code": code,
        "url": f"/t/{code}",
        "to_move": info.seats[1].name,
        "hours_left": None,
        "from": None,
        "lang": "fr",
    }
    key = served.http.get("/api/push/key").json()["key"]
    assert len(unb64url(key)) == 65
    check_vapid(received, key, push_service.url)


def test_the_table_pushes_the_away_player_their_turn_and_the_end(
    served: Served, push_service: PushService
) -> None:
    """The table's own events: the first mover's moves hand the turn to the other
    player, who is away (a your_turn push, once however many moves came before), then
    the mover's resignation ends the match (a finished push). The mover, watching live,
    is never pushed."""
    code, tokens = two_people(served)
    with served.viewer(code) as spectator:
        first = spectator.view["to_move"]
    away = 1 - first
    browsers = [Browser(f"{push_service.url}/devices/{seat}") for seat in (0, 1)]
    for seat, browser in enumerate(browsers):
        subscribe(served, browser, [{"code": code, "token": tokens[seat]}])
    info = served.service.store.table(code)
    assert info is not None
    with served.viewer(code, tokens[first]) as viewer:
        while viewer.view["legal"]:
            viewer.play_first_legal(f"move-{viewer.view['version']}")
        [turn] = push_service.wait_for(1)
        assert turn.path == f"/devices/{away}"
        message = browsers[away].decrypt(turn)
        assert message["kind"] == "your_turn" and message["to_move"] == info.seats[away].name
        viewer.send({"type": "resign", "id": "r"})
        viewer.until(lambda m: m["type"] == "event" and m["event"]["action"] == "resign")
    received = push_service.wait_for(2)
    assert [each.path for each in received] == [f"/devices/{away}"] * 2
    assert browsers[away].decrypt(received[1]) == {
        "kind": "finished",
        "code": code,
        "url": f"/t/{code}",
        "to_move": None,
        "hours_left": None,
        "from": None,
        "lang": "en",
    }


def test_a_rematch_offer_reaches_the_other_player(
    served: Served, push_service: PushService
) -> None:
    code, tokens = two_people(served)
    bob = Browser(f"{push_service.url}/devices/bob")
    subscribe(served, bob, [{"code": code, "token": tokens[1]}], kinds=("rematch",))
    ann = Browser(f"{push_service.url}/devices/ann")
    subscribe(served, ann, [{"code": code, "token": tokens[0]}], kinds=("rematch",))
    with served.viewer(code, tokens[0]) as viewer:
        viewer.send({"type": "resign", "id": "r"})
        viewer.until(lambda m: m["type"] == "event" and m["event"]["action"] == "resign")
        offer = served.http.post(f"/api/tables/{code}/rematch", json={"token": tokens[0]})
        assert offer.status_code == 201, offer.text
    [received] = push_service.wait_for(1)
    assert received.path == "/devices/bob"  # Ann made the offer: she is not told
    message = bob.decrypt(received)
    assert message["kind"] == "rematch" and message["code"] == offer.json()["code"]
    assert message["url"] == f"/t/{offer.json()['code']}"


def test_a_subscription_the_push_service_forgot_is_dropped(
    served: Served, push_service: PushService
) -> None:
    code, tokens = two_people(served)
    subscribe(served, Browser(f"{push_service.url}/gone/bob"), [{"code": code, "token": tokens[1]}])
    info = served.service.store.table(code)
    assert info is not None and devices(served) == 1
    assert served.app.state.push.notify(your_turn(info, 1, ())).result(WAIT_SECONDS) == 0
    push_service.wait_for(1)
    assert devices(served) == 0


def test_a_redirect_is_not_followed(served: Served, push_service: PushService) -> None:
    """A push service could send the server's POST on to an address inside."""
    code, tokens = two_people(served)
    subscribe(
        served, Browser(f"{push_service.url}/moved/bob"), [{"code": code, "token": tokens[1]}]
    )
    info = served.service.store.table(code)
    assert info is not None
    assert served.app.state.push.notify(your_turn(info, 1, ())).result(WAIT_SECONDS) == 0
    assert [received.path for received in push_service.received] == ["/moved/bob"]


def test_a_slow_push_service_stalls_no_table(served: Served, push_service: PushService) -> None:
    code, tokens = two_people(served)
    subscribe(served, Browser(f"{push_service.url}/slow/bob"), [{"code": code, "token": tokens[1]}])
    info = served.service.store.table(code)
    assert info is not None
    pending = served.run(_notify_on_the_loop(served, your_turn(info, 1, ())))
    assert not pending.done()  # the push service holds it, the server answers on:
    assert served.http.get(f"/api/tables/{code}").status_code == 200
    push_service.release.set()
    assert pending.result(WAIT_SECONDS) == 1


async def _notify_on_the_loop(served: Served, notice: Any) -> Any:
    """notify() called from the event loop, as the table events do: it returns at once."""
    return served.app.state.push.notify(notice)


def test_opting_out_per_kind_then_altogether(served: Served, push_service: PushService) -> None:
    code, tokens = two_people(served)
    bob = Browser(f"{push_service.url}/devices/bob")
    subscribe(served, bob, [{"code": code, "token": tokens[1]}])
    auth = bob.subscription()["keys"]["auth"]
    endpoint = bob.endpoint

    def opt_out(body: dict[str, Any]) -> Any:
        answer = served.http.request("DELETE", "/api/push/subscriptions", json=body)
        assert answer.status_code == 200, answer.text
        return answer.json()["kinds"]

    wrong = b64url(os.urandom(16))
    assert opt_out({"endpoint": endpoint, "auth": wrong}) == []
    assert devices(served) == 1  # a wrong secret changes nothing
    assert opt_out({"endpoint": endpoint, "auth": auth, "kinds": ["your_turn"]}) == [
        "finished",
        "invitation",
        "rematch",
    ]
    info = served.service.store.table(code)
    assert info is not None
    assert served.app.state.push.notify(your_turn(info, 1, ())).result(WAIT_SECONDS) == 0
    assert opt_out({"endpoint": endpoint, "auth": auth}) == []
    assert devices(served) == 0


def test_a_seat_notifies_a_bounded_number_of_devices(
    served: Served, push_service: PushService
) -> None:
    code, tokens = two_people(served)
    for number in range(DEVICES_PER_SEAT + 1):
        browser = Browser(f"{push_service.url}/devices/{number}")
        subscribe(served, browser, [{"code": code, "token": tokens[1]}])
    info = served.service.store.table(code)
    assert info is not None
    store = PushStore(served.service.store)
    tied = store.devices("your_turn", time.time(), token_hashes={token_hash(tokens[1])})
    kept = {device.endpoint for device in tied}
    assert len(kept) == DEVICES_PER_SEAT
    assert f"{push_service.url}/devices/0" not in kept  # the oldest tie went


# --- keys -------------------------------------------------------------------------------


def test_nodes_starting_at_once_make_one_key_pair(database_url: str) -> None:
    stores = [Store(database_url) for _ in range(4)]
    stores[0].upgrade()
    try:
        start = threading.Barrier(len(stores))

        def first_start(store: Store) -> Any:
            start.wait()
            return PushStore(store).keys()

        with ThreadPoolExecutor(len(stores)) as pool:
            keys = list(pool.map(first_start, stores))
        assert len(set(keys)) == 1
        assert PushStore(stores[0]).keys() == keys[0]
        with stores[0].session() as session:
            assert session.scalar(select(func.count()).select_from(PushKeyRow)) == 1
    finally:
        for store in stores:
            store.dispose()


# --- hostile subscriptions --------------------------------------------------------------


@pytest.fixture
def guarded(sqlite_url: str) -> Iterator[Served]:
    """A server as in production: no loopback push services."""
    with serve_app(sqlite_url, push_contact=CONTACT) as served:
        yield served


@pytest.mark.parametrize(
    ("endpoint", "why"),
    [
        ("http://push.example.org/x", "https"),
        ("https://127.0.0.1/x", "public address"),
        ("https://10.1.2.3/x", "public address"),
        ("https://169.254.169.254/latest/meta-data", "public address"),
        ("https://[::1]:8443/x", "public address"),
        ("https://[::ffff:192.168.0.1]/x", "public address"),
        ("https://localhost/x", "public address"),
        ("https://printer.local/x", "public address"),
        ("https://user:secret@push.example.org/x", "not a URL of a push service"),
        ("https://push.example.org/" + "x" * 1100, "1024"),
        ("javascript:alert(1)", "not a URL of a push service"),
    ],
)
def test_a_forged_endpoint_is_refused(guarded: Served, endpoint: str, why: str) -> None:
    code, tokens = two_people(guarded)
    browser = Browser(endpoint)
    error = subscribe(guarded, browser, [{"code": code, "token": tokens[1]}], expect=400)["error"]
    assert error["field"] == "subscription.endpoint"
    assert why in error["message"]
    assert devices(guarded) == 0


def test_loopback_endpoints_need_the_test_setting() -> None:
    with pytest.raises(ValueError, match="https"):
        check_endpoint("http://127.0.0.1:8080/x")
    assert check_endpoint("http://127.0.0.1:8080/x", loopback=True)
    with pytest.raises(ValueError, match="https"):
        check_endpoint("http://push.example.org/x", loopback=True)
    with pytest.raises(ValueError, match="public address"):
        check_endpoint("https://10.0.0.1/x", loopback=True)


def forged_keys(browser: Browser, p256dh: str | None, auth: str | None) -> dict[str, Any]:
    subscription = browser.subscription()
    if p256dh is not None:
        subscription["keys"]["p256dh"] = p256dh
    if auth is not None:
        subscription["keys"]["auth"] = auth
    return subscription


OFF_CURVE = b64url(b"\x04" + b"\x01" * 64)


@pytest.mark.parametrize(
    ("p256dh", "auth", "field"),
    [
        (b64url(b"\x04" + b"\x00" * 30), None, "keys.p256dh"),
        (OFF_CURVE, None, "keys.p256dh"),
        ("not base64!*", None, "keys.p256dh"),
        ("A" * 500, None, "keys.p256dh"),
        (None, b64url(os.urandom(15)), "keys.auth"),
        (None, b64url(os.urandom(64)), "keys.auth"),
    ],
)
def test_keys_of_the_wrong_shape_are_refused(
    guarded: Served, p256dh: str | None, auth: str | None, field: str
) -> None:
    code, tokens = two_people(guarded)
    body = {
        "subscription": forged_keys(Browser("https://push.example.org/x"), p256dh, auth),
        "kinds": ["your_turn"],
        "seats": [{"code": code, "token": tokens[1]}],
    }
    answer = guarded.http.post("/api/push/subscriptions", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["field"] == f"subscription.{field}"
    assert devices(guarded) == 0


def test_seats_the_device_does_not_hold_are_refused(guarded: Served) -> None:
    code, tokens = two_people(guarded)
    other, _ = two_people(guarded)
    browser = Browser("https://push.example.org/x")
    for seats, status, name in [
        ([{"code": code, "token": "forged-token"}], 403, "seats[0].token"),
        ([{"code": other, "token": tokens[1]}], 403, "seats[0].token"),  # another table's
        ([{"code": "NOSUCH", "token": tokens[1]}], 403, "seats[0].token"),
        ([], 400, "seats"),
    ]:
        error = subscribe(guarded, browser, seats, expect=status)["error"]
        assert error["field"] == name, error
    error = subscribe(
        guarded, browser, [{"code": code, "token": tokens[1]}], kinds=("spam",), expect=400
    )["error"]
    assert error["field"] == "kinds"
    error = subscribe(
        guarded, browser, [{"code": code, "token": tokens[1]}], lang="xx", expect=400
    )["error"]
    assert error["field"] == "lang"
    assert devices(guarded) == 0


def test_another_browser_cannot_take_over_an_endpoint(guarded: Served) -> None:
    code, tokens = two_people(guarded)
    subscribe(guarded, Browser("https://push.example.org/x"), [{"code": code, "token": tokens[1]}])
    thief = Browser("https://push.example.org/x")
    error = subscribe(guarded, thief, [{"code": code, "token": tokens[0]}], expect=409)["error"]
    assert error["code"] == "subscription_conflict"


def test_cross_site_huge_and_non_json_requests_are_refused(guarded: Served) -> None:
    code, tokens = two_people(guarded)
    body = {
        "subscription": Browser("https://push.example.org/x").subscription(),
        "kinds": ["your_turn"],
        "seats": [{"code": code, "token": tokens[1]}],
    }
    cross = guarded.http.post(
        "/api/push/subscriptions", json=body, headers={"Origin": "https://evil.example"}
    )
    assert cross.status_code == 403 and cross.json()["error"]["code"] == "bad_origin"
    form = guarded.http.post(
        "/api/push/subscriptions",
        content=json.dumps(body),
        headers={"Content-Type": "text/plain"},
    )
    assert form.status_code == 415
    huge = guarded.http.post("/api/push/subscriptions", json={**body, "pad": "x" * MAX_BODY})
    assert huge.status_code == 413
    assert devices(guarded) == 0


def test_a_subscription_flood_is_slowed(guarded: Served) -> None:
    code, tokens = two_people(guarded)
    seats = [{"code": code, "token": tokens[1]}]
    for number in range(LIMIT["push"].burst):
        subscribe(guarded, Browser(f"https://push.example.org/{number}"), seats)
    flood = Browser("https://push.example.org/flood")
    error = subscribe(guarded, flood, seats, expect=429)["error"]
    assert error["code"] == "rate_limited"
