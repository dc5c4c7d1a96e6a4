"""Hands and matches as state machines: actions in, events out, observations per seat.

A :class:`Hand` owns the true state of one deal: every rack, the pool in draw order and
the board. A :class:`Match` plays hands until the target score or the hand limit. Both
answer :meth:`legal_actions` for the player to move and :meth:`apply` an action, raising
:class:`IllegalActionError` (naming the broken rule) for anything else.

What a seat may know is built by one function, :func:`observe`; bots, the terminal and
the server all see the game through it. Legal actions are computed from an observation's
contents alone (:func:`legal_actions`), so the player to move needs nothing hidden to
know what it may do.
"""

from __future__ import annotations

import json
import operator
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, NamedTuple

from triominos import native
from triominos.board import FIGURES, Board, FrozenBoard, IllegalPlacementError, Placement
from triominos.lattice import ORIGIN, Cell, LatticeError
from triominos.rules import RuleOptionError, Rules, preset
from triominos.tiles import JOKER, WILD, Corners, Joker, Tile, TileSet, indices

Phase = Literal["starter_draw", "opening", "play", "over"]
EndReason = Literal["out", "blocked", "last_round", "target", "resigned"]


class IllegalActionError(ValueError):
    """An action the rules do not allow now; ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class UndoError(ValueError):
    """``undo()`` with nothing to take back: no rule of the game, so no IllegalActionError
    (whose rules a player is told about), as python-chess's ``pop()`` of no move."""


# --- actions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the pool (a penalty; at most ``max_draws`` a turn)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without placing: after the last allowed draw, or with an empty pool."""


@dataclass(frozen=True, slots=True)
class StarterDraw:
    """Draw a tile to decide who starts (``opening="starter_draw"``); it goes back."""


@dataclass(frozen=True, slots=True)
class TakeJoker:
    """Triominos Junior: put ``tile`` where the joker lies and take the joker to the rack.

    ``corners`` are the card's numbers on the joker's cell, clockwise from the leftmost;
    the card must fit that cell exactly. The whole turn; no counter earned or paid.
    """

    tile: Tile
    corners: Corners


@dataclass(frozen=True, slots=True)
class Resign:
    """``player`` gives up the match: it ends at once, and that player loses (RULES.md §6).

    Any player may resign at any moment of play, not only on their turn, so the action
    names its player. No legal action list offers it: a bot never resigns.
    """

    player: int


Action = Placement | Draw | Pass | StarterDraw | TakeJoker | Resign


ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("tile", "cell", "corners"),
    "draw": (),
    "pass": (),
    "starter_draw": (),
    "buy": (),
    "take_joker": ("tile", "cell", "corners"),
    "resign": (),
}
"""Each action's name and the fields its JSON carries beside ``action``, declared once:
the protocol, the stored actions and the records encode and decode actions from here
(:func:`action_json`, :func:`action_from_json`), and the notation writes the actions
without fields by their names. A resignation's player is who sent it (the record's
``player``), so its JSON has no field; ``take_joker``'s cell is where the joker lies."""

ACTION_NAMES = tuple(ACTION_FIELDS)
"""Every action's name, as the events, the protocol and the records write it (the
record's schema, the protocol's parser, the analyses and the sampler take theirs from
here)."""

_NAME_OF: dict[type, str] = {
    Placement: "place",
    Draw: "draw",
    Pass: "pass",
    StarterDraw: "starter_draw",
    TakeJoker: "take_joker",
    Resign: "resign",
}
"""The name an action's JSON carries: a draw is ``draw`` (an event calls it ``buy`` when
the rules make it cost a counter)."""


class ActionFieldError(ValueError):
    """A JSON action that names no engine action; ``field`` is the path of the faulty
    value (``action.tile``, ``hands[0].actions[3].corners[1]``), ``message`` what is
    wrong with it. Whether the action is legal is the engine's to say."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def corners_json(corners: Corners) -> list[int | None]:
    """A placement's corners; a joker's free corner is null (RECORD.md)."""
    return [None if number == WILD else number for number in corners]


def action_json(action: Action, joker_cell: Cell | None = None) -> dict[str, Any]:
    """An action as the protocol and the record write it (:data:`ACTION_FIELDS`): the
    cell of ``take_joker`` is ``joker_cell``, where the joker lies."""
    name = _NAME_OF.get(type(action))
    if name is None:
        raise TypeError(f"not an action: {action!r}")
    values: dict[str, Any] = {}
    if isinstance(action, Placement | TakeJoker):
        cell = action.cell if isinstance(action, Placement) else joker_cell
        values = {
            "tile": action.tile.name,
            "cell": None if cell is None else cell.to_json(),
            "corners": corners_json(action.corners),
        }
    return {"action": name, **{field: values[field] for field in ACTION_FIELDS[name]}}


def action_from_json(
    value: object,
    tile_set: TileSet,
    *,
    path: str = "action",
    player: int | None = None,
    joker_cell: Cell | None = None,
) -> Action:
    """The action a JSON action object names (:func:`action_json` read back).

    ``path`` is the object's path, which every ActionFieldError extends; ``player`` is
    who sent it (a resignation's player); ``joker_cell``, when known, is where a
    ``take_joker`` must say the joker lies.
    """
    if not isinstance(value, Mapping):
        raise ActionFieldError(path, f"must be an object, not {shown_json(value)}")
    kind = value.get("action")
    if kind not in ACTION_FIELDS:
        names = ", ".join(repr(name) for name in ACTION_NAMES)
        raise ActionFieldError(f"{path}.action", f"must be one of {names}, not {shown_json(kind)}")
    if kind in DRAWS:
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "starter_draw":
        return StarterDraw()
    if kind == "resign":
        if player is None:
            raise ActionFieldError(f"{path}.action", "a resignation needs the player who resigns")
        return Resign(player)
    tile = read_tile(_member(value, "tile", path), tile_set, f"{path}.tile")
    cell = read_cell(_member(value, "cell", path), f"{path}.cell")
    corners = read_corners(_member(value, "corners", path), f"{path}.corners", free=tile == JOKER)
    if kind == "place":
        return Placement(tile, cell, corners)
    if tile == JOKER:
        raise ActionFieldError(
            f"{path}.tile", "is the card that takes the joker's place, not the joker"
        )
    if joker_cell is not None and cell != joker_cell:
        raise ActionFieldError(
            f"{path}.cell", f"the joker lies at {joker_cell.to_json()}, not {cell.to_json()}"
        )
    return TakeJoker(tile, corners)


def shown_json(value: object, limit: int = 60) -> str:
    """A value as JSON, cut short: messages quote the culprit, not the whole document."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _member(value: Mapping[str, Any], name: str, path: str) -> Any:
    if name not in value:
        raise ActionFieldError(f"{path}.{name}", "missing")
    return value[name]


def read_tile(value: object, tile_set: TileSet, path: str) -> Tile:
    """A tile's name (``"0-1-2"``, ``"J"``) of ``tile_set``."""
    if not isinstance(value, str):
        raise ActionFieldError(path, f'must be a tile name like "0-1-2", not {shown_json(value)}')
    try:
        return tile_set.parse(value)
    except ValueError as error:  # TileError, or int() of an exotic digit
        raise ActionFieldError(path, str(error)) from None


def read_cell(value: object, path: str) -> Cell:
    """A cell ``[x, y, "up"]`` on the board."""
    try:
        cell = Cell.from_json(value)
        cell.id  # noqa: B018  (checks that the cell is on the board)
    except LatticeError as error:
        raise ActionFieldError(path, str(error)) from None
    return cell


def read_corners(value: object, path: str, *, free: bool = False) -> Corners:
    """Three numbers from 0; with ``free`` (the joker's), null is a free corner (WILD)."""
    if not isinstance(value, list) or len(value) != 3:
        raise ActionFieldError(
            path, f"a placement's corners are three numbers, not {shown_json(value)}"
        )
    numbers = [
        WILD if free and number is None else read_corner(number, f"{path}[{index}]")
        for index, number in enumerate(value)
    ]
    return numbers[0], numbers[1], numbers[2]


def read_corner(value: object, path: str) -> int:
    if value is None:
        raise ActionFieldError(path, "must be a number; only the joker has free corners (null)")
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionFieldError(path, f"must be a whole number, not {shown_json(value)}")
    if value < 0:
        raise ActionFieldError(path, f"must be a number from 0, not {value}")
    return value


class LegalAction(NamedTuple):
    """An action the player to move may take, with the points it would score now."""

    action: Action
    points: int
    bonuses: dict[str, int]


# --- events -------------------------------------------------------------------------


class Event(NamedTuple):
    """What one action did, in the terms of a record action (RECORD.md).

    ``tile`` of a draw is known to the drawing player only; :meth:`seen_by` hides it.
    """

    player: int
    action: str
    points: int = 0
    tile: Tile | None = None
    cell: Cell | None = None
    corners: Corners | None = None
    bonuses: tuple[tuple[str, int], ...] = ()

    def seen_by(self, seat: int | None, open_racks: bool = False) -> Event:
        if (
            self.action in DRAWS
            and seat != self.player
            and self.tile is not None
            and not open_racks
        ):
            # Every field, straight into the tuple: a draw hides its tile this way each time.
            return tuple.__new__(
                Event, (self.player, self.action, self.points, None, None, None, ())
            )
        return self

    def to_record(self) -> dict[str, object]:
        """The event as a record's action (RECORD.md)."""
        record: dict[str, object] = {"player": self.player, "action": self.action}
        if self.action in BOARD_ACTIONS:  # the action's own fields (ACTION_FIELDS)
            record.update(action_json(self.action_made(), self.cell))
        elif self.tile is not None:  # the tile drawn, for those who see it
            record["tile"] = self.tile.name
        if self.action != "starter_draw":
            record["points"] = self.points
        if self.action == "place":
            record["bonuses"] = dict(self.bonuses)
        return record

    def action_made(self) -> Action:
        """The action that made this event (a draw's tile is the pool's, not chosen)."""
        if self.action in DRAWS:
            return Draw()
        if self.action == "pass":
            return Pass()
        if self.action == "starter_draw":
            return StarterDraw()
        if self.action == "resign":
            return Resign(self.player)
        assert self.tile is not None and self.corners is not None
        if self.action == "take_joker":
            return TakeJoker(self.tile, self.corners)
        assert self.cell is not None
        return Placement(self.tile, self.cell, self.corners)


DRAWS = ("draw", "buy")
"""Event names of taking a tile from the pool: ``buy`` when it costs a counter (Junior)."""

BOARD_ACTIONS = frozenset(name for name, fields in ACTION_FIELDS.items() if "cell" in fields)
"""Event names of the actions that change the board (those with a cell), each taken back
by one pop."""


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended and its settlement (RECORD.md ``end``)."""

    reason: EndReason
    player: int | None
    settlement: tuple[int, ...]
    remaining: tuple[tuple[Tile, ...], ...]

    def to_record(self) -> dict[str, object]:
        return {
            "reason": self.reason,
            "player": self.player,
            "settlement": list(self.settlement),
            "remaining": [[tile.name for tile in rack] for rack in self.remaining],
        }


# --- deals --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The racks as dealt and the pool in the order the hand's draws take it.

    ``first`` is the card laid face up from the pool before play (``opening="pool_card"``,
    Triominos Junior); None otherwise.
    """

    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]
    first: Tile | None = None
    _dealt: tuple[Rules, tuple[int, ...], tuple[int, ...]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """Set by :meth:`shuffle` only: the rules it dealt for, the racks as bitmasks and the
    pool as tile indices, so that a hand skips :meth:`check` on a deal the engine made."""

    @classmethod
    def shuffle(cls, rules: Rules, players: int, rng: random.Random) -> Deal:
        size = rules.rack_size(players)
        tiles = list(rules.box)
        rng.shuffle(tiles)
        racks = tuple(tuple(tiles[i * size : (i + 1) * size]) for i in range(players))
        pool = tiles[players * size :]
        first = None
        if rules.opening == "pool_card":
            # A joker turned up as the first card goes back into the pot, anywhere.
            first = pool.pop(0)
            if isinstance(first, Joker):
                first, joker = pool.pop(0), first
                pool.insert(rng.randrange(len(pool) + 1), joker)
        deal = cls(racks, tuple(pool), first)
        # What a hand starts from, while the tiles are known to be a whole, right deal.
        tile_set = rules.tiles
        masks = tuple(map(tile_set.mask, racks))
        pool_indices = tuple(map(tile_set.position.__getitem__, pool))
        object.__setattr__(deal, "_dealt", (rules, masks, pool_indices))
        return deal

    def check(self, rules: Rules) -> list[int]:
        """The racks as bitmasks, after checking this is a whole deal for these rules.

        Raises RuleOptionError naming what is wrong: a rack of the wrong size, a tile
        dealt twice, a tile missing, a tile of another set, a first card where the rules
        have none (or none where they need one).
        """
        players = len(self.racks)
        size = rules.rack_size(players)
        tile_set = rules.tiles
        racks = []
        for seat, rack in enumerate(self.racks):
            if len(rack) != size:
                raise RuleOptionError(
                    "deal", f"rack {seat} holds {len(rack)} tiles; {players} players get {size}"
                )
            racks.append(tile_set.mask(rack))
        first = () if self.first is None else (self.first,)
        if (rules.opening == "pool_card") != bool(first):
            wanted = "a first card" if rules.opening == "pool_card" else "no first card"
            raise RuleOptionError("deal", f"the {rules.opening} opening needs {wanted}")
        if isinstance(self.first, Joker):
            raise RuleOptionError("deal", "the joker is never the first card")
        every = 0
        for mask in [*racks, tile_set.mask(self.pool), tile_set.mask(first)]:
            every |= mask
        count = size * players + len(self.pool) + len(first)
        box = rules.box_mask
        if every.bit_count() != count or every != box:
            dealt = [tile for rack in self.racks for tile in rack] + list(self.pool) + list(first)
            twice = sorted({tile.name for tile in dealt if dealt.count(tile) > 1})
            if twice:
                raise RuleOptionError("deal", f"dealt more than once: {', '.join(twice)}")
            extra = sorted(tile.name for tile in tile_set.tiles_in(every & ~box))
            if extra:
                raise RuleOptionError("deal", f"not in play under these rules: {', '.join(extra)}")
            missing = sorted(tile.name for tile in tile_set.tiles_in(box ^ every))
            raise RuleOptionError("deal", f"tiles missing from the deal: {', '.join(missing)}")
        return racks


def opening_tiles(rules: Rules, rack: int, tile_set: TileSet) -> int:
    """The tiles of a rack that may open a hand, as a bitmask.

    With ``opening="highest_triple"`` the opener is the holder of the highest triple
    (tile indices ascend by value, so the highest triple is the highest index among the
    triples) and opens with it, or with 0-0-0 when holding both and ``opening_zero_swap``
    (seed 002's "mag de 3x0 neerleggen"; seed 003 opens "en posant cette tuile"). Without
    any triple in play the opener holds the most valuable tile and opens with it. Called
    for the opener's rack, this needs nothing but that rack.
    """
    if rules.opening == "starter_draw":
        return rack
    triples = rack & tile_set.triples
    if triples:
        # The lowest triple of the set is 0-0-0 (value 0, index 0).
        zero = triples & 1 if rules.opening_zero_swap else 0
        return (1 << (triples.bit_length() - 1)) | zero
    return 1 << (rack.bit_length() - 1)


def choose_opener(rules: Rules, racks: Sequence[int], tile_set: TileSet) -> int:
    """The seat that opens under ``opening="highest_triple"``.

    The highest triple decides; with no triple dealt, the most valuable tile. Tile
    indices ascend by value then name, so ties between equal totals go to the tile whose
    name sorts last (RULES.md: "no triple").
    """
    triples = tile_set.triples
    if any(rack & triples for rack in racks):
        return max(range(len(racks)), key=lambda seat: (racks[seat] & triples).bit_length())
    return max(range(len(racks)), key=lambda seat: racks[seat].bit_length())


# --- legal actions from what a seat knows ---------------------------------------------


def legal_actions(
    rules: Rules,
    phase: Phase,
    board: Board | FrozenBoard,
    rack: int,
    draws: int,
    pool_size: int,
    balance: int | None = None,
    bank: int | None = None,
    drawn: int | None = None,
) -> list[LegalAction]:
    """Every action the player to move may take, from what that player can see.

    ``balance`` (the player's counters) and ``bank`` matter only when the rules pay in
    counters (``bank`` option): buying a card needs a counter, and the bank pays no more
    than it holds. ``drawn`` is the tile index the player drew last this turn, which
    decides another draw under ``draw_when="drawn_unfit"``.
    """
    if phase == "over":
        return []
    if phase == "starter_draw":
        return [LegalAction(StarterDraw(), 0, {})]
    tile_set = board.tile_set
    tiles = tile_set.tiles
    found: list[LegalAction] = []
    if phase == "opening":
        for index in indices(opening_tiles(rules, rack, tile_set)):
            tile = tiles[index]
            points, bonuses = opening_points(rules, tile)
            for corners in tile.rotations():
                found.append(LegalAction(Placement(tile, ORIGIN, corners), points, bonuses))
        return found
    placed = placement_actions(found, rules, board, rack, bank)
    for index, corners in board.joker_swaps(rack):
        found.append(LegalAction(TakeJoker(tiles[index], corners), 0, {}))
    if may_draw(rules, draws, pool_size, balance, fit_forbids_draw(rules, board, rack, drawn)):
        found.append(LegalAction(Draw(), -rules.draw_penalty, {}))
    elif not placed:
        found.append(LegalAction(Pass(), -pass_penalty(rules, draws, pool_size), {}))
    return found


def placement_actions(
    found: list[LegalAction],
    rules: Rules,
    board: Board | FrozenBoard,
    rack: int,
    bank: int | None,
) -> bool:
    """Append to ``found`` a LegalAction for every legal placement of ``rack`` in play,
    in the board's order (:meth:`~triominos.board.Board.placement_ids`); whether there
    was any. The native core (``triominos._match``) takes this function's place."""
    tile_set = board.tile_set
    tiles = tile_set.tiles
    values = tile_set.values if rules.tile_points == "value" else (1,) * len(tile_set)
    before = len(found)
    for cell, index, corners, figure in board.placement_ids(rack):
        last = rack == 1 << index
        points, bonuses = placement_points(rules, values[index], figure, last, bank)
        found.append(
            LegalAction(Placement(tiles[index], Cell.from_id(cell), corners), points, bonuses)
        )
    return len(found) > before


def placement_points(
    rules: Rules, value: int, figure: int, last_tile: bool, bank: int | None = None
) -> tuple[int, dict[str, int]]:
    """What laying a tile worth ``value`` with this figure scores, and the bonuses by name.

    With a bank (Junior) the points are counters, and the bank pays what it holds.
    """
    bonuses: dict[str, int] = {}
    bonus = rules.figure_points[figure]
    if bonus:
        bonuses[FIGURES[figure]] = bonus  # type: ignore[index]
    if last_tile and rules.last_tile_bonus:
        bonuses["last_tile"] = rules.last_tile_bonus
    points = value + sum(bonuses.values())
    return (points if bank is None else min(points, bank)), bonuses


def may_draw(
    rules: Rules, draws: int, pool_size: int, balance: int | None, fit_forbids: bool = False
) -> bool:
    """Whether the player to move may take a tile from the pool now.

    ``fit_forbids`` is :func:`fit_forbids_draw`'s answer; the score pad, which sees no
    tiles, leaves it to the table.
    """
    if fit_forbids or not pool_size or (rules.max_draws is not None and draws >= rules.max_draws):
        return False
    return rules.bank is None or balance is None or balance >= rules.draw_penalty


def fit_forbids_draw(
    rules: Rules, board: Board | FrozenBoard, rack: int, drawn: int | None
) -> bool:
    """Whether a tile that fits rules out a draw (``draw_when``): any tile of the rack
    (``unable``, seed 002), or the tile just drawn this turn (``drawn_unfit``, seed 003)."""
    if rules.draw_when == "unable":
        return board.can_place(rack)
    if rules.draw_when == "drawn_unfit" and drawn is not None:
        return board.can_place(1 << drawn)
    return False


def opening_points(rules: Rules, tile: Tile) -> tuple[int, dict[str, int]]:
    bonuses: dict[str, int] = {}
    if rules.opening == "highest_triple" and tile.is_triple:
        if rules.opening_triple_bonus:
            bonuses["opening_triple"] = rules.opening_triple_bonus
        if tile.a == 0 and rules.opening_zero_bonus:
            bonuses["opening_triple_zero"] = rules.opening_zero_bonus
    value = tile.value if rules.tile_points == "value" else 1
    return value + sum(bonuses.values()), bonuses


def pass_penalty(rules: Rules, draws: int, pool_size: int) -> int:
    """What passing costs after ``draws`` draws this turn, ``pool_size`` tiles left:
    ``failed_draw_penalty`` after drawing, unless the pool ran dry before the last draw
    allowed and ``dry_pool_no_penalty`` (seeds 001 and 004: "geen min score"), and
    ``empty_pool_pass_penalty`` without drawing."""
    if not draws:
        return rules.empty_pool_pass_penalty
    ran_dry = not pool_size and (rules.max_draws is None or draws < rules.max_draws)
    return 0 if ran_dry and rules.dry_pool_no_penalty else rules.failed_draw_penalty


# --- observations -------------------------------------------------------------------


class Observation(NamedTuple):
    """What one seat may know (``seat=None``: a spectator): an immutable snapshot.

    It owns what it shows: ``board`` is a :class:`~triominos.board.FrozenBoard` (the
    board of that moment, whatever the hand does next), ``history`` a tuple, every
    other field an int, a tuple or a frozen value. So a bot may keep it, pickle it (a
    few KB) or hand it on, and nothing it does with it reaches the game. Never present:
    another seat's rack, the pool's order, the tile another seat drew.

    Taking one is cheap (it runs on every turn of every bot): the board is a reference
    to the hand's board at that moment, not a copy (see FrozenBoard).
    """

    rules: Rules
    seat: int | None
    players: int
    hand_number: int
    phase: Phase
    to_move: int
    starter: int | None
    board: FrozenBoard
    rack: int | None
    rack_sizes: tuple[int, ...]
    pool_size: int
    draws: int
    hand_points: tuple[int, ...]
    totals: tuple[int, ...]
    end: HandEnd | None
    history: tuple[Event, ...]
    """This hand's events as the seat saw them (other seats' drawn tiles hidden)."""
    open_racks: tuple[int, ...] | None
    """Every rack, when the rules play with open racks (Junior for young children)."""
    gong: int | None = None
    """The seat whose total rang the gong in this hand (Hand.gong), known to all."""

    def __repr__(self) -> str:
        return f"Observation.from_text({self.to_text()!r})"

    def to_text(self) -> str:
        """The observation as one line of text (:mod:`triominos.position`)."""
        from triominos.position import observation_to_text  # position builds on this module

        return observation_to_text(self)

    @classmethod
    def from_text(cls, text: str) -> Observation:
        """The observation :meth:`to_text` wrote; PositionError names a malformed field."""
        from triominos.position import observation_from_text

        return observation_from_text(text)

    @property
    def seen_count(self) -> int:
        """How many events the hand has had: the position in the hand, for all seats."""
        return len(self.history)

    @property
    def bank(self) -> int | None:
        """The counters left in the bank (rules with a ``bank``), known to all."""
        return None if self.rules.bank is None else self.rules.bank - sum(self.totals)

    @property
    def drawn(self) -> int | None:
        """The tile index the player to move drew last this turn, if this seat saw it."""
        if not self.draws or not self.history:
            return None
        tile = self.history[-1].tile
        return None if tile is None else self.board.tile_set.index(tile)

    @property
    def rack_tiles(self) -> list[Tile]:
        return self.board.tile_set.tiles_in(self.rack or 0)

    @property
    def is_my_turn(self) -> bool:
        return self.seat == self.to_move and self.phase != "over"

    def legal_actions(self) -> list[LegalAction]:
        """What the seat may do, from the snapshot alone: a new list each time."""
        if not self.is_my_turn or self.rack is None or self.seat is None:
            return []
        return legal_actions(
            self.rules,
            self.phase,
            self.board,
            self.rack,
            self.draws,
            self.pool_size,
            self.totals[self.seat],
            self.bank,
            self.drawn,
        )


def observe(hand: Hand, seat: int | None, totals: Sequence[int] | None = None) -> Observation:
    """The one place an observation is built: what ``seat`` may see of ``hand``."""
    if seat is not None and not 0 <= seat < hand.players:
        raise ValueError(f"seat must be from 0 to {hand.players - 1}, or None, not {seat!r}")
    if totals is None:
        totals = hand._totals
    seen = hand._seen.get(seat)  # Hand.seen_by written out: a call fewer on every turn
    if seen is None:
        seen = hand.seen_by(seat)
    racks = hand.racks
    # This runs on every turn of every bot: the tuple is made directly, all fields in
    # order, without the Python-level __new__ of a NamedTuple.
    return tuple.__new__(
        Observation,
        (
            hand.rules,
            seat,
            hand.players,
            hand.number,
            hand.phase,
            hand.to_move,
            hand.starter,
            hand.board.frozen(),
            None if seat is None else racks[seat],
            tuple(map(int.bit_count, racks)),
            len(hand._pool) - hand._drawn,
            hand.draws,
            tuple(hand.points),
            tuple(totals),
            hand.end,
            tuple(seen),
            tuple(racks) if hand.rules.open_racks else None,
            hand.gong,
        ),
    )


def settle(
    rules: Rules, reason: EndReason, left: Sequence[int], out: Sequence[int] = ()
) -> tuple[tuple[int, ...], int | None]:
    """Each seat's score change at the end of a hand, and the seat the end names.

    ``left`` is the value of what each rack still holds, ``out`` the seats that emptied
    their racks, first out first. A pure function of the numbers, so that a score pad
    for a game at a real table settles exactly as the engine does.
    """
    players = len(left)
    settlement = [0] * players
    player: int | None = None
    if reason == "out":
        # Only the first player out scores (seeds 001/004: "Deze speler scoort ...").
        player = out[0]
        collected = 0
        if rules.going_out_collects:
            collected = sum(left[seat] for seat in range(players) if seat not in out)
        settlement[player] = rules.going_out_bonus + collected
    elif reason == "blocked" and rules.blocked == "each_loses_own":
        settlement = [-total for total in left]
    elif reason == "blocked" and rules.blocked == "lowest_scores_difference":
        lowest = min(left)
        tied = [seat for seat, total in enumerate(left) if total == lowest]
        if len(tied) == 1 or rules.blocked_tie == "each_scores":
            player = tied[0]
            # Less one's own once, or once for each other rack (the sum of differences).
            times = 1 if rules.blocked_difference == "others_minus_own" else players - 1
            for seat in tied:
                settlement[seat] = sum(left) - lowest - times * lowest
    return tuple(settlement), player


# --- the hand -----------------------------------------------------------------------

Resumed = tuple[int, int, int, tuple[int, ...], int | None, int | None]
"""What :meth:`Hand.resume` was given: to_move, starter, draws, out, last_round_by,
drawn."""


class Arranged(NamedTuple):
    """Hidden tiles laid anew from outside (:meth:`Hand.rearrange`, :meth:`Hand.draw_next`),
    kept so that the hand's text replays them where they happened."""

    after: int
    """How many events the hand had then: the arrangement follows the last of them."""
    pool: tuple[int, ...]
    """The pool from then on, next draw first (tile indices)."""
    racks: tuple[tuple[int, int], ...]
    """The racks laid anew: (seat, bitmask)."""
    next_only: bool
    """Made by draw_next: only the first tile of the pool was chosen."""


_FIXED = ("rules", "deal", "number", "players", "tile_set", "_resumed", "start_totals")
"""The attributes of a hand set up once and never changed (see Hand)."""
_PLAIN = (
    "_pool",
    "_drawn",
    "draws",
    "phase",
    "to_move",
    "starter",
    "out",
    "end",
    "_rng",
    "_starter_tiles",
    "_starter_next",
    "_contenders",
    "_shown",
    "_last_round_by",
    "_last_round_armed",
    "drawn",
    "gong",
    "_arranged",
)
"""The attributes of a hand that actions replace, never change in place (see Hand)."""
_COPIED = ("racks", "points", "_totals")
"""The lists of a hand changed in place (on most actions, where a new list would cost
more): saved as tuples."""
_LOGS = ("board", "events", "_seen", "_undo")
"""The attributes of a hand undone by taking back their last entry."""
_SAVED = _PLAIN + _COPIED
_fixed_values = operator.attrgetter(*_FIXED)
_plain_values = operator.attrgetter(*_PLAIN)
_copied_values = operator.attrgetter(*_COPIED)


class Hand:
    """One deal played out: racks, pool, board, turns, and the settlement at the end.

    ``totals`` are the players' scores before the hand (counters in Junior, where they
    decide what a player can pay); ``points`` count what the hand changes. ``starter_tiles``
    replays recorded starter draws (the tiles each draw showed); without it, or once it
    runs out, they come from ``rng``.

    A hand is a value: :meth:`clone`, :meth:`undo`, ``==`` and :meth:`to_text`. They
    work on its attributes by kind, each attribute named in one of four tuples (a test
    fails for an attribute in none), and need no other code for a new one:

    - :data:`_FIXED`: set up with the hand and never changed: shared by clones,
      compared by ``==``;
    - :data:`_PLAIN`: values never changed in place, only replaced: ints, tuples,
      frozen objects (the random generator of the starter draws is copied before each
      use, for this). Every action saves them all, undo puts them back, clones share
      them, ``==`` compares them;
    - :data:`_COPIED`: lists changed in place (the racks, the points, the totals):
      saved as tuples, made lists again by undo and clone;
    - :data:`_LOGS`: undone by taking back their last entry: the board (its own
      :meth:`~triominos.board.Board.undo`), ``events`` and the seats' views of them,
      and the undo history itself.

    The names are declared rather than read from ``__dict__``: asking an object for its
    ``__dict__`` turns its attributes from CPython's inline values into a dict, which
    made every attribute access of the hot path some 2x slower.
    """

    phase: Phase
    starter: int | None
    start_totals: tuple[int, ...]
    end: HandEnd | None
    _rng: random.Random | None
    _starter_tiles: tuple[Tile, ...]
    _starter_next: int
    _undo: list[tuple[Any, ...]]
    _contenders: list[int]
    _shown: dict[int, int]
    _seen: dict[int | None, list[Event]]
    _last_round_by: int | None

    def __init__(
        self,
        rules: Rules,
        deal: Deal,
        *,
        number: int = 1,
        rng: random.Random | None = None,
        starter_tiles: Iterable[Tile] = (),
        totals: Sequence[int] | None = None,
    ) -> None:
        tile_set = rules.tiles
        dealt = deal._dealt
        if dealt is not None and (dealt[0] is rules or dealt[0] == rules):
            racks, pool = list(dealt[1]), list(dealt[2])  # shuffled for these rules
        else:
            racks = deal.check(rules)
            pool = list(map(tile_set.position.__getitem__, deal.pool))  # checked: in the set
        self._set_up(
            rules,
            deal,
            racks,
            pool,
            Board(tile_set),
            number=number,
            totals=totals,
        )
        self._rng = rng
        self._starter_tiles = tuple(starter_tiles)
        if rules.opening == "starter_draw":
            self.phase = "starter_draw"
            self._contenders = list(range(self.players))
            self.to_move = 0
        elif rules.opening == "pool_card":
            assert deal.first is not None  # deal.check made sure
            self.board.push_unchecked(ORIGIN.id, tile_set.index(deal.first), deal.first.numbers)
            self.phase = "play"
            self.starter = self.to_move = 0
        else:
            self.phase = "opening"
            self.starter = self.to_move = choose_opener(rules, self.racks, tile_set)

    def _set_up(
        self,
        rules: Rules,
        deal: Deal,
        racks: list[int],
        pool: list[int],
        board: Board,
        *,
        number: int,
        totals: Sequence[int] | None,
    ) -> None:
        """The state every hand starts from, however it was made."""
        self.rules = rules
        self.deal = deal
        self.number = number
        self.players = players = len(racks)
        self.tile_set = rules.tiles
        self.board = board
        self.racks = racks
        self._pool = pool
        self._drawn = 0
        self.start_totals = (rules.starting_score,) * players if totals is None else tuple(totals)
        self.points: list[int] = [0] * players
        self._totals = list(self.start_totals)  # start_totals + points, kept by _score
        self.draws = 0
        self.events: list[Event] = []
        self._seen = {}
        self.end = None
        self.starter = None
        self.out: list[int] = []
        self.phase = "play"
        self.to_move = 0
        self._rng = None
        self._starter_tiles = ()  # recorded starter draws, and the next one to use
        self._starter_next = 0
        self._undo = []  # what each action changed, to take it back: see the class
        self._resumed: Resumed | None = None  # how resume() set the hand up, if it did
        self._contenders = []
        self._shown = {}
        self._last_round_by = None  # who took the pool's last card (Junior)
        self._last_round_armed = False
        self.drawn: int | None = None
        """The tile index drawn last in this turn (``draw_when="drawn_unfit"``)."""
        self.gong: int | None = None
        """The seat whose total reached the target first in this hand, when the target
        ends the match during a hand (``match_end`` ``gong`` or ``first_to_target``)."""
        self._arranged: tuple[Arranged, ...] = ()
        """Every rearrangement since the deal, for :meth:`to_text` (history: not in ==)."""

    def __repr__(self) -> str:
        return f"Hand.from_text({self.to_text()!r})"

    # --- the hand as a value --------------------------------------------------------

    def _saved(self) -> tuple[Any, ...]:
        """The values of _SAVED, the _COPIED lists as tuples (see the class): taken before
        every action, shared by clones, never changed."""
        return (_plain_values(self), *map(tuple, _copied_values(self)))

    def _restore(self, saved: tuple[Any, ...]) -> None:
        for name, value in zip(_PLAIN, saved[0], strict=True):
            setattr(self, name, value)
        for name, value in zip(_COPIED, saved[1:], strict=True):
            setattr(self, name, list(value))

    def clone(self) -> Hand:
        """An independent copy in the same state, undo history included.

        Cheap: the attributes, a board copy (:meth:`Board.copy`) and a few lists; the
        saved states of the undo history are shared, as nothing changes them.
        """
        clone = Hand.__new__(Hand)
        for name, value in zip(_FIXED, _fixed_values(self), strict=True):
            setattr(clone, name, value)
        clone._restore(self._saved())
        clone.board = self.board.copy()
        clone.events = self.events.copy()
        clone._seen = {seat: seen.copy() for seat, seen in self._seen.items()}
        clone._undo = self._undo.copy()
        return clone

    def undo(self) -> Event:
        """Take back the last action exactly, and return its event.

        Back to the deal, and no further: UndoError then. The
        order of the legal actions comes back too (:meth:`Board.undo`).
        """
        if not self._undo:
            raise UndoError("nothing to undo: the hand is as it was dealt (or resumed)")
        saved = self._undo.pop()
        event = self.events.pop()
        for seen in self._seen.values():
            seen.pop()
        if event.action in BOARD_ACTIONS:
            self.board.undo()
        self._restore(saved)
        return event

    def _state(self) -> dict[str, object]:
        """What ``==`` compares: the fixed, plain and copied attributes, the board, the
        events.

        Left out: the undo history and the rearrangements (how the state was reached) and
        the seats' views (made from the events). The random generator and the recorded starter draws
        count only while they can still be used, in the starter draw.
        """
        plain, *copied = self._saved()
        state = dict(zip(_SAVED, (*plain, *copied), strict=True))
        state.update(zip(_FIXED, _fixed_values(self), strict=True))
        state["board"], state["events"] = self.board, self.events
        starter_tiles = state.pop("_starter_tiles"), state.pop("_starter_next")
        rng = state.pop("_rng")
        del state["_arranged"]  # how the tiles came to lie as they do, like the undo history
        if self.phase == "starter_draw":
            state["_starter_tiles"] = starter_tiles[0][starter_tiles[1] :]
            state["_rng"] = None if rng is None else rng.getstate()
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # a hand changes: it is no dict key

    def __copy__(self) -> Hand:
        """:meth:`clone`: a copy sharing the board would corrupt both hands."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        return self.clone()

    def __reduce__(self) -> tuple[Callable[[str], Hand], tuple[str]]:
        """Pickled as its text (a few KB), which plays back to an equal hand that plays on
        identically and undoes back to the deal."""
        return Hand.from_text, (self.to_text(),)

    def to_text(self) -> str:
        """The whole hand as one line: rules, deal, actions and rearrangements
        (:mod:`triominos.position`).

        :meth:`from_text` plays the actions again, so the hand it makes equals this one,
        plays on identically and can be undone back to the deal.
        """
        from triominos.position import hand_to_text  # position builds on this module

        return hand_to_text(self)

    @classmethod
    def from_text(cls, text: str) -> Hand:
        """The hand :meth:`to_text` wrote; PositionError names a malformed field."""
        from triominos.position import hand_from_text

        return hand_from_text(text)

    @classmethod
    def resume(
        cls,
        rules: Rules,
        board: Board,
        racks: Sequence[int],
        pool: Sequence[int],
        *,
        to_move: int,
        starter: int,
        draws: int = 0,
        out: Sequence[int] = (),
        number: int = 1,
        totals: Sequence[int] | None = None,
        last_round_by: int | None = None,
        drawn: int | None = None,
    ) -> Hand:
        """A hand in play from a position instead of a deal: how a search plays out a world.

        A bot that samples the hidden racks and pool (as bitmasks and tile indices, next
        draw first) plays each sampled world on from here with the engine's own rules.
        The hand plays on ``board`` itself, not a copy: a search that plays many worlds
        on one board pops it back to where it started after each. ``points`` count from
        zero at the position, ``events`` start empty, ``deal`` is the position's racks and
        pool, ``out`` lists the seats that already went out (``finish_round``),
        ``totals`` the scores at the position (counters, with a bank) and
        ``last_round_by`` the seat that took the pool's last tile when the last round has
        begun (``pool_empty="last_round"``, Junior). That round counts from the end of the
        taker's turn: a position inside it (the taker to move, having drawn) has not
        started counting yet. ``drawn`` is the tile the player to move drew last this
        turn (``draw_when="drawn_unfit"``).
        """
        tile_set = rules.tiles
        deal = Deal(
            tuple(tuple(tile_set.tiles_in(rack)) for rack in racks),
            tuple(tile_set.tiles[index] for index in pool),
        )
        hand = cls.__new__(cls)
        hand._set_up(rules, deal, list(racks), list(pool), board, number=number, totals=totals)
        hand._resumed = (to_move, starter, draws, tuple(out), last_round_by, drawn)
        hand.draws = draws
        hand.drawn = drawn
        hand.starter = starter
        hand.out = list(out)
        hand.to_move = to_move
        hand._last_round_by = last_round_by
        hand._last_round_armed = last_round_by is not None and not (
            to_move == last_round_by and draws
        )
        return hand

    @property
    def pool_size(self) -> int:
        return len(self._pool) - self._drawn

    @property
    def pool(self) -> list[Tile]:
        """The tiles still in the pool, next draw first (hidden information)."""
        return [self.tile_set.tiles[i] for i in self._pool[self._drawn :]]

    # --- chance decided from outside: searches and game frameworks -----------------
    # A hand draws from a pool in a set order. A search that determinizes (guesses the
    # hidden tiles, then plays on) or a framework whose chance nodes pick each drawn tile
    # when it is drawn (OpenSpiel) lays the hidden tiles itself, with these. Each keeps
    # every tile where the rules can find it: the same tiles, only placed anew.

    def undrawn(self) -> list[int]:
        """The pool as tile indices, next draw first (hidden information)."""
        return self._pool[self._drawn :]

    def rearrange(self, pool: Sequence[int], racks: Mapping[int, int] | None = None) -> None:
        """Lay the hidden tiles anew: the pool in this order (tile indices, next draw
        first) and, for the seats in ``racks``, these racks (bitmasks). Together they
        must hold the very tiles they replace; anything else is a ValueError."""
        racks = dict(racks or {})
        before = Counter(self.undrawn())
        after = Counter(pool)
        for seat, rack in racks.items():
            if not 0 <= seat < self.players:
                raise ValueError(f"there is no seat {seat} at a table of {self.players}")
            before.update(indices(self.racks[seat]))
            after.update(indices(rack))
        if before != after:
            raise ValueError("a rearranged pool and racks must hold the same tiles as before")
        self._lay(pool, racks, next_only=False)

    def draw_next(self, tile: int) -> None:
        """The next draw brings ``tile`` (an index of a tile in the pool)."""
        pool = self.undrawn()
        if tile not in pool:
            raise ValueError(f"tile {tile} is not in the pool")
        self._lay([tile, *(other for other in pool if other != tile)], {}, next_only=True)

    def _lay(self, pool: Sequence[int], racks: Mapping[int, int], *, next_only: bool) -> None:
        for seat, rack in racks.items():
            self.racks[seat] = rack
        # New lists and tuples, never edits: copies of the hand share the old ones.
        self._pool = [*self._pool[: self._drawn], *pool]
        arranged = Arranged(len(self.events), tuple(pool), tuple(racks.items()), next_only)
        self._arranged = (*self._arranged, arranged)

    def starter_drawable(self) -> list[int]:
        """The tiles the next draw for the start may show: the pool's, less those shown
        in this round of draws (they went back, but a round shows each tile once)."""
        shown = set(self._shown.values())
        return [index for index in self.undrawn() if index not in shown]

    def starter_draw_next(self, tile: int) -> None:
        """The next draw for the start shows ``tile`` (one of :meth:`starter_drawable`)."""
        if tile not in self.starter_drawable():
            raise ValueError(f"tile {tile} cannot be drawn for the start now")
        shown = self._starter_tiles[: self._starter_next]
        self._starter_tiles = (*shown, self.tile_set.tiles[tile])

    @property
    def totals(self) -> list[int]:
        """The scores now: before the hand plus what the hand changed."""
        return list(self._totals)

    @property
    def bank(self) -> int | None:
        """Counters left in the bank: all the game's counters less the players' (Junior)."""
        return None if self.rules.bank is None else self.rules.bank - sum(self.totals)

    def seen_by(self, seat: int | None) -> list[Event]:
        """The hand's events as ``seat`` saw them (``None``: a spectator), kept as they come."""
        seen = self._seen.get(seat)
        if seen is None:
            open_racks = self.rules.open_racks
            seen = self._seen[seat] = [event.seen_by(seat, open_racks) for event in self.events]
        return seen

    def _record(self, event: Event) -> None:
        """Add an event every seat sees whole (a draw hides its tile: _draw records it)."""
        self.events.append(event)
        for seen in self._seen.values():
            seen.append(event)

    def _score(self, seat: int, points: int) -> None:
        """Add ``points`` to what the hand gives ``seat``, and to its running total."""
        self.points[seat] += points
        self._totals[seat] += points

    def rack(self, seat: int) -> list[Tile]:
        return self.tile_set.tiles_in(self.racks[seat])

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    observe = observe
    """What ``seat`` may see of this hand: :func:`observe` itself as the method, so that
    every turn of every bot calls the one builder without a wrapper's call."""

    def legal_actions(self) -> list[LegalAction]:
        player = self.to_move
        return legal_actions(
            self.rules,
            self.phase,
            self.board,
            self.racks[player],
            self.draws,
            self.pool_size,
            self._totals[player],
            self.bank,
            self.drawn,
        )

    # --- applying actions ---------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> Event:
        """Play ``action`` for the player to move; returns the event it made.

        ``player``, when given, is who sends the action: anyone but the player to move
        is refused (rule ``turn``), so a server can pass on what a seat sent.
        """
        if self.phase == "over":
            raise IllegalActionError("hand_over", "the hand is over")
        actor = action.player if isinstance(action, Resign) else self.to_move
        if player is not None and player != actor:
            raise IllegalActionError(
                "turn",
                f"player {player} cannot resign for player {actor}"
                if isinstance(action, Resign)
                else f"it is player {self.to_move}'s turn, not player {player}'s",
            )
        # An illegal action raises before it changes anything: then this is dropped.
        saved = self._saved()
        if isinstance(action, Placement):
            event = self._place(action)
        elif isinstance(action, Draw):
            event = self._draw()
        elif isinstance(action, Pass):
            event = self._pass()
        elif isinstance(action, StarterDraw):
            event = self._starter_draw()
        elif isinstance(action, TakeJoker):
            event = self._take_joker(action)
        elif isinstance(action, Resign):
            event = self._resign(action.player)
        else:
            raise IllegalActionError("action", f"{action!r} is not an action")
        self._undo.append(saved)
        return event

    def _place(self, placement: Placement) -> Event:
        player, rules, tile_set = self.to_move, self.rules, self.tile_set
        if self.phase == "starter_draw":
            raise IllegalActionError(
                "starter_draw", "every player draws a tile to decide who starts first"
            )
        tile, at, corners = placement
        index = tile_set.position.get(tile, -1)
        rack = self.racks[player]
        bit = 0 if index < 0 else 1 << index  # 0: not a tile of this set
        if not rack & bit:
            raise IllegalActionError("own_tile", f"{tile} is not in player {player}'s rack")
        try:
            cell = at.id
        except LatticeError as error:
            raise IllegalActionError("on_board", str(error)) from None
        if type(corners) is not tuple:
            corners = tuple(corners)  # type: ignore[assignment]
            placement = Placement(tile, at, corners)
        bonuses: tuple[tuple[str, int], ...]
        if self.phase == "opening":
            if not opening_tiles(rules, rack, tile_set) >> index & 1:
                allowed = tile_set.tiles_in(opening_tiles(rules, rack, tile_set))
                raise IllegalActionError(
                    "opening_tile",
                    f"this hand opens with {' or '.join(map(str, allowed))}, not {tile}",
                )
            self._check_placement(placement)
            points, bonus_map = opening_points(rules, tile)
            bonuses = tuple(bonus_map.items())
            self.phase = "play"
        else:
            try:
                figure = self.board.checked_figure(placement, cell, index)
            except IllegalPlacementError as error:
                raise IllegalActionError(error.rule, str(error)) from None
            last = rack == bit
            if figure or last or rules.bank is not None:
                value = rules.tile_values[index]
                points, bonus_map = placement_points(rules, value, figure, last, self.bank)
                bonuses = tuple(bonus_map.items())
            else:  # the common case, kept cheap: the tile's value and nothing more
                points, bonuses = rules.tile_values[index], ()
        self.board.push_unchecked(cell, index, corners)
        self.racks[player] = rack = rack ^ bit  # the tile leaves the rack
        # _score and _record written out: most actions are placements, and a placement
        # hides nothing, so every seat's history takes the same event.
        self.points[player] += points
        self._totals[player] += points
        # Every field, straight into the tuple: NamedTuple's __new__ is a Python call.
        event = tuple.__new__(Event, (player, "place", points, tile, at, corners, bonuses))
        self.events.append(event)
        for seen in self._seen.values():
            seen.append(event)
        if not rack:
            self.out = [*self.out, player]  # replaced, not changed: a plain attribute
        reached = rules.match_end != "after_hand" and self._reaches_target(player)
        if reached and rules.match_end == "first_to_target":
            self._finish("target")  # seed 003: the first to reach the target wins at once
            return event
        self._end_turn()
        return event

    def _check_placement(self, placement: Placement) -> None:
        try:
            self.board.check(placement)
        except IllegalPlacementError as error:
            raise IllegalActionError(error.rule, str(error)) from None

    def _draw(self) -> Event:
        rules, player = self.rules, self.to_move
        if self.phase != "play":
            raise IllegalActionError("opening", "the opening tile is placed, not drawn for")
        pool_size = len(self._pool) - self._drawn  # not the property: every draw asks
        if not pool_size:
            raise IllegalActionError("empty_pool", "the pool is empty")
        if rules.max_draws is not None and self.draws >= rules.max_draws:
            raise IllegalActionError(
                "max_draws", f"a player draws at most {rules.max_draws} tiles a turn"
            )
        if rules.bank is not None and self._totals[player] < rules.draw_penalty:
            raise IllegalActionError(
                "pay_to_buy", f"buying a card costs {rules.draw_penalty} counter(s); none left"
            )
        if fit_forbids_draw(rules, self.board, self.racks[player], self.drawn):
            raise IllegalActionError(
                "draw_when",
                "a tile of the rack fits: a player may draw only when none does"
                if rules.draw_when == "unable"
                else "the tile just drawn fits: it may be laid, but no other tile drawn",
            )
        index = self._pool[self._drawn]
        self._drawn += 1
        self.draws += 1
        self.drawn = index
        self.racks[player] |= 1 << index
        self.points[player] -= rules.draw_penalty  # _score written out: a third of all actions
        self._totals[player] -= rules.draw_penalty
        name = "draw" if rules.bank is None else "buy"
        tile = self.tile_set.tiles[index]
        event = tuple.__new__(Event, (player, name, -rules.draw_penalty, tile, None, None, ()))
        self.events.append(event)
        hidden = event.seen_by(None, rules.open_racks)  # as the others see it
        for seat, seen in self._seen.items():
            seen.append(event if seat == player else hidden)
        if pool_size == 1 and rules.pool_empty == "last_round":  # that was the last tile
            self._last_round_by = player
        if rules.draw_ends_turn:
            self._end_turn()
        return event

    def _pass(self) -> Event:
        rules, player = self.rules, self.to_move
        if self.phase != "play":
            raise IllegalActionError("opening", "the opening tile must be placed")
        balance = self._totals[player]
        fits = fit_forbids_draw(rules, self.board, self.racks[player], self.drawn)
        if may_draw(rules, self.draws, self.pool_size, balance, fits):
            raise IllegalActionError(
                "draw_before_pass",
                "a player who does not place draws from the pool; passing comes only after "
                "the last allowed draw or with an empty pool",
            )
        if self.board.can_place(self.racks[player]):
            raise IllegalActionError(
                "place_if_able", "a tile of the rack fits: a player who can place may not pass"
            )
        penalty = pass_penalty(rules, self.draws, self.pool_size)
        self._score(player, -penalty)
        event = Event(player, "pass", -penalty)
        self._record(event)
        self._end_turn()
        return event

    def _take_joker(self, action: TakeJoker) -> Event:
        player, tile_set, board = self.to_move, self.tile_set, self.board
        if self.phase != "play":
            raise IllegalActionError("opening", "the joker can be taken back only in play")
        joker_cell = board.joker_cell
        if joker_cell is None:
            raise IllegalActionError("joker_on_table", "the joker is not on the table")
        index = tile_set.position.get(action.tile, -1)
        if index < 0 or index == tile_set.joker or not self.racks[player] >> index & 1:
            raise IllegalActionError("own_tile", f"{action.tile} is not in player {player}'s rack")
        if (index, action.corners) not in board.joker_swaps(1 << index):
            raise IllegalActionError(
                "joker_exact_fit",
                f"{action.tile} with corners {list(action.corners)} does not fit exactly where "
                f"the joker lies, {joker_cell.to_json()}",
            )
        assert tile_set.joker is not None  # a joker lies on the table
        board.swap_joker(index, action.corners)
        self.racks[player] = self.racks[player] & ~(1 << index) | 1 << tile_set.joker
        event = Event(player, "take_joker", 0, action.tile, joker_cell, action.corners)
        self._record(event)
        self._end_turn()
        return event

    def _resign(self, player: int) -> Event:
        if not 0 <= player < self.players:
            raise IllegalActionError(
                "player", f"a player is from 0 to {self.players - 1}, not {player!r}"
            )
        event = Event(player, "resign")
        self._record(event)
        self._finish("resigned", player)
        return event

    def _starter_draw(self) -> Event:
        if self.phase != "starter_draw":
            raise IllegalActionError("starter_draw", "the starter has already been chosen")
        available = self.starter_drawable()
        # Recorded draws first; once they run out (a record of an unfinished hand played
        # on), the draws come from ``rng``.
        tile = None
        if self._starter_next < len(self._starter_tiles):
            tile = self._starter_tiles[self._starter_next]
        if tile is not None:
            if tile not in self.tile_set:
                raise IllegalActionError("starter_draw", f"{tile} is not a tile of this set")
            index = self.tile_set.index(tile)
            if index not in available:
                raise IllegalActionError(
                    "starter_draw", f"{tile} is not in the pool to be drawn for the start"
                )
            self._starter_next += 1
        else:
            # A copy draws, so that the generator stays a plain value (see the class).
            rng = random.Random()
            if self._rng is not None:
                rng.setstate(self._rng.getstate())
            index = rng.choice(available)
            self._rng = rng
        player = self.to_move
        self._shown = {**self._shown, player: index}  # replaced: a plain attribute
        event = Event(player, "starter_draw", 0, self.tile_set.tiles[index])
        self._record(event)
        waiting = [seat for seat in self._contenders if seat not in self._shown]
        if waiting:
            self.to_move = waiting[0]
            return event
        values = self.tile_set.values
        best = max(values[i] for i in self._shown.values())
        self._contenders = [seat for seat in self._contenders if values[self._shown[seat]] == best]
        self._shown = {}
        if len(self._contenders) == 1:
            self.starter = self.to_move = self._contenders[0]
            self.phase = "opening"
        else:
            self.to_move = self._contenders[0]
        return event

    # --- turns and the end of the hand ---------------------------------------------

    def _end_turn(self) -> None:
        self.draws = 0
        self.drawn = None
        rules = self.rules
        following = (self.to_move + 1) % self.players
        if self.out and (
            rules.going_out == "ends_hand"
            or (rules.going_out == "finish_round" and following == self.starter)
        ):
            self._finish("out")
            return
        if self._last_round_by is not None:
            # Junior: after the pool's last card, the round ends with the turn of the
            # player who took it, or just before it (``last_round_ends``, RULES.md).
            ends_at = self.to_move if rules.last_round_ends == "after_taker" else following
            if ends_at == self._last_round_by and self._last_round_armed:
                self._finish("last_round")
                return
            self._last_round_armed = True
        pool_empty = self._drawn == len(self._pool)  # not pool_size: every turn asks
        if (pool_empty or rules.bank is not None or rules.max_draws == 0) and self._stuck():
            ended_by_out = self.out and rules.going_out != "plays_on"
            self._finish(
                "out"
                if ended_by_out
                else "last_round"
                if self._last_round_by is not None
                else "blocked"
            )
            return
        self.to_move = following

    def _stuck(self) -> bool:
        """Whether no player can do anything but pass: the hand is blocked."""
        rules = self.rules
        if (self.pool_size and rules.max_draws != 0) and (
            rules.bank is None or any(total >= rules.draw_penalty for total in self.totals)
        ):
            return False
        board = self.board
        if any(map(board.can_place, self.racks)):
            return False
        return not any(next(board.joker_swaps(rack), None) for rack in self.racks)

    def _reaches_target(self, seat: int) -> bool:
        """Whether ``seat``'s total now rings the gong: the first to reach the target in
        this hand (``match_end`` other than ``after_hand``)."""
        target = self.rules.target_score
        if self.gong is None and target is not None and self._totals[seat] >= target:
            self.gong = seat
            return True
        return False

    def _finish(self, reason: EndReason, resigned: int | None = None) -> None:
        """End the hand and settle it; ``resigned``: the player who resigned, with reason
        ``resigned`` (nothing is settled then, and no gong rings)."""
        left = [self.tile_set.value_of(rack) for rack in self.racks]
        settlement, player = settle(self.rules, reason, left, self.out)
        if reason == "target":
            player = self.gong
        elif reason == "resigned":
            player = resigned
        for seat, change in enumerate(settlement):
            self._score(seat, change)
        if self.rules.match_end != "after_hand" and reason != "resigned":
            for seat in sorted(range(self.players), key=self._totals.__getitem__, reverse=True):
                self._reaches_target(seat)
        self.end = HandEnd(
            reason,
            player,
            settlement,
            tuple(tuple(self.rack(seat)) for seat in range(self.players)),
        )
        self.phase = "over"


def match_ends(rules: Rules, totals: Sequence[int], hands: int, gong: bool = False) -> bool:
    """Whether a match ends after ``hands`` finished hands with these ``totals``: a total
    reached the target score, the last hand rang the gong (a total reached the target
    during it, ``match_end="gong"``), or the hand limit is reached. Shared with the score
    pad."""
    target, limit = rules.target_score, rules.hand_limit
    reached = target is not None and (gong or max(totals) >= target)
    return reached or (limit is not None and hands >= limit)


# --- the match ----------------------------------------------------------------------


@dataclass
class Match:
    """Hands dealt from one seed until a total reaches the target or the hand limit.

    A finished hand is followed at once by the next deal, so a loop of ``apply`` plays a
    whole match; ``hands[-2]`` (or the hand's events) tells how the last hand ended.

    A value as a hand is: :meth:`clone`, :meth:`undo` (across the deals too), ``==``
    (dataclass equality: the options, the hands and the totals), :meth:`to_text`.
    """

    rules: Rules = field(default_factory=Rules)
    players: int = 2
    seed: int | None = None
    deals: Sequence[Deal] = ()
    """Deals to play first, in order (a replayed record); later hands come from the seed."""
    starter_draws: Sequence[Sequence[Tile]] = ()
    """For each dealt hand, the tiles its starter draws showed (a replayed record)."""
    hands: list[Hand] = field(default_factory=list, init=False)
    totals: list[int] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        # Tuples, so that equal matches compare equal however their deals were passed.
        self.deals = tuple(self.deals)
        self.starter_draws = tuple(map(tuple, self.starter_draws))
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**63)
        self.totals = [self.rules.starting_score] * self.players
        self._start_hand()

    @classmethod
    def from_preset(cls, name: str = "classic", players: int = 2, seed: int | None = None) -> Match:
        return cls(preset(name).rules, players, seed)

    def __repr__(self) -> str:
        return f"Match.from_text({self.to_text()!r})"

    def to_text(self) -> str:
        """The whole match as one line: options, seed, deals and every action
        (:mod:`triominos.position`); :meth:`from_text` plays it again."""
        from triominos.position import match_to_text  # position builds on this module

        return match_to_text(self)

    @classmethod
    def from_text(cls, text: str) -> Match:
        """The match :meth:`to_text` wrote; PositionError names a malformed field."""
        from triominos.position import match_from_text

        return match_from_text(text)

    def __copy__(self) -> Match:
        """:meth:`clone`: a copy sharing the hand in play would corrupt both matches."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> Match:
        return self.clone()

    def __reduce__(self) -> tuple[Callable[[str], Match], tuple[str]]:
        """Pickled as its text, as a hand is."""
        return Match.from_text, (self.to_text(),)

    def clone(self) -> Match:
        """An independent copy: the hand in play is cloned, the finished ones shared
        until :meth:`undo` reopens one (it clones it first)."""
        clone = Match.__new__(Match)
        for option in fields(Match):  # not __dict__, which would slow the attributes
            setattr(clone, option.name, getattr(self, option.name))
        clone.hands = [*self.hands[:-1], self.hand.clone()]
        clone.totals = self.totals.copy()
        return clone

    def undo(self) -> Event:
        """Take back the last action exactly, across the end of a hand: the hand it
        ended is reopened (its points taken back out of the totals) and the next deal
        dropped. UndoError at the first deal."""
        hand = self.hand
        if not hand._undo and len(self.hands) > 1:
            self.hands.pop()  # dealt when the last action ended the hand before
            hand = self.hands[-1] = self.hands[-1].clone()
        if hand.is_over:
            for seat, points in enumerate(hand.points):
                self.totals[seat] -= points
        return hand.undo()

    def check_take_back(self, player: int) -> None:
        """IllegalActionError (rule ``takeback``) unless ``player`` may take back their
        last action now (:meth:`take_back`); asked before the others are asked to agree.

        Only the last action of the match, and only one that hides nothing once taken
        back: never a draw, whose tile would go back to the pool with the taker knowing
        the next draw, nor the action that ended a hand, which showed every rack.
        """
        events = self.hand.events
        if self.hand.is_over or (not events and len(self.hands) > 1):
            raise IllegalActionError(
                "takeback", "a hand that ended showed every rack: its last action stands"
            )
        if not events:
            raise IllegalActionError("takeback", "nothing to take back: no one has acted yet")
        last = events[-1]
        if last.player != player:
            raise IllegalActionError(
                "takeback", f"the last action is player {last.player}'s, not player {player}'s"
            )
        if last.action in DRAWS or last.action == "starter_draw":
            raise IllegalActionError(
                "takeback", "a drawn tile cannot go back: the taker would know the next draw"
            )

    def take_back(self, player: int) -> Event:
        """Undo ``player``'s last action when the others agreed to a takeback; the event
        taken back. IllegalActionError as :meth:`check_take_back` says."""
        self.check_take_back(player)
        return self.undo()

    def _start_hand(self) -> None:
        number = len(self.hands) + 1
        if number <= len(self.deals):
            deal = self.deals[number - 1]
        else:
            deal = Deal.shuffle(self.rules, self.players, random.Random(f"{self.seed}/{number}"))
        starter_tiles = self.starter_draws[number - 1] if number <= len(self.starter_draws) else ()
        rng = random.Random(f"{self.seed}/{number}/starter")
        hand = Hand(
            self.rules,
            deal,
            number=number,
            rng=rng,
            starter_tiles=starter_tiles,
            totals=self.totals,
        )
        self.hands.append(hand)

    @property
    def hand(self) -> Hand:
        """The hand being played (the last one once the match is over)."""
        return self.hands[-1]

    @property
    def is_over(self) -> bool:
        hand = self.hand
        return hand.is_over and (
            self.resigned is not None
            or match_ends(self.rules, self.totals, len(self.hands), hand.gong is not None)
        )

    @property
    def resigned(self) -> int | None:
        """The player who resigned the match (:class:`Resign`), if one did."""
        end = self.hand.end
        return end.player if end is not None and end.reason == "resigned" else None

    @property
    def winners(self) -> list[int]:
        """The seats with the highest total once the match is over; a player who resigned
        lost, whatever their total, and the others are ranked by theirs."""
        if not self.is_over:
            return []
        playing = [seat for seat in range(self.players) if seat != self.resigned]
        best = max(self.totals[seat] for seat in playing)
        return [seat for seat in playing if self.totals[seat] == best]

    @property
    def to_move(self) -> int:
        return self.hand.to_move

    def legal_actions(self) -> list[LegalAction]:
        return [] if self.is_over else self.hand.legal_actions()

    def observe(self, seat: int | None) -> Observation:
        return observe(self.hand, seat)

    def apply(self, action: Action, player: int | None = None) -> Event:
        """Play an action; when it ends a hand, bank the hand and deal the next one."""
        if self.is_over:
            raise IllegalActionError("match_over", "the match is over")
        hand = self.hand
        event = hand.apply(action, player)
        if hand.is_over:
            for seat, points in enumerate(hand.points):
                self.totals[seat] += points
            if not self.is_over:
                self._start_hand()
        return event


_METHODS: dict[str, tuple[type, str]] = {
    "checked_figure": (Board, "checked_figure"),
    "hand_apply": (Hand, "apply"),
    "match_apply": (Match, "apply"),
    "match_is_over": (Match, "is_over"),
    "match_to_move": (Match, "to_move"),
    "match_observe": (Match, "observe"),
}
"""The paths the native core replaces that are methods (or properties): their class and
attribute."""

PYTHON_MATCH_PATHS: dict[str, object] = {
    "placement_actions": placement_actions,
    "observe": observe,
    **{name: owner.__dict__[attribute] for name, (owner, attribute) in _METHODS.items()},
}
"""The functions the native core replaces (:data:`triominos.native.MATCH_PATHS`), this
module's and its classes' own: the reference it is compared with
(tests/test_native_api.py), kept whichever core is in use."""


def use_paths(paths: Mapping[str, object]) -> dict[str, object]:
    """Make ``paths`` (by the names of :data:`PYTHON_MATCH_PATHS`) the functions in use;
    the ones they replace. ``observe`` is this module's and :class:`Hand`'s method; a
    module that imported it before keeps the one it got."""
    module = globals()
    before = {
        name: _METHODS[name][0].__dict__[_METHODS[name][1]] if name in _METHODS else module[name]
        for name in paths
    }
    for name, function in paths.items():
        if name in _METHODS:
            setattr(*_METHODS[name], function)
        else:
            module[name] = function
    Hand.observe = module["observe"]
    return before


_NATIVE = native.load_match()
if _NATIVE is not None:
    use_paths({name: getattr(_NATIVE, name) for name in native.MATCH_PATHS})
