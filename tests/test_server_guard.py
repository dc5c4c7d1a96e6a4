"""The guard in front of every route, tried as an attacker would (issue 13): a lying Host
or Origin, cross-site posts, huge bodies, floods from one address, private codes."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette")

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from server_games import WAIT_SECONDS, Served, serve_app
from triominos.server.guard import (
    BOT_TABLES_PER_ADDRESS,
    LIMIT,
    LIMITS,
    OriginError,
    Origins,
    ProxyError,
    TrustedProxies,
    limit_of,
)
from triominos.server.protocol import BOT_TABLE_IDLE_SECONDS, MAX_BODY_BYTES
from triominos.server.proxy import CLIENT_HEADER, NODE_HEADER

LOOPBACK = ["127.0.0.1"]
"""The tests' own proxy: they play clients of many addresses from one machine."""


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


# --- Host and Origin --------------------------------------------------------------------


def test_a_host_the_server_was_not_told_is_refused(served_sqlite: Served) -> None:
    """DNS rebinding: evil.example now resolves to 127.0.0.1, the browser sends its name."""
    http = served_sqlite.http
    answer = http.get("/api/presets", headers={"Host": "evil.example"})
    assert error_of(answer, 421)["code"] == "bad_host"
    assert http.get("/api/presets").status_code == 200  # 127.0.0.1:port, as served
    port = served_sqlite.base_url.rsplit(":", 1)[1]
    assert http.get("/api/presets", headers={"Host": f"localhost:{port}"}).status_code == 200
    assert error_of(http.get("/", headers={"Host": "127.0.0.1:1"}), 421)["code"] == "bad_host"


def test_a_websocket_from_a_rebound_name_or_another_origin_never_opens(
    served_sqlite: Served,
) -> None:
    code = served_sqlite.create()["code"]
    url = f"{served_sqlite.ws_url}/ws/{code}"
    for headers in (
        {"Host": "evil.example", "Origin": "http://evil.example"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
    ):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, additional_headers=headers, open_timeout=10)
        assert refused.value.response.status_code == 403
    with connect(url, additional_headers={"Origin": served_sqlite.base_url}) as allowed:
        allowed.send(json.dumps({"type": "hello"}))
        assert json.loads(allowed.recv(timeout=10))["type"] == "welcome"


def test_a_cross_site_form_cannot_create_a_table(served_sqlite: Served) -> None:
    http = served_sqlite.http
    body = json.dumps({"preset": "classic", "players": 2, "seats": []})
    plain = http.post("/api/tables", content=body, headers={"Content-Type": "text/plain"})
    assert error_of(plain, 415)["code"] == "bad_content_type"
    other = http.post(
        "/api/tables",
        content=body,
        headers={"Content-Type": "application/json", "Origin": "https://evil.example"},
    )
    assert error_of(other, 403)["code"] == "bad_origin"
    fetched = http.post(
        "/api/pad/games",
        json={"preset": "classic", "players": ["A", "B"]},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert error_of(fetched, 403)["code"] == "bad_origin"
    assert http.get("/api/tables").json() == {"tables": []}


def test_allowed_origins_are_what_the_operator_says() -> None:
    origins = Origins.parse(["https://triominos.example", "http://10.1.2.3:8080/"])
    assert origins.host_allowed("triominos.example", 443, None)
    assert origins.host_allowed("10.1.2.3", 8080, None)
    assert not origins.host_allowed("triominos.example", 80, None)
    assert origins.host_allowed("127.0.0.1", 8000, ("127.0.0.1", 8000))
    assert origins.host_allowed("localhost", 8000, ("127.0.0.1", 8000))
    assert not origins.host_allowed("localhost", 8000, ("192.0.2.7", 8000))
    assert not origins.host_allowed("rebound.example", 8000, ("127.0.0.1", 8000))
    for wrong in ("triominos.example", "ftp://x.example", "https://x.example/path"):
        with pytest.raises(OriginError, match="not an origin"):
            Origins.parse([wrong])


# --- bodies -----------------------------------------------------------------------------


def raw_post(
    served: Served, path: str, head: dict[str, str], chunks: list[bytes]
) -> tuple[int, dict[str, Any]]:
    """A POST written by hand: a length that lies, or a body streamed in chunks."""
    host, port = served.base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    try:
        connection.putrequest("POST", path)
        for name, value in {"Content-Type": "application/json", **head}.items():
            connection.putheader(name, value)
        connection.endheaders()
        for chunk in chunks:
            try:
                connection.send(chunk)
            except OSError:
                break  # the server answered and closed: it read no further
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


@pytest.mark.parametrize("path", ["/api/tables", "/api/pad/games", "/api/tables/ABCDEF/join"])
def test_a_body_over_the_limit_is_refused_before_it_is_read(
    served_sqlite: Served, path: str
) -> None:
    status, body = raw_post(served_sqlite, path, {"Content-Length": str(200 * 1024 * 1024)}, [b"{"])
    assert status == 413 and body["error"]["code"] == "too_large"


def test_a_streamed_body_is_counted_while_it_is_read(served_sqlite: Served) -> None:
    chunk = b" " * 8192
    chunks = [b"%x\r\n" % len(chunk) + chunk + b"\r\n"] * (MAX_BODY_BYTES // len(chunk) + 2)
    status, body = raw_post(
        served_sqlite, "/api/pad/games", {"Transfer-Encoding": "chunked"}, [*chunks, b"0\r\n\r\n"]
    )
    assert status == 413 and body["error"]["code"] == "too_large"


# --- rates ------------------------------------------------------------------------------


def test_every_route_counts_against_its_limit() -> None:
    assert limit_of("POST", "/api/tables").name == "create"
    assert limit_of("POST", "/api/pad/games").name == "create"
    assert limit_of("POST", "/api/tables/ABC/join").name == "join"
    assert limit_of("POST", "/api/tables/ABC/seats/1/bot").name == "change"
    assert limit_of("GET", "/api/tables").name == "list"
    assert limit_of("GET", "/api/tables/ABC").name == "look_up"
    assert limit_of("WEBSOCKET", "/ws/ABC").name == "look_up"
    assert limit_of("GET", "/api/tables/ABC/record").name == "record"
    assert limit_of("POST", "/api/pad/games/x/entries").name == "pad"
    assert limit_of("POST", "/api/puzzles/browsers").name == "create"
    assert limit_of("POST", "/api/puzzles/abc/attempts").name == "puzzle"
    assert limit_of("GET", "/api/puzzles/next").name == "puzzle"
    assert limit_of("GET", "/static/app.js").name == "page"


def look_up_until_refused(served: Served, headers: Callable[[int], dict[str, str]]) -> list[int]:
    """GET /api/tables/ZZZZZZ until 429 (at most 1,000: the bucket refills at 2/s), the
    n-th with ``headers(n)``; the statuses."""
    codes: list[int] = []
    while len(codes) < 1000 and 429 not in codes:
        answer = served.http.get("/api/tables/ZZZZZZ", headers=headers(len(codes)))
        codes.append(answer.status_code)
        if answer.status_code == 429:
            assert error_of(answer, 429)["code"] == "rate_limited"
            assert int(answer.headers["Retry-After"]) >= 1
    return codes


def test_guessing_codes_is_rate_limited_per_address(sqlite_url: str) -> None:
    """Code guessing ran at 660 look-ups a second: now a burst, then 429."""
    look_up = LIMIT["look_up"]
    with serve_app(sqlite_url, trusted_proxies=LOOPBACK) as served:
        codes = look_up_until_refused(served, lambda _: {})
        assert codes[: look_up.burst] == [404] * look_up.burst and codes[-1] == 429
        other = {"X-Forwarded-For": "198.51.100.7"}  # another client behind the proxy
        assert served.http.get("/api/tables/ZZZZZZ", headers=other).status_code == 404


def test_a_forwarded_address_from_anyone_but_a_trusted_proxy_is_ignored(
    served_sqlite: Served,
) -> None:
    """A new X-Forwarded-For each time from 127.0.0.1 made 100 of 100 look-ups and 30 of
    30 creations: without --trusted-proxy the header counts for nothing."""
    codes = look_up_until_refused(
        served_sqlite, lambda n: {"X-Forwarded-For": f"192.0.2.{n % 250}"}
    )
    assert codes[-1] == 429 and len(codes) < 200
    made_up = {"X-Forwarded-For": "not an address"}
    assert served_sqlite.http.get("/api/presets", headers=made_up).status_code == 200


def test_a_trusted_proxy_names_the_client_by_its_right_most_untrusted_address(
    sqlite_url: str,
) -> None:
    """Behind a trusted proxy, the address it saw counts: the client's own addresses to
    its left change nothing, and a header that is no list of addresses is refused."""
    with serve_app(sqlite_url, trusted_proxies=["127.0.0.1", "10.0.0.0/8"]) as served:
        codes = look_up_until_refused(
            served, lambda n: {"X-Forwarded-For": f"192.0.2.{n % 250}, 198.51.100.7, 10.1.2.3"}
        )
        assert codes[-1] == 429 and len(codes) < 200
        fresh = {"X-Forwarded-For": "203.0.113.9"}
        assert served.http.get("/api/tables/ZZZZZZ", headers=fresh).status_code == 404
        for garbage in ("evil", "198.51.100.7, <script>", "1.2.3.4.5", ""):
            refused = served.http.get("/api/presets", headers={"X-Forwarded-For": garbage})
            assert error_of(refused, 400)["code"] == "bad_forwarded", garbage
        url = f"{served.ws_url}/ws/ZZZZZZ"
        with pytest.raises(InvalidStatus) as refused_socket:
            connect(url, additional_headers={"X-Forwarded-For": "evil"})
        assert refused_socket.value.response.status_code == 403


def test_a_trusted_proxy_must_be_an_address_or_a_network() -> None:
    assert TrustedProxies.parse(["127.0.0.1", "2001:db8::/32"]).trusts("2001:db8::1")
    with pytest.raises(ProxyError, match="not an address or a network: 'nginx'"):
        TrustedProxies.parse(["nginx"])


def test_the_limits_are_in_protocol_md() -> None:
    from pathlib import Path

    protocol = (Path(__file__).resolve().parent.parent / "PROTOCOL.md").read_text()
    for limit in LIMITS:
        assert f"| `{limit.name}` | {limit.per_minute} | {limit.burst} |" in protocol, limit


# --- waiting tables ---------------------------------------------------------------------


def create_from(served: Served, address: str, players: int = 2) -> Any:
    """POST /api/tables of a table waiting for ``players`` people, from ``address``."""
    return served.http.post(
        "/api/tables",
        json={"preset": "classic", "players": players, "seats": [{"kind": "person"}] * players},
        headers={"X-Forwarded-For": address},
    )


def test_one_address_cannot_fill_the_server_with_waiting_tables(sqlite_url: str) -> None:
    """2,000 six-seat waiting tables in 12 s grew the server by 526 MB: now one address
    keeps a few waiting, and the server a bounded number in all."""
    with serve_app(
        sqlite_url, waiting_per_address=3, waiting_in_all=5, trusted_proxies=LOOPBACK
    ) as served:
        assert [create_from(served, "192.0.2.1").status_code for _ in range(3)] == [201] * 3
        mine = create_from(served, "192.0.2.1")
        assert error_of(mine, 429)["code"] == "too_many_tables"
        assert [create_from(served, "192.0.2.2").status_code for _ in range(2)] == [201] * 2
        played = served.http.post(  # a table that starts at once waits for nobody
            "/api/tables",
            json={
                "preset": "classic",
                "players": 2,
                "seats": [{"kind": "bot", "bot": "greedy"}] * 2,
            },
            headers={"X-Forwarded-For": "192.0.2.3"},
        )
        assert played.status_code == 201


def test_a_full_server_makes_room_for_a_new_address(sqlite_url: str) -> None:
    """200 addresses, 5 tables each, filled the server's 1,000 waiting tables in 18.8 s, and
    every honest table got 503 busy for a day: now a new table takes the place of the
    oldest table nobody joined of the address that holds the most."""
    with serve_app(
        sqlite_url, waiting_per_address=3, waiting_in_all=5, trusted_proxies=LOOPBACK
    ) as served:
        flood = [create_from(served, "192.0.2.1").json()["code"] for _ in range(3)]
        other = [create_from(served, "192.0.2.2").json()["code"] for _ in range(2)]
        honest = create_from(served, "198.51.100.7")
        assert honest.status_code == 201, honest.text
        assert served.http.get(f"/api/tables/{flood[0]}").status_code == 404
        for code in [*flood[1:], *other, honest.json()["code"]]:
            assert served.http.get(f"/api/tables/{code}").status_code == 200
        # Now 2, 2 and 1: the tie goes against the older table, the flood's again.
        assert create_from(served, "203.0.113.9").status_code == 201
        assert served.http.get(f"/api/tables/{flood[1]}").status_code == 404
        assert served.http.get(f"/api/tables/{other[0]}").status_code == 200


def test_a_server_full_of_watched_or_joined_tables_is_busy(sqlite_url: str) -> None:
    """Only a table nobody joined nor watches makes room: a full server of tables people
    are waiting at answers 503 busy."""
    with serve_app(
        sqlite_url, waiting_per_address=3, waiting_in_all=2, trusted_proxies=LOOPBACK
    ) as served:
        joined = create_from(served, "192.0.2.1", players=3).json()["code"]
        served.join(joined)
        watched = create_from(served, "192.0.2.2").json()["code"]
        with served.viewer(watched):
            full = create_from(served, "198.51.100.7")
            assert error_of(full, 503)["code"] == "busy" and full.headers["Retry-After"]
        assert served.http.get(f"/api/tables/{joined}").status_code == 200


def test_a_table_nobody_joined_expires_in_minutes_one_joined_in_a_day(sqlite_url: str) -> None:
    with serve_app(sqlite_url, waiting_seconds=86400, unjoined_seconds=1200) as served:
        lonely = served.create()["code"]
        joined = served.create(players=3, seats=[{"kind": "person"}] * 3)["code"]
        served.join(joined)
        served.later(1201)
        assert served.run(served.service.sweep()) == [lonely]
        served.later(86400)
        assert served.run(served.service.sweep()) == [joined]


def test_abandoned_waiting_tables_expire_and_leave_memory(sqlite_url: str) -> None:
    with serve_app(sqlite_url, waiting_seconds=3600, unjoined_seconds=3600) as served:
        old = served.create()["code"]
        watched = served.create()["code"]
        with served.viewer(watched):
            served.later(3601)
            expired = served.run(served.service.sweep())
        assert expired == [old]  # the watched one is not abandoned
        assert error_of(served.http.get(f"/api/tables/{old}"), 404)["code"] == "not_found"
        assert served.http.get(f"/api/tables/{watched}").status_code == 200
        served.run(served.service.sweep())  # nobody watches it now: it leaves memory
        assert watched not in served.service.tables


def test_two_thousand_tables_from_one_address_make_a_handful(served_sqlite: Served) -> None:
    """The attack of the issue, as it was made: 2,000 creations in a row."""
    body = {"preset": "classic", "players": 6, "seats": [{"kind": "person"}] * 6}
    began = time.monotonic()
    answers = [served_sqlite.http.post("/api/tables", json=body).status_code for _ in range(2000)]
    refilled = (time.monotonic() - began) * LIMIT["create"].per_minute / 60  # a token in 6 s
    assert LIMIT["create"].burst <= answers.count(201) <= LIMIT["create"].burst + refilled + 1
    assert set(answers) == {201, 429}
    assert len(served_sqlite.service.tables) == answers.count(201)


def test_waiting_tables_are_not_loaded_at_start(sqlite_url: str) -> None:
    """2,000 waiting tables were all replayed into memory at every start."""
    with serve_app(sqlite_url) as served:
        waiting = served.create()["code"]
        playing = served.create(seats=[{"kind": "person"}] * 2, take=[0, 1])["code"]
    with serve_app(sqlite_url) as served:
        assert set(served.service.tables) == {playing}  # its turn timer and bots resume
        assert served.http.get(f"/api/tables/{waiting}").status_code == 200  # loaded now


def test_a_bot_thinks_at_most_ten_seconds_a_move(served_sqlite: Served) -> None:
    body = {
        "preset": "classic",
        "players": 2,
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "sim", "think": 60}],
    }
    refused = error_of(served_sqlite.http.post("/api/tables", json=body), 400)
    assert refused["field"] == "seats[1].think"


def test_health_and_readiness(served: Served) -> None:
    assert served.http.get("/healthz").json() == {"alive": True}
    assert served.http.get("/readyz").json() == {"ready": True}


def test_metrics_count_actions_tables_connections_and_the_bot_queue(served: Served) -> None:
    code = served.create(preset="classic-children", seats=[{"kind": "bot", "bot": "greedy"}] * 2)[
        "code"
    ]
    with served.viewer(code) as watcher:
        watcher.until(lambda message: message["type"] == "event")
        text = served.http.get("/metrics").text
    figures = dict(
        line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#")
    )
    accepted = int(figures['triominos_actions_total{outcome="accepted"}'])
    assert accepted >= 1
    assert int(figures['triominos_action_seconds_bucket{le="+Inf"}']) == accepted
    assert int(figures["triominos_action_seconds_count"]) == accepted
    assert (
        int(figures['triominos_tables{status="playing"}'])
        + int(figures['triominos_tables{status="finished"}'])
        == 1
    )
    assert figures["triominos_connections"] == "1"
    assert "triominos_bot_queue" in figures and figures["triominos_storage_failing"] == "0"


def test_one_address_holds_a_bounded_number_of_connections(sqlite_url: str) -> None:
    with serve_app(sqlite_url, connections_per_address=3, trusted_proxies=LOOPBACK) as served:
        code = served.create()["code"]
        url = f"{served.ws_url}/ws/{code}"
        spoofed = {"X-Forwarded-For": "203.0.113.9"}
        held = [connect(url, additional_headers=spoofed, legacy=True) for _ in range(3)]
        try:
            with connect(url, additional_headers=spoofed) as one_more:
                refusal = json.loads(one_more.recv(timeout=10))
                assert refusal["code"] == "too_many_connections"
            with connect(url) as elsewhere:  # another address is not counted with it
                elsewhere.send(json.dumps({"type": "hello"}))
                assert json.loads(elsewhere.recv(timeout=10))["type"] == "welcome"
        finally:
            for connection in held:
                connection.close()


def test_only_a_node_that_knows_this_nodes_secret_speaks_for_a_client(
    served_sqlite: Served,
) -> None:
    """A request proxied by another node counts as its client, never as the node; the
    client header without this node's own secret is not believed."""
    answers: list[int] = []
    while len(answers) < 1000 and 429 not in answers:
        forged = {NODE_HEADER: "a guess", CLIENT_HEADER: f"198.51.100.{len(answers) % 250}"}
        answers.append(served_sqlite.http.get("/api/tables/ZZZZZZ", headers=forged).status_code)
    assert answers[-1] == 429  # one address, whatever the header said
    hop = {NODE_HEADER: served_sqlite.service.node.secret, CLIENT_HEADER: "198.51.100.9"}
    answer = served_sqlite.http.get("/api/tables/ZZZZZZ", headers={**hop, "Host": "evil.example"})
    assert answer.status_code == 404  # checked by the node it reached first, not here


# --- tables of bots only ----------------------------------------------------------------


def test_one_address_plays_a_bounded_number_of_bot_tables_to_a_bounded_end(
    sqlite_url: str,
) -> None:
    """40 tables of bots with target_score 10**12 from one address played on for ever:
    the target is bounded, and an address has at most a few bot tables played at once."""
    with serve_app(sqlite_url, bot_delay=60.0) as served:  # the bots wait: still played
        bots = [{"kind": "bot", "bot": "greedy"}] * 2
        endless = served.create(400, seats=bots, options={"target_score": 10**12})
        assert endless["error"]["field"] == "options.target_score"
        assert "from 1 to 10000" in endless["error"]["message"]
        for _ in range(BOT_TABLES_PER_ADDRESS):
            served.create(seats=bots)
        refused = error_of(
            served.http.post(
                "/api/tables", json={"preset": "classic", "players": 2, "seats": bots}
            ),
            429,
        )
        assert refused["code"] == "too_many_tables"


def test_a_bot_table_nobody_watches_waits_for_a_viewer(served_sqlite: Served) -> None:
    """Bot tables played on with nobody there, and were replayed at every restart: one
    that nobody has watched for BOT_TABLE_IDLE_SECONDS is suspended until someone looks."""
    code = served_sqlite.create(
        players=4, seats=[{"kind": "bot", "bot": "greedy"}] * 4, options={"target_score": 10_000}
    )["code"]
    table = served_sqlite.service.tables[code]
    served_sqlite.later(BOT_TABLE_IDLE_SECONDS + 1)

    async def resting() -> bool:
        return table.bot_task is None  # set and cleared on the loop: final once None

    deadline = time.monotonic() + WAIT_SECONDS
    while not served_sqlite.run(resting()):
        assert time.monotonic() < deadline, "its bots played on for nobody"
        time.sleep(0.05)
    assert table.playing
    stopped = table.version
    assert served_sqlite.run(resting()) and table.version == stopped
    with served_sqlite.viewer(code) as watcher:
        watcher.until(lambda message: message.get("version", 0) > stopped)
