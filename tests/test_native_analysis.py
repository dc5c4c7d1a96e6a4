"""Analyses and puzzles on the native core against the Python one: the same static
evaluation of every option (``triominos._search``), the same analysis of a match,
decision for decision, and the same puzzles found in the same positions.

Every preset at two players and some at three and four, each match analysed twice from
one seed, once with the process on each core (triominos.native.running_on), at small
budgets: what differs between the cores shows at any budget.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import partial
from typing import Any

import pytest

from native_cores import needs_native, positions
from triominos.analysis import analyse
from triominos.bots import Budget, make_bot
from triominos.bots.expert import Evaluator, choices, evaluated
from triominos.game import Match, Observation
from triominos.native import running_on
from triominos.puzzles import PRESET, find, game_positions, games
from triominos.record import PlayerInfo, match_record
from triominos.rules import PRESETS

pytestmark = needs_native

SIMULATIONS = 40
"""Simulations a decision: enough for many worlds, few enough for pure Python."""
ACTIONS = 120
"""Actions of each match analysed: a hand or two, draws and passes among them."""


def record(preset: str, players: int, seed: int) -> dict[str, Any]:
    """A seeded match of ``sim`` (a small budget) against greedy and expert, as far as
    :data:`ACTIONS`, as a record."""
    names = ("sim", "greedy", "expert", "greedy")[:players]
    match = Match(PRESETS[preset].rules, players, seed)
    bots = [
        make_bot(name, seed=seed + seat, budget=Budget(simulations=24))
        for seat, name in enumerate(names)
    ]
    with running_on("python"):
        for _ in range(ACTIONS):
            if match.is_over:
                break
            match.apply(bots[match.to_move].act(match.observe(match.to_move)))
    return match_record(match, [PlayerInfo(name) for name in names])


def on_both_cores(work: Any) -> tuple[Any, Any]:
    """``work()`` on the Python core, then on the native one."""
    with running_on("python"):
        python = work()
    with running_on("native"):
        ours = work()
    return python, ours


EVALUATED = [name for name, preset in PRESETS.items() if evaluated(preset.rules)]
"""The presets the static evaluation models (not Junior's)."""


def static_values(
    observation: Observation, racks: Sequence[tuple[int, int | None]]
) -> tuple[object, ...]:
    """Every option of the seat ranked, and each of ``racks`` (with its unseen tiles)
    valued, by one evaluator of the observation."""
    evaluator = Evaluator(observation)
    ranked = evaluator.ranked(choices(observation))
    kept = [evaluator.position_value(rack, unseen) for rack, unseen in racks]
    return [(option.action, value) for option, value in ranked], kept, evaluator.position_value(0)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", EVALUATED)
def test_the_static_evaluation_is_the_same_on_both_cores(preset: str, players: int) -> None:
    """Every option ranked (a placement's value, drawing on purpose's), and what keeping
    random racks is worth against random unseen tiles, value for value."""
    rng = random.Random(players)
    rules = PRESETS[preset].rules
    seen = [found for seed in range(3) for found in positions(rules, players, seed)]
    assert len(seen) > 5
    for observation in seen:
        tile_set = observation.board.tile_set
        off_board = tile_set.full_mask & ~tile_set.mask(laid.tile for laid in observation.board)
        bits = off_board.bit_length()
        kept = [rng.getrandbits(bits) & off_board for _ in range(4)]
        racks: list[tuple[int, int | None]] = [(rack, None) for rack in kept]
        racks += [(rack, rng.getrandbits(bits) & off_board & ~rack) for rack in kept]

        python, ours = on_both_cores(partial(static_values, observation, racks))
        assert ours == python


@pytest.mark.parametrize(
    ("preset", "players"),
    [(name, 2) for name in PRESETS] + [("classic", 3), ("classic-house", 4), ("extended", 4)],
)
def test_a_match_is_analysed_alike_on_both_cores(preset: str, players: int) -> None:
    document = record(preset, players, seed=11 + players)

    def analysis() -> dict[str, Any]:
        return analyse(document, simulations=SIMULATIONS, seed=3).to_json()

    python, ours = on_both_cores(analysis)
    assert len(python["decisions"]) > 20
    assert ours == python


def test_puzzles_are_found_alike_on_both_cores() -> None:
    """:func:`find` on every position of a puzzle game, kept or not, with its margins."""
    game = next(game for game in games(5) if len(game.bots) == 2)

    def found() -> list[tuple[float, float | None, str | None]]:
        return [
            (
                found.screen_margin,
                found.confirm_margin,
                None if found.puzzle is None else found.puzzle.to_json(),
            )
            for found in game_positions(60, 240, 24, game)
        ]

    python, ours = on_both_cores(found)
    assert len(python) > 10
    assert ours == python


@pytest.mark.parametrize("seed", [1, 2])
def test_puzzle_positions_of_bigger_tables_are_valued_alike(seed: int) -> None:
    """:func:`find` on positions of three- and four-player games of the puzzles' rules."""
    game = next(game for game in itertools.islice(games(seed), 10) if len(game.bots) > 2)
    match = Match(PRESETS[PRESET].rules, len(game.bots), game.seed)
    greedy = make_bot("greedy")
    observations: list[Observation] = []
    with running_on("python"):
        while not match.is_over and len(observations) < 30:
            observations.append(match.observe(match.to_move))
            match.apply(greedy.act(observations[-1]))

    def found() -> list[object]:
        return [
            None if value is None else (value.screen_margin, value.confirm_margin)
            for value in (find(seen, 60, 120, seed=seed) for seen in observations)
        ]

    python, ours = on_both_cores(found)
    assert ours == python
