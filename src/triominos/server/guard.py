"""What every request passes before a route sees it: its Host and Origin, its size, and
its sender's rate.

Each check answers an attack (PROTOCOL.md, "Limits"):

- **DNS rebinding.** A page on ``evil.example`` whose name later resolves to 127.0.0.1
  reaches a server on loopback with ``Host: evil.example`` and a matching Origin, so an
  Origin compared with the Host proves nothing. The Host must be one the server was told
  to answer (``--allowed-origin``) or an address it is served on, written as an IP
  address (or ``localhost`` on loopback): names that an attacker controls never are.
- **Cross-site requests.** A form on another site can post ``text/plain`` or form data
  without the browser asking first; it cannot send ``application/json``. Every request
  that changes something must be JSON, and an Origin or ``Sec-Fetch-Site`` that says
  "another site" is refused.
- **Huge bodies.** The body's size is checked against ``Content-Length`` before it is
  read, and counted while it is read (a client may lie or stream without a length).
- **Forged addresses.** A client may send ``X-Forwarded-For`` with any address in it,
  a new one each time, to escape the limits. The header is believed only from a proxy
  the operator named (``--trusted-proxy``), and then only its right-most address that
  is not such a proxy (what the last trusted proxy saw); a header that is not a list
  of addresses is refused.
- **Floods.** Each client address (an IPv6 client by its /64, which one host owns) has a
  token bucket per kind of route (:data:`LIMITS`); past it, 429 with ``Retry-After``.

A request another node proxied here (:mod:`triominos.server.proxy`) passed all this
there already: it proves itself with this node's secret, and then counts as the client
it came from, never as the node.

The guard is plain ASGI middleware, so a refusal costs no routing and no body.
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from triominos.server.limits import Rate
from triominos.server.limits import RateLimiter as RateLimiter  # the app makes the guard's
from triominos.server.protocol import MAX_BODY_BYTES, ApiError
from triominos.server.proxy import CLIENT_HEADER, HOP, NODE_HEADER

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


# --- hosts and origins ------------------------------------------------------------------


class OriginError(ValueError):
    """An ``--allowed-origin`` that is not ``scheme://host[:port]``."""


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """``(host, port)`` of a Host header or an origin's netloc, lower case; None if it
    is not one."""
    try:
        parts = urlsplit(f"//{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or parts.username is not None or parts.path:
        return None
    default = 443 if scheme in ("https", "wss") else 80
    return host.lower(), default if port is None else port


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Origins:
    """The hosts and origins this server answers.

    ``allowed``: the origins given with ``--allowed-origin`` (``https://example.org``),
    the public addresses behind a proxy. Beside them, the server always answers the
    address a connection reached it on, as an IP address, and ``localhost`` when that
    address is loopback.
    """

    allowed: frozenset[tuple[str, str, int]] = frozenset()

    @classmethod
    def parse(cls, origins: Iterable[str]) -> Origins:
        allowed = set()
        for origin in origins:
            parts = urlsplit(origin.strip())
            scheme = parts.scheme.lower()
            found = _host_port(parts.netloc, scheme) if scheme in ("http", "https") else None
            if found is None or parts.path not in ("", "/") or parts.query:
                raise OriginError(
                    f"not an origin: {origin!r}; write scheme://host[:port], "
                    "e.g. https://triominos.example"
                )
            allowed.add((scheme, *found))
        return cls(frozenset(allowed))

    def host_allowed(self, host: str, port: int, server: tuple[str, int] | None) -> bool:
        if any((host, port) == (name, number) for _, name, number in self.allowed):
            return True
        if server is None:
            return False
        served_host, served_port = server
        if port != served_port:
            return False
        if _is_ip(host):
            return ipaddress.ip_address(host) == ipaddress.ip_address(served_host)
        return host == "localhost" and _is_loopback(served_host)

    def check(self, scope: Scope, headers: dict[str, str]) -> ApiError | None:
        """Why this request is refused for its Host or Origin, or None."""
        server = scope.get("server")
        scheme = scope.get("scheme", "http")
        found = _host_port(headers.get("host", ""), scheme)
        if found is None or not self.host_allowed(*found, server):
            return ApiError(
                421,
                "bad_host",
                "this server does not answer to that Host; see --allowed-origin",
            )
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            found = _host_port(parts.netloc, parts.scheme)
            web = parts.scheme in ("http", "https")
            if found is None or not web or not self.host_allowed(*found, server):
                return ApiError(403, "bad_origin", f"requests from {origin!r} are refused")
        elif headers.get("sec-fetch-site") == "cross-site":
            return ApiError(403, "bad_origin", "requests from other sites are refused")
        return None


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}


# --- forwarded addresses ----------------------------------------------------------------


class ProxyError(ValueError):
    """A ``--trusted-proxy`` that is not an address or a network."""


IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed
    (``--trusted-proxy``): none unless the operator names them."""

    networks: tuple[IpNetwork, ...] = ()

    @classmethod
    def parse(cls, proxies: Iterable[str]) -> TrustedProxies:
        networks = []
        for proxy in proxies:
            try:
                networks.append(ipaddress.ip_network(proxy.strip(), strict=False))
            except ValueError:
                raise ProxyError(
                    f"not an address or a network: {proxy!r}; write e.g. 127.0.0.1 or 10.0.0.0/8"
                ) from None
        return cls(tuple(networks))

    def trusts(self, address: str) -> bool:
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped
        return any(parsed in network for network in self.networks)

    def client(self, scope: Scope) -> str | ApiError | None:
        """The address a request came from when a trusted proxy sent it on (the
        right-most address of ``X-Forwarded-For`` that is no trusted proxy), None when
        the connection's own address is the client's, or why the header is refused."""
        peer = scope.get("client")
        if not peer or not self.trusts(peer[0]):
            return None
        values = [
            value.decode("latin-1")
            for name, value in scope["headers"]
            if name.lower() == b"x-forwarded-for"
        ]
        if not values:
            return None
        hops = [hop.strip() for value in values for hop in value.split(",")]
        for hop in reversed(hops):
            try:
                address = str(ipaddress.ip_address(hop))
            except ValueError:
                return ApiError(
                    400, "bad_forwarded", "X-Forwarded-For is not a list of IP addresses"
                )
            if not self.trusts(address):
                return address
        return str(ipaddress.ip_address(hops[0]))

    def scheme(self, scope: Scope) -> str | None:
        """The scheme the client used by a trusted proxy's ``X-Forwarded-Proto``."""
        peer = scope.get("client")
        if not peer or not self.trusts(peer[0]):
            return None
        for name, value in scope["headers"]:
            if name.lower() == b"x-forwarded-proto":
                proto: str = value.decode("latin-1").split(",")[-1].strip().lower()
                if proto in ("http", "https"):
                    secure = proto == "https"
                    if scope["type"] == "websocket":
                        return "wss" if secure else "ws"
                    return proto
        return None


# --- rates ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """A token bucket: ``burst`` requests at once, refilled at ``per_minute``."""

    name: str
    per_minute: int
    burst: int
    routes: str
    """The routes it counts, in words (PROTOCOL.md's table of limits)."""

    @property
    def rate(self) -> Rate:
        return Rate(self.burst, self.per_minute / 60)


LIMITS = (
    Limit("create", 10, 5, "POST /api/tables, POST /api/pad/games, POST /api/puzzles/browsers"),
    Limit("join", 30, 10, "POST /api/tables/CODE/join"),
    Limit("change", 60, 20, "the other POSTs of /api/tables: a seat to a bot, a rematch"),
    Limit(
        "look_up",
        120,
        30,
        "GET /api/tables/CODE and /api/tables/CODE/analysis, WebSocket connections to /ws/CODE",
    ),
    Limit("list", 60, 20, "GET /api/tables"),
    Limit("record", 30, 10, "GET /api/tables/CODE/record"),
    Limit("analyse", 6, 3, "POST /api/tables/CODE/analysis"),
    Limit("pad", 300, 60, "the rest of /api/pad"),
    Limit("puzzle", 60, 20, "the rest of /api/puzzles: puzzles shown, answers"),
    Limit(
        "sign_in",
        10,
        5,
        "POST /api/account/sign-up, /sign-in, /passkey-sign-in and the passkey options",
    ),
    Limit("account", 60, 20, "the other changes of /api/account (what a page reads is a page's)"),
    Limit("push", 20, 10, "POST and DELETE /api/push/subscriptions: subscribing, opting out"),
    Limit("page", 1200, 300, "pages, static files and everything else"),
)
"""Every HTTP route's limit per client address, declared once (PROTOCOL.md's table)."""
LIMIT = {limit.name: limit for limit in LIMITS}

_ROUTES = (
    ("POST", re.compile(r"/api/tables/?"), "create"),
    ("POST", re.compile(r"/api/pad/games/?"), "create"),
    ("POST", re.compile(r"/api/tables/[^/]+/join"), "join"),
    ("POST", re.compile(r"/api/tables/[^/]+/analysis"), "analyse"),
    ("POST", re.compile(r"/api/tables/.*"), "change"),
    ("GET", re.compile(r"/api/tables/?"), "list"),
    ("GET", re.compile(r"/api/tables/[^/]+/record"), "record"),
    ("GET", re.compile(r"/api/tables/[^/]+/analysis"), "look_up"),
    ("GET", re.compile(r"/api/tables/[^/]+"), "look_up"),
    ("WEBSOCKET", re.compile(r"/ws/.*"), "look_up"),
    (None, re.compile(r"/api/pad(/.*)?"), "pad"),
    ("POST", re.compile(r"/api/puzzles/browsers/?"), "create"),
    (None, re.compile(r"/api/puzzles(/.*)?"), "puzzle"),
    (
        "POST",
        re.compile(r"/api/account/(sign-up|sign-in|passkey-sign-in(/options)?|passkeys/options)"),
        "sign_in",
    ),
    *((method, re.compile(r"/api/account(/.*)?"), "account") for method in CHANGING_METHODS),
    *((method, re.compile(r"/api/push/subscriptions/?"), "push") for method in CHANGING_METHODS),
)


def limit_of(method: str, path: str) -> Limit:
    """The limit a request counts against."""
    for route_method, pattern, name in _ROUTES:
        if route_method in (None, method) and pattern.fullmatch(path):
            return LIMIT[name]
    return LIMIT["page"]


def client_key(scope: Scope) -> str:
    """Whom a request is counted for: its address, an IPv6 address by its /64."""
    client = scope.get("client")
    if not client:
        return "unknown"
    address: str = client[0]
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


BOT_TABLES_PER_ADDRESS = 3
"""Tables of bots only one address may have being played at once (PROTOCOL.md,
"Limits"): they play on with nobody there, so each costs the server until it ends."""


def rate_limited(wait: float, limit: Limit) -> ApiError:
    return ApiError(
        429,
        "rate_limited",
        f"too many requests of this kind ({limit.name}: {limit.per_minute} a minute); "
        f"try again in {math.ceil(wait)} s",
        retry_after=math.ceil(wait),
    )


# --- the middleware ---------------------------------------------------------------------


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, "too_large", f"a request body is at most {limit} bytes")


class Guard:
    """The ASGI middleware in front of the whole app."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        origins: Origins,
        limiter: RateLimiter | None,
        node_secret: str,
        proxies: TrustedProxies = TrustedProxies(),
        max_body: int = MAX_BODY_BYTES,
    ) -> None:
        self.app = app
        self.origins = origins
        self.proxies = proxies
        self.limiter = limiter
        self.node_secret = node_secret.encode()
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = self.hop_client(scope)
        if client is not None:  # checked by the node it reached first
            scope["client"] = (client, 0)
            scope[HOP] = True
            await self.app(scope, receive, send)
            return
        forwarded = self.proxies.client(scope)
        if isinstance(forwarded, ApiError):
            await refuse(scope, receive, send, forwarded)
            return
        scheme = self.proxies.scheme(scope)
        if forwarded is not None:
            scope["client"] = (forwarded, 0)
        if scheme is not None:
            scope["scheme"] = scheme
        refusal = self.refusal(scope)
        if refusal is not None:
            await refuse(scope, receive, send, refusal)
            return
        if scope["type"] == "http":
            receive = self.counted(receive)
        await self.app(scope, receive, send)

    def hop_client(self, scope: Scope) -> str | None:
        """The client's address when another node proxied the request (it carries this
        node's secret), else None: the header alone, which anyone may send, is never
        believed."""
        secret: bytes | None = None
        client: str | None = None
        for name, value in scope["headers"]:
            if name == NODE_HEADER.encode():
                secret = value
            elif name == CLIENT_HEADER.encode():
                client = value.decode("latin-1")
        if secret is None or client is None or not hmac.compare_digest(secret, self.node_secret):
            return None
        return client

    def refusal(self, scope: Scope) -> ApiError | None:
        method = "WEBSOCKET" if scope["type"] == "websocket" else scope["method"]
        if self.limiter is not None:
            limit = limit_of(method, scope["path"])
            wait = self.limiter.wait((limit.name, client_key(scope)), limit.rate)
            if wait > 0:
                return rate_limited(wait, limit)
        headers = _headers(scope)
        refusal = self.origins.check(scope, headers)
        if refusal is not None:
            return refusal
        if method not in CHANGING_METHODS:
            return None
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return BodyTooLarge(self.max_body)
        media_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != "application/json":
            return ApiError(
                415, "bad_content_type", "a request that changes something is application/json"
            )
        return None

    def counted(self, receive: Receive) -> Receive:
        """``receive`` that refuses the body once it grows past the limit."""
        size = 0

        async def receive_counted() -> Message:
            nonlocal size
            message = await receive()
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        return receive_counted


async def refuse(scope: Scope, receive: Receive, send: Send, error: ApiError) -> None:
    """Answer ``error`` without the app: JSON for HTTP, 403 before a WebSocket opens."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1008, "reason": error.code})
        return
    await error.response()(scope, receive, send)
