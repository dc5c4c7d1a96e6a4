"""The native observation encoder against the Python one, on random play of every preset.

At every decision of seeded random matches of every preset (classic, extended with its
76-bit masks, Junior with its joker and counters, the children's scoring) and every
player count it allows, and of the classic game with open racks, each seat's observation
is encoded on both cores (:func:`triominos.native.encoding_on`, with the boards on the
same core): the observation tensor (also as the public-only observer makes it), the
information-state and global-state tensors, the legal action ids and the mask must be
the same, float for float. The presets are whatever :mod:`triominos.rules` declares.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator

import pytest

from native_cores import needs_native
from triominos import native
from triominos.encoding import (
    ActionSpace,
    GlobalStateEncoder,
    InformationStateEncoder,
    ObservationEncoder,
    OutsideWindowError,
)
from triominos.game import Match, observe
from triominos.rules import PRESETS, Rules

pytestmark = needs_native

DECISIONS = 60
"""Decisions per preset and player count: each gives every seat's observation, so a
run compares some 10,000 observations."""

RULES = {
    **{name: preset.rules for name, preset in PRESETS.items()},
    "classic, open racks": PRESETS["classic"].rules.replace(open_racks=True),
}
CASES = [
    (name, players)
    for name, rules in RULES.items()
    for players in range(rules.min_players, rules.max_players + 1)
]


def matches(rules: Rules, players: int, seed: int) -> Iterator[Match]:
    """One match at each of ``DECISIONS`` random decisions, new matches as they end."""
    rng = random.Random(seed)
    match = Match(rules, players, seed)
    for _ in range(DECISIONS):
        if match.is_over:
            match = Match(rules, players, rng.randrange(2**32))
        yield match
        match.apply(rng.choice(match.legal_actions()).action)


def encoded(core: str, match: Match, rules: Rules, players: int) -> list[object]:
    """Everything the encoders make of the position on one core, every seat's."""
    observer = ObservationEncoder(rules, players)
    information = InformationStateEncoder(rules, players)
    space = ActionSpace(rules)
    hand = match.hand
    found: list[object] = []
    with native.running_on(core), native.encoding_on(core):
        for seat in range(players):
            seen = observe(hand, seat)
            public = seen._replace(rack=0, history=observe(hand, None).history)
            found += [
                observer.encode(seen),
                observer.encode(public),
                information.encode(seen),
                space.legal_ids(seen),
                space.mask(seen),
            ]
        found.append(GlobalStateEncoder(rules, players).encode(hand))
    return found


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_seat_encodes_the_same_on_both_cores(name: str, players: int) -> None:
    rules = RULES[name]
    for match in matches(rules, players, seed=players):
        assert encoded("native", match, rules, players) == encoded("python", match, rules, players)


def test_a_board_outside_the_window_raises_the_same_error() -> None:
    rules = PRESETS["extended"].rules
    small = ObservationEncoder(rules, 2, radius=2)
    errors: dict[str, list[str]] = {}
    for core in ("python", "native"):
        with native.encoding_on(core):
            for match in matches(rules, 2, seed=3):
                try:
                    small.encode(match.observe(match.to_move))
                except OutsideWindowError as error:
                    errors.setdefault(core, []).append(str(error))
    assert errors["native"] == errors["python"] and errors["python"]


@pytest.mark.parametrize(
    "mask",
    [0, 1, 1 << 63, 1 << 64, (1 << 76) - 1, (1 << 130) | 5, 0b1011 << 60],
)
def test_tile_masks_of_every_width_lay_the_same_ones(mask: int) -> None:
    laid = {}
    for core in ("python", "native"):
        out = array("f", bytes(4 * 200))
        with native.encoding_on(core):
            ObservationEncoder._bits(out, 3, mask)
        laid[core] = out
    assert laid["native"] == laid["python"]


def test_the_switch_turns_the_encoder_off_with_the_board() -> None:
    assert (native.load_encoding() is None) == (native.load_board() is None)
