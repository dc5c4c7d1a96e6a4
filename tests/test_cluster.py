"""The commands on a real Ray cluster: a head and two one-CPU workers on loopback.

One cluster for the module (starting one takes seconds): the head with no CPU, so
every task runs on a worker; token authentication on, with a token of the test's own;
the dashboard off. Every command's output on the cluster is compared with the same
command run here: the results are the local run's, in the same order.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from triominos.arena import ArenaConfig, play_games
from triominos.bots import Budget
from triominos.cli import main
from triominos.cluster import connect
from triominos.rules import PRESETS

HOST = "127.0.0.2"
"""The cluster's address: loopback, and not 127.0.0.1, which Ray 2.60 replaces by the
machine's outward address (docs/cluster.md)."""
SRC = Path(__file__).resolve().parent.parent / "src"
TASK = "ray::_call"
"""The title of a worker process while it runs one of our tasks."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def cluster_processes(temp_dir: str) -> list[int]:
    """Every process of the cluster: those whose command line names its temporary
    directory, and their children (the workers, titled ``ray::...``)."""
    parents: dict[int, int] = {}
    named: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents[int(entry.name)] = parent
        if temp_dir.encode() in command:
            named.add(int(entry.name))
    return sorted(named | {pid for pid, parent in parents.items() if parent in named})


def ray_environment(token_file: Path) -> dict[str, str]:
    """What every node and the driver share: the token, the source, no usage reports."""
    return {
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token_file),
        "RAY_USAGE_STATS_ENABLED": "0",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])),
    }


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a running cluster, torn down at the end (even after a failure)."""
    if importlib.util.find_spec("ray") is None:
        pytest.skip("needs the cluster extra (ray)")
    # Short: the nodes' Unix sockets live under it, and their paths have a length limit.
    temp_dir = tempfile.mkdtemp(prefix="trc")
    token_file = Path(temp_dir) / "token"
    token_file.write_text(secrets.token_hex(32))
    shared = ray_environment(token_file)
    saved = {name: os.environ.get(name) for name in shared}
    os.environ.update(shared)  # the driver: this process
    address = f"{HOST}:{free_port()}"
    ray_cli = str(Path(sys.executable).with_name("ray"))
    common = [
        f"--node-ip-address={HOST}",
        "--object-store-memory=80000000",
        "--disable-usage-stats",
        "--block",
    ]
    nodes: list[subprocess.Popen[bytes]] = []
    try:
        head = [
            *("start", "--head", f"--port={address.rpartition(':')[2]}", "--num-cpus=0"),
            *("--include-dashboard=false", f"--temp-dir={temp_dir}"),
        ]
        nodes.append(subprocess.Popen([ray_cli, *head, *common], stdout=subprocess.DEVNULL))
        wait_for_port(address)
        ray = connect(address)  # as the commands do: the driver at the address's host
        # One at a time: two raylets starting at once on one address can crash.
        for cpus in (1, 2):
            worker = ["start", f"--address={address}", "--num-cpus=1"]
            nodes.append(subprocess.Popen([ray_cli, *worker, *common], stdout=subprocess.DEVNULL))
            deadline = time.monotonic() + 60
            while ray.cluster_resources().get("CPU", 0) < cpus:
                assert time.monotonic() < deadline, f"worker {cpus} did not join"
                time.sleep(0.2)
        yield address
    finally:
        if "ray" in sys.modules:
            sys.modules["ray"].shutdown()
        for node in reversed(nodes):
            node.send_signal(signal.SIGTERM)
        for node in reversed(nodes):
            try:
                node.wait(timeout=20)
            except subprocess.TimeoutExpired:
                node.kill()
        for pid in cluster_processes(temp_dir):  # whatever a node left behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp_dir, ignore_errors=True)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def wait_for_port(address: str) -> None:
    host, _, port = address.rpartition(":")
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, f"the head did not listen on {address}"
            time.sleep(0.2)


def run(*arguments: str) -> Result:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exit_code == 0, result.output
    return result


def without_timing(output: str) -> list[str]:
    """The output's words less what depends on the machine's speed: the time line, the
    milliseconds a move (the arena table's last column) and the table's rule, as wide
    as they are."""
    lines = []
    for line in output.splitlines():
        cells = line.split()
        if not cells or cells[0] == "time:" or set(line.strip()) == {"\u2500"}:
            continue
        lines.append(cells[:-1] if cells[0] in ("greedy", "expert") else cells)
    return [" ".join(cells) for cells in lines]


ARENA = ("arena", "--bots", "greedy,expert", "--matches", "40", "--target", "200", "--seed", "9")


def test_an_arena_of_40_matches_is_the_same_on_the_cluster(cluster: str, tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    here = run(*ARENA, "--out", str(tmp_path / "here" / "games.jsonl"))
    there = run(*ARENA, "--out", str(tmp_path / "there" / "games.jsonl"), "--ray", cluster)
    assert without_timing(there.stdout.replace("there", "here")) == without_timing(here.stdout)
    records = [(tmp_path / place / "games.jsonl").read_bytes() for place in ("here", "there")]
    assert records[0] == records[1]
    assert "40 classic matches" in here.stdout


def test_a_killed_worker_is_retried_and_the_result_is_unchanged(cluster: str) -> None:
    config = ArenaConfig(
        PRESETS["classic"].rules.replace(target_score=200),
        ("greedy", "expert"),
        Budget(simulations=10),
        groups=15,
        seed=40,
    )
    expected = [result.without_record() for result in play_games(config)]
    results: list[object] = []
    runner = threading.Thread(
        target=lambda: results.extend(play_games(config, ray=cluster)), daemon=True
    )
    runner.start()
    killed = kill_a_busy_worker(runner)
    runner.join(timeout=300)
    assert killed is not None, "no task was seen running"
    assert [same_game(result) for result in results] == [same_game(r) for r in expected]


def kill_a_busy_worker(runner: threading.Thread) -> int | None:
    """Kill (SIGKILL) the first worker process seen running a task; its pid."""
    while runner.is_alive():
        for entry in Path("/proc").iterdir():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if entry.name.isdigit() and title.startswith(TASK.encode()):
                os.kill(int(entry.name), signal.SIGKILL)
                return int(entry.name)
        time.sleep(0.05)
    return None


def same_game(result: object) -> object:
    """A game's result less the seconds each seat thought."""
    from dataclasses import replace

    return replace(result, thinking=())  # type: ignore[type-var]
