"""The pure state of one table, and the one method that decides every change to it.

:class:`TableState` is a table as its viewers know it: the match replayed from the stored
actions on ``Match(rules, players, seed)`` (deals and starter draws come from the seed,
so the replay is exact), the log that reconnecting clients catch up from, the seats, the
takeback asked for, who asked to end the match, the turn's clock and who is here. It
holds no socket, no task and no storage, and it never reads a clock: time is passed in.

Every change is a command (:data:`Command`, one class per kind). :meth:`TableState.decide`
checks it, raising :class:`Refused` with the protocol's code (or, for the HTTP routes,
:class:`~triominos.server.protocol.ApiError`), and answers a :class:`Decision`: the
:data:`Write` to make durable first, if any, and the change to make once it is
(:attr:`Decision.settle`), which returns what each audience is :class:`Told`. Nothing
changes before the write succeeded, so the state is always what the database holds:
anyone may be shown it at any time, and a failed write leaves nothing to undo. What a
seat is told is built by :mod:`triominos.server.views`, the one place that decides what
a seat may see. The service (:meth:`~triominos.server.service.Service.perform`) does
the locking, the fenced write and the delivery.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from triominos.game import (
    Action,
    IllegalActionError,
    LegalAction,
    Match,
    action_from_json,
    action_json,
)
from triominos.game import Resign as Resignation
from triominos.record import PlayerInfo, match_record
from triominos.server.limits import Clock, RateLimit
from triominos.server.protocol import (
    CHAT_PER_SEAT,
    CHAT_PER_TABLE,
    CHAT_SPECTATORS,
    TAKEBACK_PAUSE,
    TAKEBACKS_PER_SEAT,
    ApiError,
)
from triominos.server.store import ChatChannel, SeatInfo, StoredAction, TableInfo, chat_channel
from triominos.server.timers import default_action
from triominos.server.views import (
    ActionFieldError,
    JsonObject,
    LoggedEvent,
    ViewCache,
    build_view,
    event_json,
    parse_action,
    seats_json,
)

CATCHUP_LIMIT = 500
"""A client that missed more events than this gets a fresh view instead."""

Audience = int | None
"""Who is told: the viewers of a seat, or (None) the spectators."""


def token_hash(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Refused(ValueError):
    """A message the table refuses; ``code`` is the protocol's error code."""

    def __init__(
        self, code: str, message: str, *, rule: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.field = field

    def to_message(self, client_id: str | None = None) -> JsonObject:
        """The ``error`` message for the client whose message this refuses."""
        message: JsonObject = {"type": "error", "code": self.code, "message": str(self)}
        if client_id is not None:
            message["id"] = client_id
        if self.rule is not None:
            message["rule"] = self.rule
        if self.field is not None:
            message["field"] = self.field
        return message


def spectator_refused() -> Refused:
    return Refused("spectator", "a spectator watches; only a seated player acts")


def first_turn_started(info: TableInfo, now: float) -> float:
    """When the first turn's clock started: when the table began to play, as stored.

    A table that is still waiting, or that began before that moment was stored (it is
    NULL in databases made before migration 0003), starts the clock ``now``.
    """
    return now if info.started_at is None else info.started_at


@dataclasses.dataclass(frozen=True)
class Takeback:
    """A takeback asked for: by ``seat``, and the person seats yet to accept it (a bot
    accepts at once). Kept in memory only: it lapses with the next action, and a
    restarted server has forgotten it (the seat may ask again)."""

    seat: int
    waiting: frozenset[int]

    def to_json(self) -> JsonObject:
        return {"seat": self.seat, "waiting": sorted(self.waiting)}


class ChatBudgets:
    """Who may chat at a table now: a seat within its own budget (however many
    connections it has) and the players' chat within the table's; the spectators'
    chat within its own, which never spends the players' budgets. (A spectator's own
    connection has a budget too: the room's, :class:`~triominos.server.room.Viewer`.)"""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.players = RateLimit(*CHAT_PER_TABLE, clock)
        self.spectators = RateLimit(*CHAT_SPECTATORS, clock)
        self.seats: dict[int, RateLimit] = {}

    def allow(self, seat: int | None) -> bool:
        if seat is None:
            return self.spectators.allow()
        budget = self.seats.setdefault(seat, RateLimit(*CHAT_PER_SEAT, self.clock))
        return budget.allow() and self.players.allow()


# --- commands: one for each kind of change ----------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Act:
    """A seat's action at ``version``; ``by_server``: a bot's, which may play a seat no
    person plays."""

    seat: int | None
    version: int
    action: Mapping[str, Any] | Action
    client_id: str | None = None
    by_server: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class PlayDefault:
    """The seat to move at ``version`` plays the default action, if nothing moved since:
    its turn timer ran out, or its bot chose an illegal action."""

    version: int


@dataclasses.dataclass(frozen=True, slots=True)
class Resign:
    """A seat gives up the match, or among three or more asks the others to end it."""

    seat: int | None
    client_id: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class AskTakeback:
    seat: int | None
    client_id: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class AnswerTakeback:
    seat: int | None
    accept: bool


@dataclasses.dataclass(frozen=True, slots=True)
class GoOn:
    """A seat's person closed the end of ``hand`` (the ``went_on`` message)."""

    seat: int | None
    hand: int


@dataclasses.dataclass(frozen=True, slots=True)
class Say:
    """A chat line from a seat or from the spectator numbered ``spectator``; the seats
    of ``unheard_by`` blocked the sender's account and are not given it."""

    seat: int | None
    spectator: int | None
    text: str
    unheard_by: frozenset[int] = frozenset()


@dataclasses.dataclass(frozen=True, slots=True)
class Join:
    """Someone sits at ``seat`` (None: the first free one) under the token's hash."""

    seat: int | None
    name: str
    token_hash: str


@dataclasses.dataclass(frozen=True, slots=True)
class GiveToBot:
    """Seat ``by`` lets a bot play ``seat``: its own at once, another's after the grace."""

    by: int
    seat: int
    bot: str
    think: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class Reclaim:
    """The person whose token sits at a seat a bot plays takes it back."""

    seat: int
    token_hash: str


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimWin:
    """``seat`` claims the win over the seat to move, whose days per move ran out, at a
    table whose creator chose that (RULES.md §13)."""

    seat: int | None


Command = (
    Act
    | PlayDefault
    | Resign
    | AskTakeback
    | AnswerTakeback
    | GoOn
    | Say
    | Join
    | GiveToBot
    | Reclaim
    | ClaimWin
)

# --- what to store ----------------------------------------------------------------------


class AppendAction(NamedTuple):
    stored: StoredAction
    finished: bool


class TakeSeat(NamedTuple):
    seat: int | None
    name: str
    token_hash: str


class SeatToBot(NamedTuple):
    seat: int
    bot: str
    think: float | None
    token_hash: str | None
    """The seat's person until now (None: nobody sat there), which must not have changed."""


class ReclaimSeat(NamedTuple):
    seat: int
    token_hash: str


class EndRequest(NamedTuple):
    seats: tuple[int, ...]


class ChatLine(NamedTuple):
    channel: ChatChannel
    seat: int | None
    name: str
    text: str


Write = AppendAction | TakeSeat | SeatToBot | ReclaimSeat | EndRequest | ChatLine
"""What a decision stores before anything changes; the store answers (for the settle):
None for an action, the seat taken and the table (or None) for a seat, the table after
(or None when the seat changed meanwhile) for a handover or a reclaim, the table after
for an end request, the message as kept for a chat line."""


@dataclasses.dataclass(frozen=True)
class Told:
    """What each audience is told of a change: ``build(audience)`` (None: nothing), built
    once per audience; the sender's copy gets ``to_sender``'s fields too (its own id).
    ``seat``: the seat a :class:`Join` took."""

    build: Callable[[Audience], JsonObject | None] | None = None
    to_sender: JsonObject | None = None
    seat: int | None = None


@dataclasses.dataclass(frozen=True)
class Decision:
    """A command decided: ``write`` to make durable first (None: nothing to store), then
    ``settle(answer)`` with the store's answer changes the state and says who is told
    what (it may still refuse, when the store found the seat changed meanwhile)."""

    write: Write | None
    settle: Callable[[Any], Told]


def unchanged(_: object = None) -> Told:
    return Told()


NOTHING = Decision(None, unchanged)
"""A command that changes nothing and tells nobody (a timer that fired too late)."""


class TableState:
    """One table as stored, rebuilt from the database; ``now`` is when it was loaded,
    ``clock`` what its rate limits count by."""

    def __init__(
        self,
        info: TableInfo,
        actions: Sequence[StoredAction],
        now: float,
        clock: Clock = time.monotonic,
    ) -> None:
        self.chat = ChatBudgets(clock)
        self.takeback: Takeback | None = None
        """The takeback asked for now, if any (one at a time)."""
        self.takeback_limits = {
            seat.seat: RateLimit(*TAKEBACKS_PER_SEAT, clock) for seat in info.seats
        }
        """Each seat's takeback requests, limited (so they are not forgotten on reload)."""
        self.takeback_declined: dict[int, float] = {}
        """When each seat's last takeback was declined: it may ask again TAKEBACK_PAUSE
        seconds later."""
        self.present: Counter[int] = Counter()
        """How many connections each seat has here now (the room's, :meth:`arrive`)."""
        # When each person who sat down went away; a table loaded from the database has
        # everyone away since then, so a restart gives nobody's seat away early.
        self.loaded_at = now
        self.away_since: dict[int, float] = {
            seat.seat: now for seat in info.seats if seat.token_hash is not None
        }
        self.replay(info, actions, now)

    def replay(self, info: TableInfo, actions: Sequence[StoredAction], now: float) -> None:
        """Rebuild the match, log and accepted ids from the stored table and actions."""
        self.info = info
        self.match = Match(info.rules, info.players, info.seed)
        self.views = ViewCache()
        self.log: list[LoggedEvent] = []
        self.client_ids: set[tuple[int, str]] = set()
        # When the turn began: the time of the action that began it, and for the first
        # turn the time the table began to play, so a restart resumes every turn's clock.
        self.turn_started = first_turn_started(info, now)
        self.reading: frozenset[int] = frozenset()
        """The person seats still looking at the end of the hand before this one (their
        page's dialog) who have not had a turn in this hand yet."""
        for stored in actions:
            if stored.version != self.version + 1:
                raise ValueError(
                    f"table {info.code}: stored action {stored.version} follows {self.version}"
                )
            if stored.action.get("action") == "takeback":
                logged, _ = self._take_back(self.match, stored.seat, stored.created_at)
                self._taken_back(logged, stored.created_at)
                continue
            # Stored actions were checked when they were made: read back with the one
            # action codec, which knows a resignation by whom it was stored for.
            action = action_from_json(
                stored.action,
                info.rules.tiles,
                player=stored.seat,
                joker_cell=self.match.hand.board.joker_cell,
            )
            self._played(
                *self._play(self.match, stored.seat, action, stored.client_id, stored.created_at)
            )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.code} v{self.version} {self.info.status}>"

    @property
    def code(self) -> str:
        return self.info.code

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def playing(self) -> bool:
        """Whether moves are made now: every seat taken and the match not over."""
        return self.info.status == "playing" and not self.match.is_over

    def seat(self, number: int) -> SeatInfo:
        return self.info.seats[number]

    def authenticate(self, token: str) -> int | None:
        """The seat this token sits at, or None; every stored hash is compared in
        constant time, so the answer's timing tells nothing about the token."""
        hashed = token_hash(token)
        found = None
        for seat in self.info.seats:
            if seat.token_hash is not None and hmac.compare_digest(hashed, seat.token_hash):
                found = seat.seat
        return found

    # --- who is here ------------------------------------------------------------------

    @property
    def connected(self) -> set[int]:
        return {seat for seat, connections in self.present.items() if connections}

    def arrive(self, seat: int | None) -> bool:
        """A connection of ``seat`` (None: a spectator) came; whether its seat's person
        was away until now."""
        if seat is None:
            return False
        arrived = not self.present[seat]
        self.present[seat] += 1
        self.away_since.pop(seat, None)
        return arrived

    def leave(self, seat: int | None, now: float) -> bool:
        """A connection of ``seat`` left at ``now``; whether its person is away from now."""
        if seat is None:
            return False
        self.present[seat] -= 1
        if self.present[seat]:
            return False
        del self.present[seat]
        self.away_since[seat] = now
        return True

    def bot_allowed_at(self, number: int, connected: set[int] | None = None) -> float | None:
        """From when another player may give this seat to a bot (None: not at all now,
        its person is here or a bot plays it); a seat nobody sat at, at once.
        ``connected``: :attr:`connected`, when the caller has it already."""
        seat = self.seat(number)
        if seat.kind == "bot" or number in (self.connected if connected is None else connected):
            return None
        if seat.token_hash is None:
            return 0.0
        away: float = self.away_since.get(number, self.loaded_at)
        return away + self.info.grace_seconds

    def bots_allowed_at(self) -> list[float | None]:
        connected = self.connected  # one pass over the seats here, not one a seat
        return [self.bot_allowed_at(seat.seat, connected) for seat in self.info.seats]

    def person_seats(self) -> list[int]:
        """The seats people play now (a bot plays the others)."""
        return [seat.seat for seat in self.info.seats if seat.kind == "person"]

    def to_move_is_bot(self) -> bool:
        return self.playing and self.seat(self.match.to_move).kind == "bot"

    @property
    def turn_deadline(self) -> float | None:
        """When the turn timer runs out (Unix time), or None without a timer.

        A player whose turn comes while they still look at the last hand's end gets that
        time too, a turn's at most (RULES.md §13): their clock starts when they go on.
        """
        seconds = self.info.turn_length
        if seconds is None or not self.playing:
            return None
        reading = seconds if self.match.to_move in self.reading else 0.0
        return self.turn_started + reading + seconds

    def legal_actions(self) -> list[LegalAction]:
        """The legal actions of the player to move (the server's own use: timer, bots)."""
        return self.match.legal_actions()

    # --- deciding ---------------------------------------------------------------------

    def decide(self, command: Command, now: float) -> Decision:
        """What ``command`` stores and, once stored, changes and tells, at ``now``;
        Refused (an ApiError for the HTTP routes' commands) when nothing may change.
        The state itself is not changed here: only :attr:`Decision.settle` does."""
        match command:
            case Act(seat, version, action, client_id, by_server):
                checked = self.check(seat, client_id, version, action, by_server=by_server)
                assert seat is not None  # check refuses spectators
                return self._decide_play(seat, checked, client_id, now)
            case PlayDefault(version):
                if version != self.version or not self.playing:
                    return NOTHING  # something moved meanwhile
                seat = self.match.to_move
                action = default_action(self.legal_actions(), self.info.timeout_action)
                return self._decide_play(seat, action, None, now)
            case Resign(seat, client_id):
                return self._decide_resign(seat, client_id, now)
            case AskTakeback(seat, client_id):
                return self._decide_ask_take_back(seat, client_id, now)
            case AnswerTakeback(seat, accept):
                return self._decide_answer_take_back(seat, accept, now)
            case GoOn(seat, hand):
                return self._decide_go_on(seat, hand, now)
            case Say(seat, spectator, text, unheard_by):
                return self._decide_say(seat, spectator, text, unheard_by)
            case Join(seat, name, hashed):
                return self._decide_join(seat, name, hashed, now)
            case GiveToBot(by, seat, bot, think):
                return self._decide_give_to_bot(by, seat, bot, think, now)
            case Reclaim(seat, hashed):
                return self._decide_reclaim(seat, hashed, now)
            case ClaimWin(seat):
                return self._decide_claim_win(seat, now)
        raise AssertionError(f"not a command: {command!r}")

    def check(
        self,
        seat: int | None,
        client_id: str | None,
        version: int,
        action: Mapping[str, Any] | Action,
        *,
        by_server: bool = False,
    ) -> Action:
        """The engine action to play, or Refused saying why nothing may change."""
        if seat is None:
            raise spectator_refused()
        if self.match.is_over:
            raise Refused("over", "the match is over")
        if client_id is not None and (seat, client_id) in self.client_ids:
            raise Refused("duplicate", f"the action with id {client_id!r} was already accepted")
        if isinstance(action, Resignation):
            # A resignation holds at any version, on any turn, even while a bot plays
            # the seat for its person: the seat's holder gives up the match.
            if action.player != seat:
                raise Refused("not_your_turn", f"seat {seat} cannot resign for another seat")
            if self.info.status != "playing":
                raise Refused("not_your_turn", "the game starts when every seat is taken")
            return action
        if version != self.version:
            raise Refused(
                "stale_version",
                f"the action was based on version {version}; the game is at version "
                f"{self.version}, and nothing changed",
            )
        if self.info.status != "playing":
            raise Refused("not_your_turn", "the game starts when every seat is taken")
        if not by_server and self.seat(seat).kind == "bot":
            raise Refused("not_your_turn", f"a bot plays seat {seat} now")
        if by_server and self.seat(seat).kind != "bot":
            # The bot chose while its person took the seat back (a reclaim decided
            # before this bot's turn was scheduled, written while it thought).
            raise Refused("not_your_turn", f"seat {seat} is its person's again")
        if seat != self.match.to_move:
            raise Refused(
                "not_your_turn", f"it is seat {self.match.to_move}'s turn, not seat {seat}'s"
            )
        if not isinstance(action, Mapping):
            return action
        try:
            return parse_action(action, self.info.rules, self.match.hand.board)
        except ActionFieldError as error:
            raise Refused("bad_message", str(error), field=error.field) from None

    def _decide_play(
        self, seat: int, action: Action, client_id: str | None, now: float
    ) -> Decision:
        """Play a checked action on a copy of the match (Refused ``illegal``, naming the
        rule, when the engine refuses it); the copy becomes the match once stored."""
        match = self.match.clone()
        try:
            logged, stored, before = self._play(match, seat, action, client_id, now)
        except IllegalActionError as error:
            raise Refused("illegal", str(error), rule=error.rule) from None

        def settle(_: None) -> Told:
            self.match = match
            self._played(logged, stored, before)
            return self._event(logged, client_id)

        return Decision(AppendAction(stored, match.is_over), settle)

    def _play(
        self,
        match: Match,
        seat: int,
        action: Action,
        client_id: str | None,
        at: float,
    ) -> tuple[LoggedEvent, StoredAction, tuple[int, int]]:
        """Apply ``action`` to ``match`` (this table's, or a copy to settle later): the
        log entry, the row to store, and the hand and seat to move before it (for
        :meth:`_played`, which changes the rest of the state)."""
        hand = match.hand
        stored_form = action_json(action, hand.board.joker_cell)
        before = hand.number, match.to_move
        event = match.apply(action, player=seat)
        logged = LoggedEvent(
            self.version + 1,
            hand.number,
            event,
            hand.end,
            tuple(match.winners) if match.is_over else None,
        )
        return logged, StoredAction(logged.version, seat, client_id, stored_form, at), before

    def _played(self, logged: LoggedEvent, stored: StoredAction, before: tuple[int, int]) -> None:
        """The rest of the state once the match played ``stored``: log, ids, clocks.
        ``before``: the hand and the seat to move before it."""
        match = self.match
        self.log.append(logged)
        self.takeback = None  # the game moved on: a takeback asked for lapses
        if stored.client_id is not None:
            self.client_ids.add((stored.seat, stored.client_id))
        if match.is_over or (match.hand.number, match.to_move) != before:
            self.turn_started = stored.created_at
            # A hand that ended stays on every person's screen until they go on; for their
            # first turn after it at the latest.
            if match.hand.number != before[0]:
                self.reading = frozenset(self.person_seats())
            else:
                self.reading = self.reading - {before[1]}
        if match.is_over and self.info.status != "finished":
            self.info = dataclasses.replace(
                self.info, status="finished", finished_at=stored.created_at
            )

    # --- resigning --------------------------------------------------------------------

    @property
    def ending(self) -> tuple[int, ...]:
        """Among three or more players, the person seats that asked to end the match, in
        the order they asked: it ends, as the first one's resignation, once every person
        has (RULES.md 16). Stored with the table, so a restart or another node keeps it."""
        return self.info.ending

    def may_resign(self, seat: int | None, ending: Sequence[int] | None = None) -> bool:
        """Whether ``seat`` may end the match by resigning now (RULES.md 16): at two
        players, or when every other person asked to end it too (a bot agrees, as it does
        to a takeback). Among three or more, the others would otherwise lose their match
        to one player's wish: that player asks them, or leaves, a bot finishing for them."""
        asked = self.ending if ending is None else ending
        others = set(self.person_seats()) - {seat}
        return seat is not None and (self.info.players == 2 or others <= set(asked))

    def _decide_resign(self, seat: int | None, client_id: str | None, now: float) -> Decision:
        """``seat`` resigns, or asks to end the match where the others must agree: the
        first who asked resigns once every person has; until then who asked is stored
        and everyone told."""
        if seat is None:
            raise Refused("spectator", "a spectator watches; only a seated player resigns")
        if self.playing:  # else (a match over or not begun) refused by the check
            resigner, asked = self._ask_to_end(seat)
            if resigner is None:

                def settle(info: TableInfo) -> Told:
                    self.info = info
                    return Told(
                        lambda audience: {
                            "type": "ending",
                            "seats": list(self.ending),
                            "view": self.view(audience),
                        }
                    )

                return Decision(EndRequest(asked), settle)
            seat = resigner
        action = self.check(seat, client_id, self.version, Resignation(seat))
        return self._decide_play(seat, action, client_id, now)

    def _ask_to_end(self, seat: int) -> tuple[int | None, tuple[int, ...]]:
        """The seat whose resignation ends the match now (``seat``, or the first who
        asked once every person has), or None; and who asked then, ``seat`` included."""
        if self.may_resign(seat) and not self.ending:
            return seat, self.ending
        asked = self.ending if seat in self.ending else (*self.ending, seat)
        first = asked[0]
        return (first if self.may_resign(first, asked) else None), asked

    def _decide_claim_win(self, seat: int | None, now: float) -> Decision:
        """``seat`` claims the win: the seat to move, whose time ran out, resigns, so the
        match ends as its resignation would (RULES.md §16), even among three or more
        (the idle seat left them all waiting). Only the others may claim, and only once
        the deadline passed: until someone claims, the idle seat may still move."""
        if seat is None:
            raise ApiError(403, "spectator", "a spectator watches; only a seated player claims")
        if not self.info.claim_win:
            raise ApiError(
                409, "no_claim", "this table plays the timeout action when a turn's time runs out"
            )
        if not self.playing:
            raise ApiError(409, "no_claim", "the win is claimed while the match is played")
        idle = self.match.to_move
        if seat == idle:
            raise ApiError(409, "no_claim", "it is your own turn: play it")
        deadline = self.turn_deadline
        assert deadline is not None  # a table that offers the claim has days per move
        if now < deadline:
            raise ApiError(
                409,
                "no_claim",
                f"seat {idle} still has {math.ceil(deadline - now)} s to move; claim after that",
                retry_after=math.ceil(deadline - now),
            )
        return self._decide_play(idle, Resignation(idle), None, now)

    # --- takebacks --------------------------------------------------------------------

    def _takeback_refusal(self, seat: int | None) -> Refused | None:
        """Why ``seat`` may not ask for a takeback now, or None when it may (its person,
        its last action, none asked already); the rate limit aside."""
        if seat is None:
            return spectator_refused()
        if not self.playing:
            return Refused("no_takeback", "takebacks are asked while the match is played")
        if self.seat(seat).kind != "person":
            return Refused("not_your_turn", f"a bot plays seat {seat} now")
        if self.takeback is not None:
            return Refused("no_takeback", f"seat {self.takeback.seat} asked for a takeback already")
        try:
            self.match.check_take_back(seat)
        except IllegalActionError as error:
            return Refused("no_takeback", str(error), rule=error.rule)
        return None

    def may_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask for a takeback now (the view's ``may_take_back``)."""
        return self._takeback_refusal(seat) is None

    def _decide_ask_take_back(
        self, seat: int | None, client_id: str | None, now: float
    ) -> Decision:
        """A takeback asked for by ``seat``. Every other person must accept it; with none
        (only bots), it is taken back at once. A seat whose takeback was declined waits
        TAKEBACK_PAUSE seconds before asking again: the others said no, and asking again
        at once would only press them. An ask counts against the seat's budget."""
        refusal = self._takeback_refusal(seat)
        if refusal is not None:
            raise refusal
        assert seat is not None  # refused otherwise
        wait = self.takeback_declined.get(seat, -TAKEBACK_PAUSE) + TAKEBACK_PAUSE - now
        if wait > 0:
            raise Refused(
                "no_takeback",
                f"your last takeback was declined: ask again in {math.ceil(wait)} s",
            )
        count, seconds = TAKEBACKS_PER_SEAT
        if not self.takeback_limits[seat].allow():
            raise Refused(
                "rate_limited", f"at most {count} takebacks asked in {seconds:.0f} seconds"
            )
        takeback = Takeback(seat, frozenset(self.person_seats()) - {seat})
        if not takeback.waiting:
            return self._decide_take_back(seat, client_id, now)
        return self._takeback_said(takeback, "asked")

    def _decide_answer_take_back(self, seat: int | None, accept: bool, now: float) -> Decision:
        """``seat`` accepts or declines the takeback asked for: declined (its asker
        paused), still waiting for others, or taken back once the last accepted."""
        asked = self.takeback
        if asked is None or seat not in asked.waiting:
            raise Refused("no_takeback", "no takeback waits for your answer")
        if not accept:

            def declined(_: None) -> Told:
                self.takeback_declined[asked.seat] = now
                return self._tell_takeback(None, "declined", asked.seat)

            return Decision(None, declined)
        waiting = asked.waiting - {seat}
        if not waiting:
            return self._decide_take_back(asked.seat, None, now)
        return self._takeback_said(Takeback(asked.seat, waiting), "asked")

    def _takeback_said(self, takeback: Takeback, state: str) -> Decision:
        return Decision(None, lambda _: self._tell_takeback(takeback, state, takeback.seat))

    def _tell_takeback(self, takeback: Takeback | None, state: str, seat: int) -> Told:
        """The takeback asked for is now ``takeback``; everyone is told ``state``."""
        self.takeback = takeback
        return Told(
            lambda audience: {
                "type": "takeback",
                "state": state,
                "seat": seat,
                "view": self.view(audience),
            }
        )

    def _decide_take_back(self, seat: int, client_id: str | None, now: float) -> Decision:
        """Take back ``seat``'s last action, accepted by everyone, on a copy of the match
        (``client_id``: of the ask, when nobody had to accept it). The turn is the
        taker's again, and its clock starts again."""
        match = self.match.clone()
        logged, stored = self._take_back(match, seat, now)

        def settle(_: None) -> Told:
            self.match = match
            self._taken_back(logged, now)
            return self._event(logged, client_id)

        return Decision(AppendAction(stored, False), settle)

    def _take_back(self, match: Match, seat: int, at: float) -> tuple[LoggedEvent, StoredAction]:
        """Take back ``seat``'s last action on ``match`` (this table's, or a copy to
        settle later): the log entry and the row to store (:meth:`_taken_back` changes
        the rest of the state)."""
        event = match.take_back(seat)
        logged = LoggedEvent(self.version + 1, match.hand.number, event, None, None, True)
        return logged, StoredAction(logged.version, seat, None, {"action": "takeback"}, at)

    def _taken_back(self, logged: LoggedEvent, at: float) -> None:
        self.log.append(logged)
        self.views = ViewCache()  # the cached history of this hand lost an event
        self.takeback = None
        self.turn_started = at

    # --- the turn's clock -------------------------------------------------------------

    def _decide_go_on(self, seat: int | None, hand: int, now: float) -> Decision:
        """``seat``'s player closed the end of ``hand``: their turn's clock, if it is their
        turn, starts now (or as it did, once a turn's time had passed). Everyone is told
        (a ``presence``) when the deadline moved; a spectator's or a late word changes
        nothing."""
        if seat is None or seat not in self.reading or hand != self.match.hand.number - 1:
            return NOTHING

        def settle(_: None) -> Told:
            before = self.turn_deadline
            seconds = self.info.turn_length
            if self.match.to_move == seat and seconds is not None:
                self.turn_started = min(now, self.turn_started + seconds)
            self.reading = self.reading - {seat}
            return self.presence() if self.turn_deadline != before else Told()

        return Decision(None, settle)

    # --- chat -------------------------------------------------------------------------

    def _decide_say(
        self, seat: int | None, spectator: int | None, text: str, unheard_by: frozenset[int]
    ) -> Decision:
        """Keep a chat line, then give it to the viewers of its chat: the players' (sent
        from a seat) or the spectators'; neither sees the other's, and the seats of
        ``unheard_by`` (who blocked the sender) never get it: what each audience is
        given is decided here, per audience, as every message is. The text is the
        sender's words only, so it holds nothing hidden."""
        if not self.chat.allow(seat):
            raise Refused("rate_limited", "too many chat messages; wait a moment")
        channel = chat_channel(seat)
        name = str(spectator) if seat is None else self.seat(seat).name

        def settle(said: JsonObject) -> Told:
            message = {"type": "chat", "messages": [said]}
            return Told(
                lambda audience: (
                    message
                    if chat_channel(audience) == channel and audience not in unheard_by
                    else None
                )
            )

        return Decision(ChatLine(channel, seat, name, text.strip()), settle)

    # --- seats ------------------------------------------------------------------------

    def _decide_join(self, seat: int | None, name: str, hashed: str, now: float) -> Decision:
        if self.match.is_over:
            raise ApiError(409, "over", "the match is over")

        def settle(taken: tuple[int, TableInfo] | None) -> Told:
            if taken is None:
                which = "every seat is" if seat is None else f"seat {seat} is"
                raise ApiError(409, "taken", f"{which} taken or played by a bot")
            number, info = taken
            self.reseat(info, now)
            return dataclasses.replace(self.presence(), seat=number)

        return Decision(TakeSeat(seat, name, hashed), settle)

    def _decide_give_to_bot(
        self, by: int, number: int, bot: str, think: float | None, now: float
    ) -> Decision:
        """Seat ``by`` lets a bot play seat ``number``: its own at once, another only once
        its person has been away for the table's grace period (RULES.md §15)."""
        if self.match.is_over:
            raise ApiError(409, "over", "the match is over")
        seat = self.seat(number)
        if seat.kind == "bot":
            raise ApiError(409, "taken", f"a bot already plays seat {number}")
        if number != by:
            allowed = self.bot_allowed_at(number)
            if allowed is None:
                raise ApiError(409, "connected", f"seat {number}'s player is still connected")
            wait = allowed - now
            if wait > 0:
                raise ApiError(
                    409,
                    "away_grace",
                    f"seat {number}'s player may still come back: a bot may take the seat "
                    f"in {math.ceil(wait)} s",
                    retry_after=math.ceil(wait),
                )

        def settle(info: TableInfo | None) -> Told:
            if info is None:  # someone sat down (or another handover won) meanwhile
                raise ApiError(409, "taken", f"seat {number} changed hands; look again")
            self.reseat(info, now)
            return self.presence()

        return Decision(SeatToBot(number, bot, think, seat.token_hash), settle)

    def _decide_reclaim(self, number: int, hashed: str, now: float) -> Decision:
        """The person who came back takes their seat back from the bot (nothing, when it
        is not such a seat, or no longer is)."""
        seat = self.seat(number)
        if seat.kind != "bot" or seat.token_hash != hashed:
            return NOTHING

        def settle(info: TableInfo | None) -> Told:
            if info is None:
                return Told()
            self.reseat(info, now)
            return self.presence()

        return Decision(ReclaimSeat(number, hashed), settle)

    def reseat(self, info: TableInfo, now: float) -> None:
        """The table after a seat changed; the clock starts when the last seat fills.
        Someone who just sat down and is not connected yet is away from ``now``."""
        if self.info.status == "waiting" and info.status == "playing":
            self.turn_started = first_turn_started(info, now)
        for before, after in zip(self.info.seats, info.seats, strict=True):
            sat_down = after.token_hash not in (None, before.token_hash)
            if sat_down and after.seat not in self.connected:
                self.away_since[after.seat] = now
        self.info = info

    # --- what viewers are told --------------------------------------------------------

    def view(self, seat: Audience) -> JsonObject:
        """The view of ``seat`` now (views.build_view with this table's state)."""
        may_act = (
            seat is not None and self.info.status == "playing" and self.seat(seat).kind == "person"
        )
        return build_view(
            self.info,
            self.match,
            seat=seat,
            version=self.version,
            connected=self.connected,
            bot_allowed_at=self.bots_allowed_at(),
            may_act=may_act,
            turn_deadline=self.turn_deadline,
            takeback=None if self.takeback is None else self.takeback.to_json(),
            may_take_back=self.may_take_back(seat),
            may_resign=self.may_resign(seat),
            ending=self.ending,
            reading=seat in self.reading,
            cache=self.views,
        )

    def greeting(self, seat: Audience, last_seen: int | None) -> JsonObject:
        """``catchup`` when the viewer's last version is one we have events after,
        else ``welcome`` with a fresh view."""
        if last_seen is not None and 0 <= self.version - last_seen <= CATCHUP_LIMIT:
            events = [event_json(logged, seat, self.info.rules) for logged in self.log[last_seen:]]
            return {
                "type": "catchup",
                "version": self.version,
                "events": events,
                "view": self.view(seat),
            }
        return {"type": "welcome", "seat": seat, "version": self.version, "view": self.view(seat)}

    def _event(self, logged: LoggedEvent, client_id: str | None) -> Told:
        """The event to every audience, as that audience may see it; the sender's copy
        carries its id."""

        def build(audience: Audience) -> JsonObject:
            return {
                "type": "event",
                "version": logged.version,
                "event": event_json(logged, audience, self.info.rules),
                "view": self.view(audience),
            }

        return Told(build, None if client_id is None else {"id": client_id})

    def presence(self) -> Told:
        """Who is here and who plays where, with a fresh view (what may be done changed)."""
        seats = seats_json(self.info.seats, self.connected, self.bots_allowed_at())
        return Told(
            lambda audience: {"type": "presence", "seats": seats, "view": self.view(audience)}
        )

    def record(self) -> dict[str, Any]:
        """The match's record (RECORD.md); only a finished match's may be shown."""
        players = [
            PlayerInfo(seat.name, "human" if seat.kind == "person" else "bot")
            for seat in self.info.seats
        ]
        return match_record(self.match, players=players)
