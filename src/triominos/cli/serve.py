"""``triominos serve``: the game service, on uvicorn; one node of several on PostgreSQL."""

from __future__ import annotations

import contextlib
import datetime
import gc
import ipaddress
import json
import logging
import signal
import socket
from types import FrameType
from typing import TYPE_CHECKING

import click

from triominos.cli.main import main, stop

if TYPE_CHECKING:
    from triominos.server.store import Store

FULL_COLLECTION_EVERY = 1000
"""Collections of the middle generation between two full ones (Python's default: 10)."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--database",
    default=None,
    metavar="URL",
    help="sqlite:///FILE or postgresql://… (default: a SQLite file in the user's data directory).",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    metavar="URL",
    envvar="TRIOMINOS_ALLOWED_ORIGIN",
    help="An origin browsers reach the service at, e.g. https://triominos.example "
    "(repeatable; or env TRIOMINOS_ALLOWED_ORIGIN, separated by spaces). The addresses "
    "it is served on, as IP addresses, are always allowed.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDR/CIDR",
    envvar="TRIOMINOS_TRUSTED_PROXY",
    help="A proxy in front of the service whose X-Forwarded-For names the client, e.g. "
    "127.0.0.1 for nginx on this machine (repeatable; or env TRIOMINOS_TRUSTED_PROXY, "
    "separated by spaces). Without one the header is ignored.",
)
@click.option(
    "--node-url",
    default=None,
    metavar="URL",
    envvar="TRIOMINOS_NODE_URL",
    help="Where the other nodes on the same PostgreSQL database reach this one, e.g. "
    "http://10.0.0.2:8001 (default: http://HOST:PORT; or env TRIOMINOS_NODE_URL).",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    envvar="TRIOMINOS_LOG_FORMAT",
    help="Log lines as text with their time, or one JSON object a line (time, level, "
    "logger, message) for a log collector (or env TRIOMINOS_LOG_FORMAT).",
)
@click.pass_context
def serve(
    context: click.Context,
    host: str,
    port: int,
    database: str | None,
    allowed_origins: tuple[str, ...],
    trusted_proxies: tuple[str, ...],
    node_url: str | None,
    log_format: str,
) -> None:
    """Serve the web app: play in the browser, with friends and bots.

    Several nodes may serve one PostgreSQL database (each with its --node-url), behind
    one load balancer; a SQLite database has one node.
    """
    try:
        import uvicorn
        from sqlalchemy.exc import SQLAlchemyError

        from triominos.server.app import create_app
        from triominos.server.drain import DrainingServer
        from triominos.server.guard import OriginError, ProxyError
        from triominos.server.protocol import MAX_MESSAGE_BYTES
        from triominos.server.store import (
            StorageFault,
            Store,
            StoreError,
            default_database_url,
        )
    except ImportError as error:
        stop(context, f"the server needs its extras: pip install 'triominos[server]' ({error})")
    url = database or default_database_url()
    try:
        # Open the database and bring its schema up to date here, so that a database
        # that cannot be used is one line of error, not a failed start.
        store = Store(url)
        node_url = this_node_url(store, host, port, node_url)
        store.upgrade()
        store.check_writable()  # a read-only disk is found now, not at the first move
        store.dispose()
        app = create_app(
            url,
            allowed_origins=allowed_origins,
            trusted_proxies=trusted_proxies,
            node_url=node_url,
        )
    except click.BadParameter as error:
        stop(context, f"--node-url: {error.message}")
    except OriginError as error:
        stop(context, f"--allowed-origin: {error}")
    except ProxyError as error:
        stop(context, f"--trusted-proxy: {error}")
    except StoreError as error:
        stop(context, f"--database: {error}")
    except StorageFault as error:
        stop(context, f"--database: cannot write to {url}: {error}")
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        stop(context, f"--database: cannot use {url}: {reason}")
    # The service's own lines (tables created, actions by kind, bots that failed): never
    # a token, a rack or the pool. uvicorn's go through the same handler.
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    click.echo(f"triominos: serving on http://{host}:{port}/", err=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE_BYTES,
        # The guard reads X-Forwarded-For, from the --trusted-proxy only (uvicorn's
        # own reading believes anything 127.0.0.1 sends).
        proxy_headers=False,
        # Compressing every message (each a whole view) cost the server more time than
        # it saved: p99 94 ms instead of 14 at 500 clients (benchmarks/load.py).
        ws_per_message_deflate=False,
        log_level="info",
        log_config=None,
        timeout_graceful_shutdown=5,
    )
    config.load()
    server = DrainingServer(config, app)
    settle_garbage_collector()
    # uvicorn handles SIGTERM while it runs (the drain), then raises it again under the
    # handler it found: this one, so that a drained node exits 0.
    signal.signal(signal.SIGTERM, exit_quietly)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()  # exits with status 3 itself when it cannot start (a port in use)


def this_node_url(store: Store, host: str, port: int, node_url: str | None) -> str:
    """The URL the other nodes reach this one at; BadParameter saying what is wrong.

    Several nodes need PostgreSQL: SQLite is one process's file, so a node URL there is
    a mistake. A node listening on every address (0.0.0.0, ::) is reached by its
    machine's name unless told otherwise.
    """
    if node_url is not None:
        if store.url.get_backend_name() == "sqlite":
            raise click.BadParameter(
                "several nodes need one PostgreSQL database (--database postgresql://…); "
                "a SQLite database has one node"
            )
        if not node_url.startswith(("http://", "https://")):
            raise click.BadParameter(f"{node_url!r} is not http://HOST:PORT")
        return node_url
    try:
        everywhere = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        everywhere = False
    name = socket.gethostname() if everywhere else f"[{host}]" if ":" in host else host
    return f"http://{name}:{port}"


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonLines(logging.Formatter):
    """A log record as one line of JSON: its time (ISO 8601, UTC), level, logger and
    message, and the traceback of an error that has one."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def exit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def settle_garbage_collector() -> None:
    """Keep the garbage collector's full passes out of the way of live play.

    A full pass stops every table at once for as long as it takes to look at every
    object: with hundreds of connections, 100 to 250 ms, every 10 to 20 seconds under
    load. What exists once the service is set up (the modules, the app, uvicorn) lives as
    long as the process, so it leaves the collector's sight; and full passes, which find
    next to nothing here (the young passes free the cycles a game makes), come a hundred
    times less often.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
