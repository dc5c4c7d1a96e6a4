"""The ratings' anti-abuse rule over HTTP and the WebSocket, on SQLite and PostgreSQL
(issue 33): a rated match between two accounts seen with one browser, or one address,
in the day before its end is unrated ``shared``; accounts of their own browsers and
addresses (through a trusted proxy) are rated; a forged X-Forwarded-For changes nothing;
traces older than the window do not count; and only keyed hashes are ever stored."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette")
pytest.importorskip("webauthn")

from sqlalchemy import inspect, update

from server_games import Served, serve_app
from test_server_accounts import CHEAP, Device, devices, rows
from test_server_rated import create, join, outcome, play_rounds, resign, signed_up
from triominos.ratings import RESIGN_FIRST_ROUNDS, SHARED_SECONDS
from triominos.server.account_store import AccountRow, AccountStore
from triominos.server.store import Store
from triominos.server.trace_store import (
    BROWSER_COOKIE,
    PRUNE_MARGIN,
    SEEN_EVERY,
    TRACES_PER_ACCOUNT,
    TraceKeyRow,
    TraceRow,
    TraceStore,
    trace,
)


@pytest.fixture
def served(database_url: str) -> Iterator[Served]:
    """The app behind a trusted proxy on loopback: each device's X-Forwarded-For is its
    address."""
    with serve_app(database_url, trusted_proxies=["127.0.0.1"], password_hasher=CHEAP) as served:
        yield served


def browser_id(device: Device) -> str:
    found = device.http.cookies.get(BROWSER_COOKIE)
    assert found is not None, "the server gave the browser no id"
    return found


def same_browser(device: Device, like: Device) -> None:
    """Give ``device`` the browser id of ``like``: one browser, as the server sees it."""
    cookie = next(cookie for cookie in like.http.cookies.jar if cookie.name == BROWSER_COOKIE)
    device.http.cookies.jar.set_cookie(cookie)


@contextmanager
def at(served: Served, *addresses: str) -> Iterator[list[Device]]:
    """Devices (browsers of their own) at these addresses."""
    made = [Device(served, address) for address in addresses]
    try:
        yield made
    finally:
        for device in made:
            device.http.close()


def played(served: Served, ann: Device, bob: Device) -> str:
    """Ann's rated table, joined by Bob, played for the rounds a rated match needs and
    resigned by Bob, once its rating is done: its outcome (``rated`` or why not), as
    the database and the API (``GET /api/ratings/tables/CODE``) say alike."""
    table = create(ann)
    code, ann_token = table["code"], table["seats"][0]["token"]
    bob_token = join(bob, code)
    with served.viewer(code, ann_token) as ann_view, served.viewer(code, bob_token) as bob_view:
        play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS)
        resign(bob_view, ann_view)
    stored = outcome(served, code)
    answer = served.http.get(f"/api/ratings/tables/{code}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] == stored
    return stored


def traces_of(served: Served, name: str) -> set[str]:
    (account,) = [row.id for row in rows(served, AccountRow) if row.name == name]
    return {row.trace for row in rows(served, TraceRow) if row.account_id == account}


# --- the rule, end to end -----------------------------------------------------------------


def test_two_accounts_of_one_browser_play_an_unrated_match(served: Served) -> None:
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"))
        same_browser(bob, ann)  # another address, the same browser
        signed_up((bob, "Bob"))
        assert browser_id(bob) == browser_id(ann)
        assert played(served, ann, bob) == "shared"
        assert len(traces_of(served, "Ann") & traces_of(served, "Bob")) == 1


def test_two_accounts_of_one_address_play_an_unrated_match(served: Served) -> None:
    with at(served, "198.51.100.250", "198.51.100.250") as (ann, bob):
        signed_up((ann, "Ann"), (bob, "Bob"))
        assert browser_id(bob) != browser_id(ann)
        assert played(served, ann, bob) == "shared"


def test_one_ipv6_network_is_one_address(served: Served) -> None:
    """An IPv6 host owns its /64: two addresses of one /64 are one trace."""
    with at(served, "2001:db8:1:2::10", "2001:db8:1:2::99", "2001:db8:1:3::10") as devices_:
        signed_up(*zip(devices_, ("Ann", "Bob", "Cid"), strict=True))
        assert len(traces_of(served, "Ann") & traces_of(served, "Bob")) == 1
        assert not traces_of(served, "Ann") & traces_of(served, "Cid")


def test_accounts_of_their_own_browsers_and_addresses_are_rated(served: Served) -> None:
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"), (bob, "Bob"))
        assert played(served, ann, bob) == "rated"
        ann_traces, bob_traces = traces_of(served, "Ann"), traces_of(served, "Bob")
        assert len(ann_traces) == len(bob_traces) == 2  # a browser and an address each
        assert not ann_traces & bob_traces


def test_a_forged_forwarded_address_does_not_escape_the_rule(database_url: str) -> None:
    """Without a trusted proxy, X-Forwarded-For is anyone's to write: two browsers on
    one address that claim two others are still one address."""
    with serve_app(database_url, password_hasher=CHEAP) as served, devices(served, 2) as pair:
        ann, bob = pair
        signed_up((ann, "Ann"), (bob, "Bob"))
        assert played(served, ann, bob) == "shared"


def test_traces_older_than_the_window_do_not_count(served: Served) -> None:
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"))
        same_browser(bob, ann)
        signed_up((bob, "Bob"))
        table = create(ann)
        code, ann_token = table["code"], table["seats"][0]["token"]
        bob_token = join(bob, code)
        long_ago = time.time() - SHARED_SECONDS - 3600  # one browser, but a day ago
        with served.service.store.session() as session:
            session.execute(update(TraceRow).values(first_seen=long_ago, last_seen=long_ago))
        with served.viewer(code, ann_token) as ann_view, served.viewer(code, bob_token) as bob_view:
            play_rounds([ann_view, bob_view], RESIGN_FIRST_ROUNDS)
            resign(bob_view, ann_view)
        assert outcome(served, code) == "rated"


def test_only_keyed_hashes_are_stored(served: Served) -> None:
    address = "198.51.100.251"
    with at(served, address) as (ann,):
        signed_up((ann, "Ann"))
        browser = browser_id(ann)
        (key,) = [bytes.fromhex(row.key) for row in rows(served, TraceKeyRow)]
        stored = rows(served, TraceRow)
        assert {row.trace for row in stored} == {
            trace(key, "browser", browser),
            trace(key, "address", address),
        }
        unkeyed = {hashlib.sha256(value.encode()).hexdigest() for value in (address, browser)}
        assert not {row.trace for row in stored} & unkeyed
        with served.service.store.session() as session:  # nowhere in the table at all
            dumped = repr(session.execute(TraceRow.__table__.select()).all())
        assert address not in dumped and browser not in dumped


def test_deleting_the_account_deletes_its_traces_and_its_export_lists_them(
    served: Served,
) -> None:
    with devices(served, 2) as (ann, bob):
        signed_up((ann, "Ann"), (bob, "Bob"))
        exported = ann.http.get("/api/account/export").json()["traces"]
        assert {entry["trace"] for entry in exported} == traces_of(served, "Ann")
        assert all(entry["first_seen"] <= entry["last_seen"] for entry in exported)
        assert ann.send("DELETE", "/api/account").status_code == 200
        assert {row.account_id for row in rows(served, TraceRow)} == {
            row.id for row in rows(served, AccountRow)
        }
        assert len(rows(served, TraceRow)) == 2  # Bob's


# --- the browser id -------------------------------------------------------------------------


def test_every_browser_gets_an_http_only_id_once(served: Served) -> None:
    with devices(served, 1) as (browser,):
        first = browser.http.get("/api/presets")
        cookie = first.headers["set-cookie"]
        assert cookie.startswith(f"{BROWSER_COOKIE}=") and "HttpOnly" in cookie
        assert "SameSite=lax" in cookie and "Secure" not in cookie
        assert "set-cookie" not in browser.http.get("/api/presets").headers
        browser.http.cookies.set(BROWSER_COOKIE, "not-one-the-server-made", domain="127.0.0.1")
        assert BROWSER_COOKIE in browser.http.get("/api/presets").headers["set-cookie"]
    with at(served, "198.51.100.252") as (secure,):
        secure.http.headers["X-Forwarded-Proto"] = "https"
        assert "Secure" in secure.http.get("/").headers["set-cookie"]


# --- the store ------------------------------------------------------------------------------

NOW = 1_800_000_000.0


def accounts(store: Store, *names: str) -> list[int]:
    made = AccountStore(store)
    return [made.create(name, "en", f"handle-{name}", None, NOW).id for name in names]


def test_a_trace_is_written_again_only_after_a_while(store: Store) -> None:
    (ann,) = accounts(store, "Ann")
    traces = TraceStore(store)
    traces.seen(ann, None, None, NOW)  # no browser id, no address: nothing to keep
    assert traces.of(ann) == []
    traces.seen(ann, "b" * 32, "192.0.2.1", NOW)
    traces.seen(ann, "b" * 32, "192.0.2.1", NOW + SEEN_EVERY - 1)
    assert {(t.first_seen, t.last_seen) for t in traces.of(ann)} == {(NOW, NOW)}
    traces.seen(ann, "b" * 32, "192.0.2.1", NOW + SEEN_EVERY)
    assert {(t.first_seen, t.last_seen) for t in traces.of(ann)} == {(NOW, NOW + SEEN_EVERY)}
    later = NOW + SEEN_EVERY + SHARED_SECONDS + 1  # unseen for the window: a new span
    traces.seen(ann, "b" * 32, "192.0.2.1", later)
    assert {(t.first_seen, t.last_seen) for t in traces.of(ann)} == {
        (NOW, NOW + SEEN_EVERY),  # left alone, and deleted past the margin
        (later, later),
    }


def test_only_the_window_before_the_end_counts(store: Store) -> None:
    ann, bob = accounts(store, "Ann", "Bob")
    traces = TraceStore(store)
    traces.seen(ann, None, "192.0.2.1", NOW)
    traces.seen(bob, None, "192.0.2.2", NOW + 100)
    end = NOW + 50
    assert traces.traces([ann, bob], end) == {ann: traces.traces([ann], end)[ann], bob: frozenset()}
    assert len(traces.traces([ann], end)[ann]) == 1
    assert traces.traces([ann], NOW + SHARED_SECONDS + 1) == {ann: frozenset()}


def test_old_traces_are_deleted_and_an_account_keeps_its_newest(store: Store) -> None:
    ann, bob = accounts(store, "Ann", "Bob")
    traces = TraceStore(store)
    traces.seen(bob, None, "192.0.2.200", NOW)
    traces.seen(ann, None, "192.0.2.201", NOW + SHARED_SECONDS + PRUNE_MARGIN)
    assert len(traces.of(bob)) == 1  # unseen for the window, and not yet the margin
    start = NOW + SHARED_SECONDS + PRUNE_MARGIN + 1
    for number in range(TRACES_PER_ACCOUNT + 5):
        traces.seen(ann, None, f"192.0.2.{number}", start + number)
    assert traces.of(bob) == []  # gone with the next write
    kept = traces.of(ann)
    assert len(kept) == TRACES_PER_ACCOUNT
    assert min(t.last_seen for t in kept) == start + 5


def test_the_migration_makes_the_trace_tables_and_takes_them_back(store: Store) -> None:
    names = {"trace_keys", "account_traces"}
    assert names <= set(inspect(store.engine).get_table_names())
    store.downgrade("0017_traces-1")
    assert not names & set(inspect(store.engine).get_table_names())
    store.upgrade()
    assert names <= set(inspect(store.engine).get_table_names())


def test_the_rating_api_says_what_became_of_a_rated_table(served: Served) -> None:
    with devices(served, 1) as (ann,):
        signed_up((ann, "Ann"))
        code = create(ann, rated=False)["code"]
        not_rated = served.http.get(f"/api/ratings/tables/{code}")
        assert not_rated.json() == {"code": code, "pool": None, "outcome": None, "at": None}
        pending = served.http.get(f"/api/ratings/tables/{create(ann)['code'].lower()}")
        assert pending.json()["outcome"] == "pending"
        bad = served.http.get("/api/ratings/tables/NOT-A-CODE")
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "code"
