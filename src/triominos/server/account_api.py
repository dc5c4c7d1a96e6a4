"""Accounts' HTTP API, under ``/api/account`` (PROTOCOL.md, "Accounts"): sign up and in
with a passkey (WebAuthn) or a password (argon2id), sign out here or everywhere, the
profile, the seats moved into the account, its export and its deletion.

Accounts are optional: nothing else of the service asks for one.

**Sign-ins.** A sign-in is a random id in an ``HttpOnly``, ``SameSite=Lax`` cookie
(``Secure`` when the request came over TLS, as the guard reads it from a trusted proxy
too); the database keeps its hash. **CSRF.** A form on another site can post neither
JSON nor a header of its own, and the guard refuses another site's Origin; beside
those, every change here carries the header ``X-CSRF-Token``: when signed in, the
sign-in's own token (:func:`csrf_token`, which ``GET /api/account`` gives the page), so
that a cookie alone never changes anything. **Passkeys.** The relying party is the
host the request came to, which the guard accepts only when it is an origin the
server was told to answer (``--allowed-origin``) or ``localhost`` (an IP address is no
relying party); each challenge is answered once, within :data:`CHALLENGE_SECONDS`.
**Traces.** Each use of a sign-in keeps the keyed hashes of the browser and address it
came from, which the ratings' anti-abuse rule compares (:mod:`triominos.server.trace_store`).
**Guessing.** The guard counts sign-ins per address (its ``sign_in`` limit); wrong
passwords are counted per account and pause its password sign-in
(:data:`~triominos.server.account_store.FAILED_SIGN_INS`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import ipaddress
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.parse_authentication_credential_json import (
    parse_authentication_credential_json,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from triominos.server.account_names import DisplayNameError, clean_name
from triominos.server.account_store import (
    CHALLENGE_SECONDS,
    SESSION_SECONDS,
    Account,
    AccountRefusal,
    AccountStore,
    Challenge,
    name_taken,
)
from triominos.server.friends_store import FriendStore
from triominos.server.presets import LANGUAGES
from triominos.server.protocol import ApiError, BadMessageError, Token, answers, decode
from triominos.server.rating_store import RatingStore
from triominos.server.store import Store
from triominos.server.table import token_hash
from triominos.server.trace_store import TraceStore, whereabouts

SESSION_COOKIE = "triominos_sign_in"
CSRF_HEADER = "x-csrf-token"
HASHES_AT_ONCE = 2
"""Passwords hashed or checked at once on a node (argon2id takes 64 MiB each)."""
SEATS_PER_MOVE = 100
"""The most seats one request moves into an account."""

Password = Annotated[str, msgspec.Meta(min_length=8, max_length=200)]
AnyName = Annotated[str, msgspec.Meta(max_length=80)]
Language = Annotated[str, msgspec.Meta(max_length=8)]


class PasswordSignUp(msgspec.Struct, forbid_unknown_fields=True):
    name: AnyName
    password: Password
    language: Language = "en"


class PasswordSignIn(msgspec.Struct, forbid_unknown_fields=True):
    name: AnyName
    password: Annotated[str, msgspec.Meta(max_length=200)]


class NewPassword(msgspec.Struct, forbid_unknown_fields=True):
    password: Password


class PasskeyOptions(msgspec.Struct, forbid_unknown_fields=True):
    """A passkey to register: for a new account of ``name``, or (signed in) for this one."""

    name: AnyName | None = None
    language: Language = "en"


class PasskeyAnswer(msgspec.Struct, forbid_unknown_fields=True):
    ceremony: Annotated[str, msgspec.Meta(max_length=64)]
    credential: dict[str, Any]


class SignOut(msgspec.Struct, forbid_unknown_fields=True):
    everywhere: bool = False


class ProfileChange(msgspec.Struct, forbid_unknown_fields=True):
    name: AnyName | None = None
    language: Language | None = None


class SeatToMove(msgspec.Struct, forbid_unknown_fields=True):
    code: Annotated[str, msgspec.Meta(max_length=12)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=5)]
    token: Token


class SeatsToMove(msgspec.Struct, forbid_unknown_fields=True):
    seats: Annotated[list[SeatToMove], msgspec.Meta(max_length=SEATS_PER_MOVE)]


class Empty(msgspec.Struct, forbid_unknown_fields=True):
    pass


def csrf_token(session_id: str) -> str:
    """The token a signed-in page sends with every change: made from the sign-in's id,
    which only the cookie carries and no script reads."""
    return hmac.new(session_id.encode(), b"csrf", hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Whom a passkey is made for: the host (``id``) and the origin the page is on."""

    id: str
    origin: str


def relying_party(request: Request) -> RelyingParty:
    """The relying party of the host the request came to (which the guard has checked
    is one the server answers), or 400 ``no_passkeys`` for an IP address."""
    host = request.url.hostname or ""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        netloc = request.headers.get("host", host)
        return RelyingParty(host, f"{request.url.scheme}://{netloc}")
    else:
        raise ApiError(
            400,
            "no_passkeys",
            "passkeys need the server reached by its name (localhost, or an origin given "
            "with --allowed-origin), not by an IP address",
        )


async def body(request: Request, kind: type[Any]) -> Any:
    try:
        return decode(await request.body(), kind)
    except BadMessageError as error:
        raise ApiError(400, "bad_request", str(error), error.field) from None


def language_of(code: str) -> str:
    if code not in LANGUAGES:
        raise ApiError(400, "bad_request", f"language is one of {', '.join(LANGUAGES)}", "language")
    return code


def name_of(name: str) -> str:
    try:
        return clean_name(name)
    except DisplayNameError as error:
        raise ApiError(400, "bad_name", str(error), "name") from None


Checked = TypeVar("Checked")
Hashed = TypeVar("Hashed")


def passkey_checked(check: Callable[[], Checked]) -> Checked:
    """What ``check`` (a WebAuthn verification) finds, or 400 ``bad_passkey`` saying why
    the browser's answer was refused (a wrong challenge, origin, signature, counter...)."""
    try:
        return check()
    except (WebAuthnException, ValueError) as error:
        raise ApiError(400, "bad_passkey", f"the passkey's answer was refused: {error}") from None


answering = answers(
    {
        "name_taken": 409,
        "claimed": 409,
        "passkey_known": 409,
        "too_many_seats": 409,
        "bad_challenge": 400,
    }
)


class AccountApi:
    """The account routes on the service's database; ``clock``: the service's."""

    def __init__(
        self, store: Store, clock: Callable[[Request], float], hasher: PasswordHasher
    ) -> None:
        self.store = store
        self.accounts = AccountStore(store)
        self.friends = FriendStore(store)
        self.traces = TraceStore(store)
        self.ratings = RatingStore(store)
        self.clock = clock
        self.hasher = hasher
        self.hashing = asyncio.Semaphore(HASHES_AT_ONCE)
        self.no_password = self.hasher.hash(secrets.token_urlsafe(16))
        """A hash to check a password against for a name nobody has, so that a wrong
        name takes as long as a wrong password."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/account", answering(self.me)),
            Route("/api/account", answering(self.change), methods=["PATCH"]),
            Route("/api/account", answering(self.delete), methods=["DELETE"]),
            Route("/api/account/sign-up", answering(self.sign_up), methods=["POST"]),
            Route("/api/account/sign-in", answering(self.sign_in), methods=["POST"]),
            Route("/api/account/sign-out", answering(self.sign_out), methods=["POST"]),
            Route("/api/account/password", answering(self.set_password), methods=["POST"]),
            Route(
                "/api/account/passkeys/options", answering(self.passkey_options), methods=["POST"]
            ),
            Route("/api/account/passkeys", answering(self.add_passkey), methods=["POST"]),
            Route("/api/account/passkeys/{id}", answering(self.remove_passkey), methods=["DELETE"]),
            Route(
                "/api/account/passkey-sign-in/options",
                answering(self.passkey_sign_in_options),
                methods=["POST"],
            ),
            Route(
                "/api/account/passkey-sign-in", answering(self.passkey_sign_in), methods=["POST"]
            ),
            Route("/api/account/seats", answering(self.seats)),
            Route("/api/account/seats", answering(self.move_seats), methods=["POST"]),
            Route("/api/account/export", answering(self.export)),
        ]

    # --- who is signed in ---------------------------------------------------------------

    async def signed_in(self, request: Request) -> tuple[Account, str] | None:
        """The account of the request's sign-in cookie and the sign-in's id, if valid."""
        session_id = request.cookies.get(SESSION_COOKIE)
        if not session_id or len(session_id) > 100:
            return None
        now = self.clock(request)
        account = await run_in_threadpool(self.accounts.signed_in, session_id, now)
        if account is None:
            return None
        await run_in_threadpool(self.friends.seen, account.id, now)  # "online" to friends
        await self.seen(request, account, now)
        return account, session_id

    async def seen(self, request: Request, account: Account, now: float) -> None:
        """Keep the traces of the browser and address the account is used from, which
        the ratings' anti-abuse rule compares (:mod:`triominos.server.trace_store`)."""
        await run_in_threadpool(self.traces.seen, account.id, *whereabouts(request), now)

    async def reader(self, request: Request) -> tuple[Account, str]:
        """The account signed in, or 401 ``signed_out``."""
        found = await self.signed_in(request)
        if found is None:
            raise ApiError(401, "signed_out", "sign in first: this needs an account's sign-in")
        return found

    async def changer(self, request: Request) -> tuple[Account, str]:
        """The account a change is made to: signed in, with its sign-in's CSRF token."""
        found = await self.reader(request)
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf_token(found[1]).encode()):
            raise ApiError(403, "bad_csrf", f"a change needs the sign-in's {CSRF_HEADER} header")
        return found

    async def maybe_changer(self, request: Request) -> tuple[Account, str] | None:
        """For what both a signed-in page and a signed-out one do (register a passkey):
        the account, as :meth:`changer` checks it, or None signed out."""
        if await self.signed_in(request) is None:
            self.check_header(request)
            return None
        return await self.changer(request)

    @staticmethod
    def check_header(request: Request) -> None:
        """A sign-in or sign-up carries the CSRF header too, which no form can send."""
        if not request.headers.get(CSRF_HEADER):
            raise ApiError(403, "bad_csrf", f"a sign-in needs the {CSRF_HEADER} header")

    async def start_session(self, request: Request, account: Account, status: int) -> Response:
        """Sign the account in on this device: a new sign-in and its cookie."""
        session_id = secrets.token_urlsafe(32)
        now = self.clock(request)
        await run_in_threadpool(self.accounts.sign_in, account.id, session_id, now)
        await self.seen(request, account, now)
        response = await self.account_json(account, session_id, status)
        response.set_cookie(
            SESSION_COOKIE,
            session_id,
            max_age=int(SESSION_SECONDS),
            path="/",
            httponly=True,
            secure=request.url.scheme == "https",
            samesite="lax",
        )
        return response

    async def account_json(self, account: Account, session_id: str, status: int = 200) -> Response:
        passkeys = await run_in_threadpool(self.accounts.passkeys, account.id)
        return JSONResponse(
            {
                "account": {
                    "name": account.name,
                    "language": account.language,
                    "password": account.password_hash is not None,
                    "passkeys": [
                        {
                            "id": key.credential_id,
                            "created_at": key.created_at,
                            "used_at": key.used_at,
                        }
                        for key in passkeys
                    ],
                    "created_at": account.created_at,
                },
                "csrf": csrf_token(session_id),
            },
            status_code=status,
            headers={"Cache-Control": "no-store, private"},
        )

    async def me(self, request: Request) -> Response:
        found = await self.signed_in(request)
        if found is None:
            return JSONResponse({"account": None}, headers={"Cache-Control": "no-store"})
        return await self.account_json(*found)

    # --- passwords ----------------------------------------------------------------------

    async def sign_up(self, request: Request) -> Response:
        self.check_header(request)
        asked = await body(request, PasswordSignUp)
        name, language = name_of(asked.name), language_of(asked.language)
        if not await run_in_threadpool(self.accounts.name_free, name):
            raise name_taken(name)
        hashed = await self.argon2(self.hasher.hash, asked.password)
        account = await run_in_threadpool(
            self.accounts.create,
            name,
            language,
            bytes_to_base64url(secrets.token_bytes(32)),
            hashed,
            self.clock(request),
        )
        return await self.start_session(request, account, 201)

    async def sign_in(self, request: Request) -> Response:
        self.check_header(request)
        asked = await body(request, PasswordSignIn)
        now = self.clock(request)
        account = await run_in_threadpool(self.accounts.by_name, asked.name)
        if account is not None and account.locked_until is not None and account.locked_until > now:
            wait = int(account.locked_until - now) + 1
            raise ApiError(
                429,
                "locked",
                f"too many wrong passwords: this account's password sign-in is paused for "
                f"{wait} s (a passkey still signs in)",
                retry_after=wait,
            )
        stored = account.password_hash if account is not None else None
        right = await self.argon2(self.password_is, stored or self.no_password, asked.password)
        if account is None or stored is None or not right:
            if account is not None:
                await run_in_threadpool(self.accounts.failed_sign_in, account.id, now)
            raise ApiError(401, "bad_sign_in", "no account has this name and password")
        return await self.start_session(request, account, 200)

    async def argon2(self, work: Callable[..., Hashed], *args: str) -> Hashed:
        """Run an argon2 hash or check (64 MiB of memory each) with few at once: a
        flood of sign-ins from many addresses waits here instead of taking the memory."""
        async with self.hashing:
            return await run_in_threadpool(work, *args)

    def password_is(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    async def set_password(self, request: Request) -> Response:
        account, session_id = await self.changer(request)
        asked = await body(request, NewPassword)
        hashed = await self.argon2(self.hasher.hash, asked.password)
        await run_in_threadpool(self.accounts.set_password, account.id, hashed)
        changed = await run_in_threadpool(self.accounts.account, account.id)
        assert changed is not None
        return await self.account_json(changed, session_id)

    # --- passkeys -----------------------------------------------------------------------

    async def passkey_options(self, request: Request) -> Response:
        """Begin registering a passkey: for the account signed in, else for a new one."""
        party = relying_party(request)
        found = await self.maybe_changer(request)
        asked = await body(request, PasskeyOptions)
        if found is not None:
            account, _ = found
            name, language, handle = account.name, account.language, account.user_handle
            known = await run_in_threadpool(self.accounts.passkeys, account.id)
            account_id: int | None = account.id
        else:
            if asked.name is None:
                raise ApiError(400, "bad_request", "a new account needs a name", "name")
            name, language = name_of(asked.name), language_of(asked.language)
            if not await run_in_threadpool(self.accounts.name_free, name):
                raise name_taken(name)
            handle, known, account_id = bytes_to_base64url(secrets.token_bytes(32)), [], None
        options = generate_registration_options(
            rp_id=party.id,
            rp_name="Triominos",
            user_id=base64url_to_bytes(handle),
            user_name=name,
            user_display_name=name,
            timeout=int(CHALLENGE_SECONDS * 1000),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(key.credential_id))
                for key in known
            ],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
        )
        challenge = Challenge(
            "register", bytes_to_base64url(options.challenge), account_id, name, handle, language
        )
        return await self.ceremony(request, challenge, options_to_json(options))

    async def ceremony(self, request: Request, challenge: Challenge, options: str) -> Response:
        """Keep the challenge and answer the browser's options with the ceremony's id."""
        ceremony = secrets.token_urlsafe(24)
        await run_in_threadpool(
            self.accounts.add_challenge, ceremony, challenge, self.clock(request)
        )
        return JSONResponse(
            {"ceremony": ceremony, "publicKey": json.loads(options)},
            headers={"Cache-Control": "no-store"},
        )

    async def add_passkey(self, request: Request) -> Response:
        """Finish registering a passkey; a new account is made and signed in (201)."""
        party = relying_party(request)
        found = await self.maybe_changer(request)
        asked = await body(request, PasskeyAnswer)
        now = self.clock(request)
        challenge = await run_in_threadpool(
            self.accounts.take_challenge, asked.ceremony, "register", now
        )
        if challenge.account_id != (None if found is None else found[0].id):
            raise ApiError(400, "bad_challenge", "this passkey challenge is another sign-in's")
        verified = passkey_checked(
            lambda: verify_registration_response(
                credential=asked.credential,
                expected_challenge=base64url_to_bytes(challenge.challenge),
                expected_rp_id=party.id,
                expected_origin=party.origin,
            )
        )
        credential_id = bytes_to_base64url(verified.credential_id)
        if found is not None:
            account, session_id = found
        else:
            assert challenge.name is not None and challenge.user_handle is not None
            account = await run_in_threadpool(
                self.accounts.create,
                challenge.name,
                challenge.language or "en",
                challenge.user_handle,
                None,
                now,
            )
        await run_in_threadpool(
            self.accounts.add_passkey,
            account.id,
            credential_id,
            verified.credential_public_key,
            verified.sign_count,
            now,
        )
        if found is None:
            return await self.start_session(request, account, 201)
        return await self.account_json(account, session_id, 201)

    async def remove_passkey(self, request: Request) -> Response:
        account, session_id = await self.changer(request)
        removed = await run_in_threadpool(
            self.accounts.remove_passkey, account.id, request.path_params["id"]
        )
        if not removed:
            raise ApiError(404, "not_found", "this account has no passkey of that id")
        return await self.account_json(account, session_id)

    async def passkey_sign_in_options(self, request: Request) -> Response:
        """Begin signing in with a passkey: any of this site's, which the browser offers
        (the account comes from the passkey, so no name is asked)."""
        self.check_header(request)
        party = relying_party(request)
        await body(request, Empty)
        options = generate_authentication_options(
            rp_id=party.id,
            timeout=int(CHALLENGE_SECONDS * 1000),
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        challenge = Challenge(
            "sign_in", bytes_to_base64url(options.challenge), None, None, None, None
        )
        return await self.ceremony(request, challenge, options_to_json(options))

    async def passkey_sign_in(self, request: Request) -> Response:
        self.check_header(request)
        party = relying_party(request)
        asked = await body(request, PasskeyAnswer)
        now = self.clock(request)
        challenge = await run_in_threadpool(
            self.accounts.take_challenge, asked.ceremony, "sign_in", now
        )
        credential = passkey_checked(
            lambda: parse_authentication_credential_json(json.dumps(asked.credential))
        )
        credential_id = bytes_to_base64url(credential.raw_id)
        found = await run_in_threadpool(self.accounts.passkey, credential_id)
        if found is None:
            raise ApiError(401, "bad_sign_in", "this passkey is not one of an account here")
        account_id, passkey = found
        verified = passkey_checked(
            lambda: verify_authentication_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(challenge.challenge),
                expected_rp_id=party.id,
                expected_origin=party.origin,
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count,
            )
        )
        moved = await run_in_threadpool(
            self.accounts.passkey_used,
            credential_id,
            passkey.sign_count,
            verified.new_sign_count,
            now,
        )
        account = await run_in_threadpool(self.accounts.account, account_id)
        if not moved or account is None:
            raise ApiError(
                401, "bad_sign_in", "this passkey signed in at the same moment; try again"
            )
        return await self.start_session(request, account, 200)

    # --- signing out, the profile, deleting ---------------------------------------------

    async def sign_out(self, request: Request) -> Response:
        account, session_id = await self.changer(request)
        asked = await body(request, SignOut)
        if asked.everywhere:
            await run_in_threadpool(self.accounts.sign_out_everywhere, account.id)
        else:
            await run_in_threadpool(self.accounts.sign_out, session_id)
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    async def change(self, request: Request) -> Response:
        account, session_id = await self.changer(request)
        asked = await body(request, ProfileChange)
        name = None if asked.name is None else name_of(asked.name)
        language = None if asked.language is None else language_of(asked.language)
        changed = await run_in_threadpool(
            lambda: self.accounts.change(account.id, name=name, language=language)
        )
        return await self.account_json(changed, session_id)

    async def delete(self, request: Request) -> Response:
        account, _ = await self.changer(request)
        await body(request, Empty)
        await run_in_threadpool(self.ratings.retire, str(account.id))
        await run_in_threadpool(self.accounts.delete, account.id)
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    async def export(self, request: Request) -> Response:
        found = await self.reader(request)
        everything = await run_in_threadpool(self.accounts.export, found[0].id)
        friends = await run_in_threadpool(self.friends.friends, found[0].id, self.clock(request))
        traces = await run_in_threadpool(self.traces.of, found[0].id)
        ratings = await run_in_threadpool(self.ratings.export, str(found[0].id))
        return JSONResponse(
            {
                **everything,
                "friends": dataclasses.asdict(friends),
                "traces": [dataclasses.asdict(kept) for kept in traces],
                "ratings": ratings,
            },
            headers={
                "Cache-Control": "no-store, private",
                "Content-Disposition": 'attachment; filename="triominos-account.json"',
            },
        )

    # --- seats --------------------------------------------------------------------------

    async def seats(self, request: Request) -> Response:
        found = await self.reader(request)
        held = await run_in_threadpool(self.accounts.seats, found[0].id)
        return JSONResponse(
            {"seats": [{"code": s.code, "seat": s.seat, "token": s.token} for s in held]},
            headers={"Cache-Control": "no-store, private"},
        )

    async def move_seats(self, request: Request) -> Response:
        """Move seats this browser holds into the account, each proved by its token:
        ``moved`` and ``refused`` (each with the protocol's error)."""
        account, _ = await self.changer(request)
        asked = await body(request, SeatsToMove)
        moved: list[dict[str, Any]] = []
        refused: list[dict[str, Any]] = []
        for seat in asked.seats:
            try:
                await self.move_seat(account, seat, self.clock(request))
            except ApiError as error:
                refused.append(
                    {
                        "code": seat.code,
                        "seat": seat.seat,
                        "error": {"code": error.code, "message": str(error)},
                    }
                )
            else:
                moved.append({"code": seat.code.upper(), "seat": seat.seat})
        return JSONResponse({"moved": moved, "refused": refused})

    async def move_seat(self, account: Account, seat: SeatToMove, now: float) -> None:
        code = seat.code.upper()
        info = await run_in_threadpool(self.store.table, code)
        if info is None:
            raise ApiError(404, "not_found", f"no table has the code {code!r}")
        held = info.seats[seat.seat].token_hash if seat.seat < info.players else None
        if held is None or not hmac.compare_digest(held, token_hash(seat.token)):
            raise ApiError(403, "bad_token", f"this token is not seat {seat.seat}'s of {code}")
        try:
            await run_in_threadpool(
                self.accounts.move_seat, account.id, code, seat.seat, seat.token, now
            )
        except AccountRefusal as error:
            raise ApiError(409, error.code, str(error)) from None
