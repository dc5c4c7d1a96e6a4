"""A live table: its match rebuilt from the stored actions, its seats, viewers and version.

The version of a table is the number of actions it accepted. :class:`LiveTable` replays
the stored actions on ``Match(rules, players, seed)`` (deals and starter draws come from
the seed, so the replay is exact), checks what a client sends (:meth:`LiveTable.check`,
raising :class:`Refused` with the protocol's error code) and applies it
(:meth:`LiveTable.apply`), keeping the log of events that reconnecting clients catch up
from. Sending is left to the :class:`Viewer` outboxes: :meth:`LiveTable.broadcast` and
its kin build each viewer's message from :mod:`triominos.server.views`, once per seat.

A table is changed only under its ``lock`` (the app's job), so that validating, storing
and broadcasting an action is one step for everyone else.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import math
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from itertools import count
from typing import Any

import msgspec

from triominos.game import Action, IllegalActionError, LegalAction, Match, Resign, action_json
from triominos.record import PlayerInfo, match_record
from triominos.server.outbox import Outbox
from triominos.server.protocol import (
    BOT_TABLE_IDLE_SECONDS,
    CHAT_PER_CONNECTION,
    CHAT_PER_SEAT,
    CHAT_PER_TABLE,
    CHAT_SPECTATORS,
    TAKEBACK_PAUSE,
    TAKEBACKS_PER_SEAT,
)
from triominos.server.store import SeatInfo, StoredAction, TableInfo
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


def encode(message: JsonObject) -> str:
    """A message as the JSON text sent on the WebSocket."""
    return msgspec.json.encode(message).decode()


class Viewer:
    """One connection: a seat or a spectator (``seat`` None), with its outbox.

    Messages are queued as JSON text, not sent: a slow connection delays only itself, and
    each connection gets its messages in the order the table made them. Being text, a
    queued message is what the table was when it was made, and one text serves every
    viewer of a seat. A close code in the outbox ends the connection after what was
    queued before it; an outbox that overflows closes it (:mod:`triominos.server.outbox`).
    """

    def __init__(self, seat: int | None = None) -> None:
        self.seat = seat
        self.spectator: int | None = None
        """A spectator's number at this table, by which the spectators' chat tells them
        apart: the lowest that no spectator here holds when it came (so a reload keeps
        it); None for a seat."""
        self.outbox = Outbox()
        self.chat_limit = RateLimit(*CHAT_PER_CONNECTION)

    def send(self, message: JsonObject) -> None:
        self.outbox.put_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (:func:`encode`)."""
        self.outbox.put_text(text)

    def close(self, code: int = 1000) -> None:
        """Close the connection with this WebSocket close code once the outbox is sent."""
        self.outbox.put_close(code)


class RateLimit:
    """At most ``count`` events in any ``seconds``."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self.times: deque[float] = deque(maxlen=count)

    def allow(self) -> bool:
        moment = time.monotonic()
        if len(self.times) == self.count and moment - self.times[0] < self.seconds:
            return False
        self.times.append(moment)
        return True


class ChatBudgets:
    """Who may chat at a table now: a seat within its own budget (however many
    connections it has) and the players' chat within the table's; a spectator within its
    connection's and the spectators' chat's, which never spend the players' budgets."""

    def __init__(self) -> None:
        self.players = RateLimit(*CHAT_PER_TABLE)
        self.spectators = RateLimit(*CHAT_SPECTATORS)
        self.seats: dict[int, RateLimit] = {}

    def allow(self, viewer: Viewer) -> bool:
        if viewer.seat is None:
            return viewer.chat_limit.allow() and self.spectators.allow()
        seat = self.seats.setdefault(viewer.seat, RateLimit(*CHAT_PER_SEAT))
        return seat.allow() and self.players.allow()


@dataclasses.dataclass(frozen=True)
class Takeback:
    """A takeback asked for: by ``seat``, and the person seats yet to accept it (a bot
    accepts at once). Kept in memory only: it lapses with the next action, and a
    restarted server has forgotten it (the seat may ask again)."""

    seat: int
    waiting: frozenset[int]

    def to_json(self) -> JsonObject:
        return {"seat": self.seat, "waiting": sorted(self.waiting)}


def first_turn_started(info: TableInfo) -> float:
    """When the first turn's clock started: when the table began to play, as stored.

    A table that is still waiting, or that began before that moment was stored (it is
    NULL in databases made before migration 0003), starts the clock now.
    """
    return time.time() if info.started_at is None else info.started_at


class LiveTable:
    """The state of one table in memory, rebuilt from the database."""

    def __init__(
        self, info: TableInfo, actions: Sequence[StoredAction], now: float | None = None
    ) -> None:
        self.lock = asyncio.Lock()
        self.viewers: set[Viewer] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.retry_task: asyncio.Task[None] | None = None
        self.retry_delay = 0.0
        """Seconds before storage is tried again after a fault (0: no fault now)."""
        self.stale = False
        """The match in memory is ahead of the database (a write failed and the table
        could not be replayed since): nothing is shown or accepted until it is."""
        self.chat = ChatBudgets()
        self.reclaims: set[int] = set()
        """Seats whose person came back while their bot thought: theirs at its move."""
        self.bot_choice: tuple[int, Action] | None = None
        """The bot's action for a version, kept when storing it failed: the retry plays
        it without thinking again."""
        self.takeback: Takeback | None = None
        """The takeback asked for now, if any (one at a time)."""
        self.takeback_limits = {seat.seat: RateLimit(*TAKEBACKS_PER_SEAT) for seat in info.seats}
        """Each seat's takeback requests, limited (so they are not forgotten on reload)."""
        self.takeback_declined: dict[int, float] = {}
        """When each seat's last takeback was declined: it may ask again TAKEBACK_PAUSE
        seconds later."""
        self.epoch: int | None = None
        """The claim this node holds the table under (:mod:`triominos.server.nodes`);
        None for a copy read from the database that no node claimed."""
        self.gone = False
        """This node gave the table up (another one owns it now): nothing is accepted."""
        # When each person who sat down went away; a table loaded from the database has
        # everyone away since then, so a restart gives nobody's seat away early.
        moment = time.time() if now is None else now
        self.away_since: dict[int, float] = {
            seat.seat: moment for seat in info.seats if seat.token_hash is not None
        }
        self.unwatched_since = moment
        """When its last viewer left (or it was loaded): a table of bots only that
        nobody watches for long is suspended (:meth:`suspended`)."""
        self.replay(info, actions)

    def replay(self, info: TableInfo, actions: Sequence[StoredAction]) -> None:
        """Rebuild the match, log and accepted ids from the stored table and actions."""
        self.info = info
        self.match = Match(info.rules, info.players, info.seed)
        self.views = ViewCache()
        self.log: list[LoggedEvent] = []
        self.client_ids: set[tuple[int, str]] = set()
        # When the turn began: the time of the action that began it, and for the first
        # turn the time the table began to play, so a restart resumes every turn's clock.
        self.turn_started = first_turn_started(info)
        self.reading: frozenset[int] = frozenset()
        """The person seats still looking at the end of the hand before this one (their
        page's dialog) who have not had a turn in this hand yet."""
        for stored in actions:
            if stored.version != self.version + 1:
                raise ValueError(
                    f"table {info.code}: stored action {stored.version} follows {self.version}"
                )
            kind = stored.action.get("action")
            if kind == "takeback":
                self.take_back(stored.seat, stored.created_at)
                continue
            action = (
                Resign(stored.seat)
                if kind == "resign"
                else parse_action(stored.action, info.rules, self.match.hand.board)
            )
            self.apply(stored.seat, action, stored.client_id, stored.created_at)
        self.stale = False
        self.stored()

    def stored(self) -> None:
        """Everything in memory is in the database now: what anyone may be told."""
        self.durable_version = self.version
        self.durable_totals = tuple(self.match.totals)
        self.durable_to_move = None if self.match.is_over else self.match.to_move

    def __repr__(self) -> str:
        return f"<LiveTable {self.info.code} v{self.version} {self.info.status}>"

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

    @property
    def connected(self) -> set[int]:
        return {viewer.seat for viewer in self.viewers if viewer.seat is not None}

    def arrive(self, viewer: Viewer) -> bool:
        """Add a viewer; whether its seat's person was away until now."""
        arrived = viewer.seat is not None and viewer.seat not in self.connected
        if viewer.seat is None and viewer.spectator is None:
            held = {other.spectator for other in self.viewers}
            viewer.spectator = next(number for number in count(1) if number not in held)
        self.viewers.add(viewer)
        if viewer.seat is not None:
            self.away_since.pop(viewer.seat, None)
        return arrived

    def leave(self, viewer: Viewer, now: float) -> bool:
        """Remove a viewer; whether its seat's person is away from now on."""
        self.viewers.discard(viewer)
        if not self.viewers:
            self.unwatched_since = now
        if viewer.seat is None or viewer.seat in self.connected:
            return False
        self.away_since[viewer.seat] = now
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
        return self.away_since.get(number, time.time()) + self.info.grace_seconds

    @property
    def turn_deadline(self) -> float | None:
        """When the turn timer runs out (Unix time), or None without a timer.

        A player whose turn comes while they still look at the last hand's end gets that
        time too, a turn's at most (RULES.md §13): their clock starts when they go on.
        """
        seconds = self.info.turn_seconds
        if seconds is None or not self.playing:
            return None
        reading = seconds if self.match.to_move in self.reading else 0.0
        return self.turn_started + reading + seconds

    def went_on(self, seat: int, hand: int, now: float) -> bool:
        """``seat``'s player closed the end of ``hand``: their turn's clock, if it is their
        turn, starts now (or as it did, once a turn's time had passed). Whether the turn
        deadline changed."""
        if seat not in self.reading or hand != self.match.hand.number - 1:
            return False
        before = self.turn_deadline
        if self.match.to_move == seat and self.info.turn_seconds is not None:
            self.turn_started = min(now, self.turn_started + self.info.turn_seconds)
        self.reading = self.reading - {seat}
        return self.turn_deadline != before

    def bots_allowed_at(self) -> list[float | None]:
        connected = self.connected  # one pass over the viewers, not one a seat
        return [self.bot_allowed_at(seat.seat, connected) for seat in self.info.seats]

    def person_seats(self) -> list[int]:
        """The seats people play now (a bot plays the others)."""
        return [seat.seat for seat in self.info.seats if seat.kind == "person"]

    def to_move_is_bot(self) -> bool:
        return self.playing and self.seat(self.match.to_move).kind == "bot"

    def suspended(self, now: float) -> bool:
        """Whether this is a table of bots only that nobody has watched for
        BOT_TABLE_IDLE_SECONDS: its bots wait for a viewer (they would play on for
        nobody, at the server's cost)."""
        return (
            not self.viewers
            and all(seat.kind == "bot" for seat in self.info.seats)
            and now - self.unwatched_since >= BOT_TABLE_IDLE_SECONDS
        )

    # --- actions --------------------------------------------------------------------

    def check(
        self,
        seat: int | None,
        client_id: str | None,
        version: int,
        action: Mapping[str, Any] | Action,
        *,
        by_server: bool = False,
    ) -> Action:
        """The engine action to apply, or Refused saying why nothing may change.

        ``by_server``: played by the server itself (a bot, or the turn timer), which may
        play a seat no person plays.
        """
        if seat is None:
            raise Refused("spectator", "a spectator watches; only a seated player acts")
        if self.match.is_over:
            raise Refused("over", "the match is over")
        if client_id is not None and (seat, client_id) in self.client_ids:
            raise Refused("duplicate", f"the action with id {client_id!r} was already accepted")
        if isinstance(action, Resign):
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

    def apply(
        self, seat: int, action: Action, client_id: str | None, at: float
    ) -> tuple[LoggedEvent, StoredAction]:
        """Play a checked action; Refused (``illegal``, naming the rule) if the engine
        refuses it, and then nothing changed. Returns the log entry and the row to store.
        """
        match = self.match
        hand = match.hand
        stored_form = action_json(action, hand.board.joker_cell)
        before = (hand.number, match.to_move)
        try:
            event = match.apply(action, player=seat)
        except IllegalActionError as error:
            raise Refused("illegal", str(error), rule=error.rule) from None
        logged = LoggedEvent(
            self.version + 1,
            hand.number,
            event,
            hand.end,
            tuple(match.winners) if match.is_over else None,
        )
        self.log.append(logged)
        self.takeback = None  # the game moved on: a takeback asked for lapses
        if client_id is not None:
            self.client_ids.add((seat, client_id))
        if match.is_over or (match.hand.number, match.to_move) != before:
            self.turn_started = at
            # A hand that ended stays on every person's screen until they go on; for their
            # first turn after it at the latest.
            if match.hand.number != before[0]:
                self.reading = frozenset(self.person_seats())
            else:
                self.reading = self.reading - {before[1]}
        return logged, StoredAction(logged.version, seat, client_id, stored_form, at)

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

    def ask_to_end(self, seat: int) -> tuple[int | None, tuple[int, ...]]:
        """``seat`` resigns, or asks to end the match where the others must agree: the
        seat whose resignation ends the match now (the first who asked), or None while
        some person has not asked yet; and who asked then, ``seat`` included (to store:
        nothing changes here)."""
        if self.may_resign(seat) and not self.ending:
            return seat, self.ending
        asked = self.ending if seat in self.ending else (*self.ending, seat)
        first = asked[0]
        return (first if self.may_resign(first, asked) else None), asked

    # --- takebacks ------------------------------------------------------------------

    def _takeback_refusal(self, seat: int | None) -> Refused | None:
        """Why ``seat`` may not ask for a takeback now, or None when it may (its person,
        its last action, none asked already); the rate limit aside."""
        if seat is None:
            return Refused("spectator", "a spectator watches; only a seated player acts")
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

    def ask_take_back(self, seat: int | None, now: float) -> Takeback:
        """A takeback asked for by ``seat`` at ``now``; Refused saying why it may not be.
        Every other person must accept it; with none (only bots), it is accepted at once.
        A seat whose takeback was declined waits TAKEBACK_PAUSE seconds before asking again:
        the others said no, and asking again at once would only press them."""
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
        waiting = frozenset(self.person_seats()) - {seat}
        self.takeback = Takeback(seat, waiting)
        return self.takeback

    def answer_take_back(self, seat: int | None, accept: bool, now: float) -> Takeback | None:
        """``seat`` accepts or declines, at ``now``, the takeback asked for; the takeback
        still waiting for others, or None once it is declined (and gone, its asker
        paused). Refused when none waits for this seat's answer."""
        takeback = self.takeback
        if takeback is None or seat not in takeback.waiting:
            raise Refused("no_takeback", "no takeback waits for your answer")
        if not accept:
            self.takeback = None
            self.takeback_declined[takeback.seat] = now
            return None
        self.takeback = dataclasses.replace(takeback, waiting=takeback.waiting - {seat})
        return self.takeback

    def take_back(self, seat: int, at: float) -> tuple[LoggedEvent, StoredAction]:
        """Take back ``seat``'s last action, accepted by everyone: the log's entry and the
        row to store. The turn is the taker's again, and its clock starts again."""
        match = self.match
        event = match.take_back(seat)
        logged = LoggedEvent(self.version + 1, match.hand.number, event, None, None, True)
        self.log.append(logged)
        self.views = ViewCache()  # the cached history of this hand lost an event
        self.takeback = None
        self.turn_started = at
        return logged, StoredAction(logged.version, seat, None, {"action": "takeback"}, at)

    def legal_actions(self) -> list[LegalAction]:
        """The legal actions of the player to move (the server's own use: timer, bots)."""
        return self.match.legal_actions()

    def reseat(self, info: TableInfo, now: float) -> None:
        """The table after a seat changed; the clock starts when the last seat fills.
        Someone who just sat down and is not connected yet is away from now."""
        if self.info.status == "waiting" and info.status == "playing":
            self.turn_started = first_turn_started(info)
        for before, after in zip(self.info.seats, info.seats, strict=True):
            sat_down = after.token_hash not in (None, before.token_hash)
            if sat_down and after.seat not in self.connected:
                self.away_since[after.seat] = now
        self.info = info

    def finish(self, at: float) -> None:
        """Mark the table finished in memory, as the store did with the last action."""
        self.info = dataclasses.replace(self.info, status="finished", finished_at=at)

    def record(self) -> dict[str, Any]:
        """The match's record (RECORD.md); only a finished match's may be shown."""
        players = [
            PlayerInfo(seat.name, "human" if seat.kind == "person" else "bot")
            for seat in self.info.seats
        ]
        return match_record(self.match, players=players)

    # --- messages -------------------------------------------------------------------

    def view(self, seat: int | None) -> JsonObject:
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

    def greeting(self, seat: int | None, last_seen: int | None) -> JsonObject:
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

    def broadcast(
        self,
        build: Callable[[int | None], JsonObject],
        *,
        sender: Viewer | None = None,
        to_sender: JsonObject | None = None,
        skip: Viewer | None = None,
    ) -> None:
        """Queue ``build(seat)`` for every viewer but ``skip``, built and encoded once per
        seat; the ``sender``'s copy gets the fields of ``to_sender`` too (its own id)."""
        built: dict[int | None, tuple[JsonObject, str]] = {}
        for viewer in self.viewers:
            if viewer is skip:
                continue
            if viewer.seat not in built:
                message = build(viewer.seat)
                built[viewer.seat] = message, encode(message)
            message, text = built[viewer.seat]
            if viewer is sender and to_sender:
                text = encode({**message, **to_sender})
            viewer.send_text(text)

    def broadcast_event(
        self, logged: LoggedEvent, sender: Viewer | None, client_id: str | None
    ) -> None:
        """The event to every viewer, built for that viewer; the sender's carries its id."""

        def build(seat: int | None) -> JsonObject:
            return {
                "type": "event",
                "version": logged.version,
                "event": event_json(logged, seat, self.info.rules),
                "view": self.view(seat),
            }

        self.broadcast(
            build, sender=sender, to_sender=None if client_id is None else {"id": client_id}
        )

    def broadcast_presence(self, skip: Viewer | None = None) -> None:
        """Who is here and who plays where, with a fresh view (what may be done changed);
        ``skip`` is a viewer that has just been greeted with all this."""
        seats = seats_json(self.info.seats, self.connected, self.bots_allowed_at())
        self.broadcast(
            lambda seat: {"type": "presence", "seats": seats, "view": self.view(seat)}, skip=skip
        )

    def send_all(self, message: JsonObject) -> None:
        text = encode(message)
        for viewer in self.viewers:
            viewer.send_text(text)
