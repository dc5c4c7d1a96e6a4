"""Position strings: a hand, a match or an observation as one line of text, and back.

They are to a state what FEN is to a chess position: short enough to paste into a test,
a bug report or a ``repr``, and read back exactly: ``Hand.from_text(hand.to_text()) ==
hand``, and the same for :class:`~triominos.game.Match` and
:class:`~triominos.game.Observation`.

A hand or a match is written as what it started from (a deal; for a hand resumed from
a position, a search's world, that position: ``resume`` and ``board``) and the actions
played since, not as a picture of its attributes: reading it plays the actions again
through the engine, so the state it makes is a legal one, equal to the one written down
to its undo history (it can be undone back to the deal), and a state that gains an
attribute needs no new field here. An observation is what one seat knows, with no deal
to replay from, so it is written field by field. The pool's order is in a hand's deal;
a match's deals come from its seed; a hand still in its starter draw writes the state
of the random generator those draws take (the only part of a hand's future that chance
decides).

Grammar (fields in this order, each ``name=value``, separated by ``;``; ``tile``,
``cell`` and ``move`` are those of :mod:`triominos.notation`; ``-`` is "none")::

    hand        = "rules=" rules ";number=" number ";totals=" integers
                  ";deal=" deal ";resume=" (resume / "-") ";board=" [moves]
                  ";starter=" [tiles] ";rng=" (rng / "-") ";actions=" actions
    match       = "rules=" rules ";players=" number ";seed=" number
                  ";deals=" [deal *("|" deal)] ";starter=" [tiles *("|" [tiles])]
                  ";actions=" actions *("|" actions)      ; one group a hand dealt
    observation = "rules=" rules ";seat=" (number / "-") ";players=" number
                  ";hand=" number ";phase=" phase ";to_move=" number
                  ";starter=" (number / "-") ";board=" [moves]
                  ";rack=" (tiles / "-") ";rack_sizes=" integers ";pool=" number
                  ";draws=" number ";points=" integers ";totals=" integers
                  ";end=" (end / "-") ";history=" [event *(" " event)]
                  ";open_racks=" (racks / "-") ";gong=" (number / "-")

    rules    = preset [json-object]          ; "classic", 'classic{"max_draws":1}':
                                             ; the preset, then the options that differ
    integers = integer *("," integer)
    tiles    = tile *(" " tile)
    racks    = [tiles] *("/" [tiles])        ; by seat
    deal     = racks ">" [tiles] [">" tile]  ; the racks, the pool next draw first,
                                             ; the first card (opening="pool_card");
                                             ; a resumed hand's: the position's
    moves    = move *(" " move)              ; a board: its placements and joker swaps
    resume   = number ":" number ":" number ":" [integers] ":" (number / "-")
               ":" (number / "-")            ; Hand.resume's to_move, starter, draws,
                                             ; out, last_round_by and drawn (the tile
                                             ; index drawn last this turn)
    actions  = [action *(" " action)]
    action   = move / "draw" / "pass" / "starter:" tile / "resign:" number
               / "next:" tile / "arrange:" [pooled] *("/" number "=" [pooled])
                                             ; a placement or a take-joker ("312@J");
                                             ; a starter draw and the tile it showed;
                                             ; the player who resigned; the hidden
                                             ; tiles laid anew from outside, where it
                                             ; happened: the next draw's tile
                                             ; (Hand.draw_next), or the pool and the
                                             ; racks of some seats (Hand.rearrange)
    pooled   = tile *("," tile)
    rng      = base64                        ; the Mersenne Twister's state
    event    = number ":" name ":" integer [":" [tile] [":" [cell] [":" [corners]
               [":" bonus *("," bonus)]]]]   ; player, action, points (RECORD.md)
    corners  = integer "." integer "." integer
    bonus    = name "=" integer
    end      = reason ":" (number / "-") ":" integers ":" racks
                                             ; the settlement and the racks left

A board is written as its history (the observation's ``board``: the placements and the
joker swaps in order, ``J@0,1v`` reading its corners off the board being rebuilt), as
:mod:`triominos.notation` writes positions. A malformed string raises
:class:`PositionError`, which names the field and the column where it stopped making
sense; an illegal action in it names the rule it breaks.

>>> from triominos.game import Match
>>> match = Match.from_preset("classic", players=2, seed=7)
>>> _ = match.apply(match.legal_actions()[0].action)
>>> text = match.to_text()
>>> text
'rules=classic;players=2;seed=7;deals=;starter=;actions=555@0,0^'
>>> Match.from_text(text) == match
True
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar, get_args

from triominos.board import SWAP, Board, FrozenBoard, IllegalPlacementError, Placement
from triominos.game import (
    BOARD_ACTIONS,
    DRAWS,
    Action,
    Arranged,
    Deal,
    Draw,
    EndReason,
    Event,
    Hand,
    HandEnd,
    IllegalActionError,
    Match,
    Observation,
    Pass,
    Phase,
    Resign,
    StarterDraw,
    TakeJoker,
)
from triominos.lattice import Cell
from triominos.notation import (
    NotationError,
    cell_from_text,
    cell_to_text,
    move_from_text,
    move_to_text,
    tile_from_text,
)
from triominos.rules import PRESETS, RuleOptionError, Rules, preset
from triominos.tiles import Corners, Tile, TileSet

_Value = TypeVar("_Value")

HAND_FIELDS = (
    "rules",
    "number",
    "totals",
    "deal",
    "resume",
    "board",
    "starter",
    "rng",
    "actions",
)
MATCH_FIELDS = ("rules", "players", "seed", "deals", "starter", "actions")
OBSERVATION_FIELDS = (
    "rules",
    "seat",
    "players",
    "hand",
    "phase",
    "to_move",
    "starter",
    "board",
    "rack",
    "rack_sizes",
    "pool",
    "draws",
    "points",
    "totals",
    "end",
    "history",
    "open_racks",
    "gong",
)
NONE = "-"
_STARTER = "starter:"
_RESIGN = "resign:"
_NEXT = "next:"
_ARRANGE = "arrange:"


class PositionError(ValueError):
    """A position string that cannot be read: ``field`` names the field, ``column``
    (1-based) is where in the whole text it stopped making sense."""

    def __init__(self, field: str, column: int, message: str) -> None:
        super().__init__(f"field {field!r}, column {column}: {message}")
        self.field = field
        self.column = column


# --- writing ------------------------------------------------------------------------


def rules_to_text(rules: Rules) -> str:
    """The closest preset's name, then the options that differ from it as JSON."""
    base = min(PRESETS.values(), key=lambda known: len(rules.differences(known.rules)))
    ours, theirs = rules.to_dict(), base.rules.to_dict()
    changes = {name: value for name, value in ours.items() if value != theirs[name]}
    if not changes:
        return base.name
    return base.name + json.dumps(changes, separators=(",", ":"), sort_keys=True)


def _integers(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(tile.name for tile in tiles)


def _racks(racks: Sequence[Sequence[Tile]]) -> str:
    return "/".join(map(_tiles, racks))


def _deal(deal: Deal) -> str:
    text = f"{_racks(deal.racks)}>{_tiles(deal.pool)}"
    return text if deal.first is None else f"{text}>{deal.first.name}"


def _action(event: Event) -> str:
    """The action that made ``event``, as the hand's ``actions`` write it."""
    if event.action in DRAWS:
        return "draw"
    if event.action == "pass":
        return "pass"
    if event.action == "resign":
        return f"{_RESIGN}{event.player}"
    assert event.tile is not None
    if event.action == "starter_draw":
        return _STARTER + event.tile.name
    move = event.action_made()
    assert isinstance(move, Placement | TakeJoker)
    return move_to_text(move)


def _arrangement(tile_set: TileSet, arranged: Arranged) -> str:
    tiles = tile_set.tiles
    if arranged.next_only:
        return _NEXT + tiles[arranged.pool[0]].name
    racks = "".join(
        f"/{seat}={','.join(tile.name for tile in tile_set.tiles_in(rack))}"
        for seat, rack in arranged.racks
    )
    return _ARRANGE + ",".join(tiles[index].name for index in arranged.pool) + racks


def _actions(hand: Hand) -> str:
    """The actions, and the rearrangements after the actions they followed."""
    written = list(map(_action, hand.events))
    for arranged in reversed(hand._arranged):  # from the last: the indices stay right
        written.insert(arranged.after, _arrangement(hand.tile_set, arranged))
    return " ".join(written)


def _rng(rng: random.Random) -> str:
    version, state, gauss = rng.getstate()
    if version != 3 or gauss is not None:
        raise ValueError("only a generator used by choice() alone has a position string")
    return base64.b64encode(b"".join(n.to_bytes(4, "big") for n in state)).decode()


def _resume(hand: Hand) -> tuple[str, str]:
    """The ``resume`` and ``board`` fields: how :meth:`Hand.resume` set the hand up, and
    the board it was given (the board's log less what the hand's own actions did)."""
    if hand._resumed is None:
        return NONE, ""
    to_move, starter, draws, out, last, drawn = hand._resumed
    played = sum(1 for event in hand.events if event.action in BOARD_ACTIONS)
    log = hand.board.log
    last_text = NONE if last is None else str(last)
    drawn_text = NONE if drawn is None else str(drawn)
    resume = f"{to_move}:{starter}:{draws}:{_integers(out)}:{last_text}:{drawn_text}"
    return resume, _moves(hand.tile_set, log[: len(log) - played])


def hand_to_text(hand: Hand) -> str:
    """:meth:`Hand.to_text`: see the module docstring."""
    remaining = hand._starter_tiles[hand._starter_next :]
    rng = hand._rng if hand.phase == "starter_draw" and hand._rng is not None else None
    fields = (
        rules_to_text(hand.rules),
        str(hand.number),
        _integers(hand.start_totals),
        _deal(hand.deal),
        *_resume(hand),
        _tiles(remaining) if hand.phase == "starter_draw" else "",
        NONE if rng is None else _rng(rng),
        _actions(hand),
    )
    return _join(HAND_FIELDS, fields)


def match_to_text(match: Match) -> str:
    """:meth:`Match.to_text`: see the module docstring."""
    fields = (
        rules_to_text(match.rules),
        str(match.players),
        str(match.seed),
        "|".join(map(_deal, match.deals)),
        "|".join(map(_tiles, match.starter_draws)),
        "|".join(map(_actions, match.hands)),
    )
    return _join(MATCH_FIELDS, fields)


def _event(event: Event) -> str:
    parts = [str(event.player), event.action, str(event.points)]
    parts.append("" if event.tile is None else event.tile.name)
    parts.append("" if event.cell is None else cell_to_text(event.cell))
    parts.append("" if event.corners is None else ".".join(map(str, event.corners)))
    parts.append(",".join(f"{name}={points}" for name, points in event.bonuses))
    while parts[-1] == "":
        parts.pop()
    return ":".join(parts)


def _end(end: HandEnd) -> str:
    player = NONE if end.player is None else str(end.player)
    return f"{end.reason}:{player}:{_integers(end.settlement)}:{_racks(end.remaining)}"


def _moves(tile_set: TileSet, log: Sequence[tuple[int, int, Corners]]) -> str:
    """A board's log as moves: placements, and joker swaps as take-jokers (``312@J``)."""
    tiles = tile_set.tiles
    moves: list[str] = []
    for cell, tile, corners in log:
        if cell == SWAP:
            moves.append(move_to_text(TakeJoker(tiles[tile], corners)))
        else:
            moves.append(move_to_text(Placement(tiles[tile], Cell.from_id(cell), corners)))
    return " ".join(moves)


def observation_to_text(observation: Observation) -> str:
    """:meth:`Observation.to_text`: see the module docstring."""
    tile_set = observation.board.tile_set

    def optional(value: int | None) -> str:
        return NONE if value is None else str(value)

    rack = observation.rack
    open_racks = observation.open_racks
    fields = (
        rules_to_text(observation.rules),
        optional(observation.seat),
        str(observation.players),
        str(observation.hand_number),
        observation.phase,
        str(observation.to_move),
        optional(observation.starter),
        _moves(tile_set, observation.board.log),
        NONE if rack is None else _tiles(tile_set.tiles_in(rack)),
        _integers(observation.rack_sizes),
        str(observation.pool_size),
        str(observation.draws),
        _integers(observation.hand_points),
        _integers(observation.totals),
        NONE if observation.end is None else _end(observation.end),
        " ".join(map(_event, observation.history)),
        NONE if open_racks is None else _racks([tile_set.tiles_in(rack) for rack in open_racks]),
        optional(observation.gong),
    )
    return _join(OBSERVATION_FIELDS, fields)


def _join(names: Sequence[str], values: Sequence[str]) -> str:
    return ";".join(f"{name}={value}" for name, value in zip(names, values, strict=True))


# --- reading ------------------------------------------------------------------------


class _Part:
    """A piece of the text and where it starts in the whole, to name in errors."""

    def __init__(self, field: str, text: str, start: int) -> None:
        self.field, self.text, self.start = field, text, start

    def error(self, message: str, offset: int = 0) -> PositionError:
        return PositionError(self.field, self.start + offset + 1, message)

    def split(self, separator: str) -> list[_Part]:
        """The pieces between separators (one empty piece for an empty text)."""
        parts, at = [], 0
        for piece in self.text.split(separator):
            parts.append(_Part(self.field, piece, self.start + at))
            at += len(piece) + len(separator)
        return parts

    def items(self, separator: str = " ") -> list[_Part]:
        """The pieces between separators; none for an empty text."""
        return [] if not self.text else self.split(separator)

    def read(self, parse: Callable[[str], _Value], what: str) -> _Value:
        """``parse(text)``, an error naming ``what`` when it fails."""
        try:
            return parse(self.text)
        except NotationError as error:
            raise self.error(f"{what}: {error.message}", error.column - 1) from None
        except ValueError as error:
            raise self.error(f"{what}: {error}") from None

    def integer(self, what: str = "a whole number") -> int:
        if not self.text.lstrip("-").isdigit() or self.text.count("-") > 1:
            raise self.error(f"expected {what}, found {self.text!r}")
        return int(self.text)

    def number(self, what: str = "a number") -> int:
        value = self.integer(what)
        if value < 0:
            raise self.error(f"expected {what}, found {self.text!r}")
        return value

    def optional(self) -> int | None:
        return None if self.text == NONE else self.number()

    def integers(self) -> tuple[int, ...]:
        return tuple(part.integer() for part in self.split(","))

    def tile(self, tile_set: TileSet) -> Tile:
        return self.read(lambda text: tile_from_text(text, tile_set), "a tile")

    def tiles(self, tile_set: TileSet) -> tuple[Tile, ...]:
        return tuple(part.tile(tile_set) for part in self.items())

    def racks(self, tile_set: TileSet) -> tuple[tuple[Tile, ...], ...]:
        return tuple(part.tiles(tile_set) for part in self.split("/"))


def _fields(text: str, names: Sequence[str]) -> dict[str, _Part]:
    """The fields of ``text``, which must be exactly ``names`` in that order."""
    if not isinstance(text, str):
        raise PositionError(names[0], 1, f"a position string is text, not {type(text).__name__}")
    fields: dict[str, _Part] = {}
    at = 0
    pieces = text.split(";")
    for number, name in enumerate(names):
        if number >= len(pieces):
            raise PositionError(name, len(text) + 1, f"missing field {name!r}")
        piece = pieces[number]
        key, equals, value = piece.partition("=")
        if key != name or not equals:
            raise PositionError(name, at + 1, f"expected {name}=..., found {piece[:20]!r}")
        fields[name] = _Part(name, value, at + len(name) + 1)
        at += len(piece) + 1
    if len(pieces) > len(names):
        raise PositionError(names[-1], at, f"unexpected text after {names[-1]!r}")
    return fields


def _rules(part: _Part) -> Rules:
    name, brace, changes = part.text.partition("{")
    try:
        base = preset(name)
    except RuleOptionError as error:
        raise part.error(str(error)) from None
    if not brace:
        return base.rules
    try:
        values = json.loads(brace + changes)
    except json.JSONDecodeError as error:
        raise part.error(f"the options that differ: {error.msg}", len(name) + error.pos) from None
    if not isinstance(values, dict):
        raise part.error("the options that differ are a JSON object", len(name))
    try:
        return Rules.from_dict(base.rules.to_dict() | values)
    except (RuleOptionError, TypeError) as error:
        raise part.error(f"option {error}", len(name)) from None


def _deal_from(part: _Part, rules: Rules, players: int | None = None, whole: bool = True) -> Deal:
    """The deal ``part`` writes; ``whole``: checked to be a whole deal for ``rules`` (a
    resumed hand's is a position's racks and pool, a part of the tiles)."""
    pieces = part.split(">")
    if len(pieces) not in (2, 3):
        raise part.error("a deal is racks '>' pool, and '>' the first card if any")
    tile_set = rules.tiles
    racks = pieces[0].racks(tile_set)
    if players is not None and len(racks) != players:
        raise part.error(f"{len(racks)} racks for {players} players")
    first = pieces[2].tile(tile_set) if len(pieces) == 3 else None
    deal = Deal(racks, pieces[1].tiles(tile_set), first)
    try:
        rules.check_players(len(racks))
        if whole:
            deal.check(rules)
    except RuleOptionError as error:
        raise part.error(str(error)) from None
    return deal


def _starter_tiles(actions: Sequence[_Part], tile_set: TileSet) -> list[Tile]:
    return [
        _Part(part.field, part.text[len(_STARTER) :], part.start + len(_STARTER)).tile(tile_set)
        for part in actions
        if part.text.startswith(_STARTER)
    ]


def _arrange(hand: Hand, part: _Part) -> None:
    """Lay the hidden tiles anew as the rearrangement ``part`` writes."""
    tile_set = hand.tile_set

    def tiles(piece: _Part) -> list[int]:
        return [tile_set.index(tile.tile(tile_set)) for tile in piece.items(",")]

    try:
        if part.text.startswith(_NEXT):
            tile = _Part(part.field, part.text[len(_NEXT) :], part.start + len(_NEXT))
            hand.draw_next(tile_set.index(tile.tile(tile_set)))
            return
        pool, *seats = _Part(
            part.field, part.text[len(_ARRANGE) :], part.start + len(_ARRANGE)
        ).split("/")
        racks = {}
        for seat in seats:
            number, equals, rack = seat.text.partition("=")
            if not equals:
                raise seat.error("a rack laid anew is seat=tiles")
            at = seat.start + len(number) + 1
            racks[_Part(part.field, number, seat.start).number("a seat")] = tile_set.mask(
                tile_set.tiles[index] for index in tiles(_Part(part.field, rack, at))
            )
        hand.rearrange(tiles(pool), racks)
    except ValueError as error:
        if isinstance(error, PositionError):
            raise
        raise part.error(f"cannot lay the tiles so: {error}") from None


def _play(hand: Hand, apply: Callable[[Action], Event], part: _Part) -> None:
    """Play the action ``part`` writes in ``hand`` (through ``apply``: a match's moves on
    to the next hand); a starter draw must show the tile it names."""
    text = part.text
    board = hand.board
    action: Action
    if text.startswith((_NEXT, _ARRANGE)):
        _arrange(hand, part)
        return
    if text == "draw":
        action = Draw()
    elif text == "pass":
        action = Pass()
    elif text.startswith(_STARTER):
        action = StarterDraw()
    elif text.startswith(_RESIGN):
        resigning = _Part(part.field, text[len(_RESIGN) :], part.start + len(_RESIGN))
        action = Resign(resigning.number("the player who resigns"))
    else:
        action = part.read(lambda text: move_from_text(text, board), "an action")
    try:
        event = apply(action)
    except IllegalActionError as error:
        raise part.error(f"illegal action {text!r}: {error} (rule {error.rule})") from None
    if text.startswith(_STARTER) and event.tile is not None:
        shown = _Part(part.field, text[len(_STARTER) :], part.start + len(_STARTER))
        if event.tile != shown.tile(board.tile_set):
            raise part.error(f"the starter draw shows {event.tile}, not {shown.text}")


def hand_from_text(text: str) -> Hand:
    """:meth:`Hand.from_text`: see the module docstring."""
    fields = _fields(text, HAND_FIELDS)
    rules = _rules(fields["rules"])
    tile_set = rules.tiles
    number = fields["number"].number()
    totals = fields["totals"].integers()
    resume = fields["resume"]
    deal = _deal_from(fields["deal"], rules, whole=resume.text == NONE)
    if len(totals) != len(deal.racks):
        raise fields["totals"].error(f"{len(totals)} totals for {len(deal.racks)} players")
    actions = fields["actions"].items()
    hand: Hand
    if resume.text == NONE:
        shown = _starter_tiles(actions, tile_set)
        remaining = fields["starter"].tiles(tile_set)
        hand = Hand(rules, deal, number=number, starter_tiles=[*shown, *remaining], totals=totals)
    else:
        board = _board_from(fields["board"], tile_set)
        hand = _resumed(resume, rules, board, deal, number, totals)
    for part in actions:
        _play(hand, hand.apply, part)
    rng_part = fields["rng"]
    if rng_part.text != NONE:
        hand._rng = rng_part.read(_rng_from, "the random generator's state")
    return hand


def _resumed(
    part: _Part, rules: Rules, board: Board, deal: Deal, number: int, totals: tuple[int, ...]
) -> Hand:
    """The hand :meth:`Hand.resume` made from the position ``part`` and ``board`` write."""
    pieces = part.split(":")
    if len(pieces) != 6:
        raise part.error("a resumed hand is to_move:starter:draws:out:last_round_by:drawn")
    to_move, starter, draws, out, last, drawn = pieces
    tile_set = board.tile_set
    return Hand.resume(
        rules,
        board,
        [tile_set.mask(rack) for rack in deal.racks],
        [tile_set.index(tile) for tile in deal.pool],
        to_move=to_move.number(),
        starter=starter.number(),
        draws=draws.number(),
        out=[piece.number() for piece in out.items(",")],
        number=number,
        totals=totals,
        last_round_by=last.optional(),
        drawn=drawn.optional(),
    )


def _rng_from(text: str) -> random.Random:
    state = base64.b64decode(text.encode(), validate=True)
    if len(state) != 625 * 4:
        raise ValueError(f"{len(state)} bytes, not the {625 * 4} of a Mersenne Twister")
    numbers = tuple(int.from_bytes(state[i : i + 4], "big") for i in range(0, len(state), 4))
    rng = random.Random()
    rng.setstate((3, numbers, None))
    return rng


def match_from_text(text: str) -> Match:
    """:meth:`Match.from_text`: see the module docstring."""
    fields = _fields(text, MATCH_FIELDS)
    rules = _rules(fields["rules"])
    players = fields["players"].number()
    try:
        rules.check_players(players)
    except RuleOptionError as error:
        raise fields["players"].error(str(error)) from None
    seed = fields["seed"].number()
    deals = [_deal_from(part, rules, players) for part in fields["deals"].items("|")]
    starter = [part.tiles(rules.tiles) for part in fields["starter"].items("|")]
    match = Match(rules, players, seed, deals, starter)
    hands = fields["actions"].split("|")
    for number, group in enumerate(hands, start=1):
        if number > 1 and len(match.hands) < number:
            raise group.error(f"hand {number - 1} is not over: no hand {number} to play")
        for part in group.items():
            if len(match.hands) > number or match.is_over:
                raise part.error(f"hand {number} is over: no more actions in it")
            _play(match.hand, match.apply, part)
    if len(match.hands) > len(hands):
        raise fields["actions"].error(
            f"hand {len(hands)} is over: a '|' and the next hand's actions, if any, follow",
            len(fields["actions"].text),
        )
    return match


def _event_from(part: _Part, tile_set: TileSet) -> Event:
    pieces = part.split(":")
    if not 3 <= len(pieces) <= 7:
        raise part.error("an event is player:action:points, then tile:cell:corners:bonuses")
    pieces += [_Part(part.field, "", part.start + len(part.text))] * (7 - len(pieces))
    player, action, points, tile, cell, corners, bonuses = pieces
    tile_value = tile.tile(tile_set) if tile.text else None
    cell_value = cell.read(cell_from_text, "a cell") if cell.text else None
    corner_values: Corners | None = None
    if corners.text:
        numbers = [piece.integer("a corner's number") for piece in corners.split(".")]
        if len(numbers) != 3:
            raise corners.error("three corners, like 5.4.5")
        corner_values = (numbers[0], numbers[1], numbers[2])
    bonus_values = []
    for bonus in bonuses.items(","):
        name, equals, value = bonus.text.partition("=")
        if not equals:
            raise bonus.error("a bonus is name=points")
        bonus_values.append((name, _Part(part.field, value, bonus.start + len(name) + 1).integer()))
    return Event(
        player.number("the player"),
        action.text,
        points.integer("the points"),
        tile_value,
        cell_value,
        corner_values,
        tuple(bonus_values),
    )


def _end_from(part: _Part, tile_set: TileSet) -> HandEnd | None:
    if part.text == NONE:
        return None
    pieces = part.split(":")
    if len(pieces) != 4:
        raise part.error("an end is reason:player:settlement:racks left")
    reason, player, settlement, remaining = pieces
    reasons = get_args(EndReason)
    if reason.text not in reasons:
        raise reason.error(f"an end's reason is one of {', '.join(reasons)}, not {reason.text!r}")
    return HandEnd(
        reason.text,  # type: ignore[arg-type]  # checked just above
        player.optional(),
        settlement.integers(),
        remaining.racks(tile_set),
    )


def _board_from(part: _Part, tile_set: TileSet) -> Board:
    """The board of the moves of ``part``, each checked as it is made."""
    board = Board(tile_set)
    for move in part.items():
        action = move.read(lambda text: move_from_text(text, board), "a move")
        try:
            if isinstance(action, TakeJoker):
                index = tile_set.index(action.tile)
                if (index, action.corners) not in board.joker_swaps(1 << index):
                    raise move.error(f"{move.text} does not fit exactly where the joker lies")
                board.swap_joker(index, action.corners)
            else:
                board.push(action)
        except IllegalPlacementError as error:
            raise move.error(f"illegal placement: {error} (rule {error.rule})") from None
    return board


def observation_from_text(text: str) -> Observation:
    """:meth:`Observation.from_text`: see the module docstring."""
    fields = _fields(text, OBSERVATION_FIELDS)
    rules = _rules(fields["rules"])
    tile_set = rules.tiles
    phase = fields["phase"].text
    if phase not in get_args(Phase):
        raise fields["phase"].error(f"a phase is one of {', '.join(get_args(Phase))}")
    rack = fields["rack"]
    open_racks = fields["open_racks"]

    def mask(tiles: Iterator[Tile] | tuple[Tile, ...]) -> int:
        return tile_set.mask(tiles)

    return Observation(
        rules,
        fields["seat"].optional(),
        fields["players"].number(),
        fields["hand"].number(),
        phase,  # type: ignore[arg-type]  # checked above
        fields["to_move"].number(),
        fields["starter"].optional(),
        FrozenBoard.owning(_board_from(fields["board"], tile_set)),
        None if rack.text == NONE else mask(rack.tiles(tile_set)),
        fields["rack_sizes"].integers(),
        fields["pool"].number(),
        fields["draws"].number(),
        fields["points"].integers(),
        fields["totals"].integers(),
        _end_from(fields["end"], tile_set),
        tuple(_event_from(part, tile_set) for part in fields["history"].items()),
        None if open_racks.text == NONE else tuple(map(mask, open_racks.racks(tile_set))),
        fields["gong"].optional(),
    )
