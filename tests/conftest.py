"""Shared fixtures: databases on both backends, a live server process and a real browser.

- ``postgres_server_url`` / ``postgres_url`` / ``sqlite_url`` / ``database_url``: a fresh,
  empty database per test; ``database_url`` runs the test once on SQLite and once on
  PostgreSQL. The PostgreSQL server comes from ``TRIOMINOS_TEST_POSTGRES_URL`` or, when that
  is unset, from ``scripts/ensure-postgres`` (which installs and starts one as needed).
- ``live_server``: starts real ``triominos serve`` processes that a test can crash
  (``kill``), stop and start again.
- ``browser`` / ``page`` / ``phone_page``: Playwright driving the system Chromium (one
  browser per test module); any console error or uncaught page exception fails the test.
  ``watched_page`` makes more such pages (another person's, one with a given locale, one
  where a refused request is expected).

The engine's tests need only the core and pytest, so nothing here imports a package of
the ``server`` or ``test`` extras at the top: each fixture imports what it drives, and a
test module that needs an extra starts with ``pytest.importorskip`` (it is skipped, not
failed, in a venv without that extra).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Error, Page

    from server_games import Served
    from triominos.server.store import Store

REPO = Path(__file__).resolve().parent.parent
ENSURE_POSTGRES = REPO / "scripts" / "ensure-postgres"
TRIOMINOS_COMMAND = Path(sys.executable).parent / "triominos"
SERVER_START_SECONDS = 20.0
SERVER_STOP_SECONDS = 10.0
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
"""A desktop browser's context (options of ``Browser.new_context``)."""
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 3,
}
"""A phone's browser context: a 390 by 844 touch screen, three pixels a point."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# --- databases --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server_url() -> str:
    """The URL of a running PostgreSQL server's maintenance database ``postgres``."""
    configured = os.environ.get("TRIOMINOS_TEST_POSTGRES_URL")
    if configured:
        return configured
    result = subprocess.run(
        [str(ENSURE_POSTGRES)], capture_output=True, text=True, check=False, timeout=600
    )
    if result.returncode != 0:
        pytest.fail(f"scripts/ensure-postgres failed:\n{result.stderr}", pytrace=False)
    return result.stdout.strip()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite database file that does not exist yet."""
    return f"sqlite:///{tmp_path / 'triominos.db'}"


@contextmanager
def fresh_postgres_database(server_url: str) -> Iterator[str]:
    """Create an empty database with a random name; drop it, connections and all, on exit."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"triominos_test_{secrets.token_hex(6)}"
    server = make_url(server_url)
    # psycopg wants a plain libpq URL, without SQLAlchemy's "+psycopg" driver suffix.
    admin = server.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_server_url: str) -> Iterator[str]:
    """A PostgreSQL database of this test's own, empty at the start and dropped after."""
    with fresh_postgres_database(postgres_server_url) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """A fresh database on each backend in turn: the test runs once per backend."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A store on a fresh database of each backend in turn, its schema made."""
    from triominos.server.store import Store

    store = Store(database_url)
    store.upgrade()
    yield store
    store.dispose()


# --- a live server ----------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """One ``triominos serve`` process on a fixed port and database, restartable; by
    default this venv's command, or another ``command`` (one installed from the wheel).

    Its stderr is appended to a log file across restarts so that ``log()`` tells the
    whole story when a test fails.
    """

    def __init__(
        self,
        database_url: str,
        port: int,
        log_path: Path,
        env: dict[str, str],
        command: Path = TRIOMINOS_COMMAND,
        start_seconds: float = SERVER_START_SECONDS,
    ):
        self.database_url = database_url
        self.command = command
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self._log_path = log_path
        self._env = env
        self.start_seconds = start_seconds
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def returncode(self) -> int | None:
        """The exit status of the last run, once it ended (None while it runs)."""
        return None if self._process is None else self._process.poll()

    @property
    def pid(self) -> int | None:
        """The process id of the current run (None before the first start)."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start the process and wait until it answers ``GET /api/presets``."""
        if self.running:
            raise RuntimeError(f"the server on port {self.port} is already running")
        command = [
            str(self.command),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database",
            self.database_url,
        ]
        with self._log_path.open("ab") as log:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **self._env},
            )
        self._wait_until_ready()

    def _wait_until_ready(self) -> None:
        import httpx

        assert self._process is not None
        deadline = time.monotonic() + self.start_seconds
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                pytest.fail(
                    f"triominos serve exited with status {self._process.returncode}:\n{self.log()}",
                    pytrace=False,
                )
            with suppress(httpx.HTTPError):
                if httpx.get(f"{self.base_url}/api/presets", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.05)
        self.kill()
        pytest.fail(
            f"triominos serve did not answer within {self.start_seconds:.0f} s:\n{self.log()}",
            pytrace=False,
        )

    def kill(self) -> None:
        """SIGKILL the process, like a crash: no shutdown code runs."""
        self._signal(signal.SIGKILL)

    def pause(self) -> None:
        """SIGSTOP the process: it holds its sockets open and answers nothing, like a
        node stalled in a long pause."""
        assert self._process is not None
        self._process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT the process paused by :meth:`pause`."""
        assert self._process is not None
        self._process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """SIGTERM the process and wait for its orderly shutdown (SIGKILL if it hangs)."""
        self._signal(signal.SIGTERM)

    def _signal(self, signum: signal.Signals) -> None:
        if self._process is None or self._process.poll() is not None:
            return
        self._process.send_signal(signum)
        try:
            self._process.wait(timeout=SERVER_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def log(self) -> str:
        """Everything the process wrote to stderr (and stdout) so far, over all runs."""
        if not self._log_path.exists():
            return ""
        return self._log_path.read_text(errors="replace")


class LiveServerFactory(Protocol):
    def __call__(self, database_url: str | None = None, **env: str) -> LiveServer: ...


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServerFactory]:
    """Start real servers: ``live_server(database_url=None, **env)``; all stop at teardown.

    Without a ``database_url`` each server gets its own fresh SQLite file.
    """
    servers: list[LiveServer] = []

    def start(database_url: str | None = None, **env: str) -> LiveServer:
        number = len(servers)
        if database_url is None:
            database_url = f"sqlite:///{tmp_path / f'live-server-{number}.db'}"
        log_path = tmp_path / f"live-server-{number}.log"
        server = LiveServer(database_url, free_port(), log_path, env)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


# --- a real browser ---------------------------------------------------------------------


def chromium_path() -> str:
    """Debian's Chromium, which scripts/ensure-chromium installs."""
    return shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for the tests of one module.

    Not for the whole session: while Playwright's sync API is started, its event loop
    counts as running in this thread, and ``asyncio.run`` fails in every other test. So
    a module that uses the browser must not call ``asyncio.run`` itself.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


class PageErrors:
    """Collects a page's console errors and uncaught exceptions, but for the expected ones.

    Any of them means the page is broken even when the test's own checks pass, so
    ``watched_page`` fails the test when there are any. ``expected`` are texts that mark
    what Chromium itself logs for a request the test makes fail on purpose.
    """

    def __init__(self, page: Page, expected: tuple[str, ...] = ()):
        self.messages: list[str] = []
        self._expected = expected
        page.on("console", self._on_console)
        page.on("pageerror", self._on_page_error)

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            location = message.location
            where = f" ({location['url']}:{location['lineNumber']})" if location["url"] else ""
            self._keep(f"console error: {message.text}{where}")

    def _on_page_error(self, error: Error) -> None:
        self._keep(f"uncaught exception: {error.message}")

    def _keep(self, message: str) -> None:
        if not any(text in message for text in self._expected):
            self.messages.append(message)

    def fail_if_any(self) -> None:
        if self.messages:
            listed = "\n".join(f"  {message}" for message in self.messages)
            pytest.fail(f"the page logged errors:\n{listed}", pytrace=False)


@contextmanager
def watched_page(browser: Browser, *expected: str, **context_options: Any) -> Iterator[Page]:
    """A page in a browser context of its own (made with ``context_options``), closed on
    exit; then any console error or uncaught exception on it fails the test, except those
    that contain one of ``expected``."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    errors = PageErrors(page, expected)
    try:
        yield page
    finally:
        context.close()
    errors.fail_if_any()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop-sized page in its own context; console errors fail the test."""
    with watched_page(browser, **DESKTOP) as desktop:
        yield desktop


@pytest.fixture
def phone_page(browser: Browser) -> Iterator[Page]:
    """A phone-sized touch page in its own context; console errors fail the test."""
    with watched_page(browser, **PHONE) as phone:
        yield phone


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Where browser tests save screenshots (``out/`` is not committed)."""
    directory = REPO / "out" / "screenshots"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture
def served(database_url: str) -> Iterator[Served]:
    """The app served in this process (uvicorn in a thread), on each database."""
    from server_games import serve_app

    with serve_app(database_url) as served:
        yield served


@pytest.fixture
def served_sqlite(sqlite_url: str) -> Iterator[Served]:
    """The same on SQLite only, for what does not depend on the database (error paths)."""
    from server_games import serve_app

    with serve_app(sqlite_url) as served:
        yield served


@pytest.fixture
def push_service() -> Iterator[Any]:
    """A push service on loopback that keeps what the server sends it (test_server_push's
    PushService), for every test of Web Push."""
    from test_server_push import running_push_service

    with running_push_service() as service:
        yield service
