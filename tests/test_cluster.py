"""The commands on a real Ray cluster: a head and two one-CPU workers on loopback.

One cluster for the module (starting one takes seconds,
:class:`~triominos.cluster.LoopbackCluster`): the head with no CPU, so every task runs
on a worker; token authentication on, with a token of its own; the dashboard off. Every
command's output on the cluster is compared with the same command run here: the
results are the local run's, in the same order.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from benchmark_runs import benchmark_figures
from triominos.arena import ArenaConfig, play_games
from triominos.bots import Budget
from triominos.cli import main
from triominos.cluster import RAY_MISSING, LoopbackCluster
from triominos.rules import PRESETS

TASK = "ray::_call"
"""The title of a worker process while it runs one of our tasks."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    """A head and two workers, torn down at the end (even after a failure)."""
    if importlib.util.find_spec("ray") is None:  # not importorskip: the cluster imports it
        pytest.skip("needs the cluster extra (Ray)")
    with LoopbackCluster(workers=2) as running:
        yield running


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


def test_an_arena_of_40_matches_is_the_same_on_the_cluster(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    here = run(*ARENA, "--out", str(tmp_path / "here" / "games.jsonl"))
    there = run(*ARENA, "--out", str(tmp_path / "there" / "games.jsonl"), "--ray", cluster.address)
    assert without_timing(there.stdout.replace("there", "here")) == without_timing(here.stdout)
    records = [(tmp_path / place / "games.jsonl").read_bytes() for place in ("here", "there")]
    assert records[0] == records[1]
    assert "40 classic matches" in here.stdout


def test_a_sequential_test_stops_at_the_same_pair_on_the_cluster(cluster: LoopbackCluster) -> None:
    sprt = ("arena", "--bots", "expert,random", "--sprt", "0,200", "--matches", "60", "--seed", "5")
    here = run(*sprt, "--target", "150")
    there = run(*sprt, "--target", "150", "--ray", cluster.address)
    assert without_timing(there.stdout) == without_timing(here.stdout)
    assert "accepted" in here.stdout  # it stopped before the matches ran out


def test_a_killed_worker_is_retried_and_the_result_is_unchanged(cluster: LoopbackCluster) -> None:
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
        target=lambda: results.extend(play_games(config, ray=cluster.address)), daemon=True
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


def test_a_ladder_is_the_same_on_the_cluster(cluster: LoopbackCluster) -> None:
    ladder = ("ladder", "--bots", "random,greedy,expert", "--pairs", "3", "--target", "150")
    here = run(*ladder, "--seed", "4")
    there = run(*ladder, "--seed", "4", "--ray", cluster.address)
    assert without_timing(there.stdout) == without_timing(here.stdout)
    assert "| expert |" in here.stdout


def test_a_selfplay_series_and_its_analysis_are_the_same_on_the_cluster(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    series = ("selfplay", "--players", "3", "--games", "6", "--target", "120", "--seed", "2")
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    here = run(*series, "--out", str(tmp_path / "here" / "games.jsonl"))
    there = run(*series, "--out", str(tmp_path / "there" / "games.jsonl"), "--ray", cluster.address)
    assert without_timing(there.stdout.replace("there", "here")) == without_timing(here.stdout)
    records = tmp_path / "here" / "games.jsonl"
    assert (tmp_path / "there" / "games.jsonl").read_bytes() == records.read_bytes()
    analyse = ("analyse", str(records), "--all", "--sims", "8", "--json")
    analysed_here = run(*analyse)
    assert len(analysed_here.stdout.splitlines()) == 6
    assert run(*analyse, "--ray", cluster.address).stdout == analysed_here.stdout


def test_puzzle_generation_is_the_same_on_the_cluster(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    def generate(out: Path, *more: str) -> Result:
        budget = ("--sims", "100", "--confirm-sims", "200", "--think", "10")
        return run(
            "puzzles", "generate", "--count", "2", "--seed", "3", *budget, "--out", str(out), *more
        )

    here = generate(tmp_path / "here.jsonl")
    there = generate(tmp_path / "there.jsonl", "--ray", cluster.address)
    assert there.stdout.replace("there", "here") == here.stdout
    assert there.stderr == here.stderr
    assert "2 puzzles in" in here.stdout
    assert (tmp_path / "there.jsonl").read_text() == (tmp_path / "here.jsonl").read_text()


def test_without_ray_the_option_says_in_one_line_which_extra_installs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as without the extra
    result = CliRunner().invoke(main, ["selfplay", "--games", "1", "--ray", "auto"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [RAY_MISSING]
    assert "cluster" in RAY_MISSING


def test_the_benchmark_prints_the_speed_ups_of_one_and_two_workers() -> None:
    if importlib.util.find_spec("ray") is None:
        pytest.skip("needs the cluster extra (Ray)")
    figures = benchmark_figures("cluster.py", "--matches", "2", "--runs", "1", "--sims", "5")
    assert list(figures) == [
        f"{workers} worker(s), {figure}"
        for workers in (1, 2)
        for figure in ("here in one process s", "on the cluster s", "speed-up")
    ]
    assert figures["2 worker(s), speed-up"] > 0


def test_no_socket_of_the_cluster_leaves_loopback(cluster: LoopbackCluster) -> None:
    """Every connection of the nodes, their workers and the driver (this process) is
    between loopback addresses, and no socket is bound to another address; Ray 2.60's
    GCS, raylets and workers listen on the wildcard address (not configurable: docs/cluster.md),
    which the test allows."""
    if shutil.which("ss") is None:
        pytest.skip("needs ss (iproute2)")
    config = ArenaConfig(
        PRESETS["classic"].rules.replace(target_score=200),
        ("greedy", "expert"),
        Budget(simulations=10),
        groups=10,
        seed=70,
    )
    runner = threading.Thread(target=lambda: list(play_games(config, ray=cluster.address)))
    runner.start()
    sockets: set[tuple[str, str, str]] = set()
    while runner.is_alive() or not sockets:
        pids = {*cluster.processes(), os.getpid()}
        sockets |= ray_sockets(pids)
        time.sleep(0.2)
    runner.join()
    assert any(state == "ESTAB" for state, _, _ in sockets)
    for state, local, peer in sorted(sockets):
        assert loopback(local) or (state == "LISTEN" and wildcard(local)), (state, local, peer)
        assert loopback(peer) or (state == "LISTEN" and wildcard(peer)), (state, local, peer)


def ray_sockets(pids: set[int]) -> set[tuple[str, str, str]]:
    """The TCP sockets of the processes ``pids``: (state, local host, peer host)."""
    table = subprocess.run(["ss", "-tanpH"], capture_output=True, text=True, check=True)
    found = set()
    for line in table.stdout.splitlines():
        state, _, _, local, peer, *process = line.split()
        owners = {int(pid) for pid in re.findall(r"pid=(\d+)", " ".join(process))}
        if owners & pids:
            found.add((state, host(local), host(peer)))
    return found


def host(address: str) -> str:
    """The host of ``ss``'s HOST:PORT, an IPv4 address mapped into IPv6 as itself."""
    name = address.rpartition(":")[0].strip("[]")
    return name.removeprefix("::ffff:")


def wildcard(name: str) -> bool:
    return name in ("*", "0.0.0.0", "::")


def loopback(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def test_an_address_where_no_cluster_answers_is_one_line_at_once() -> None:
    if importlib.util.find_spec("ray") is None:
        pytest.skip("needs the cluster extra (Ray)")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.2", 0))
        address = f"127.0.0.2:{probe.getsockname()[1]}"
    # Its own process: this one may be the driver of the module's cluster already.
    command = [sys.executable, "-m", "triominos", "selfplay", "--games", "1", "--ray", address]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"no Ray cluster answers at {address}"]
