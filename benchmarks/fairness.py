"""Fairness: does one table's thinking starve another's bots? (issue 13)

Starts ``triominos serve`` (a fresh SQLite file, the real bot process pool), fills it with
``--hogs`` tables of six ``sim`` bots thinking the longest they may (``--think``, 10 s),
each created from an address of its own, then starts a bystander table of two ``greedy``
bots and watches it as a spectator for ``--seconds``. Before the fair worker, the
bystander's bot waited 60.8 s a move behind ten such tables; its moves should come at the
server's bot delay (0.4 s) however many tables think. Prints the bystander's moves and
the gaps between them (median and largest), and the hogs' moves in the same time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from load import family_address, free_port, server_process
from websockets.sync.client import connect

SIX_SIMS = [{"kind": "bot", "bot": "sim"}] * 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hogs", type=int, default=10)
    parser.add_argument("--think", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    arguments = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        command = [
            str(Path(sys.executable).parent / "triominos"),
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{Path(folder) / 'fairness.db'}",
            "--trusted-proxy",  # each family plays from its own X-Forwarded-For
            "127.0.0.1",
        ]
        with server_process(command, f"{base}/healthz", Path(folder) / "server.log"):
            http = httpx.Client(base_url=base, timeout=30)
            seats = [{**seat, "think": arguments.think} for seat in SIX_SIMS]
            hogs = [
                http.post(
                    "/api/tables",
                    json={"preset": "classic-house", "players": 6, "seats": seats},
                    headers={"X-Forwarded-For": family_address(number)},
                ).json()["code"]
                for number in range(arguments.hogs)
            ]
            time.sleep(2.0)  # let the hogs fill the workers
            bystander = http.post(
                "/api/tables",
                json={
                    "preset": "classic-house",
                    "players": 2,
                    "seats": [{"kind": "bot", "bot": "greedy"}] * 2,
                },
                headers={"X-Forwarded-For": family_address(arguments.hogs)},
            ).json()["code"]
            arrivals = watch(port, bystander, arguments.seconds)
            hog_moves = sum(http.get(f"/api/tables/{code}").json()["version"] for code in hogs)
    gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
    print(f"hog tables: {arguments.hogs} of six sim bots at {arguments.think:g} s a move")
    print(f"bystander moves in {arguments.seconds:g} s: {len(arrivals)}; hog moves: {hog_moves}")
    if gaps:
        print(f"bystander gap median/max s: {statistics.median(gaps):.2f} / {max(gaps):.2f}")


def watch(port: int, code: str, seconds: float) -> list[float]:
    """When each event of the table reached a spectator, for ``seconds``."""
    arrivals: list[float] = []
    with connect(f"ws://127.0.0.1:{port}/ws/{code}") as spectator:
        spectator.send(json.dumps({"type": "hello"}))
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = json.loads(spectator.recv(timeout=left))
            except TimeoutError:
                break
            if message["type"] == "event":
                arrivals.append(time.monotonic())
            if message.get("view", {}).get("match_over"):
                break
    return arrivals


if __name__ == "__main__":
    main()
