"""The native world sampler against the Python one, world for world.

In positions of seeded matches (tests/native_cores.positions), a seat's worlds are
sampled on both cores from generators seeded alike, reading the others' placements or
not: the worlds must be the same, racks, pool order and surprise, and the generators
left in the same state (the native sampler draws Python's random stream by the same
calls). Every preset at every player count it allows, and every rule option at another
value; open racks, where only the pool is shuffled, fall back to Python.
"""

from __future__ import annotations

import random

import pytest

from native_cores import needs_native, positions
from rule_values import changed_rules
from triominos import native
from triominos.bots.sampler import World, WorldSampler
from triominos.game import Observation
from triominos.native import running_on
from triominos.rules import OPTIONS, PRESETS, Rules

pytestmark = needs_native

POSITIONS = 6
WORLDS = 40


def sampled(observation: Observation, core: str, placements: bool) -> tuple[list[World], object]:
    """Worlds of the observation on ``core``, and the generator's state after them."""
    with running_on(core):
        sampler = WorldSampler(observation, placements=placements)
    rng = random.Random(observation.seen_count)
    worlds = [sampler.sample(rng) for _ in range(WORLDS)]
    return worlds, rng.getstate()


def same_worlds(rules: Rules, players: int, seed: int) -> int:
    """Compare the worlds of :data:`POSITIONS` positions; how many were compared."""
    compared = 0
    for number, observation in enumerate(positions(rules, players, seed)):
        if number == POSITIONS:
            break
        for placements in (False, True):
            ours = sampled(observation, "native", placements)
            assert ours == sampled(observation, "python", placements)
            compared += len(ours[0])
    return compared


PLAYER_COUNTS = [
    (name, players)
    for name, preset in PRESETS.items()
    for players in range(preset.rules.min_players, preset.rules.max_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), PLAYER_COUNTS)
def test_worlds_are_the_same_on_both_cores(preset: str, players: int) -> None:
    assert same_worlds(PRESETS[preset].rules, players, 5) > 0


@pytest.mark.parametrize("option", list(OPTIONS))
def test_every_rule_option_samples_the_same_on_both_cores(option: str) -> None:
    rules = changed_rules(option)
    assert same_worlds(rules, rules.min_players, 13) > 0


class Reversing(random.Random):
    """A generator of another kind, whose shuffle the native sampler could not copy."""

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        x.reverse()


def test_open_racks_and_other_generators_sample_in_python() -> None:
    shown = next(positions(PRESETS["classic"].rules.replace(open_racks=True), 2, 3))
    classic = next(positions(PRESETS["classic"].rules, 2, 3))
    with running_on("native"):
        assert native.sampler_for(shown) is None
        assert WorldSampler(shown).native is None
        ours = WorldSampler(classic)
    assert ours.native is not None
    with running_on("python"):
        python = WorldSampler(classic)
    assert python.native is None
    assert ours.sample(Reversing(1)) == python.sample(Reversing(1))
