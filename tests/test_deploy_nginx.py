"""The service behind a real nginx with the configuration of docs/deploy/nginx.conf:
pages, the API and WebSockets pass through, the service sees each client's own address
(a client cannot pick another one to dodge its limits), and a rebound name is refused."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
websockets_client = pytest.importorskip("websockets.sync.client")

from conftest import LiveServerFactory, free_port  # noqa: E402

SITE = Path(__file__).resolve().parent.parent / "docs" / "deploy" / "nginx.conf"
NGINX = "/usr/sbin/nginx"


def nginx_config(folder: Path, port: int, upstreams: Sequence[int]) -> Path:
    """The deploy site file on loopback ports, its upstream the nodes on ``upstreams``,
    inside a main file of the test's own."""
    site = SITE.read_text()
    site, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    nodes = re.findall(r"^ *server 127\.0\.0\.1:800\d (.*);$", site, re.MULTILINE)
    assert listens == 1 and len(nodes) == 3, "docs/deploy/nginx.conf changed shape"
    lines = "".join(f"    server 127.0.0.1:{upstream} {nodes[0]};\n" for upstream in upstreams)
    site = re.sub(r"(^ *server 127\.0\.0\.1:800\d .*;\n)+", lines, site, flags=re.MULTILINE)
    (folder / "site.conf").write_text(site)
    main = folder / "nginx.conf"
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main.write_text(
        f"worker_processes 1; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; {temp} include {folder / 'site.conf'}; }}\n"
    )
    return main


@contextmanager
def nginx_in_front(folder: Path, port: int, upstreams: Sequence[int]) -> Iterator[str]:
    """nginx on loopback ``port`` in front of the nodes on ``upstreams``; the URL
    people reach them at."""
    folder.mkdir()
    config = nginx_config(folder, port, upstreams)
    public = f"http://127.0.0.1:{port}"
    nginx = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(config), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{public}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert nginx.poll() is None, nginx.stderr.read().decode() if nginx.stderr else ""
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield public
    finally:
        nginx.terminate()
        nginx.wait(10)


@pytest.fixture
def behind_nginx(live_server: LiveServerFactory, tmp_path: Path) -> Iterator[str]:
    """A live server behind nginx; the URL people reach it at."""
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    server = live_server(TRIOMINOS_ALLOWED_ORIGIN=public, TRIOMINOS_TRUSTED_PROXY="127.0.0.1")
    with nginx_in_front(tmp_path / "nginx", port, [server.port]) as url:
        yield url


def test_play_through_nginx(behind_nginx: str) -> None:
    http = httpx.Client(base_url=behind_nginx, timeout=20)
    created = http.post(
        "/api/tables",
        json={
            "preset": "classic",
            "players": 2,
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
            "take": [0],
        },
    )
    assert created.status_code == 201, created.text
    answer = created.json()
    assert answer["link"] == f"{behind_nginx}/t/{answer['code']}"  # the public address
    ws_url = behind_nginx.replace("http://", "ws://")
    with websockets_client.connect(
        f"{ws_url}/ws/{answer['code']}", additional_headers={"Origin": behind_nginx}
    ) as socket:
        socket.send(json.dumps({"type": "hello", "token": answer["seats"][0]["token"]}))
        welcome = json.loads(socket.recv(timeout=20))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        while not welcome["view"]["legal"]:
            welcome = json.loads(socket.recv(timeout=20))
        move = welcome["view"]["legal"][0]["action"]
        version = welcome["view"]["version"]
        socket.send(json.dumps({"type": "action", "id": "a", "version": version, "action": move}))
        while (message := json.loads(socket.recv(timeout=20))).get("id") != "a":
            pass
        assert message["type"] == "event" and message["version"] == version + 1
    assert http.get("/").status_code == 200


def test_a_client_behind_nginx_cannot_pick_its_address(behind_nginx: str) -> None:
    """nginx sends the client's own address; one it makes up does not reset its limits."""
    http = httpx.Client(base_url=behind_nginx, timeout=20)
    answers: list[int] = []
    while len(answers) < 1000 and 429 not in answers:  # the bucket refills at 2/s
        made_up = {"X-Forwarded-For": f"192.0.2.{len(answers) % 250}"}
        answers.append(http.get("/api/tables/ZZZZZZ", headers=made_up).status_code)
    assert 429 in answers


def test_a_rebound_name_is_refused_behind_nginx(behind_nginx: str) -> None:
    answer = httpx.get(f"{behind_nginx}/api/presets", headers={"Host": "evil.example"})
    assert answer.status_code == 421 and answer.json()["error"]["code"] == "bad_host"
