"""``GET /metrics``: the service's figures in Prometheus's text format (version 0.0.4).

What an operator watches: actions by outcome and how long each took from arrival to
broadcast (a histogram), the tables in memory by status (those this node owns), the open
connections, the bot worker's queue, and the node's part among several: leases claimed,
lost and released, requests and connections proxied to the tables' owners, and how long
a table waited between its owner's lease running out and its new owner serving it. And
the process's health: how late the event loop runs, how long the actions' commits take,
HTTP answers by status, WebSocket closes by code, requests refused for their rate, CPU
and memory. Written by hand: the format is a few lines of text, and the figures are read
from the service at the moment of the scrape rather than kept twice.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from triominos.server.nodes import Node
    from triominos.server.service import Outcome, Service

log = logging.getLogger("triominos.server")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the buckets of the histograms of short waits: an action's
latency, a commit, the event loop's lag."""
FAILOVER_BUCKETS = (0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)
"""Upper bounds (seconds) of the failover histogram's buckets (the aim: 3 s)."""
LAG_INTERVAL = 0.25
"""How often the event loop's lag is measured."""


class Histogram:
    """A Prometheus histogram: counts by upper bound, and the sum of what was seen."""

    def __init__(self, bounds: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1
        self.sum += seconds

    def lines(self, name: str, help_text: str) -> list[str]:
        """The histogram as a scrape has it: cumulative buckets, sum and count."""
        lines = [f"# HELP {name} {help_text}", f"# TYPE {name} histogram"]
        total = 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            total += count
            label = "+Inf" if bound == float("inf") else repr(bound)
            lines.append(f'{name}_bucket{{le="{label}"}} {total}')
        return [*lines, f"{name}_sum {self.sum:.6f}", f"{name}_count {total}"]


class ActionMetrics:
    """Counts of actions by outcome and a histogram of the accepted ones' latency."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.latency = Histogram()

    def record(self, outcome: Outcome, seconds: float) -> None:
        self.outcomes[outcome] += 1
        if outcome == "accepted":
            self.latency.observe(seconds)


@dataclass
class TrafficMetrics:
    """What the process answered (:class:`Metered`) and how late its event loop runs."""

    statuses: Counter[int] = field(default_factory=Counter)
    """HTTP answers by status (those of the guard's refusals too)."""
    closes: Counter[int] = field(default_factory=Counter)
    """WebSocket connections by the code they ended with: the server's close, else the
    client's (1006: the connection dropped); a handshake refused before it opened too."""
    rate_limited: Counter[str] = field(default_factory=Counter)
    """Requests refused for their rate (429), by ``http`` or ``websocket`` (a handshake)."""
    loop_lag: Histogram = field(default_factory=Histogram)


async def watch_loop_lag(metrics: TrafficMetrics, interval: float = LAG_INTERVAL) -> None:
    """Measure, every ``interval``, how much later than asked the event loop woke this
    task: the time every connection waited then for anything at all."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(interval)
        metrics.loop_lag.observe(max(0.0, loop.time() - asked - interval))


class Metered:
    """ASGI middleware outside the guard: counts each HTTP answer by status and each
    WebSocket's close code into the service's :class:`TrafficMetrics` (found through
    the app, as the service exists only once the app has started)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = getattr(scope.get("app"), "state", None)
        service: Service | None = getattr(state, "service", None)
        if service is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        metrics = service.traffic
        if scope["type"] == "http":
            answered = False

            async def send_counted(message: Message) -> None:
                nonlocal answered
                if message["type"] == "http.response.start":
                    answered = True
                    metrics.statuses[message["status"]] += 1
                    if message["status"] == 429:
                        metrics.rate_limited["http"] += 1
                await send(message)

            try:
                await self.app(scope, receive, send_counted)
            except Exception:
                if not answered:  # the server error handler, outside, answers 500
                    metrics.statuses[500] += 1
                raise
            return
        ended: list[int] = []  # the first close seen, either side's

        async def send_watched(message: Message) -> None:
            if message["type"] == "websocket.close" and not ended:
                ended.append(message.get("code", 1000))
                if message.get("reason") == "rate_limited":
                    metrics.rate_limited["websocket"] += 1
            await send(message)

        async def receive_watched() -> Message:
            message = await receive()
            if message["type"] == "websocket.disconnect" and not ended:
                ended.append(message.get("code", 1005))
            return message

        try:
            await self.app(scope, receive_watched, send_watched)
        except Exception:
            ended.append(1011)  # the server closes it as an internal error
            raise
        finally:
            metrics.closes[ended[0] if ended else 1000] += 1


@dataclass
class NodeMetrics:
    """What this node did among several (:mod:`triominos.server.nodes`)."""

    claimed: int = 0
    """Leases claimed: tables taken up, new or from a node that died or left."""
    lost: int = 0
    """Leases lost: tables another node claimed, or that could not be renewed."""
    released: int = 0
    """Leases given up: tables forgotten here, or every one when the node drains."""
    proxied_requests: int = 0
    proxied_connections: int = 0
    proxying: int = 0
    """WebSocket connections open now that go on to another node."""
    relay_errors: int = 0
    """Requests and connections that could not be sent on to their table's owner."""
    failover: Histogram = field(default_factory=lambda: Histogram(FAILOVER_BUCKETS))
    """Tables taken over from a node whose lease ran out: from the lease's end to this
    node serving the table (both on the database's clock)."""
    unreachable: set[str] = field(default_factory=set)
    """The owners this node could not reach, said once in the log until one answers."""

    def relay_failed(self, owner: Node, what: str, error: object) -> None:
        """A hop to ``owner`` failed: counted each time, said once an owner."""
        self.relay_errors += 1
        if owner.id not in self.unreachable:
            self.unreachable.add(owner.id)
            log.warning("node %s at %s is unreachable (%s: %s)", owner.id, owner.url, what, error)

    def relayed(self, owner: Node) -> None:
        """A hop to ``owner`` went through: it is reachable (again)."""
        if owner.id in self.unreachable:
            self.unreachable.discard(owner.id)
            log.info("node %s at %s is reachable again", owner.id, owner.url)


def render(service: Service) -> str:
    """The text of a scrape."""
    actions = service.metrics
    lines = _counter(
        "triominos_actions_total",
        "Actions submitted, by outcome.",
        (
            (f'outcome="{outcome}"', actions.outcomes[outcome])
            for outcome in ("accepted", "refused", "unavailable")
        ),
    )
    lines += actions.latency.lines(
        "triominos_action_seconds", "From an action's arrival to its broadcast."
    )
    lines += [
        "# HELP triominos_tables Tables in memory, by status.",
        "# TYPE triominos_tables gauge",
    ]
    statuses = Counter(table.info.status for table in service.tables.values())
    for status in ("waiting", "playing", "finished"):
        lines.append(f'triominos_tables{{status="{status}"}} {statuses[status]}')
    connections = sum(len(table.viewers) for table in service.tables.values())
    lines += [
        "# HELP triominos_connections Open WebSocket connections.",
        "# TYPE triominos_connections gauge",
        f"triominos_connections {connections}",
        "# HELP triominos_bot_queue Bot moves and hints waiting for a worker.",
        "# TYPE triominos_bot_queue gauge",
        f"triominos_bot_queue {service.worker.waiting}",
        "# HELP triominos_storage_failing Kinds of storage fault going on now.",
        "# TYPE triominos_storage_failing gauge",
        f"triominos_storage_failing {len(service.faults.failing)}",
    ]
    nodes = service.node_metrics
    lines += [
        "# HELP triominos_node_info This node's id.",
        "# TYPE triominos_node_info gauge",
        f'triominos_node_info{{node="{service.node.id}"}} 1',
        "# HELP triominos_tables_owned Tables this node holds live (owns the lease of).",
        "# TYPE triominos_tables_owned gauge",
        f"triominos_tables_owned {len(service.tables)}",
        "# HELP triominos_leases_total Leases on tables, by what became of them.",
        "# TYPE triominos_leases_total counter",
        f'triominos_leases_total{{event="claimed"}} {nodes.claimed}',
        f'triominos_leases_total{{event="lost"}} {nodes.lost}',
        f'triominos_leases_total{{event="released"}} {nodes.released}',
        "# HELP triominos_proxied_requests_total HTTP requests sent on to a table's owner.",
        "# TYPE triominos_proxied_requests_total counter",
        f"triominos_proxied_requests_total {nodes.proxied_requests}",
        "# HELP triominos_proxied_connections_total WebSockets sent on to a table's owner.",
        "# TYPE triominos_proxied_connections_total counter",
        f"triominos_proxied_connections_total {nodes.proxied_connections}",
        "# HELP triominos_proxied_connections WebSockets open now through to another node.",
        "# TYPE triominos_proxied_connections gauge",
        f"triominos_proxied_connections {nodes.proxying}",
        "# HELP triominos_relay_errors_total Hops to a table's owner that failed.",
        "# TYPE triominos_relay_errors_total counter",
        f"triominos_relay_errors_total {nodes.relay_errors}",
    ]
    lines += nodes.failover.lines(
        "triominos_failover_seconds",
        "From the lease of a table's owner running out to this node serving the table.",
    )
    lines += service.store.commits.lines(
        "triominos_commit_seconds", "The commits of accepted actions, each from begin to end."
    )
    traffic = service.traffic
    lines += traffic.loop_lag.lines(
        "triominos_event_loop_lag_seconds", "How much later than asked the event loop ran."
    )
    lines += _counter(
        "triominos_http_responses_total",
        "HTTP answers, by status.",
        [(f'status="{status}"', count) for status, count in sorted(traffic.statuses.items())],
    )
    lines += _counter(
        "triominos_websocket_closes_total",
        "WebSocket connections ended, by close code (1006: dropped).",
        [(f'code="{code}"', count) for code, count in sorted(traffic.closes.items())],
    )
    lines += _counter(
        "triominos_rate_limited_total",
        "Requests and WebSocket handshakes refused for their rate.",
        [(f'transport="{kind}"', traffic.rate_limited[kind]) for kind in ("http", "websocket")],
    )
    return "\n".join(lines + _process_lines()) + "\n"


def _counter(name: str, help_text: str, samples: Iterable[tuple[str, int]]) -> list[str]:
    """A labelled counter's lines; ``samples``: the labels (``name="value"``) and counts."""
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} counter"]
    return lines + [f"{name}{{{labels}}} {count}" for labels, count in samples]


def _process_lines() -> list[str]:
    """This process's CPU time and resident memory, under Prometheus's usual names (the
    bot workers are processes of their own). Memory is read from ``/proc`` (Linux);
    elsewhere it is left out."""
    lines = [
        "# HELP process_cpu_seconds_total CPU time of this process, user and system.",
        "# TYPE process_cpu_seconds_total counter",
        f"process_cpu_seconds_total {time.process_time():.3f}",
    ]
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return lines
    return [
        *lines,
        "# HELP process_resident_memory_bytes Resident memory of this process.",
        "# TYPE process_resident_memory_bytes gauge",
        f"process_resident_memory_bytes {pages * os.sysconf('SC_PAGE_SIZE')}",
    ]
