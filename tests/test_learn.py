"""The lessons of "Learn to play" (triominos.learn) against the engine: every step's
expected moves are legal and score what the step says, a wrong move is explained, and
every step has its texts in the six languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from triominos.board import Placement
from triominos.game import Draw
from triominos.lattice import Cell
from triominos.learn import LESSONS, REASONS, LearnError, action_text, check, lesson, why_not
from triominos.notation import move_from_text, tile_from_text
from triominos.rules import PRESETS

LOCALES = Path(__file__).resolve().parent.parent / "src/triominos/server/static/locales"
LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")

STEPS = [
    pytest.param(edition, number, step, id=f"{edition}-{step.key}")
    for edition, each in LESSONS.items()
    for number, step in enumerate(each.steps)
]


@pytest.mark.parametrize(("edition", "number", "step"), STEPS)
def test_every_expected_move_is_legal_and_scores_what_the_step_says(
    edition: str, number: int, step: object
) -> None:
    found = lesson(edition).step(number)
    hand = found.hand()
    assert hand.rules == PRESETS[edition].rules, "a lesson plays its edition's own rules"
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))
    done = english[f"learn_{edition}_{found.key}_done"]
    legal = {action_text(option.action): option for option in hand.legal_actions()}
    for expected in found.expected:
        assert expected in legal, f"{expected} is not legal in {edition} {found.key}"
        assert legal[expected].points == found.points
        for bonus, value in legal[expected].bonuses.items():
            assert str(value) in done, f"the text of {found.key} does not give the {bonus}"
        verdict = check(found, legal[expected].action)
        assert verdict.correct and verdict.event is not None
        assert verdict.event.points == found.points


def test_a_tile_that_fits_nowhere_is_told_which_corner_does_not_match() -> None:
    step = lesson("classic").steps[1]  # corners: 5-5-5 on the table, 1-2-5 in the rack
    tile = tile_from_text("1-2-5", step.hand().tile_set)
    verdict = check(step, None, tile)
    assert not verdict.correct and verdict.played is None
    fits_nowhere, corner = verdict.reasons
    assert fits_nowhere.key == "fits_nowhere"
    assert corner.key == "corner"
    assert corner.params["shown"] == 5 and corner.params["number"] in (1, 2)
    assert corner.params["tile"] == "1-2-5"
    # A tile with no number of the edge at all has no near miss to show.
    assert [
        reason.key for reason in why_not(step.hand(), tile_from_text("0-1-2", step.hand().tile_set))
    ] == ["fits_nowhere"]


def test_a_legal_move_off_the_goal_is_explained() -> None:
    scoring = lesson("classic").steps[2]
    hand = scoring.hand()
    low = move_from_text("055@-1,0v", hand.board)
    verdict = check(scoring, low)
    assert not verdict.correct and verdict.hand is None
    assert [reason.to_json() for reason in verdict.reasons] == [
        {"key": "less", "params": {"points": 10, "best": 13}}
    ]
    bridge = lesson("classic").steps[3]
    plain = move_from_text("303@0,0v", bridge.hand().board)
    assert check(bridge, plain).reasons[0].to_json() == {
        "key": "missed",
        "params": {"bonus": "bridge", "value": 40},
    }
    assert check(bridge, Draw()).reasons[0].to_json() == {
        "key": "tile_fits",
        "params": {"tile": "0-3-5", "points": 48},
    }


def test_the_settlement_and_the_bell_follow_the_edition() -> None:
    out = lesson("classic").steps[-1]
    verdict = check(
        out, next(o.action for o in out.hand().legal_actions() if isinstance(o.action, Placement))
    )
    assert verdict.hand is not None and verdict.hand.end is not None
    assert verdict.hand.end.settlement == (25 + 3 + 9, 0)  # going out, 0-1-2 and 2-3-4
    bell = lesson("extended").steps[-1]
    rung = check(
        bell, next(o.action for o in bell.hand().legal_actions() if isinstance(o.action, Placement))
    )
    assert rung.hand is not None and rung.hand.end is None and rung.hand.out == [0]
    assert rung.hand.to_move == 1  # the other still plays the round out


def test_an_answer_that_is_no_move_of_the_step_is_refused() -> None:
    step = lesson("classic").steps[1]
    hand = step.hand()
    with pytest.raises(LearnError, match="none of the step's legal actions"):
        check(
            step,
            Placement(tile_from_text("4-5-5", hand.tile_set), Cell(0, 0, False), (4, 5, 5)),
        )
    with pytest.raises(LearnError, match="fits: choose where it goes"):
        check(step, None, tile_from_text("4-5-5", hand.tile_set))
    with pytest.raises(LearnError, match="no lesson 'chess'"):
        lesson("chess")
    with pytest.raises(LearnError, match="steps 0 to 7"):
        lesson("classic").step(8)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_step_and_reason_has_its_texts(language: str) -> None:
    texts = json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    for edition, each in LESSONS.items():
        assert texts[f"learn_{edition}_title"]
        for step in each.steps:
            goal, done = (texts[f"learn_{edition}_{step.key}_{part}"] for part in ("goal", "done"))
            assert goal and done
            # The points are the engine's, filled in: never typed into a text.
            assert re.search(r"\{points\}|\{tile\}", done)
    for key in REASONS:
        assert texts[f"learn_why_{key}"]
