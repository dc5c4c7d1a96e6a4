"""The profile and friends over HTTP (PROTOCOL.md, "Accounts": "Profile and friends"):
the account's finished games and statistics, a player's public profile, friends, blocks
and invitations to a table.

Every route of ``/api/account`` here is the signed-in account's own (a reader or a
changer of :class:`~triominos.server.account_api.AccountApi`: a change needs the sign-in's
CSRF token). ``/api/players/{name}`` is public and shows only what finished matches'
records and the leaderboard show anyway: the name and language, the statistics, the
finished games, the ratings and their history; never a seat's token nor a table still
played.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from triominos.server.account_api import AccountApi, AnyName, body, name_of
from triominos.server.account_store import Account
from triominos.server.friends_store import Invitation
from triominos.server.profile_store import GAMES_A_PAGE, ProfileStore
from triominos.server.protocol import ApiError, answers
from triominos.server.rating_api import history_json, player_rating_json
from triominos.server.store import TableInfo

InvitationHook = Callable[[Invitation], Awaitable[None]]
"""Called with each invitation made (the app sends its push notice from here)."""

PRIVATE = {"Cache-Control": "no-store, private"}


class ByName(msgspec.Struct, forbid_unknown_fields=True):
    name: AnyName


class ToTable(msgspec.Struct, forbid_unknown_fields=True):
    name: AnyName
    code: Annotated[str, msgspec.Meta(min_length=1, max_length=12)]


answering = answers({"blocked": 403, "not_friends": 403, "yourself": 400, "too_many": 429})


class ProfileApi:
    """The profile and friends routes, on an :class:`AccountApi`'s accounts."""

    def __init__(self, accounts: AccountApi, on_invitation: InvitationHook | None = None) -> None:
        self.api = accounts
        self.friends = accounts.friends
        self.profiles = ProfileStore(accounts.store)
        self.on_invitation = on_invitation

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/account/games", answering(self.my_games)),
            Route("/api/account/stats", answering(self.my_stats)),
            Route("/api/players/{name}", answering(self.player)),
            Route("/api/account/friends", answering(self.my_friends)),
            Route("/api/account/friends", answering(self.ask), methods=["POST"]),
            Route("/api/account/friends/{name}", answering(self.unfriend), methods=["DELETE"]),
            Route("/api/account/blocks", answering(self.block), methods=["POST"]),
            Route("/api/account/blocks/{name}", answering(self.unblock), methods=["DELETE"]),
            Route("/api/account/invitations", answering(self.invite), methods=["POST"]),
            Route("/api/account/invitations/{id:int}", answering(self.dismiss), methods=["DELETE"]),
        ]

    # --- the profile --------------------------------------------------------------------

    async def summarised(self, request: Request, account: Account) -> int:
        """Work out the summaries the account's games still miss; how many still do."""
        service = request.app.state.service

        def replay(info: TableInfo) -> Mapping[str, Any]:
            record: Mapping[str, Any] = service.snapshot(info).record()
            return record

        return await run_in_threadpool(self.profiles.summarise, account.id, replay)

    async def games_json(self, request: Request, account: Account) -> dict[str, Any]:
        offset = _number(request, "offset", 0, 0, 10**6)
        limit = _number(request, "limit", 20, 1, GAMES_A_PAGE)
        games, total = await run_in_threadpool(self.profiles.games, account.id, offset, limit)
        return {"games": [game.to_json() for game in games], "total": total, "offset": offset}

    async def profile_json(self, request: Request, account: Account) -> dict[str, Any]:
        """The public profile: the ratings as ``/api/ratings/{player}`` gives them."""
        pending = await self.summarised(request, account)
        stats = await run_in_threadpool(self.profiles.stats, account.id)
        now = self.api.clock(request)
        ratings, history = await run_in_threadpool(self.api.ratings.player, str(account.id), now)
        return {
            "name": account.name,
            "language": account.language,
            "stats": stats,
            "pending": pending,
            "ratings": [player_rating_json(entry) for entry in ratings],
            "history": [history_json(point) for point in history],
            **await self.games_json(request, account),
        }

    async def my_games(self, request: Request) -> Response:
        account, _ = await self.api.reader(request)
        await self.summarised(request, account)
        return JSONResponse(await self.games_json(request, account), headers=PRIVATE)

    async def my_stats(self, request: Request) -> Response:
        account, _ = await self.api.reader(request)
        pending = await self.summarised(request, account)
        stats = await run_in_threadpool(self.profiles.stats, account.id)
        return JSONResponse({"stats": stats, "pending": pending}, headers=PRIVATE)

    async def player(self, request: Request) -> Response:
        """A player's public profile."""
        account = await self.named(request.path_params["name"])
        return JSONResponse(await self.profile_json(request, account))

    # --- friends ------------------------------------------------------------------------

    async def named(self, name: str) -> Account:
        """The account of a name, or 404 ``not_found`` (400 ``bad_name`` for no name)."""
        account = await run_in_threadpool(self.api.accounts.by_name, name_of(name))
        if account is None:
            raise ApiError(404, "not_found", f"no player is named {name!r}", "name")
        return account

    async def my_friends(self, request: Request) -> Response:
        account, _ = await self.api.reader(request)
        found = await run_in_threadpool(self.friends.friends, account.id, self.api.clock(request))
        return JSONResponse(
            {
                "friends": [{"name": f.name, "online": f.online} for f in found.friends],
                "asking": found.asking,
                "asked": found.asked,
                "blocked": found.blocked,
                "invitations": [_invitation_json(i) for i in found.invitations],
            },
            headers=PRIVATE,
        )

    async def ask(self, request: Request) -> Response:
        """Ask for friendship, or accept when asked: ``friends`` says which it was."""
        account, _ = await self.api.changer(request)
        other = await self.named((await body(request, ByName)).name)
        now = self.api.clock(request)
        friends = await run_in_threadpool(self.friends.ask, account.id, other.id, now)
        return JSONResponse({"name": other.name, "friends": friends})

    async def unfriend(self, request: Request) -> Response:
        account, _ = await self.api.changer(request)
        other = await self.named(request.path_params["name"])
        if not await run_in_threadpool(self.friends.unfriend, account.id, other.id):
            raise ApiError(404, "not_found", f"{other.name} is no friend of yours, nor asked")
        return JSONResponse({"name": other.name, "friends": False})

    async def block(self, request: Request) -> Response:
        account, _ = await self.api.changer(request)
        other = await self.named((await body(request, ByName)).name)
        now = self.api.clock(request)
        await run_in_threadpool(self.friends.block, account.id, other.id, now)
        return JSONResponse({"name": other.name, "blocked": True})

    async def unblock(self, request: Request) -> Response:
        account, _ = await self.api.changer(request)
        other = await self.named(request.path_params["name"])
        if not await run_in_threadpool(self.friends.unblock, account.id, other.id):
            raise ApiError(404, "not_found", f"you have not blocked {other.name}")
        return JSONResponse({"name": other.name, "blocked": False})

    async def invite(self, request: Request) -> Response:
        """Invite a friend to a table that is not finished (201)."""
        account, _ = await self.api.changer(request)
        asked = await body(request, ToTable)
        other = await self.named(asked.name)
        code = asked.code.upper()
        info = await run_in_threadpool(self.api.store.table, code)
        if info is None or info.status == "finished":
            raise ApiError(404, "not_found", f"no table still played has the code {code!r}", "code")
        now = self.api.clock(request)
        invitation = await run_in_threadpool(self.friends.invite, account.id, other.id, code, now)
        if self.on_invitation is not None:
            await self.on_invitation(invitation)
        return JSONResponse(_invitation_json(invitation), status_code=201)

    async def dismiss(self, request: Request) -> Response:
        account, _ = await self.api.changer(request)
        number: int = request.path_params["id"]
        if not await run_in_threadpool(self.friends.dismiss, account.id, number):
            raise ApiError(404, "not_found", "you have no invitation of that id")
        return JSONResponse({"dismissed": number})


def _invitation_json(invitation: Invitation) -> dict[str, Any]:
    return {
        "id": invitation.id,
        "from": invitation.from_name,
        "code": invitation.code,
        "link": f"/t/{invitation.code}",
        "at": invitation.created_at,
    }


def _number(request: Request, name: str, default: int, least: int, most: int) -> int:
    """A whole-number query parameter within bounds, or 400 saying what was wrong."""
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or not least <= int(text) <= most:
        raise ApiError(400, "bad_request", f"{name} is a whole number from {least} to {most}", name)
    return int(text)


def account_routes(api: AccountApi, on_invitation: InvitationHook | None = None) -> list[BaseRoute]:
    """The account routes of ``api``, with the profile's and friends'
    (:mod:`triominos.server.profile_api`). ``on_invitation``: called with each
    invitation to a table a friend sends."""
    return [*api.routes(), *ProfileApi(api, on_invitation).routes()]
