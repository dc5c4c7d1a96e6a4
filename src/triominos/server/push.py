"""Web Push: "your turn", "finished", "invitation" and "rematch" notices to the devices
that asked for them, with the service's VAPID keys (PROTOCOL.md, "Push notifications").

The one seam is :meth:`Pusher.notify` with a :class:`Notice` made by :func:`your_turn`,
:func:`reminder`, :func:`finished` or :func:`rematch` for a table's events, each taking
the seats the table's viewers hold right now (``LiveTable.connected``): a seat whose
player watches the table live is never notified. A seat's notice reaches the devices
tied to its token and those of the account that holds the seat; :func:`invitation`'s
reaches the devices of the account invited. ``notify`` returns at once; the sending
happens on threads of its own, so a slow or dead push service never holds a table's
event loop.

A subscription names a URL the server will POST to, so it is a way to make the server
reach any address: an endpoint must be ``https`` on a public address (checked when a
device subscribes, and again, resolved, before each push; a redirect is never followed),
unless the app was made with ``push_loopback`` (tests: a push service on
``http://127.0.0.1``).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
import socket
import time
from collections.abc import Callable, Collection, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from triominos.server.friends_store import Invitation
from triominos.server.push_store import KINDS, Device, PushStore, VapidKeys
from triominos.server.store import TableInfo

log = logging.getLogger("triominos.server.push")

MAX_ENDPOINT = 1024
"""The longest endpoint kept (the push services' are 200 to 400 characters)."""
TTL_SECONDS = 24 * 3600
"""How long a push service keeps a notice for a device that is off: a day."""
SEND_SECONDS = 10.0
"""How long one push may take before it is given up."""
SENDERS = 4
"""The threads that send pushes: a slow push service holds one of them, never a table."""
REMIND_SHARE = 0.25
"""A game over days reminds the person to move, once a turn, when this share of the
turn's time is left (a quarter: 6 hours of a day, 42 of a week)."""
GONE = frozenset({404, 410})
"""A push service's answers for a subscription that no longer exists: it is dropped."""


class SubscriptionError(ValueError):
    """A PushSubscription the server will not keep: ``field`` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# --- subscriptions ----------------------------------------------------------------------


def _public_address(address: str, *, loopback: bool) -> bool:
    parsed = ipaddress.ip_address(address)
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if loopback and parsed.is_loopback:
        return True
    return parsed.is_global and not parsed.is_multicast


def check_endpoint(endpoint: str, *, loopback: bool = False) -> str:
    """``endpoint`` if the server may POST to it: ``https`` (``http`` on a loopback
    address when ``loopback``), no user name or password, and a host that is no
    private, loopback, link-local or reserved address (a name is resolved before each
    push: :func:`resolves_inside`)."""
    if len(endpoint) > MAX_ENDPOINT:
        raise SubscriptionError("endpoint", f"an endpoint is at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        host, _ = parts.hostname, parts.port
    except ValueError:
        raise SubscriptionError("endpoint", "the endpoint is not a URL") from None
    if not host or parts.username is not None or parts.password is not None:
        raise SubscriptionError("endpoint", "the endpoint is not a URL of a push service")
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    test_service = loopback and literal is not None and literal.is_loopback
    if parts.scheme != "https" and not (test_service and parts.scheme == "http"):
        raise SubscriptionError("endpoint", "a push endpoint is an https URL")
    if literal is not None and not _public_address(host, loopback=loopback):
        raise SubscriptionError("endpoint", "a push endpoint is on a public address")
    if literal is None and (host == "localhost" or "." not in host or host.endswith(".local")):
        raise SubscriptionError("endpoint", "a push endpoint is on a public address")
    return endpoint


def resolves_inside(endpoint: str, *, loopback: bool = False) -> bool:
    """Whether ``endpoint``'s host resolves now to an address that is not public (nor
    loopback when allowed): a name that pointed at a push service may point inside
    later. OSError when it does not resolve."""
    parts = urlsplit(endpoint)
    found = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    return not all(_public_address(str(info[4][0]), loopback=loopback) for info in found)


def _key_bytes(value: str, field: str) -> bytes:
    if len(value) > 100:
        raise SubscriptionError(field, f"{field} is too long to be a key")
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise SubscriptionError(field, f"{field} is not base64url") from None


def check_keys(p256dh: str, auth: str) -> None:
    """The browser's keys: ``p256dh`` a P-256 point (65 bytes, uncompressed) and
    ``auth`` a 16-byte secret, both base64url (RFC 8291)."""
    point = _key_bytes(p256dh, "keys.p256dh")
    if len(point) != 65 or point[0] != 4:
        raise SubscriptionError("keys.p256dh", "keys.p256dh is an uncompressed P-256 point")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise SubscriptionError("keys.p256dh", "keys.p256dh is not a point of P-256") from None
    if len(_key_bytes(auth, "keys.auth")) != 16:
        raise SubscriptionError("keys.auth", "keys.auth is a secret of 16 bytes")


def check_kinds(kinds: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(kinds)
    unknown = sorted(chosen - set(KINDS))
    if unknown:
        raise SubscriptionError("kinds", f"unknown kinds {unknown}; the kinds are {list(KINDS)}")
    return chosen


# --- notices ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Notice:
    """What one event tells some devices: ``code`` is the table the notice opens,
    ``to_move`` the name of whose turn it is (a your_turn notice), ``hours_left`` the
    hours left to move (a your_turn that is a reminder), ``invited_by`` the name
    of who invites (an invitation). It reaches the devices tied to the seats of
    ``token_hashes``, those of the accounts that hold ``seats`` (table code, seat
    number: the same seats) and those of ``accounts``."""

    kind: str
    code: str
    token_hashes: frozenset[str] = frozenset()
    seats: frozenset[tuple[str, int]] = frozenset()
    accounts: frozenset[int] = frozenset()
    to_move: str | None = None
    hours_left: int | None = None
    invited_by: str | None = None

    def payload(self, lang: str) -> bytes:
        """The pushed message: names and the table's code only, never a tile; the
        service worker writes its text from the locale ``lang``."""
        message = {
            "kind": self.kind,
            "code": self.code,
            "url": f"/t/{self.code}",
            "to_move": self.to_move,
            "hours_left": self.hours_left,
            "from": self.invited_by,
            "lang": lang,
        }
        return json.dumps(message, separators=(",", ":")).encode()


def _to_seats(
    kind: str,
    code: str,
    info: TableInfo,
    seats: Iterable[int],
    connected: Collection[int],
    to_move: str | None = None,
    hours_left: int | None = None,
) -> Notice:
    """A notice for the person seats among ``seats`` of ``info``'s table whose player
    is not watching it, opening the table ``code``."""
    away = [
        seat
        for seat in info.seats
        if seat.seat in seats and seat.seat not in connected and seat.token_hash is not None
    ]
    return Notice(
        kind,
        code,
        token_hashes=frozenset(seat.token_hash for seat in away if seat.token_hash is not None),
        seats=frozenset((info.code, seat.seat) for seat in away),
        to_move=to_move,
        hours_left=hours_left,
    )


def your_turn(info: TableInfo, seat: int, connected: Collection[int]) -> Notice:
    """Seat ``seat`` is to move at ``info``'s table."""
    name = info.seats[seat].name
    return _to_seats("your_turn", info.code, info, [seat], connected, to_move=name)


def reminder(info: TableInfo, seat: int, connected: Collection[int], seconds_left: float) -> Notice:
    """Seat ``seat`` is to move at ``info``'s table, a game over days, and has
    ``seconds_left`` to do it: a your_turn notice that says how many hours (the nearest
    whole number, at least 1)."""
    name = info.seats[seat].name
    hours = max(1, round(seconds_left / 3600))
    return _to_seats("your_turn", info.code, info, [seat], connected, name, hours)


def finished(info: TableInfo, connected: Collection[int]) -> Notice:
    """``info``'s match is over: every player hears it."""
    return _to_seats("finished", info.code, info, range(info.players), connected)


def rematch(info: TableInfo, code: str, offered_by: int, connected: Collection[int]) -> Notice:
    """Seat ``offered_by`` of ``info``'s table made the rematch ``code``: the others
    hear it (their tokens sit at the rematch too)."""
    others = [seat for seat in range(info.players) if seat != offered_by]
    return _to_seats("rematch", code, info, others, connected)


def invitation(invited: Invitation) -> Notice:
    """A friend invited an account to a table: the account's devices hear it."""
    return Notice(
        "invitation",
        invited.code,
        accounts=frozenset({invited.to_id}),
        invited_by=invited.from_name,
    )


# --- sending ----------------------------------------------------------------------------


class Pusher:
    """Sends notices with the service's VAPID keys on threads of its own; ``clock``
    tells which sign-ins still last (the service's clock)."""

    def __init__(
        self,
        store: PushStore,
        *,
        contact: str,
        loopback: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.contact = contact
        self.loopback = loopback
        self.clock = clock
        self._keys: VapidKeys | None = None
        self._vapid: Vapid | None = None
        self._senders = ThreadPoolExecutor(SENDERS, thread_name_prefix="push")

    def start(self) -> VapidKeys:
        """Read the keys, made now if no node made them yet (a blocking call: on a thread)."""
        self._keys = self.store.keys()
        self._vapid = Vapid.from_pem(self._keys.private_pem.encode())
        return self._keys

    @property
    def public_key(self) -> str:
        assert self._keys is not None, "Pusher.start() first"
        return self._keys.public_key

    def close(self) -> None:
        self._senders.shutdown(wait=False, cancel_futures=True)

    def notify(self, notice: Notice) -> Future[int]:
        """Send ``notice`` to every device of its seats that asked for its kind, on a
        sending thread; at once. The future's result: the devices that took it."""
        return self._senders.submit(self._send_all, notice)

    def _send_all(self, notice: Notice) -> int:
        sent = 0
        found = self.store.devices(
            notice.kind,
            self.clock(),
            token_hashes=notice.token_hashes,
            seats=notice.seats,
            accounts=notice.accounts,
        )
        for device in found:
            try:
                sent += self._send(device, notice)
            except Exception:  # one device's failure never stops the others'
                log.exception("push to %s failed", urlsplit(device.endpoint).hostname)
        return sent

    def _send(self, device: Device, notice: Notice) -> bool:
        assert self._vapid is not None, "Pusher.start() first"
        host = urlsplit(device.endpoint).hostname
        if resolves_inside(device.endpoint, loopback=self.loopback):
            log.warning("push endpoint on %s resolves to a private address: dropped", host)
            self.store.drop(device.endpoint)
            return False
        try:
            with requests.Session() as session:
                session.max_redirects = 0  # a redirect could point inside: never followed
                webpush(
                    device.info(),
                    notice.payload(device.lang).decode(),
                    vapid_private_key=self._vapid,
                    vapid_claims={"sub": self.contact},
                    ttl=TTL_SECONDS,
                    timeout=SEND_SECONDS,
                    requests_session=session,
                )
        except WebPushException as error:
            if error.response is not None and error.response.status_code in GONE:
                self.store.drop(device.endpoint)
                return False
            log.warning("push to %s refused: %s", host, error)
            return False
        except requests.RequestException as error:
            log.warning("push to %s failed: %s", host, error)
            return False
        return True
