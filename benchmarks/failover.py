"""Failover: how long a table stands still after its node is killed with SIGKILL.

Starts ``--nodes`` ``triominos serve`` processes on one PostgreSQL ``--database`` (a
database of its own: the benchmark's tables are made in it), makes ``--tables`` tables
of two bots on each node (a table lives on the node that made it), then ``--rounds``
times: SIGKILLs the node that holds the most tables being played, and times, for each of
its tables, from the kill to the first action another node stores for it (read from the
database: the table moves again). The killed node is started again before the next
round. Prints

- ``failover p50/max s: A / B (N tables, R kills)``: the time each table stood still,

which is the lease (:data:`triominos.server.nodes.LEASE_SECONDS`), the orphan scan
(:data:`~triominos.server.nodes.SCAN_SECONDS`), the replay, and one bot's move
(``--bot-delay`` and its thinking) together.

    .venv/bin/python benchmarks/failover.py --database postgresql+psycopg://...
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
from load import HOST, TRIOMINOS, free_port, server_process
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

MOVE_SECONDS = 60.0
"""The longest a table may stand still before the benchmark gives up on it."""
TARGET = 400
"""The target score of a table: bots play it for minutes, longer than a few rounds."""


def node_command(database: str, port: int) -> list[str]:
    """A node that trusts the benchmark as its proxy, so each table can come from an
    address of its own (:func:`create_tables`)."""
    return [
        *(str(TRIOMINOS), "serve", "--host", HOST, "--port", str(port)),
        *("--database", database, "--trusted-proxy", HOST),
    ]


def table_address(number: int) -> str:
    """The client address table ``number`` is made from, in the benchmarking network
    198.18.0.0/15 (RFC 2544): one address may have only a few tables of bots being played
    (BOT_TABLES_PER_ADDRESS), and the benchmark makes more."""
    return f"198.18.{number // 256}.{number % 256}"


def create_tables(base_url: str, count: int, first: int) -> None:
    """``count`` tables of two bots, numbered from ``first``, each from its own address."""
    body = {
        "preset": "classic",
        "players": 2,
        "options": {"target_score": TARGET},
        "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
    }
    with httpx.Client(base_url=base_url, timeout=30.0) as client:
        for number in range(first, first + count):
            forwarded = {"X-Forwarded-For": table_address(number)}
            created = client.post("/api/tables", json=body, headers=forwarded)
            if created.status_code != 201:
                raise SystemExit(f"POST /api/tables: {created.status_code} {created.text}")


def held_tables(engine: Engine, url: str) -> dict[int, int]:
    """The tables being played that the node at ``url`` holds: id to last version."""
    query = text(
        "SELECT t.id, COALESCE(MAX(a.version), 0) FROM tables t JOIN nodes n ON n.id = t.owner"
        " LEFT JOIN actions a ON a.table_id = t.id"
        " WHERE n.url = :url AND t.status = 'playing' GROUP BY t.id"
    )
    with engine.connect() as connection:
        return {row[0]: row[1] for row in connection.execute(query, {"url": url})}


def moved(engine: Engine, before: dict[int, int]) -> set[int]:
    """The tables of ``before`` that stored an action after the version given."""
    query = text("SELECT table_id, MAX(version) FROM actions WHERE table_id = ANY(:ids) GROUP BY 1")
    with engine.connect() as connection:
        rows = connection.execute(query, {"ids": list(before)})
        return {row[0] for row in rows if row[1] > before[row[0]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL URL of its own")
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=4, help="tables made on each node")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--bot-delay", type=float, default=0.2)
    arguments = parser.parse_args()
    engine = create_engine(arguments.database)
    ports = [free_port() for _ in range(arguments.nodes)]
    urls = [f"http://{HOST}:{port}" for port in ports]
    env_delay = {"TRIOMINOS_BOT_DELAY": str(arguments.bot_delay)}
    waits: list[float] = []
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:

        def start(number: int) -> subprocess.Popen[bytes]:
            log = Path(scratch) / f"node{number}-{time.monotonic_ns()}.log"
            command = node_command(arguments.database, ports[number])
            return stack.enter_context(
                server_process(command, f"{urls[number]}/readyz", log, env_delay)
            )

        processes = [start(number) for number in range(arguments.nodes)]
        for number, url in enumerate(urls):
            create_tables(url, arguments.tables, first=number * arguments.tables)
        for round_number in range(arguments.rounds):
            victim = max(range(arguments.nodes), key=lambda n: len(held_tables(engine, urls[n])))
            before = held_tables(engine, urls[victim])
            processes[victim].kill()
            killed = time.monotonic()
            left = dict(before)
            while left and time.monotonic() - killed < MOVE_SECONDS:
                for table_id in moved(engine, left):
                    waits.append(time.monotonic() - killed)
                    del left[table_id]
                time.sleep(0.02)
            print(f"round {round_number + 1}: {len(before) - len(left)} of {len(before)} moved")
            processes[victim] = start(victim)
    if not waits:
        raise SystemExit("no table moved again")
    print(
        f"failover p50/max s: {statistics.median(waits):.1f} / {max(waits):.1f} "
        f"({len(waits)} tables, {arguments.rounds} kills)"
    )


if __name__ == "__main__":
    main()
