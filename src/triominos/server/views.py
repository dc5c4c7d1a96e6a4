"""The one place that turns engine state into the JSON a viewer gets, and back.

Everything the server sends about a game goes through here: :func:`build_view` (the
whole of what a seat may know, from the engine's observation for that seat),
:func:`event_json` (one accepted action as that viewer saw it), :func:`seats_json`,
:func:`table_summary` and :func:`hints_json`. Another seat's rack and the pool never
appear: racks come from the seat's own observation, events pass through
:meth:`Event.seen_by`, and a hand's remaining racks only once the hand has ended
(the record's ``end``).

The other direction, :func:`parse_action`, turns an action object a client sent (one
``legal[i].action``) into the engine's :class:`~triominos.game.Action`, with errors
that name the offending field.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from triominos.board import Board, FrozenBoard, Placement
from triominos.bots.hint import Hint
from triominos.game import (
    ACTION_NAMES,
    Action,
    Draw,
    Event,
    HandEnd,
    LegalAction,
    Match,
    Observation,
    action_from_json,
    action_json,
    corners_json,
    shown_json,
)
from triominos.game import (
    ActionFieldError as ActionFieldError,  # the parser's error, as the routes know it
)
from triominos.rules import Rules
from triominos.server.store import SeatInfo, TableInfo
from triominos.tiles import Tile

JsonObject = dict[str, Any]


class LoggedEvent(NamedTuple):
    """One accepted action as the table's log keeps it, with what it ended."""

    version: int
    hand: int
    event: Event
    end: HandEnd | None
    winners: tuple[int, ...] | None
    """The match's winners when this action ended the match, else None."""
    taken_back: bool = False
    """This entry took ``event`` back (a takeback the others accepted), not played it."""


# --- actions ----------------------------------------------------------------------------


ACTION_KINDS = tuple(name for name in ACTION_NAMES if name != "resign")
"""The ``action`` names a client may send (a resignation is a message of its own);
``buy`` is Junior's name for ``draw``."""


def parse_action(value: Mapping[str, Any], rules: Rules, board: Board | FrozenBoard) -> Action:
    """The engine action a client's action object names (:func:`~triominos.game.action_from_json`
    with what a client may send: no resignation, which is a message of its own, and
    ``buy`` only where the rules have a bank).

    Raises ActionFieldError naming the field (``action.tile``, ``action.cell``…) when the
    object is not an action at all; whether the action is legal is the engine's to say.
    """
    kind = value.get("action")
    if kind not in ACTION_KINDS:
        names = ", ".join(repr(name) for name in ACTION_KINDS)
        raise ActionFieldError("action.action", f"must be one of {names}, not {shown_json(kind)}")
    if kind == "buy" and rules.bank is None:
        raise ActionFieldError(
            "action.action",
            "'buy' is a draw paid with a counter, which needs a bank (rule bank); "
            "these rules have none: 'draw'",
        )
    return action_from_json(value, rules.tiles, joker_cell=board.joker_cell)


def legal_json(legal: Sequence[LegalAction], board: Board | FrozenBoard) -> list[JsonObject]:
    """The legal actions with the points and bonuses each would score now."""
    return [
        {
            "action": action_json(option.action, board.joker_cell),
            "points": option.points,
            "bonuses": dict(option.bonuses),
        }
        for option in legal
    ]


# --- events -----------------------------------------------------------------------------


def event_json(logged: LoggedEvent, seat: int | None, rules: Rules) -> JsonObject:
    """The event of one accepted action as ``seat`` (None: a spectator) may see it."""
    body: JsonObject = {"hand": logged.hand}
    seen = logged.event.seen_by(seat, rules.open_racks).to_record()
    if logged.taken_back:
        body.update(player=logged.event.player, action="takeback", undone=seen)
        return body
    body.update(seen)
    if logged.end is not None:
        body["end"] = logged.end.to_record()
    if logged.winners is not None:
        body["winners"] = list(logged.winners)
    return body


# --- views ------------------------------------------------------------------------------


def seats_json(
    seats: Sequence[SeatInfo],
    connected: Collection[int],
    bot_allowed_at: Sequence[float | None],
) -> list[JsonObject]:
    """Who sits where and who is here; a bot is always connected. ``bot_allowed_at``:
    from when (Unix time) another player may give each seat to a bot, or None; a seat
    whose person left shows the end of the grace period, for the page's countdown.
    ``returns``: a bot plays the seat of a person who can take it back."""
    return [
        {
            "name": seat.name,
            "kind": seat.kind,
            "bot": seat.bot,
            "think": seat.think,
            "connected": seat.kind == "bot" or seat.seat in connected,
            "bot_allowed_at": allowed,
            "returns": seat.kind == "bot" and seat.token_hash is not None,
        }
        for seat, allowed in zip(seats, bot_allowed_at, strict=True)
    ]


class ViewCache:
    """The JSON one table's views share, made once: what no later action changes.

    A view holds the match's whole history, and every viewer gets a fresh view with every
    event, so a view built from scratch costs time in proportion to the match so far.
    But a finished hand never changes, this hand's events as one seat saw them are only
    ever added to, and the board and the rules are the same for every seat. The cache
    keeps, per seat, the finished hands and this hand's event records, adding only what
    is new, and the board once per position. What it holds for a seat was built from that
    seat's own view of the match (:meth:`Hand.seen_by`, the observation's history).

    One cache serves one match: a table replayed from the database needs a new one. The
    objects it hands out are shared by many views and must not be changed.
    """

    def __init__(self) -> None:
        self._rules: tuple[Rules, JsonObject] | None = None
        self._board: tuple[tuple[int, int], list[JsonObject]] | None = None
        self._hands: dict[int | None, list[JsonObject]] = {}
        self._history: dict[int | None, tuple[int, list[JsonObject]]] = {}

    def rules(self, rules: Rules) -> JsonObject:
        if self._rules is None or self._rules[0] is not rules:
            self._rules = rules, rules.to_dict()
        return self._rules[1]

    def board(self, observation: Observation) -> list[JsonObject]:
        """The board's placements; a position is its hand and the number of its events."""
        position = observation.hand_number, len(observation.history)
        if self._board is None or self._board[0] != position:
            placements = [
                {
                    "tile": placement.tile.name,
                    "cell": placement.cell.to_json(),
                    "corners": corners_json(placement.corners),
                }
                for placement in observation.board
            ]
            self._board = position, placements
        return self._board[1]

    def history(self, observation: Observation) -> list[JsonObject]:
        """This hand's events as the observation's seat saw them (a new list each time)."""
        seat, number = observation.seat, observation.hand_number
        cached = self._history.get(seat)
        if cached is None or cached[0] != number:
            cached = self._history[seat] = number, []
        records = cached[1]
        history = observation.history
        records.extend(event.to_record() for event in history[len(records) :])
        return records[: len(history)]

    def hands(self, match: Match, seat: int | None) -> list[JsonObject]:
        """The match's finished hands with their events as ``seat`` saw them (a new list)."""
        built = self._hands.setdefault(seat, [])
        finished = [hand for hand in match.hands if hand.end is not None]
        for hand in finished[len(built) :]:
            assert hand.end is not None
            built.append(
                {
                    "number": hand.number,
                    "points": list(hand.points),
                    "end": hand.end.to_record(),
                    "history": [event.to_record() for event in hand.seen_by(seat)],
                }
            )
        return built[: len(finished)]


def build_view(
    info: TableInfo,
    match: Match,
    *,
    seat: int | None,
    version: int,
    connected: Collection[int],
    bot_allowed_at: Sequence[float | None],
    may_act: bool,
    turn_deadline: float | None,
    takeback: JsonObject | None = None,
    may_take_back: bool = False,
    may_resign: bool = False,
    ending: Sequence[int] = (),
    reading: bool = False,
    cache: ViewCache | None = None,
) -> JsonObject:
    """The whole of what ``seat`` (None: a spectator) may know of the table now.

    Built from the engine's observation for that seat; ``may_act`` is false when the
    seat may not play now even on its turn (a bot plays it, or people are missing), and
    then ``legal`` is empty. ``takeback``: the takeback asked for now (its seat and the
    seats yet to answer), ``may_take_back``: whether this seat may ask for one now.
    ``may_resign``: whether this seat's resignation ends the match now; ``ending``: the
    person seats that asked to end it, the first of them resigning, once all have.
    ``reading``: this seat's person has not yet gone on from the last hand's end (a page
    loaded again shows that end again).
    ``cache``: the table's :class:`ViewCache`, so that what
    earlier views built is not built again (without one, everything is built here).
    """
    if cache is None:
        cache = ViewCache()
    observation = match.observe(seat)
    board = observation.board
    open_racks = observation.open_racks
    legal = observation.legal_actions() if may_act and not match.is_over else []
    return {
        "code": info.code,
        "seat": seat,
        "version": version,
        "status": info.status,
        "preset": info.preset,
        "rules": cache.rules(info.rules),
        "players": info.players,
        "seats": seats_json(info.seats, connected, bot_allowed_at),
        "hand": observation.hand_number,
        "phase": observation.phase,
        "to_move": observation.to_move,
        "starter": observation.starter,
        "board": cache.board(observation),
        "rack": None if observation.rack is None else _names(observation.rack_tiles),
        "rack_sizes": list(observation.rack_sizes),
        "pool_size": observation.pool_size,
        "draws": observation.draws,
        "hand_points": list(observation.hand_points),
        "totals": list(observation.totals),
        "bank": observation.bank,
        "open_racks": None
        if open_racks is None
        else [_names(board.tile_set.tiles_in(rack)) for rack in open_racks],
        "history": cache.history(observation),
        "hands": cache.hands(match, seat),
        "end": None if observation.end is None else observation.end.to_record(),
        "gong": observation.gong,
        "match_over": match.is_over,
        "winners": match.winners,
        "legal": legal_json(legal, board),
        "turn_deadline": turn_deadline,
        "move_days": info.move_days,
        "claim_win": info.claim_win,
        "hints": info.hints,
        "takeback": takeback,
        "may_take_back": may_take_back,
        "may_resign": may_resign,
        "ending": list(ending),
        "reading": reading,
    }


def _names(tiles: Sequence[Tile]) -> list[str]:
    return [tile.name for tile in tiles]


def hints_json(
    hints: Sequence[Hint], legal: Sequence[LegalAction], board: Board | FrozenBoard, rules: Rules
) -> list[JsonObject]:
    """Hints with the points and bonuses their placement scores now; a draw on purpose
    with why (``fishing``: the best placement's points now, what the draw costs, and
    whether a tile may still be laid after it this turn), for the browser to word."""
    scored = {option.action: option for option in legal}
    answer = []
    for hint in hints:
        option = scored.get(hint.action)
        entry: JsonObject = {
            "action": action_json(hint.action, board.joker_cell),
            "points": None if option is None else option.points,
            "bonuses": {} if option is None else dict(option.bonuses),
            "value": round(hint.expected_value, 2),
        }
        if isinstance(hint.action, Draw):
            best = max(o.points for o in legal if isinstance(o.action, Placement))
            entry["fishing"] = {
                "best": best,
                "cost": rules.draw_penalty,
                "place_after": not rules.draw_ends_turn,
            }
        answer.append(entry)
    return answer


def position_json(observation: Observation) -> JsonObject:
    """A position as its seat sees it, with the legal actions: what a puzzle and a lesson
    step show (no other rack, no pool)."""
    return {
        "rules": observation.rules.to_dict(),
        "seat": observation.seat,
        "players": observation.players,
        "board": ViewCache().board(observation),
        "rack": [tile.name for tile in observation.rack_tiles],
        "rack_sizes": list(observation.rack_sizes),
        "pool_size": observation.pool_size,
        "totals": list(observation.totals),
        "legal": legal_json(observation.legal_actions(), observation.board),
    }


def table_summary(
    info: TableInfo,
    *,
    link: str,
    version: int,
    connected: Collection[int],
    bot_allowed_at: Sequence[float | None],
    totals: Sequence[int],
    to_move: int | None,
    turn_deadline: float | None,
    rematch: str | None,
) -> JsonObject:
    """What anyone may know of a table without watching it: no rack, no pool.
    ``to_move``: the seat whose turn it is while the table plays, and ``turn_deadline``
    when its time runs out (for "Your games": how long you have)."""
    return {
        "code": info.code,
        "link": link,
        "status": info.status,
        "preset": info.preset,
        "rules": info.rules.to_dict(),
        "players": info.players,
        "seats": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "kind": seat.kind,
                "bot": seat.bot,
                "think": seat.think,
                "taken": seat.taken,
                "connected": seat.kind == "bot" or seat.seat in connected,
                "bot_allowed_at": allowed,
            }
            for seat, allowed in zip(info.seats, bot_allowed_at, strict=True)
        ],
        "turn_seconds": info.turn_seconds,
        "grace_seconds": info.grace_seconds,
        "listed": info.listed,
        "timeout_action": info.timeout_action,
        "move_days": info.move_days,
        "claim_win": info.claim_win,
        "turn_deadline": turn_deadline,
        "hints": info.hints,
        "version": version,
        "totals": list(totals),
        "to_move": to_move,
        "created": info.created_at,
        "finished": info.finished_at,
        "rematch": rematch,
    }
