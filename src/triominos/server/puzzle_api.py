"""The puzzles' HTTP API, under ``/api/puzzles/`` (PROTOCOL.md, "Puzzles").

| method and path | answer |
| --- | --- |
| ``POST /api/puzzles/browsers`` | ``201 {"browser", "rating"}``: a new browser id, rated 1500 |
| ``GET /api/puzzles/me`` | ``{"rating", "attempts"}`` of the browser |
| ``GET /api/puzzles/daily`` | ``{"puzzle"}``: the puzzle of the day (UTC), the same for all |
| ``GET /api/puzzles/next`` | ``{"puzzle"}``: one not yet tried, rated near the browser |
| ``GET /api/puzzles/{id}`` | ``{"puzzle"}`` |
| ``POST /api/puzzles/{id}/attempts`` | ``201``: the result; body ``{"answer": action}`` |

The browser's id goes in the header ``X-Puzzle-Browser`` (never in an address, where
logs would keep it); the database keeps only its hash. A puzzle is shown as the seat
sees it, with its legal actions as a table's view has them (``legal``), and never with
its solution: ``attempt`` is null until this browser has answered, then the result,
which holds the solution, the obvious move and why. An answer is one of ``legal``'s
actions. One attempt per puzzle and browser: a second is refused (``409 attempted``) and
changes nothing. The browsers at one address share each puzzle's one rated answer
(:mod:`triominos.server.puzzle_store`; ``rated`` in the result says which it was), and
an address makes at most :data:`BROWSERS_PER_ADDRESS` browser ids a day (``429
too_many_browsers``).

Errors are PROTOCOL.md's ``{"error": {"code", "message", "field"}}``: ``bad_request`` (a
malformed body or browser id), ``bad_answer`` (not a legal action of the puzzle, or an
action its rules do not have, naming the rule: ``buy`` without a bank),
``unknown_browser`` (403), ``not_found`` (no such puzzle), ``none_left`` (404: this
browser has tried every puzzle), ``attempted`` (409), ``too_many_browsers`` (429).
"""

from __future__ import annotations

import asyncio
import datetime
import math
import random
import re
import secrets
import time
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from triominos.board import Placement
from triominos.explain import where
from triominos.game import Action, Draw, action_json
from triominos.glicko import Rating
from triominos.puzzles import Puzzle, PuzzleSet, action_to_text, shipped
from triominos.server.guard import client_key
from triominos.server.pad_api import json_body
from triominos.server.protocol import ApiError, answers
from triominos.server.puzzle_store import Attempt, PastAttempt, PuzzleStore
from triominos.server.service import address_hash
from triominos.server.store import Store
from triominos.server.table import token_hash
from triominos.server.views import (
    ActionFieldError,
    JsonObject,
    parse_action,
    position_json,
)

BROWSER_HEADER = "x-puzzle-browser"
BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{32,64}")
"""What a browser id looks like (:func:`secrets.token_urlsafe` of 32 bytes makes 43)."""

BROWSERS_PER_ADDRESS = 20
BROWSERS_SECONDS = 24 * 3600.0
"""The browser ids one address (an IPv6 one by its /64) may make in a day: a household
or a classroom, not a supply of throwaway ids (PROTOCOL.md, "The puzzles' HTTP API")."""

answering = answers({"unknown_browser": 403, "attempted": 409, "busy": 503})
"""Every puzzle route's wrapper: a refused attempt is the protocol's error answer."""


def rating_json(rating: Rating) -> JsonObject:
    return {
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "volatility": round(rating.volatility, 6),
    }


def puzzle_json(puzzle: Puzzle, rating: Rating, attempt: JsonObject | None) -> JsonObject:
    """What anyone may see of a puzzle: the seat's view, never the solution (that comes
    in ``attempt``, once this browser has answered)."""
    return {
        "id": puzzle.id,
        **position_json(puzzle.observation),
        "rating": rating_json(rating),
        "attempt": attempt,
    }


def result_json(puzzle: Puzzle, answer: str, solved: bool) -> JsonObject:
    """The answer checked: the solution, the obvious move and why (Puzzle.explanation)."""
    board = puzzle.observation.board

    def named(action: Action) -> JsonObject:
        """The action as a table's log has it, a placement's cell also in words."""
        found = action_json(action, board.joker_cell)
        if isinstance(action, Placement):
            found["where"] = where(board, action.cell).to_json()
        return found

    return {
        "solved": solved,
        "answer": answer,
        "solution": named(puzzle.solution),
        "solution_points": puzzle.points(puzzle.solution),
        "obvious": named(puzzle.obvious),
        "obvious_points": puzzle.points(puzzle.obvious),
        "margin": round(puzzle.margin, 1),
        "explanation": [reason.to_json() for reason in puzzle.explanation],
    }


def puzzle_routes(
    store: Store,
    puzzles: PuzzleSet | None = None,
    *,
    today: Callable[[], datetime.date] = lambda: datetime.datetime.now(datetime.UTC).date(),
) -> list[BaseRoute]:
    """The puzzles' routes on the service's database; ``puzzles``: the shipped ones unless
    given, ``today``: the UTC date that chooses the puzzle of the day."""
    rows = PuzzleStore(store)
    rng = random.SystemRandom()
    loaded = puzzles
    loading = asyncio.Lock()

    async def the_set() -> PuzzleSet:
        """The puzzles, the shipped ones read once on first use (seconds: each is checked
        as it is read), off the event loop."""
        nonlocal loaded
        async with loading:
            if loaded is None:
                loaded = await run_in_threadpool(shipped)
        return loaded

    def browser_hash(request: Request, required: bool = True) -> str | None:
        key = request.headers.get(BROWSER_HEADER)
        if key is None:
            if not required:
                return None
            raise ApiError(
                400,
                "bad_request",
                f"missing the {BROWSER_HEADER} header: "
                "a browser id from POST /api/puzzles/browsers",
                "browser",
            )
        if not BROWSER_ID.fullmatch(key):
            raise ApiError(
                400,
                "bad_request",
                "a browser id is 32 to 64 letters, digits, '-' or '_', "
                "as POST /api/puzzles/browsers gave it",
                "browser",
            )
        return token_hash(key)

    async def existing(request: Request) -> Puzzle:
        code = request.path_params["id"]
        puzzle = (await the_set()).by_id.get(code)
        if puzzle is None:
            raise ApiError(404, "not_found", f"no puzzle {code!r}")
        return puzzle

    def unknown() -> ApiError:
        return ApiError(
            403, "unknown_browser", "this browser id is not known here: ask for a new one"
        )

    async def shown(request: Request, puzzle: Puzzle) -> JsonObject:
        """The puzzle for this request's browser: with its result if it has answered."""
        key = browser_hash(request, required=False)
        past: PastAttempt | None = None
        if key is not None:
            past = await run_in_threadpool(rows.attempt_of, key, puzzle.id)
        ratings = await run_in_threadpool(rows.ratings)
        attempt = None if past is None else result_json(puzzle, past.answer, past.solved)
        return puzzle_json(puzzle, ratings.get(puzzle.id, puzzle.rating), attempt)

    async def new_browser(request: Request) -> Response:
        address = address_hash(client_key(request.scope))
        now = time.time()
        made = await run_in_threadpool(rows.browsers_made, address, now - BROWSERS_SECONDS)
        if len(made) >= BROWSERS_PER_ADDRESS:
            raise ApiError(
                429,
                "too_many_browsers",
                f"this address made {len(made)} puzzle browser ids today, the most it may; "
                "keep using one you have",
                retry_after=max(1, math.ceil(min(made) + BROWSERS_SECONDS - now)),
            )
        key = secrets.token_urlsafe(32)
        rating = await run_in_threadpool(rows.new_browser, token_hash(key), address)
        return JSONResponse({"browser": key, "rating": rating_json(rating)}, status_code=201)

    async def me(request: Request) -> Response:
        key = browser_hash(request)
        assert key is not None
        info = await run_in_threadpool(rows.browser, key)
        if info is None:
            raise unknown()
        return JSONResponse({"rating": rating_json(info.rating), "attempts": len(info.attempted)})

    async def daily(request: Request) -> Response:
        day = today()
        puzzle = (await the_set()).daily(day)
        return JSONResponse({"date": day.isoformat(), "puzzle": await shown(request, puzzle)})

    async def next_puzzle(request: Request) -> Response:
        key = browser_hash(request)
        assert key is not None
        info = await run_in_threadpool(rows.browser, key)
        if info is None:
            raise unknown()
        ratings = await run_in_threadpool(rows.ratings)
        puzzle = (await the_set()).near(info.rating.rating, ratings, info.attempted, rng)
        if puzzle is None:
            raise ApiError(404, "none_left", "this browser has tried every puzzle")
        return JSONResponse({"puzzle": await shown(request, puzzle)})

    async def show(request: Request) -> Response:
        return JSONResponse({"puzzle": await shown(request, await existing(request))})

    async def attempt(request: Request) -> Response:
        puzzle = await existing(request)
        key = browser_hash(request)
        assert key is not None
        body = await json_body(request)
        value = body.get("answer")
        if not isinstance(value, dict):
            raise ApiError(
                400, "bad_request", "an answer is one of the puzzle's legal actions", "answer"
            )
        observation = puzzle.observation
        try:
            action = parse_action(value, observation.rules, observation.board.copy())
        except ActionFieldError as error:
            raise ApiError(400, "bad_answer", str(error), f"answer.{error.field}") from None
        legal = {option.action for option in observation.legal_actions()}
        if not isinstance(action, Placement | Draw) or action not in legal:
            raise ApiError(
                400, "bad_answer", "the answer is none of the puzzle's legal actions", "answer"
            )
        answer = action_to_text(action)
        solved = action == puzzle.solution
        address = address_hash(client_key(request.scope))
        done: Attempt = await run_in_threadpool(
            rows.attempt, key, puzzle.id, puzzle.rating, answer, solved, address
        )
        return JSONResponse(
            {
                **result_json(puzzle, answer, solved),
                "rated": done.rated,
                "browser": {
                    "before": rating_json(done.browser_before),
                    "after": rating_json(done.browser_after),
                },
                "puzzle": {
                    "before": rating_json(done.puzzle_before),
                    "after": rating_json(done.puzzle_after),
                },
            },
            status_code=201,
        )

    return [
        Route("/api/puzzles/browsers", answering(new_browser), methods=["POST"]),
        Route("/api/puzzles/me", answering(me)),
        Route("/api/puzzles/daily", answering(daily)),
        Route("/api/puzzles/next", answering(next_puzzle)),
        Route("/api/puzzles/{id}", answering(show)),
        Route("/api/puzzles/{id}/attempts", answering(attempt), methods=["POST"]),
    ]
