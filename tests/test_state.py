"""States as values: clone, undo, equality, position strings, immutable observations.

Hand-built positions (the helpers of test_game), so that each outcome is known.
"""

from __future__ import annotations

import pickle
import random
from typing import TypeVar

import pytest

from test_game import CLASSIC_RULES, P, T, extended_hand, five_opening, make_deal, play
from triominos import game
from triominos.board import Board, FrozenBoard
from triominos.bots import GreedyBot
from triominos.game import (
    Draw,
    Hand,
    Match,
    Observation,
    Pass,
    StarterDraw,
    TakeJoker,
    UndoError,
)
from triominos.lattice import ORIGIN, Cell
from triominos.position import PositionError
from triominos.rules import preset
from triominos.tiles import JOKER, indices


def greedy_match(seed: int, actions: int, name: str = "classic", players: int = 2) -> Match:
    match = Match.from_preset(name, players=players, seed=seed)
    bot = GreedyBot()
    for _ in range(actions):
        match.apply(bot.act(match.observe(match.to_move)))
    return match


# --- clone --------------------------------------------------------------------------


def test_a_clone_is_equal_and_independent() -> None:
    hand = five_opening(["", "4-5-5"])
    clone = hand.clone()
    assert clone == hand and clone is not hand and clone.board is not hand.board
    before = hand.to_text()
    clone.apply(P("4-5-5", Cell(0, 0, False), (5, 4, 5)))
    assert clone != hand
    assert hand.to_text() == before  # nothing of the original moved
    assert len(hand.board) == 1 and hand.racks[1] == clone.racks[1] | 1 << hand.tile_set.index(
        T("4-5-5")
    )
    hand.apply(Draw())  # and the other way round
    assert [event.action for event in clone.events] == ["place", "place"]


def test_a_clone_undoes_its_own_history_only() -> None:
    hand = five_opening(["", "4-5-5"])
    hand.apply(Draw())
    clone = hand.clone()
    clone.undo()
    clone.undo()
    assert clone.phase == "opening" and len(clone.board) == 0
    assert hand.draws == 1 and len(hand.board) == 1  # the original keeps its state
    hand.undo()
    assert hand.draws == 0 and hand.pool_size == clone.pool_size


def test_a_match_clone_plays_on_alone_and_equals_its_original() -> None:
    match = greedy_match(seed=4, actions=20)
    clone = match.clone()
    assert clone == match
    text = match.to_text()
    bot = GreedyBot()
    while not clone.is_over:
        clone.apply(bot.act(clone.observe(clone.to_move)))
    assert match.to_text() == text
    assert len(clone.hands) > 1  # the clone dealt hands of its own


# --- undo ---------------------------------------------------------------------------


def test_undo_takes_back_a_placement_its_points_and_the_opening() -> None:
    hand = Hand(CLASSIC_RULES, make_deal(CLASSIC_RULES, ["5-5-5", "4-5-5"]))
    dealt = hand.clone()
    options = hand.legal_actions()
    event = hand.apply(P("5-5-5", ORIGIN, (5, 5, 5)))
    assert (hand.phase, hand.points[0]) == ("play", 15 + 10)
    assert hand.undo() == event
    assert hand == dealt and hand.phase == "opening" and hand.to_move == 0
    assert hand.legal_actions() == options
    with pytest.raises(UndoError, match="nothing to undo"):
        hand.undo()


def test_undo_takes_back_draws_one_by_one_and_the_pass() -> None:
    hand = five_opening(pool="0-0-1 0-0-2 0-0-3")
    saved = [hand.clone()]
    for action in (Draw(), Draw(), Draw(), Pass()):
        hand.apply(action)
        saved.append(hand.clone())
    assert hand.points[1] == -15 - 10 and hand.to_move == 0 and hand.draws == 0
    while len(saved) > 1:
        saved.pop()
        hand.undo()
        assert hand == saved[-1]
        assert hand.pool == saved[-1].pool and hand.draws == saved[-1].draws
    assert hand.pool[:3] == [T("0-0-1"), T("0-0-2"), T("0-0-3")]


def test_undo_reopens_a_finished_hand_and_takes_back_the_settlement() -> None:
    rules = CLASSIC_RULES.replace(rack_sizes={str(n): 2 for n in range(2, 7)})
    hand = Hand(rules, make_deal(rules, ["5-5-5 4-5-5", "1-1-2 0-1-2"]))
    play(hand, "5-5-5@0,0,u:555 draw draw draw pass")
    before = hand.clone()
    hand.apply(P("4-5-5", Cell(0, 0, False), (5, 4, 5)))
    assert hand.end is not None and hand.end.reason == "out"
    hand.undo()
    assert hand == before and hand.end is None and hand.phase == "play"
    assert hand.out == [] and hand.points == before.points


def test_undo_takes_back_the_bell_and_the_round_it_opens() -> None:
    racks = ["4-5-5 0-5-4", "3-5-5 1-1-1", "5-5-5 2-5-5"]
    hand = extended_hand(racks, shown="0-0-1 0-1-1 4-4-5", pool="0-0-2 0-0-3 1-1-2")
    play(hand, "5-5-5@0,0,u:555 4-5-5@0,0,d:545 3-5-5@-1,0,d:355")
    before = hand.clone()
    play(hand, "2-5-5@0,-1,d:552")  # seat 2 goes out: the bell
    assert hand.out == [2]
    hand.undo()
    assert hand == before and hand.out == []


def test_undo_of_a_starter_draw_draws_the_same_tile_again() -> None:
    match = Match.from_preset("extended", players=3, seed=11)
    first = match.apply(StarterDraw())
    second = match.apply(StarterDraw())
    match.undo()
    assert match.apply(StarterDraw()) == second
    match.undo()
    match.undo()
    assert match.apply(StarterDraw()) == first


def test_undo_of_a_junior_buy_gives_the_counter_back_to_the_player_and_the_bank() -> None:
    match = Match.from_preset("junior", players=2, seed=3)
    hand = match.hand
    bank, totals, pool = hand.bank, hand.totals, hand.pool
    assert bank is not None and Draw() in [option.action for option in hand.legal_actions()]
    hand.apply(Draw())
    assert hand.bank == bank + 1 and hand.totals[0] == totals[0] - 1
    hand.undo()
    assert (hand.bank, hand.totals, hand.pool) == (bank, totals, pool)


def test_undo_of_taking_the_joker_back_puts_the_joker_on_the_table() -> None:
    rules = preset("junior").rules
    match = Match.from_preset("junior", players=2, seed=0)
    rng = random.Random(5)
    # Play at random until a joker can be taken back, then take it and undo.
    for _ in range(2000):
        hand = match.hand
        options = [option.action for option in hand.legal_actions()]
        takes = [action for action in options if isinstance(action, TakeJoker)]
        if takes:
            before = match.clone()
            match.apply(takes[0])
            assert hand.board.joker_cell is None and JOKER in hand.rack(match.to_move - 1)
            observation = match.observe(0)  # a swap on the board's log, written as 312@J
            assert Observation.from_text(observation.to_text()) == observation
            assert Match.from_text(match.to_text()) == match
            match.undo()
            assert match == before and hand.board.joker_cell is not None
            assert hand.racks == before.hand.racks
            return
        if match.is_over:
            match = Match(rules, 2, seed=rng.randrange(1000))
            continue
        match.apply(rng.choice(options))
    pytest.fail("no joker to take back in 2000 random actions")


def test_match_undo_crosses_the_end_of_a_hand() -> None:
    match = Match.from_preset("classic", players=2, seed=9)
    bot = GreedyBot()
    while len(match.hands) == 1:
        before = match.clone()
        match.apply(bot.act(match.observe(match.to_move)))
    assert match.totals != [0, 0]
    match.undo()
    assert match == before and len(match.hands) == 1 and match.totals == [0, 0]
    assert not match.hand.is_over


def test_undo_after_the_match_is_over() -> None:
    match = greedy_match(seed=2, actions=0, name="classic-children")
    bot = GreedyBot()
    while not match.is_over:
        before = match.clone()
        match.apply(bot.act(match.observe(match.to_move)))
    match.undo()
    assert match == before and not match.is_over


# --- equality -----------------------------------------------------------------------


def test_states_compare_by_value_and_are_unhashable() -> None:
    assert greedy_match(5, 12) == greedy_match(5, 12)
    assert greedy_match(5, 12) != greedy_match(5, 13)
    assert greedy_match(5, 12) != greedy_match(6, 12)
    for state in (greedy_match(5, 1), greedy_match(5, 1).hand, Board(CLASSIC_RULES.tiles)):
        with pytest.raises(TypeError):
            hash(state)
    observation = greedy_match(5, 12).observe(0)
    assert hash(observation) == hash(greedy_match(5, 12).observe(0))  # a value, frozen


def test_equal_states_reached_by_different_paths() -> None:
    """Undo history is not state: a hand played on and undone equals its clone."""
    hand = five_opening(pool="0-0-1 0-0-2")
    clone = hand.clone()
    hand.apply(Draw())
    hand.undo()
    assert hand == clone
    assert hand.legal_actions() == clone.legal_actions()


# --- position strings ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "extended", "junior", "classic-children"])
def test_position_strings_round_trip_and_play_on_identically(name: str) -> None:
    match = greedy_match(seed=8, actions=25, name=name, players=3 if name != "junior" else 2)
    text = match.to_text()
    copy = Match.from_text(text)
    assert copy == match and copy.to_text() == text
    hand = Hand.from_text(match.hand.to_text())
    assert hand == match.hand
    for seat in (None, *range(match.players)):
        observation = match.observe(seat)
        assert Observation.from_text(observation.to_text()) == observation
    bot = GreedyBot()
    for _ in range(30):
        if match.is_over:
            break
        action = bot.act(match.observe(match.to_move))
        assert match.apply(action) == copy.apply(action)
        assert match == copy


def test_reprs_paste_back() -> None:
    match = greedy_match(seed=3, actions=9)
    namespace = {"Match": Match, "Hand": Hand, "Observation": Observation}
    assert eval(repr(match), namespace) == match
    assert eval(repr(match.hand), namespace) == match.hand
    observation = match.observe(1)
    assert eval(repr(observation), namespace) == observation


def test_a_hand_in_its_starter_draw_writes_the_generator_to_continue() -> None:
    match = Match.from_preset("extended", players=2, seed=21)
    match.apply(StarterDraw())
    hand = match.hand
    copy = Hand.from_text(hand.to_text())
    assert copy == hand and "rng=-" not in hand.to_text()
    assert copy.apply(StarterDraw()) == hand.apply(StarterDraw())
    assert "rng=-" in hand.to_text() or hand.phase == "starter_draw"


def test_a_custom_rule_set_is_written_as_its_preset_and_the_differences() -> None:
    rules = CLASSIC_RULES.replace(max_draws=1, going_out_bonus=30)
    match = Match(rules, 2, seed=1)
    text = match.to_text()
    assert text.startswith('rules=classic{"going_out_bonus":30,"max_draws":1};')
    assert Match.from_text(text).rules == rules


@pytest.mark.parametrize(
    ("text", "field", "column"),
    [
        ("rules=chess;players=2;seed=1;deals=;starter=;actions=", "rules", 7),
        ("rules=classic;players=x;seed=1;deals=;starter=;actions=", "players", 23),
        ("rules=classic;players=2;seed=1;starter=;actions=", "deals", 32),
        ("rules=classic;players=2;seed=7;deals=;starter=;actions=555@0,0^ 9z", "actions", 65),
        ("rules=classic;players=2;seed=7;deals=;starter=;actions=004@0,0^", "actions", 56),
        ("rules=classic;players=2;seed=7;deals=;starter=;actions=555@0,0^;more=1", "actions", 64),
        ("rules=classic;players=2;seed=7;deals=;starter=;actions=555@0,0^|draw", "actions", 65),
        ('rules=classic{"max_draws":"x"};players=2;seed=1;deals=;starter=;actions=', "rules", 14),
    ],
)
def test_a_malformed_string_names_the_field_and_column(text: str, field: str, column: int) -> None:
    with pytest.raises(PositionError) as error:
        Match.from_text(text)
    assert (error.value.field, error.value.column) == (field, column), str(error.value)
    assert isinstance(error.value, ValueError) and field in str(error.value)


def test_a_malformed_deal_or_observation_names_its_field() -> None:
    hand = five_opening()
    text = hand.to_text()
    broken = text.replace("deal=5-5-5", "deal=5-5-9")
    with pytest.raises(PositionError) as error:
        Hand.from_text(broken)
    assert error.value.field == "deal" and error.value.column == text.index("deal=") + 6
    observation = hand.observe(0).to_text()
    with pytest.raises(PositionError) as error:
        Observation.from_text(observation.replace("phase=play", "phase=lunch"))
    assert error.value.field == "phase"
    with pytest.raises(PositionError) as error:
        Observation.from_text(observation.replace(":place:", ":plaice:", 1) + "x")
    assert error.value.field == "gong"  # the last field, with the "x" appended


def test_a_resumed_hand_writes_its_position_and_plays_on_from_text() -> None:
    """A search's world (Hand.resume) has no deal to replay from: its text gives the
    board and the racks it was resumed with, then its own actions."""
    hand = five_opening(["", "4-5-5 3-5-5"], pool="0-0-1")
    resumed = Hand.resume(
        CLASSIC_RULES, hand.board.copy(), hand.racks, hand._pool, to_move=1, starter=0, draws=1
    )
    resumed.apply(P("4-5-5", Cell(0, 0, False), (5, 4, 5)))
    text = resumed.to_text()
    assert ";resume=1:0:1::-:-;board=555@0,0^;" in text
    copy = Hand.from_text(text)
    assert copy == resumed and copy.to_text() == text
    assert copy.legal_actions() == resumed.legal_actions()
    copy.undo()
    assert copy.draws == 1 and len(copy.board) == 1  # back to where it was resumed
    with pytest.raises(UndoError):
        copy.undo()


# --- observations -------------------------------------------------------------------


def test_a_kept_observation_does_not_change_when_the_game_moves_on() -> None:
    hand = five_opening(["", "4-5-5 3-5-5"], pool="0-0-1")
    observation = hand.observe(1)
    options = observation.legal_actions()
    board = list(observation.board)
    hand.apply(Draw())
    hand.apply(P("4-5-5", Cell(0, 0, False), (5, 4, 5)))
    assert observation.legal_actions() == options  # read from its own board now
    assert list(observation.board) == board and len(observation.history) == 1
    assert observation.board != hand.board and hand.observe(1).board == hand.board
    hand.undo()
    hand.undo()
    assert observation == hand.observe(1)


def test_nothing_a_bot_does_to_its_observation_reaches_the_game() -> None:
    match = greedy_match(seed=6, actions=14)
    before = match.to_text()
    observation = match.observe(match.to_move)
    with pytest.raises(AttributeError):
        observation.rack = 0  # type: ignore[misc]
    board = observation.board
    for name in ("push", "push_unchecked", "pop", "undo", "swap_joker"):
        assert not hasattr(board, name)
    with pytest.raises(AttributeError):
        board.tile_set = preset("junior").rules.tiles  # type: ignore[misc]
    scratch = board.copy()  # a board of its own, to search on
    cell, tile, corners, _ = next(scratch.placement_ids(observation.rack or 0))
    scratch.push_unchecked(cell, tile, corners)
    scratch.pop()
    scratch.pop()
    for option in observation.legal_actions():
        option.bonuses["hexagon"] = 999
    for found in board.placement_ids(observation.rack or 0):
        assert isinstance(found, tuple)
    assert isinstance(observation.history, tuple) and isinstance(observation.totals, tuple)
    assert match.to_text() == before
    assert observation == match.observe(match.to_move)
    assert all(option.bonuses.get("hexagon") != 999 for option in match.legal_actions())


def test_a_mid_hand_observation_pickles_small_and_plays_the_same() -> None:
    match = greedy_match(seed=1, actions=30, players=4)
    observation = match.observe(match.to_move)
    pickled = pickle.dumps(observation)
    assert len(pickled) < 10_000
    copy = pickle.loads(pickled)
    assert copy == observation and copy.legal_actions() == observation.legal_actions()
    assert GreedyBot().act(copy) == GreedyBot().act(observation)


def test_a_frozen_board_answers_after_its_board_is_gone() -> None:
    hand = five_opening(["", "4-5-5"])
    frozen = FrozenBoard(hand.board)
    rack = hand.racks[1]
    placements = frozen.legal_placements(rack)
    assert placements
    del hand  # and with it the board the snapshot was reading from
    assert frozen.legal_placements(rack) == placements
    assert [placement.tile for placement in frozen] == [T("5-5-5")]


def test_every_attribute_of_a_hand_is_declared_in_one_kind() -> None:
    """Undo, clone and == know a hand's attributes by the tuple naming them (Hand's
    docstring): a new attribute must be added to one, or undo would not restore it."""
    kinds = [game._FIXED, game._PLAIN, game._COPIED, game._LOGS]
    declared = [name for kind in kinds for name in kind]
    assert len(declared) == len(set(declared)), "an attribute declared twice"
    match = Match.from_preset("extended", players=3, seed=1)
    match.apply(StarterDraw())
    hands = [match.hand, match.hand.clone(), Hand.from_text(match.hand.to_text())]
    hands.append(greedy_match(seed=1, actions=30).hand)
    hands.append(
        Hand.resume(CLASSIC_RULES, Board(CLASSIC_RULES.tiles), [1, 2], [], to_move=0, starter=0)
    )
    hands.append(match.hand.clone())
    hands[-1].undo()  # the attributes undo puts back
    for hand in hands:
        missing = set(vars(hand)) - set(declared)
        assert not missing, f"declare {sorted(missing)} in game._FIXED, _PLAIN, _COPIED or _LOGS"
        assert set(vars(hand)) == set(declared)


# --- hidden tiles laid anew, copies and pickles ---------------------------------------


_Value = TypeVar("_Value")


def _pickled(value: _Value) -> _Value:
    copy: _Value = pickle.loads(pickle.dumps(value))
    return copy


def _drawing_match(name: str = "classic", players: int = 2) -> Match:
    """A greedy match whose player to move may draw now."""
    match = greedy_match(seed=5, actions=6, name=name, players=players)
    bot = GreedyBot()
    while not any(isinstance(choice.action, Draw) for choice in match.legal_actions()):
        match.apply(bot.act(match.observe(match.to_move)))
    return match


def test_a_hand_whose_next_draw_was_chosen_writes_it_and_draws_it_again() -> None:
    """OpenSpiel's chance nodes choose each drawn tile (draw_next): the text must say so,
    or the hand read back draws the deal's tile instead."""
    hand = _drawing_match().hand
    last = hand.undrawn()[-1]  # not the tile the deal would bring
    hand.draw_next(last)
    hand.apply(Draw())
    text = hand.to_text()
    assert f"next:{hand.tile_set.tiles[last].name} draw" in text
    copy = Hand.from_text(text)
    assert copy == hand and copy.to_text() == text
    assert copy.racks == hand.racks and copy.undrawn() == hand.undrawn()
    assert eval(repr(hand), {"Hand": Hand}) == hand
    copy.undo()
    hand.undo()
    assert copy == hand  # undone, the choice goes with the draw it came before


def test_a_rearranged_hand_writes_the_pool_and_racks_it_was_given_where_it_was_given() -> None:
    match = _drawing_match(players=3)
    hand = match.hand
    other = (hand.to_move + 1) % 3
    tiles = [*hand.undrawn(), *indices(hand.racks[other])]
    random.Random(2).shuffle(tiles)
    size = bin(hand.racks[other]).count("1")
    rack = sum(1 << tile for tile in tiles[:size])
    hand.rearrange(tiles[size:], {other: rack})
    hand.apply(Draw())
    text = hand.to_text()
    assert "arrange:" in text
    copy = Hand.from_text(text)
    assert copy == hand and copy.racks[other] == rack and copy.undrawn() == hand.undrawn()
    copy_match = Match.from_text(match.to_text())
    assert copy_match == match
    bot = GreedyBot()
    for _ in range(20):
        if match.is_over:
            break
        action = bot.act(match.observe(match.to_move))
        assert match.apply(action) == copy_match.apply(action)


@pytest.mark.parametrize(
    "text",
    [
        "next:555",  # on the table already
        "next:9z",
        "arrange:000/1",
        "arrange:000,001/9=123",
        "arrange:000",  # not the tiles it replaces
    ],
)
def test_a_malformed_rearrangement_names_the_actions_field(text: str) -> None:
    written = Match.from_preset("classic", players=2, seed=7)
    written.apply(written.legal_actions()[0].action)
    with pytest.raises(PositionError) as error:
        Match.from_text(written.to_text() + " " + text)
    assert error.value.field == "actions"


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("extended", 4), ("junior", 3)])
def test_copies_and_pickles_of_a_hand_and_a_match_are_equal_and_play_on_identically(
    name: str, players: int
) -> None:
    import copy

    match = greedy_match(seed=4, actions=20, name=name, players=players)
    for made in (copy.copy, copy.deepcopy, _pickled):
        twin = made(match)
        hand = made(match.hand)
        assert twin == match and hand == match.hand
        assert twin.hand.board is not match.hand.board and hand.board is not match.hand.board
        action = GreedyBot().act(match.observe(match.to_move))
        assert twin.clone().apply(action) == match.clone().apply(action)
        assert hand.clone().apply(action) == match.hand.clone().apply(action)
    assert len(pickle.dumps(match.hand)) < 5_000  # its text, not 256 KB of board arrays


def test_a_copied_or_pickled_board_leaves_the_original_whole() -> None:
    """A shallow copy shared the board's arrays: when it went away it gave them back for
    the next board while the original still wrote them."""
    import copy
    import gc

    hand = greedy_match(seed=2, actions=16).hand
    elsewhere = greedy_match(seed=9, actions=16).hand.board
    board = hand.board
    placements = board.legal_placements(hand.racks[hand.to_move])
    for made in (copy.copy, copy.deepcopy, _pickled):
        twin = made(board)
        assert twin == board and twin.legal_placements(hand.racks[hand.to_move]) == placements
        del twin
        gc.collect()
        elsewhere.copy()  # a board made now takes the spare arrays and writes them
        assert board.legal_placements(hand.racks[hand.to_move]) == placements
    assert len(pickle.dumps(board)) < 2_000


def test_a_board_whose_set_up_was_interrupted_goes_away_quietly() -> None:
    import sys

    board = Board.__new__(Board)  # as if __init__ had been interrupted before anything
    messages: list[object] = []
    hook, sys.unraisablehook = sys.unraisablehook, messages.append
    try:
        del board
        import gc

        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert messages == []
