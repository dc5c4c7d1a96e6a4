"""The browser's "Analyse" end to end: how long a viewer of a finished 2-player match
waits, from the request to the analysis, on a real server.

Starts ``triominos serve`` (a fresh SQLite file in a temporary directory, its bot
workers a process pool as in production, bots without delay), plays ``--tables``
bots-only classic 2-player tables (``--bots``) to their end, and for each asks for its
analysis (``POST /api/tables/CODE/analysis``, the service's default budget) and polls
its status as the page does until it is done. Prints, for each table and then their
median:

- ``table N: S s for D decisions, C s of CPU``: the wall clock's seconds, and the CPU
  time of the server and its bot workers meanwhile (which a busy machine, lengthening
  the wait, changes less);
- ``seconds from request to analysis, median: S``;
- ``server CPU seconds an analysis, median: C``.

Set ``TRIOMINOS_NATIVE=0`` in the environment to measure the server on pure Python
(the variable reaches the server and its workers).

Usage: ``.venv/bin/python benchmarks/analysis_service.py --tables 3``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load import HOST, TRIOMINOS, free_port, server_process

POLL_SECONDS = 0.05
"""Between two looks at a table or its analysis."""
CLIENTS = (f"10.{number // 250}.{number % 250}.1" for number in itertools.count())
"""An address for each request, which the server trusts us to name (``--trusted-proxy``):
the polls are many more than one address may make, and the wait is what is measured."""
WAIT_SECONDS = 600.0
"""The longest a match or an analysis may take before the run gives up."""


def until(http: httpx.Client, path: str, done: Any) -> dict[str, Any]:
    """GET ``path`` until ``done(answer)``; the answer."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        answer: dict[str, Any] = http.get(path, headers=client()).raise_for_status().json()
        if done(answer):
            return answer
        if time.monotonic() > deadline:
            sys.exit(f"{path}: not done in {WAIT_SECONDS:.0f} s")
        time.sleep(POLL_SECONDS)


def client() -> dict[str, str]:
    """The headers of a request from the next of :data:`CLIENTS`."""
    return {"X-Forwarded-For": next(CLIENTS)}


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) of a process and its live descendants, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            seconds += cpu_seconds(int(child))
    return seconds


def analysed(http: httpx.Client, bots: list[str], server: int) -> tuple[float, int, float]:
    """A bots-only table played to its end, then analysed: the seconds from the request
    to the analysis, its decisions, and the CPU seconds of ``server`` (a process id) and
    its workers meanwhile."""
    seats = [{"kind": "bot", "bot": bot} for bot in bots]
    body = {"preset": "classic", "players": 2, "seats": seats}
    created = http.post("/api/tables", json=body, headers=client())
    code = created.raise_for_status().json()["code"]
    until(http, f"/api/tables/{code}", lambda table: table["status"] == "finished")
    start, cpu = time.perf_counter(), cpu_seconds(server)
    http.post(f"/api/tables/{code}/analysis", json={}, headers=client()).raise_for_status()
    status = until(http, f"/api/tables/{code}/analysis", lambda answer: answer["status"] == "done")
    took = time.perf_counter() - start
    return took, len(status["analysis"]["decisions"]), cpu_seconds(server) - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=3, help="matches analysed")
    parser.add_argument("--bots", default="greedy,expert", help="the two seats' bots")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="triominos-analysis-") as scratch:
        port = free_port()
        serve = [
            str(TRIOMINOS),
            *("serve", "--host", HOST, "--port", str(port)),
            *("--database", f"sqlite:///{scratch}/analysis.db", "--trusted-proxy", HOST),
        ]
        base = f"http://{HOST}:{port}"
        log = Path(scratch) / "serve.log"
        env = {"TRIOMINOS_BOT_DELAY": "0"}
        with (
            server_process(serve, f"{base}/api/presets", log, env) as server,
            httpx.Client(base_url=base, timeout=30) as http,
        ):
            seconds, cpu = [], []
            for number in range(1, args.tables + 1):
                took, decisions, used = analysed(http, args.bots.split(","), server.pid)
                seconds.append(took)
                cpu.append(used)
                print(
                    f"table {number}: {took:.1f} s for {decisions} decisions, {used:.1f} s of CPU",
                    flush=True,
                )
    print(f"seconds from request to analysis, median: {statistics.median(seconds):.1f}")
    print(f"server CPU seconds an analysis, median: {statistics.median(cpu):.1f}")


if __name__ == "__main__":
    main()
