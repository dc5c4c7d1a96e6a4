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

import contextlib
import importlib
import ipaddress
import logging
import multiprocessing
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
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
                yield runner.result(pending.popleft())
        while pending:
            yield runner.result(pending.popleft())
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

    A runner has a ``width`` (how many items run at once), ``submit``, ``result`` (an
    item's result, or the error its function raised) and ``close`` (when not
    ``finished``, the items still waiting are dropped).
    """

    def __init__(self, function: Callable[[Any], Any], jobs: int) -> None:
        self.function = function
        self.width = jobs
        self.pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))

    def submit(self, item: Any) -> Future[Any]:
        return self.pool.submit(self.function, item)

    def result(self, future: Future[Any]) -> Any:
        return future.result()

    def close(self, finished: bool) -> None:
        self.pool.shutdown(wait=finished, cancel_futures=True)


class _RayRunner:
    """Ray tasks, one an item, on a cluster's CPUs (one task a CPU)."""

    def __init__(self, function: Callable[[Any], Any], address: str) -> None:
        self.ray = connect(address)
        self.task = self.ray.remote(max_retries=TASK_RETRIES)(_call)
        self.function = self.ray.put(function)
        self.width = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.references: dict[Future[Any], Any] = {}
        """Each task's object reference until its result is taken (a reference held
        keeps the result in the cluster's object store)."""

    def submit(self, item: Any) -> Future[Any]:
        reference = self.task.remote(self.function, item)
        future: Future[Any] = reference.future()
        self.references[future] = reference
        return future

    def result(self, future: Future[Any]) -> Any:
        """The task's result, or the error its function raised as itself (Ray wraps it
        with the remote traceback)."""
        del self.references[future]
        try:
            return future.result()
        except self.ray.exceptions.RayTaskError as error:
            raise error.cause from None

    def close(self, finished: bool) -> None:
        for reference in self.references.values():
            self.ray.cancel(reference)


def _call(function: Callable[[Any], Any], item: Any) -> Any:
    """A Ray task: the function of one item (Ray hands the stored function over)."""
    return function(item)


def connect(address: str) -> ModuleType:
    """Ray, connected to the cluster at ``address``; ClusterError when Ray is missing or
    the cluster cannot be reached. Once a process: later calls keep that connection,
    whatever their address (a command joins one cluster).

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
    if _port(address) is not None and not _answers(address):  # Ray would retry for minutes
        raise ClusterError(f"no Ray cluster answers at {address}")
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


# --- a cluster on this machine ------------------------------------------------------------

LOOPBACK = "127.0.0.2"
"""The loopback cluster's address: not 127.0.0.1, which Ray 2.60 replaces by the address
of the machine's outward interface wherever a node's or a driver's address is given
(``ray._private.services.resolve_ip_for_localhost``); any 127.x.y.z is loopback on Linux."""
NODE_OPTIONS = (
    f"--node-ip-address={LOOPBACK}",
    "--object-store-memory=80000000",
    "--disable-usage-stats",
    "--block",
)
"""Every node's ``ray start`` options: loopback, a small object store (results are small),
no usage reports, and the command in the foreground, so that stopping it stops the node."""


class LoopbackCluster:
    """A Ray cluster on this machine, on loopback, with token authentication: a head
    with no CPU (every task on a worker) and one-CPU workers added one by one. For the
    tests and the benchmark; docs/cluster.md starts the same by hand.

    ``niceness``: the workers' (Ray's default when None: 15, below every other process).

    A context manager: inside, this process is the cluster's driver (``address`` for
    ``--ray``) with the token in its environment; on leaving, every process of the
    cluster is stopped, even after an error. Ray reads the token's settings when first
    imported: enter before anything in the process imports ``ray``.
    """

    def __init__(self, workers: int = 2, *, niceness: int | None = None) -> None:
        # Short: the nodes' Unix sockets live under it, and their paths have a length limit.
        self.temp_dir = tempfile.mkdtemp(prefix="trc")
        token_file = Path(self.temp_dir) / "token"
        token_file.write_text(secrets.token_hex(32))
        self.environment = {
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN_PATH": str(token_file),
            "RAY_USAGE_STATS_ENABLED": "0",
            # The workers import this very source, wherever they run from.
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(Path(__file__).resolve().parents[1]), os.getenv("PYTHONPATH")])
            ),
        }
        if niceness is not None:  # else Ray's: 15, its workers yield to everything else
            self.environment["RAY_worker_niceness"] = str(niceness)
        self.saved = {name: os.environ.get(name) for name in self.environment}
        self.address = f"{LOOPBACK}:{_free_port()}"
        self.workers = workers
        self.nodes: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> LoopbackCluster:
        # This process is the driver: Ray reads the authentication mode when imported.
        os.environ.update(self.environment)
        self.ray = ray_module()
        try:
            port = self.address.rpartition(":")[2]
            self._start("--head", f"--port={port}", "--num-cpus=0", "--include-dashboard=false")
            _wait_for_port(self.address)
            connect(self.address)
            for _ in range(self.workers):
                self.add_worker()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def add_worker(self) -> None:
        """One more one-CPU worker, once it has joined (one at a time: two raylets
        starting at once on one address can crash)."""
        cpus = self.ray.cluster_resources().get("CPU", 0) + 1
        self._start(f"--address={self.address}", "--num-cpus=1")
        deadline = time.monotonic() + STARTUP_SECONDS
        while self.ray.cluster_resources().get("CPU", 0) < cpus:
            if time.monotonic() > deadline:
                raise ClusterError(f"a worker did not join the cluster at {self.address}")
            time.sleep(0.2)

    def _start(self, *options: str) -> None:
        command = [str(Path(sys.executable).with_name("ray")), "start", *options, *NODE_OPTIONS]
        if "--head" in options:
            command.append(f"--temp-dir={self.temp_dir}")
        self.nodes.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))

    def processes(self) -> list[int]:
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
            if self.temp_dir.encode() in command:
                named.add(int(entry.name))
        return sorted(named | {pid for pid, parent in parents.items() if parent in named})

    def close(self) -> None:
        """Disconnect, stop every node (the workers first) and whatever they left."""
        self.ray.shutdown()
        for node in reversed(self.nodes):
            node.send_signal(signal.SIGTERM)
        for node in reversed(self.nodes):
            try:
                node.wait(timeout=STARTUP_SECONDS)
            except subprocess.TimeoutExpired:
                node.kill()
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.temp_dir, ignore_errors=True)
        for name, value in self.saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


STARTUP_SECONDS = 60
"""The longest a node may take to start or to stop."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_port(address: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while not _answers(address):
        if time.monotonic() > deadline:
            raise ClusterError(f"the head did not listen on {address}")
        time.sleep(0.2)


def _port(address: str) -> int | None:
    """The port of a ``HOST:PORT`` address; None for ``auto`` and the like."""
    port = address.rpartition(":")[2]
    return int(port) if port.isdigit() else None


def _answers(address: str) -> bool:
    """Whether something accepts a connection at ``HOST:PORT``."""
    host = address.rpartition(":")[0].strip("[]")
    try:
        socket.create_connection((host, _port(address) or 0), timeout=5).close()
    except OSError:
        return False
    return True
