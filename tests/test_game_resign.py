"""Resigning and taking back: two ways a player changes the course of a match at will.

Hand-built deals (the helpers of test_game), so each outcome is known in advance.
"""

from __future__ import annotations

import pytest

from test_game import QUICK_HAND, make_deal, play, quick_rules, rule_of
from triominos.bots import GreedyBot
from triominos.explain import describe_end, describe_event
from triominos.game import Draw, IllegalActionError, Match, Resign
from triominos.record import load_match, match_record


def three_player_match() -> Match:
    """Seat 1 opens with 5-5-5 (25 points); seat 2 then draws: 25 ahead of the others."""
    rules = quick_rules(target_score=None, hand_limit=1)
    deal = make_deal(rules, ["4-5-5 0-0-1", "5-5-5 3-5-5", "1-1-1 1-1-2"])
    match = Match(rules, players=3, seed=1, deals=[deal])
    play(match, "5-5-5@0,0,u:555 draw")
    return match


def test_resigning_ends_the_match_at_once_and_the_leader_who_resigns_loses() -> None:
    match = three_player_match()
    assert match.hand.totals == [0, 25, -5] and match.to_move == 2
    event = match.apply(Resign(1))  # not seat 1's turn: anyone may resign at any moment
    assert event.player == 1 and event.action == "resign" and event.points == 0
    assert match.is_over and match.resigned == 1
    assert match.hand.end is not None
    assert match.hand.end.reason == "resigned" and match.hand.end.player == 1
    assert match.hand.end.settlement == (0, 0, 0)
    assert match.totals == [0, 25, -5]
    assert match.winners == [0]  # the best of the others, though seat 1 is ahead
    assert match.legal_actions() == []
    assert rule_of(match, Draw()) == "match_over"


def test_a_resignation_names_its_own_player() -> None:
    match = three_player_match()
    with pytest.raises(IllegalActionError) as caught:
        match.apply(Resign(1), player=2)
    assert caught.value.rule == "turn" and "cannot resign for player 1" in str(caught.value)
    with pytest.raises(IllegalActionError) as caught:
        match.apply(Resign(3))
    assert caught.value.rule == "player"
    assert not match.is_over


def test_a_resignation_is_undone_and_written_as_text_like_any_action() -> None:
    match = three_player_match()
    before = match.clone()
    match.apply(Resign(0))
    assert "resign:0" in match.to_text()
    assert Match.from_text(match.to_text()) == match
    assert repr(match).startswith("Match.from_text(")
    match.undo()
    assert match == before and not match.is_over and match.resigned is None


def test_a_resignation_round_trips_through_a_record() -> None:
    match = three_player_match()
    match.apply(Resign(2))
    document = match_record(match)
    hand = document["hands"][-1]
    assert hand["actions"][-1] == {"player": 2, "action": "resign", "points": 0}
    assert hand["end"]["reason"] == "resigned" and hand["end"]["player"] == 2
    assert document["winners"] == [1]
    assert match_record(load_match(document)) == document


def test_a_record_that_gives_the_resigner_the_win_is_refused() -> None:
    match = three_player_match()
    match.apply(Resign(1))
    document = match_record(match)
    document["winners"] = [1]
    with pytest.raises(ValueError, match=r"winners are \[1\], the rules give \[0\]"):
        load_match(document)


# --- taking back ----------------------------------------------------------------------


def test_a_player_takes_back_their_last_placement_and_plays_again() -> None:
    rules = quick_rules(target_score=1000)
    deal = make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"])
    match = Match(rules, players=2, seed=1, deals=[deal])
    before = match.clone()
    play(match, "5-5-5@0,0,u:555")
    assert match.to_move == 1
    event = match.take_back(0)
    assert event.action == "place" and match == before and match.to_move == 0


@pytest.mark.parametrize(
    ("actions", "player", "reason"),
    [
        ("5-5-5@0,0,u:555", 1, "the last action is player 0's, not player 1's"),
        ("5-5-5@0,0,u:555 draw", 1, "a drawn tile cannot go back"),
        ("", 0, "nothing to take back"),
        (QUICK_HAND, 0, "a hand that ended showed every rack"),
    ],
)
def test_a_takeback_that_would_show_or_undo_too_much_is_refused(
    actions: str, player: int, reason: str
) -> None:
    rules = quick_rules(target_score=1000)
    deal = make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"], pool="0-0-2")
    match = Match(rules, players=2, seed=1, deals=[deal, deal])
    if actions:
        play(match, actions)
    before = match.clone()
    with pytest.raises(IllegalActionError, match=reason) as caught:
        match.take_back(player)
    assert caught.value.rule == "takeback" and match == before


def test_a_resignation_in_words() -> None:
    match = three_player_match()
    event = match.apply(Resign(2))
    names = ["Ann", "Bob", "Cem"]
    assert describe_event(event, names) == "Cem resigns"
    assert match.hand.end is not None
    assert describe_end(match.hand.end, names) == "Cem resigns the match; settlement: nothing"


def test_no_legal_action_list_offers_a_resignation() -> None:
    """So a bot, which chooses among the legal actions, never resigns."""
    match = Match.from_preset("classic", players=3, seed=4)
    bot = GreedyBot()
    while not match.is_over:
        assert not any(isinstance(option.action, Resign) for option in match.legal_actions())
        match.apply(bot.act(match.observe(match.to_move)))
    assert match.resigned is None
