"""The HTTP routes of PROTOCOL.md: presets, tables, seats, rematches, records, pages,
health.

A read never waits for a table's lock, which a write to a slow database can hold: it
shows the table state, which is only ever what is stored. Every change goes through
:meth:`Service.perform <triominos.server.service.Service.perform>`. A
storage fault is a 503 with ``Retry-After`` (the app's handler for
:class:`~triominos.server.store.StorageFault`).

With several nodes, a request about a live table (a look-up, a join, a seat to a bot, a
rematch) is answered by the node that holds the table: another node sends it on
(:func:`live`). The lobby and the records come from the database on every node.
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
import time
from pathlib import Path
from typing import Any

import segno
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response

from triominos.bots import BOTS
from triominos.bots.levels import levels_json
from triominos.ratings import Pool, RatedMatchError, Seat, pool_of
from triominos.rules import PRESETS, RuleOptionError
from triominos.server.account_api import SESSION_COOKIE
from triominos.server.account_store import AccountRefusal, AccountStore
from triominos.server.bots import THINKING_BOTS
from triominos.server.guard import BOT_TABLES_PER_ADDRESS, client_key
from triominos.server.metrics import render as render_metrics
from triominos.server.presets import presets_payload
from triominos.server.protocol import (
    ApiError,
    BadMessageError,
    ClaimWinRequest,
    CreateTable,
    Decoded,
    GiveSeatToBot,
    JoinTable,
    TokenRequest,
    decode,
)
from triominos.server.proxy import OwnerFailed, Unreachable, forward_request, is_hop
from triominos.server.push import Pusher
from triominos.server.push import rematch as rematch_notice
from triominos.server.rating_store import RatingStore
from triominos.server.service import Service, address_hash
from triominos.server.store import SeatInfo, TableInfo
from triominos.server.table import LiveTable
from triominos.server.tablestate import ClaimWin, GiveToBot, Join, token_hash
from triominos.server.timers import MOVE_DAYS, TIMEOUT_ACTIONS, MoveDays
from triominos.server.trace_store import TraceStore, whereabouts
from triominos.server.views import JsonObject, table_summary

log = logging.getLogger("triominos.server")

STATIC = Path(__file__).resolve().parent / "static"
TOKEN_BYTES = 32


def bad_request(field: str | None, message: str) -> ApiError:
    return ApiError(400, "bad_request", message, field)


def new_token() -> str:
    """A seat token: 32 random bytes, URL-safe; the database keeps only its hash."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def service_of(connection: HTTPConnection) -> Service:
    service: Service = connection.app.state.service
    return service


def table_link(connection: HTTPConnection, code: str) -> str:
    return str(connection.base_url).rstrip("/") + f"/t/{code}"


def personal_link(connection: HTTPConnection, code: str, seat: int, token: str) -> str:
    """The link that gives a seat to another device: the token rides in the fragment,
    which a browser never sends to a server (the page's personalLinks writes the same)."""
    return f"{table_link(connection, code)}#seat={seat}&token={token}"


async def request_body(request: Request, kind: type[Decoded]) -> Decoded:
    """The request's JSON body as ``kind``; 400 naming the field. (Its size was
    checked while it was read: :class:`triominos.server.guard.Guard`.)"""
    try:
        return decode(await request.body(), kind)
    except BadMessageError as error:
        raise bad_request(error.field, str(error)) from None


async def live(request: Request) -> LiveTable | Response:
    """The live table of the request's code on this node (claimed here when no node
    held it), or the answer of the node that holds it to this very request.

    An owner that cannot be reached never saw the request (nor did a previous run of
    this node at the same URL), so it is sent again until another node holds the table,
    at the latest a lease after the owner died.
    """
    service = service_of(request)
    deadline = time.monotonic() + service.leases.lease_seconds + 2
    while True:
        found = await service.existing(request.path_params["code"])
        if isinstance(found, LiveTable):
            return found
        if is_hop(request.scope):  # the table moved on meanwhile: never a second hop
            raise moving()
        try:
            if found.url == service.node.url:  # a run of this node before it restarted
                raise Unreachable(found.url)
            answer = await forward_request(service.http, request, found, client_key(request.scope))
        except Unreachable as error:
            service.node_metrics.relay_failed(found, request.url.path, error)
            if time.monotonic() > deadline:
                raise moving() from None
            await asyncio.sleep(0.2)
            continue
        except OwnerFailed as error:
            service.node_metrics.relay_failed(found, request.url.path, error)
            raise
        service.node_metrics.relayed(found)
        service.node_metrics.proxied_requests += 1
        return answer


def moving() -> ApiError:
    return ApiError(
        503, "unavailable", "the table is moving to another node; try again", retry_after=1
    )


def seat_number(request: Request, table: LiveTable) -> int:
    try:
        number = int(request.path_params["seat"])
    except ValueError:
        raise bad_request("seat", "a seat is a number") from None
    if not 0 <= number < table.info.players:
        raise bad_request("seat", f"seats are numbered 0 to {table.info.players - 1}")
    return number


async def signed_in_account(request: Request, service: Service) -> int | None:
    """The account of the request's sign-in, or None signed out: where a seat it takes
    goes. (The sign-in cookie is ``SameSite=Lax``: another site's form never sends it
    along a POST, so no CSRF header is needed to give a seat to the account.) The
    account's traces are kept, which decide whether a match is rated."""
    session_id = request.cookies.get(SESSION_COOKIE, "")
    accounts = AccountStore(service.store)
    now = service.clock()
    found = await asyncio.to_thread(accounts.signed_in, session_id, now) if session_id else None
    if found is None:
        return None
    traces = TraceStore(service.store)
    await asyncio.to_thread(traces.seen, found.id, *whereabouts(request), now)
    return found.id


async def rated_seat_account(request: Request, service: Service) -> int:
    """The account a seat of a rated table goes to: the request's sign-in, or 401
    ``signed_out``."""
    account = await signed_in_account(request, service)
    if account is None:
        raise ApiError(401, "signed_out", "a seat of a rated table is an account's: sign in first")
    return account


async def keep_in_account(service: Service, account: int, code: str, seat: int, token: str) -> None:
    """Put a seat into its account: a rated table's, which is who the rating is for; an
    unrated table's, so that "Your games" on the account's other devices has it."""
    accounts = AccountStore(service.store)
    try:
        await asyncio.to_thread(accounts.move_seat, account, code, seat, token, service.clock())
    except AccountRefusal as error:
        raise ApiError(409, error.code, str(error)) from None


def seated(table: LiveTable, token: str) -> int:
    """The seat of a token at this table, or 403 ``bad_token``."""
    seat = table.authenticate(token)
    if seat is None:
        raise ApiError(403, "bad_token", "this token sits at no seat of this table")
    return seat


# --- presets and tables ----------------------------------------------------------------


async def presets(request: Request) -> JSONResponse:
    """The presets, their options and player counts, the bots and the days a move may
    take (a game over days): the home page form."""
    return JSONResponse(
        {
            **presets_payload(),
            "move_days": list(MOVE_DAYS),
            "bots": [
                {"name": name, "level": level, "thinks": name in THINKING_BOTS}
                for level, name in enumerate(BOTS, 1)
            ],
        }
    )


async def bot_levels(request: Request) -> JSONResponse:
    """The bot levels a seat may be given: ``static/bots.js`` reads them here, so the page
    and the engine never list them apart (:mod:`triominos.bots.levels`)."""
    return JSONResponse(levels_json())


async def create_table(request: Request) -> JSONResponse:
    service = service_of(request)
    body = await request_body(request, CreateTable)
    if body.preset not in PRESETS:
        raise bad_request("preset", f"must be one of {', '.join(map(repr, PRESETS))}")
    rules = PRESETS[body.preset].rules
    try:
        rules = rules.replace(**body.options)
        rules.check_players(body.players)
    except RuleOptionError as error:
        field = "players" if error.option == "players" else f"options.{error.option}"
        raise bad_request(field, str(error)) from None
    except (TypeError, ValueError) as error:
        raise bad_request("options", f"not a set of rule options: {error}") from None
    if body.timeout_action not in TIMEOUT_ACTIONS:
        allowed = ", ".join(map(repr, TIMEOUT_ACTIONS))
        raise bad_request("timeout_action", f"must be one of {allowed}")
    timeout_action = body.timeout_action  # one of TIMEOUT_ACTIONS now
    move_days = days_per_move(body)
    if len(body.seats) != body.players:
        raise bad_request("seats", f"a table of {body.players} players has {body.players} seats")
    seats: list[SeatInfo] = []
    for number, seat in enumerate(body.seats):
        if seat.kind == "bot":
            if seat.bot not in BOTS:
                raise bad_request(f"seats[{number}].bot", f"must be one of {', '.join(BOTS)}")
            seats.append(SeatInfo(number, "bot", seat.name or seat.bot, seat.bot, seat.think))
        else:
            seats.append(SeatInfo(number, "person", seat.name or f"Player {number + 1}"))
    taken = sorted(set(body.take))
    for number in taken:
        if not 0 <= number < body.players or seats[number].kind != "person":
            raise bad_request("take", f"seat {number} is not a person seat of this table")
    tokens = {number: new_token() for number in taken}
    for number, token in tokens.items():
        seats[number] = SeatInfo(number, "person", seats[number].name, token_hash=token_hash(token))
    rated_by = await rated_creator(request, service, body, seats, taken)
    waits = any(seat.kind == "person" and seat.token_hash is None for seat in seats)
    people = sum(seat.kind == "person" for seat in seats)
    hints = body.hints if body.hints is not None else people <= 1
    client = client_key(request.scope)
    if waits:
        creator: str | None = await service.may_create(client)
    elif people == 0:
        creator = await bots_may_play(service, client)
    else:
        creator = None
    info = await asyncio.to_thread(
        lambda: service.store.create_table(
            preset=body.preset,
            rules=rules,
            players=body.players,
            seed=secrets.randbits(63),
            turn_seconds=body.turn_seconds,
            seats=seats,
            grace_seconds=body.grace_seconds,
            listed=body.listed,
            created_by=creator,
            timeout_action=timeout_action,
            hints=hints,
            owner=service.node.id,
            move_days=move_days,
            claim_win=body.claim_win,
        )
    )
    if rated_by is not None:  # rated and in the account before any bot may move
        account, pool = rated_by
        ratings = RatingStore(service.store)
        await asyncio.to_thread(ratings.register, info.code, pool, service.clock())
        await keep_in_account(service, account, info.code, taken[0], tokens[taken[0]])
    await service.locate(info.code)  # live here from now: bots may start at once
    log.info("table %s created: %s, %d players", info.code, body.preset, body.players)
    return JSONResponse(
        {
            "code": info.code,
            "link": table_link(request, info.code),
            "seats": [{"seat": number, "token": token} for number, token in tokens.items()],
        },
        status_code=201,
    )


async def rated_creator(
    request: Request, service: Service, body: CreateTable, seats: list[SeatInfo], taken: list[int]
) -> tuple[int, Pool] | None:
    """For a rated table: its creator's account and the pool it is rated in (None for
    a table that is not rated). The creator is signed in and takes one seat; every bot
    seat is a level with a rating."""
    if not body.rated:
        return None
    account = await rated_seat_account(request, service)
    if len(taken) != 1:
        raise bad_request("take", "the creator of a rated table takes one seat, and plays it")
    try:
        players = [Seat(seat.bot or str(seat.seat), bot=seat.kind == "bot") for seat in seats]
        return account, pool_of(body.preset, players)
    except RatedMatchError as error:
        raise bad_request("rated", f"this table cannot be rated: {error}") from None


def days_per_move(body: CreateTable) -> MoveDays | None:
    """The table's days per move, checked: one of MOVE_DAYS, never with a turn timer too;
    "claim the win" only with days per move (a timer's seconds leave nobody time to
    claim it, and without a clock nothing runs out)."""
    if body.move_days is None:
        if body.claim_win:
            raise bad_request("claim_win", "claiming the win needs days per move (move_days)")
        return None
    for days in MOVE_DAYS:
        if body.move_days == days:
            if body.turn_seconds is not None:
                raise bad_request("move_days", "a table has days per move or a turn timer")
            return days
    raise bad_request("move_days", f"must be one of {', '.join(map(str, MOVE_DAYS))} days")


async def bots_may_play(service: Service, client: str) -> str:
    """Refuse a table of bots only past the address's cap on those being played (they
    need nobody to go on); the creator's hash."""
    creator = address_hash(client)
    playing = await asyncio.to_thread(service.store.bot_tables_playing, creator)
    if playing >= BOT_TABLES_PER_ADDRESS:
        raise ApiError(
            429,
            "too_many_tables",
            f"this address has {playing} tables of bots only being played, the most it may "
            "have; watch one to its end first",
            retry_after=60,
        )
    return creator


async def list_tables(request: Request) -> JSONResponse:
    """The tables their creators listed (``?open=1``: those waiting for players), as
    the database has them, the same on every node: who sits where, not who is
    connected now (the table's own look-up says that)."""
    service = service_of(request)
    open_only = request.query_params.get("open") in ("1", "true")

    def listed() -> list[tuple[LiveTable, str | None]]:
        return [
            (service.snapshot(info), service.store.rematch_code(info.id))
            for info in service.store.tables(open_only=open_only)
        ]

    tables = await asyncio.to_thread(listed)
    return JSONResponse(
        {"tables": [summary(request, table, rematch, presence=False) for table, rematch in tables]}
    )


def summary(
    connection: HTTPConnection, table: LiveTable, rematch: str | None, *, presence: bool = True
) -> JsonObject:
    """What anyone may know of a table, as stored: never an action still being
    written, and never waiting for one. ``presence``: who is connected and when a bot
    may take a seat, which only the node holding the table knows."""
    return table_summary(
        table.info,
        link=table_link(connection, table.code),
        version=table.version,
        connected=table.connected if presence else (),
        bot_allowed_at=table.bots_allowed_at() if presence else [None] * table.info.players,
        totals=tuple(table.match.totals),
        to_move=table.match.to_move if table.playing else None,
        rematch=rematch,
        turn_deadline=table.turn_deadline,
    )


async def live_summary(request: Request, table: LiveTable) -> JSONResponse:
    """The summary of a table live on this node."""
    service = service_of(request)
    table = await service.fresh(table)
    rematch = await asyncio.to_thread(service.store.rematch_code, table.info.id)
    return JSONResponse(summary(request, table, rematch))


async def get_table(request: Request) -> Response:
    table = await live(request)
    if not isinstance(table, LiveTable):
        return table
    return await live_summary(request, table)


async def join_table(request: Request) -> Response:
    """Sit at a seat; signed in, the seat is in the account at once (a rated table's
    must be), so that the account's other devices have it too."""
    service = service_of(request)
    table = await live(request)
    if not isinstance(table, LiveTable):
        return table
    body = await request_body(request, JoinTable)
    if body.seat is not None and not 0 <= body.seat < table.info.players:
        raise bad_request("seat", f"seats are numbered 0 to {table.info.players - 1}")
    rated = await asyncio.to_thread(RatingStore(service.store).rated, table.code)
    if rated:
        signed_in = await rated_seat_account(request, service)
        held = await asyncio.to_thread(AccountStore(service.store).seats, signed_in)
        if any(seat.code == table.code for seat in held):
            raise ApiError(409, "already_seated", "an account plays one seat of a rated table")
        account: int | None = signed_in
    else:
        account = await signed_in_account(request, service)
    token = new_token()
    seat = (await service.perform(table, Join(body.seat, body.name, token_hash(token)))).seat
    if account is not None and seat is not None:
        try:
            await keep_in_account(service, account, table.code, seat, token)
        except ApiError:
            if rated:
                raise
            # Not rated: the seat is the browser's by its token, as when signed out (an
            # account that keeps the most seats already).
    log.info("table %s: seat %d taken", table.code, seat)
    return JSONResponse({"seat": seat, "token": token})


async def give_seat_to_bot(request: Request) -> Response:
    """A seated player lets a bot play a seat: their own at once, another only once its
    person has been away for the table's grace period (RULES.md §15)."""
    service = service_of(request)
    table = await live(request)
    if not isinstance(table, LiveTable):
        return table
    body = await request_body(request, GiveSeatToBot)
    mine = seated(table, body.token)
    number = seat_number(request, table)
    if body.bot not in BOTS:
        raise bad_request("bot", f"must be one of {', '.join(BOTS)}")

    await service.perform(table, GiveToBot(mine, number, body.bot, body.think))
    log.info("table %s: seat %d given to %s", table.code, number, body.bot)
    return await live_summary(request, table)


async def claim_win(request: Request) -> Response:
    """A seated player claims the win over the seat whose days per move ran out, at a
    table that offers it (RULES.md §13); the table's summary after."""
    service = service_of(request)
    table = await live(request)
    if not isinstance(table, LiveTable):
        return table
    body = await request_body(request, ClaimWinRequest)
    seat = seated(table, body.token)
    await service.perform(table, ClaimWin(seat))
    log.info("table %s: seat %d claimed the win", table.code, seat)
    return await live_summary(request, table)


def rematch_seats(info: TableInfo) -> list[SeatInfo]:
    """The seats of a rematch: the people of the original table, each with their token,
    even where a bot played for them at the end; the bots it was made with."""
    return [
        SeatInfo(seat.seat, "person", seat.name, token_hash=seat.token_hash)
        if seat.token_hash is not None
        else seat
        for seat in info.seats
    ]


async def rematch(request: Request) -> Response:
    service = service_of(request)
    table = await live(request)
    if not isinstance(table, LiveTable):
        return table
    body = await request_body(request, TokenRequest)
    offered_by = seated(table, body.token)
    async with table.lock:
        if table.info.status != "finished":
            raise ApiError(409, "playing", "a rematch follows a finished match")
        existing = await asyncio.to_thread(service.store.rematch_code, table.info.id)
        if existing is not None:
            return JSONResponse({"code": existing, "link": table_link(request, existing)})
        info: TableInfo = table.info
        created = await asyncio.to_thread(
            lambda: service.store.create_table(
                preset=info.preset,
                rules=info.rules,
                players=info.players,
                seed=secrets.randbits(63),
                turn_seconds=info.turn_seconds,
                seats=rematch_seats(info),
                rematch_of=info.id,
                grace_seconds=info.grace_seconds,
                listed=info.listed,
                created_by=info.created_by,
                timeout_action=info.timeout_action,
                hints=info.hints,
                owner=service.node.id,
                move_days=info.move_days,
                claim_win=info.claim_win,
            )
        )
        link = table_link(request, created.code)
        table.room.send_all({"type": "rematch", "code": created.code, "link": link})
        pusher: Pusher = request.app.state.push
        pusher.notify(rematch_notice(info, created.code, offered_by, table.connected))
    await service.locate(created.code)
    log.info("table %s: rematch %s", table.code, created.code)
    return JSONResponse({"code": created.code, "link": link}, status_code=201)


async def stored(request: Request) -> TableInfo:
    """The request's table as stored, from the database on any node: what is read of a
    finished match (it changes no more), which never waits for a table's lock."""
    code = request.path_params["code"].upper()
    info = await asyncio.to_thread(service_of(request).store.table, code)
    if info is None:
        raise ApiError(404, "not_found", f"no table has the code {code!r}")
    return info


async def record(request: Request) -> JSONResponse:
    """A finished match's record."""
    service = service_of(request)
    info = await stored(request)
    if info.status != "finished":
        raise ApiError(409, "playing", "the record is shown once the match is over")
    table = await asyncio.to_thread(service.snapshot, info)
    return JSONResponse(table.record())


async def analysis(request: Request) -> JSONResponse:
    """A finished match's analysis: ``none`` yet, ``running`` (decisions done of total)
    or ``done`` with it (triominos.server.analyses)."""
    return JSONResponse(await service_of(request).analyses.status(await stored(request)))


async def analyse(request: Request) -> JSONResponse:
    """Begin a finished match's analysis (unless done or under way): its status, 202
    while it runs."""
    service = service_of(request)
    info = await stored(request)
    await service.analyses.status(info)  # a match still played is refused here (409)
    table = await asyncio.to_thread(service.snapshot, info)
    status = await service.analyses.start(table)
    return JSONResponse(status, status_code=200 if status["status"] == "done" else 202)


async def seat_qr(request: Request) -> Response:
    """The QR code of a seat's personal link, as SVG, for the seat's own holder only: it
    carries the token, so it is asked for with it in a POST body (never in an address)
    and is never kept by a cache on the way."""
    table = await live(request)
    if not isinstance(table, LiveTable):
        return table
    body = await request_body(request, TokenRequest)
    number = seat_number(request, table)
    if seated(table, body.token) != number:
        raise ApiError(403, "bad_token", f"this token is not seat {number}'s")
    buffer = io.BytesIO()
    link = personal_link(request, table.code, number, body.token)
    segno.make_qr(link, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False)
    return Response(
        buffer.getvalue(),
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-store, private"},
    )


# --- health -----------------------------------------------------------------------------


async def healthz(request: Request) -> JSONResponse:
    """Alive: the process answers."""
    return JSONResponse({"alive": True})


async def readyz(request: Request) -> JSONResponse:
    """Ready: storage takes a write and its schema is current (503 with the kind of
    fault, if not; its details, which name the database, go to the log only)."""
    fault = await service_of(request).ready()
    if fault is None:
        return JSONResponse({"ready": True})
    return JSONResponse(
        {"ready": False, "storage": fault.kind},
        status_code=503,
        headers={"Retry-After": "5"},
    )


async def metrics(request: Request) -> Response:
    """The service's figures for Prometheus (:mod:`triominos.server.metrics`)."""
    return Response(render_metrics(service_of(request)), media_type="text/plain; version=0.0.4")


# --- pages ------------------------------------------------------------------------------


async def service_worker(request: Request) -> Response:
    """The service worker, from the root so that its scope is every page; never cached
    on the way, so a new one reaches browsers at once."""
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


async def manifest(request: Request) -> Response:
    """The web app manifest that makes the site installable."""
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")


def page(relative: str) -> Any:
    async def serve(request: Request) -> Response:
        path = STATIC / relative
        if not path.is_file():
            raise ApiError(404, "not_found", f"the page {relative} is not installed")
        return FileResponse(path)

    return serve
