"""Analysis of a finished match: what every decision lost against the best choice.

For every decision of every seat in a record (each placement, draw and pass; the
starter draw is chance, not a decision), the seat's observation is rebuilt from the
record (what that seat saw then, never the others' racks) and every choice it had is
valued in the same sampled worlds (:func:`triominos.bots.evaluate.evaluate`, the ``sim``
bot's own measure). The *loss* of the move made is the value of the best choice less
its own, in points; a loss of :data:`THRESHOLDS` points or more earns a mark, as in
chess analysis: an inaccuracy, a mistake, a blunder. Each player's summary gives the
average loss, the count of each mark and the biggest bonus missed (a bonus some legal
choice would have scored now that the move made did not).

The thresholds were chosen by looking at the losses of real games (docs/analysis.md
says how). Everything is deterministic for a number of simulations and a seed, so an
analysis can be checked, cached and shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

from triominos.board import Placement
from triominos.bots.base import Budget
from triominos.bots.evaluate import evaluate
from triominos.bots.expert import Evaluator, understood
from triominos.bots.sim import drawn_on_purpose
from triominos.game import (
    ACTION_NAMES,
    Action,
    Draw,
    Event,
    LegalAction,
    Observation,
    Pass,
    StarterDraw,
    TakeJoker,
    action_json,
    observe,
)
from triominos.lattice import Cell
from triominos.record import JsonField, RecordError, load_match
from triominos.tiles import JOKER, TileSet

Mark = Literal["inaccuracy", "mistake", "blunder"]
MARKS: tuple[Mark, ...] = get_args(Mark)

THRESHOLDS: dict[Mark, float] = {"inaccuracy": 10.0, "mistake": 20.0, "blunder": 40.0}
"""The loss in points from which a move earns each mark (docs/analysis.md: how chosen)."""

DEFAULT_SIMULATIONS = 500
"""Simulations per decision, shared by its choices, when not told."""

FORMAT = "triominos-analysis/1"
NOT_DECISIONS = ("starter_draw", "resign")
"""Actions that are not a choice between moves: a starter draw is chance, and a
resignation ends the match instead of playing it (RULES.md §16)."""
"""The ``format`` of an analysis in JSON."""


class AnalysisError(RecordError):
    """An analysis in JSON that is not one: ``field`` names the faulty value (as a
    record's error does, :class:`~triominos.record.JsonField`)."""


def mark_for(loss: float) -> Mark | None:
    """The mark a loss of ``loss`` points earns (the gravest it reaches), or None."""
    earned = [mark for mark in MARKS if loss >= THRESHOLDS[mark]]
    return earned[-1] if earned else None


# --- the values -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """A choice of the seat: what it scores now and what it is worth."""

    action: Action
    points: int
    bonuses: tuple[tuple[str, int], ...]
    expected: float
    """:attr:`MoveValue.expected <triominos.bots.evaluate.MoveValue.expected>`, in points."""


@dataclass(frozen=True, slots=True)
class MissedBonus:
    """The biggest bonus some legal choice would have scored now that the move made did not."""

    name: str
    points: int
    action: Action
    """A choice that scores it (the best one when the best does)."""
    by_best: bool
    """Whether the best choice scores it: missing it was a loss, not only a choice."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat: the move made against the best choice."""

    hand: int
    """The hand's number (1, 2…)."""
    index: int
    """The action's index in that hand's ``actions`` in the record."""
    seat: int
    total: int
    """The seat's score just before the move (the match total with this hand so far)."""
    choices: int
    """How many legal choices the seat had."""
    played: Choice
    best: Choice
    missed: MissedBonus | None
    joker_cell: Cell | None = None
    """Where the joker lay (Junior), which a ``take_joker`` names as its cell."""

    @property
    def loss(self) -> float:
        """Points the move made lost against the best choice (0 when it was the best)."""
        return max(0.0, self.best.expected - self.played.expected)

    @property
    def mark(self) -> Mark | None:
        return mark_for(self.loss)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's decisions in brief."""

    seat: int
    name: str
    decisions: int
    average_loss: float
    marks: dict[Mark, int]
    missed: Decision | None
    """The decision where the biggest bonus was missed, if any was."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every decision of a match, in the order played, and how it was valued."""

    players: tuple[str, ...]
    simulations: int
    seed: int
    decisions: tuple[Decision, ...]

    def summaries(self) -> list[PlayerSummary]:
        """One summary a seat, in seat order."""
        found = []
        for seat, name in enumerate(self.players):
            own = [decision for decision in self.decisions if decision.seat == seat]
            marks = dict.fromkeys(MARKS, 0)
            for decision in own:
                if decision.mark is not None:
                    marks[decision.mark] += 1
            missed = [decision for decision in own if decision.missed is not None]
            biggest = max(missed, key=lambda d: d.missed.points if d.missed else 0, default=None)
            average = sum(decision.loss for decision in own) / len(own) if own else 0.0
            found.append(PlayerSummary(seat, name, len(own), average, marks, biggest))
        return found

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON: the decisions, and each player's summary (derived, for
        programs; :meth:`from_json` works it out again)."""
        return {
            "format": FORMAT,
            "simulations": self.simulations,
            "seed": self.seed,
            "thresholds": dict(THRESHOLDS),
            "players": [
                {
                    "seat": summary.seat,
                    "name": summary.name,
                    "decisions": summary.decisions,
                    "average_loss": round(summary.average_loss, 2),
                    "marks": summary.marks,
                    "missed": None
                    if summary.missed is None
                    else {"hand": summary.missed.hand, "index": summary.missed.index},
                }
                for summary in self.summaries()
            ],
            "decisions": [_decision_json(decision) for decision in self.decisions],
        }

    @classmethod
    def from_json(cls, value: object, tile_set: TileSet) -> Analysis:
        """The analysis :meth:`to_json` wrote; AnalysisError names a faulty field."""
        root = JsonField(value, "", None, AnalysisError)
        root.member("format").choice((FORMAT,))
        return cls(
            tuple(player.member("name").text() for player in root.member("players").items()),
            root.member("simulations").integer(),
            root.member("seed").integer(),
            tuple(_decision_from(item, tile_set) for item in root.member("decisions").items()),
        )


# --- analysing a record -----------------------------------------------------------------


Progress = Callable[[int, int], None]
"""Told ``(decisions done, decisions in all)`` after each decision."""


class Position(NamedTuple):
    """A decision to analyse: the mover's observation just before it, and what it did."""

    action_index: int
    """The action's index in its hand's ``actions``."""
    observation: Observation
    event: Event


def positions(
    document: Mapping[str, Any], *, index: int = 1, line: int | None = None
) -> list[Position]:
    """Every decision of a record, in the order played (not :data:`NOT_DECISIONS`).

    The record is replayed and checked first (:func:`~triominos.record.load_match`:
    RecordError or VerificationError, with ``index`` and ``line``, for a bad one). Then
    each hand is taken back from its end one action at a time (:meth:`Hand.undo`), so
    the observations are the engine's own, as each seat saw its turn.
    """
    match = load_match(document, index=index, line=line)
    found: list[Position] = []
    for hand in match.hands:
        hand = hand.clone()
        taken_back = []
        while hand.events:
            event = hand.undo()
            if event.action not in NOT_DECISIONS:
                taken_back.append(Position(len(hand.events), observe(hand, event.player), event))
        found.extend(reversed(taken_back))
    return found


def player_names(document: Mapping[str, Any]) -> tuple[str, ...]:
    """The players' names of a record that :func:`positions` accepted."""
    return tuple(str(player["name"]) for player in document["players"])


def analyse(
    document: Mapping[str, Any],
    *,
    simulations: int = DEFAULT_SIMULATIONS,
    seed: int = 0,
    index: int = 1,
    line: int | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Every decision of the record's match valued (see the module docstring):
    :func:`positions`, then :func:`decide` for each. ``simulations`` per decision are
    shared by its choices."""
    found = positions(document, index=index, line=line)
    decisions = []
    for done, position in enumerate(found, 1):
        decisions.append(decide(position, simulations, seed))
        if progress is not None:
            progress(done, len(found))
    return Analysis(player_names(document), simulations, seed, tuple(decisions))


def decide(position: Position, simulations: int, seed: int) -> Decision:
    """One decision valued: every choice the seat had, in the same sampled worlds
    (a forced move with a tenth of the simulations: there is nothing to compare)."""
    observation, event = position.observation, position.event
    options = {option.action: option for option in observation.legal_actions()}
    made = event.action_made()
    budget = Budget(simulations=simulations if len(options) > 1 else max(1, simulations // 10))
    values = [(value.action, value.expected) for value in evaluate(observation, budget, seed=seed)]
    played = _choice(options[made], dict(values)[made])
    best = _choice(options[values[0][0]], values[0][1])
    if isinstance(made, Draw) and _draws_on_purpose(observation, list(options.values())):
        best = played
    assert observation.seat is not None
    return Decision(
        observation.hand_number,
        position.action_index,
        observation.seat,
        observation.totals[observation.seat],
        len(options),
        played,
        best,
        _missed(played, best, options.values()),
        observation.board.joker_cell,
    )


def _draws_on_purpose(observation: Observation, options: list[LegalAction]) -> bool:
    """Whether the ``sim`` bot would draw here without simulating
    (:func:`~triominos.bots.sim.drawn_on_purpose`): greedy playouts do not value the
    fishing that follows a draw, so such a draw is the best as the bot sees it,
    whatever the playouts make of it."""
    if observation.phase != "play" or not understood(observation, options):
        return False
    decided = drawn_on_purpose(observation, Evaluator(observation).ranked(options))
    return decided is not None and isinstance(decided[0].action, Draw)


def _choice(option: LegalAction, expected: float) -> Choice:
    """The option with its value to the hundredth of a point: finer is noise, and the
    JSON stays short and gives back the same value."""
    bonuses = tuple(option.bonuses.items())
    return Choice(option.action, option.points, bonuses, round(expected, 2))


def _missed(played: Choice, best: Choice, options: Iterable[LegalAction]) -> MissedBonus | None:
    """The biggest bonus of ``options`` the move made did not score, the best's first."""
    scored = dict(played.bonuses)
    found: MissedBonus | None = None
    best_bonuses = dict(best.bonuses)
    for option in options:
        for name, points in option.bonuses.items():
            if points <= scored.get(name, 0):
                continue
            by_best = best_bonuses.get(name, 0) >= points
            action = best.action if by_best else option.action
            if found is None or (points, by_best) > (found.points, found.by_best):
                found = MissedBonus(name, points, action, by_best)
    return found


# --- JSON ---------------------------------------------------------------------------------


def _choice_json(choice: Choice, decision: Decision) -> dict[str, Any]:
    move = action_json(choice.action, decision.joker_cell)
    return {
        **move,
        "points": choice.points,
        "bonuses": dict(choice.bonuses),
        "expected": choice.expected,
    }


def _decision_json(decision: Decision) -> dict[str, Any]:
    missed = decision.missed
    return {
        "hand": decision.hand,
        "index": decision.index,
        "seat": decision.seat,
        "total": decision.total,
        "choices": decision.choices,
        "played": _choice_json(decision.played, decision),
        "best": _choice_json(decision.best, decision),
        "loss": round(decision.loss, 2),
        "mark": decision.mark,
        "joker_cell": None if decision.joker_cell is None else decision.joker_cell.to_json(),
        "missed": None
        if missed is None
        else {
            "name": missed.name,
            "points": missed.points,
            "by_best": missed.by_best,
            "action": action_json(missed.action, decision.joker_cell),
        },
    }


_ACTIONS = tuple(name for name in ACTION_NAMES if name not in ("buy", "resign"))
"""A decision's action as :func:`~triominos.game.action_json` writes it: a draw is never
``buy`` there, and a resignation is no decision."""


def _action_from(field: JsonField, tile_set: TileSet) -> Action:
    """An action as :func:`~triominos.game.action_json` writes it."""
    kind = field.member("action").choice(_ACTIONS)
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "starter_draw":
        return StarterDraw()
    tile = field.member("tile").tile(tile_set)
    corners = field.member("corners").corners(free=tile == JOKER)
    if kind == "take_joker":
        return TakeJoker(tile, corners)
    return Placement(tile, field.member("cell").cell(), corners)


def _choice_from(field: JsonField, tile_set: TileSet) -> Choice:
    return Choice(
        _action_from(field, tile_set),
        field.member("points").integer(),
        field.member("bonuses").bonuses(),
        field.member("expected").number(),
    )


def _decision_from(field: JsonField, tile_set: TileSet) -> Decision:
    missed_field = field.optional("missed")
    missed = None
    if missed_field is not None:
        missed = MissedBonus(
            missed_field.member("name").text(),
            missed_field.member("points").integer(),
            _action_from(missed_field.member("action"), tile_set),
            missed_field.member("by_best").flag(),
        )
    joker = field.optional("joker_cell")
    return Decision(
        field.member("hand").integer(),
        field.member("index").integer(),
        field.member("seat").integer(),
        field.member("total").integer(),
        field.member("choices").integer(),
        _choice_from(field.member("played"), tile_set),
        _choice_from(field.member("best"), tile_set),
        missed,
        None if joker is None else joker.cell(),
    )


__all__ = [
    "DEFAULT_SIMULATIONS",
    "MARKS",
    "THRESHOLDS",
    "Analysis",
    "AnalysisError",
    "Choice",
    "Decision",
    "Mark",
    "MissedBonus",
    "PlayerSummary",
    "Position",
    "analyse",
    "decide",
    "mark_for",
    "player_names",
    "positions",
]
