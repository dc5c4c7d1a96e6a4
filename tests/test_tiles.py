"""Tiles and tile sets: the 56 and 76 tiles, canonical names, mirrors, parse errors."""

from __future__ import annotations

import itertools

import pytest

from triominos.tiles import CLASSIC, EXTENDED, TILE_SETS, Tile, TileError, TileSet


def test_classic_set_has_56_tiles_over_0_to_5() -> None:
    assert len(CLASSIC) == 56
    assert len(set(CLASSIC)) == 56
    assert {n for tile in CLASSIC for n in tile.numbers} == set(range(6))
    # One tile for each three numbers taken in non-decreasing order.
    expected = {Tile(*numbers) for numbers in itertools.combinations_with_replacement(range(6), 3)}
    assert set(CLASSIC) == expected


def test_extended_set_has_76_tiles_the_classic_56_and_20_mirrors() -> None:
    assert len(EXTENDED) == 76
    assert set(CLASSIC) < set(EXTENDED)
    extra = set(EXTENDED) - set(CLASSIC)
    assert len(extra) == 20
    for tile in extra:
        assert len(set(tile.numbers)) == 3
        assert tile.mirror() in CLASSIC
        assert tile.mirror() != tile
    assert TILE_SETS["classic"] is CLASSIC and TILE_SETS["extended"] is EXTENDED


def test_every_ordered_triple_is_exactly_one_rotation_of_one_extended_tile() -> None:
    lying = [rotation for tile in EXTENDED for rotation in tile.rotations()]
    assert len(lying) == len(set(lying)) == 6**3


def test_names_are_canonical_rotations() -> None:
    assert Tile(1, 2, 0) == Tile(0, 1, 2) == Tile(2, 0, 1)
    assert Tile(1, 2, 0).name == "0-1-2"
    assert str(Tile(2, 0, 1)) == "0-1-2"
    assert Tile(5, 4, 4).name == "4-4-5"
    assert Tile(4, 5, 4).name == "4-4-5"
    assert Tile(3, 3, 3).name == "3-3-3"
    for tile in EXTENDED:
        assert tile.name == min("-".join(map(str, r)) for r in tile.rotations())
        assert tile.a == min(tile.numbers)


def test_mirrors_are_distinct_tiles_with_distinct_names() -> None:
    tile = Tile(0, 1, 2)
    mirror = Tile(0, 2, 1)
    assert tile != mirror
    assert mirror.name == "0-2-1"
    assert tile.mirror() == mirror
    assert mirror.mirror() == tile
    assert Tile(1, 0, 2) == mirror  # a rotation of 0-2-1
    assert Tile(3, 3, 4).mirror() == Tile(3, 3, 4)
    assert mirror not in CLASSIC
    assert mirror in EXTENDED


def test_value_triple_and_rotations() -> None:
    assert Tile(3, 4, 5).value == 12
    assert Tile(0, 0, 0).value == 0
    assert Tile(5, 5, 5).is_triple and not Tile(5, 5, 4).is_triple
    assert Tile(5, 5, 5).rotations() == ((5, 5, 5),)
    assert Tile(4, 5, 5).rotations() == ((4, 5, 5), (5, 5, 4), (5, 4, 5))
    assert Tile(0, 1, 2).rotations() == ((0, 1, 2), (1, 2, 0), (2, 0, 1))


@pytest.mark.parametrize("tile", list(EXTENDED))
def test_repr_pastes_back_and_name_parses_back(tile: Tile) -> None:
    assert eval(repr(tile)) == tile
    assert Tile.from_name(tile.name) == tile
    assert EXTENDED.parse(tile.name) == tile


def test_any_rotation_of_a_name_parses_to_the_same_tile() -> None:
    assert Tile.from_name("1-2-0") == Tile(0, 1, 2)
    assert Tile.from_name(" 2-0-1 ") == Tile(0, 1, 2)
    assert Tile.from_name("1-0-2") == Tile(0, 2, 1)


@pytest.mark.parametrize(
    "name",
    ["", "0-1", "0-1-2-3", "a-b-c", "0-1-x", "0--1-2", "-1-2-3", "0 1 2", "0,1,2", "0-1-²", "j"],
)
def test_bad_names_raise_tile_error(name: str) -> None:
    with pytest.raises(TileError):
        Tile.from_name(name)


def test_tile_error_is_a_value_error() -> None:
    assert issubclass(TileError, ValueError)


@pytest.mark.parametrize("numbers", [(-1, 0, 0), (0, 0, 1.5), (True, 0, 0), (0, "1", 2)])
def test_bad_numbers_raise_tile_error(numbers: tuple[object, object, object]) -> None:
    with pytest.raises(TileError):
        Tile(*numbers)  # type: ignore[arg-type]


def test_set_parse_rejects_tiles_of_another_set() -> None:
    with pytest.raises(TileError, match="0-2-1"):
        CLASSIC.parse("0-2-1")
    with pytest.raises(TileError):
        CLASSIC.parse("0-1-6")
    with pytest.raises(TileError):
        CLASSIC.index(Tile(0, 0, 6))
    assert CLASSIC.parse("1-2-0") == Tile(0, 1, 2)


@pytest.mark.parametrize("tile_set", [CLASSIC, EXTENDED])
def test_set_order_masks_and_values(tile_set: TileSet) -> None:
    values = [tile.value for tile in tile_set]
    assert values == sorted(values)
    assert tile_set.tiles[0] == Tile(0, 0, 0)
    assert tile_set.tiles[-1] == Tile(5, 5, 5)
    for index, tile in enumerate(tile_set):
        assert tile_set.index(tile) == index
        assert tile_set.values[index] == tile.value
    chosen = [Tile(5, 5, 5), Tile(0, 1, 2), Tile(0, 0, 0)]
    mask = tile_set.mask(chosen)
    assert mask.bit_count() == 3
    assert tile_set.tiles_in(mask) == sorted(chosen, key=tile_set.index)
    assert tile_set.value_of(mask) == 18
    # Every rack's value is the sum of its tiles' (the lookup works a byte at a time).
    for size in (0, 1, 7, 20):
        for rack in itertools.islice(itertools.combinations(range(len(tile_set)), size), 300):
            held = sum(1 << index for index in rack)
            assert tile_set.value_of(held) == sum(tile_set.values[index] for index in rack)
    assert tile_set.value_of(tile_set.full_mask) == sum(values)
    assert tile_set.full_mask.bit_count() == len(tile_set)
    assert tile_set.tiles_in(tile_set.triples) == [Tile(n, n, n) for n in range(6)]
