"""Random play of every preset at every player count, then every action undone.

At each step the state is cloned; undoing the actions one by one must give back each
saved clone exactly (``==``), the same legal actions in the same order, and the same
observations; and a position string read back must equal the state it was written from.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triominos.game import LegalAction, Match, Observation
from triominos.rules import PRESETS

GAMES = [
    (name, players)
    for name, known in PRESETS.items()
    for players in range(known.rules.min_players, known.rules.max_players + 1)
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    actions=st.integers(1, 500),
)
def test_random_actions_undone_give_back_every_state(
    game: tuple[str, int], seed: int, actions: int
) -> None:
    name, players = game
    match = Match.from_preset(name, players=players, seed=seed)
    rng = random.Random(seed)
    saved: list[tuple[Match, list[LegalAction], Observation]] = []
    for _ in range(actions):
        if match.is_over:
            break
        saved.append((match.clone(), match.legal_actions(), match.observe(match.to_move)))
        match.apply(rng.choice(match.legal_actions()).action)
    assert Match.from_text(match.to_text()) == match
    seat = rng.randrange(players)
    observation = match.observe(seat)
    assert Observation.from_text(observation.to_text()) == observation
    while saved:
        clone, legal, observation = saved.pop()
        match.undo()
        assert match == clone
        assert match.legal_actions() == legal  # in the same order too
        assert match.observe(match.to_move) == observation
    assert match == Match.from_preset(name, players=players, seed=seed)
