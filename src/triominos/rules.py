"""Rule options and the named presets.

Every difference between editions and every house rule is one field of :class:`Rules`;
a preset is a value of it with the rulebooks (seeds) it comes from. RULES.md explains
each option in words and cites its source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from triominos.tiles import TILE_SETS, Joker, Tile, TileSet

Opening = Literal["highest_triple", "starter_draw", "pool_card"]
GoingOut = Literal["ends_hand", "finish_round", "plays_on"]
Blocked = Literal["lowest_scores_difference", "each_loses_own", "no_settlement"]
TilePoints = Literal["value", "one"]
PoolEmpty = Literal["plays_on", "last_round"]

OPENINGS: tuple[Opening, ...] = ("highest_triple", "starter_draw", "pool_card")
GOING_OUT: tuple[GoingOut, ...] = ("ends_hand", "finish_round", "plays_on")
BLOCKED: tuple[Blocked, ...] = ("lowest_scores_difference", "each_loses_own", "no_settlement")
TILE_POINTS: tuple[TilePoints, ...] = ("value", "one")
POOL_EMPTY: tuple[PoolEmpty, ...] = ("plays_on", "last_round")


class RuleOptionError(ValueError):
    """A rule option, preset or player count that is not allowed; names the option."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


@dataclass(frozen=True, slots=True)
class Rules:
    """One immutable set of rule values; see RULES.md for each field."""

    tile_set: str = "classic"
    joker: bool = False
    min_players: int = 2
    max_players: int = 6
    rack_sizes: tuple[tuple[int, int], ...] = ((2, 9), (3, 7), (4, 7), (5, 6), (6, 6))
    opening: Opening = "highest_triple"
    opening_triple_bonus: int = 10
    opening_zero_bonus: int = 30
    max_draws: int | None = 3
    draw_penalty: int = 5
    failed_draw_penalty: int = 10
    empty_pool_pass_penalty: int = 0
    bridge_bonus: int = 40
    hexagon_bonus: int = 50
    double_hexagon_bonus: int = 60
    triple_hexagon_bonus: int = 70
    two_sides_bonus: int = 0
    going_out_bonus: int = 25
    going_out: GoingOut = "ends_hand"
    going_out_collects: bool = True
    blocked: Blocked = "lowest_scores_difference"
    tile_points: TilePoints = "value"
    last_tile_bonus: int = 0
    draw_ends_turn: bool = False
    pool_empty: PoolEmpty = "plays_on"
    starting_score: int = 0
    bank: int | None = None
    open_racks: bool = False
    target_score: int | None = 400
    hand_limit: int | None = None
    figure_points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Bonus points indexed by the board's figure code (board.FIGURES); derived."""
    tile_values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """What laying each tile scores, by tile index, before bonuses; derived."""
    box: tuple[Tile, ...] = field(init=False, repr=False, compare=False)
    """The tiles in play: the set, less the joker when ``joker`` is off; derived."""
    box_mask: int = field(init=False, repr=False, compare=False)
    """The tiles in play as a bitmask over the set's indices; derived."""

    def __post_init__(self) -> None:
        tiles = TILE_SETS[self.tile_set].tiles if self.tile_set in TILE_SETS else ()
        box = tiles if self.joker else tuple(t for t in tiles if not isinstance(t, Joker))
        object.__setattr__(self, "box", box)
        self._validate()
        object.__setattr__(self, "box_mask", self.tiles.mask(box))
        figure_points = (
            0,
            self.hexagon_bonus,
            self.double_hexagon_bonus,
            self.triple_hexagon_bonus,
            self.bridge_bonus,
            self.two_sides_bonus,
        )
        object.__setattr__(self, "figure_points", figure_points)
        values = self.tiles.values if self.tile_points == "value" else (1,) * len(self.tiles)
        object.__setattr__(self, "tile_values", values)

    def _validate(self) -> None:
        if self.tile_set not in TILE_SETS:
            raise RuleOptionError("tile_set", f"must be one of {_names(TILE_SETS)}")
        _choice("opening", self.opening, OPENINGS)
        _choice("going_out", self.going_out, GOING_OUT)
        _choice("blocked", self.blocked, BLOCKED)
        _choice("tile_points", self.tile_points, TILE_POINTS)
        _choice("pool_empty", self.pool_empty, POOL_EMPTY)
        for name in ("joker", "going_out_collects", "draw_ends_turn", "open_racks"):
            if not isinstance(getattr(self, name), bool):
                raise RuleOptionError(name, f"must be true or false, not {getattr(self, name)!r}")
        if self.joker and TILE_SETS[self.tile_set].joker is None:
            raise RuleOptionError("joker", f"the {self.tile_set} set has no joker")
        for name in (
            "opening_triple_bonus",
            "opening_zero_bonus",
            "draw_penalty",
            "failed_draw_penalty",
            "empty_pool_pass_penalty",
            "bridge_bonus",
            "hexagon_bonus",
            "double_hexagon_bonus",
            "triple_hexagon_bonus",
            "two_sides_bonus",
            "going_out_bonus",
            "last_tile_bonus",
            "starting_score",
        ):
            _whole(name, getattr(self, name), minimum=0)
        _whole("min_players", self.min_players, minimum=2)
        _whole("max_players", self.max_players, minimum=self.min_players)
        if self.max_draws is not None:
            _whole("max_draws", self.max_draws, minimum=0)
        if self.target_score is not None:
            _whole("target_score", self.target_score, minimum=1)
        if self.hand_limit is not None:
            _whole("hand_limit", self.hand_limit, minimum=1)
        if self.bank is not None:
            _whole("bank", self.bank, minimum=self.starting_score * self.max_players)
            # Counters change hands only through the bank: laying earns, buying pays.
            unpaid = [
                name
                for name in (
                    "failed_draw_penalty",
                    "empty_pool_pass_penalty",
                    "going_out_bonus",
                    "opening_triple_bonus",
                    "opening_zero_bonus",
                )
                if getattr(self, name)
            ]
            if unpaid or self.blocked != "no_settlement":
                raise RuleOptionError(
                    "bank",
                    "with a bank, counters move only by laying and buying: "
                    + (f"{', '.join(unpaid)} must be 0" if unpaid else "")
                    + ("; " if unpaid and self.blocked != "no_settlement" else "")
                    + (
                        "blocked must be 'no_settlement'" if self.blocked != "no_settlement" else ""
                    ),
                )
        if self.target_score is None and self.hand_limit is None:
            raise RuleOptionError(
                "target_score", "a match needs a target score, a hand limit, or both"
            )
        sizes = dict(self.rack_sizes)
        wanted = set(range(self.min_players, self.max_players + 1))
        if set(sizes) != wanted:
            raise RuleOptionError(
                "rack_sizes",
                f"needs one rack size for each player count from {self.min_players} "
                f"to {self.max_players}, got {sorted(sizes)}",
            )
        tiles = len(self.box)
        for players, size in sizes.items():
            _whole("rack_sizes", size, minimum=1)
            # The starter draw shows one pool tile per player at once; the first card
            # of Junior comes from the pool too.
            keep = {"starter_draw": players, "pool_card": 2}.get(self.opening, 1)
            if players * size + keep > tiles:
                raise RuleOptionError(
                    "rack_sizes",
                    f"{players} racks of {size} need {players * size} tiles; the "
                    f"{self.tile_set} set has {tiles} and the pool must keep at least {keep}",
                )

    # --- derived values -----------------------------------------------------------

    @property
    def tiles(self) -> TileSet:
        return TILE_SETS[self.tile_set]

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not (self.min_players <= players <= self.max_players):
            raise RuleOptionError(
                "players",
                f"these rules are for {self.min_players} to {self.max_players} players, "
                f"not {players!r}",
            )

    def rack_size(self, players: int) -> int:
        self.check_players(players)
        return dict(self.rack_sizes)[players]

    # --- conversions --------------------------------------------------------------

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; an unknown option is an error."""
        unknown = sorted(set(changes) - set(OPTION_NAMES))
        if unknown:
            raise RuleOptionError(unknown[0], f"is not a rule option; options are {OPTION_NAMES}")
        if "rack_sizes" in changes:
            changes["rack_sizes"] = _rack_sizes(changes["rack_sizes"])
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value, as the record's ``rules`` object holds them."""
        values = {name: getattr(self, name) for name in OPTION_NAMES}
        values["rack_sizes"] = {str(players): size for players, size in self.rack_sizes}
        return values

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Rules:
        return cls().replace(**dict(values))

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """The options whose values differ: name -> (ours, theirs)."""
        return {
            name: (getattr(self, name), getattr(other, name))
            for name in OPTION_NAMES
            if getattr(self, name) != getattr(other, name)
        }


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules) if f.init)


def _names(values: Mapping[str, object] | tuple[str, ...]) -> str:
    return ", ".join(repr(v) for v in values)


def _choice(option: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RuleOptionError(option, f"must be one of {_names(allowed)}, not {value!r}")


def _whole(option: str, value: object, *, minimum: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RuleOptionError(
            option, f"must be a whole number of at least {minimum}, not {value!r}"
        )


def _rack_sizes(value: object) -> tuple[tuple[int, int], ...]:
    """Rack sizes from a mapping (record form, keys may be strings) or pairs."""
    try:
        pairs = value.items() if isinstance(value, Mapping) else value
        return tuple(sorted((int(players), int(size)) for players, size in pairs))  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise RuleOptionError(
            "rack_sizes", f"must map player counts to rack sizes, like {{'2': 9}}, not {value!r}"
        ) from None


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of rule values and the rulebooks (seed files) it follows."""

    name: str
    rules: Rules
    seeds: tuple[str, ...]
    summary: str


CHILDREN_SCORING: dict[str, Any] = {
    "tile_points": "one",
    "hexagon_bonus": 1,
    "double_hexagon_bonus": 2,
    "triple_hexagon_bonus": 3,
    "bridge_bonus": 1,
    "two_sides_bonus": 0,
    "opening_triple_bonus": 0,
    "opening_zero_bonus": 0,
    "draw_penalty": 0,
    "failed_draw_penalty": 0,
    "empty_pool_pass_penalty": 0,
    "going_out_bonus": 5,
    "going_out_collects": False,
    "blocked": "no_settlement",
    "target_score": None,
    "hand_limit": 1,
}
"""The simplified scoring for children of seeds 001 and 004, as option values: one point
a tile, +1 a bridge or a hexagon, +2 two hexagons, +3 three, +5 for the first player to
lay all tiles, no negative points; one hand is one game."""

JUNIOR_RULES = Rules(
    tile_set="junior",
    joker=True,
    min_players=2,
    max_players=4,
    rack_sizes=((2, 6), (3, 6), (4, 6)),
    opening="pool_card",
    tile_points="one",
    hexagon_bonus=1,
    double_hexagon_bonus=2,
    triple_hexagon_bonus=3,
    bridge_bonus=1,
    opening_triple_bonus=0,
    opening_zero_bonus=0,
    max_draws=1,
    draw_penalty=1,
    failed_draw_penalty=0,
    draw_ends_turn=True,
    last_tile_bonus=1,
    going_out="plays_on",
    going_out_bonus=0,
    going_out_collects=False,
    blocked="no_settlement",
    pool_empty="last_round",
    starting_score=4,
    bank=60,
    target_score=None,
    hand_limit=1,
)

PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "classic",
            Rules(),
            ("002_de32dbffb4f2dbcb.txt", "003_e03a3318ce0c58e6.txt"),
            "56 tiles; the highest triple opens; a hand ends when a player goes out.",
        ),
        Preset(
            "extended",
            Rules(tile_set="extended", opening="starter_draw", going_out="finish_round"),
            ("001_1b09aa5bbd6db9b8.txt", "004_c724ba1986690f37.txt"),
            "76 tiles; a draw decides who starts; going out rings the bell for the last "
            "round of turns.",
        ),
        Preset(
            "junior",
            JUNIOR_RULES,
            ("000_06eafe67cd733af6.txt",),
            "Triominos Junior: 36 cards with a joker, paid in counters from a bank of 60.",
        ),
        Preset(
            "classic-children",
            Rules().replace(**CHILDREN_SCORING),
            ("002_de32dbffb4f2dbcb.txt", "001_1b09aa5bbd6db9b8.txt", "004_c724ba1986690f37.txt"),
            "The classic game with the simple children's scoring of seeds 001 and 004.",
        ),
        Preset(
            "extended-children",
            Rules(tile_set="extended", opening="starter_draw", going_out="finish_round").replace(
                **CHILDREN_SCORING
            ),
            ("001_1b09aa5bbd6db9b8.txt", "004_c724ba1986690f37.txt"),
            "The extended game with the simple children's scoring of seeds 001 and 004.",
        ),
    )
}


def preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleOptionError(
            "preset", f"must be one of {_names(tuple(PRESETS))}, not {name!r}"
        ) from None
