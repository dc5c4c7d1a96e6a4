"""Every bot plays every preset at every player count, from its seat's observation only."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from triominos.board import Placement
from triominos.bots import BOTS, Budget, make_bot
from triominos.bots.base import Bot
from triominos.game import Hand, Match, Observation
from triominos.rules import PRESETS, RuleOptionError

TINY = Budget(simulations=12)

GAMES = [
    (name, players)
    for name, preset in PRESETS.items()
    for players in range(preset.rules.min_players, preset.rules.max_players + 1)
]


def detached(observation: Observation) -> Observation:
    """The observation with nothing shared with the hand, as a bot worker gets it:
    pickled and read back, so its board is rebuilt from its own log.

    What is left is exactly what the seat may know; the hand's racks, pool and drawn
    tiles are not reachable from it at all.
    """
    copy: Observation = pickle.loads(pickle.dumps(observation))
    return copy


@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_every_bot_finishes_a_match(preset: str, players: int) -> None:
    rules = PRESETS[preset].rules
    if rules.target_score is not None:
        rules = rules.replace(target_score=80)
    match = Match(rules, players, seed=players * 31 + len(preset))
    # Seats cycle through the bots from an offset, so that across the player counts of
    # a preset every bot plays it (2 players: expert and sim; 3: sim, random, greedy).
    names = [BOTS[(seat + players) % len(BOTS)] for seat in range(players)]
    bots = [make_bot(name, seat, TINY) for seat, name in enumerate(names)]
    moves = 0
    while not match.is_over:
        seat = match.to_move
        observation = detached(match.observe(seat))
        match.apply(bots[seat].act(observation), seat)
        moves += 1
        assert moves < 5000, "a match that does not end"
    assert match.winners


@pytest.mark.parametrize("name", BOTS)
def test_each_bot_plays_from_observe_output(name: str) -> None:
    """A bot needs nothing but ``Hand.observe(seat)``: a bare hand, not a match."""
    rules = PRESETS["extended"].rules
    match = Match(rules, 3, seed=5)
    hand: Hand = match.hand
    bot = make_bot(name, 1, TINY)
    while not hand.is_over:
        hand.apply(bot.act(hand.observe(hand.to_move)))
    assert hand.end is not None


def scrambled(hand: Hand, seat: int, rng: random.Random) -> None:
    """Change what ``seat`` cannot see, and nothing it can: the other racks and the pool.

    The unseen tiles are dealt again to the other racks (same sizes) and the pool.
    """
    racks = hand.racks
    hidden = [tile for other, rack in enumerate(racks) if other != seat for tile in _bits(rack)]
    pool = list(hand._pool[hand._drawn :])
    tiles = hidden + pool
    rng.shuffle(tiles)
    for other, rack in enumerate(racks):
        if other == seat:
            continue
        size = rack.bit_count()
        racks[other] = sum(1 << tile for tile in tiles[:size])
        tiles = tiles[size:]
    hand._pool[hand._drawn :] = tiles


def _bits(mask: int) -> list[int]:
    return [index for index in range(mask.bit_length()) if mask >> index & 1]


@pytest.mark.parametrize("name", ["greedy", "expert", "sim"])
def test_a_bot_never_reads_hidden_state(name: str) -> None:
    """Scrambling the racks it cannot see and the pool never changes a bot's move."""
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        match = Match(PRESETS["classic"].rules.replace(target_score=100), 2, seed)
        bots = [make_bot(name, 7, Budget(simulations=30)) for _ in range(2)]
        while not match.is_over and checked < 12 * (seed + 1):
            seat = match.to_move
            observation = match.observe(seat)
            if observation.phase == "play" and len(observation.legal_actions()) > 1:
                before = bots[seat].act(detached(observation))
                scrambled(match.hand, seat, rng)
                after = bots[seat].act(detached(match.observe(seat)))
                assert before == after
                checked += 1
            match.apply(bots[seat].act(match.observe(seat)))
    assert checked >= 24


def test_the_same_seed_and_simulations_give_the_same_move() -> None:
    match = Match.from_preset("classic", players=3, seed=12)
    played: list[tuple[Any, Any]] = []
    warm = make_bot("sim", 99, Budget(simulations=40))
    for _ in range(40):
        observation = match.observe(match.to_move)
        fresh = make_bot("sim", 99, Budget(simulations=40))
        move = fresh.act(observation)
        assert warm.act(observation) == move  # whatever the bot was asked before
        played.append((observation.seen_count, move))
        match.apply(move)
    assert any(isinstance(move, Placement) for _, move in played)


def test_an_unknown_bot_is_named_in_the_error() -> None:
    with pytest.raises(RuleOptionError, match="'sim'"):
        make_bot("alphazero")


def test_bots_satisfy_the_protocol() -> None:
    for name in BOTS:
        bot: Bot = make_bot(name, 1, TINY)
        assert bot.name == name
