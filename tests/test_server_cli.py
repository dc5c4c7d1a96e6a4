"""``triominos serve``: its options, and a database it cannot use in one line."""

from __future__ import annotations

import datetime
import gc
import json
import socket
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner

from conftest import LiveServerFactory
from triominos.cli import main
from triominos.cli.serve import FULL_COLLECTION_EVERY, settle_garbage_collector, this_node_url
from triominos.server.store import Store


def test_serve_has_help() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database", "--allowed-origin", "--trusted-proxy"):
        assert option in result.output


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://db/games", "unsupported database 'mysql'"),
        ("not a url", "not a database URL"),
        (
            "postgresql://nobody@127.0.0.1:1/games",
            "cannot use postgresql://nobody@127.0.0.1:1/games",
        ),
        ("sqlite:////proc/no-such-folder/games.db", "cannot make the folder /proc/no-such-folder"),
    ],
)
def test_a_database_it_cannot_use_is_one_line_and_status_2(url: str, words: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--database", url])
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_a_port_out_of_range_is_refused() -> None:
    result = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "--port" in result.output


def test_serve_creates_its_sqlite_database_on_first_start(live_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "fresh" / "games.db"
    server = live_server(database_url=f"sqlite:///{database}")
    assert database.is_file()
    assert "serving on" in server.log()


def test_serving_hides_what_lives_forever_from_the_collector_and_makes_full_passes_rare() -> None:
    threshold = gc.get_threshold()
    try:
        settle_garbage_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (threshold[0], threshold[1], FULL_COLLECTION_EVERY)
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


@pytest.mark.parametrize("origin", ["triominos.example", "ftp://x.example", "https://x.example/a"])
def test_an_allowed_origin_that_is_not_one_is_one_line_and_status_2(
    origin: str, tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'games.db'}"
    result = CliRunner().invoke(main, ["serve", "--database", database, "--allowed-origin", origin])
    assert result.exit_code == 2 and "--allowed-origin: not an origin" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.db'}"
    result = CliRunner().invoke(main, ["serve", "--database", database, "--trusted-proxy", "nginx"])
    assert result.exit_code == 2
    assert "--trusted-proxy: not an address or a network: 'nginx'" in result.output


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (
            ["--database", "sqlite:///{folder}/games.db", "--node-url", "http://10.0.0.2:8001"],
            "--node-url: several nodes need one PostgreSQL database",
        ),
        (
            ["--database", "postgresql://nobody@127.0.0.1:1/games", "--node-url", "10.0.0.2"],
            "--node-url: '10.0.0.2' is not http://HOST:PORT",
        ),
    ],
)
def test_node_options_that_cannot_work_are_one_line_and_status_2(
    arguments: list[str], words: str, tmp_path: Path
) -> None:
    given = [argument.format(folder=tmp_path) for argument in arguments]
    result = CliRunner().invoke(main, ["serve", *given])
    assert result.exit_code == 2 and words in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_node_is_reached_at_its_host_and_port_unless_told(tmp_path: Path) -> None:
    sqlite = Store(f"sqlite:///{tmp_path / 'games.db'}")
    postgres = Store("postgresql://triominos@db/triominos")
    everywhere = f"http://{socket.gethostname()}:8001"
    assert this_node_url(sqlite, "0.0.0.0", 8001, None) == everywhere
    assert this_node_url(postgres, "::", 8001, None) == everywhere
    assert this_node_url(postgres, "10.0.0.2", 8001, None) == "http://10.0.0.2:8001"
    assert this_node_url(postgres, "::1", 8001, None) == "http://[::1]:8001"
    assert this_node_url(postgres, "::", 8001, "http://node2:8001") == "http://node2:8001"


def test_a_node_that_cannot_be_reached_at_its_node_url_says_so_and_exits_1(
    live_server: LiveServerFactory, postgres_url: str
) -> None:
    """An unreachable --node-url went unnoticed: the node served, and its tables
    answered 503 after 7.1 s through the other nodes."""
    with socket.create_server(("127.0.0.1", 0)) as closed:
        nobody = f"http://127.0.0.1:{closed.getsockname()[1]}"
    server = live_server(postgres_url, TRIOMINOS_NODE_URL=nobody)
    deadline = time.monotonic() + 120
    while server.returncode is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.returncode == 1, server.log()
    assert f"--node-url {nobody}: this node cannot be reached there" in server.log()


def test_json_logs_are_one_object_a_line_with_the_time(live_server: LiveServerFactory) -> None:
    server = live_server(TRIOMINOS_LOG_FORMAT="json")
    lines = [line for line in server.log().splitlines() if not line.startswith("triominos:")]
    records = [json.loads(line) for line in lines]  # every line of the log, uvicorn's too
    assert {"triominos.server", "uvicorn.error"} <= {record["logger"] for record in records}
    for record in records:
        assert set(record) >= {"time", "level", "logger", "message"}
        assert datetime.datetime.fromisoformat(record["time"]).tzinfo is not None
