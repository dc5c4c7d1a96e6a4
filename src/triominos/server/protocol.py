"""The messages clients send (PROTOCOL.md), as msgspec Structs, and their validation.

Every message is decoded in one step into one of these types; anything else (not JSON,
an unknown ``type``, a field missing or of the wrong type) becomes a
:class:`BadMessageError` that names the field, which the server answers as a
``bad_message`` error. The game action inside an ``action`` message is a plain object
here: its fields are the engine's business (:func:`triominos.server.views.parse_action`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar, get_args

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from triominos.server.timers import DEFAULT_TIMEOUT_ACTION

MAX_MESSAGE_BYTES = 16 * 1024
"""A WebSocket message larger than this closes the connection (code 1009)."""
MESSAGES_PER_SECOND = 20
"""More messages than this in one second on one connection are refused."""
CONNECTIONS_PER_ADDRESS = 64
"""Open WebSocket connections one client address may hold at once (a family's devices,
each with a few seats, stay far below)."""
MAX_CHAT_CHARS = 200
"""A chat message is at most this many characters: a short word across the table."""
CHAT_PER_CONNECTION = (5, 10.0)
"""At most 5 chat messages in 10 seconds from one connection (a seat's connections
together: :data:`CHAT_PER_SEAT`)..."""
CHAT_PER_SEAT = (5, 10.0)
CHAT_PER_TABLE = (20, 10.0)
"""...and 20 in 10 seconds in the players' chat of one table..."""
CHAT_SPECTATORS = (10, 10.0)
"""...and 10 in the spectators' chat, a budget of its own: a crowd of spectators can
neither flood the table nor silence its players."""
CHAT_KEPT = 50
"""A viewer who arrives gets the last 50 messages of its chat."""
CHAT_STORED = 200
"""The messages of a chat the database keeps; older ones are deleted as new ones come."""
CHAT_FINISHED_DAYS = 7
"""The chat of a table finished more than 7 days ago is deleted."""
BOT_TABLE_IDLE_SECONDS = 600.0
"""A table of bots only that nobody has watched for 10 minutes is suspended: its bots
wait until someone opens it again."""
TAKEBACKS_PER_SEAT = (3, 300.0)
"""A seat asks for at most 3 takebacks in 5 minutes, and for one at a time: asking is
asking the others to wait, so it may not become pestering."""
TAKEBACK_PAUSE = 30.0
"""A seat whose takeback was declined asks again only this many seconds later."""
MAX_BODY_BYTES = 64 * 1024
"""An HTTP request body larger than this is refused (413) before it is read whole."""
MAX_THINK_SECONDS = 10.0
"""The most a bot may think about one move: a table's bots share the workers with every
other table's."""
SERVICE_RESTART = 1012
"""The WebSocket close code that sends a client to reconnect at once (RFC 6455's "service
restart"): its table moved to another node, or the node it reached is stopping."""
TRY_AGAIN_LATER = 1013
"""The close code for "not now": storage or the table's node cannot be reached; the
client reconnects with backoff."""
DEFAULT_GRACE_SECONDS = 60.0
"""How long a person must be away before another player may give their seat to a bot."""

CODE_PATTERN = re.compile(r"[A-Za-z0-9]{1,12}")
"""What may be a table's code (the store makes six of CODE_ALPHABET's letters)."""

ClientId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Seconds = Annotated[float, msgspec.Meta(gt=0, le=3600)]
Think = Annotated[float, msgspec.Meta(gt=0, le=MAX_THINK_SECONDS)]
Grace = Annotated[float, msgspec.Meta(ge=10, le=3600)]


class BadMessageError(ValueError):
    """A message that is not what the protocol says; ``field`` names the culprit."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ApiError(ValueError):
    """An HTTP request refused: the status, the protocol's error code and the message,
    answered as ``{"error": {"code", "message", "field"}}`` (PROTOCOL.md)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        *,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.field = field
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.field is not None:
            body["field"] = self.field
        headers = None if self.retry_after is None else {"Retry-After": str(self.retry_after)}
        return JSONResponse({"error": body}, status_code=self.status, headers=headers)


class Refusal(ValueError):
    """A change that the stored state refuses for a reason the client can act on (a
    stale version, a second attempt): ``code`` is the protocol's error code, and each
    API says which status answers it (:func:`answers`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


Handler = Callable[[Request], Awaitable[Response]]


def answers(
    statuses: Mapping[str, int],
    translations: Mapping[type[Exception], Callable[[Any], ApiError]] | None = None,
) -> Callable[[Handler], Handler]:
    """A route wrapper: every :class:`ApiError`, :class:`Refusal` (answered with its
    code's status in ``statuses``) and exception of ``translations`` (turned into an
    ApiError) becomes the protocol's error answer instead of a server error."""
    translated = dict(translations or {})

    def wrap(handler: Handler) -> Handler:
        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as error:
                return error.response()
            except Refusal as error:
                return ApiError(statuses[error.code], error.code, str(error)).response()
            except tuple(translated) as error:
                return translated[type(error)](error).response()

        return answer

    return wrap


# --- WebSocket: client to server --------------------------------------------------------


class Hello(msgspec.Struct, tag="hello", tag_field="type"):
    """The first message: the seat's token (None: a spectator), the last version seen."""

    token: Token | None = None
    version: Annotated[int, msgspec.Meta(ge=0)] | None = None


class ActionMessage(msgspec.Struct, tag="action", tag_field="type"):
    """Play ``action`` (one of the view's ``legal[i].action``), based on ``version``."""

    id: ClientId
    version: int
    action: dict[str, Any]


class HintRequest(msgspec.Struct, tag="hint", tag_field="type"):
    id: ClientId


class Ping(msgspec.Struct, tag="ping", tag_field="type"):
    pass


class ChatMessage(msgspec.Struct, tag="chat", tag_field="type"):
    """Say ``text`` in my chat: the players' from a seat, the spectators' from none."""

    text: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CHAT_CHARS)]


class ResignMessage(msgspec.Struct, tag="resign", tag_field="type"):
    """Give up the match: it ends at once, and this seat loses (RULES.md §16)."""

    id: ClientId


class TakebackRequest(msgspec.Struct, tag="takeback", tag_field="type"):
    """Ask the others to let me take back my last action (RULES.md §16)."""

    id: ClientId


class TakebackAnswer(msgspec.Struct, tag="takeback_answer", tag_field="type"):
    """Accept or decline the takeback another seat asks for."""

    accept: bool


class WentOn(msgspec.Struct, tag="went_on", tag_field="type"):
    """I have seen the end of ``hand`` and go on to the next (RULES.md §13)."""

    hand: Annotated[int, msgspec.Meta(ge=1)]


ClientMessage = (
    Hello
    | ActionMessage
    | HintRequest
    | Ping
    | ChatMessage
    | ResignMessage
    | TakebackRequest
    | TakebackAnswer
    | WentOn
)
MESSAGE_TYPES = tuple(kind.__struct_config__.tag for kind in get_args(ClientMessage))
"""The ``type`` of each message a client may send."""


# --- HTTP bodies ------------------------------------------------------------------------


class SeatRequest(msgspec.Struct):
    """One seat of a new table: a person (a name, or a default) or a bot."""

    kind: Literal["person", "bot"]
    name: Name | None = None
    bot: str | None = None
    think: Think | None = None


class CreateTable(msgspec.Struct):
    preset: str
    players: Annotated[int, msgspec.Meta(ge=1, le=12)]
    seats: list[SeatRequest]
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    turn_seconds: Seconds | None = None
    take: list[int] = msgspec.field(default_factory=list)
    grace_seconds: Grace = DEFAULT_GRACE_SECONDS
    listed: bool = False
    """Shown in the list of open tables (``GET /api/tables``); else only its link finds it."""
    timeout_action: str = DEFAULT_TIMEOUT_ACTION
    """One of timers.TIMEOUT_ACTIONS (checked by the route, which names them)."""
    hints: bool | None = None
    """Whether the players may ask for hints; None: only when one person plays (against
    bots), never between people unless the creator says so."""
    rated: bool = False
    """Whether the match moves its players' ratings (issue 33): only a signed-in creator
    makes a rated table, and only signed-in accounts take its seats; with a bot, it is
    rated in the bots' pool (:mod:`triominos.ratings`)."""
    move_days: int | None = None
    """A game over days: one of timers.MOVE_DAYS (checked by the route), instead of
    ``turn_seconds``."""
    claim_win: bool = False
    """With ``move_days``: once a turn's days ran out, the others may claim the win
    instead of the timeout action being played."""


class ClaimWinRequest(msgspec.Struct):
    token: Token


class JoinTable(msgspec.Struct):
    name: Name
    seat: int | None = None


class GiveSeatToBot(msgspec.Struct):
    token: Token
    bot: str
    think: Think | None = None


class TokenRequest(msgspec.Struct):
    token: Token


# --- decoding ---------------------------------------------------------------------------

Decoded = TypeVar("Decoded")

_PATH = re.compile(r" - at `\$\.?(?P<path>[^`]*)`$")
_MISSING = re.compile(
    r"Object missing required field `(?P<name>[^`]+)`(?: - at `\$\.?(?P<at>[^`]*)`)?"
)


MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a body or a message may have: the deepest
the protocol uses is 5; 10,000 nested objects in 64 KiB made the decoder recurse until
Python's limit (a 500 with a traceback, a dropped WebSocket)."""
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_JSON_NESTING = re.compile(rb"[\[\]{}]")


def nesting_depth(data: bytes) -> int:
    """How deep arrays and objects nest in JSON text (brackets in strings not counted)."""
    depth = deepest = 0
    for bracket in _JSON_NESTING.findall(_JSON_STRING.sub(b"", data)):
        depth += 1 if bracket in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest


def decode(data: str | bytes, kind: type[Decoded]) -> Decoded:
    """``data`` as a ``kind``, or a BadMessageError naming the field that is wrong: the
    one JSON decoding of every route and of the WebSocket."""
    raw = data.encode() if isinstance(data, str) else data
    if nesting_depth(raw) > MAX_JSON_DEPTH:
        raise BadMessageError(f"arrays and objects nest at most {MAX_JSON_DEPTH} deep")
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as error:
        raise _bad(str(error)) from None
    except msgspec.DecodeError:
        raise BadMessageError("not JSON: send one JSON object") from None


def decode_client_message(data: str | bytes) -> ClientMessage:
    return decode(data, ClientMessage)  # type: ignore[arg-type]  # a union is a type here


def _bad(text: str) -> BadMessageError:
    missing = _MISSING.fullmatch(text)
    if missing:
        at, name = missing.group("at"), missing.group("name")
        field = f"{at}.{name}" if at else name
        return BadMessageError(f"{field}: missing", field)
    located = _PATH.search(text)
    field = located.group("path") if located else None
    reason = _PATH.sub("", text)
    if field == "type" and reason.startswith("Invalid value"):
        kinds = ", ".join(f"'{kind}'" for kind in MESSAGE_TYPES)
        reason = f"unknown message type {reason.removeprefix('Invalid value ')}; one of {kinds}"
    reason = reason[0].lower() + reason[1:]
    if not field:
        return BadMessageError(f"send one JSON object ({reason})")
    return BadMessageError(f"{field}: {reason}", field)
