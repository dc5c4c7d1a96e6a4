"""Game records: the ``triominos-record/1`` documents of RECORD.md, written, read and checked.

A record is to a Triominos match what PGN is to a chess game: the deals, every action
and every score, enough for any program to replay the match without a random number
generator. This module turns a :class:`~triominos.game.Match` into its document
(:func:`match_record`), reads and writes files of documents (:func:`read_records`,
:func:`write_records`), and replays a document through the engine (:func:`load_match`,
:func:`replay_steps`), comparing every recorded action, ending and score with what the
rules give.

>>> from triominos.game import Match
>>> match = Match.from_preset("classic", players=2, seed=3)
>>> document = match_record(match)
>>> load_match(document).hand.to_move == match.hand.to_move
True

Two kinds of failure are kept apart, because they have different culprits:

- :class:`RecordError`: the file or document is not a record at all (not JSON, a
  missing field, a tile name that names no tile, a cell that is not a cell). The
  program that wrote it is broken; the error names the line and the field.
- :class:`VerificationError`: a well-formed record whose play is wrong (an illegal
  placement, wrong points, a settlement that does not add up). The game or its scorer
  is wrong; the error names the record, the hand and the action.

Extension notes (RECORD.md allows new optional fields and new ``action`` values; these
are the ones this project writes and reads):

- **Starter draws** (rule ``opening="starter_draw"``): each tile drawn to decide who
  starts is an action ``{"player": 0, "action": "starter_draw", "tile": "2-4-5"}``
  before the opening placement, without ``points``. The tile goes back into the pool,
  so ``deal.pool`` is not changed by it; after a tie the tied players draw again, each
  draw its own action.
- **A hand in play** has no ``end`` and no ``scores`` (null is read the same); only the
  last hand of a record may be so. Its ``starter`` is null while the starter draws
  have not decided.
- **An unfinished match**: the top-level ``scores`` are the totals of the finished
  hands and ``winners`` is empty. A finished hand is followed at once by the next deal,
  so the last hand of an unfinished match is never a finished one: a record whose last
  hand is finished while no total has reached the target is missing hands.
- ``preset`` is null when the rules are no named preset's; ``rules`` always decides.
- ``rules`` may leave options out: they take their default values, so that an option
  added later (whose default keeps the old behaviour) does not make old records invalid.
- ``seed`` may be null: the deals in the record are all a replay needs.
- Fields this reader does not know are ignored.

Triominos Junior (rule ``opening="pool_card"``, counters from a ``bank``):

- ``deal.first`` is the card laid face up from the pool on ``[0, 0, "up"]`` before play,
  in its canonical rotation, e.g. ``"first": "1-3-5"``; ``deal.pool`` lists the pool
  without it. It is there exactly when the rules open with a pool card.
- The joker is the tile ``"J"``. In a joker's placement the ``corners`` are the numbers
  at the cell's vertices as it is laid, ``null`` for a corner no card touches yet (a
  free corner): ``{"player": 1, "action": "place", "tile": "J", "cell": [0, 0, "down"],
  "corners": [3, null, 5], "points": 1, "bonuses": {}}``.
- Taking a card from the pool with a counter is ``{"player": 0, "action": "buy",
  "tile": "2-4-4", "points": -1}`` (``draw`` under rules without a bank).
- Taking the joker back is ``{"player": 0, "action": "take_joker", "tile": "1-2-3",
  "cell": [0, 0, "down"], "corners": [3, 1, 2], "points": 0}``: ``tile`` is the card
  that takes the joker's place, ``cell`` where the joker lay, ``corners`` the card's
  numbers there; the joker goes to the player's rack.
- ``end.reason`` may be ``last_round``: the pool ran out and the round that followed
  is over; or ``target`` (``match_end="first_to_target"``): ``player`` reached the target
  score and the match ends at once, with no settlement.
- **Resigning**: ``{"player": 1, "action": "resign", "points": 0}``, by any player at any
  moment of play (not only on their turn), is the last action of the match: the hand
  ends with ``end.reason`` ``resigned``, ``player`` the one who resigned, every
  settlement 0, and ``winners`` are the highest totals of the others.
- The hand's and the match's ``scores`` are the players' counters: they start at the
  rule ``starting_score`` (4), and the bank holds the rest of the rule ``bank`` (60),
  so they never add up to more than it and none is below 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast, get_args

from triominos.board import Placement
from triominos.game import (
    ACTION_NAMES,
    DRAWS,
    Action,
    ActionFieldError,
    Deal,
    EndReason,
    Event,
    Hand,
    HandEnd,
    IllegalActionError,
    Match,
    TakeJoker,
    action_from_json,
    read_cell,
    read_corners,
    read_tile,
    shown_json,
)
from triominos.lattice import Cell
from triominos.rules import PRESETS, RuleOptionError, Rules
from triominos.tiles import Corners, Tile, TileSet

_Value = TypeVar("_Value")

__all__ = [
    "ACTION_NAMES",
    "FORMAT",
    "PLAYER_KINDS",
    "JsonField",
    "PlayerInfo",
    "RecordError",
    "ReplayStep",
    "VerificationError",
    "dumps_record",
    "iter_records",
    "load_match",
    "match_record",
    "read_records",
    "replay_steps",
    "verify",
    "write_records",
]

FORMAT = "triominos-record/1"
"""The value of every record's ``format`` field."""

PLAYER_KINDS = ("human", "bot")
END_REASONS: tuple[EndReason, ...] = get_args(EndReason)


# --- errors -------------------------------------------------------------------------


class RecordError(ValueError):
    """A file or document that is not a valid record: its writer is at fault, not the play.

    ``line`` is the 1-based line of the file (for a document spread over many lines, the
    line it starts on, or the line of a JSON syntax error); ``field`` is the path of the
    faulty value, like ``hands[0].actions[3].cell``. Either may be None when unknown.
    """

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = [f"line {self.line}"] if self.line is not None else []
        if self.field:
            where.append(self.field)
        return ": ".join([*where, self.message])


class VerificationError(ValueError):
    """A well-formed record whose play is wrong: the game or its scorer is at fault.

    ``record`` is the 1-based index of the document in its file, ``hand`` the hand's
    number, ``action`` the 0-based index in that hand's actions (None for the hand's end,
    its scores or the match's result); ``rule`` names the broken rule of an illegal action.
    """

    def __init__(
        self,
        message: str,
        *,
        record: int,
        hand: int,
        action: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.record = record
        self.hand = hand
        self.action = action
        self.rule = rule

    def __str__(self) -> str:
        where = f"record {self.record}, hand {self.hand}"
        if self.action is not None:
            where += f", action {self.action}"
        return f"{where}: {self.message}"


# --- writing ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who sat at a seat: the name to show, and whether a person or a program played."""

    name: str
    kind: str = "bot"

    def __post_init__(self) -> None:
        if self.kind not in PLAYER_KINDS:
            raise ValueError(f"a player's kind is 'human' or 'bot', not {self.kind!r}")

    def to_record(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind}


def match_record(
    match: Match,
    players: Sequence[PlayerInfo] | None = None,
    preset: str | None = None,
) -> dict[str, Any]:
    """The JSON-ready document of RECORD.md for a match, finished or not.

    ``players`` default to bots named ``player 0``, ``player 1``…; ``preset`` defaults to
    the name of the preset whose rules are the match's (null when there is none).
    """
    if players is None:
        players = [PlayerInfo(f"player {seat}") for seat in range(match.players)]
    if len(players) != match.players:
        raise ValueError(f"the match has {match.players} players, not {len(players)}")
    if preset is None:
        preset = next((p.name for p in PRESETS.values() if p.rules == match.rules), None)
    hands: list[dict[str, Any]] = []
    for hand in match.hands:
        deal: dict[str, Any] = {
            "racks": [_tile_names(rack) for rack in hand.deal.racks],
            "pool": _tile_names(hand.deal.pool),
        }
        if hand.deal.first is not None:
            deal["first"] = hand.deal.first.name
        recorded: dict[str, Any] = {
            "number": hand.number,
            "deal": deal,
            "starter": hand.starter,
            "actions": [event.to_record() for event in hand.events],
        }
        if hand.end is not None:
            recorded["end"] = hand.end.to_record()
            recorded["scores"] = hand.totals  # from the totals before the hand, counters or points
        hands.append(recorded)
    return {
        "format": FORMAT,
        "preset": preset,
        "rules": match.rules.to_dict(),
        "players": [player.to_record() for player in players],
        "seed": match.seed,
        "hands": hands,
        "scores": list(match.totals),
        "winners": match.winners,
    }


def _tile_names(tiles: Iterable[Tile]) -> list[str]:
    return [tile.name for tile in tiles]


def dumps_record(document: Mapping[str, Any]) -> str:
    """One document as one compact line of JSON (no newline), as JSON Lines holds it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def write_records(path: str | Path, documents: Iterable[Mapping[str, Any]]) -> None:
    """Write documents as JSON Lines: one compact document a line."""
    with Path(path).open("w", encoding="utf-8") as file:
        for document in documents:
            file.write(dumps_record(document) + "\n")


# --- reading ------------------------------------------------------------------------


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The documents of a file holding one JSON document or JSON Lines.

    Raises RecordError (with the line) for text that is not JSON, a value that is not
    an object, or a missing or unknown ``format``; OSError when the file cannot be read.
    """
    return [document for _, document in iter_records(path)]


def iter_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each document of a file with the line it starts on, for error messages.

    The file is JSON Lines when its first non-empty line is a JSON value by itself;
    otherwise it is one document, which may span many lines.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"the file is not UTF-8 text ({error.reason})") from None
    # Only "\n" ends a line: str.splitlines() would also split at characters like
    # U+2028 that JSON strings may hold as they are.
    lines = text.split("\n")
    filled = [number for number, line in enumerate(lines, 1) if line.strip()]
    if not filled:
        raise RecordError("the file holds no record", line=1)
    try:
        json.loads(lines[filled[0] - 1])
    except json.JSONDecodeError:
        yield filled[0], _document(text, filled[0], whole_file=True)
        return
    for number in filled:
        yield number, _document(lines[number - 1], number, whole_file=False)


def _document(text: str, line: int, *, whole_file: bool) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        at = error.lineno if whole_file else line
        raise RecordError(f"not JSON: {error.msg} (column {error.colno})", line=at) from None
    if not isinstance(value, dict):
        raise RecordError(f"a record is a JSON object, not {_json_kind(value)}", line=line)
    _check_format(value, line)
    return value


def _check_format(document: Mapping[str, Any], line: int | None) -> None:
    if "format" not in document:
        raise RecordError(
            f'missing; a record begins with "format": "{FORMAT}"', line=line, field="format"
        )
    if document["format"] != FORMAT:
        raise RecordError(
            f"is {shown_json(document['format'])}; this program reads {FORMAT!r} records",
            line=line,
            field="format",
        )


# --- parsing a document -------------------------------------------------------------


class JsonField:
    """A value of a document and its path in it, so that every complaint says where.

    Records read through it, and so may other documents made of the same values (an
    analysis: :mod:`triominos.analysis`): ``error_type`` is the RecordError subclass their
    complaints are.
    """

    __slots__ = ("error_type", "line", "path", "value")

    def __init__(
        self,
        value: object,
        path: str,
        line: int | None,
        error_type: type[RecordError] = RecordError,
    ) -> None:
        self.value = value
        self.path = path
        self.line = line
        self.error_type = error_type

    def error(self, message: str) -> RecordError:
        return self.error_type(message, line=self.line, field=self.path or None)

    def _at(self, value: object, path: str) -> JsonField:
        return JsonField(value, path, self.line, self.error_type)

    def _mistyped(self, expected: str) -> RecordError:
        return self.error(f"must be {expected}, not {shown_json(self.value)}")

    def object(self) -> Mapping[str, Any]:
        if not isinstance(self.value, Mapping):
            raise self._mistyped("an object")
        return self.value

    def _child(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def member(self, key: str) -> JsonField:
        """A required member of an object."""
        values = self.object()
        if key not in values:
            raise self.error_type("missing", line=self.line, field=self._child(key))
        return self._at(values[key], self._child(key))

    def optional(self, key: str) -> JsonField | None:
        """A member that may be missing or null."""
        values = self.object()
        if values.get(key) is None:
            return None
        return self._at(values[key], self._child(key))

    def items(self) -> list[JsonField]:
        if not isinstance(self.value, list):
            raise self._mistyped("an array")
        return [self._at(item, f"{self.path}[{i}]") for i, item in enumerate(self.value)]

    def integer(self) -> int:
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self._mistyped("a whole number")
        return self.value

    def number(self) -> float:
        if not isinstance(self.value, int | float) or isinstance(self.value, bool):
            raise self._mistyped("a number")
        return float(self.value)

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self._mistyped("true or false")
        return self.value

    def integers(self) -> tuple[int, ...]:
        return tuple(item.integer() for item in self.items())

    def text(self) -> str:
        if not isinstance(self.value, str):
            raise self._mistyped("a string")
        return self.value

    def choice(self, allowed: tuple[str, ...]) -> str:
        value = self.text()
        if value not in allowed:
            raise self.error(f"is {value!r}; it must be one of {', '.join(map(repr, allowed))}")
        return value

    def _read(self, reader: Callable[[], _Value]) -> _Value:
        """What ``reader`` makes of this value, its ActionFieldError a complaint here."""
        try:
            return reader()
        except ActionFieldError as error:
            raise self.error_type(error.message, line=self.line, field=error.field) from None

    def tile(self, tile_set: TileSet) -> Tile:
        return self._read(lambda: read_tile(self.value, tile_set, self.path))

    def tiles(self, tile_set: TileSet) -> tuple[Tile, ...]:
        return tuple(item.tile(tile_set) for item in self.items())

    def cell(self) -> Cell:
        return self._read(lambda: read_cell(self.value, self.path))

    def corners(self, *, free: bool = False) -> Corners:
        """Three numbers from 0; with ``free`` (the joker's), null is a free corner (WILD)."""
        return self._read(lambda: read_corners(self.value, self.path, free=free))

    def action(self, tile_set: TileSet, player: int) -> Action:
        """The action of a record's action object (its JSON as the protocol's)."""
        return self._read(
            lambda: action_from_json(self.value, tile_set, path=self.path, player=player)
        )

    def bonuses(self) -> tuple[tuple[str, int], ...]:
        return tuple((name, self.member(name).integer()) for name in self.object())


class _RecordedAction(NamedTuple):
    """A recorded action: what to apply, and the event the record says it made."""

    action: Action
    event: Event


@dataclass(frozen=True, slots=True)
class _RecordedHand:
    number: int
    deal: Deal
    starter: int | None
    actions: tuple[_RecordedAction, ...]
    end: HandEnd | None
    scores: tuple[int, ...] | None

    @property
    def starter_draws(self) -> list[Tile]:
        return [
            step.event.tile
            for step in self.actions
            if step.event.action == "starter_draw" and step.event.tile is not None
        ]


@dataclass(frozen=True, slots=True)
class _Record:
    rules: Rules
    players: tuple[PlayerInfo, ...]
    seed: int | None
    hands: tuple[_RecordedHand, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def _parse_record(document: Mapping[str, Any], line: int | None) -> _Record:
    """Every field of a document, checked for form (not for play)."""
    root = JsonField(document, "", line)
    root.object()
    _check_format(document, line)
    preset = root.optional("preset")
    if preset is not None:
        preset.text()
    rules = _parse_rules(root.member("rules"))
    players_field = root.member("players")
    players = tuple(_parse_player(item) for item in players_field.items())
    try:
        rules.check_players(len(players))
    except RuleOptionError as error:
        raise players_field.error(_reason(error)) from None
    seed = root.optional("seed")
    hands_field = root.member("hands")
    hand_fields = hands_field.items()
    if not hand_fields:
        raise hands_field.error("a record holds at least one hand")
    return _Record(
        rules,
        players,
        None if seed is None else seed.integer(),
        tuple(
            _parse_hand(item, number, rules, len(players))
            for number, item in enumerate(hand_fields, 1)
        ),
        root.member("scores").integers(),
        root.member("winners").integers(),
    )


def _reason(error: RuleOptionError) -> str:
    """A RuleOptionError's message without the option name it starts with."""
    return str(error).removeprefix(f"{error.option}: ")


def _parse_rules(field: JsonField) -> Rules:
    try:
        return Rules.from_dict(field.object())
    except RuleOptionError as error:
        raise RecordError(_reason(error), line=field.line, field=f"rules.{error.option}") from None
    except TypeError as error:  # a value of a type no option takes, e.g. a list as a name
        raise field.error(f"not a set of rule options ({error})") from None


def _parse_player(field: JsonField) -> PlayerInfo:
    kind = field.optional("kind")
    return PlayerInfo(
        field.member("name").text(), "bot" if kind is None else kind.choice(PLAYER_KINDS)
    )


def _parse_hand(field: JsonField, number: int, rules: Rules, players: int) -> _RecordedHand:
    tile_set = rules.tiles
    recorded_number = field.member("number").integer()
    if recorded_number != number:
        raise field.member("number").error(
            f"is {recorded_number}; hands are numbered 1, 2, 3… in order, so this is {number}"
        )
    deal_field = field.member("deal")
    racks_field = deal_field.member("racks")
    racks = tuple(rack.tiles(tile_set) for rack in racks_field.items())
    if len(racks) != players:
        raise racks_field.error(f"holds {len(racks)} racks for {players} players")
    first = deal_field.optional("first")
    deal = Deal(
        racks,
        deal_field.member("pool").tiles(tile_set),
        None if first is None else first.tile(tile_set),
    )
    try:
        deal.check(rules)
    except RuleOptionError as error:
        raise deal_field.error(_reason(error)) from None
    starter = field.optional("starter")
    end = field.optional("end")
    scores = field.optional("scores")
    if (end is None) != (scores is None):
        missing = "scores" if scores is None else "end"
        raise RecordError(
            "missing; a finished hand has both an end and scores",
            line=field.line,
            field=f"{field.path}.{missing}",
        )
    return _RecordedHand(
        number,
        deal,
        None if starter is None else starter.integer(),
        tuple(_parse_action(item, tile_set) for item in field.member("actions").items()),
        None if end is None else _parse_end(end, tile_set),
        None if scores is None else scores.integers(),
    )


def _parse_action(field: JsonField, tile_set: TileSet) -> _RecordedAction:
    """The action (read as the protocol's, :func:`~triominos.game.action_from_json`) and
    what the record says it made: its points, a draw's tile, a placement's bonuses."""
    player = field.member("player").integer()
    kind = field.member("action").choice(ACTION_NAMES)
    action = field.action(tile_set, player)
    if kind == "starter_draw":
        return _RecordedAction(action, Event(player, kind, 0, field.member("tile").tile(tile_set)))
    points = field.member("points").integer()
    if kind in DRAWS:
        return _RecordedAction(
            action, Event(player, kind, points, field.member("tile").tile(tile_set))
        )
    if isinstance(action, TakeJoker):
        cell = field.member("cell").cell()
        return _RecordedAction(
            action, Event(player, kind, points, action.tile, cell, action.corners)
        )
    if isinstance(action, Placement):
        bonuses = field.member("bonuses").bonuses()
        return _RecordedAction(
            action,
            Event(player, kind, points, action.tile, action.cell, action.corners, bonuses),
        )
    return _RecordedAction(action, Event(player, kind, points))


def _parse_end(field: JsonField, tile_set: TileSet) -> HandEnd:
    player = field.optional("player")
    reason = field.member("reason").choice(END_REASONS)
    return HandEnd(
        cast(EndReason, reason),
        None if player is None else player.integer(),
        field.member("settlement").integers(),
        tuple(
            # The engine lists a rack in tile order; the record's order carries no meaning.
            tuple(sorted(rack.tiles(tile_set), key=tile_set.index))
            for rack in field.member("remaining").items()
        ),
    )


# --- replaying and checking -----------------------------------------------------------


class ReplayStep(NamedTuple):
    """One replayed action, for viewers.

    ``hand`` is the live hand, not a copy: at this step its board shows the position
    after ``event``, and it moves on with the next step, so copy what must be kept.
    """

    hand_number: int
    action_index: int
    event: Event
    hand: Hand


class _Replay:
    """A parsed record and the match that replays it, checked action by action."""

    def __init__(self, document: Mapping[str, Any], index: int, line: int | None) -> None:
        self.index = index
        self.record = record = _parse_record(document, line)
        self.match = Match(
            record.rules,
            len(record.players),
            record.seed,
            deals=[hand.deal for hand in record.hands],
            starter_draws=[hand.starter_draws for hand in record.hands],
        )

    def wrong(
        self, hand: int, action: int | None, message: str, rule: str | None = None
    ) -> VerificationError:
        return VerificationError(message, record=self.index, hand=hand, action=action, rule=rule)

    def steps(self) -> Iterator[ReplayStep]:
        match, hands = self.match, self.record.hands
        for position, recorded in enumerate(hands):
            if match.is_over:
                raise self.wrong(
                    recorded.number,
                    None,
                    f"hand {recorded.number} is recorded after the match ended: "
                    f"{self._standing(recorded.number - 1)}",
                )
            hand = match.hands[position]
            for index, (action, expected) in enumerate(recorded.actions):
                self._check_turn(hand, index, expected)
                try:
                    event = match.apply(action)
                except IllegalActionError as error:
                    raise self.wrong(
                        hand.number, index, f"{error} (rule {error.rule})", error.rule
                    ) from None
                difference = _event_difference(expected, event)
                if difference is not None:
                    raise self.wrong(hand.number, index, difference)
                yield ReplayStep(hand.number, index, event, hand)
            self._check_end(hand, recorded, is_last=position == len(hands) - 1)
        self._check_result()

    def _check_turn(self, hand: Hand, index: int, expected: Event) -> None:
        if hand.end is not None:
            raise self.wrong(
                hand.number,
                index,
                f"the hand is already over ({_ending(hand.end)}); no action can follow",
            )
        if expected.player != hand.to_move and expected.action != "resign":
            raise self.wrong(
                hand.number,
                index,
                f"player {expected.player} plays, but it is player {hand.to_move}'s turn",
            )

    def _check_end(self, hand: Hand, recorded: _RecordedHand, *, is_last: bool) -> None:
        number, actions = hand.number, len(recorded.actions)
        if hand.end is None:
            if recorded.end is not None:
                raise self.wrong(
                    number,
                    None,
                    f"the hand is recorded as over, but after its {actions} actions player "
                    f"{hand.to_move} is to move",
                )
            if not is_last:
                raise self.wrong(
                    number,
                    None,
                    f"the hand is not over after its {actions} actions (player "
                    f"{hand.to_move} to move), yet hand {number + 1} is recorded",
                )
        elif recorded.end is None:
            raise self.wrong(
                number,
                None,
                f"the hand is over after its {actions} actions ({_ending(hand.end)}), "
                "but no end is recorded",
            )
        if recorded.starter != hand.starter:
            raise self.wrong(
                number,
                None,
                f"starter is {json.dumps(recorded.starter)}, the rules give "
                f"{json.dumps(hand.starter)}",
            )
        if hand.end is None or recorded.end is None:
            return
        ours, theirs = recorded.end.to_record(), hand.end.to_record()
        for key, value in ours.items():
            if value != theirs[key]:
                raise self.wrong(
                    number,
                    None,
                    f"end.{key} is {json.dumps(value)}, the rules give {json.dumps(theirs[key])}",
                )
        if recorded.scores is not None:
            self._check_scores(number, recorded.scores)

    def _check_result(self) -> None:
        match, record = self.match, self.record
        last = len(record.hands)
        if len(match.hands) > last:
            raise self.wrong(last + 1, None, f"hand {last + 1} is missing: {self._standing(last)}")
        self._check_scores(last, record.scores, final=True)
        if list(record.winners) != match.winners:
            raise self.wrong(
                last, None, f"winners are {list(record.winners)}, the rules give {match.winners}"
            )

    def _check_scores(self, hand: int, scores: Sequence[int], *, final: bool = False) -> None:
        """Recorded totals (after a hand, or the ``final`` ones) against the engine's.

        With a bank (Triominos Junior) the scores are counters: the players' and the
        bank's together are always the rule ``bank``, so no player holds fewer than 0
        and the players never hold more than all of them.
        """
        rules, totals = self.match.rules, self.match.totals
        recorded = list(scores)
        noun = "scores" if rules.bank is None else "counters"
        what = f"final {noun} are" if final else f"{noun} after the hand are"
        if rules.bank is None:
            if recorded != totals:
                raise self.wrong(hand, None, f"{what} {recorded}, the rules give {totals}")
            return
        if min(recorded, default=0) < 0:
            raise self.wrong(
                hand, None, f"{what} {recorded}: no player holds fewer than 0 counters"
            )
        if sum(recorded) > rules.bank:
            raise self.wrong(
                hand,
                None,
                f"{what} {recorded}: {sum(recorded)} in all, more than the {rules.bank} "
                "counters of the game (the players' and the bank's)",
            )
        if recorded != totals:
            raise self.wrong(
                hand,
                None,
                f"{what} {recorded} (bank {rules.bank - sum(recorded)}), the rules give "
                f"{totals} (bank {rules.bank - sum(totals)})",
            )

    def _standing(self, number: int) -> str:
        """The totals after hand ``number`` and when the match ends, to say why it goes on."""
        rules = self.match.rules
        conditions = []
        if rules.target_score is not None:
            conditions.append(f"a total reaches {rules.target_score}")
        if rules.hand_limit is not None:
            conditions.append(f"hand {rules.hand_limit} is over")
        return (
            f"the totals after hand {number} are {self.match.totals}, and the match ends "
            f"when {' or '.join(conditions)}"
        )


def _ending(end: HandEnd) -> str:
    if end.reason == "out":
        return f"player {end.player} went out"
    if end.reason == "last_round":
        return "the pool is empty and the last round is over"
    if end.reason == "target":
        return f"player {end.player} reached the target score"
    if end.reason == "resigned":
        return f"player {end.player} resigned"
    return "it is blocked"


def _event_difference(recorded: Event, engine: Event) -> str | None:
    """What the recorded event gets wrong about the engine's, or None when they agree.

    The tile, cell and corners of a placement, the card and corners of a take_joker and
    the tile of a starter draw are the action itself; what remains to check is the
    action's name (a draw is a buy when the rules have a bank), the drawn tile, where the
    joker was taken back, the points and the bonuses.
    """
    if recorded.action != engine.action:  # a draw and a buy: the same action, two names
        return (
            f"is recorded as a {recorded.action}, the rules make it a {engine.action} (taking "
            "a tile costs a counter when the rules pay in counters)"
        )
    if recorded.action in DRAWS and recorded.tile != engine.tile:
        verb, piece, pool = (
            ("buys", "card", "pot") if recorded.action == "buy" else ("draws", "tile", "pool")
        )
        return f"{verb} {recorded.tile}, but the next {piece} in the {pool} is {engine.tile}"
    if recorded.action == "take_joker" and recorded.cell != engine.cell:
        return (
            f"takes the joker back from {_cell_words(recorded.cell)}, but the joker lies at "
            f"{_cell_words(engine.cell)}"
        )
    ours, theirs = dict(recorded.bonuses), dict(engine.bonuses)
    if recorded.points != engine.points:
        message = f"points are {recorded.points}, the rules give {engine.points}"
        if ours != theirs:
            message += f" (bonuses {theirs} expected, {ours} recorded)"
        return message
    if ours != theirs:
        return f"bonuses are {ours}, the rules give {theirs}"
    return None


def load_match(document: Mapping[str, Any], *, index: int = 1, line: int | None = None) -> Match:
    """Replay a record through the engine and return the match, checking every step.

    ``index`` (the document's 1-based place in its file) goes into VerificationError,
    ``line`` (the line it starts on) into RecordError. Raises RecordError for a document
    that is not a record, VerificationError for a record whose play is wrong.
    """
    replay = _Replay(document, index, line)
    for _ in replay.steps():
        pass
    return replay.match


def verify(document: Mapping[str, Any], *, index: int = 1, line: int | None = None) -> Match:
    """Check a record against the rules: :func:`load_match`, named for the question asked."""
    return load_match(document, index=index, line=line)


def replay_steps(
    document: Mapping[str, Any], *, index: int = 1, line: int | None = None
) -> Iterator[ReplayStep]:
    """The record's actions one by one, replayed and checked as :func:`load_match` does.

    Form is checked before the first step; each step is checked before it is yielded,
    and each hand's end and the match's result after its last step.
    """
    yield from _Replay(document, index, line).steps()


# --- showing values in messages ------------------------------------------------------


def _cell_words(cell: Cell | None) -> str:
    return json.dumps(None if cell is None else cell.to_json())


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return "a number"
