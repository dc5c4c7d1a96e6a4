"""The lessons of "Learn to play": a guided first hand for each edition, declared as data.

A lesson is a short list of steps. Each step is a position in the project's notation
(:mod:`triominos.position`: a hand written out, or a seeded match and the actions played
in it), a goal the player reads, the moves that reach it, and the points each of them
scores, which the step's texts state. The learner is the seat to move. The engine is
the only judge, as at a table: :func:`check` plays the move the learner chose on the
position and says, in explanation keys the pages translate, whether it reaches the goal
and, if it does not, why (the tile fits nowhere and which corner does not match, the
move scores less, it misses the bridge). Every step is checked against the engine by
``tests/test_learn.py``: each expected move is legal and scores what the step says.

Texts: ``learn_<edition>_<step>_goal`` (what to do) and ``learn_<edition>_<step>_done``
(what the move did, with ``{points}``), in every locale; the reasons are
``learn_why_<key>`` (:data:`REASONS`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from triominos.board import Placement
from triominos.game import (
    Action,
    Draw,
    Event,
    Hand,
    LegalAction,
    Match,
    Pass,
    StarterDraw,
    TakeJoker,
)
from triominos.notation import move_to_text
from triominos.tiles import Tile, rotations

KIND_WORDS: dict[type[Action], str] = {Draw: "draw", Pass: "pass", StarterDraw: "starter"}
"""How a step names an action that is not a move on the board."""

REASONS = ("fits_nowhere", "corner", "less", "missed", "tile_fits", "goal")
"""The reasons a move misses a step's goal (texts ``learn_why_<key>``)."""


class LearnError(ValueError):
    """A lesson or step that does not exist, or an answer that is no move of the step."""


def action_text(action: Action) -> str:
    """An action as a step names it: a move in notation (``545@0,0v``), else its kind."""
    if isinstance(action, Placement | TakeJoker):
        return move_to_text(action)
    return KIND_WORDS.get(type(action), type(action).__name__.lower())


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move misses the goal: a text key of :data:`REASONS` and its values."""

    key: str
    params: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": self.params}


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the learner does: ``position`` in the project's notation (a hand's text,
    or a match's when it starts with a seed), ``expected`` the moves that reach the goal
    (:func:`action_text`), each scoring ``points``."""

    key: str
    position: str
    expected: tuple[str, ...]
    points: int

    def hand(self) -> Hand:
        """The position as a new hand: each call a fresh one to play on."""
        if ";seed=" in self.position:
            return Match.from_text(self.position).hand
        return Hand.from_text(self.position)


@dataclass(frozen=True, slots=True)
class Lesson:
    """The guided first hand of one edition (``edition``: the preset it plays)."""

    edition: str
    steps: tuple[Step, ...]

    def step(self, number: int) -> Step:
        if not 0 <= number < len(self.steps):
            raise LearnError(f"the {self.edition} lesson has steps 0 to {len(self.steps) - 1}")
        return self.steps[number]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's answer to a move: whether it reaches the goal, what it scored (when
    played), and why not."""

    correct: bool
    played: LegalAction | None
    reasons: tuple[Reason, ...]
    event: Event | None = None
    hand: Hand | None = None
    """The hand after the move, when it reached the goal (the page shows the board)."""


def _open_corners(hand: Hand, tile: Tile) -> Iterator[tuple[Placement, int, int]]:
    """Each placement of ``tile`` on an open cell that matches every corner but one:
    the placement, the number the table shows at that corner and the tile's there."""
    board = hand.board
    for cell in board.open_cells():
        shown = [board.number_at(vertex) for vertex in cell.corners()]
        for corners in rotations(tile.numbers):
            wrong = [
                (seen, number)
                for seen, number in zip(shown, corners, strict=True)
                if seen is not None and seen != number
            ]
            matching = sum(seen is not None for seen in shown) - len(wrong)
            if len(wrong) == 1 and matching >= 1:
                yield Placement(tile, cell, corners), wrong[0][0], wrong[0][1]


def why_not(hand: Hand, tile: Tile) -> tuple[Reason, ...]:
    """Why ``tile`` fits nowhere on the table: the nearest miss, a place where all corners
    but one match, and which number that corner shows."""
    reasons = [Reason("fits_nowhere", {"tile": tile.name})]
    for placement, shown, number in _open_corners(hand, tile):
        reasons.append(
            Reason(
                "corner",
                {
                    "tile": tile.name,
                    "cell": placement.cell.to_json(),
                    "shown": shown,
                    "number": number,
                },
            )
        )
        break
    return tuple(reasons)


def _misses(step: Step, played: LegalAction, goal: LegalAction) -> tuple[Reason, ...]:
    """Why a legal move that is not one of the step's misses the goal, against the goal's
    best move."""
    if not isinstance(played.action, Placement | TakeJoker) and isinstance(
        goal.action, Placement | TakeJoker
    ):
        return (Reason("tile_fits", {"tile": goal.action.tile.name, "points": goal.points}),)
    missed = [name for name in goal.bonuses if name not in played.bonuses]
    if missed:
        name = missed[0]
        return (Reason("missed", {"bonus": name, "value": goal.bonuses[name]}),)
    if played.points < goal.points:
        return (Reason("less", {"points": played.points, "best": goal.points}),)
    return (Reason("goal", {"step": step.key}),)


def check(step: Step, action: Action | None, tile: Tile | None = None) -> Verdict:
    """Judge the learner's ``action`` on ``step`` with the engine; ``tile`` alone (no
    action): the learner chose a tile that fits nowhere, and is told why.

    Raises LearnError for an action that is none of the position's legal ones.
    """
    hand = step.hand()
    if action is None:
        if tile is None:
            raise LearnError("an answer is a legal action of the step, or a tile of the rack")
        if tile not in hand.rack(hand.to_move):
            raise LearnError(f"{tile} is not in the rack")
        if any(
            isinstance(option.action, Placement) and option.action.tile == tile
            for option in hand.legal_actions()
        ):
            raise LearnError(f"{tile} fits: choose where it goes")
        return Verdict(False, None, why_not(hand, tile))
    legal = {option.action: option for option in hand.legal_actions()}
    played = legal.get(action)
    if played is None:
        raise LearnError("the answer is none of the step's legal actions")
    goals = [option for option in legal.values() if action_text(option.action) in step.expected]
    if action_text(action) not in step.expected:
        goal = max(goals, key=lambda option: option.points)
        return Verdict(False, played, _misses(step, played, goal))
    event = hand.apply(action)
    return Verdict(True, played, (), event, hand)


CLASSIC_CORNERS = "555@0,0^ 545@0,0v"
"""A table two tiles big: 5-5-5 opened, 4-5-5 laid against it."""

LESSONS: dict[str, Lesson] = {
    lesson.edition: lesson
    for lesson in (
        Lesson(
            "classic",
            (
                Step(
                    "opening",
                    "rules=classic;players=2;seed=24;deals=;starter=;actions=",
                    ("555@0,0^",),
                    25,
                ),
                Step(
                    "corners",
                    "rules=classic;number=1;totals=25,0;deal=0-1-2 1-2-5 4-5-5/0-0-3 1-1-2 "
                    "2-3-5 4-4-4>0-0-0 1-2-3;resume=0:1:0::-:-;board=555@0,0^;starter=;"
                    "rng=-;actions=",
                    ("545@0,0v", "455@-1,0v", "554@0,-1v"),
                    14,
                ),
                Step(
                    "scoring",
                    "rules=classic;number=1;totals=39,0;deal=0-1-2 0-5-5 4-4-5/0-0-3 1-1-2 "
                    f"4-4-4>0-0-0 1-2-3;resume=0:1:0::-:-;board={CLASSIC_CORNERS};starter=;"
                    "rng=-;actions=",
                    ("544@1,0^", "544@0,1^"),
                    13,
                ),
                Step(
                    "bridge",
                    "rules=classic;number=1;totals=52,40;deal=1-1-3 0-3-3 0-3-5 2-4-5/1-1-2 "
                    "4-4-4>0-0-0 1-2-3;resume=0:0:0::-:-;board=333@0,0^ 334@0,-1v 034@0,-1^ "
                    "434@1,-1^ 442@1,-2v 342@1,-2^ 230@-1,-1v 241@2,-2^ 020@-1,-1^ 401@2,-2v "
                    "005@-1,-2v;starter=;rng=-;actions=",
                    ("503@0,-2^",),
                    48,
                ),
                Step(
                    "hexagon",
                    "rules=classic;number=1;totals=100,61;deal=0-0-1 1-2-4 2-3-3 4-4-5/1-1-2 "
                    "5-5-5>0-0-0 1-2-3;resume=0:0:0::-:-;board=444@0,0^ 443@0,-1v 454@0,0v "
                    "451@1,0^ 343@0,-1^ 342@1,-1^ 323@1,-2v;starter=;rng=-;actions=",
                    ("412@1,-1v",),
                    57,
                ),
                Step(
                    "draw",
                    "rules=classic;number=1;totals=157,80;deal=0-1-2 1-1-3/1-1-2 4-4-4>"
                    f"4-5-5 1-2-3;resume=0:0:0::-:-;board={CLASSIC_CORNERS};starter=;rng=-;"
                    "actions=",
                    ("draw",),
                    -5,
                ),
                Step(
                    "pass",
                    "rules=classic;number=1;totals=152,80;deal=0-1-2 1-1-3/1-1-2 4-4-4>"
                    f"4-5-5 1-2-3;resume=0:0:3::-:-;board={CLASSIC_CORNERS};starter=;rng=-;"
                    "actions=",
                    ("pass",),
                    -10,
                ),
                Step(
                    "out",
                    "rules=classic;number=1;totals=142,95;deal=4-4-5/0-1-2 2-3-4>0-0-0 "
                    f"1-2-3;resume=0:0:0::-:-;board={CLASSIC_CORNERS};starter=;rng=-;"
                    "actions=",
                    ("544@1,0^", "544@0,1^"),
                    13,
                ),
            ),
        ),
        Lesson(
            "extended",
            (
                Step(
                    "starter",
                    "rules=extended;players=2;seed=1;deals=;starter=;actions=",
                    ("starter",),
                    0,
                ),
                Step(
                    "mirror",
                    "rules=extended;number=1;totals=0,0;deal=0-1-2 3-4-5 3-5-4/1-1-2 4-4-4>"
                    f"0-0-0 1-2-3;resume=0:1:0::-:-;board={CLASSIC_CORNERS};starter=;rng=-;"
                    "actions=",
                    ("543@1,0^", "534@0,1^"),
                    12,
                ),
                Step(
                    "hexagon",
                    "rules=extended;number=1;totals=70,61;deal=0-0-1 1-2-4 2-3-3 4-4-5/1-1-2 "
                    "5-5-5>0-0-0 1-2-3;resume=0:0:0::-:-;board=444@0,0^ 443@0,-1v 454@0,0v "
                    "451@1,0^ 343@0,-1^ 342@1,-1^ 323@1,-2v;starter=;rng=-;actions=",
                    ("412@1,-1v",),
                    57,
                ),
                Step(
                    "bell",
                    "rules=extended;number=1;totals=127,95;deal=4-4-5/0-1-2 2-3-4>0-0-0 "
                    f"1-2-3;resume=0:0:0::-:-;board={CLASSIC_CORNERS};starter=;rng=-;"
                    "actions=",
                    ("544@1,0^", "544@0,1^"),
                    13,
                ),
            ),
        ),
        Lesson(
            "junior",
            (
                Step(
                    "first_card",
                    "rules=junior;players=2;seed=1;deals=;starter=;actions=",
                    ("343@0,0v", "232@-1,0v", "232@0,-1v"),
                    1,
                ),
                Step(
                    "counters",
                    "rules=junior;players=2;seed=0;deals=;starter=;actions=454@0,0v "
                    "242@0,-1v 342@-1,0v draw 332@-1,0^ 334@-1,1^ 533@-2,0v draw draw "
                    "222@0,-1^ 245@1,-1^ 251@1,-2v draw 151@2,-2^",
                    ("322@-1,-1v",),
                    2,
                ),
                Step(
                    "buy",
                    "rules=junior;players=2;seed=46;deals=;starter=;actions=134@0,-1v "
                    "433@1,-1^ draw 221@-1,0v 323@1,-1v 434@1,-2v 242@-1,1^ draw 412@-1,1v "
                    "514@0,-1^ 352@1,0^ 515@-1,-1v 255@-1,-1^",
                    ("draw",),
                    -1,
                ),
                Step(
                    "joker",
                    "rules=junior;players=2;seed=46;deals=;starter=;actions=134@0,-1v "
                    "433@1,-1^ draw 221@-1,0v 323@1,-1v 434@1,-2v 242@-1,1^ draw 412@-1,1v "
                    "514@0,-1^ 352@1,0^ 515@-1,-1v 255@-1,-1^ draw draw draw draw",
                    ("J@0,1^",),
                    2,
                ),
            ),
        ),
    )
}
"""The lessons, by edition: the classic game, the extended game and Junior."""


def lesson(edition: str) -> Lesson:
    try:
        return LESSONS[edition]
    except KeyError:
        raise LearnError(f"no lesson {edition!r}: the lessons are {', '.join(LESSONS)}") from None
