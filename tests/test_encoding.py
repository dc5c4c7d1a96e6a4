"""Action ids and the observation tensor (triominos.encoding)."""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest

from triominos.board import Placement
from triominos.encoding import (
    PHASES,
    POINTS_SCALE,
    ActionSpace,
    ObservationEncoder,
    OutsideWindowError,
    hands_bound,
    points_bound,
    set_bits,
)
from triominos.game import Deal, Draw, Hand, Match, Observation, Pass, StarterDraw, TakeJoker
from triominos.lattice import ORIGIN, Cell
from triominos.rules import PRESETS
from triominos.tiles import CLASSIC, JOKER, Tile

CLASSIC_RULES = PRESETS["classic"].rules


def random_positions(preset: str, players: int, seed: int, count: int) -> Iterator[Observation]:
    """Observations of the player to move along random matches of a preset."""
    rng = random.Random(seed)
    match = Match(PRESETS[preset].rules, players, seed)
    found = 0
    while found < count:
        if match.is_over:
            match = Match(PRESETS[preset].rules, players, rng.randrange(2**32))
        observation = match.observe(match.to_move)
        yield observation
        found += 1
        match.apply(rng.choice(observation.legal_actions()).action)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_legal_action_round_trips(preset: str) -> None:
    rules = PRESETS[preset].rules
    space = ActionSpace(rules)
    kinds = set()
    for players in (2, rules.max_players):
        for observation in random_positions(preset, players, seed=players, count=300):
            legal = observation.legal_actions()
            ids = space.legal_ids(observation)
            assert len(set(ids)) == len(ids) == len(legal)
            for option, action_id in zip(legal, ids, strict=True):
                assert 0 <= action_id < space.size
                assert space.decode(action_id, observation.board) == option.action
                kinds.add(type(option.action).__name__)
            mask = space.mask(observation)
            # The ids are distinct: the mask is exactly them when it holds each of them
            # and nothing more (counting in C, not looping over 774,147 bytes).
            assert all(mask[action_id] == 1 for action_id in ids)
            assert mask.count(1) == len(ids) and mask.count(0) == len(mask) - len(ids)
    assert {"Placement", "Draw"} <= kinds
    if rules.opening == "starter_draw":
        assert "StarterDraw" in kinds


def test_the_joker_is_placed_and_taken_back_through_ids() -> None:
    """Junior: the joker's placement reads its corners off the board; a take-back has ids
    of its own after the placements."""
    space = ActionSpace(PRESETS["junior"].rules)
    placed = taken = 0
    for observation in random_positions("junior", 2, seed=5, count=3000):
        for option, action_id in zip(
            observation.legal_actions(), space.legal_ids(observation), strict=True
        ):
            action = option.action
            if isinstance(action, TakeJoker):
                taken += 1
                assert action_id >= space.take_joker_start
            if isinstance(action, Placement) and action.tile == JOKER:
                placed += 1
                assert space.decode(action_id, observation.board) == action
                with pytest.raises(ValueError, match="needs the board"):
                    space.decode(action_id)
    assert placed and taken


def test_the_layout_by_hand() -> None:
    space = ActionSpace(CLASSIC_RULES, radius=2)
    tiles = len(CLASSIC)
    assert space.cells == 2 * 4 * 4
    assert space.size == 3 + space.cells * tiles * 3  # no joker in the classic set
    assert [space.encode(a) for a in (Draw(), Pass(), StarterDraw())] == [0, 1, 2]
    assert space.cell_index(Cell(-2, -2, False)) == 0
    assert space.cell_index(Cell(-2, -2, True)) == 1
    assert space.cell_index(Cell(-2, -1, False)) == 2
    assert space.cell_index(Cell(1, 1, True)) == space.cells - 1
    tile = Tile(1, 2, 3)
    index = CLASSIC.index(tile)
    origin = space.cell_index(ORIGIN)
    assert origin == ((0 + 2) * 4 + 0 + 2) * 2 + 1
    assert space.encode(Placement(tile, ORIGIN, (2, 3, 1))) == 3 + (origin * tiles + index) * 3 + 1
    assert space.decode(3 + (origin * tiles + index) * 3 + 2) == Placement(tile, ORIGIN, (3, 1, 2))
    assert space.decode(space.size - 3) == Placement(CLASSIC.tiles[-1], Cell(1, 1, True), (5, 5, 5))


def test_bad_ids_and_actions_are_refused() -> None:
    space = ActionSpace(CLASSIC_RULES, radius=2)
    for bad in (-1, space.size, "3", 2.0):
        with pytest.raises(ValueError, match="whole number from 0"):
            space.decode(bad)  # type: ignore[arg-type]
    triple = CLASSIC.index(Tile(2, 2, 2))
    with pytest.raises(ValueError, match="rotation 1 of 2-2-2, which has 1"):
        space.decode(3 + (space.cell_index(ORIGIN) * len(CLASSIC) + triple) * 3 + 1)
    with pytest.raises(
        OutsideWindowError, match=r"cell \[2, 0, 'up'\] is outside the window of radius 2"
    ):
        space.encode(Placement(Tile(0, 0, 0), Cell(2, 0, True), (0, 0, 0)))
    with pytest.raises(ValueError, match="not a rotation of 0-1-2"):
        space.encode(Placement(Tile(0, 1, 2), ORIGIN, (0, 2, 1)))
    with pytest.raises(ValueError, match="no joker"):
        space.encode(TakeJoker(Tile(0, 1, 2), (0, 1, 2)))
    with pytest.raises(ValueError, match="radius must be a whole number from 1 to 126"):
        ActionSpace(CLASSIC_RULES, radius=0)


def deal(racks: list[list[str]], pool: list[str]) -> Deal:
    return Deal(
        tuple(tuple(Tile.from_name(name) for name in rack) for rack in racks),
        tuple(Tile.from_name(name) for name in pool),
    )


def classic_deal(swap: bool = False) -> Deal:
    """A 2-player classic deal where seat 0 holds 5-5-5 (so it opens); ``swap`` trades a
    tile of seat 1's rack with the last tile of the pool, which seat 0 cannot see."""
    names = [tile.name for tile in CLASSIC]
    names.remove("5-5-5")
    rack0 = ["5-5-5", *names[:8]]
    rack1, pool = names[8:17], names[17:]
    if swap:
        rack1[0], pool[-1] = pool[-1], rack1[0]
    return deal([rack0, rack1], pool)


def test_the_tensor_of_a_hand_built_position() -> None:
    encoder = ObservationEncoder(CLASSIC_RULES, 2, radius=3)
    hand = Hand(CLASSIC_RULES, classic_deal())
    hand.apply(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    tensor = encoder.encode(hand.observe(1))
    assert len(tensor) == encoder.size
    planes, side, _ = encoder.board_shape
    assert (planes, side) == (10, 7)

    def plane(name: str) -> set[tuple[int, int]]:
        start = encoder.plane_names.index(name) * side * side
        return {
            (x - 3, y - 3) for x in range(side) for y in range(side) if tensor[start + x * side + y]
        }

    assert plane("number 5") == {(0, 0), (0, 1), (1, 0)}  # the corners of the origin
    assert all(not plane(f"number {n}") for n in range(5))
    assert plane("up tile") == {(0, 0)} and not plane("down tile")
    # The three edge neighbours of the origin, by their lower-left vertices.
    assert plane("down open") == {(0, 0), (-1, 0), (0, -1)} and not plane("up open")

    def feature(name: str) -> list[float]:
        return list(tensor[encoder.features[name]])

    rack1 = CLASSIC.mask(hand.rack(1))
    assert [i for i, bit in enumerate(feature("rack")) if bit] == [
        i for i in range(len(CLASSIC)) if rack1 >> i & 1
    ]
    assert [i for i, bit in enumerate(feature("table")) if bit] == [CLASSIC.index(Tile(5, 5, 5))]
    assert sum(feature("unseen")) == len(CLASSIC) - 1 - 9
    points = 15 + CLASSIC_RULES.opening_triple_bonus
    assert feature("hand points") == pytest.approx([0, points / POINTS_SCALE])  # seat 1 first
    assert feature("rack sizes") == [9, 8]
    assert feature("to move") == [1, 0]  # seat 1 moves: the observing seat
    assert feature("pool size") == [len(CLASSIC) - 18]
    assert feature("phase") == [float(phase == "play") for phase in PHASES]
    assert "bank" not in encoder.features and "open racks" not in encoder.features


def test_hidden_racks_do_not_reach_the_tensor() -> None:
    encoder = ObservationEncoder(CLASSIC_RULES, 2)
    hands = [Hand(CLASSIC_RULES, classic_deal(swap)) for swap in (False, True)]
    for _ in range(2):
        assert list(encoder.encode(hands[0].observe(0))) == list(
            encoder.encode(hands[1].observe(0))
        )
        # The seat whose rack differs sees the difference: the test can fail.
        assert list(encoder.encode(hands[0].observe(1))) != list(
            encoder.encode(hands[1].observe(1))
        )
        for hand in hands:
            hand.apply(hand.legal_actions()[0].action)


def test_junior_tensor_has_the_bank_and_the_joker_planes() -> None:
    rules = PRESETS["junior"].rules
    encoder = ObservationEncoder(rules, 3)
    assert encoder.plane_names[-2:] == ("up joker", "down joker")
    observation = Match(rules, 3, 4).observe(0)
    tensor = encoder.encode(observation)
    assert tensor[encoder.features["bank"].start] == observation.bank
    assert len(tensor[encoder.features["totals"]]) == 3


def test_the_encoder_refuses_what_it_cannot_encode() -> None:
    encoder = ObservationEncoder(CLASSIC_RULES, 2)
    match = Match(CLASSIC_RULES, 3, 1)
    with pytest.raises(ValueError, match="another number of players"):
        encoder.encode(match.observe(0))
    with pytest.raises(ValueError, match="spectator"):
        encoder.encode(Match(CLASSIC_RULES, 2, 1).observe(None))
    with pytest.raises(ValueError, match="players"):
        ObservationEncoder(CLASSIC_RULES, 7)


def test_a_board_beyond_the_window_is_an_error() -> None:
    """Radius 1 holds the opening tile and its open cells; a second tile opens cells with
    a corner two vertices out."""
    encoder = ObservationEncoder(CLASSIC_RULES, 2, radius=1)
    hand = Hand(CLASSIC_RULES, classic_deal())
    hand.apply(Placement(Tile(5, 5, 5), ORIGIN, (5, 5, 5)))
    encoder.encode(hand.observe(0))
    while len(hand.board) < 2:
        hand.apply(hand.legal_actions()[0].action)
    with pytest.raises(OutsideWindowError, match="outside the window of radius 1"):
        encoder.encode(hand.observe(0))


def test_the_readme_gives_the_sizes_of_the_classic_game() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    space, encoder = ActionSpace(CLASSIC_RULES), ObservationEncoder(CLASSIC_RULES, 2)
    assert f"makes {space.size:,} action ids in the classic game" in readme
    assert f"{space.cells:,} cells \N{MULTIPLICATION SIGN} {len(CLASSIC)} tiles" in readme
    assert f"{encoder.size:,} numbers in a 2-player tensor" in readme
    assert f"vertices up to {space.radius} from it" in readme


def test_the_rotation_index_and_the_tile_bits_are_public_helpers() -> None:
    space = ActionSpace(CLASSIC_RULES)
    tile = CLASSIC.tiles.index(Tile(0, 1, 2))
    assert [space.rotation(tile, corners) for corners in ((0, 1, 2), (1, 2, 0), (2, 0, 1))] == [
        0,
        1,
        2,
    ]
    with pytest.raises(ValueError, match="turned, never flipped"):
        space.rotation(tile, (0, 2, 1))
    out = array("f", bytes(4 * 8))
    set_bits(out, 2, 0b1001)
    assert list(out) == [0, 0, 1, 0, 0, 1, 0, 0]


def test_a_match_plays_at_most_its_hand_limit_or_a_hand_a_point_of_its_target() -> None:
    assert hands_bound(CLASSIC_RULES) == 400
    assert hands_bound(PRESETS["junior"].rules) == 1
    assert hands_bound(CLASSIC_RULES.replace(hand_limit=6)) == 6
    encoder = ObservationEncoder(CLASSIC_RULES, 2)
    totals = encoder.features["totals"].start
    hand = points_bound(CLASSIC_RULES, 2) / POINTS_SCALE
    assert encoder.bounds()[1][totals] == pytest.approx(hand)
    assert encoder.bounds(400)[1][totals] == pytest.approx(400 * hand)
