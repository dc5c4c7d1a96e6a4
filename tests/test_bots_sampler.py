"""The world sampler: every world it makes agrees with what the seat has seen.

The checks here do not trust the sampler's own constraints: they rebuild, from the true
hand, the board at each moment a player passed with an empty pool, and look at the
sampled racks directly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from triominos.board import Board
from triominos.bots import GreedyBot, RandomBot
from triominos.bots.base import Bot
from triominos.bots.sampler import (
    UnsupportedObservationError,
    WorldSampler,
    supports,
)
from triominos.game import Hand, Match, Observation
from triominos.rules import PRESETS, Rules

SMALL_POOL = Rules(min_players=2, max_players=3, rack_sizes=((2, 25), (3, 17)))
"""Racks that leave a pool of 6 and 5 tiles: passes with an empty pool come soon."""


def positions(
    game: str | Rules, players: int, seed: int, bots: list[Bot], every: int = 3
) -> Iterator[tuple[Hand, Observation]]:
    """Positions of a short match where a seat is to move in play: (true hand, its view)."""
    rules = PRESETS[game].rules if isinstance(game, str) else game
    match = Match(rules.replace(target_score=120), players, seed)
    turn = 0
    while not match.is_over:
        seat = match.to_move
        observation = match.observe(seat)
        turn += 1
        if observation.phase == "play" and turn % every == 0:
            yield match.hand, observation
        match.apply(bots[seat].act(observation))


def board_before(hand: Hand, event_number: int) -> Board:
    """The true board just before event ``event_number`` of the hand."""
    board = Board(hand.tile_set)
    for event in hand.events[:event_number]:
        if event.action == "place":
            assert event.tile is not None and event.cell is not None
            assert event.corners is not None
            board.push_unchecked(event.cell.id, hand.tile_set.index(event.tile), event.corners)
    return board


def empty_pool_passes(hand: Hand) -> list[tuple[int, int]]:
    """(player, event number) of every pass made with an empty pool (no draw that turn)."""
    passes = []
    for number, event in enumerate(hand.events):
        drew = number > 0 and hand.events[number - 1].action == "draw"
        if event.action == "pass" and not drew:
            passes.append((event.player, number))
    return passes


MIXED_GAMES: list[tuple[str | Rules, int, int]] = [
    ("classic", 2, 1),
    ("classic", 3, 2),
    ("classic", 4, 1),
    ("classic", 6, 7),
    ("extended", 2, 4),
    ("extended", 5, 5),
    ("classic-children", 2, 6),
    (SMALL_POOL, 2, 3),
    (SMALL_POOL, 3, 4),
]


@pytest.mark.parametrize(("game", "players", "seed"), MIXED_GAMES)
def test_a_world_never_contradicts_the_observation(
    game: str | Rules, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    bots: list[Bot] = [GreedyBot() if seat % 2 else RandomBot(seat) for seat in range(players)]
    checked = 0
    for hand, observation in positions(game, players, seed, bots):
        seat = observation.seat
        assert seat is not None and observation.rack is not None
        sampler = WorldSampler(observation)
        on_table = hand.tile_set.mask(placement.tile for placement in hand.board)
        passes = empty_pool_passes(hand)
        for _ in range(4):
            world = sampler.sample(rng)
            assert world.racks[seat] == observation.rack
            assert [rack.bit_count() for rack in world.racks] == list(observation.rack_sizes)
            assert len(world.pool) == observation.pool_size
            every = on_table
            for held in [*world.racks, *(1 << tile for tile in world.pool)]:
                assert not every & held, "a tile on the table or dealt twice"
                every |= held
            assert every == hand.tile_set.full_mask
            for player, number in passes:
                if player == seat:
                    continue
                fitting = board_before(hand, number).fitting_tiles(world.racks[player])
                assert not fitting, "a player who passed with an empty pool held a tile that fitted"
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("game", "players", "seed"), MIXED_GAMES)
def test_the_true_world_keeps_every_proved_constraint(
    game: str | Rules, players: int, seed: int
) -> None:
    """What the sampler calls proved is true of the real racks; forced draws never surprise."""
    bots: list[Bot] = [GreedyBot() for _ in range(players)]
    for hand, observation in positions(game, players, seed, bots, every=1):
        sampler = WorldSampler(observation)
        surprise = sampler.surprise(hand.racks)
        assert surprise == 0  # greedy draws only when it must


def test_empty_pool_passes_are_in_the_games_checked() -> None:
    """The contradiction test above is only as good as the passes its games hold."""
    found = 0
    for preset, players, seed in MIXED_GAMES:
        bots: list[Bot] = [GreedyBot() if seat % 2 else RandomBot(seat) for seat in range(players)]
        for hand, observation in positions(preset, players, seed, bots):
            found += sum(1 for player, _ in empty_pool_passes(hand) if player != observation.seat)
    assert found > 0


def test_a_draw_makes_a_fitting_tile_less_likely() -> None:
    """The soft constraint: fewer worlds than a blind deal say a greedy draw was voluntary."""
    rng = random.Random(9)
    bots: list[Bot] = [GreedyBot(), GreedyBot()]
    inferred = blind = total = 0
    for _, observation in positions("classic", 2, 11, bots, every=1):
        sampler = WorldSampler(observation)
        if not any(constraint.reason == "draw" for constraint in sampler.constraints):
            continue
        seat, sizes = observation.seat, observation.rack_sizes
        unseen = [tile for tile in range(56) if sampler.unseen >> tile & 1]
        for _ in range(10):
            inferred += sampler.sample(rng).surprise > 0
            rng.shuffle(unseen)  # a blind deal: every unseen tile as likely anywhere
            racks = [observation.rack or 0] * 2
            racks[1 - (seat or 0)] = sum(1 << tile for tile in unseen[: sizes[1 - (seat or 0)]])
            blind += (sampler.surprise(racks) or 0) > 0
            total += 1
    assert total > 50
    assert inferred < 0.75 * blind


def test_the_same_seed_samples_the_same_worlds() -> None:
    _, observation = next(positions("classic", 3, 4, [GreedyBot()] * 3))
    sampler = WorldSampler(observation)
    first = [sampler.sample(random.Random(7)) for _ in range(3)]
    again = [sampler.sample(random.Random(7)) for _ in range(3)]
    assert first == again


def test_open_racks_are_used_as_shown() -> None:
    rules = Rules(open_racks=True, target_score=100)
    match = Match(rules, 3, 8)
    bot = GreedyBot()
    while match.observe(match.to_move).phase != "play":
        match.apply(bot.act(match.observe(match.to_move)))
    for _ in range(6):
        match.apply(bot.act(match.observe(match.to_move)))
    observation = match.observe(match.to_move)
    world = WorldSampler(observation).sample(random.Random(1))
    assert list(world.racks) == match.hand.racks


def test_junior_is_not_modelled() -> None:
    assert supports(PRESETS["classic"].rules)
    assert not supports(PRESETS["junior"].rules)
    match = Match.from_preset("junior", players=2, seed=1)
    with pytest.raises(UnsupportedObservationError, match="Junior"):
        WorldSampler(match.observe(match.to_move))


def test_a_spectator_has_no_world() -> None:
    match = Match.from_preset("classic", players=2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        WorldSampler(match.observe(None))
