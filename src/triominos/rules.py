"""Rule options and the named presets.

Every difference between editions and every house rule is one field of :class:`Rules`,
declared once in :data:`OPTIONS` (what it means, its values, its seeds); a preset is a
value of :class:`Rules` with the rulebooks (seeds) it comes from. RULES.md explains each
option in words and cites its source.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from triominos.tiles import TILE_SETS, Joker, Tile, TileSet

Opening = Literal["highest_triple", "starter_draw", "pool_card"]
DrawWhen = Literal["always", "drawn_unfit", "unable"]
GoingOut = Literal["ends_hand", "finish_round", "plays_on"]
Blocked = Literal["lowest_scores_difference", "each_loses_own", "no_settlement"]
BlockedDifference = Literal["others_minus_own", "each_difference"]
BlockedTie = Literal["each_scores", "nobody_scores"]
TilePoints = Literal["value", "one"]
PoolEmpty = Literal["plays_on", "last_round"]
LastRoundEnds = Literal["after_taker", "before_taker"]
MatchEnd = Literal["after_hand", "gong", "first_to_target"]
OptionKind = Literal["choice", "flag", "whole", "rack_sizes"]

SEED_JUNIOR = "000_06eafe67cd733af6.txt"
SEED_EXTENDED_NL_DE = "001_1b09aa5bbd6db9b8.txt"
SEED_CLASSIC_NL = "002_de32dbffb4f2dbcb.txt"
SEED_CLASSIC_FR = "003_e03a3318ce0c58e6.txt"
SEED_EXTENDED_ES_PT = "004_c724ba1986690f37.txt"
ADULT_SEEDS = (SEED_EXTENDED_NL_DE, SEED_CLASSIC_NL, SEED_CLASSIC_FR, SEED_EXTENDED_ES_PT)
ALL_SEEDS = (SEED_JUNIOR, *ADULT_SEEDS)


MAX_TARGET_SCORE = 10_000
MAX_HANDS = 100
"""The bounds of target_score and hand_limit: twenty times the rulebooks' targets (400,
500) and hands, and a match that cannot last for ever (a target of 10**12 made a table
of bots play on without end)."""


class RuleOptionError(ValueError):
    """A rule option, preset or player count that is not allowed; names the option."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.reason = message


@dataclass(frozen=True, slots=True)
class RuleOption:
    """The one declaration of a rule option, from which every door is derived.

    Validation, ``triominos rules``, ``--rule NAME=VALUE``, ``/api/presets``, the web
    forms and RULES.md's table all read these; the default is the :class:`Rules` field's.
    A form shows ``label_key``/``help_key`` (and ``value_key`` for each choice) from
    the option texts of the six languages (``server/static/locales/rules/``).
    """

    name: str
    kind: OptionKind
    meaning: str
    seeds: tuple[str, ...]
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int | None = None
    """The largest whole number allowed, where a larger one would let a match go on
    without end (None: no bound)."""
    optional: bool = False
    """Whether None is allowed ("none": no limit, no target, no bank)."""
    common: bool = False
    """Whether a family changes it often: the forms show the common options first and
    the rest behind "More"."""

    @property
    def label_key(self) -> str:
        return f"rule.{self.name}"

    @property
    def help_key(self) -> str:
        return f"rule.{self.name}.help"

    def value_key(self, choice: str) -> str:
        return f"rule.{self.name}.{choice}"

    @property
    def allowed(self) -> str:
        """The values allowed, in words: what every error about this option says."""
        if self.kind == "choice":
            words = f"one of {_names(self.choices)}"
        elif self.kind == "flag":
            words = "true or false"
        elif self.kind == "whole" and self.maximum is not None:
            words = f"a whole number from {self.minimum} to {self.maximum}"
        elif self.kind == "whole":
            words = f"a whole number of at least {self.minimum}"
        else:
            words = "player counts mapped to rack sizes, like 2:9,3:7 or {'2': 9}"
        return words + (", or none" if self.optional else "")

    def check(self, value: object) -> None:
        """Raise RuleOptionError naming the option unless ``value`` is of its kind."""
        if value is None and self.optional:
            return
        if self.kind == "choice":
            fits = value in self.choices
        elif self.kind == "flag":
            fits = isinstance(value, bool)
        elif self.kind == "whole":
            fits = (
                isinstance(value, int)
                and not isinstance(value, bool)
                and value >= self.minimum
                and (self.maximum is None or value <= self.maximum)
            )
        else:  # rack_sizes: checked against the player counts by Rules
            fits = True
        if not fits:
            raise RuleOptionError(self.name, f"must be {self.allowed}, not {value!r}")

    def parse(self, text: str) -> object:
        """The value of a command line's ``NAME=VALUE``, checked."""
        word = text.strip()
        value: object = word
        if self.optional and word.lower() == "none":
            value = None
        elif self.kind == "flag":
            value = {"true": True, "false": False}.get(word.lower(), word)
        elif self.kind == "whole":
            value = int(word) if re.fullmatch(r"-?[0-9]+", word) else word
        elif self.kind == "rack_sizes":
            word = word.replace(" ", "")
            if not re.fullmatch(r"[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*", word):
                raise RuleOptionError(self.name, f"must be {self.allowed}, not {text!r}")
            pairs = (pair.split(":") for pair in word.split(","))
            value = {int(players): int(size) for players, size in pairs}
        self.check(value)
        return value

    def to_json(self) -> dict[str, Any]:
        """The declaration as ``/api/presets`` and ``triominos rules --json`` give it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "choices": list(self.choices),
            "minimum": self.minimum if self.kind == "whole" else None,
            "maximum": self.maximum if self.kind == "whole" else None,
            "optional": self.optional,
            "common": self.common,
            "default": Rules().to_dict()[self.name],
            "allowed": self.allowed,
            "meaning": self.meaning,
            "seeds": list(self.seeds),
            "label": self.label_key,
            "help": self.help_key,
            "choice_labels": {choice: self.value_key(choice) for choice in self.choices},
        }


DEFAULT_RACK_SIZES: tuple[tuple[int, int], ...] = ((2, 9), (3, 7), (4, 7), (5, 6), (6, 6))
"""Tiles dealt by player count, seeds 001, 002 and 004: "Bij 2 spelers pakt elke speler 9
stenen, bij 3-4 spelers 7 en bij 5-6 spelers 6" (002)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One immutable set of rule values; each field is declared in :data:`OPTIONS`."""

    tile_set: str = "classic"
    joker: bool = False
    min_players: int = 2
    max_players: int = 6
    rack_sizes: tuple[tuple[int, int], ...] = DEFAULT_RACK_SIZES
    opening: Opening = "highest_triple"
    opening_triple_bonus: int = 10
    opening_zero_bonus: int = 30
    opening_zero_swap: bool = True
    max_draws: int | None = 3
    draw_when: DrawWhen = "always"
    draw_penalty: int = 5
    failed_draw_penalty: int = 10
    empty_pool_pass_penalty: int = 0
    dry_pool_no_penalty: bool = False
    bridge_bonus: int = 40
    hexagon_bonus: int = 50
    double_hexagon_bonus: int = 60
    triple_hexagon_bonus: int = 70
    two_sides_bonus: int = 0
    going_out_bonus: int = 25
    going_out: GoingOut = "ends_hand"
    going_out_collects: bool = True
    blocked: Blocked = "lowest_scores_difference"
    blocked_difference: BlockedDifference = "others_minus_own"
    blocked_tie: BlockedTie = "each_scores"
    tile_points: TilePoints = "value"
    last_tile_bonus: int = 0
    draw_ends_turn: bool = False
    pool_empty: PoolEmpty = "plays_on"
    last_round_ends: LastRoundEnds = "after_taker"
    starting_score: int = 0
    bank: int | None = None
    open_racks: bool = False
    target_score: int | None = 400
    match_end: MatchEnd = "after_hand"
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
        for option in OPTIONS.values():
            option.check(getattr(self, option.name))
        if self.joker and TILE_SETS[self.tile_set].joker is None:
            raise RuleOptionError("joker", f"the {self.tile_set} set has no joker")
        # What one option's declaration cannot say: bounds set by other options.
        _whole("max_players", self.max_players, minimum=self.min_players)
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
        """A copy with some options changed; an unknown option is an error.

        A player range changed without ``rack_sizes`` keeps the rack sizes it still
        needs and takes the default ones (seed 002's 9, 7, 6) for new player counts, so
        that ``max_players=4`` alone is valid. An option made invalid by the change of
        another is refused in the name of the option changed, saying what it conflicts
        with: the user set the one, never the other.
        """
        unknown = sorted(set(changes) - set(OPTION_NAMES))
        if unknown:
            raise RuleOptionError(unknown[0], f"is not a rule option; options are {OPTION_NAMES}")
        given = list(changes)
        if "rack_sizes" in changes:
            changes["rack_sizes"] = _rack_sizes(changes["rack_sizes"])
        elif {"min_players", "max_players"} & set(changes):
            low = changes.get("min_players", self.min_players)
            high = changes.get("max_players", self.max_players)
            if isinstance(low, int) and isinstance(high, int):
                changes["rack_sizes"] = self._rack_sizes_for(range(low, high + 1))
        try:
            return dataclasses.replace(self, **changes)
        except RuleOptionError as error:
            others = [name for name in given if name != error.option]
            if error.option in given or not others:
                raise
            settings = ", ".join(f"{name}={_shown(changes[name])}" for name in others)
            raise RuleOptionError(
                others[0], f"{settings} conflicts with {error.option}: {error.reason}"
            ) from None

    def _rack_sizes_for(self, counts: range) -> tuple[tuple[int, int], ...]:
        """This rule set's rack sizes for the player counts ``counts``, the default ones
        for counts it has none for (a count neither has is left out: the validation
        names it)."""
        sizes = {**dict(DEFAULT_RACK_SIZES), **dict(self.rack_sizes)}
        return tuple((players, sizes[players]) for players in counts if players in sizes)

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


def _declare(*options: RuleOption) -> dict[str, RuleOption]:
    return {option.name: option for option in options}


_CHILDREN = (SEED_EXTENDED_NL_DE, SEED_EXTENDED_ES_PT)
_FIGURES = (SEED_CLASSIC_NL, SEED_CLASSIC_FR, *_CHILDREN, SEED_JUNIOR)

OPTIONS: dict[str, RuleOption] = _declare(
    RuleOption(
        "tile_set",
        "choice",
        "The box: classic has 56 tiles (numbers 0 to 5); extended adds the 20 mirror "
        "images, 76 tiles in all; junior has 35 picture cards (symbols 1 to 5, each with its "
        "own colour) and a joker.",
        ALL_SEEDS,
        choices=tuple(TILE_SETS),
    ),
    RuleOption(
        "joker",
        "flag",
        "Whether the joker of the junior set is played: it fits anywhere, showing the "
        "numbers around it, and may be taken back with a card that fits exactly.",
        (SEED_JUNIOR,),
    ),
    RuleOption(
        "min_players",
        "whole",
        "The fewest players the rules are written for.",
        ALL_SEEDS,
        minimum=2,
    ),
    RuleOption(
        "max_players", "whole", "The most players the rules are written for.", ALL_SEEDS, minimum=2
    ),
    RuleOption(
        "rack_sizes",
        "rack_sizes",
        "How many tiles each player is dealt, by the number of players (players: tiles).",
        ALL_SEEDS,
    ),
    RuleOption(
        "opening",
        "choice",
        "Who opens: highest_triple (the holder of the highest triple lays it), "
        "starter_draw (each draws a tile; the highest opens with any tile) or pool_card (a "
        "pool card, never the joker, is laid first).",
        ALL_SEEDS,
        choices=get_args(Opening),
    ),
    RuleOption(
        "opening_triple_bonus",
        "whole",
        "Points besides the tile's value for opening with a triple (only when the highest "
        "triple opens).",
        (SEED_CLASSIC_NL, SEED_CLASSIC_FR),
    ),
    RuleOption(
        "opening_zero_bonus",
        "whole",
        "Points on top of that for opening with 0-0-0 (likewise).",
        (SEED_CLASSIC_NL, SEED_CLASSIC_FR),
    ),
    RuleOption(
        "opening_zero_swap",
        "flag",
        "Whether the holder of the highest triple who also holds 0-0-0 may open with "
        "0-0-0 instead, for its bonus (only when the highest triple opens).",
        (SEED_CLASSIC_NL, SEED_CLASSIC_FR),
    ),
    RuleOption(
        "max_draws",
        "whole",
        "The most tiles a player draws in one turn before passing (none: as long as the "
        "pool lasts).",
        ALL_SEEDS,
        optional=True,
        common=True,
    ),
    RuleOption(
        "draw_when",
        "choice",
        "When a player may draw: always (whenever draws remain), drawn_unfit (a first draw "
        "at will, another only when the tile just drawn does not fit) or unable (only when no "
        "tile of the rack fits).",
        ADULT_SEEDS,
        choices=get_args(DrawWhen),
        common=True,
    ),
    RuleOption(
        "draw_penalty",
        "whole",
        "Points lost for each tile drawn (with a bank: the counters a card costs).",
        ALL_SEEDS,
        common=True,
    ),
    RuleOption(
        "failed_draw_penalty",
        "whole",
        "Points lost for passing after drawing in the same turn.",
        ADULT_SEEDS,
    ),
    RuleOption(
        "empty_pool_pass_penalty",
        "whole",
        "Points lost for passing without drawing, the pool being empty.",
        (SEED_CLASSIC_NL, *_CHILDREN),
    ),
    RuleOption(
        "dry_pool_no_penalty",
        "flag",
        "Whether a pass is free of failed_draw_penalty when the pool ran dry before the "
        "last draw allowed (max_draws): the penalty comes only after all the draws.",
        ADULT_SEEDS,
    ),
    RuleOption(
        "bridge_bonus",
        "whole",
        "Points for a bridge: a tile touching the board by one edge and by the corner opposite it.",
        _FIGURES,
    ),
    RuleOption(
        "hexagon_bonus",
        "whole",
        "Points for completing a hexagon (six tiles around one corner).",
        _FIGURES,
    ),
    RuleOption(
        "double_hexagon_bonus",
        "whole",
        "Points for completing two hexagons with one tile.",
        _FIGURES,
    ),
    RuleOption(
        "triple_hexagon_bonus",
        "whole",
        "Points for completing three hexagons with one tile.",
        (SEED_CLASSIC_NL, *_CHILDREN),
    ),
    RuleOption(
        "two_sides_bonus",
        "whole",
        "Points for a tile laid in a gap, against two edges at once.",
        (SEED_CLASSIC_NL,),
    ),
    RuleOption(
        "going_out_bonus",
        "whole",
        "Points for going out (emptying the rack), besides the value of the tiles the "
        "others still hold when going_out_collects.",
        ADULT_SEEDS,
        common=True,
    ),
    RuleOption(
        "going_out",
        "choice",
        "What going out does: ends_hand (the hand ends at once), finish_round (the others "
        "play until the round of turns is complete) or plays_on (the player draws next turn "
        "and the hand goes on).",
        ALL_SEEDS,
        choices=get_args(GoingOut),
    ),
    RuleOption(
        "going_out_collects",
        "flag",
        "Whether the player who goes out also scores the value of the tiles the others still hold.",
        ADULT_SEEDS,
    ),
    RuleOption(
        "blocked",
        "choice",
        "A blocked hand: lowest_scores_difference (the lowest rack scores the others' racks "
        "minus its own), each_loses_own (each loses its rack's value) or no_settlement "
        "(nothing is scored or lost).",
        ALL_SEEDS,
        choices=get_args(Blocked),
    ),
    RuleOption(
        "blocked_difference",
        "choice",
        "What the lowest rack of a blocked hand scores (lowest_scores_difference): "
        "others_minus_own (the others' racks together, less its own once) or "
        "each_difference (its difference to each other rack, added up).",
        ADULT_SEEDS,
        choices=get_args(BlockedDifference),
    ),
    RuleOption(
        "blocked_tie",
        "choice",
        "Two or more racks tied for the lowest in a blocked hand "
        "(lowest_scores_difference): each_scores (each tied player scores) or "
        "nobody_scores (nobody scores).",
        ADULT_SEEDS,
        choices=get_args(BlockedTie),
    ),
    RuleOption(
        "tile_points",
        "choice",
        "What laying a tile scores before bonuses: value (the sum of its numbers) or one "
        "(1 for every tile, the children's scoring).",
        ALL_SEEDS,
        choices=get_args(TilePoints),
    ),
    RuleOption(
        "last_tile_bonus",
        "whole",
        "Points for laying the last tile of one's rack, whether or not the hand ends.",
        (SEED_JUNIOR,),
    ),
    RuleOption(
        "draw_ends_turn",
        "flag",
        "Whether drawing (buying) a tile ends the turn at once, without trying to lay it.",
        (SEED_JUNIOR,),
    ),
    RuleOption(
        "pool_empty",
        "choice",
        "What the pool running out does: plays_on (nothing) or last_round (the round of "
        "turns is played out and ends with the player who took the last tile).",
        (SEED_JUNIOR,),
        choices=get_args(PoolEmpty),
    ),
    RuleOption(
        "last_round_ends",
        "choice",
        "Where the last round (pool_empty=last_round) ends: after_taker (after the next "
        "turn of the player who took the pool's last tile) or before_taker (when the turn "
        "comes back to that player, who does not play again).",
        (SEED_JUNIOR,),
        choices=get_args(LastRoundEnds),
    ),
    RuleOption(
        "starting_score",
        "whole",
        "Each player's score (counters, with a bank) at the start of the match.",
        (SEED_JUNIOR,),
    ),
    RuleOption(
        "bank",
        "whole",
        "Scores are counters, the players' and the bank's adding up to this: a card is "
        "bought from the bank, not without counters, and the bank pays what it holds (none: "
        "points, no limit).",
        (SEED_JUNIOR,),
        optional=True,
    ),
    RuleOption(
        "open_racks",
        "flag",
        "Whether every rack lies face up for all to see (for young children, so a grown-up "
        "can help).",
        (SEED_JUNIOR,),
        common=True,
    ),
    RuleOption(
        "target_score",
        "whole",
        "The score that ends the match, as match_end says (none: no target).",
        ADULT_SEEDS,
        minimum=1,
        maximum=MAX_TARGET_SCORE,
        optional=True,
        common=True,
    ),
    RuleOption(
        "match_end",
        "choice",
        "When a total reaching target_score ends the match: after_hand (when a total is at "
        "the target after a hand's settlement), gong (the hand in which a total reaches it "
        "is the last, even if the total falls back) or first_to_target (at once: the first "
        "to reach it wins).",
        (SEED_CLASSIC_NL, SEED_CLASSIC_FR),
        choices=get_args(MatchEnd),
    ),
    RuleOption(
        "hand_limit",
        "whole",
        "The match ends after this many hands (none: no limit).",
        (SEED_EXTENDED_NL_DE, SEED_EXTENDED_ES_PT, SEED_JUNIOR),
        minimum=1,
        maximum=MAX_HANDS,
        optional=True,
        common=True,
    ),
)
"""Every rule option, declared once, in the order of the fields of :class:`Rules`."""

OPTION_NAMES: tuple[str, ...] = tuple(OPTIONS)


def _names(values: Mapping[str, object] | tuple[str, ...]) -> str:
    return ", ".join(repr(v) for v in values)


def _whole(option: str, value: object, *, minimum: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RuleOptionError(
            option, f"must be a whole number of at least {minimum}, not {value!r}"
        )


def _shown(value: object) -> str:
    """An option's value as ``--rule`` writes it."""
    if isinstance(value, tuple):
        return ",".join(f"{players}:{size}" for players, size in value)
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _rack_sizes(value: object) -> tuple[tuple[int, int], ...]:
    """Rack sizes from a mapping (record form, keys may be strings) or pairs."""
    try:
        pairs = value.items() if isinstance(value, Mapping) else value
        return tuple(sorted((int(players), int(size)) for players, size in pairs))  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise RuleOptionError(
            "rack_sizes", f"must be {OPTIONS['rack_sizes'].allowed}, not {value!r}"
        ) from None


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of rule values and the rulebooks (seed files) it follows.

    ``sources`` says which rules come from where, one line a source: a seed file, or
    ``"house"`` for the project's own readings (RULES.md section 8).
    """

    name: str
    rules: Rules
    seeds: tuple[str, ...]
    summary: str
    sources: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        """The preset with every option's declaration and value: what ``triominos rules
        PRESET --json`` prints and ``/api/presets`` sends for each preset."""
        values = self.rules.to_dict()
        return {
            "name": self.name,
            "summary": self.summary,
            "seeds": list(self.seeds),
            "sources": [{"source": source, "rules": rules} for source, rules in self.sources],
            "players": list(range(self.rules.min_players, self.rules.max_players + 1)),
            "rules": values,
            "options": [
                {**option.to_json(), "value": values[name]} for name, option in OPTIONS.items()
            ],
        }


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

SEED_002_RULES = Rules(draw_when="unable", two_sides_bonus=40, match_end="gong")
"""Seed 002 exactly, every rule from it: the default ``classic`` (RULES.md section 1)."""

EXTENDED_RULES = Rules(
    tile_set="extended", opening="starter_draw", going_out="finish_round", dry_pool_no_penalty=True
)

_SEED_002_SOURCE = (
    SEED_CLASSIC_NL,
    "every rule: 2 to 6 players dealt 9, 7 or 6; the highest triple opens (0-0-0 may "
    "open instead; no triple dealt: the most valuable tile), +10 and +30 for 0-0-0; draw "
    "only when no tile fits, up to 3, -5 each, -10 for passing after; 40 a bridge or a "
    "tile against two sides, 50, 60, 70 for one, two, three hexagons; going out ends the "
    "hand, +25 and the others' racks; the gong at 400 makes that hand the last",
)
_CHILDREN_SOURCE = (
    f"{SEED_EXTENDED_NL_DE}, {SEED_EXTENDED_ES_PT}",
    "the children's scoring: 1 a tile, +1 a bridge or a hexagon, +2 two, +3 three, +5 "
    "for going out first, no negative points, one hand a game",
)
_EXTENDED_SOURCE = (
    f"{SEED_EXTENDED_NL_DE}, {SEED_EXTENDED_ES_PT}",
    "every rule: 76 tiles, 2 to 6 players dealt 9, 7 or 6; a drawn tile decides who "
    "starts; draw at will, up to 3, -5 each, -10 after the third (none when the pool ran "
    "dry); going out rings the bell and the round is played out",
)

PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "classic",
            SEED_002_RULES,
            (SEED_CLASSIC_NL,),
            "Seed 002 exactly: draw only when no tile fits, 40 for a tile against two sides, "
            "the gong at 400 makes that hand the last.",
            (_SEED_002_SOURCE,),
        ),
        Preset(
            "classic-house",
            Rules(),
            (SEED_CLASSIC_NL, SEED_CLASSIC_FR),
            "The classic of older records, seeds 002 and 003 read together: draw while "
            "draws are left, the match ends after the hand reaching 400.",
            (
                (
                    SEED_CLASSIC_NL,
                    "2 to 6 players dealt 9, 7 or 6; 0-0-0 may open over the highest triple; "
                    "no triple dealt: the most valuable tile opens; 60 and 70 for two and "
                    "three hexagons",
                ),
                (
                    SEED_CLASSIC_FR,
                    "the highest triple opens, +10 and +30 for 0-0-0; up to 3 draws, -5 "
                    "each, -10 for passing after; 40 a bridge, 50 a hexagon; going out ends "
                    "the hand, +25 and the others' racks; 400 points",
                ),
                (
                    "house",
                    "draw again after a drawn tile that fits; no bonus for a tile against "
                    "two sides; the match ends after the hand in which a total reaches 400",
                ),
            ),
        ),
        Preset(
            "extended",
            EXTENDED_RULES,
            (SEED_EXTENDED_NL_DE, SEED_EXTENDED_ES_PT),
            "76 tiles; a draw decides who starts; going out rings the bell for the last "
            "round of turns.",
            (_EXTENDED_SOURCE,),
        ),
        Preset(
            "junior",
            JUNIOR_RULES,
            (SEED_JUNIOR,),
            "Triominos Junior: 36 cards with a joker, paid in counters from a bank of 60.",
            ((SEED_JUNIOR, "every rule"),),
        ),
        Preset(
            "classic-children",
            SEED_002_RULES.replace(**CHILDREN_SCORING),
            (SEED_CLASSIC_NL, SEED_EXTENDED_NL_DE, SEED_EXTENDED_ES_PT),
            "The classic game of seed 002 (draw only when no tile fits) with the simple "
            "children's scoring of seeds 001 and 004.",
            (
                (SEED_CLASSIC_NL, "the game: who opens, when to draw, going out ends the hand"),
                _CHILDREN_SOURCE,
            ),
        ),
        Preset(
            "extended-children",
            EXTENDED_RULES.replace(**CHILDREN_SCORING),
            (SEED_EXTENDED_NL_DE, SEED_EXTENDED_ES_PT),
            "The extended game with the simple children's scoring of seeds 001 and 004.",
            (_EXTENDED_SOURCE, _CHILDREN_SOURCE),
        ),
        Preset(
            "classic-002",
            SEED_002_RULES,
            (SEED_CLASSIC_NL,),
            "Seed 002 exactly, the same rules as classic under the name of its rulebook.",
            (_SEED_002_SOURCE,),
        ),
        Preset(
            "classic-003",
            Rules(
                max_players=4,
                rack_sizes=((2, 9), (3, 7), (4, 7)),
                opening_zero_swap=False,
                draw_when="drawn_unfit",
                match_end="first_to_target",
            ),
            (SEED_CLASSIC_FR,),
            "Seed 003 where it speaks: 2 to 4 players, draw again only when the drawn tile "
            "does not fit, the first to reach 400 wins at once.",
            (
                (
                    SEED_CLASSIC_FR,
                    "2 to 4 players dealt 9 or 7; the holder of the highest triple opens "
                    "with it, +10 and +30 for 0-0-0; draw at will, again only when the drawn "
                    "tile does not fit, up to 3, -5 each, -10 for passing after; 40 a "
                    "bridge, 50 a hexagon; going out ends the hand, +25 and the others' "
                    "racks; the first to 400 wins at once",
                ),
                (
                    SEED_CLASSIC_NL,
                    "where 003 is silent: no triple dealt, the most valuable tile opens; 60 "
                    "and 70 for two and three hexagons",
                ),
            ),
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
