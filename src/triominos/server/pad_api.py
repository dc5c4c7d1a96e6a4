"""The score pad's HTTP API, under ``/api/pad/``.

| method and path | body | answer |
| --- | --- | --- |
| ``POST /api/pad/games`` | ``{"preset", "options", "players": ["Ann", "Bob"]}`` | ``201`` |
| ``GET /api/pad/games/{id}`` | | the game |
| ``POST /api/pad/games/{id}/entries`` | ``{"entry": {"kind": "lay", …}, "version"}`` | ``201`` |
| ``POST /api/pad/games/{id}/undo`` | ``{"version"}`` | the game |
| ``POST /api/pad/games/{id}/finish`` | ``{"version"}`` | the game, final: results saved |
| ``GET /api/pad/games/{id}/export.json`` | | the whole sheet, as a download |
| ``GET /api/pad/games/{id}/export.csv`` | | one row an entry, as a download |
| ``GET /api/pad/players`` | | every player's statistics over finished games |

A game is ``{"id", "link", "version", "finished", "created_at", "finished_at", "sheet"}``:
``link`` is the page that shows it (``/pad/{id}``, to share), ``version`` the number of
entries, ``sheet`` :meth:`triominos.pad.Pad.sheet`. Every answer but the exports and the
players is the game (``201`` when something was added). ``version`` in a body is
optional: when given, a change based on another version is refused (``409
stale_version``), so two phones at one table cannot overwrite each other.

Errors are PROTOCOL.md's ``{"error": {"code", "message", "field"}}``: ``bad_request`` (a
malformed body), ``bad_entry`` (the pad refused it; ``field`` names the entry's field as
``entry.<name>``, or ``players``, ``preset``, ``options.<name>``; a refused entry also has
``reason``, ``{"key", "params"}``, the pad's reason for the page to show in any
language), ``not_found``, ``finished``, ``stale_version``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from triominos.pad import Pad, PadError, entry_from_json, entry_to_json, pad_rules
from triominos.server.pad_store import PadGame, PadStore
from triominos.server.protocol import ApiError, BadMessageError, answers, decode
from triominos.server.store import Store


class PadRefusal(ApiError):
    """A pad's refusal as the protocol's error answer, with ``reason``: its key of
    :data:`triominos.pad.REFUSALS` and params, for the page to say why in any language."""

    def __init__(self, error: PadError) -> None:
        super().__init__(400, "bad_entry", error.reason, error.field)
        self.key, self.params = error.key, error.params

    def response(self) -> JSONResponse:
        answer = super().response()
        if self.key is None:
            return answer
        body = json.loads(bytes(answer.body))
        body["error"]["reason"] = {"key": self.key, "params": self.params}
        return JSONResponse(body, status_code=self.status)


answering = answers(
    {"not_found": 404, "finished": 409, "stale_version": 409},
    {PadError: PadRefusal},
)
"""Every pad route's wrapper: a refused change or entry is the protocol's error answer."""


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body is an empty object)."""
    body = await request.body()  # its size is the guard's (triominos.server.guard)
    if not body.strip():
        return {}
    try:
        return decode(body, dict[str, Any])
    except BadMessageError as error:
        raise ApiError(400, "bad_request", f"the body is one JSON object: {error}") from None


def game_json(request: Request, game: PadGame) -> dict[str, Any]:
    return {
        "id": game.code,
        "link": str(request.base_url).rstrip("/") + f"/pad/{game.code}",
        "version": game.version,
        "finished": game.finished,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "sheet": game.pad.sheet(),
    }


def pad_routes(store: Store) -> list[BaseRoute]:
    """The score pad's routes on the service's database."""
    pads = PadStore(store)

    async def existing(request: Request) -> PadGame:
        code = request.path_params["id"]
        game = await run_in_threadpool(pads.game, code)
        if game is None:
            raise ApiError(404, "not_found", f"no score pad game {code!r}")
        return game

    async def changeable(request: Request, body: Mapping[str, Any]) -> PadGame:
        """The game, checked to be open and at the version the client saw."""
        game = await existing(request)
        if game.finished:
            raise ApiError(409, "finished", "this game is finished: its sheet is final")
        version = body.get("version")
        if version is not None:
            if not isinstance(version, int) or isinstance(version, bool):
                raise ApiError(400, "bad_request", "a whole number", "version")
            if version != game.version:
                raise ApiError(
                    409,
                    "stale_version",
                    f"the game is at version {game.version}, not {version}: reload it",
                    "version",
                )
        return game

    async def create(request: Request) -> Response:
        body = await json_body(request)
        name = body.get("preset", "classic")
        if not isinstance(name, str):
            raise ApiError(400, "bad_request", "a preset's name", "preset")
        pad = Pad(pad_rules(name, body.get("options")), body.get("players"), name)  # type: ignore[arg-type]  # checked by the pad
        game = await run_in_threadpool(pads.create, pad)
        return JSONResponse(game_json(request, game), status_code=201)

    async def show(request: Request) -> Response:
        return JSONResponse(game_json(request, await existing(request)))

    async def add_entry(request: Request) -> Response:
        body = await json_body(request)
        game = await changeable(request, body)
        try:
            entry = entry_from_json(body.get("entry"))
            game.pad.add(entry)
        except PadError as error:
            raise PadError(
                f"entry.{error.field}", error.reason, error.key, **error.params
            ) from None
        await run_in_threadpool(pads.append, game, entry_to_json(entry))
        return JSONResponse(game_json(request, game), status_code=201)

    async def undo(request: Request) -> Response:
        game = await changeable(request, await json_body(request))
        number = game.version
        game.pad.undo()
        await run_in_threadpool(pads.remove_last, game, number)
        return JSONResponse(game_json(request, game))

    async def finish(request: Request) -> Response:
        game = await changeable(request, await json_body(request))
        if not game.pad.is_over:
            game.pad.stop()
        finished = await run_in_threadpool(pads.finish, game)
        return JSONResponse(game_json(request, finished))

    async def export_json(request: Request) -> Response:
        game = await existing(request)
        return JSONResponse(
            game_json(request, game),
            headers=download(f"triominos-pad-{game.code}.json"),
        )

    async def export_csv(request: Request) -> Response:
        game = await existing(request)
        return Response(
            game.pad.to_csv(),
            media_type="text/csv; charset=utf-8",
            headers=download(f"triominos-pad-{game.code}.csv"),
        )

    async def players(request: Request) -> Response:
        stats = await run_in_threadpool(pads.players)
        return JSONResponse({"players": [stat.to_json() for stat in stats]})

    return [
        Route("/api/pad/games", answering(create), methods=["POST"]),
        Route("/api/pad/games/{id}", answering(show)),
        Route("/api/pad/games/{id}/entries", answering(add_entry), methods=["POST"]),
        Route("/api/pad/games/{id}/undo", answering(undo), methods=["POST"]),
        Route("/api/pad/games/{id}/finish", answering(finish), methods=["POST"]),
        Route("/api/pad/games/{id}/export.json", answering(export_json)),
        Route("/api/pad/games/{id}/export.csv", answering(export_csv)),
        Route("/api/pad/players", answering(players)),
    ]


def download(filename: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{filename}"'}
