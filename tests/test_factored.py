"""Factored action ids and per-legal-action features (triominos.factored)."""

from __future__ import annotations

import random

import pytest

from test_game import five_opening
from triominos.board import FIGURES, Board, Placement
from triominos.factored import KINDS, FactoredSpace, FrontierError
from triominos.game import Deal, Draw, Hand, observe
from triominos.lattice import Cell
from triominos.rules import PRESETS, preset
from triominos.tiles import Tile


def test_the_classic_space_is_small_enough_for_an_output_layer() -> None:
    space = FactoredSpace(preset("classic").rules)
    assert (space.slots, space.tiles, space.size) == (58, 56, 3 + 58 * 56 * 3)


@pytest.mark.parametrize("name", list(PRESETS))
def test_ids_round_trip_and_every_frontier_fits_the_slots(name: str) -> None:
    """Random hands of every preset at its fewest and most players: each legal action's
    id decodes to it, ids are distinct, and no frontier outgrows the slots."""
    rules = preset(name).rules
    space = FactoredSpace(rules)
    rng = random.Random(7)
    for players in (rules.min_players, rules.max_players):
        hand = Hand(rules, Deal.shuffle(rules, players, rng), rng=rng)
        while not hand.is_over:
            seen = observe(hand, hand.to_move)
            assert len(seen.board.open_cells()) <= space.slots
            ids = space.legal_ids(seen)
            assert len(set(ids)) == len(ids)
            choices = seen.legal_actions()
            for action_id, choice in zip(ids, choices, strict=True):
                assert 0 <= action_id < space.size
                assert space.decode(action_id, seen.board) == choice.action
            mask = space.mask(seen)
            assert sum(mask) == len(ids)
            hand.apply(rng.choice(choices).action)


def test_a_placement_is_named_by_its_frontier_slot_tile_and_rotation() -> None:
    hand = five_opening(["", "4-5-5"])
    seen = observe(hand, 1)
    space = FactoredSpace(hand.rules)
    cell = Cell(0, 0, False)
    placement = Placement(Tile(4, 5, 5), cell, (5, 4, 5))
    action_id = space.encode(placement, seen.board)
    slot, tile, rotation = space.factors(action_id)
    assert seen.board.open_cells()[slot] == cell
    assert hand.tile_set.tiles[tile] == Tile(4, 5, 5)
    assert hand.tile_set.rotations[tile][rotation] == (5, 4, 5)
    with pytest.raises(FrontierError, match="not an open cell"):
        space.encode(placement._replace(cell=Cell(5, 5, True)), seen.board)
    with pytest.raises(FrontierError, match="past the frontier"):
        space.decode(3 + (space.slots - 1) * space.tiles * 3, seen.board)
    with pytest.raises(ValueError, match="not a placement"):
        space.factors(0)


def test_each_legal_action_has_its_row_of_features() -> None:
    hand = five_opening(["", "4-5-5"])
    seen = observe(hand, 1)
    space = FactoredSpace(hand.rules)
    ids, rows = space.features(seen)
    assert len(seen.rack_tiles) == 9 and ids == space.legal_ids(seen)
    assert len(rows) == len(ids) * space.feature_size
    part = space.feature_slices
    choices = seen.legal_actions()
    for number, choice in enumerate(choices):
        row = rows[number * space.feature_size : (number + 1) * space.feature_size]
        kind = list(row[part["kind"]]).index(1.0)
        assert (
            KINDS[kind]
            == {"Placement": "place", "Draw": "draw", "Pass": "pass"}[type(choice.action).__name__]
        )
        assert row[part["points"]][0] == pytest.approx(choice.points / 100)
        if isinstance(choice.action, Placement):
            tile = hand.tile_set.index(choice.action.tile)
            assert row[part["tile"]][tile] == 1.0 and sum(row[part["tile"]]) == 1.0
            assert row[part["out"]][0] == 0.0  # eight tiles are left
            assert row[part["rack after"]][0] == pytest.approx(8 / len(hand.rules.box))
            figure = seen.board.figure(choice.action.cell)
            assert sum(row[part["figure"]]) == (figure is not None)
            if figure is not None:
                assert row[part["figure"]][FIGURES.index(figure) - 1] == 1.0
            assert row[part["matched"]][0] == pytest.approx(2 / 3)  # two corners meet the 5s
        elif isinstance(choice.action, Draw):
            assert row[part["rack after"]][0] == pytest.approx(10 / len(hand.rules.box))


def test_a_placement_that_empties_the_rack_is_marked_going_out() -> None:
    rules = preset("classic").rules
    tiles = rules.tiles
    board = Board(tiles)
    board.push(Placement(Tile(5, 5, 5), Cell(0, 0, True), (5, 5, 5)))
    racks = [tiles.mask([Tile(0, 0, 0)]), tiles.mask([Tile(4, 5, 5)])]
    hand = Hand.resume(rules, board, racks, [], to_move=1, starter=0)
    space = FactoredSpace(rules)
    seen = observe(hand, 1)
    _, rows = space.features(seen)
    out = space.feature_slices["out"].start
    for number, choice in enumerate(seen.legal_actions()):
        assert rows[number * space.feature_size + out] == float(
            isinstance(choice.action, Placement)
        )
