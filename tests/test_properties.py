"""Whole random matches of every preset, checked after every action."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference
from triominos.board import Placement
from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import Deal, Event, Hand, Match
from triominos.lattice import ORIGIN
from triominos.rules import PRESETS, Rules, preset
from triominos.tiles import Tile

PRESET_NAMES = tuple(name for name, known in PRESETS.items() if known.rules.target_score)
"""The presets whose matches run to a target, every one added later too (the others are
one hand: test_pad, test_junior, test_children)."""
examples = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def make_bots(kinds: Sequence[str], seed: int) -> list[Bot]:
    return [
        GreedyBot() if kind == "greedy" else RandomBot(seed * 8 + seat)
        for seat, kind in enumerate(kinds)
    ]


def check_tiles(hand: Hand) -> None:
    """Every tile exactly once across the racks, the pool and the table."""
    tile_set = hand.tile_set
    every = [tile for seat in range(hand.players) for tile in hand.rack(seat)]
    every += hand.pool
    every += [placement.tile for placement in hand.board]
    assert len(every) == len(tile_set)
    assert set(every) == set(tile_set)


def check_table(hand: Hand) -> None:
    """Each placed tile is turned, not flipped, and shows the number at each vertex."""
    for placement in hand.board:
        assert placement.corners in placement.tile.rotations()
        for vertex, number in zip(placement.cell.corners(), placement.corners, strict=True):
            assert hand.board.number_at(vertex) == number
    first = next(iter(hand.board), None)
    assert first is None or first.cell == ORIGIN


def check_points(hand: Hand) -> None:
    settlement = hand.end.settlement if hand.end else (0,) * hand.players
    for seat in range(hand.players):
        earned = sum(event.points for event in hand.events if event.player == seat)
        assert hand.points[seat] == earned + settlement[seat]
    totals = [start + points for start, points in zip(hand.start_totals, hand.points, strict=True)]
    assert hand.totals == totals
    assert hand.observe(None).totals == tuple(hand.totals)


def check_observations(hand: Hand, seats: Sequence[int | None]) -> None:
    for seat in seats:
        observation = hand.observe(seat)
        assert observation.rack == (None if seat is None else hand.racks[seat])
        hidden = reference.hidden_tiles(hand, seat)
        assert not set(reference.tiles_in(observation)) & hidden
        text = repr(observation)
        assert not [tile for tile in hidden if repr(tile) in text]
        assert list(observation.history) == [event.seen_by(seat) for event in hand.events]
        for event in observation.history:
            if event.action == "draw" and event.player != seat:
                assert event.tile is None
    mover = hand.to_move
    if not hand.is_over:
        assert hand.observe(mover).legal_actions() == hand.legal_actions()


def check_legal_against_reference(hand: Hand, rules: Rules) -> None:
    options = hand.legal_actions()
    if hand.phase != "play":
        return
    rack = hand.rack(hand.to_move)
    expected = {
        (p.tile, p.cell, p.corners, reference.points_of(rules, p))
        for p in reference.legal_placements(hand.board, rack)
    }
    offered = {
        (
            o.action.tile,
            (o.action.cell.x, o.action.cell.y, bool(o.action.cell.up)),
            o.action.corners,
            o.points,
        )
        for o in options
        if isinstance(o.action, Placement)
    }
    assert offered == expected


def check_end(hand: Hand, rules: Rules) -> None:
    end = hand.end
    assert end is not None
    left = [sum(tile.value for tile in rack) for rack in end.remaining]
    assert [list(rack) for rack in end.remaining] == [
        hand.rack(seat) for seat in range(hand.players)
    ]
    stuck = not hand.pool_size and not any(map(hand.board.can_place, hand.racks))
    out = [seat for seat in range(hand.players) if not hand.racks[seat]]
    if end.reason == "target":
        # Seed 003: the placement that reached the target ended the hand, unsettled.
        reaching = hand.events[-1]
        assert rules.match_end == "first_to_target" and reaching.action == "place"
        assert end.player == hand.gong == reaching.player and rules.target_score is not None
        total = hand.totals[reaching.player]
        assert total >= rules.target_score > total - reaching.points
        assert end.settlement == (0,) * hand.players
        return
    if end.reason == "out":
        # Only the first player out collects (RULES.md 5.5 and decision 12).
        assert out and end.player == hand.out[0] and sorted(hand.out) == out
        others = sum(left[seat] for seat in range(hand.players) if seat not in out)
        collected = others if rules.going_out_collects else 0
        assert list(end.settlement) == [
            rules.going_out_bonus + collected if seat == end.player else 0
            for seat in range(hand.players)
        ]
        last = hand.events[-1].player
        if rules.going_out == "ends_hand":
            assert out == [last]
        else:
            assert hand.starter is not None
            assert last == (hand.starter - 1) % hand.players or stuck
    else:
        assert not out and stuck
        if rules.blocked == "each_loses_own":
            assert end.player is None
            assert list(end.settlement) == [-total for total in left]
        else:
            lowest = min(left)
            tied = left.count(lowest) > 1
            if tied and rules.blocked_tie == "nobody_scores":
                assert end.player is None and not any(end.settlement)
                return
            assert end.player == left.index(lowest)
            times = 1 if rules.blocked_difference == "others_minus_own" else hand.players - 1
            assert list(end.settlement) == [
                sum(left) - total - times * total if total == lowest else 0 for total in left
            ]


def check_opening(hand: Hand, rules: Rules) -> None:
    """The first placement is the starter's, with the tile and points the opening allows."""
    first = next(event for event in hand.events if event.action == "place")
    assert first.player == hand.starter and first.cell == ORIGIN
    assert first.tile is not None and first.tile in hand.deal.racks[first.player]
    if rules.opening == "highest_triple":
        dealt = [tile for rack in hand.deal.racks for tile in rack]
        triples = [tile for tile in dealt if tile.is_triple]
        bonus = 0
        if triples:
            top = max(triples, key=lambda tile: tile.value)
            assert top in hand.deal.racks[first.player]
            assert first.tile in (top, Tile(0, 0, 0))
            bonus = rules.opening_triple_bonus
            bonus += rules.opening_zero_bonus if first.tile == Tile(0, 0, 0) else 0
        else:
            assert first.tile.value == max(tile.value for tile in dealt)
        assert first.points == first.tile.value + bonus
        return
    assert first.points == first.tile.value and first.bonuses == ()
    # Replay the starter draws: each round, those tied for the highest value go on.
    draws = [event for event in hand.events if event.action == "starter_draw"]
    contenders = list(range(hand.players))
    while len(contenders) > 1:
        shown, draws = draws[: len(contenders)], draws[len(contenders) :]
        assert [event.player for event in shown] == contenders
        assert len({event.tile for event in shown}) == len(shown)
        best = max(event.tile.value for event in shown if event.tile is not None)
        contenders = [e.player for e in shown if e.tile is not None and e.tile.value == best]
    assert draws == [] and contenders == [hand.starter]


def play_match(
    name: str, players: int, seed: int, kinds: Sequence[str], target: int, *, checked: bool
) -> tuple[list[list[Event]], list[Deal], list[int]]:
    rules = preset(name).rules.replace(target_score=target, hand_limit=2)
    players = min(players, rules.max_players)
    match = Match(rules, players, seed)
    bots = make_bots(kinds, seed)
    steps = 0
    while not match.is_over:
        hand = match.hand
        mover = match.to_move
        pool_before = hand.pool
        observation = match.observe(mover)
        action = bots[mover].act(observation)
        if checked:
            assert action in [option.action for option in hand.legal_actions()]
            if steps % 7 == 0:
                check_legal_against_reference(hand, rules)
        event = match.apply(action)
        steps += 1
        if not checked:
            continue
        assert event.player == mover
        assert hand.events[-1] == event
        # The pool never grows, and is only ever taken from the front.
        assert hand.pool == pool_before[len(pool_before) - hand.pool_size :]
        check_tiles(hand)
        check_table(hand)
        check_points(hand)
        check_observations(hand, [mover, None, (mover + 1) % players])
        if hand.is_over:
            check_end(hand, rules)
            check_opening(hand, rules)
            assert match.totals == [
                sum(done.points[seat] for done in match.hands if done.is_over)
                for seat in range(players)
            ]
            reached = max(match.totals) >= target or hand.gong is not None
            assert match.is_over == (reached or hand.number == 2)
            if rules.match_end == "after_hand":
                assert hand.gong is None
        else:
            running = match.observe(None).totals
            banked = [
                sum(done.points[seat] for done in match.hands[:-1]) for seat in range(players)
            ]
            assert list(running) == [b + p for b, p in zip(banked, hand.points, strict=True)]
    if checked:
        best = max(match.totals)
        assert match.winners == [seat for seat in range(players) if match.totals[seat] == best]
    return [list(hand.events) for hand in match.hands], [h.deal for h in match.hands], match.totals


matches = {
    "name": st.sampled_from(PRESET_NAMES),
    "players": st.integers(min_value=2, max_value=6),
    "seed": st.integers(min_value=0, max_value=2**32),
    "kinds": st.lists(st.sampled_from(["random", "greedy"]), min_size=6, max_size=6),
    "target": st.sampled_from([60, 150, 400]),
}


@examples
@given(**matches)
def test_random_matches_keep_every_invariant(
    name: str, players: int, seed: int, kinds: list[str], target: int
) -> None:
    play_match(name, players, seed, kinds, target, checked=True)


@settings(max_examples=10, deadline=None)
@given(**matches)
def test_the_same_seed_gives_the_same_events(
    name: str, players: int, seed: int, kinds: list[str], target: int
) -> None:
    first = play_match(name, players, seed, kinds, target, checked=False)
    assert play_match(name, players, seed, kinds, target, checked=False) == first
