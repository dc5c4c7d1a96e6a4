"""The expert bot's static evaluation, its fallback, and the tuning procedure."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import pytest

from triominos.board import Placement
from triominos.bots import GreedyBot
from triominos.bots.expert import (
    TUNED,
    TUNED_MANY,
    TUNED_THREE,
    Evaluator,
    ExpertBot,
    Weights,
    duplicate_margin,
    evaluated,
    parse_weights,
    tune,
    tuned_weights,
)
from triominos.game import Draw, Match, Observation
from triominos.lattice import Cell
from triominos.rules import PRESETS


def play_positions(seed: int, players: int = 2) -> Iterator[Observation]:
    """The observations of the seat to move, in play, through a greedy match."""
    match = Match(PRESETS["classic-house"].rules.replace(target_score=150), players, seed)
    bot = GreedyBot()
    while not match.is_over:
        observation = match.observe(match.to_move)
        if observation.phase == "play":
            yield observation
        match.apply(bot.act(observation))


def bonus_cell(observation: Observation) -> tuple[int, int, int] | None:
    """(cell id, bonus, tiles that fit it) of an open cell where a tile scores a bonus."""
    board, points = observation.board, observation.rules.figure_points
    cells: dict[int, tuple[int, int]] = {}
    for cell, tile, _, figure in board.placement_ids(board.tile_set.full_mask):
        if points[figure]:
            bonus, fitting = cells.get(cell, (points[figure], 0))
            cells[cell] = (bonus, fitting | 1 << tile)
    for cell, (bonus, fitting) in sorted(cells.items()):
        return cell, bonus, fitting
    return None


def test_a_bonus_only_the_seat_can_take_is_a_chance_not_a_threat() -> None:
    found = 0
    for observation in play_positions(4):
        spot = bonus_cell(observation)
        if spot is None:
            continue
        _, bonus, fitting = spot
        evaluator = Evaluator(observation)
        mine = fitting & -fitting  # one tile that fits, as if in the seat's rack
        threat, chance = evaluator.bonus_outlook(mine, unseen=0)
        assert threat == 0
        assert chance >= bonus  # the best bonus cell the rack can fill
        threat, chance = evaluator.bonus_outlook(0, unseen=fitting)
        assert threat > 0 and chance == 0
        found += 1
    assert found


def test_going_out_is_worth_the_bonus_and_the_others_racks() -> None:
    for observation in play_positions(2):
        rack = observation.rack or 0
        if rack.bit_count() != 1:
            continue
        options = [
            option for option in observation.legal_actions() if isinstance(option.action, Placement)
        ]
        if not options:
            continue
        evaluator = Evaluator(observation)
        value = evaluator.placement_value(options[0])
        assert value >= options[0].points + observation.rules.going_out_bonus
        return
    pytest.skip("no position with one tile left in this game")


def test_the_evaluation_leaves_the_observation_untouched() -> None:
    for observation in islice(play_positions(3), 15):
        before = [placement for placement in observation.board]
        options = observation.legal_actions()
        Evaluator(observation).ranked(options)
        assert list(observation.board) == before


def test_expert_draws_on_purpose_and_otherwise_places() -> None:
    bot = ExpertBot()
    kinds = set()
    for observation in play_positions(5):
        if observation.draws or not any(
            isinstance(option.action, Placement) for option in observation.legal_actions()
        ):
            continue
        kinds.add(type(bot.act(observation)))
    assert kinds == {Draw, Placement}


def test_junior_falls_back_to_greedy() -> None:
    match = Match.from_preset("junior", players=3, seed=2)
    expert, greedy = ExpertBot(), GreedyBot()
    while not match.is_over:
        observation = match.observe(match.to_move)
        move = expert.act(observation)
        assert move == greedy.act(observation)
        match.apply(move)


def test_every_edition_but_junior_is_evaluated() -> None:
    """Junior's counters, joker and first card from the pool are not what the weights were
    tuned for, however its options are set."""
    for name, preset in PRESETS.items():
        assert evaluated(preset.rules) == (name != "junior")
    assert not evaluated(PRESETS["junior"].rules.replace(joker=False, open_racks=True))


def test_each_table_size_has_its_tuned_weights() -> None:
    assert tuned_weights(2) == TUNED
    assert tuned_weights(3) == TUNED_THREE
    assert tuned_weights(4) == tuned_weights(6) == TUNED_MANY
    match = Match.from_preset("classic-house", players=4, seed=1)
    assert Evaluator(match.observe(match.to_move)).weights == TUNED_MANY


def test_the_tuned_weights_beat_greedy() -> None:
    assert duplicate_margin(TUNED, PRESETS["classic-house"].rules, 2, deals=8, seed=3) > 0


def test_tuning_is_deterministic_and_keeps_only_improvements() -> None:
    rules = PRESETS["classic-house"].rules
    logged: list[str] = []
    start = Weights()
    tuned = tune(rules, deals=2, rounds=1, seed=4, start=start, names=["draw"], log=logged.append)
    again = tune(rules, deals=2, rounds=1, seed=4, start=start, names=["draw"], log=print)
    assert tuned == again
    assert tuned.draw in (start.draw, start.draw + 3.0, start.draw - 3.0)
    assert logged[0].startswith("start ") and logged[-1].startswith("tuned ")
    first = duplicate_margin(start, rules, 2, deals=2, seed=4)
    assert duplicate_margin(tuned, rules, 2, deals=2, seed=4) >= first


def test_weights_are_read_from_text() -> None:
    assert parse_weights("threat=-0.5, draw=2").threat == -0.5
    assert parse_weights("") == Weights()  # the others are 0
    with pytest.raises(ValueError, match="no weight 'speed'"):
        parse_weights("speed=3")


def test_the_opening_is_evaluated_too() -> None:
    match = Match.from_preset("extended", players=2, seed=8)
    bot = ExpertBot()
    while match.observe(match.to_move).phase != "opening":
        match.apply(bot.act(match.observe(match.to_move)))
    move = bot.act(match.observe(match.to_move))
    assert isinstance(move, Placement) and move.cell == Cell(0, 0, True)
