"""Puzzles: positions from bot games where one move is clearly better than the obvious one,
the placement that scores the most now, while scoring less now itself.

A puzzle is a value (:class:`Puzzle`): the seat's observation (:mod:`triominos.position`
text, so the seat's own information and nothing more: never another rack, never the
pool's order), the solution (a placement, or the draw), the obvious move it beats (the
highest-scoring placement, greedy's), by how much, why (:class:`Reason`: words the
browser translates, with their parameters), and the puzzle's Glicko-2 rating. One puzzle
is one JSON line (:meth:`Puzzle.to_json`, :meth:`Puzzle.from_json`), and reading one
checks everything that makes it a puzzle (:class:`PuzzleError` says what does not).

How puzzles are found (:func:`find`, :func:`generate`) and why the margin is what it
is: ``docs/puzzles.md``.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import random
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NamedTuple

from triominos.board import FIGURES, Board, Placement
from triominos.bots.base import Budget, GreedyBot, make_bot
from triominos.bots.evaluate import MoveValue, evaluate
from triominos.cluster import ordered_map
from triominos.explain import where
from triominos.game import Action, Draw, Match, Observation, placement_points
from triominos.glicko import Rating, RatingError
from triominos.lattice import Cell
from triominos.notation import NotationError, move_from_text, move_to_text
from triominos.position import PositionError
from triominos.rules import Rules

DRAW = "draw"
"""How a puzzle's JSON writes the draw as its solution."""


class PuzzleError(ValueError):
    """A puzzle that cannot be read or is no puzzle: says which field and why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"puzzle field {field!r}: {message}")
        self.field = field


class Reason(NamedTuple):
    """One part of a puzzle's explanation: a message key and its parameters.

    The keys (the browser's ``puzzle_why_<key>`` messages). A ``cell`` is written as in
    records, ``[x, y, "up"]``, for the board to mark, and ``where`` names it in words, by
    the tiles beside it (:class:`triominos.explain.Where`):

    - ``worth``: ``solution`` and ``obvious`` points now, and the ``margin`` in expected
      points by which the solution is better, all things counted;
    - ``draws``: drawing (``points``: its cost) beats every placement here;
    - ``sets_up``: after the solution, ``tile`` (kept in the rack) completes a ``bonus``
      worth ``points`` at ``cell`` next turn, a bigger one than the rack can after the
      obvious move;
    - ``keeps_back``: the solution keeps ``tile`` (the obvious move's), which still fits
      after it, for ``points`` at most;
    - ``gives_away``: the obvious move opens a ``bonus`` worth ``points`` at ``cell`` for
      the tiles the seat has not seen, a bigger one than they can make now or after the
      solution: what the solution denies the opponents.
    """

    key: str
    params: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}


REASONS = ("worth", "draws", "sets_up", "keeps_back", "gives_away")
"""Every :class:`Reason` key, in the order an explanation lists them."""


@dataclass(frozen=True)
class Puzzle:
    """A position and its one clearly best move (see the module docstring).

    ``margin``: the solution's expected value less the obvious move's, in points, as
    the confirming evaluation found it (``docs/puzzles.md``). ``rating``: the puzzle's
    own Glicko-2 rating as shipped; the server keeps it moving as people solve it.
    """

    observation: Observation
    solution: Action
    obvious: Placement
    margin: float
    explanation: tuple[Reason, ...]
    rating: Rating = field(default_factory=Rating)

    def __post_init__(self) -> None:
        check_seat_only(self.observation)
        options = {option.action: option for option in self.observation.legal_actions()}
        if not isinstance(self.solution, Placement | Draw) or self.solution not in options:
            raise PuzzleError("solution", f"{self.solution!r} is not a legal choice here")
        if self.obvious != obvious_move(self.observation):
            raise PuzzleError("obvious", "the obvious move is the highest-scoring placement")
        if not scores_less(self.observation, self.solution, self.obvious):
            raise PuzzleError(
                "solution",
                "the solution must be a move that scores less now than the obvious one "
                "(the puzzle's prompt says so)",
            )
        for reason in self.explanation:
            if reason.key not in REASONS:
                raise PuzzleError("explanation", f"unknown reason {reason.key!r}")

    @functools.cached_property
    def position(self) -> str:
        """The observation as position text."""
        return self.observation.to_text()

    @functools.cached_property
    def id(self) -> str:
        """A name for the puzzle that only its position makes: the same in every copy."""
        return hashlib.sha256(self.position.encode()).hexdigest()[:12]

    def points(self, action: Action) -> int:
        """What ``action`` scores now (its penalty, for the draw)."""
        return next(o.points for o in self.observation.legal_actions() if o.action == action)

    def to_json(self) -> str:
        """The puzzle as one JSON line."""
        return json.dumps(
            {
                "id": self.id,
                "position": self.position,
                "solution": action_to_text(self.solution),
                "obvious": action_to_text(self.obvious),
                "margin": round(self.margin, 2),
                "explanation": [reason.to_json() for reason in self.explanation],
                "rating": {
                    "rating": round(self.rating.rating, 2),
                    "deviation": round(self.rating.deviation, 2),
                    "volatility": round(self.rating.volatility, 6),
                },
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, line: str | Mapping[str, Any]) -> Puzzle:
        """The puzzle :meth:`to_json` wrote, checked; :class:`PuzzleError` says what is wrong."""
        try:
            data = json.loads(line) if isinstance(line, str) else line
        except json.JSONDecodeError as error:
            raise PuzzleError("", f"not JSON: {error.msg} at column {error.pos + 1}") from None
        if not isinstance(data, Mapping):
            raise PuzzleError("", "a puzzle is a JSON object")
        try:
            observation = Observation.from_text(_member(data, "position", str))
        except PositionError as error:
            raise PuzzleError("position", str(error)) from None
        rating = _member(data, "rating", Mapping)
        try:
            rated = Rating(
                _number(rating, "rating"),
                _number(rating, "deviation"),
                _number(rating, "volatility"),
            )
        except RatingError as error:
            raise PuzzleError("rating", str(error)) from None
        reasons = []
        for reason in _member(data, "explanation", list):
            if not isinstance(reason, Mapping) or not isinstance(reason.get("params"), Mapping):
                raise PuzzleError("explanation", "each reason is {key, params}")
            reasons.append(Reason(str(reason.get("key")), dict(reason["params"])))
        puzzle = cls(
            observation,
            action_from_text(_member(data, "solution", str), observation, "solution"),
            _placement(action_from_text(_member(data, "obvious", str), observation, "obvious")),
            _number(data, "margin"),
            tuple(reasons),
            rated,
        )
        if "id" in data and data["id"] != puzzle.id:
            raise PuzzleError("id", f"{data['id']!r} is not this position's id {puzzle.id!r}")
        return puzzle


def _member(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind):
        raise PuzzleError(name, f"missing, or not a {kind.__name__}")
    return value


def _number(data: Mapping[str, Any], name: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PuzzleError(name, "missing, or not a number")
    return float(value)


def _placement(action: Action) -> Placement:
    if not isinstance(action, Placement):
        raise PuzzleError("obvious", "the obvious move is a placement")
    return action


def action_to_text(action: Action) -> str:
    """A solution as a puzzle writes it: a placement's notation, or ``draw``."""
    if isinstance(action, Draw):
        return DRAW
    if isinstance(action, Placement):
        return move_to_text(action)
    raise PuzzleError("solution", f"a puzzle's answer is a placement or the draw, not {action!r}")


def action_from_text(text: str, observation: Observation, field: str = "solution") -> Action:
    if text == DRAW:
        return Draw()
    try:
        move = move_from_text(text, observation.board)
    except NotationError as error:
        raise PuzzleError(field, str(error)) from None
    if not isinstance(move, Placement):
        raise PuzzleError(field, "a puzzle's answer is a placement or the draw")
    return move


def check_seat_only(observation: Observation) -> None:
    """Raise :class:`PuzzleError` unless the observation is a seat's turn in play and
    shows that seat's information alone: its own rack, no open racks, no hand's end
    (which shows every rack), no tile another seat drew."""
    seat = observation.seat
    if seat is None or observation.rack is None:
        raise PuzzleError("position", "a puzzle is a seat's observation, not a spectator's")
    if not observation.is_my_turn or observation.phase != "play":
        raise PuzzleError("position", "a puzzle is the seat's turn, in play")
    if observation.open_racks is not None or observation.end is not None:
        raise PuzzleError("position", "a puzzle shows no rack but the seat's own")
    for event in observation.history:
        if event.action == "draw" and event.player != seat and event.tile is not None:
            raise PuzzleError("position", f"seat {event.player}'s drawn tile is shown")
    if observation.rack.bit_count() != observation.rack_sizes[seat]:
        raise PuzzleError("position", "the rack is not the size the seat's rack has")


def obvious_move(observation: Observation) -> Placement:
    """The highest-scoring placement, bonuses included: greedy's move."""
    move = _GREEDY.act(observation)
    if not isinstance(move, Placement):
        raise PuzzleError("position", "no tile fits: there is no obvious placement to beat")
    return move


_GREEDY = GreedyBot()


# --- the explanation -------------------------------------------------------------------


class _Bonus(NamedTuple):
    points: int
    figure: str
    cell: int
    tile: int


def _best_bonus(
    board: Board, tiles: int, figure_points: tuple[int, ...], at: int | None = None
) -> _Bonus | None:
    """The biggest bonus a tile of ``tiles`` (a bitmask) completes on the board now (at
    the cell of id ``at`` only, when given)."""
    found = None
    for cell, tile, _, figure in board.placement_ids(tiles):
        points = figure_points[figure]
        if (
            points > 0
            and at in (None, cell)
            and (found is None or (points, -cell) > (found.points, -found.cell))
        ):
            found = _Bonus(points, FIGURES[figure] or "", cell, tile)
    return found


def explain(
    observation: Observation, solution: Action, obvious: Placement, margin: float
) -> tuple[Reason, ...]:
    """Why ``solution`` beats ``obvious``, from the position alone (see :class:`Reason`).

    Each reason compares the boards: as it is now, after the solution and after the
    obvious move; on each, the biggest bonus the seat's kept tiles can complete next (its
    own chance) and the biggest the tiles it has not seen can (the opponents'). A place
    is named by the tiles beside it (:func:`triominos.explain.where`).
    """
    rules, tile_set = observation.rules, observation.board.tile_set
    rack = observation.rack or 0
    on_board = tile_set.mask(placement.tile for placement in observation.board)
    unseen = tile_set.full_mask & ~on_board & ~rack
    points = {option.action: option.points for option in observation.legal_actions()}

    def after(move: Action | None) -> tuple[Board, int, _Bonus | None, _Bonus | None]:
        """The board and the rack once ``move`` is made (None: as they are now), with the
        seat's best bonus next turn and the opponents'."""
        board = observation.board.copy()
        kept = rack
        if isinstance(move, Placement):
            index = tile_set.index(move.tile)
            board.push_unchecked(move.cell.id, index, move.corners)
            kept &= ~(1 << index)
        mine = _best_bonus(board, kept, rules.figure_points)
        return board, kept, mine, _best_bonus(board, unseen, rules.figure_points)

    def bonus(board: Board, found: _Bonus, **more: Any) -> dict[str, Any]:
        cell = Cell.from_id(found.cell)
        named = {"bonus": found.figure, "points": found.points}
        return {**more, **named, "cell": cell.to_json(), "where": where(board, cell).to_json()}

    def worth(found: _Bonus | None) -> int:
        return 0 if found is None else found.points

    _, _, _, theirs_now = after(None)
    board, kept, mine, theirs = after(solution)
    obvious_board, _, obvious_mine, obvious_theirs = after(obvious)
    reasons = [
        Reason(
            "worth",
            {"solution": points[solution], "obvious": points[obvious], "margin": round(margin, 1)},
        )
    ]
    if isinstance(solution, Draw):
        reasons.append(Reason("draws", {"points": points[solution]}))
    if mine is not None and mine.points > worth(obvious_mine):
        tile = tile_set.tiles[mine.tile].name
        reasons.append(Reason("sets_up", bonus(board, mine, tile=tile)))
    later = _most_points(board, kept & tile_set.mask((obvious.tile,)), rules)
    if later is not None and (mine is None or mine.tile != tile_set.index(obvious.tile)):
        reasons.append(Reason("keeps_back", {"tile": obvious.tile.name, "points": later}))
    if obvious_theirs is not None and obvious_theirs.points > max(worth(theirs), worth(theirs_now)):
        reasons.append(Reason("gives_away", bonus(obvious_board, obvious_theirs)))
    return tuple(reasons)


def _most_points(board: Board, tiles: int, rules: Rules) -> int | None:
    """The most a tile of ``tiles`` (a bitmask) scores on the board now; None if none fits."""
    scores = (
        placement_points(rules, rules.tile_values[tile], figure, False)[0]
        for _, tile, _, figure in board.placement_ids(tiles)
    )
    return max(scores, default=None)


# --- finding puzzles -------------------------------------------------------------------

MARGIN = 10.0
"""Expected points by which a solution must beat the obvious move, at both budgets: two
draws' penalty, and several times the budgets' noise (``docs/puzzles.md``)."""
LEAD = 3.0
"""Expected points by which the solution must beat every other choice at the confirming
budget: one answer, not a near tie between two (the same tile turned, say)."""
SIMULATIONS = 1000
"""The screening budget: every choice of a position in the same worlds."""
CONFIRM = 10
"""How many times the screening budget the confirmation spends, from another seed."""
CONFIRM_SEED = 7919
"""Added to the seed for the confirmation: other worlds than the screen's."""
PER_HAND = 3
"""At most this many puzzles from one hand, so that a set is not a few games' worth."""
PRESET = "classic-house"
"""The rules of the puzzles' games: the reading the shipped set was made under (a
player may draw with a tile that fits, which many of its solutions are), kept when the
default ``classic`` became seed 002."""


class Found(NamedTuple):
    """What :func:`find` made of a position: the puzzle, if any, and the margins (the
    best choice's expected value less the obvious move's) by which it was kept or
    dropped."""

    puzzle: Puzzle | None
    screen_margin: float
    """0 when the best is the obvious move or scores as much now (:func:`scores_less`)."""
    confirm_margin: float | None
    """The screen's best less the obvious move at the confirming budget; None when the
    screen dropped the position."""


def prior_rating(observation: Observation, solution: Action, obvious: Placement) -> Rating:
    """A new puzzle's rating before anyone has tried it: harder the more points now the
    solution gives up against the obvious move (10 rating points a point, from 1500 for
    none, within 1000 to 2000), with a new player's deviation, so that the first few
    attempts move it most."""
    points = {option.action: option.points for option in observation.legal_actions()}
    forgone = points[obvious] - points[solution]
    return Rating(min(2000.0, max(1000.0, 1500.0 + 10.0 * forgone)))


def find(
    observation: Observation,
    simulations: int = SIMULATIONS,
    confirm: int = SIMULATIONS * CONFIRM,
    *,
    seed: int = 0,
) -> Found | None:
    """The puzzle in this position, if one move is clearly best (see ``docs/puzzles.md``).

    None when there is nothing to weigh: not the seat's turn in play, or no placement to
    beat. The screen values every choice with ``simulations``; it drops the position
    when the best choice does not score less now than the obvious move
    (:func:`scores_less`: the obvious move itself, or one that scores as much), or beats
    it by less than :data:`MARGIN`, or leads the next choice by less than :data:`LEAD`.
    Otherwise the choices are valued again with ``confirm`` simulations from another
    seed, and the puzzle is kept only if
    the same move is best, by :data:`MARGIN` over the obvious move and by :data:`LEAD`
    over every other choice.
    """
    if observation.phase != "play" or not observation.is_my_turn:
        return None
    try:
        obvious = obvious_move(observation)
    except PuzzleError:
        return None
    screened = evaluate(observation, Budget(simulations=simulations), seed=seed)
    best = screened[0]
    if not isinstance(best.action, Placement | Draw) or not scores_less(
        observation, best.action, obvious
    ):
        return Found(None, 0.0, None)
    margin = best.expected - _value(screened, obvious)
    if margin < MARGIN or best.expected - screened[1].expected < LEAD:
        return Found(None, margin, None)
    confirmed = evaluate(observation, Budget(simulations=confirm), seed=seed + CONFIRM_SEED)
    again = confirmed[0]
    confirm_margin = _value(confirmed, best.action) - _value(confirmed, obvious)
    lead = again.expected - confirmed[1].expected
    if again.action != best.action or confirm_margin < MARGIN or lead < LEAD:
        return Found(None, margin, confirm_margin)
    solution = again.action
    puzzle = Puzzle(
        observation,
        solution,
        obvious,
        confirm_margin,
        explain(observation, solution, obvious, confirm_margin),
        prior_rating(observation, solution, obvious),
    )
    return Found(puzzle, margin, confirm_margin)


def scores_less(observation: Observation, action: Action, obvious: Placement) -> bool:
    """Whether ``action`` scores less now than the obvious move: what a puzzle's solution
    does (its prompt says so; a move that scores as much now is a second obvious move,
    and which of two equal moves greedy calls obvious a person cannot see)."""
    points = {option.action: option.points for option in observation.legal_actions()}
    return points[action] < points[obvious]


def _value(values: list[MoveValue], action: Action) -> float:
    return next(value.expected for value in values if value.action == action)


class Game(NamedTuple):
    """The bots of one generating game, seat by seat, and its seed."""

    bots: tuple[str, ...]
    seed: int


def games(seed: int) -> Iterator[Game]:
    """The games puzzles come from: :data:`PRESET`, 2 to 4 players, ``sim`` in the first seat
    and ``sim`` or ``expert`` in each other, drawn from ``seed``."""
    rng = random.Random(seed)
    while True:
        players = rng.choice((2, 3, 4))
        others = tuple(rng.choice(("sim", "expert")) for _ in range(players - 1))
        yield Game(("sim", *others), rng.randrange(2**63))


def generate(
    seed: int = 0,
    simulations: int = SIMULATIONS,
    confirm: int = SIMULATIONS * CONFIRM,
    *,
    think: int = 200,
    ray: str | None = None,
) -> Iterator[tuple[Game, Found]]:
    """Puzzles from bot games without end (each game's first hand; the caller stops):
    every position screened and confirmed by :func:`find`, at most :data:`PER_HAND` a
    hand. ``think``: the simulations a move of the ``sim`` players. Yields every position
    :func:`find` valued, kept or not, for the caller to count, game after game in
    :func:`games`' order (with ``ray``, the games are tasks of that Ray cluster)."""
    valued = functools.partial(game_positions, simulations, confirm, think)
    for game, found in zip(games(seed), ordered_map(valued, games(seed), ray=ray), strict=False):
        for position in found:
            yield game, position


def game_positions(simulations: int, confirm: int, think: int, game: Game) -> list[Found]:
    """What :func:`find` made of each position of one game's first hand, in order."""
    match = Match.from_preset(PRESET, players=len(game.bots), seed=game.seed)
    bots = [
        make_bot(name, seed=game.seed + seat, budget=Budget(simulations=think))
        for seat, name in enumerate(game.bots)
    ]
    found: list[Found] = []
    kept = 0
    while not match.is_over and len(match.hands) == 1 and kept < PER_HAND:
        observation = match.observe(match.to_move)
        position = find(observation, simulations, confirm, seed=game.seed)
        if position is not None:
            kept += position.puzzle is not None
            found.append(position)
        match.apply(bots[match.to_move].act(observation))
    return found


def solves(puzzle: Puzzle, simulations: int = SIMULATIONS, *, seed: int = 0) -> bool:
    """Whether the evaluation, at this budget and seed, still finds the puzzle's solution
    the best choice and better than the obvious move (``triominos puzzles check``)."""
    values = evaluate(puzzle.observation, Budget(simulations=simulations), seed=seed)
    best = values[0]
    return best.action == puzzle.solution and best.expected > _value(values, puzzle.obvious)


# --- a set of puzzles ------------------------------------------------------------------


NEAR = 5
"""How many of the puzzles rated nearest a player the next puzzle is chosen from."""


class PuzzleSet:
    """Puzzles by id, in the order of their file, with the choices a puzzle page makes."""

    def __init__(self, puzzles: Iterable[Puzzle]) -> None:
        self.puzzles = list(puzzles)
        self.by_id = {puzzle.id: puzzle for puzzle in self.puzzles}
        if len(self.by_id) != len(self.puzzles):
            raise PuzzleError("id", "the same position twice in one set")

    def __len__(self) -> int:
        return len(self.puzzles)

    def daily(self, day: datetime.date) -> Puzzle:
        """The puzzle of ``day``: the same for everyone, from the date alone."""
        if not self.puzzles:
            raise PuzzleError("", "an empty set has no puzzle of the day")
        digest = hashlib.sha256(day.isoformat().encode()).digest()
        return self.puzzles[int.from_bytes(digest[:8], "big") % len(self.puzzles)]

    def near(
        self,
        rating: float,
        ratings: Mapping[str, Rating],
        exclude: Collection[str],
        rng: random.Random,
        spread: int = NEAR,
    ) -> Puzzle | None:
        """One of the ``spread`` puzzles rated nearest ``rating``, none of ``exclude``.

        ``ratings``: the puzzles' ratings where they moved from the shipped ones. Chosen
        at random among the nearest, so that two players of one rating do not meet the
        same puzzles in the same order. None when every puzzle is excluded.
        """
        left = [puzzle for puzzle in self.puzzles if puzzle.id not in exclude]
        if not left:
            return None

        def distance(puzzle: Puzzle) -> float:
            return abs(ratings.get(puzzle.id, puzzle.rating).rating - rating)

        nearest = sorted(left, key=distance)[:spread]
        return rng.choice(nearest)


def load(lines: Iterable[str]) -> list[Puzzle]:
    """The puzzles of JSON lines (blank lines skipped); an error names the line."""
    puzzles = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            puzzles.append(Puzzle.from_json(line))
        except PuzzleError as error:
            raise PuzzleError(error.field, f"line {number}: {error}") from None
    return puzzles


@functools.cache
def shipped() -> PuzzleSet:
    """The puzzles that come with the package (``triominos/data/puzzles.jsonl``)."""
    text = resources.files("triominos").joinpath("data", SHIPPED).read_text(encoding="utf-8")
    return PuzzleSet(load(text.splitlines()))


SHIPPED = "puzzles.jsonl"
