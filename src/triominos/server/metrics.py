"""``GET /metrics``: the service's figures in Prometheus's text format (version 0.0.4).

What an operator watches: actions by outcome and how long each took from arrival to
broadcast (a histogram), the tables in memory by status (those this node owns), the open
connections, the bot worker's queue, and the node's part among several: leases claimed,
lost and released, requests and connections proxied to the tables' owners. Written by
hand: the format is a few lines of text, and the figures are read from the service at
the moment of the scrape rather than kept twice.
"""

from __future__ import annotations

import logging
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triominos.server.nodes import Node
    from triominos.server.service import Outcome, Service

log = logging.getLogger("triominos.server")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the action latency histogram's buckets."""


class ActionMetrics:
    """Counts of actions by outcome and a histogram of the accepted ones' latency."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)
        self.latency_sum = 0.0

    def record(self, outcome: Outcome, seconds: float) -> None:
        self.outcomes[outcome] += 1
        if outcome == "accepted":
            self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1
            self.latency_sum += seconds


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
    lines = [
        "# HELP triominos_actions_total Actions submitted, by outcome.",
        "# TYPE triominos_actions_total counter",
    ]
    for outcome in ("accepted", "refused", "unavailable"):
        lines.append(f'triominos_actions_total{{outcome="{outcome}"}} {actions.outcomes[outcome]}')
    lines += [
        "# HELP triominos_action_seconds From an action's arrival to its broadcast.",
        "# TYPE triominos_action_seconds histogram",
    ]
    total = 0
    for bound, count in zip((*LATENCY_BUCKETS, float("inf")), actions.buckets, strict=True):
        total += count
        label = "+Inf" if bound == float("inf") else repr(bound)
        lines.append(f'triominos_action_seconds_bucket{{le="{label}"}} {total}')
    lines += [
        f"triominos_action_seconds_sum {actions.latency_sum:.6f}",
        f"triominos_action_seconds_count {total}",
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
    return "\n".join(lines) + "\n"
