"""Triominos Junior (seed 000): cards, joker, counters, buying, the last round."""

from __future__ import annotations

import pytest

from triominos.board import Board, Placement
from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import (
    Deal,
    Draw,
    Hand,
    IllegalActionError,
    Match,
    Pass,
    TakeJoker,
    legal_actions,
    placement_points,
)
from triominos.lattice import ORIGIN, Cell, Vertex
from triominos.rules import JUNIOR_RULES, PRESETS, RuleOptionError
from triominos.tiles import JOKER, JUNIOR, WILD, Tile

UP, DOWN = True, False
FIGURE = {"hexagon": 1, "double_hexagon": 2, "triple_hexagon": 3, "bridge": 4}


FILLERS = (
    ("5-5-5", "4-4-4", "4-4-5", "4-5-5", "1-1-1", "2-2-2"),
    ("3-3-3", "1-5-5", "2-5-5", "3-5-5", "2-2-5", "1-1-5"),
    ("2-4-4", "1-4-4", "2-4-5", "1-4-5", "2-2-4", "1-2-5"),
)
"""Cards that fit nowhere next to the first card 1-2-3, a different six for each seat."""


def junior_hand(
    racks: list[list[str]],
    pool: list[str] | None = None,
    first: str = "1-2-3",
    totals: list[int] | None = None,
    **changes: object,
) -> Hand:
    """A Junior hand: each rack is the named cards, filled up to six with cards that fit
    nowhere; the named pool cards come first in the pot, every other card after them."""
    rules = JUNIOR_RULES.replace(**changes) if changes else JUNIOR_RULES
    full = [[*names, *FILLERS[seat]][:6] for seat, names in enumerate(racks)]
    dealt = [Tile.from_name(name) for rack in full for name in rack]
    chosen = [Tile.from_name(name) for name in pool or []]
    first_tile = Tile.from_name(first)
    rest = [t for t in rules.box if t not in dealt and t not in chosen and t != first_tile]
    deal = Deal(
        tuple(tuple(Tile.from_name(name) for name in rack) for rack in full),
        tuple(chosen + rest),
        first_tile,
    )
    return Hand(rules, deal, totals=totals)


# --- the cards ----------------------------------------------------------------------


def test_the_box_holds_35_cards_over_five_symbols_and_the_joker() -> None:
    assert len(JUNIOR) == 36
    cards = [tile for tile in JUNIOR if tile is not JOKER]
    assert len(cards) == 35
    assert {n for card in cards for n in card.numbers} == {1, 2, 3, 4, 5}
    assert len(set(cards)) == 35
    assert Tile.from_name("J") is JOKER and JOKER.name == "J"
    assert JUNIOR.joker == 0


def test_without_the_joker_the_box_holds_35_cards() -> None:
    rules = JUNIOR_RULES.replace(joker=False)
    assert len(rules.box) == 35 and JOKER not in rules.box
    with pytest.raises(RuleOptionError) as error:
        PRESETS["classic"].rules.replace(joker=True)
    assert error.value.option == "joker"


def test_junior_is_for_two_to_four_players() -> None:
    with pytest.raises(RuleOptionError) as error:
        Match(JUNIOR_RULES, 5)
    assert error.value.option == "players"


# --- the setting up -----------------------------------------------------------------


def test_each_player_gets_six_cards_and_four_counters_from_a_bank_of_sixty() -> None:
    match = Match(JUNIOR_RULES, 3, seed=4)
    hand = match.hand
    assert [len(hand.rack(seat)) for seat in range(3)] == [6, 6, 6]
    assert match.totals == [4, 4, 4]
    assert hand.bank == 60 - 12
    observation = match.observe(1)
    assert observation.totals == (4, 4, 4) and observation.bank == 48


def test_the_first_card_lies_face_up_and_seat_zero_begins() -> None:
    hand = junior_hand([[], []])
    first = hand.board.tile_at(ORIGIN)
    assert first == Placement(Tile(1, 2, 3), ORIGIN, (1, 2, 3))
    assert hand.to_move == 0 and hand.phase == "play"


def test_a_joker_turned_up_as_first_card_goes_back_into_the_pot() -> None:
    import random

    for seed in range(200):
        deal = Deal.shuffle(JUNIOR_RULES, 2, random.Random(seed))
        assert deal.first is not None and deal.first is not JOKER
        in_racks = any(JOKER in rack for rack in deal.racks)
        assert in_racks or JOKER in deal.pool
    with pytest.raises(RuleOptionError, match="never the first card"):
        rest = [t for t in JUNIOR if t is not JOKER]
        Deal((tuple(rest[:6]), tuple(rest[6:12])), tuple(rest[12:]), JOKER).check(JUNIOR_RULES)


# --- laying cards and the reward table ----------------------------------------------


@pytest.mark.parametrize(
    ("figure", "last", "counters"),
    [
        (None, False, 1),  # card laid
        ("hexagon", False, 2),
        ("double_hexagon", False, 3),
        ("bridge", False, 2),
        (None, True, 2),  # last card laid
        ("hexagon", True, 3),
        ("double_hexagon", True, 4),
        ("bridge", True, 3),
        ("triple_hexagon", False, 4),  # beyond the seed's table: its pattern, +3
    ],
)
def test_the_reward_table_of_the_seed(figure: str | None, last: bool, counters: int) -> None:
    code = FIGURE[figure] if figure else 0
    points, bonuses = placement_points(JUNIOR_RULES, 1, code, last)
    assert points == counters
    assert sum(bonuses.values()) == counters - 1


def test_the_bank_pays_no_more_than_it_holds() -> None:
    assert placement_points(JUNIOR_RULES, 1, FIGURE["double_hexagon"], True, bank=2) == (
        2,
        {"double_hexagon": 2, "last_tile": 1},
    )
    # A hand whose bank is empty: laying pays nothing, and the counters stay 60 in all.
    hand = junior_hand([["2-2-3"], []], totals=[30, 30])
    assert hand.bank == 0
    option = next(o for o in hand.legal_actions() if isinstance(o.action, Placement))
    assert option.points == 0
    event = hand.apply(option.action)
    assert event.points == 0 and hand.totals == [30, 30] and hand.bank == 0


def test_laying_a_card_earns_a_counter_from_the_bank() -> None:
    hand = junior_hand([["2-2-3"], []])
    placement = Placement(Tile(2, 2, 3), Cell(0, 0, DOWN), (2, 2, 3))
    event = hand.apply(placement)
    assert event.points == 1 and event.bonuses == ()
    assert hand.totals == [5, 4] and hand.bank == 51
    assert hand.to_move == 1


def test_junior_rewards_figures_and_the_last_card_at_game_level() -> None:
    """The Junior reward options on the 76-tile board, where any shape can be built."""
    from shapes import BRIDGE, lay_shape, placement_for

    rules = JUNIOR_RULES.replace(
        tile_set="extended",
        joker=False,
        opening="highest_triple",
        pool_empty="plays_on",
        max_players=4,
    )
    board = Board(rules.tiles)
    lay_shape(board, BRIDGE[0])
    target = placement_for(BRIDGE[1])
    rack = 1 << rules.tiles.index(target.tile)
    option = next(
        o for o in legal_actions(rules, "play", board, rack, 0, 5, 4, 40) if o.action == target
    )
    assert option.points == 3
    assert option.bonuses == {"bridge": 1, "last_tile": 1}


# --- buying -------------------------------------------------------------------------


def test_buying_costs_a_counter_and_ends_the_turn() -> None:
    hand = junior_hand([[], []], pool=["2-3-5"])
    options = [o.action for o in hand.legal_actions()]
    assert Draw() in options and Pass() not in options
    event = hand.apply(Draw())
    assert event.action == "buy" and event.tile == Tile(2, 3, 5) and event.points == -1
    assert hand.totals == [3, 4] and hand.bank == 53
    assert hand.to_move == 1  # the bought card waits for the next turn


def test_buying_is_allowed_when_a_card_fits() -> None:
    hand = junior_hand([["2-2-3"], []])
    assert Draw() in [o.action for o in hand.legal_actions()]


def test_no_counter_to_pay_means_the_turn_is_simply_over() -> None:
    hand = junior_hand([[], []], totals=[0, 8])
    options = [o.action for o in hand.legal_actions()]
    assert options == [Pass()]
    with pytest.raises(IllegalActionError) as error:
        hand.apply(Draw())
    assert error.value.rule == "pay_to_buy"
    event = hand.apply(Pass())
    assert event.points == 0 and hand.totals == [0, 8]


def test_a_buyer_of_a_bought_card_sees_it_and_the_others_do_not() -> None:
    hand = junior_hand([[], []], pool=["2-3-5"])
    hand.apply(Draw())
    assert hand.observe(0).history[-1].tile == Tile(2, 3, 5)
    assert hand.observe(1).history[-1].tile is None
    assert hand.observe(None).history[-1].tile is None


def test_open_racks_show_every_rack_and_every_bought_card() -> None:
    hand = junior_hand([[], []], pool=["2-3-5"], open_racks=True)
    hand.apply(Draw())
    seen = hand.observe(1)
    assert seen.open_racks == tuple(hand.racks)
    assert seen.history[-1].tile == Tile(2, 3, 5)
    assert junior_hand([[], []]).observe(1).open_racks is None


def test_the_last_card_earns_one_more_and_then_the_player_must_buy() -> None:
    hand = junior_hand([["2-2-3"], []])
    hand.racks[0] = 1 << JUNIOR.index(Tile(2, 2, 3))  # only the card that fits is left
    event = hand.apply(Placement(Tile(2, 2, 3), Cell(0, 0, DOWN), (2, 2, 3)))
    assert event.points == 2 and dict(event.bonuses) == {"last_tile": 1}
    assert not hand.is_over  # going out does not end a Junior game
    hand.apply(Draw())  # player 1 buys
    assert [o.action for o in hand.legal_actions()] == [Draw()]


# --- the joker ----------------------------------------------------------------------


def test_the_joker_fits_anywhere_and_its_free_corners_take_any_number() -> None:
    hand = junior_hand([["J"], []])
    jokers = {
        o.action: o.points
        for o in hand.legal_actions()
        if isinstance(o.action, Placement) and o.action.tile is JOKER
    }
    assert jokers == {
        Placement(JOKER, Cell(0, 0, DOWN), (2, WILD, 3)): 1,
        Placement(JOKER, Cell(-1, 0, DOWN), (WILD, 2, 1)): 1,
        Placement(JOKER, Cell(0, -1, DOWN), (1, 3, WILD)): 1,
    }
    hand.apply(Placement(JOKER, Cell(0, 0, DOWN), (2, WILD, 3)))
    board = hand.board
    assert board.joker_cell == Cell(0, 0, DOWN)
    assert board.number_at(Vertex(1, 1)) is None  # the free corner
    # A card touching the free corner gives it its number.
    hand.racks[1] |= 1 << JUNIOR.index(Tile(3, 4, 5))
    hand.apply(Placement(Tile(3, 4, 5), Cell(1, 0, UP), (3, 4, 5)))
    assert board.number_at(Vertex(1, 1)) == 4


def test_a_joker_with_wrong_corners_is_refused() -> None:
    hand = junior_hand([["J"], []])
    with pytest.raises(IllegalActionError) as error:
        hand.apply(Placement(JOKER, Cell(0, 0, DOWN), (2, 5, 3)))
    assert error.value.rule == "joker_corners"


def test_taking_the_joker_back_with_a_card_that_fits_exactly() -> None:
    hand = junior_hand([["J", "2-2-3"], []])
    hand.apply(Placement(JOKER, Cell(0, 0, DOWN), (2, WILD, 3)))
    hand.apply(Pass() if Pass() in [o.action for o in hand.legal_actions()] else Draw())
    before = hand.totals
    options = [o for o in hand.legal_actions() if isinstance(o.action, TakeJoker)]
    assert [o.action for o in options] == [TakeJoker(Tile(2, 2, 3), (2, 2, 3))]
    assert options[0].points == 0
    event = hand.apply(options[0].action)
    assert event.action == "take_joker" and event.cell == Cell(0, 0, DOWN)
    assert hand.totals == before  # no counter earned or paid
    assert hand.board.joker_cell is None
    assert hand.board.tile_at(Cell(0, 0, DOWN)) == Placement(
        Tile(2, 2, 3), Cell(0, 0, DOWN), (2, 2, 3)
    )
    assert JOKER in hand.rack(0) and Tile(2, 2, 3) not in hand.rack(0)
    assert hand.board.number_at(Vertex(1, 1)) == 2  # the free corner took the card's number
    assert hand.to_move == 1  # the whole turn


def test_taking_the_joker_back_is_refused_when_the_card_does_not_fit() -> None:
    hand = junior_hand([["J", "2-2-3"], []])
    with pytest.raises(IllegalActionError) as error:
        hand.apply(TakeJoker(Tile(2, 2, 3), (2, 2, 3)))
    assert error.value.rule == "joker_on_table"
    hand.apply(Placement(JOKER, Cell(0, 0, DOWN), (2, WILD, 3)))
    hand.apply(Draw())
    hand.racks[0] |= 1 << JUNIOR.index(Tile(1, 1, 4))
    with pytest.raises(IllegalActionError) as error:
        hand.apply(TakeJoker(Tile(1, 1, 4), (1, 1, 4)))
    assert error.value.rule == "joker_exact_fit"


def test_popping_cards_around_the_joker_restores_its_free_corners() -> None:
    board = Board(JUNIOR)
    board.push(Placement(Tile(1, 2, 3), ORIGIN, (1, 2, 3)))
    board.push(Placement(JOKER, Cell(0, 0, DOWN), (2, WILD, 3)))
    keys = dict(board._frontier)
    board.push(Placement(Tile(3, 4, 5), Cell(1, 0, UP), (3, 4, 5)))
    assert board.number_at(Vertex(1, 1)) == 4
    board.pop()
    assert board.number_at(Vertex(1, 1)) is None
    assert board._frontier == keys
    board.swap_joker(JUNIOR.index(Tile(2, 2, 3)), (2, 2, 3))
    assert board.number_at(Vertex(1, 1)) == 2
    board.pop()  # undoes the swap
    assert board.joker_cell == Cell(0, 0, DOWN)
    assert board.number_at(Vertex(1, 1)) is None
    assert board._frontier == keys


# --- the end ------------------------------------------------------------------------


def test_the_last_round_after_the_pot_runs_out_ends_with_the_taker() -> None:
    hand = junior_hand([[], [], []])
    hand._pool = hand._pool[:1]  # one card left in the pot
    assert hand.pool_size == 1
    hand.apply(Draw())  # player 0 takes the last card: the last round begins
    assert hand.pool_size == 0 and not hand.is_over
    moves = []
    while not hand.is_over:
        moves.append(hand.to_move)
        hand.apply(GreedyBot().act(hand.observe(hand.to_move)))
    assert moves == [1, 2, 0]
    assert hand.end is not None and hand.end.reason == "last_round"
    assert hand.end.settlement == (0, 0, 0)


def test_a_game_where_nobody_can_do_anything_ends_at_once() -> None:
    hand = junior_hand([[], []], totals=[0, 0])
    assert [o.action for o in hand.legal_actions()] == [Pass()]
    hand.apply(Pass())
    assert hand.is_over and hand.end is not None and hand.end.reason == "blocked"


def test_most_counters_win() -> None:
    match = Match(JUNIOR_RULES, 2, seed=3)
    bots: list[Bot] = [GreedyBot(), RandomBot(3)]
    while not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
    assert len(match.hands) == 1
    best = max(match.totals)
    assert match.winners == [seat for seat, total in enumerate(match.totals) if total == best]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_junior_games_keep_every_card_and_every_counter(players: int, seed: int) -> None:
    match = Match(JUNIOR_RULES, players, seed=seed)
    bots: list[Bot] = [
        RandomBot(seed + seat) if seat % 2 else GreedyBot() for seat in range(players)
    ]
    hand = match.hand
    while not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
        counters = hand.totals
        assert hand.bank is not None and hand.bank + sum(counters) == 60
        assert hand.bank >= 0 and min(counters) >= 0
        cards = [*hand.pool, *(p.tile for p in hand.board)]
        for seat in range(players):
            cards += hand.rack(seat)
        assert sorted(cards) == sorted(JUNIOR_RULES.box)
    assert match.totals == hand.totals
