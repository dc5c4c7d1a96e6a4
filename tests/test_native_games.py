"""Whole matches on the native core against the Python one: the same legal actions with
the same points in the same order at every turn, the same bots' choices, the same match.

Every preset with every player count it allows, and every rule option at another value
(tests/rule_values.py), all read from :mod:`triominos.rules`, so that presets and
options added later are compared too. Each match is played twice from one seed, once
with the process's boards on each core (native_cores.running_on).
"""

from __future__ import annotations

from typing import Any

import pytest

from native_cores import needs_native
from rule_values import changed_value
from triominos.bots import Budget, make_bot
from triominos.game import LegalAction, Match
from triominos.native import running_on
from triominos.rules import OPTIONS, PRESETS, Rules

pytestmark = needs_native

ACTIONS = 150
"""Actions per match compared: the first hand or two, draws and passes among them."""
SEARCHED = 40
"""Actions per match where a searching bot sits: each of its moves plays many hands."""


def play(
    rules: Rules, players: int, bots: tuple[str, ...], seed: int, actions: int
) -> tuple[Any, ...]:
    """A seeded match of ``bots`` in turn, as far as ``actions``: what each turn offered,
    and the match as text."""
    match = Match(rules, players, seed)
    seated = [
        make_bot(bots[seat % len(bots)], seed=seed + seat, budget=Budget(simulations=24))
        for seat in range(players)
    ]
    offered: list[list[LegalAction]] = []
    while not match.is_over and len(offered) < actions:
        offered.append(match.legal_actions())
        seat = match.to_move
        match.apply(seated[seat].act(match.observe(seat)), seat)
    return offered, match.to_text(), match.totals


def same_on_both_cores(
    rules: Rules, players: int, bots: tuple[str, ...], seed: int, actions: int = ACTIONS
) -> None:
    with running_on("python"):
        python = play(rules, players, bots, seed, actions)
    with running_on("native"):
        ours = play(rules, players, bots, seed, actions)
    assert ours == python


PLAYER_COUNTS = [
    (name, players)
    for name, preset in PRESETS.items()
    for players in range(preset.rules.min_players, preset.rules.max_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), PLAYER_COUNTS)
def test_random_and_greedy_matches_are_the_same_on_both_cores(preset: str, players: int) -> None:
    rules = PRESETS[preset].rules
    for seed in range(2):
        same_on_both_cores(rules, players, ("random",), seed)
    same_on_both_cores(rules, players, ("greedy", "random"), 7)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_expert_and_sim_choose_the_same_on_both_cores(preset: str) -> None:
    rules = PRESETS[preset].rules
    same_on_both_cores(rules, rules.min_players, ("expert", "greedy"), 3, SEARCHED)
    same_on_both_cores(rules, rules.min_players, ("sim", "expert"), 4, SEARCHED)


@pytest.mark.parametrize("option", list(OPTIONS))
def test_every_rule_option_plays_the_same_on_both_cores(option: str) -> None:
    preset, changes = changed_value(option)
    rules = PRESETS[preset].rules.replace(**changes)
    same_on_both_cores(rules, rules.min_players, ("random", "greedy"), 11)
