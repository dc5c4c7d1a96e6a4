"""Web Push's HTTP API, under ``/api/push/`` (PROTOCOL.md, "Push notifications").

| method and path | answer |
| --- | --- |
| ``GET /api/push/key`` | ``{"key"}``: the service's VAPID public key, base64url |
| ``POST /api/push/subscriptions`` | ``201 {"kinds", "seats", "account"}``: the device is kept |
| ``DELETE /api/push/subscriptions`` | ``{"kinds"}``: the kinds the device still gets |

A subscription ties a device to seats by their tokens, each checked against its table:
a device hears of no seat whose token it does not hold. A device that subscribes while
signed in is tied to the account too (it hears of every seat the account holds, and of
its invitations, while that sign-in lasts), which is a change to the account: it needs
the sign-in's CSRF token, as the account API's changes do, so that another site cannot
tie its own endpoint to the account. Signed in, the seats may be none. The kinds and
language replace those the device had. Opting out names the endpoint and proves it with
the subscription's ``auth`` secret, which only the browser and the server know.

Errors are PROTOCOL.md's ``{"error": {"code", "message", "field"}}``: ``bad_request``
(a malformed body, an endpoint that is not https on a public address, keys of the wrong
length, no seat from a device signed out), ``bad_token`` (403: a token that sits at no
seat of its table), ``bad_csrf`` (403: signed in without the sign-in's CSRF token),
``subscription_conflict`` (409), ``rate_limited`` (429).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from triominos.server.account_api import AccountApi
from triominos.server.presets import LANGUAGES
from triominos.server.protocol import (
    ApiError,
    BadMessageError,
    Decoded,
    Token,
    answers,
    decode,
)
from triominos.server.push import (
    MAX_ENDPOINT,
    Pusher,
    SubscriptionError,
    check_endpoint,
    check_keys,
    check_kinds,
)
from triominos.server.push_store import KINDS, Device, SignedIn
from triominos.server.store import Store
from triominos.server.table import token_hash

MAX_BODY = 8 * 1024
"""The largest subscription body: a subscription and 32 seats fit in 4 KiB."""
SEATS_PER_REQUEST = 32

Short = Annotated[str, msgspec.Meta(max_length=MAX_ENDPOINT)]


class Keys(msgspec.Struct):
    p256dh: Short
    auth: Short


class Subscription(msgspec.Struct, rename={"expiration_time": "expirationTime"}):
    """A browser's ``PushSubscription.toJSON()``."""

    endpoint: Short
    keys: Keys
    expiration_time: float | None = None


class SeatToken(msgspec.Struct):
    code: Annotated[str, msgspec.Meta(min_length=1, max_length=16)]
    token: Token


class Subscribe(msgspec.Struct):
    subscription: Subscription
    kinds: Annotated[list[str], msgspec.Meta(max_length=len(KINDS))]
    seats: Annotated[list[SeatToken], msgspec.Meta(max_length=SEATS_PER_REQUEST)]
    lang: str = "en"


class Unsubscribe(msgspec.Struct):
    endpoint: Short
    auth: Short
    kinds: Annotated[list[str], msgspec.Meta(max_length=len(KINDS))] | None = None


def _bad_subscription(error: SubscriptionError) -> ApiError:
    return ApiError(400, "bad_request", str(error), error.field)


answering = answers({"subscription_conflict": 409}, {SubscriptionError: _bad_subscription})


async def _body(request: Request, kind: type[Decoded]) -> Decoded:
    data = await request.body()
    if len(data) > MAX_BODY:
        raise ApiError(413, "too_large", f"a push request body is at most {MAX_BODY} bytes")
    try:
        return decode(data, kind)
    except BadMessageError as error:
        raise ApiError(400, "bad_request", str(error), error.field) from None


def push_routes(store: Store, pusher: Pusher, accounts: AccountApi) -> list[BaseRoute]:
    """The routes of the push API on ``pusher``, checking seat tokens in ``store`` and
    sign-ins with ``accounts`` (limited per address by the guard: its ``push`` limit)."""

    async def key(request: Request) -> JSONResponse:
        return JSONResponse({"key": pusher.public_key})

    @answering
    async def subscribe(request: Request) -> JSONResponse:
        body = await _body(request, Subscribe)
        keys = body.subscription.keys
        try:
            endpoint = check_endpoint(body.subscription.endpoint, loopback=pusher.loopback)
            check_keys(keys.p256dh, keys.auth)
        except SubscriptionError as error:
            raise ApiError(400, "bad_request", str(error), f"subscription.{error.field}") from None
        kinds = check_kinds(body.kinds)
        if body.lang not in LANGUAGES:
            raise SubscriptionError("lang", f"lang is one of {', '.join(LANGUAGES)}")
        device = Device(endpoint, keys.p256dh, keys.auth, kinds, body.lang)
        signed_in, name = None, None
        if await accounts.signed_in(request) is not None:
            account, session_id = await accounts.changer(request)
            signed_in, name = SignedIn(account.id, session_id), account.name
        elif not body.seats:
            raise SubscriptionError("seats", "signed out, a device names a seat it holds")

        def keep() -> list[str]:
            hashes = []
            for number, seat in enumerate(body.seats):
                info = store.table(seat.code.upper())
                held = token_hash(seat.token)
                if info is None or all(s.token_hash != held for s in info.seats):
                    raise ApiError(
                        403,
                        "bad_token",
                        f"seats[{number}]: this token sits at no seat of table {seat.code!r}",
                        f"seats[{number}].token",
                    )
                hashes.append(held)
            pusher.store.subscribe(device, hashes, signed_in)
            return hashes

        hashes = await asyncio.to_thread(keep)
        kept = [kind for kind in KINDS if kind in kinds]
        return JSONResponse(
            {
                "kinds": kept,
                "seats": len(set(hashes)),
                "account": name,
            },
            status_code=201,
        )

    @answering
    async def unsubscribe(request: Request) -> JSONResponse:
        body = await _body(request, Unsubscribe)
        kinds = None if body.kinds is None else check_kinds(body.kinds)
        left = await asyncio.to_thread(pusher.store.unsubscribe, body.endpoint, body.auth, kinds)
        return JSONResponse({"kinds": left})

    return [
        Route("/api/push/key", key),
        Route("/api/push/subscriptions", subscribe, methods=["POST"]),
        Route("/api/push/subscriptions", unsubscribe, methods=["DELETE"]),
    ]
