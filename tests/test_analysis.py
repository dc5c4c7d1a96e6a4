"""Analysis of a record: every decision against the best choice, marks and summaries."""

from __future__ import annotations

import json
from functools import cache

import pytest

from hexagon_game import HEXAGON, KEPT_PLACEMENT, SHAPE, hexagon_record
from triominos.analysis import (
    MARKS,
    THRESHOLDS,
    Analysis,
    AnalysisError,
    Decision,
    analyse,
    mark_for,
    positions,
)
from triominos.bots import GreedyBot
from triominos.game import Draw, Match, Resign
from triominos.record import PlayerInfo, RecordError, VerificationError, match_record
from triominos.tiles import EXTENDED

SIMULATIONS = 200
SEAT_ONE_CHOOSES = 7
"""The index of seat 1's choice in the hand's actions: two starter draws, five tiles."""


@cache
def analysed(completed: bool) -> Analysis:
    return analyse(hexagon_record(completed), simulations=SIMULATIONS)


def decision_at(analysis: Analysis, index: int) -> Decision:
    return next(decision for decision in analysis.decisions if decision.index == index)


def test_every_placement_is_a_decision_and_the_starter_draws_are_not() -> None:
    analysis = analysed(True)
    assert [decision.index for decision in analysis.decisions] == list(range(2, 9))
    assert [decision.seat for decision in analysis.decisions] == [0, 1, 0, 1, 0, 1, 0]
    assert [decision.played.action for decision in analysis.decisions[:5]] == SHAPE
    assert len(positions(hexagon_record(True))) == len(analysis.decisions)


def test_missing_the_hexagon_is_a_blunder() -> None:
    decision = decision_at(analysed(False), SEAT_ONE_CHOOSES)
    assert decision.played.action == KEPT_PLACEMENT
    assert decision.best.action == HEXAGON
    assert decision.best.bonuses == (("hexagon", 50),)
    assert decision.loss >= THRESHOLDS["blunder"]
    assert decision.mark == "blunder"
    assert decision.missed is not None
    assert (decision.missed.name, decision.missed.points, decision.missed.by_best) == (
        "hexagon",
        50,
        True,
    )


def test_the_best_move_is_marked_as_none() -> None:
    decision = decision_at(analysed(True), SEAT_ONE_CHOOSES)
    assert decision.played == decision.best
    assert decision.loss == 0
    assert decision.mark is None
    assert decision.missed is None


def test_the_summary_counts_the_marks_and_names_the_biggest_bonus_missed() -> None:
    analysis = analysed(False)
    summary = analysis.summaries()[1]
    own = [decision for decision in analysis.decisions if decision.seat == 1]
    assert (summary.seat, summary.name, summary.decisions) == (1, "Bob", 3)
    assert summary.average_loss == pytest.approx(sum(d.loss for d in own) / 3)
    assert summary.marks["blunder"] == sum(d.mark == "blunder" for d in own) >= 1
    assert set(summary.marks) == set(MARKS)
    assert summary.missed is not None and summary.missed.index == SEAT_ONE_CHOOSES


def test_a_loss_earns_the_gravest_mark_it_reaches() -> None:
    assert mark_for(0.0) is None
    assert mark_for(THRESHOLDS["inaccuracy"] - 0.01) is None
    assert mark_for(THRESHOLDS["inaccuracy"]) == "inaccuracy"
    assert mark_for(THRESHOLDS["mistake"]) == "mistake"
    assert mark_for(THRESHOLDS["blunder"] + 100) == "blunder"
    assert THRESHOLDS["inaccuracy"] < THRESHOLDS["mistake"] < THRESHOLDS["blunder"]


def test_the_same_simulations_and_seed_give_the_same_analysis() -> None:
    record = hexagon_record(False)
    first = analyse(record, simulations=SIMULATIONS, seed=5)
    assert analyse(record, simulations=SIMULATIONS, seed=5) == first
    assert analyse(record, simulations=SIMULATIONS, seed=6) != first


def test_the_json_gives_back_the_same_analysis() -> None:
    analysis = analysed(False)
    written = json.loads(json.dumps(analysis.to_json()))
    assert Analysis.from_json(written, EXTENDED) == analysis
    chosen = written["decisions"][SEAT_ONE_CHOOSES - 2]
    assert chosen["mark"] == "blunder"
    assert chosen["best"] == {
        "action": "place",
        "tile": "0-2-5",
        "cell": [0, -1, "down"],
        "corners": [0, 2, 5],
        "points": 57,
        "bonuses": {"hexagon": 50},
        "expected": analysis.decisions[SEAT_ONE_CHOOSES - 2].best.expected,
    }
    assert written["players"][1]["marks"]["blunder"] >= 1
    assert written["players"][1]["missed"] == {"hand": 1, "index": SEAT_ONE_CHOOSES}


def test_json_that_is_not_an_analysis_names_the_field() -> None:
    written = analysed(True).to_json()
    with pytest.raises(AnalysisError, match="format"):
        Analysis.from_json({**written, "format": "other"}, EXTENDED)
    broken = json.loads(json.dumps(written))
    broken["decisions"][1]["played"]["cell"] = "here"
    with pytest.raises(AnalysisError, match=r"decisions\[1\]\.played\.cell"):
        Analysis.from_json(broken, EXTENDED)
    del broken["decisions"][0]["seat"]
    with pytest.raises(AnalysisError, match=r"decisions\[0\]\.seat: missing"):
        Analysis.from_json(broken, EXTENDED)


def test_draws_and_passes_are_decisions_too() -> None:
    match = Match.from_preset("classic", players=2, seed=3)
    bot = GreedyBot()
    for _ in range(60):
        match.apply(bot.act(match.observe(match.to_move)))
    record = match_record(match, [PlayerInfo("a"), PlayerInfo("b")])
    analysis = analyse(record, simulations=20)
    assert len(analysis.decisions) == 60
    drawn = [decision for decision in analysis.decisions if decision.played.action == Draw()]
    assert drawn and all(decision.played.points == -5 for decision in drawn)
    assert all(decision.loss >= 0 for decision in analysis.decisions)


def test_a_resignation_is_not_a_decision() -> None:
    match = Match.from_preset("classic", players=2, seed=4)
    bot = GreedyBot()
    for _ in range(12):
        match.apply(bot.act(match.observe(match.to_move)))
    match.apply(Resign(1))
    analysis = analyse(match_record(match, [PlayerInfo("a"), PlayerInfo("b")]), simulations=20)
    assert len(analysis.decisions) == 12


def test_progress_counts_the_decisions() -> None:
    seen: list[tuple[int, int]] = []
    analyse(hexagon_record(True), simulations=7, progress=lambda *step: seen.append(step))
    assert seen == [(done, 7) for done in range(1, 8)]


def test_a_bad_record_is_refused_with_its_reason() -> None:
    record = hexagon_record(True)
    with pytest.raises(RecordError, match="line 3"):
        analyse({**record, "players": "nobody"}, line=3)
    wrong = json.loads(json.dumps(record))
    wrong["hands"][0]["actions"][3]["points"] = 99
    with pytest.raises(VerificationError, match="action 3"):
        analyse(wrong)
