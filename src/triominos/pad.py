"""The score pad: the points of a match played with real tiles, by the engine's rules.

Seeds 002 and 003 keep the score of a game on a score block ("Bloc de score pour noter
les points"). A :class:`Pad` is that block with the rules in it: the players name what
happened at the table (a tile laid and its figure, a draw, a pass, the end of a hand)
and the pad scores each entry with the engine's own functions (:func:`opening_points`,
:func:`placement_points`, :func:`pass_penalty`, :func:`settle`), so a hand entered here
scores exactly what the engine would have scored for it.

The pad cannot see the tiles, but it counts them: every rack starts at the deal's size,
a draw adds to it and a lay takes one away, and the pool shrinks by each draw. From the
counts it knows the last tile of a rack (Junior's reward, going out), when the pool is
empty (a pass without drawing, a blocked hand, Junior's last round) and how much a rack
can hold at the settlement. An entry the rules or the counts rule out is refused with a
:class:`PadError` naming the entry's field; :meth:`Pad.undo` takes back the last entry.

Entries are plain data with a JSON form (:func:`entry_from_json`); :meth:`Pad.to_json`
and :meth:`Pad.from_json` round-trip a whole pad by replaying its entries.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, replace
from typing import Any, Literal

from triominos.board import FIGURES
from triominos.game import (
    EndReason,
    match_ends,
    may_draw,
    opening_points,
    pass_penalty,
    placement_points,
    settle,
)
from triominos.rules import PRESETS, RuleOptionError, Rules, preset
from triominos.tiles import JOKER, Tile, TileError

FORMAT = "triominos-pad/1"
MAX_NAME = 40
MAX_NOTE = 200
MAX_CORRECTION = 10_000


REFUSALS: tuple[str, ...] = (
    "match_over",
    "match_stopped",
    "nothing_to_undo",
    "already_stopped",
    "awaiting_out",
    "awaiting_last_round",
    "no_such_player",
    "can_still_draw",
    "opening_first",
    "no_tile_left",
    "no_such_figure",
    "no_figure_bonus",
    "opening_no_figure",
    "wrong_value",
    "no_such_value",
    "tile_or_value",
    "already_laid",
    "name_the_opening",
    "not_a_tile",
    "not_in_set",
    "draw_at_least_one",
    "max_draws",
    "pool_short",
    "buy_cost",
    "no_joker",
    "joker_not_laid",
    "going_out_ends_nothing",
    "still_holds",
    "out_first",
    "round_not_over",
    "settle_going_out",
    "last_round_begun",
    "pool_not_empty",
    "last_round_not_begun",
    "racks_needed",
    "racks_count",
    "rack_negative",
    "rack_too_high",
    "correction_range",
    "note_too_long",
    "bank_counters",
)
"""Every reason the pad gives for refusing an entry: the page shows it in the player's
language from ``refusal.<key>`` of the pad's six locales, with the error's ``params``."""


class PadError(ValueError):
    """An entry, a player list or a pad document the pad refuses; ``field`` names the
    offending field (``"tile"``, ``"count"``, ``"player"``, ``"kind"`` for an entry that
    is not allowed now, ...). A refusal of an entry at the table also has a ``key`` of
    :data:`REFUSALS` and its ``params`` (names, numbers), so that the page says why in
    every language; the message is the English of the API."""

    def __init__(
        self, field: str, message: str, key: str | None = None, **params: str | int
    ) -> None:
        super().__init__(f"{field}: {message}")
        assert key is None or key in REFUSALS, key
        self.field = field
        self.reason = message
        self.key = key
        self.params = params


# --- entries ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lay:
    """A tile laid: named by its numbers (``"1-2-4"``, any reading order for a set
    without mirror tiles) or by its value, with the figure it made (``"bridge"``,
    ``"hexagon"``, ``"double_hexagon"``, ``"triple_hexagon"``, ``"two_sides"``).

    With one point a tile (children's scoring, Junior) neither is needed."""

    player: int
    tile: str | None = None
    value: int | None = None
    figure: str | None = None


@dataclass(frozen=True, slots=True)
class DrawTiles:
    """``count`` tiles taken from the pool in one turn (a buy with a bank, Junior)."""

    player: int
    count: int = 1


@dataclass(frozen=True, slots=True)
class PassTurn:
    """The turn ends without a tile laid: after the last draw allowed, or with an empty
    pool."""

    player: int


@dataclass(frozen=True, slots=True)
class TakeJoker:
    """Triominos Junior: a card of the rack put where the joker lay, the joker taken to
    the rack. Scores nothing; ``tile`` (optional) is the card put down."""

    player: int
    tile: str | None = None


@dataclass(frozen=True, slots=True)
class GoOut:
    """The hand ends because ``player`` emptied the rack first; ``remaining`` is every
    seat's rack total then (0 for an empty rack), needed when going out collects them."""

    player: int
    remaining: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Blocked:
    """The hand ends because nobody can play; ``remaining`` is every seat's rack total,
    needed when the rules settle a blocked hand."""

    remaining: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LastRound:
    """Triominos Junior: the last round after the pool's last card is over."""


@dataclass(frozen=True, slots=True)
class Correction:
    """Points given to (or, negative, taken from) a player by hand, with a note why."""

    player: int
    points: int
    note: str = ""


Entry = Lay | DrawTiles | PassTurn | TakeJoker | GoOut | Blocked | LastRound | Correction

ENTRY_KINDS: dict[str, type[Entry]] = {
    "lay": Lay,
    "draw": DrawTiles,
    "pass": PassTurn,
    "take_joker": TakeJoker,
    "go_out": GoOut,
    "blocked": Blocked,
    "last_round": LastRound,
    "correction": Correction,
}
"""Each entry's ``kind`` in its JSON form."""

_KIND_OF: dict[type[Entry], str] = {cls: kind for kind, cls in ENTRY_KINDS.items()}

FIGURE_NAMES: tuple[str, ...] = tuple(name for name in FIGURES if name is not None)


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The entry as a JSON object: ``kind`` and the entry's fields."""
    data: dict[str, Any] = {"kind": _KIND_OF[type(entry)]}
    for name in entry.__dataclass_fields__:
        value = getattr(entry, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def entry_from_json(data: object) -> Entry:
    """An entry from its JSON form; a missing or mistyped field is a PadError naming it."""
    if not isinstance(data, Mapping):
        raise PadError("entry", f"an entry is a JSON object with a kind, not {data!r}")
    kind = data.get("kind")
    cls = ENTRY_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise PadError("kind", f"must be one of {', '.join(ENTRY_KINDS)}, not {kind!r}")
    fields = cls.__dataclass_fields__
    unknown = sorted(set(data) - set(fields) - {"kind"})
    if unknown:
        raise PadError(unknown[0], f"is not a field of a {kind} entry")
    values: dict[str, Any] = {}
    for name, spec in fields.items():
        if name not in data or data[name] is None:
            if spec.default is MISSING:
                raise PadError(name, f"a {kind} entry needs {name}")
            continue
        values[name] = _field_value(name, data[name])
    return cls(**values)


def _field_value(name: str, value: object) -> object:
    """One entry field checked for its JSON type."""
    if name in ("player", "value", "count", "points"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PadError(name, f"must be a whole number, not {value!r}")
        return value
    if name == "remaining":
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise PadError(name, f"must be a list of whole numbers, one a player, not {value!r}")
        return tuple(value)
    if not isinstance(value, str):
        raise PadError(name, f"must be a string, not {value!r}")
    return value


# --- what the pad keeps -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scored:
    """An entry as the pad scored it: the change to each seat and the bonuses in it."""

    entry: Entry
    hand: int
    points: tuple[int, ...]
    bonuses: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            **entry_to_json(self.entry),
            "hand": self.hand,
            "points": list(self.points),
            "bonuses": dict(self.bonuses),
        }


@dataclass(frozen=True, slots=True)
class PadHandEnd:
    """How a hand ended, as the record's ``end`` says it, with rack totals for racks."""

    reason: EndReason
    player: int | None
    settlement: tuple[int, ...]
    remaining: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "player": self.player,
            "settlement": list(self.settlement),
            "remaining": list(self.remaining),
        }


Awaiting = Literal["out", "last_round"]


@dataclass
class HandSheet:
    """One hand on the pad: its entries, what it gave each seat, and the counts so far."""

    number: int
    racks: list[int]
    """Tiles in each rack by the pad's count."""
    pool: int
    """Tiles left in the pool by the pad's count."""
    points: list[int]
    entries: list[Scored] = field(default_factory=list)
    starter: int | None = None
    laid: set[Tile] = field(default_factory=set)
    """Tiles named in this hand's lays (lays by value alone are not in it)."""
    out: list[int] = field(default_factory=list)
    turn_player: int | None = None
    draws: int = 0
    """Tiles ``turn_player`` drew in the turn being played."""
    to_move: int | None = None
    awaiting: Awaiting | None = None
    """The settlement the hand is waiting for: the rules have ended it."""
    last_round_by: int | None = None
    last_round_armed: bool = False
    gong: int | None = None
    """The seat whose running total reached the target first in this hand, when that
    ends the match (``match_end`` ``gong`` or ``first_to_target``), as ``Hand.gong``."""
    end: PadHandEnd | None = None

    @property
    def is_over(self) -> bool:
        return self.end is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "starter": self.starter,
            "points": list(self.points),
            "entries": [scored.to_json() for scored in self.entries],
            "gong": self.gong,
            "end": None if self.end is None else self.end.to_json(),
        }


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's part of a match, for the statistics."""

    seat: int
    name: str
    total: int
    won: bool
    hands: tuple[int, ...]
    """The points of each finished hand."""
    bonuses: Mapping[str, int]
    """How many placements earned each bonus."""


# --- the pad ------------------------------------------------------------------------


class Pad:
    """A score sheet for one match at a real table, under ``rules``.

    ``totals`` are the totals after the finished hands; ``running_totals`` include the
    hand being played. Like :class:`triominos.game.Match`, a finished hand is followed at
    once by the next, and the match ends as ``match_end`` says when a total reaches the
    target (after the hand, seed 002's "gong", or at once) or after ``hand_limit`` hands.
    :meth:`stop` ends a match early where it stands.
    """

    def __init__(self, rules: Rules, players: Sequence[str], preset: str | None = None) -> None:
        self.rules = rules
        self.players = _check_names(rules, players)
        self.preset = preset
        self._entries: list[Entry] = []
        self._reset()

    def _reset(self) -> None:
        self.hands: list[HandSheet] = []
        self.totals = [self.rules.starting_score] * len(self.players)
        self.stopped = False
        self._start_hand()

    def __repr__(self) -> str:
        return (
            f"<Pad {self.preset or 'custom'} {', '.join(self.players)}: "
            f"hand {self.hand.number}, totals {self.running_totals}>"
        )

    # --- reading the sheet --------------------------------------------------------

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    @property
    def hand(self) -> HandSheet:
        """The hand being played (the last one once the match is over)."""
        return self.hands[-1]

    @property
    def running_totals(self) -> list[int]:
        hand = self.hand
        if hand.is_over:
            return list(self.totals)
        return [total + points for total, points in zip(self.totals, hand.points, strict=True)]

    @property
    def bank(self) -> int | None:
        """Counters left in the bank (rules with a bank, Junior)."""
        return None if self.rules.bank is None else self.rules.bank - sum(self.running_totals)

    @property
    def is_over(self) -> bool:
        if self.stopped:
            return True
        hand = self.hand
        return hand.is_over and match_ends(
            self.rules, self.totals, len(self.hands), hand.gong is not None
        )

    @property
    def winners(self) -> list[int]:
        """The seats with the highest total once the match is over."""
        if not self.is_over:
            return []
        totals = self.running_totals
        return [seat for seat, total in enumerate(totals) if total == max(totals)]

    @property
    def final_hand(self) -> bool:
        """Whether the hand being played is the last as things stand: the gong rang in it
        (``match_end="gong"``: for good), a running total is at the target (after the
        hand, it may fall back), or it is the last hand allowed."""
        if self.is_over:
            return False
        target, limit = self.rules.target_score, self.rules.hand_limit
        reached = target is not None and max(self.running_totals) >= target
        return (
            self.hand.gong is not None
            or reached
            or (limit is not None and self.hand.number >= limit)
        )

    # --- entering -----------------------------------------------------------------

    def add(self, entry: Entry) -> Scored:
        """Score ``entry`` and write it on the sheet; a PadError leaves the pad as it was."""
        if self.is_over:
            raise PadError("kind", "the match is over: no more entries", "match_over")
        if isinstance(entry, Lay) and entry.tile is not None:
            # Kept by the tile's own name ("1-2-3"), however the numbers were read out.
            entry = replace(entry, tile=str(self._parse_tile(entry.tile)))
        try:
            scored = self._apply(entry)
        except PadError:
            self._replay()  # a refused entry may have moved a count before it failed
            raise
        self._entries.append(entry)
        return scored

    def undo(self) -> Entry:
        """Take back the last entry (the sheet is rebuilt from the others)."""
        if self.stopped:
            raise PadError("kind", "the match was stopped: its sheet is final", "match_stopped")
        if not self._entries:
            raise PadError("kind", "there is no entry to undo", "nothing_to_undo")
        entry = self._entries.pop()
        self._replay()
        return entry

    def stop(self) -> None:
        """End the match where it stands: the highest running total wins."""
        if self.stopped:
            raise PadError("kind", "the match was already stopped", "already_stopped")
        self.stopped = True

    def _replay(self) -> None:
        """The sheet rebuilt from the entries."""
        stopped = self.stopped
        self._reset()
        for entry in self._entries:
            self._apply(entry)
        self.stopped = stopped

    def _start_hand(self) -> None:
        rules, players = self.rules, len(self.players)
        size = rules.rack_size(players)
        first_card = 1 if rules.opening == "pool_card" else 0
        self.hands.append(
            HandSheet(
                number=len(self.hands) + 1,
                racks=[size] * players,
                pool=len(rules.box) - size * players - first_card,
                points=[0] * players,
                # Junior: the first card comes from the pool and seat 0 begins.
                starter=0 if first_card else None,
                to_move=0 if first_card else None,
            )
        )

    def _apply(self, entry: Entry) -> Scored:
        hand = self.hand
        bonuses: dict[str, int] = {}
        if isinstance(entry, Correction):
            points = self._correction(entry)
        elif isinstance(entry, (GoOut, Blocked, LastRound)):
            points = self._end_hand(entry)
        else:
            if hand.awaiting is not None:
                raise self._awaiting_refusal(hand.awaiting)
            player = self._check_player(entry.player)
            change, bonuses = self._turn(entry, hand)
            points = tuple(change if seat == player else 0 for seat in range(len(self.players)))
        scored = Scored(entry, hand.number, points, bonuses)
        hand.entries.append(scored)
        if hand.end is None:
            for seat, change in enumerate(points):
                hand.points[seat] += change
            if self._ring_gong(hand) and self.rules.match_end == "first_to_target":
                zeros = (0,) * len(self.players)  # seed 003: the match ends at once
                hand.end = PadHandEnd("target", hand.gong, zeros, zeros)
        if hand.end is not None:
            for seat, change in enumerate(hand.points):
                self.totals[seat] += change
            if not self.is_over:
                self._start_hand()
        return scored

    def _ring_gong(self, hand: HandSheet) -> bool:
        """Whether the totals with this hand's points ring the engine's gong now: the
        highest seat at the target rings it (``Hand.gong``), once a hand."""
        rules, target = self.rules, self.rules.target_score
        if rules.match_end == "after_hand" or target is None or hand.gong is not None:
            return False
        totals = [total + points for total, points in zip(self.totals, hand.points, strict=True)]
        if max(totals) < target:
            return False
        hand.gong = totals.index(max(totals))
        return True

    def _awaiting_refusal(self, awaiting: Awaiting) -> PadError:
        if awaiting == "out":
            name = self.players[self.hand.out[0]]
            return PadError(
                "kind",
                f"{name} went out and the hand is over: enter the settlement (go_out)",
                "awaiting_out",
                name=name,
            )
        return PadError(
            "kind", "the last round is over: end the hand (last_round)", "awaiting_last_round"
        )

    def _check_player(self, player: int) -> int:
        if not 0 <= player < len(self.players):
            raise PadError(
                "player",
                f"must be a seat from 0 to {len(self.players) - 1}, not {player}",
                "no_such_player",
            )
        return player

    def _turn(
        self, entry: Lay | DrawTiles | PassTurn | TakeJoker, hand: HandSheet
    ) -> tuple[int, dict[str, int]]:
        """A turn's entry checked against the counts and scored; the counts move on."""
        player = entry.player
        if hand.turn_player != player:
            hand.turn_player, hand.draws = player, 0
        if isinstance(entry, Lay):
            return self._lay(entry, hand)
        if hand.starter is None:
            raise PadError(
                "kind", "the hand begins with the opening tile: enter it first", "opening_first"
            )
        if isinstance(entry, DrawTiles):
            return self._draw(entry, hand), {}
        if isinstance(entry, PassTurn):
            balance = self.running_totals[player]
            if may_draw(self.rules, hand.draws, hand.pool, balance):
                raise PadError(
                    "kind",
                    f"{self.players[player]} can still draw: a player who does not lay "
                    "draws, and passes only after the last draw allowed or with an empty pool",
                    "can_still_draw",
                    name=self.players[player],
                )
            penalty = pass_penalty(self.rules, hand.draws, hand.pool)
            self._end_turn(hand, player)
            return -penalty, {}
        return self._take_joker(entry, hand), {}

    def _lay(self, entry: Lay, hand: HandSheet) -> tuple[int, dict[str, int]]:
        rules, player = self.rules, entry.player
        if not hand.racks[player]:
            name = self.players[player]
            raise PadError(
                "player", f"{name} has no tile left by the pad's count", "no_tile_left", name=name
            )
        tile, known = self._tile_laid(entry, hand)
        figure = 0
        if entry.figure is not None:
            if entry.figure not in FIGURE_NAMES:
                raise PadError(
                    "figure",
                    f"must be one of {', '.join(FIGURE_NAMES)}, not {entry.figure!r}",
                    "no_such_figure",
                )
            figure = FIGURES.index(entry.figure)
            if not rules.figure_points[figure]:
                raise PadError(
                    "figure", f"these rules give no bonus for {entry.figure}", "no_figure_bonus"
                )
        if hand.starter is None:
            if figure:
                raise PadError("figure", "the opening tile makes no figure", "opening_no_figure")
            points, bonuses = opening_points(rules, tile)
            hand.starter = player
        else:
            last = hand.racks[player] == 1
            value = rules.tile_values[rules.tiles.index(tile)]
            points, bonuses = placement_points(rules, value, figure, last, self.bank)
        if known:
            hand.laid.add(tile)
        hand.racks[player] -= 1
        if not hand.racks[player] and rules.going_out != "plays_on" and player not in hand.out:
            hand.out.append(player)
        self._end_turn(hand, player)
        return points, bonuses

    def _tile_laid(self, entry: Lay, hand: HandSheet) -> tuple[Tile, bool]:
        """The tile of a lay, and whether the pad knows which tile it is: the one named, or
        the only tile of the value given; else any tile of that value (all scoring needs
        then). A known tile is checked against this hand's lays."""
        rules = self.rules
        box = rules.box
        if entry.tile is not None:
            tile = self._parse_tile(entry.tile)
            if entry.value is not None and entry.value != tile.value:
                raise PadError(
                    "value",
                    f"{tile} is worth {tile.value}, not {entry.value}",
                    "wrong_value",
                    tile=str(tile),
                    value=tile.value,
                    given=entry.value,
                )
            known = True
        elif entry.value is not None:
            of_value = [tile for tile in box if tile.value == entry.value]
            if not of_value:
                values = sorted({tile.value for tile in box})
                raise PadError(
                    "value",
                    f"no tile of the {rules.tile_set} set is worth {entry.value}; "
                    f"values go from {values[0]} to {values[-1]}",
                    "no_such_value",
                    value=entry.value,
                    low=values[0],
                    high=values[-1],
                )
            tile, known = of_value[0], len(of_value) == 1
        elif rules.tile_points == "one":
            tile, known = box[-1], False  # every tile scores one point: any will do
        else:
            raise PadError("tile", "name the tile laid or give its value", "tile_or_value")
        if known and tile in hand.laid:
            raise PadError(
                "tile", f"{tile} is already on the table this hand", "already_laid", tile=str(tile)
            )
        opening_bonus = rules.opening_triple_bonus or rules.opening_zero_bonus
        if (
            not known
            and hand.starter is None
            and rules.opening == "highest_triple"
            and opening_bonus
        ):
            raise PadError(
                "tile", "name the opening tile: a triple earns an opening bonus", "name_the_opening"
            )
        return tile, known

    def _parse_tile(self, name: str) -> Tile:
        rules = self.rules
        try:
            tile = Tile.from_name(name)
        except TileError as error:
            raise PadError("tile", str(error), "not_a_tile", tile=name) from None
        # Without mirror tiles a tile's numbers may be read in any order.
        if tile not in rules.box and tile.mirror() in rules.box:
            tile = tile.mirror()
        if tile not in rules.box:
            raise PadError(
                "tile",
                f"{name} is not a tile of the {rules.tile_set} set in play",
                "not_in_set",
                tile=name,
            )
        return tile

    def _draw(self, entry: DrawTiles, hand: HandSheet) -> int:
        rules, player = self.rules, entry.player
        if entry.count < 1:
            raise PadError("count", f"must be at least 1, not {entry.count}", "draw_at_least_one")
        balance = self.running_totals[player]
        for drawn in range(entry.count):
            paid = drawn * rules.draw_penalty
            if not may_draw(rules, hand.draws + drawn, hand.pool - drawn, balance - paid):
                raise self._no_draw_refusal(entry.count, hand, balance)
        hand.pool -= entry.count
        hand.racks[player] += entry.count
        hand.draws += entry.count
        if not hand.pool and rules.pool_empty == "last_round":
            hand.last_round_by = player
        if rules.draw_ends_turn:
            self._end_turn(hand, player)
        return -rules.draw_penalty * entry.count

    def _no_draw_refusal(self, count: int, hand: HandSheet, balance: int) -> PadError:
        rules = self.rules
        if rules.max_draws is not None and hand.draws + count > rules.max_draws:
            return PadError(
                "count",
                f"a player draws at most {rules.max_draws} tile(s) a turn; "
                f"{hand.draws} drawn already this turn",
                "max_draws",
                most=rules.max_draws,
                drawn=hand.draws,
            )
        if hand.pool < count:
            return PadError(
                "count",
                f"the pool holds {hand.pool} tile(s) by the pad's count",
                "pool_short",
                pool=hand.pool,
            )
        return PadError(
            "count",
            f"buying costs {rules.draw_penalty} counter(s) a card; the player holds {balance}",
            "buy_cost",
            cost=rules.draw_penalty,
            balance=balance,
        )

    def _take_joker(self, entry: TakeJoker, hand: HandSheet) -> int:
        if not self.rules.joker:
            raise PadError("kind", "these rules play without the joker", "no_joker")
        if JOKER not in hand.laid:
            raise PadError(
                "kind", "the joker is not on the table by this hand's lays", "joker_not_laid"
            )
        if entry.tile is not None:
            tile = self._parse_tile(entry.tile)
            if tile in hand.laid:
                raise PadError(
                    "tile",
                    f"{tile} is already on the table this hand",
                    "already_laid",
                    tile=str(tile),
                )
            hand.laid.add(tile)
        hand.laid.discard(JOKER)
        self._end_turn(hand, entry.player)
        return 0

    def _end_turn(self, hand: HandSheet, player: int) -> None:
        """The turn of ``player`` is over: what the engine's ``Hand._end_turn`` checks,
        from the counts."""
        rules = self.rules
        hand.turn_player, hand.draws = None, 0
        following = (player + 1) % len(self.players)
        hand.to_move = following
        if hand.out and (
            rules.going_out == "ends_hand"
            or (rules.going_out == "finish_round" and following == hand.starter)
        ):
            hand.awaiting = "out"
        elif hand.last_round_by is not None:
            ends_at = player if rules.last_round_ends == "after_taker" else following
            if ends_at == hand.last_round_by and hand.last_round_armed:
                hand.awaiting = "last_round"
            hand.last_round_armed = True

    def _end_hand(self, entry: GoOut | Blocked | LastRound) -> tuple[int, ...]:
        """The settlement of the hand, by the engine's :func:`settle`."""
        rules, hand = self.rules, self.hand
        reason: EndReason
        out: list[int] = []
        if isinstance(entry, GoOut):
            reason = "out"
            player = self._check_player(entry.player)
            if rules.going_out == "plays_on":
                raise PadError(
                    "kind", "going out ends nothing in these rules", "going_out_ends_nothing"
                )
            if not hand.out:
                raise PadError(
                    "player",
                    f"{self.players[player]} still holds {hand.racks[player]} tile(s) by the "
                    "pad's count: enter the lay of the last tile first",
                    "still_holds",
                    name=self.players[player],
                    count=hand.racks[player],
                )
            first = self.players[hand.out[0]]
            if player != hand.out[0]:
                raise PadError(
                    "player",
                    f"{first} went out first, not {self.players[player]}",
                    "out_first",
                    first=first,
                    name=self.players[player],
                )
            if hand.awaiting != "out":
                # Seed 001: "dan moet deze ronde wel uitgespeeld worden, zodat alle
                # spelers een gelijk aantal beurten hebben kunnen spelen!"
                following = self.players[hand.to_move or 0]
                raise PadError(
                    "kind",
                    f"{first} went out, and the round is played out first: {following} is "
                    "still to play",
                    "round_not_over",
                    name=first,
                    next=following,
                )
            out = hand.out
        elif isinstance(entry, Blocked):
            reason = "blocked"
            if hand.out:
                raise PadError(
                    "kind", "a player went out: settle the hand with go_out", "settle_going_out"
                )
            if hand.last_round_by is not None:
                raise PadError(
                    "kind",
                    "the last round has begun: end the hand with last_round",
                    "last_round_begun",
                )
            if hand.pool and rules.bank is None and rules.max_draws != 0:
                raise PadError(
                    "kind",
                    f"the pool still holds {hand.pool} tile(s): a hand is blocked only when "
                    "nobody can lay or draw",
                    "pool_not_empty",
                    pool=hand.pool,
                )
        else:
            reason = "last_round"
            if hand.last_round_by is None:
                raise PadError(
                    "kind",
                    "the last round begins when the pool's last card is taken",
                    "last_round_not_begun",
                )
        remaining = () if isinstance(entry, LastRound) else entry.remaining
        left = self._rack_totals(reason, remaining)
        settlement, player_named = settle(rules, reason, left, out)
        hand.end = PadHandEnd(reason, player_named, settlement, tuple(left))
        for seat, change in enumerate(settlement):
            hand.points[seat] += change
        self._ring_gong(hand)
        return settlement

    def _rack_totals(self, reason: EndReason, remaining: tuple[int, ...]) -> list[int]:
        """Every seat's rack total at the end, checked against the tile counts; zeros
        when the settlement does not look at the racks and none were given."""
        rules, hand, players = self.rules, self.hand, len(self.players)
        needed = (reason == "out" and rules.going_out_collects) or (
            reason == "blocked" and rules.blocked != "no_settlement"
        )
        if not remaining:
            if needed:
                raise PadError(
                    "remaining", "give every player's rack total, one a player", "racks_needed"
                )
            return [0] * players
        if len(remaining) != players:
            raise PadError(
                "remaining",
                f"give {players} rack totals, one a player, not {len(remaining)}",
                "racks_count",
                players=players,
            )
        highest = max(tile.value for tile in rules.box)
        for seat, total in enumerate(remaining):
            name, count = self.players[seat], hand.racks[seat]
            if total < 0:
                raise PadError(
                    "remaining",
                    f"{name}'s rack total cannot be negative ({total})",
                    "rack_negative",
                    name=name,
                )
            if total > count * highest:
                raise PadError(
                    "remaining",
                    f"{name} holds {count} tile(s) by the pad's count, worth at most "
                    f"{count * highest}, not {total}",
                    "rack_too_high",
                    name=name,
                    count=count,
                    most=count * highest,
                    total=total,
                )
        return list(remaining)

    def _correction(self, entry: Correction) -> tuple[int, ...]:
        player = self._check_player(entry.player)
        if not -MAX_CORRECTION <= entry.points <= MAX_CORRECTION or not entry.points:
            raise PadError(
                "points",
                f"must be a non-zero whole number from {-MAX_CORRECTION} to {MAX_CORRECTION}",
                "correction_range",
                low=-MAX_CORRECTION,
                high=MAX_CORRECTION,
            )
        if len(entry.note) > MAX_NOTE:
            raise PadError("note", f"at most {MAX_NOTE} characters", "note_too_long", most=MAX_NOTE)
        if self.rules.bank is not None:
            bank = self.bank or 0
            if self.running_totals[player] + entry.points < 0 or entry.points > bank:
                raise PadError(
                    "points",
                    f"counters come from the bank ({bank} left) and a player cannot hold "
                    "fewer than none",
                    "bank_counters",
                    bank=bank,
                )
        return tuple(entry.points if seat == player else 0 for seat in range(len(self.players)))

    # --- results and conversions --------------------------------------------------

    def results(self) -> list[PlayerResult]:
        """Each player's total, win, finished hands' points and bonuses made."""
        winners = set(self.winners)
        totals = self.running_totals
        finished = [hand for hand in self.hands if hand.is_over]
        results = []
        for seat, name in enumerate(self.players):
            bonuses: dict[str, int] = {}
            for hand in self.hands:
                for scored in hand.entries:
                    if isinstance(scored.entry, Lay) and scored.entry.player == seat:
                        for bonus in scored.bonuses:
                            bonuses[bonus] = bonuses.get(bonus, 0) + 1
            results.append(
                PlayerResult(
                    seat,
                    name,
                    totals[seat],
                    seat in winners,
                    tuple(hand.points[seat] for hand in finished),
                    bonuses,
                )
            )
        return results

    def to_json(self) -> dict[str, Any]:
        """The pad as a document: rules, players and entries (all the rest follows)."""
        return {
            "format": FORMAT,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "entries": [entry_to_json(entry) for entry in self._entries],
            "stopped": self.stopped,
        }

    @classmethod
    def from_json(cls, document: object) -> Pad:
        """A pad from :meth:`to_json`'s document, its entries replayed and checked."""
        if not isinstance(document, Mapping) or document.get("format") != FORMAT:
            raise PadError("format", f"a pad document has format {FORMAT!r}")
        entries = document.get("entries")
        if not isinstance(entries, list):
            raise PadError("entries", "must be a list of entries")
        name = document.get("preset")
        preset_name = name if isinstance(name, str) else None
        # The rules written decide, as in a record: an option added since the pad was
        # saved takes its default, which scores as before, not the preset's value now.
        options = document.get("rules")
        rules = pad_rules(preset_name) if options is None else pad_rules(None, options)
        pad = cls(
            rules,
            document.get("players"),  # type: ignore[arg-type]  # checked by the pad
            preset_name,
        )
        for number, data in enumerate(entries):
            try:
                pad.add(entry_from_json(data))
            except PadError as error:
                raise PadError(f"entries.{number}.{error.field}", error.reason) from None
        if document.get("stopped") is True:
            pad.stop()
        return pad

    def sheet(self) -> dict[str, Any]:
        """Everything a score sheet shows, as JSON: for the page and the API."""
        hand = self.hand
        return {
            **self.to_json(),
            "hands": [sheet.to_json() for sheet in self.hands],
            "totals": self.running_totals,
            "hand_number": hand.number,
            "racks": list(hand.racks),
            "pool": hand.pool,
            "draws": hand.draws,
            "turn_player": hand.turn_player,
            "to_move": hand.to_move,
            "starter": hand.starter,
            "opening": hand.starter is None and not hand.is_over,
            "awaiting": hand.awaiting,
            "out": list(hand.out),
            "bank": self.bank,
            "final_hand": self.final_hand,
            "is_over": self.is_over,
            "winners": self.winners,
            "figures": [
                name for name in FIGURE_NAMES if self.rules.figure_points[FIGURES.index(name)]
            ],
        }

    def to_csv(self) -> str:
        """One row an entry, then each hand's total: for a spreadsheet. Every text cell
        is written so that a spreadsheet shows it as text (:func:`spreadsheet_text`)."""
        buffer = io.StringIO()
        # RFC 4180's line end: a cell with a CR or an LF in it is quoted (with "\n"
        # alone, a bare CR in a note went out unquoted and started a row).
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(["hand", "entry", "player", "detail", *map(spreadsheet_text, self.players)])
        for hand in self.hands:
            for number, scored in enumerate(hand.entries, start=1):
                entry = scored.entry
                player = getattr(entry, "player", None)
                writer.writerow(
                    [
                        hand.number,
                        number,
                        "" if player is None else spreadsheet_text(self.players[player]),
                        spreadsheet_text(_describe(scored)),
                        *scored.points,
                    ]
                )
            writer.writerow([hand.number, "", "", "hand total", *hand.points])
        writer.writerow(["", "", "", "match total", *self.running_totals])
        return buffer.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """``text`` as a spreadsheet will not run it: a cell that starts like a formula
    (``=HYPERLINK(...)``, ``+``, ``-``, ``@``, a tab or a carriage return), even after
    spaces and line breaks that a spreadsheet skips, gets a leading apostrophe, which
    spreadsheets read as "this is text" (OWASP's CSV injection)."""
    unpadded = text.lstrip()
    risky = text.startswith(FORMULA_STARTS) or unpadded.startswith(FORMULA_STARTS)
    return f"'{text}" if risky else text


def _describe(scored: Scored) -> str:
    """A short English line for an entry in the CSV export."""
    entry = scored.entry
    kind = _KIND_OF[type(entry)]
    details = [
        f"{name}={'/'.join(map(str, value)) if isinstance(value, tuple) else value}"
        for name in entry.__dataclass_fields__
        if name != "player" and (value := getattr(entry, name)) not in (None, "", ())
    ]
    details += [f"{name}+{value}" for name, value in scored.bonuses.items()]
    return " ".join([kind, *details])


def pad_rules(name: str | None, options: object = None) -> Rules:
    """The rules of a pad: a preset's, with ``options`` overriding some of them (or, with
    no preset, the whole rule set). A wrong option is a PadError naming it."""
    if options is not None and not isinstance(options, Mapping):
        raise PadError("options", f"must be an object of rule options, not {options!r}")
    try:
        if name is None:
            return Rules.from_dict(options or {})
        if name not in PRESETS:
            raise PadError("preset", f"must be one of {', '.join(PRESETS)}, not {name!r}")
        return preset(name).rules.replace(**dict(options or {}))
    except (RuleOptionError, TypeError) as error:
        option = getattr(error, "option", "options")
        raise PadError(f"options.{option}", str(error)) from None


def _check_names(rules: Rules, players: object) -> tuple[str, ...]:
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise PadError("players", "must be a list of player names")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise PadError("players", f"a player's name is a non-empty string, not {name!r}")
        if len(name.strip()) > MAX_NAME:
            raise PadError("players", f"a name has at most {MAX_NAME} characters: {name!r}")
        names.append(" ".join(name.split()))
    folded = [name.casefold() for name in names]
    twice = sorted({name for name in names if folded.count(name.casefold()) > 1})
    if twice:
        raise PadError("players", f"each player needs their own name: {', '.join(twice)}")
    try:
        rules.check_players(len(names))
    except RuleOptionError as error:
        raise PadError("players", str(error)) from None
    return tuple(names)
