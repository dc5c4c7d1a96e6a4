"""The Starlette application: the routes of PROTOCOL.md behind the guard.

:func:`create_app` wires a :class:`~triominos.server.service.Service` (the store, the
live tables, the bot worker, the turn timers) to the HTTP routes
(:mod:`triominos.server.routes`) and the WebSocket (:mod:`triominos.server.ws`), with
every request checked first for its Host, Origin, size and rate
(:mod:`triominos.server.guard`) and, around that, counted by its answer
(:class:`triominos.server.metrics.Metered`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor

from argon2 import PasswordHasher
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from triominos.analysis import DEFAULT_SIMULATIONS
from triominos.server import routes
from triominos.server.account_api import AccountApi
from triominos.server.bots import BotWorker, pool_size, process_pool
from triominos.server.friends_store import Invitation
from triominos.server.guard import Guard, Origins, RateLimiter, TrustedProxies
from triominos.server.learn_api import learn_routes
from triominos.server.metrics import Metered, watch_loop_lag
from triominos.server.nodes import Node
from triominos.server.pad_api import pad_routes
from triominos.server.profile_api import account_routes
from triominos.server.protocol import CONNECTIONS_PER_ADDRESS, ApiError
from triominos.server.push import Pusher, invitation
from triominos.server.push_api import push_routes
from triominos.server.push_store import PushStore
from triominos.server.puzzle_api import puzzle_routes
from triominos.server.rating_api import rating_routes
from triominos.server.routes import STATIC, page
from triominos.server.rules_page import rules_routes
from triominos.server.service import Service, unavailable
from triominos.server.store import StorageFault, Store
from triominos.server.trace_store import BrowserIds
from triominos.server.ws import play

__all__ = ["STATIC", "create_app"]

WAITING_PER_ADDRESS = 10
WAITING_IN_ALL = 1000
WAITING_SECONDS = 24 * 3600.0
UNJOINED_SECONDS = 20 * 60.0
"""The caps on tables waiting for players (PROTOCOL.md, "Limits"): per creator's address,
in all, and how long one may wait before it is deleted: a day once someone joined it,
20 minutes while nobody did (a link sent to friends is opened in minutes)."""
DEFAULT_PUSH_CONTACT = "mailto:webmaster@localhost"
"""The VAPID ``sub`` claim when the operator names none: push services may refuse it,
so a public server sets ``TRIOMINOS_PUSH_CONTACT``."""


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return error.response()


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = "not_found" if error.status_code == 404 else "http_error"
    return ApiError(error.status_code, code, str(error.detail)).response()


async def storage_error(request: Request, error: Exception) -> Response:
    """503 for a storage fault, whichever part of the service met it (the score pad
    has storage of its own)."""
    service: Service = request.app.state.service
    return unavailable(service.faults.failed(error)).response()


async def server_error(request: Request, error: Exception) -> Response:
    return ApiError(500, "internal", "the server failed; the error is logged").response()


def service_clock(request: Request) -> float:
    """The node's clock, as its service has it (a test moves it on)."""
    service: Service = request.app.state.service
    return service.clock()


def create_app(
    database_url: str,
    *,
    node_url: str = "",
    bot_executor: Executor | None = None,
    bot_delay: float | None = None,
    bot_slots: int | None = None,
    allowed_origins: Sequence[str] = (),
    trusted_proxies: Sequence[str] = (),
    rate_limits: bool = True,
    waiting_per_address: int = WAITING_PER_ADDRESS,
    waiting_in_all: int = WAITING_IN_ALL,
    waiting_seconds: float = WAITING_SECONDS,
    unjoined_seconds: float = UNJOINED_SECONDS,
    connections_per_address: int = CONNECTIONS_PER_ADDRESS,
    analysis_simulations: int | None = None,
    push_contact: str | None = None,
    push_loopback: bool | None = None,
    clock: Callable[[], float] = time.time,
    password_hasher: PasswordHasher | None = None,
) -> Starlette:
    """The service as an ASGI app on ``database_url``: one node of those on that
    database, which the other nodes reach at ``node_url`` (``--node-url``).

    ``bot_executor``: where bots think (default: a process pool); ``bot_delay``: the
    least time a bot move takes, so people see it (default: env
    ``TRIOMINOS_BOT_DELAY``, else 0.4 s); ``bot_slots``: the jobs the executor runs at
    once (default: env ``TRIOMINOS_BOT_WORKERS``, else 2). ``allowed_origins``: the
    origins a browser may reach the service from beside its own addresses
    (``--allowed-origin``). ``trusted_proxies``: the addresses or networks of the
    proxies whose ``X-Forwarded-For`` names the client (``--trusted-proxy``).
    ``rate_limits``: off only for a benchmark that plays every client from one address.
    ``waiting_*`` and ``connections_per_address``: limits of PROTOCOL.md.
    ``clock``: this machine's clock (a test gives a node a slow one).
    ``password_hasher``: argon2id's parameters for passwords (default: RFC 9106's second
    profile; tests give cheaper ones).
    ``analysis_simulations``: what a finished match's analysis spends a decision
    (default: env ``TRIOMINOS_ANALYSIS_SIMS``, else ``triominos analyse``'s default).
    ``push_contact``: the ``mailto:`` or ``https:`` address a push service may write
    to about this server's pushes (default: env ``TRIOMINOS_PUSH_CONTACT``).
    ``push_loopback``: let push endpoints be ``http://`` on loopback, for a test's own
    push service (default: env ``TRIOMINOS_PUSH_LOOPBACK=1``; never in production).
    """
    store = Store(database_url)
    node = Node.new(node_url)
    origins = Origins.parse(allowed_origins)
    proxies = TrustedProxies.parse(trusted_proxies)
    if bot_delay is None:
        bot_delay = float(os.environ.get("TRIOMINOS_BOT_DELAY", "0.4"))
    if analysis_simulations is None:
        analysis_simulations = int(
            os.environ.get("TRIOMINOS_ANALYSIS_SIMS", str(DEFAULT_SIMULATIONS))
        )

    if push_contact is None:
        push_contact = os.environ.get("TRIOMINOS_PUSH_CONTACT", DEFAULT_PUSH_CONTACT)
    if push_loopback is None:
        push_loopback = os.environ.get("TRIOMINOS_PUSH_LOOPBACK") == "1"
    pusher = Pusher(PushStore(store), contact=push_contact, loopback=push_loopback, clock=clock)
    # argon2id with RFC 9106's second profile unless given (the tests give a cheap one:
    # the sign-in logic is the same, and 64 MiB and most of a second a hash is what a
    # flood should cost, not CI).
    accounts = AccountApi(store, service_clock, password_hasher or PasswordHasher())

    async def invited(sent: Invitation) -> None:
        """A friend's invitation to a table: a push to the invited account's devices."""
        pusher.notify(invitation(sent))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        slots = pool_size() if bot_slots is None else bot_slots
        if bot_executor is None:
            worker = BotWorker(process_pool(slots), slots=slots, replace=process_pool)
        else:
            worker = BotWorker(bot_executor, slots=slots)
        service = Service(
            store,
            worker,
            bot_delay,
            node=node,
            waiting_per_address=waiting_per_address,
            waiting_in_all=waiting_in_all,
            waiting_seconds=waiting_seconds,
            unjoined_seconds=unjoined_seconds,
            connections_per_address=connections_per_address,
            analysis_simulations=analysis_simulations,
            clock=clock,
            pusher=pusher,
        )
        app.state.service = service
        app.state.push = pusher
        await service.start()
        lag = asyncio.create_task(watch_loop_lag(service.traffic))
        await asyncio.to_thread(pusher.start)  # the schema is current now
        try:
            yield
        finally:
            lag.cancel()
            pusher.close()
            await service.stop()

    table_routes: list[BaseRoute] = [
        Route("/api/presets", routes.presets),
        Route("/api/bots", routes.bot_levels),
        Route("/api/tables", routes.create_table, methods=["POST"]),
        Route("/api/tables", routes.list_tables),
        Route("/api/tables/{code}", routes.get_table),
        Route("/api/tables/{code}/join", routes.join_table, methods=["POST"]),
        Route("/api/tables/{code}/seats/{seat}/bot", routes.give_seat_to_bot, methods=["POST"]),
        Route("/api/tables/{code}/claim", routes.claim_win, methods=["POST"]),
        Route("/api/tables/{code}/rematch", routes.rematch, methods=["POST"]),
        Route("/api/tables/{code}/seats/{seat}/qr", routes.seat_qr, methods=["POST"]),
        Route("/api/tables/{code}/record", routes.record),
        Route("/api/tables/{code}/analysis", routes.analysis),
        Route("/api/tables/{code}/analysis", routes.analyse, methods=["POST"]),
        Route("/healthz", routes.healthz),
        Route("/readyz", routes.readyz),
        Route("/metrics", routes.metrics),
        WebSocketRoute("/ws/{code}", play),
        *pad_routes(store),
        *puzzle_routes(store),
        *account_routes(accounts, on_invitation=invited),
        *rating_routes(store, clock),
        *learn_routes(),
        *rules_routes(),
        *push_routes(store, pusher, accounts),
        Route("/sw.js", routes.service_worker),
        Route("/manifest.webmanifest", routes.manifest),
        Route("/", page("index.html")),
        Route("/t/{code}", page("index.html")),
        Route("/puzzles", page("index.html")),
        Route("/puzzles/{id}", page("index.html")),
        Route("/account", page("index.html")),
        Route("/ratings", page("index.html")),
        Route("/players/{name}", page("index.html")),
        Route("/pad", page("pad/index.html")),
        Route("/pad/{id}", page("pad/index.html")),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=table_routes,
        lifespan=lifespan,
        middleware=[
            Middleware(Metered),
            Middleware(
                Guard,
                origins=origins,
                limiter=RateLimiter() if rate_limits else None,
                node_secret=node.secret,
                proxies=proxies,
            ),
            Middleware(BrowserIds),
        ],
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            StorageFault: storage_error,
            SQLAlchemyError: storage_error,
            Exception: server_error,
        },
    )
    app.state.store = store
    return app
