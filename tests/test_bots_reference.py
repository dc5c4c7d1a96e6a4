"""The reference bots for measuring: the frozen sim-v1 and the clairvoyant sim."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from triominos.arena import ArenaConfig, make_entry, play_game
from triominos.bots import BOT_NAMES, BOTS, Budget, GreedyBot, make_bot
from triominos.bots.clairvoyant import ClairvoyantBot
from triominos.bots.sampler import WorldSampler
from triominos.bots.sim import SimBot
from triominos.game import Match, Observation
from triominos.rules import PRESETS, RuleOptionError

CLASSIC = PRESETS["classic"].rules


def positions(players: int, seeds: range) -> Iterator[Observation]:
    """Positions of greedy matches with a choice to make and tiles left in the pool, each
    to be used before the next (an observation shares the live board)."""
    for seed in seeds:
        match = Match(CLASSIC, players, seed)
        bot = GreedyBot()
        while not match.is_over and len(match.hands) == 1:
            observation = match.observe(match.to_move)
            if (
                observation.phase == "play"
                and observation.pool_size
                and len(observation.legal_actions()) > 1
                and len(match.hand.events) % 5 == 0
            ):
                yield observation
            match.apply(bot.act(observation))


@pytest.mark.parametrize("players", [2, 4])
def test_sim_v1_chooses_the_moves_of_todays_sim(players: int) -> None:
    """While sim has changed only in the endgame (an empty pool), the two agree on every
    move with tiles in the pool, at a budget in simulations."""
    budget = Budget(simulations=60)
    compared = 0
    for number, observation in enumerate(positions(players, range(4))):
        assert make_bot("sim-v1", number, budget).act(observation) == make_bot(
            "sim", number, budget
        ).act(observation)
        compared += 1
    assert compared >= 15


def test_sim_v1_keeps_its_own_settings() -> None:
    v1 = make_bot("sim-v1", 1)
    assert isinstance(v1, SimBot)
    assert (v1.name, v1.budget, v1.candidates, v1.horizon, v1.endgame) == (
        "sim-v1",
        Budget(simulations=600),
        6,
        "turn",
        None,
    )


def test_the_references_are_not_levels_for_players() -> None:
    assert "sim-v1" in BOT_NAMES
    assert "sim-v1" not in BOTS
    assert "clairvoyant" not in BOT_NAMES
    with pytest.raises(RuleOptionError, match="clairvoyant"):
        make_bot("clairvoyant")


def test_the_clairvoyant_bot_has_no_observation_interface() -> None:
    bot = ClairvoyantBot(1, Budget(simulations=30))
    assert not hasattr(bot, "act")
    match = Match(CLASSIC, 2, 5)
    observation = match.observe(match.to_move)
    with pytest.raises(ValueError, match="not this seat's hand"):
        bot.act_seeing(observation, [0, 0])


def test_the_clairvoyant_worlds_are_the_true_racks() -> None:
    """Shown every rack, each world it plays out deals the racks as they are; only the
    pool's order is shuffled."""
    match = Match(CLASSIC, 2, 0)
    bot = GreedyBot()
    while len(match.hand.board) < 8:
        match.apply(bot.act(match.observe(match.to_move)))
    observation = match.observe(match.to_move)
    racks = tuple(match.hand.racks)
    sampler = WorldSampler(observation._replace(open_racks=racks))
    rng = random.Random(1)
    worlds = [sampler.sample(rng) for _ in range(5)]
    assert all(world.racks == racks for world in worlds)
    assert sorted(worlds[0].pool) == sorted(match.hand._pool[match.hand._drawn :])


def test_the_arena_seats_the_clairvoyant_bot() -> None:
    config = ArenaConfig(CLASSIC, ("clairvoyant", "greedy"), Budget(simulations=20), 1, 4, True)
    assert isinstance(make_entry("clairvoyant", 1, config.budget), ClairvoyantBot)
    result = play_game(config, config.schedule()[0])
    assert result.moves[result.seat_of(0)] > 0
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        ArenaConfig(CLASSIC, ("oracle", "greedy"), Budget(simulations=20), 1, 4)
