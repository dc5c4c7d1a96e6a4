"""The world sampler: every world it makes agrees with what the seat has seen.

The checks here do not trust the sampler's own constraints: they rebuild, from the true
hand, the board at each moment a player passed with an empty pool, and look at the
sampled racks directly.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Iterator, Sequence
from functools import reduce

import pytest

import junior_games
from triominos.board import Board, Placement
from triominos.bots import GreedyBot, RandomBot
from triominos.bots.base import Bot
from triominos.bots.sampler import MISSED_POINTS, World, WorldSampler
from triominos.game import (
    Action,
    Deal,
    Draw,
    Hand,
    Match,
    Observation,
    Pass,
    TakeJoker,
    legal_actions,
)
from triominos.lattice import ORIGIN, Cell
from triominos.rules import PRESETS, Rules
from triominos.tiles import JOKER, JUNIOR, WILD, Tile

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


def test_with_open_racks_the_few_worlds_are_the_pools_orders() -> None:
    rules = SMALL_POOL.replace(open_racks=True)
    hand, observation = next(
        (hand, observation)
        for seed in range(40)
        for hand, observation in positions(rules, 2, seed, [GreedyBot()] * 2, every=1)
        if 2 <= observation.pool_size <= 3
    )
    listed = WorldSampler(observation).worlds(cap=6)
    assert listed is not None
    pool = [hand.tile_set.index(tile) for tile in hand.pool]
    assert sorted(world.pool for world, _ in listed) == sorted(itertools.permutations(pool))
    assert all(list(world.racks) == hand.racks and weight == 1.0 for world, weight in listed)


# --- Triominos Junior -------------------------------------------------------------------

FILLERS = (
    ("5-5-5", "4-4-4", "4-4-5", "4-5-5", "1-1-1", "2-2-2"),
    ("3-3-3", "1-5-5", "2-5-5", "3-5-5", "2-2-5", "1-1-5"),
)
"""Cards that fit nowhere next to the first card 1-2-3, a different six for each seat."""


def junior_hand(
    racks: list[list[str]], totals: list[int], first: str = "1-2-3", pool: Sequence[str] = ()
) -> Hand:
    """A two-player Junior hand: each rack is the named cards, filled up to six with cards
    that fit nowhere next to the first card 1-2-3; the pot holds the named ``pool`` cards
    first, then the rest, the joker last."""
    rules = PRESETS["junior"].rules
    full = [[*names, *FILLERS[seat]][:6] for seat, names in enumerate(racks)]
    dealt = [Tile.from_name(name) for rack in full for name in rack]
    chosen = [Tile.from_name(name) for name in pool]
    first_tile = Tile.from_name(first)
    rest = [tile for tile in rules.box if tile not in [*dealt, *chosen, first_tile]]
    rest.sort(key=lambda tile: tile is JOKER)
    deal = Deal(
        tuple(tuple(map(Tile.from_name, rack)) for rack in full), (*chosen, *rest), first_tile
    )
    return Hand(rules, deal, totals=totals)


def unseen_cards(observation: Observation) -> int:
    """The cards the seat cannot see: not on the table, not in its rack (worked out here,
    not by the sampler)."""
    on_table = observation.board.tile_set.mask(placement.tile for placement in observation.board)
    return observation.rules.box_mask & ~on_table & ~(observation.rack or 0)


def assert_a_whole_world(observation: Observation, world: World) -> None:
    """The seat's rack as it is, the other racks and the pool of the sizes shown, made of
    the unseen cards, each once."""
    seat = observation.seat
    assert seat is not None
    assert world.racks[seat] == observation.rack
    assert [rack.bit_count() for rack in world.racks] == list(observation.rack_sizes)
    assert len(world.pool) == observation.pool_size
    dealt = 0
    for held in [rack for other, rack in enumerate(world.racks) if other != seat] + [
        1 << tile for tile in world.pool
    ]:
        assert not dealt & held, "a card dealt twice"
        dealt |= held
    assert dealt == unseen_cards(observation), "a card on the table or in the seat's rack"


def test_a_junior_pass_without_a_counter_proves_no_card_fitted() -> None:
    hand = junior_hand([[], []], totals=[4, 0])
    hand.apply(Draw())  # a buy, though the player may also buy with a card that fits
    then = hand.board.copy()
    assert [legal.action for legal in hand.legal_actions()] == [Pass()]  # nothing to pay with
    hand.apply(Pass())
    observation = hand.observe(0)
    tile_set = hand.tile_set
    fitting = then.fitting_tiles(unseen_cards(observation))
    assert fitting.bit_count() > 5  # many unseen cards fitted: the pass rules them out
    sampler = WorldSampler(observation)
    assert list(sampler.board) == list(observation.board)  # the first card included
    rng = random.Random(3)
    for _ in range(50):
        world = sampler.sample(rng)
        assert_a_whole_world(observation, world)
        assert not then.legal_placements(world.racks[1]), (
            "the passing player held a card that fitted"
        )
    assert tile_set.joker is not None and fitting >> tile_set.joker & 1  # the joker fits anywhere


def test_a_joker_taken_back_is_in_the_takers_rack_in_every_world() -> None:
    hand = junior_hand([["J", "2-2-3"], []], totals=[4, 4])
    hand.apply(Placement(JOKER, Cell(0, 0, False), (2, WILD, 3)))
    hand.apply(Draw())
    hand.apply(TakeJoker(Tile(2, 2, 3), (2, 2, 3)))
    observation = hand.observe(1)
    sampler = WorldSampler(observation)
    assert list(sampler.board) == list(observation.board)
    joker = 1 << JUNIOR.index(JOKER)
    rng = random.Random(4)
    for _ in range(50):
        world = sampler.sample(rng)
        assert_a_whole_world(observation, world)
        assert world.racks[0] & joker
    assert sampler.surprise(hand.racks) == 0  # the true racks keep every constraint


def test_a_pass_before_the_joker_was_taken_back_allows_the_joker() -> None:
    """Player 1 passed (no counter) when the joker, in player 0's rack, fitted anywhere;
    then took it back from the table: the pass ruled the joker out only until then."""
    hand = junior_hand(
        [
            ["2-3-5", "1-2-3", "2-4-4", "J", "1-3-3", "5-5-5"],
            ["1-2-2", "2-2-3", "4-4-4", "4-4-5", "2-2-5", "1-5-5"],
        ],
        totals=[4, 0],
        first="1-3-4",
        pool=["2-2-2", "1-4-5", "3-3-4"],
    )
    actions: list[Action] = [
        Placement(Tile(1, 3, 3), Cell(-1, 0, False), (3, 3, 1)),
        Pass(),
        Placement(JOKER, Cell(0, -1, False), (1, 4, WILD)),
        Placement(Tile(1, 5, 5), Cell(0, -1, True), (5, 1, 5)),
        Placement(Tile(1, 2, 3), Cell(-1, 0, True), (2, 3, 1)),
        Placement(Tile(4, 4, 5), Cell(1, -1, True), (5, 4, 4)),
        Draw(),
        Draw(),  # player 1 buys 1-4-5 ...
        Draw(),
        TakeJoker(Tile(1, 4, 5), (1, 4, 5)),  # ... and takes the joker back with it
    ]
    for action in actions:
        hand.apply(action)
    observation = hand.observe(0)
    sampler = WorldSampler(observation)
    assert sampler.surprise(hand.racks) is not None  # (a random player's buy may surprise)
    passed = [c for c in sampler.constraints if c.reason == "pass"]
    # Gained since the pass: a card bought and the joker; laid since: 1-4-5, which fitted.
    assert [(c.seat, c.allowance) for c in passed] == [(1, 1)]
    rng = random.Random(6)
    for _ in range(50):
        world = sampler.sample(rng)
        assert_a_whole_world(observation, world)
        assert world.racks[1] >> JUNIOR.index(JOKER) & 1


def junior_positions(players: int, seed: int) -> Iterator[tuple[Hand, Observation]]:
    """Every position of a Junior game of a joker taker, greedy and random players, as the
    seat to move sees it."""
    match = Match(PRESETS["junior"].rules, players, seed)
    bots = junior_games.table_bots(players, seed)
    while not match.is_over:
        observation = match.observe(match.to_move)
        yield match.hand, observation
        match.apply(bots[match.to_move].act(observation))


def gained_since(hand: Hand, player: int, number: int) -> int:
    """How many cards entered ``player``'s rack after event ``number``: buys, the joker."""
    return sum(
        1
        for event in hand.events[number + 1 :]
        if event.player == player and event.action in ("buy", "take_joker")
    )


def junior_board_before(hand: Hand, number: int) -> Board:
    """The true board of a Junior hand just before event ``number``."""
    board = Board(hand.tile_set)
    first = hand.deal.first
    assert first is not None
    board.push_unchecked(ORIGIN.id, hand.tile_set.index(first), first.numbers)
    for event in hand.events[:number]:
        if event.action in ("place", "take_joker"):
            assert event.tile is not None and event.cell is not None
            assert event.corners is not None
            index = hand.tile_set.index(event.tile)
            if event.action == "place":
                board.push_unchecked(event.cell.id, index, event.corners)
            else:
                board.swap_joker(index, event.corners)
    return board


def joker_taken_back_by(hand: Hand) -> int | None:
    """The player who took the joker back and has not laid it again, if any."""
    holder = None
    for event in hand.events:
        if event.action == "take_joker":
            holder = event.player
        elif event.action == "place" and event.tile == JOKER:
            holder = None
    return holder


JUNIOR_GAMES = [(2, 1), (2, 6), (3, 7), (4, 2), (4, 6), (4, 10)]
"""(players, seed) of Junior games of :func:`junior_games.table_bots` with passes and the
joker taken back."""


def test_a_junior_world_never_contradicts_the_observation() -> None:
    """The first card, the joker on the table or taken back, buys and passes: every world
    agrees with them, and a passing player holds no more cards that fitted then than it
    gained since."""
    rng = random.Random(5)
    passes = jokers_known = 0
    for players, seed in JUNIOR_GAMES:
        for hand, observation in junior_positions(players, seed):
            seat = observation.seat
            assert seat is not None
            sampler = WorldSampler(observation)
            assert sampler.surprise(hand.racks) is not None  # the truth breaks nothing proved
            checks = [
                (event.player, number, junior_board_before(hand, number))
                for number, event in enumerate(hand.events)
                if event.action == "pass" and event.player != seat
            ]
            holder = joker_taken_back_by(hand)
            passes += len(checks)
            jokers_known += holder not in (None, seat)
            for _ in range(3):
                world = sampler.sample(rng)
                assert_a_whole_world(observation, world)
                if holder is not None:
                    assert world.racks[holder] >> JUNIOR.index(JOKER) & 1
                for player, number, board in checks:
                    fitted = board.fitting_tiles(world.racks[player]).bit_count()
                    assert fitted <= gained_since(hand, player, number)
    assert passes > 10 and jokers_known > 10


@pytest.mark.parametrize("open_racks", [False, True])
def test_junior_without_its_joker_never_deals_it(open_racks: bool) -> None:
    """The young children's Junior (RULES.md 9.6) plays 35 cards: the joker is in the set,
    not in play."""
    rules = PRESETS["junior"].rules.replace(joker=False, open_racks=open_racks)
    match = Match(rules, 3, 2)
    bot, rng = GreedyBot(), random.Random(2)
    while not match.is_over:
        observation = match.observe(match.to_move)
        world = WorldSampler(observation).sample(rng)
        assert_a_whole_world(observation, world)
        assert not any(rack & 1 for rack in world.racks) and 0 not in world.pool
        if open_racks:
            assert list(world.racks) == match.hand.racks
        match.apply(bot.act(observation))


def test_greedy_junior_players_never_surprise_the_sampler() -> None:
    """Greedy buys only when nothing fits: no world calls its buys voluntary."""
    bots: list[Bot] = [GreedyBot(), GreedyBot(), GreedyBot()]
    match = Match(PRESETS["junior"].rules, 3, 6)
    buys = 0
    while not match.is_over:
        observation = match.observe(match.to_move)
        sampler = WorldSampler(observation)
        assert sampler.surprise(match.hand.racks) == 0
        buys += sum(1 for constraint in sampler.constraints if constraint.reason == "draw")
        match.apply(bots[match.to_move].act(observation))
    assert buys > 0


def test_a_spectator_has_no_world() -> None:
    match = Match.from_preset("classic", players=2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        WorldSampler(match.observe(None))


class LowestBot:
    """Lays its lowest-scoring placement, drawing only when nothing fits: it passes up
    every bonus it could take, which a reader of placements should notice."""

    name = "lowest"

    def act(self, observation: Observation) -> Action:
        options = observation.legal_actions()
        placements = [option for option in options if isinstance(option.action, Placement)]
        if placements and observation.phase == "play":
            return min(placements, key=lambda option: option.points).action
        return GreedyBot().act(observation)


def passed_up_by_brute_force(hand: Hand, number: int) -> int:
    """The tiles that would have scored MISSED_POINTS more than the tile laid at event
    ``number``: every unplaced tile's placements scored by the engine's legal actions."""
    board = board_before(hand, number)
    event = hand.events[number]
    assert event.tile is not None and event.cell is not None and event.corners is not None
    laid = hand.tile_set.index(event.tile)
    unplaced = hand.rules.box_mask & ~hand.tile_set.mask(p.tile for p in board)
    options = legal_actions(hand.rules, "play", board, unplaced, 3, 0)
    scored = {
        (option.action.tile, option.action.cell, option.action.corners): option.points
        for option in options
        if isinstance(option.action, Placement)
    }
    bar = scored[(event.tile, event.cell, event.corners)] + MISSED_POINTS
    passed = 0
    for (tile, _, _), points in scored.items():
        index = hand.tile_set.index(tile)
        if points >= bar and index != laid:
            passed |= 1 << index
    return passed


def test_a_placement_that_passed_up_a_bonus_makes_that_tile_less_likely() -> None:
    """The soft constraint of a placement (placements=True, off by default): exactly the
    tiles that would have scored MISSED_POINTS more, and fewer worlds deal them."""
    rng = random.Random(3)
    bots: list[Bot] = [GreedyBot(), LowestBot()]
    checked = inferred = blind = 0
    for hand, observation in positions("classic", 2, 5, bots, every=1):
        if observation.seat != 0:
            continue
        assert not any(c.reason == "placement" for c in WorldSampler(observation).constraints)
        sampler = WorldSampler(observation, placements=True)
        read = [c for c in sampler.constraints if c.reason == "placement"]
        opening = next(n for n, event in enumerate(hand.events) if event.action == "place")
        for number, event in enumerate(hand.events):
            if event.player != 1 or event.action != "place" or number == opening:
                continue
            expected = passed_up_by_brute_force(hand, number)
            if expected:
                assert expected in {c.tiles for c in read}
            checked += bool(expected)
        if read:
            passed = reduce(operator.or_, (c.tiles for c in read)) & sampler.unseen
            plain = WorldSampler(observation)
            for _ in range(10):
                inferred += (sampler.sample(rng).racks[1] & passed).bit_count()
                blind += (plain.sample(rng).racks[1] & passed).bit_count()
    assert checked >= 3
    assert inferred < 0.75 * blind


def few_worlds(players: int, pool: int, unseen: int) -> tuple[Hand, Observation]:
    """The first position of greedy matches with ``pool`` tiles left in the pool and 5 to
    ``unseen`` tiles hidden from the seat to move."""
    for seed in range(40):
        for hand, observation in positions("classic", players, seed, [GreedyBot()] * players, 1):
            hidden = WorldSampler(observation).unseen.bit_count()
            if observation.pool_size == pool and 5 <= hidden <= unseen:
                return hand, observation
    raise AssertionError("no such position in the matches")


def brute_force_worlds(sampler: WorldSampler) -> dict[World, float]:
    """Every way to put each unseen tile in an opponent's rack or at a place in the pool,
    kept when the racks have the sizes shown and the known tiles, weighed as Bayes says."""
    observation = sampler.observation
    tiles = [tile for tile in range(len(sampler.tile_set)) if sampler.unseen >> tile & 1]
    pool_size, sizes = observation.pool_size, observation.rack_sizes
    places = [*sampler.opponents, *(-1 - slot for slot in range(pool_size))]
    found: dict[World, float] = {}
    for where in itertools.product(places, repeat=len(tiles)):
        placed = dict(zip(where, tiles, strict=True))  # a pool slot holds one tile
        if sorted(w for w in where if w < 0) != sorted(-1 - slot for slot in range(pool_size)):
            continue
        pool = [placed[-1 - slot] for slot in range(pool_size)]
        racks = [0] * observation.players
        racks[sampler.seat] = observation.rack or 0
        for tile, seat in zip(tiles, where, strict=True):
            if seat >= 0:
                racks[seat] |= 1 << tile
        if any(racks[seat].bit_count() != sizes[seat] for seat in sampler.opponents):
            continue
        if any(sampler.known[seat] & ~racks[seat] for seat in sampler.opponents):
            continue
        weight = sampler.likelihood(racks)
        if weight:
            world = World(tuple(racks), tuple(pool), sampler.surprise(racks) or 0)
            found[world] = weight
    return found


@pytest.mark.parametrize(("players", "pool", "unseen"), [(3, 0, 9), (2, 2, 7), (2, 1, 8)])
def test_the_few_worlds_are_every_world_brute_force_finds(
    players: int, pool: int, unseen: int
) -> None:
    hand, observation = few_worlds(players, pool, unseen)
    sampler = WorldSampler(observation, placements=True)
    listed = sampler.worlds(cap=10_000)
    assert listed is not None
    assert len(listed) == len({world for world, _ in listed})  # each world once
    assert dict(listed) == brute_force_worlds(sampler)
    assert len(listed) <= sampler.count()
    truth = tuple(hand.racks), tuple(hand.tile_set.index(tile) for tile in hand.pool)
    assert truth in {(world.racks, world.pool) for world, _ in listed}


def test_too_many_worlds_are_not_listed() -> None:
    _, observation = few_worlds(3, 0, 9)
    sampler = WorldSampler(observation)
    assert sampler.worlds(cap=sampler.count() - 1) is None
    assert sampler.worlds(cap=sampler.count()) is not None
