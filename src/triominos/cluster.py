"""Where the measuring commands' work runs: here, in one process or several, or on Ray.

Every command that plays or values many independent things (the arena's games, a
ladder's pairings, a self-play series, the records of an analysis, the games puzzles
come from) hands them to :func:`ordered_map`, which runs a function over the items
and yields the results **in the items' order**, wherever they ran. Each item carries
its own seed, so the results are those of a plain loop, byte for byte: more processes
or a Ray cluster change only how soon they come.

Where: ``jobs`` local processes, or the Ray cluster at ``ray`` (an address, or
``auto`` for the one started on this machine; the ``cluster`` extra).
A Ray task whose worker dies (a killed process, a lost node) is run again, up to
:data:`TASK_RETRIES` times: a task is a pure function of its item, so the retried
result is the one the first try would have given. docs/cluster.md shows a run.
"""

from __future__ import annotations

import importlib
import ipaddress
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from types import ModuleType
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

RAY_MISSING = "--ray needs Ray, the cluster extra: pip install -e '.[cluster]' in the checkout"
TASK_RETRIES = 3
"""How many times Ray runs a task again whose worker died before it finished."""
AHEAD = 2
"""Items in flight per worker: enough that a worker never waits for the next one, few
enough that an endless stream of items (puzzle generation) is not all submitted."""
NODE_IP_VARIABLE = "RAY_NODE_IP_ADDRESS"
"""Sets the address this machine has in the cluster, when the ``--ray`` address does
not say it (docs/cluster.md)."""


class ClusterError(ValueError):
    """Ray is not installed, or the cluster cannot be reached (the message says which)."""


def ordered_map(
    function: Callable[[Item], Result],
    items: Iterable[Item],
    *,
    jobs: int = 1,
    ray: str | None = None,
    on_done: Callable[[Result], None] | None = None,
) -> Generator[Result]:
    """``function`` of each item, yielded in the items' order (``items`` may be endless),
    computed in ``jobs`` processes, or as tasks of the Ray cluster at ``ray``, or here
    (neither).

    ``function`` and the items must pickle (a module's function, or a
    :func:`functools.partial` of one). ``on_done`` hears of each result as soon as it
    is ready, for a progress bar, while the results wait for the ones before them.
    Closing the generator early (an error, a test that has decided) drops the work not
    yet done.
    """
    if ray is None and jobs <= 1:
        for item in items:
            result = function(item)
            if on_done is not None:
                on_done(result)
            yield result
        return
    runner = _PoolRunner(function, jobs) if ray is None else _RayRunner(function, ray)
    pending: deque[Future[Result]] = deque()
    finished = False
    try:
        for item in items:
            future = runner.submit(item)
            if on_done is not None:
                future.add_done_callback(_reporter(on_done))
            pending.append(future)
            if len(pending) >= AHEAD * runner.width:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        finished = True
    finally:
        runner.close(finished)


def _reporter(on_done: Callable[[Result], None]) -> Callable[[Future[Result]], None]:
    def report(future: Future[Result]) -> None:
        if not future.cancelled() and future.exception() is None:
            on_done(future.result())

    return report


class _PoolRunner:
    """Local processes, started fresh (spawned: no forking a process with threads).

    A runner has a ``width`` (how many items run at once), ``submit`` and ``close``
    (when not ``finished``, the items still waiting are dropped).
    """

    def __init__(self, function: Callable[[Any], Any], jobs: int) -> None:
        self.function = function
        self.width = jobs
        self.pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))

    def submit(self, item: Any) -> Future[Any]:
        return self.pool.submit(self.function, item)

    def close(self, finished: bool) -> None:
        self.pool.shutdown(wait=finished, cancel_futures=True)


class _RayRunner:
    """Ray tasks, one an item, on a cluster's CPUs (one task a CPU)."""

    def __init__(self, function: Callable[[Any], Any], address: str) -> None:
        self.ray = connect(address)
        self.task = self.ray.remote(max_retries=TASK_RETRIES)(_call)
        self.function = self.ray.put(function)
        self.width = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.submitted: list[Any] = []

    def submit(self, item: Any) -> Future[Any]:
        reference = self.task.remote(self.function, item)
        self.submitted.append(reference)
        future: Future[Any] = reference.future()
        return future

    def close(self, finished: bool) -> None:
        if not finished:
            for reference in self.submitted:
                self.ray.cancel(reference)


def _call(function: Callable[[Any], Any], item: Any) -> Any:
    """A Ray task: the function of one item (Ray hands the stored function over)."""
    return function(item)


def connect(address: str) -> ModuleType:
    """Ray, connected to the cluster at ``address`` (once a process); ClusterError when
    Ray is missing or the cluster cannot be reached.

    The driver joins the cluster as the node at the address's host when it is an IP
    address (the command runs on the head node, as Ray requires), or at
    ``RAY_NODE_IP_ADDRESS``: Ray would otherwise take the address of the machine's
    outward interface, never loopback. Token authentication is Ray's own: the
    ``RAY_AUTH_MODE`` and ``RAY_AUTH_TOKEN_PATH`` (or ``RAY_AUTH_TOKEN``) the cluster
    was started with must be in the environment (docs/cluster.md).
    """
    ray = ray_module()
    if ray.is_initialized():
        return ray
    try:
        ray.init(
            address=address,
            _node_ip_address=node_ip(address),
            logging_level=logging.WARNING,
            log_to_driver=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise ClusterError(f"cannot join the Ray cluster at {address}: {error}") from None
    return ray


def ray_module() -> ModuleType:
    """The ``ray`` package, or a ClusterError naming the extra that installs it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ClusterError(RAY_MISSING) from None


def node_ip(address: str) -> str | None:
    """This machine's address in the cluster: ``RAY_NODE_IP_ADDRESS``, else the host of
    an ``IP:port`` address, else None (Ray finds it)."""
    if NODE_IP_VARIABLE in os.environ:
        return os.environ[NODE_IP_VARIABLE]
    host = address.rpartition(":")[0].strip("[]")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return None
