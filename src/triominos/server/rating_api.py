"""The ratings' HTTP API, under ``/api/ratings/`` (PROTOCOL.md, "Ratings").

- ``GET /api/ratings/leaderboard?edition=&players=&against=&limit=&offset=``: a pool's
  active players, highest rating first;
- ``GET /api/ratings/{player}``: the player's name, ratings in every pool, and history;
- ``GET /api/ratings/tables/{code}``: whether a table created rated was rated, or why not;
- ``GET /ratings/{player}``: the address a player's ratings once had, now ``308`` to their
  player page (``/players/{name}``, which shows the ratings and the graph).

Read only: the ratings change when a rated table finishes
(:func:`triominos.server.rating_store.rate_finished`). A query value that is missing or
out of bounds is ``400 bad_request`` naming the parameter (``field``) and what it may be.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from triominos.ratings import (
    ACTIVE_SECONDS,
    AGAINST,
    EDITIONS,
    PLAYER_COUNTS,
    PROVISIONAL_DEVIATION,
    Pool,
)
from triominos.server.account_names import NEUTRAL_NAME
from triominos.server.account_store import AccountStore
from triominos.server.protocol import ApiError, answers
from triominos.server.rating_store import (
    CODE_LENGTH,
    PLAYER_LENGTH,
    HistoryPoint,
    PlayerRating,
    RatingStore,
)
from triominos.server.routes import STATIC
from triominos.server.store import Store
from triominos.server.views import JsonObject

PAGE_SIZE = 50
"""The leaderboard's rows a page unless ``limit`` asks for fewer or more."""
MAX_PAGE_SIZE = 100
"""The most rows a page of the leaderboard has."""
MAX_OFFSET = 10_000
"""How deep the leaderboard may be paged (the players beyond are on their own pages)."""
PLAYER_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{PLAYER_LENGTH}}}")
"""What a player (account) id looks like."""
TABLE_CODE = re.compile(rf"[A-Z0-9]{{1,{CODE_LENGTH}}}")
"""What a table code looks like (upper case)."""

ACCOUNT_ID = re.compile(r"[0-9]{1,9}")
"""What an account's id looks like in a ``/ratings/{player}`` address (9 digits at most:
the accounts' ids are 32-bit integers in PostgreSQL)."""

answering = answers({})


def player_page(name: str) -> str:
    """The address of a player's page."""
    return f"/players/{quote(name, safe='')}"


def pool_json(pool: Pool) -> JsonObject:
    return {
        "key": pool.key,
        "edition": pool.edition,
        "players": pool.players,
        "against": pool.against,
    }


def player_rating_json(found: PlayerRating) -> JsonObject:
    """A rating as the pages show it: rounded, with its deviation, provisional above
    :data:`~triominos.ratings.PROVISIONAL_DEVIATION`."""
    return {
        "player": found.player,
        "pool": pool_json(found.pool),
        "rating": round(found.rating.rating),
        "deviation": round(found.rating.deviation),
        "provisional": found.rating.deviation > PROVISIONAL_DEVIATION,
        "games": found.games,
        "played_at": found.played_at,
    }


def history_json(point: HistoryPoint) -> JsonObject:
    return {
        "pool": point.pool.key,
        "table": point.table,
        "rating": round(point.rating.rating),
        "deviation": round(point.rating.deviation),
        "played_at": point.played_at,
    }


def _choice(request: Request, name: str, allowed: tuple[str, ...], default: str | None) -> str:
    value = request.query_params.get(name, default)
    if value not in allowed:
        raise ApiError(
            400, "bad_request", f"{name} must be one of {', '.join(allowed)}, not {value!r}", name
        )
    return value


def _number(request: Request, name: str, low: int, high: int, default: int | None) -> int:
    given = request.query_params.get(name)
    if given is None and default is not None:
        return default
    if given is None or not given.isascii() or not given.isdecimal() or len(given) > 6:
        raise ApiError(400, "bad_request", f"{name} must be a whole number {low} to {high}", name)
    value = int(given)
    if not low <= value <= high:
        raise ApiError(
            400, "bad_request", f"{name} must be a whole number {low} to {high}, not {value}", name
        )
    return value


def rating_routes(store: Store, clock: Callable[[], float] = time.time) -> list[BaseRoute]:
    """The ratings' routes on the service's database; ``clock``: the time that decides
    who is active and how far a deviation has widened since."""
    rows = RatingStore(store)
    accounts = AccountStore(store)

    async def leaderboard(request: Request) -> Response:
        pool = Pool(
            _choice(request, "edition", EDITIONS, None),
            _number(request, "players", PLAYER_COUNTS[0], PLAYER_COUNTS[-1], None),
            _choice(request, "against", AGAINST, AGAINST[0]),
        )
        limit = _number(request, "limit", 1, MAX_PAGE_SIZE, PAGE_SIZE)
        offset = _number(request, "offset", 0, MAX_OFFSET, 0)
        found = await run_in_threadpool(rows.leaderboard, pool, clock(), limit, offset)
        return JSONResponse(
            {
                "pool": pool_json(pool),
                "active_days": round(ACTIVE_SECONDS / 86400),
                "provisional_deviation": PROVISIONAL_DEVIATION,
                "offset": offset,
                "players": [
                    {
                        "rank": offset + place,
                        "name": name or NEUTRAL_NAME,
                        "page": player_page(name) if name else None,
                        **player_rating_json(entry),
                    }
                    for place, (entry, name) in enumerate(found, start=1)
                ],
            }
        )

    async def player(request: Request) -> Response:
        name = request.path_params["player"]
        if not PLAYER_ID.fullmatch(name):
            raise ApiError(
                400,
                "bad_request",
                f"a player id is 1 to {PLAYER_LENGTH} letters, digits, '-' or '_'",
                "player",
            )
        ratings, history = await run_in_threadpool(rows.player, name, clock())
        return JSONResponse(
            {
                "player": name,
                "name": await run_in_threadpool(rows.name, name),
                "ratings": [player_rating_json(entry) for entry in ratings],
                "history": [history_json(point) for point in history],
            }
        )

    async def table(request: Request) -> Response:
        code = request.path_params["code"].upper()
        if not TABLE_CODE.fullmatch(code):
            raise ApiError(
                400, "bad_request", f"a table code is 1 to {CODE_LENGTH} letters or digits", "code"
            )
        found = await run_in_threadpool(rows.outcome, code)
        if found is None:  # the ratings know only the tables created rated
            return JSONResponse({"code": code, "pool": None, "outcome": None, "at": None})
        return JSONResponse(
            {
                "code": found.code,
                "pool": pool_json(found.pool),
                "outcome": found.outcome,
                "at": found.at,
            }
        )

    async def moved(request: Request) -> Response:
        """``/ratings/{player}``: 308 to the account's player page; the site's page with
        404 (it says "not found") for an id no account has, a deleted one's included."""
        given = request.path_params["player"]
        found = (
            await run_in_threadpool(accounts.account, int(given))
            if ACCOUNT_ID.fullmatch(given)
            else None
        )
        if found is None:
            return FileResponse(STATIC / "index.html", status_code=404)
        return RedirectResponse(player_page(found.name), status_code=308)

    return [
        Route("/api/ratings/leaderboard", answering(leaderboard)),
        Route("/api/ratings/tables/{code}", answering(table)),
        Route("/api/ratings/{player}", answering(player)),
        Route("/ratings/{player}", moved),
    ]
