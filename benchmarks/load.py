"""Load: tables of bot clients playing over real WebSockets to a real server process.

Starts ``triominos serve`` (a fresh SQLite file in a temporary directory, or
``--database``), or ``--nodes`` N of them on one PostgreSQL ``--database``, creates
``--tables`` tables over HTTP: 2 or 3 person seats a table, ``--clients`` in all (1 to
3 with bots), and ``--bots`` bot seats a table at ``--level`` (the level a new bot seat
gets unless told); joins every person seat and opens one WebSocket per person seat.
With several nodes, the seats of a table connect to different nodes (seat ``s`` of table
``t`` to node ``(t + s) mod N``), so that most viewers reach their table through another
node: the proxied case, the worst.
Each client answers its ``legal`` list with the highest-scoring action after a think time
drawn uniformly from 0.5 to 1.5 times ``--think`` (so the server is measured at a human
pace, and the tables do not move in lockstep). Then it runs the same harness, with the
same connections and pace, against a bare WebSocket echo server
(``benchmarks/echo_server.py``) as the floor. Prints:

- ``actions/s: N``: accepted actions per second, all tables together;
- ``latency p50/p99 ms: A / B``: from sending an action to the moment the last viewer of
  its table received the matching ``event`` (matched by version);
- ``echo p50/p99 ms: C / D``: from sending a message to receiving its echo;
- ``tables finished: M of T`` and ``records verified: K of M``: each finished match's
  record, downloaded from the server, checked by :func:`triominos.record.verify`;
- ``actions lost: L`` (sent but not seen by every viewer), ``events missed: G`` (version
  gaps on a connection) and ``actions refused: R``;
- ``server cpu``: the servers' share of one core during play, all nodes together, their
  bot worker processes included (and the workers' part of it), and ``client loop
  lag``: how late the clients' event loops woke up (large: the clients, not the
  server, were the bottleneck and the latencies mean little);
- ``cpu per action``: the servers' CPU time an accepted action cost, the people's and
  the bots' alike, all nodes together (it holds when the machine is busy, where the
  pace does not);
- with bots, ``bot moves`` and ``cpu per bot move``: what a node spends for each move
  of a bot, the bot workers' CPU time over the bot moves (the bot's thinking) plus the
  server process's over all actions (applying, storing and telling an action costs it
  the same whoever chose it), and each part apart;
- ``cpu per table`` and ``nodes for 10,000 tables``: the servers' CPU over the tables
  played, and how many nodes that many tables at this pace would need, each kept at
  :data:`NODE_CPU` of its core (one node is one event loop: one core at most, and
  headroom keeps its latency).

The exit status is 1 when anything was lost, missed, refused or failed to verify.

A table's seats all live in one client process, so one clock times its events; the tables
are spread over ``--processes`` client processes so that the clients are not the
bottleneck. On Linux the monotonic clock is shared by all processes, so the processes'
measurements merge into one play window.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from triominos.bots.levels import DEFAULT_LEVEL, OFFERED, Level
from triominos.record import verify
from triominos.server.protocol import MESSAGES_PER_SECOND

HOST = "127.0.0.1"
TRIOMINOS = Path(sys.executable).parent / "triominos"
ECHO_SERVER = Path(__file__).resolve().parent / "echo_server.py"
STARTUP_SECONDS = 30.0
GRACE_SECONDS = 5.0
"""After the play window, how long actions already sent may take to reach every viewer."""
CONNECTING_AT_ONCE = 50
HTTP_AT_ONCE = 20
ECHO_SECONDS = 10.0
NODE_CPU = 0.5
"""The share of its core a node is planned at: room for bursts, timers and bots."""
PLANNED_TABLES = 10_000
ACTION_RANK = {"place": 2, "take_joker": 2, "draw": 1, "buy": 1, "starter_draw": 1, "pass": 0}
"""On equal points: a placement before a draw, a draw before a pass."""

BY_ID = {level.id: level for level in OFFERED}
"""The bot levels by the name a table request gives."""

Json = dict[str, Any]


class LoadError(Exception):
    """The load run could not be set up (a server did not start, an API call failed)."""


# --- the measurements -------------------------------------------------------------------


@dataclass
class Measurements:
    """What one client process saw; :meth:`merge` adds up several processes."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an action (or echo) to its last delivery."""
    actions: int = 0
    bot_moves: int = 0
    lost: int = 0
    missed: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    loop_lags: list[float] = field(default_factory=list)
    """How late the client's event loop woke up: large values mean the client is the
    bottleneck and the latencies are not the server's."""
    first_sent: float = math.inf
    last_delivered: float = -math.inf

    def delivered(self, sent: float, last_arrival: float) -> None:
        self.latencies.append(last_arrival - sent)
        self.actions += 1
        self.first_sent = min(self.first_sent, sent)
        self.last_delivered = max(self.last_delivered, last_arrival)

    def merge(self, other: Measurements) -> Measurements:
        return Measurements(
            latencies=self.latencies + other.latencies,
            actions=self.actions + other.actions,
            bot_moves=self.bot_moves + other.bot_moves,
            lost=self.lost + other.lost,
            missed=self.missed + other.missed,
            refused=self.refused + other.refused,
            loop_lags=self.loop_lags + other.loop_lags,
            first_sent=min(self.first_sent, other.first_sent),
            last_delivered=max(self.last_delivered, other.last_delivered),
        )

    @property
    def per_second(self) -> float:
        window = self.last_delivered - self.first_sent
        return self.actions / window if window > 0 else 0.0

    def latency_ms(self) -> tuple[float, float]:
        return percentiles_ms(self.latencies)

    def loop_lag_ms(self) -> tuple[float, float]:
        return percentiles_ms(self.loop_lags)


def percentiles_ms(seconds: Sequence[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds (NaN without at least two measurements)."""
    if len(seconds) < 2:
        return math.nan, math.nan
    cuts = statistics.quantiles(seconds, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


async def probe_loop_lag(measurements: Measurements, period: float = 0.01) -> None:
    """Until cancelled, record how late each ``period``-second sleep wakes up."""
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(period)
        measurements.loop_lags.append(time.monotonic() - asleep - period)


def think_time(think: float) -> float:
    return random.uniform(0.5 * think, 1.5 * think)


def best_action(legal: Sequence[Json]) -> Json:
    """The legal action scoring most; on equal points a placement, then a draw, then a pass."""
    best = max(
        legal, key=lambda option: (option["points"], ACTION_RANK[option["action"]["action"]])
    )
    action: Json = best["action"]
    return action


# --- playing the game -------------------------------------------------------------------


@dataclass(frozen=True)
class TablePlan:
    """A table the clients play: its code, one token per person seat (the bot seats come
    after them), and the address its family plays from (``X-Forwarded-For``, which the
    server started here trusts from loopback, ``--trusted-proxy``): the service limits
    each address as it would a household, never the whole benchmark."""

    code: str
    tokens: tuple[str, ...]
    address: str
    ws_urls: tuple[str, ...]
    """The node each seat connects to."""


def family_address(number: int) -> str:
    """The ``number``-th family's address, in 198.18.0.0/15 (RFC 2544, for benchmarks);
    it is only a header's text, never a destination."""
    return f"198.18.{number // 250}.{number % 250 + 1}"


class Seat:
    """One seat's WebSocket, the last version it saw and when it last sent messages."""

    def __init__(self, number: int, connection: ClientConnection, version: int) -> None:
        self.number = number
        self.connection = connection
        self.version = version
        # The hello was just sent: it counts towards the server's rate limit too.
        self.sends: deque[float] = deque([time.monotonic()], maxlen=MESSAGES_PER_SECOND)

    async def keep_to_rate_limit(self) -> None:
        """Wait, if need be, so that the next message is not one too many this second.

        A seat may act several times in a row (draws), and at a short ``--think`` that
        would exceed what the server accepts from one connection. The margin covers the
        network delays that make the server's second shorter than ours.
        """
        if len(self.sends) == self.sends.maxlen:
            await asyncio.sleep(max(0.0, self.sends[0] + 1.1 - time.monotonic()))
        self.sends.append(time.monotonic())


class TablePlay:
    """The seats of one table, its actions in flight and what their events took."""

    def __init__(self, plan: TablePlan, measurements: Measurements, think: float) -> None:
        self.plan = plan
        self.measurements = measurements
        self.think = think
        self.seats: list[Seat] = []
        self.sent: dict[str, float] = {}
        """Client ids of the actions sent and not yet seen by every viewer: when sent."""
        self.arrivals: dict[int, list[float]] = {}
        self.sender_of: dict[int, str] = {}
        self.over = False
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()

    async def join(self, connecting: asyncio.Semaphore) -> list[Json]:
        """Connect every seat; returns the views of their ``welcome`` messages."""
        views: list[Json] = []
        for number, (token, ws_url) in enumerate(
            zip(self.plan.tokens, self.plan.ws_urls, strict=True)
        ):
            async with connecting:
                connection = await connect(
                    f"{ws_url}/ws/{self.plan.code}",
                    ping_interval=None,
                    max_size=None,
                    additional_headers={"X-Forwarded-For": self.plan.address},
                )
                await connection.send(
                    json.dumps({"type": "hello", "token": token, "version": None})
                )
                welcome = await self.first_view(connection)
            self.seats.append(Seat(number, connection, welcome["version"]))
            views.append(welcome["view"])
        return views

    async def first_view(self, connection: ClientConnection) -> Json:
        while True:
            message: Json = json.loads(await connection.recv())
            if message["type"] == "welcome":
                return message
            if message["type"] == "error":
                raise LoadError(f"table {self.plan.code}: hello refused: {message['message']}")

    def start(self, views: Sequence[Json]) -> list[asyncio.Task[None]]:
        """Begin play from the welcome views; returns the seats' listening tasks."""
        for seat, view in zip(self.seats, views, strict=True):
            self.consider(seat, view)
        return [asyncio.create_task(self.listen(seat)) for seat in self.seats]

    async def listen(self, seat: Seat) -> None:
        with suppress(ConnectionClosed):
            async for raw in seat.connection:
                arrived = time.monotonic()
                self.receive(seat, json.loads(raw), arrived)

    def receive(self, seat: Seat, message: Json, arrived: float) -> None:
        if message["type"] == "event":
            version: int = message["version"]
            self.measurements.missed += version - seat.version - 1
            seat.version = version
            if seat.number == 0 and message["event"].get("player", 0) >= len(self.seats):
                self.measurements.bot_moves += 1  # counted once a table, at its first seat
            self.arrived(version, message.get("id"), arrived)
            self.consider(seat, message["view"])
        elif message["type"] == "error":
            self.measurements.refused[message["code"]] += 1
            self.sent.pop(message.get("id", ""), None)

    def arrived(self, version: int, client_id: str | None, moment: float) -> None:
        arrivals = self.arrivals.setdefault(version, [])
        arrivals.append(moment)
        if client_id is not None:
            self.sender_of[version] = client_id
        if len(arrivals) == len(self.seats) and version in self.sender_of:
            sent = self.sent.pop(self.sender_of.pop(version))
            del self.arrivals[version]
            self.measurements.delivered(sent, max(arrivals))

    def consider(self, seat: Seat, view: Json) -> None:
        if view["match_over"]:
            self.over = True
        elif view["legal"] and not self.stopping:
            task = asyncio.create_task(self.act(seat, view))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def act(self, seat: Seat, view: Json) -> None:
        await asyncio.sleep(think_time(self.think))
        if self.stopping:
            return
        client_id = f"{seat.number}.{view['version']}"
        message = {
            "type": "action",
            "id": client_id,
            "version": view["version"],
            "action": best_action(view["legal"]),
        }
        await seat.keep_to_rate_limit()
        self.sent[client_id] = time.monotonic()
        with suppress(ConnectionClosed):
            await seat.connection.send(json.dumps(message))

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*(seat.connection.close() for seat in self.seats))


async def play_tables(
    _: str, plans: Sequence[TablePlan], think: float, seconds: float
) -> Measurements:
    """Connect every seat, play for ``seconds`` (or until every match is over), measure."""
    measurements = Measurements()
    tables = [TablePlay(plan, measurements, think) for plan in plans]
    connecting = asyncio.Semaphore(CONNECTING_AT_ONCE)
    views = await asyncio.gather(*(table.join(connecting) for table in tables))
    listeners = [
        task for table, seen in zip(tables, views, strict=True) for task in table.start(seen)
    ]
    probe = asyncio.create_task(probe_loop_lag(measurements))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(table.over for table in tables):
        await asyncio.sleep(0.05)
    for table in tables:
        table.stopping = True
    grace_over = time.monotonic() + GRACE_SECONDS
    while any(table.sent for table in tables) and time.monotonic() < grace_over:
        await asyncio.sleep(0.05)
    measurements.lost = sum(len(table.sent) for table in tables)
    probe.cancel()
    await asyncio.gather(*(table.close() for table in tables))
    await asyncio.gather(*listeners)
    return measurements


def play_worker(
    ws_url: str, plans: Sequence[TablePlan], think: float, seconds: float
) -> Measurements:
    return asyncio.run(play_tables(ws_url, plans, think, seconds))


# --- the echo floor ---------------------------------------------------------------------


async def echo_table(
    ws_url: str,
    seats: int,
    think: float,
    seconds: float,
    connecting: asyncio.Semaphore,
    measurements: Measurements,
) -> None:
    """A table's worth of connections taking turns, one message in flight, like a game."""
    connections: list[ClientConnection] = []
    for _ in range(seats):
        async with connecting:
            connections.append(await connect(f"{ws_url}/ws", ping_interval=None, max_size=None))
    deadline = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < deadline:
        await asyncio.sleep(think_time(think))
        connection = connections[turn % seats]
        action = {"action": "draw"}
        message = json.dumps({"type": "action", "id": str(turn), "version": turn, "action": action})
        sent = time.monotonic()
        await connection.send(message)
        if await connection.recv() == message:
            measurements.delivered(sent, time.monotonic())
        else:
            measurements.lost += 1
        turn += 1
    await asyncio.gather(*(connection.close() for connection in connections))


async def echo_tables(
    ws_url: str, sizes: Sequence[int], think: float, seconds: float
) -> Measurements:
    measurements = Measurements()
    connecting = asyncio.Semaphore(CONNECTING_AT_ONCE)
    probe = asyncio.create_task(probe_loop_lag(measurements))
    await asyncio.gather(
        *(echo_table(ws_url, seats, think, seconds, connecting, measurements) for seats in sizes)
    )
    probe.cancel()
    return measurements


def echo_worker(ws_url: str, sizes: Sequence[int], think: float, seconds: float) -> Measurements:
    return asyncio.run(echo_tables(ws_url, sizes, think, seconds))


# --- servers and the HTTP side ----------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Cpu:
    """CPU seconds (user and system) used so far: a server's own, and its descendants'
    (its bot worker processes), which Linux counts apart until they end."""

    server: float
    workers: float

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(self.server - other.server, self.workers - other.workers)

    def __add__(self, other: Cpu) -> Cpu:
        return Cpu(self.server + other.server, self.workers + other.workers)

    @property
    def total(self) -> float:
        return self.server + self.workers


def cpu_seconds(process: subprocess.Popen[bytes]) -> Cpu:
    """The CPU time the process and its descendants used so far, from Linux's /proc."""
    used: dict[int, float] = {}
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):  # a process that ended meanwhile
            fields = stat.read_text().rsplit(")", 1)[1].split()
            pid = int(stat.parent.name)
            parents[pid] = int(fields[1])
            used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    descendants, frontier = set(), {process.pid}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier}
        descendants |= frontier
    return Cpu(used.get(process.pid, 0.0), sum(used[pid] for pid in descendants))


def all_cpu(processes: Sequence[subprocess.Popen[bytes]]) -> Cpu:
    return sum(map(cpu_seconds, processes), Cpu(0.0, 0.0))


@contextmanager
def server_process(
    command: Sequence[str], ready_url: str, log_path: Path, env: Mapping[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (with ``env`` added to the environment) until the block ends;
    ready once ``ready_url`` answers 200."""
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env={**os.environ, **(env or {})},
        )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                raise LoadError(f"{command[0]} exited:\n{log_path.read_text(errors='replace')}")
            with suppress(httpx.HTTPError):
                if httpx.get(ready_url, timeout=1.0).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise LoadError(f"{command[0]} did not start in {STARTUP_SECONDS:.0f} s")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def answer(response: httpx.Response, expected: int) -> Json:
    if response.status_code != expected:
        request = response.request
        raise LoadError(f"{request.method} {request.url}: {response.status_code} {response.text}")
    body: Json = response.json()
    return body


@dataclass(frozen=True)
class TableKind:
    """What every table is: the preset, the target, and its bot seats with their level."""

    preset: str
    target: int
    bots: int = 0
    level: Level = BY_ID[DEFAULT_LEVEL]

    def seats(self, people: int) -> tuple[list[str], list[Json]]:
        """The people's names, and every seat of the table request, the bots' last."""
        names = [f"Load {number + 1}" for number in range(people)]
        bot = {"kind": "bot", "bot": self.level.bot, "think": self.level.think}
        return names, [{"kind": "person", "name": name} for name in names] + [bot] * self.bots


async def create_table(
    client: httpx.AsyncClient,
    people: int,
    kind: TableKind,
    address: str,
    ws_urls: tuple[str, ...],
) -> TablePlan:
    names, seats = kind.seats(people)
    request = {
        "preset": kind.preset,
        "players": len(seats),
        "options": {"target_score": kind.target},
        "seats": seats,
        "turn_seconds": None,
    }
    family = {"X-Forwarded-For": address}
    created = await client.post("/api/tables", json=request, headers=family)
    code: str = answer(created, 201)["code"]
    tokens = []
    for number, name in enumerate(names):
        body = {"name": name, "seat": number}
        joined = await client.post(f"/api/tables/{code}/join", json=body, headers=family)
        tokens.append(answer(joined, 200)["token"])
    return TablePlan(code, tuple(tokens), address, ws_urls)


async def create_tables(
    base_urls: Sequence[str], sizes: Sequence[int], kind: TableKind
) -> list[TablePlan]:
    """Table ``t`` is made on node ``t mod N``; its seat ``s`` plays on ``(t + s) mod N``."""
    at_once = asyncio.Semaphore(HTTP_AT_ONCE)
    nodes = len(base_urls)
    ws_urls = [url.replace("http://", "ws://") for url in base_urls]

    async def create(client: httpx.AsyncClient, number: int, people: int) -> TablePlan:
        seat_urls = tuple(ws_urls[(number + seat) % nodes] for seat in range(people))
        async with at_once:
            return await create_table(client, people, kind, family_address(number), seat_urls)

    clients = [httpx.AsyncClient(base_url=url, timeout=30.0) for url in base_urls]
    try:
        return list(
            await asyncio.gather(
                *(
                    create(clients[number % nodes], number, seats)
                    for number, seats in enumerate(sizes)
                )
            )
        )
    finally:
        await asyncio.gather(*(client.aclose() for client in clients))


@dataclass(frozen=True)
class RecordCheck:
    finished: int
    verified: int
    failures: list[str]


async def check_records(base_url: str, plans: Sequence[TablePlan]) -> RecordCheck:
    """Download every finished match's record and verify it against the rules."""
    finished = 0
    failures: list[str] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=30.0) as client:
        for plan in plans:
            code = plan.code
            family = {"X-Forwarded-For": plan.address}
            response = await client.get(f"/api/tables/{code}/record", headers=family)
            if response.status_code == 409:
                continue
            finished += 1
            try:
                verify(answer(response, 200))
            except (ValueError, LoadError) as error:
                failures.append(f"table {code}: {error}")
    return RecordCheck(finished, finished - len(failures), failures)


def table_sizes(tables: int, clients: int, bots: int = 0) -> list[int]:
    """Person seats per table: ``clients`` seats over ``tables`` tables of 2 or 3 seats,
    or with bot seats at the table, 1 to 3."""
    fewest = 1 if bots else 2
    if not fewest * tables <= clients <= 3 * tables:
        raise LoadError(
            f"--clients {clients} cannot fill {tables} tables of {fewest} to 3 person seats "
            f"(between {fewest * tables} and {3 * tables})"
        )
    sizes = [fewest] * tables
    for extra in range(clients - fewest * tables):
        sizes[extra % tables] += 1
    return sizes


def split(items: Sequence[Any], parts: int) -> list[list[Any]]:
    return [list(items[index::parts]) for index in range(parts) if items[index::parts]]


Worker = Callable[[str, Sequence[Any], float, float], Measurements]


def run_in_processes(
    worker: Worker, url: str, groups: Sequence[Sequence[Any]], think: float, seconds: float
) -> Measurements:
    """Run ``worker(url, group, think, seconds)`` for each group in its own process."""
    context = multiprocessing.get_context("spawn")
    merged = Measurements()
    with ProcessPoolExecutor(max_workers=len(groups), mp_context=context) as pool:
        futures = [pool.submit(worker, url, group, think, seconds) for group in groups]
        for future in futures:
            try:
                merged = merged.merge(future.result())
            except (OSError, WebSocketException) as error:
                raise LoadError(f"a client process failed: {error!r}") from error
    return merged


def milliseconds(pair: tuple[float, float]) -> str:
    return f"{pair[0]:.1f} / {pair[1]:.1f}"


def positive(kind: Callable[[str], float]) -> Callable[[str], Any]:
    """An argparse type: a number of ``kind`` above zero."""

    def parse(text: str) -> float:
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def natural(text: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=positive(int), default=200)
    parser.add_argument(
        "--clients",
        type=positive(int),
        default=500,
        help="person seats in all (2 or 3 a table; 1 to 3 with --bots)",
    )
    parser.add_argument(
        "--bots", type=natural, default=0, help="bot seats a table, after the person seats"
    )
    parser.add_argument(
        "--level",
        choices=sorted(BY_ID),
        default=DEFAULT_LEVEL,
        help=f"the bot seats' level (default: {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--think", type=positive(float), default=0.5, help="mean think time, seconds"
    )
    parser.add_argument(
        "--target", type=positive(int), default=100, help="the matches' target score"
    )
    parser.add_argument(
        "--seconds", type=positive(float), default=90.0, help="the longest play window"
    )
    parser.add_argument("--echo-seconds", type=positive(float), default=ECHO_SECONDS)
    parser.add_argument(
        "--database",
        metavar="URL",
        help="default: a fresh SQLite file (several nodes need postgresql://…)",
    )
    parser.add_argument(
        "--nodes", type=positive(int), default=1, help="serve processes on the one database"
    )
    parser.add_argument("--preset", default="classic-house")
    parser.add_argument("--processes", type=positive(int), default=2, help="client processes")
    arguments = parser.parse_args()
    try:
        outcome = run(arguments)
    except LoadError as error:
        parser.exit(2, f"load: {error}\n")
    except httpx.HTTPError as error:
        parser.exit(2, f"load: the server stopped answering: {error!r}\n")
    sys.exit(outcome)


def run(arguments: argparse.Namespace) -> int:
    sizes = table_sizes(arguments.tables, arguments.clients, arguments.bots)
    kind = TableKind(arguments.preset, arguments.target, arguments.bots, BY_ID[arguments.level])
    if arguments.nodes > 1 and not (arguments.database or "").startswith("postgresql"):
        raise LoadError(f"--nodes {arguments.nodes} needs --database postgresql://…")
    with tempfile.TemporaryDirectory(prefix="triominos-load-") as scratch, ExitStack() as nodes:
        database = arguments.database or f"sqlite:///{scratch}/load.db"
        base_urls, servers = [], []
        for number in range(arguments.nodes):
            port = free_port()
            base_urls.append(f"http://{HOST}:{port}")
            serve = [
                str(TRIOMINOS),
                "serve",
                "--host",
                HOST,
                "--port",
                str(port),
                "--database",
                database,
                "--trusted-proxy",  # each family plays from its own X-Forwarded-For
                HOST,
            ]
            log = Path(scratch) / f"serve{number}.log"
            servers.append(
                nodes.enter_context(server_process(serve, f"{base_urls[-1]}/api/presets", log))
            )
        plans = asyncio.run(create_tables(base_urls, sizes, kind))
        groups = split(plans, arguments.processes)
        cpu_before, wall_before = all_cpu(servers), time.monotonic()
        game = run_in_processes(play_worker, "", groups, arguments.think, arguments.seconds)
        used = all_cpu(servers) - cpu_before
        server_cpu = used.total / (time.monotonic() - wall_before)
        records = asyncio.run(check_records(base_urls[0], plans))
        nodes.close()
        port = free_port()
        echo = [sys.executable, str(ECHO_SERVER), "--host", HOST, "--port", str(port)]
        with server_process(echo, f"http://{HOST}:{port}/", Path(scratch) / "echo.log"):
            size_groups = split(sizes, arguments.processes)
            floor = run_in_processes(
                echo_worker,
                f"ws://{HOST}:{port}",
                size_groups,
                arguments.think,
                arguments.echo_seconds,
            )
    refused = sum(game.refused.values())
    print(f"actions/s: {game.per_second:.1f}")
    print(f"latency p50/p99 ms: {milliseconds(game.latency_ms())}")
    print(f"echo p50/p99 ms: {milliseconds(floor.latency_ms())}")
    print(f"tables finished: {records.finished} of {len(plans)}")
    print(f"records verified: {records.verified} of {records.finished}")
    print(f"actions lost: {game.lost}")
    print(f"events missed: {game.missed}")
    print(f"actions refused: {refused} {dict(game.refused) if refused else ''}".rstrip())
    print(
        f"server cpu: {server_cpu:.0%} of a core, "
        f"{used.workers / max(used.total, 1e-9):.0%} of it in bot workers"
    )
    per_table = server_cpu / len(plans)
    actions = game.actions + game.bot_moves
    if actions:
        print(f"cpu per action: {used.total / actions * 1000:.2f} ms")
    if game.bot_moves:
        server_part, workers_part = used.server / actions, used.workers / game.bot_moves
        print(f"bot moves: {game.bot_moves} of {actions} actions")
        print(
            f"cpu per bot move: {(server_part + workers_part) * 1000:.2f} ms "
            f"(server {server_part * 1000:.2f} ms, bot workers {workers_part * 1000:.2f} ms)"
        )
    print(f"cpu per table: {per_table:.2%} of a core")
    print(
        f"nodes for {PLANNED_TABLES:,} tables: {math.ceil(PLANNED_TABLES * per_table / NODE_CPU)}"
    )
    print(f"client loop lag p50/p99 ms: {milliseconds(game.loop_lag_ms())}")
    print(f"echo client loop lag p50/p99 ms: {milliseconds(floor.loop_lag_ms())}")
    for failure in records.failures:
        print(failure, file=sys.stderr)
    troubles = game.lost + game.missed + refused + len(records.failures) + floor.lost
    return 1 if troubles else 0


if __name__ == "__main__":
    main()
