"""The load script runs end to end on a tiny load and prints every figure (speed is not tested)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

# The script drives a real server with httpx and websockets.
pytest.importorskip("starlette")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"


def run_load(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def figure(output: str, label: str, pattern: str) -> tuple[str, ...]:
    match = re.search(rf"^{re.escape(label)}: {pattern}$", output, re.MULTILINE)
    assert match, f"no {label!r} line in:\n{output}"
    return match.groups()


def test_two_tables_play_to_the_end_and_every_record_verifies() -> None:
    result = run_load(
        "--tables", "2", "--clients", "5", "--think", "0.01", "--target", "10",
        "--seconds", "30", "--echo-seconds", "0.5", "--processes", "1",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout
    number = r"(\d+(?:\.\d+)?)"
    (actions_per_second,) = figure(output, "actions/s", number)
    assert float(actions_per_second) > 0
    p50, p99 = figure(output, "latency p50/p99 ms", f"{number} / {number}")
    assert 0 < float(p50) <= float(p99)
    echo_p50, echo_p99 = figure(output, "echo p50/p99 ms", f"{number} / {number}")
    assert 0 < float(echo_p50) <= float(echo_p99)
    assert figure(output, "tables finished", r"(\d+) of (\d+)") == ("2", "2")
    assert figure(output, "records verified", r"(\d+) of (\d+)") == ("2", "2")
    assert figure(output, "actions lost", r"(\d+)") == ("0",)
    assert figure(output, "events missed", r"(\d+)") == ("0",)


def test_tables_with_a_bot_seat_count_its_moves_and_their_cpu() -> None:
    result = run_load(
        "--tables", "2", "--clients", "2", "--bots", "1", "--think", "0.01", "--target", "10",
        "--seconds", "30", "--echo-seconds", "0.5", "--processes", "1",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout
    assert figure(output, "records verified", r"(\d+) of (\d+)") == ("2", "2")
    moves, actions = figure(output, "bot moves", r"(\d+) of (\d+) actions")
    # One person against one bot: the bot moves about as often as the person.
    assert 0 < int(moves) < int(actions)
    number = r"(\d+\.\d+)"
    total, server, workers = figure(
        output, "cpu per bot move", f"{number} ms \\(server {number} ms, bot workers {number} ms\\)"
    )
    # The default level's bot (greedy) chooses on the event loop, in no worker process.
    assert float(workers) == 0 and float(server) > 0
    assert float(total) == pytest.approx(float(server) + float(workers), abs=0.011)


def test_clients_that_cannot_fill_the_tables_are_refused() -> None:
    result = run_load("--tables", "2", "--clients", "7")
    assert result.returncode == 2
    assert "--clients 7 cannot fill 2 tables of 2 to 3 person seats (between 4 and 6)" in (
        result.stderr
    )
    with_bots = run_load("--tables", "2", "--clients", "1", "--bots", "1")
    assert with_bots.returncode == 2
    assert "cannot fill 2 tables of 1 to 3 person seats (between 2 and 6)" in with_bots.stderr


def test_two_nodes_on_postgresql_play_tables_across_them_to_the_end(postgres_url: str) -> None:
    result = run_load(
        "--tables", "2", "--clients", "4", "--think", "0.01", "--target", "10",
        "--seconds", "30", "--echo-seconds", "0.5", "--processes", "1",
        "--nodes", "2", "--database", postgres_url,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout
    assert figure(output, "records verified", r"(\d+) of (\d+)") == ("2", "2")
    assert figure(output, "actions lost", r"(\d+)") == ("0",)
    (per_action,) = figure(output, "cpu per action", r"(\d+(?:\.\d+)?) ms")
    assert float(per_action) > 0
    (nodes,) = figure(output, "nodes for 10,000 tables", r"(\d+)")
    assert int(nodes) >= 1


def test_several_nodes_need_postgresql() -> None:
    result = run_load("--tables", "2", "--clients", "4", "--nodes", "2")
    assert result.returncode == 2
    assert "--nodes 2 needs --database postgresql://" in result.stderr
