"""The native match paths against the Python ones, through the engine's public API.

Seeded random matches of every preset (classic, extended with its 76-bit masks, Junior
with its joker and counters, the children's scoring) at every player count it allows,
and of every rule option at another value (tests/rule_values.py): at each decision the
legal actions of the hand and of every seat's observation are made on both cores
(:func:`triominos.native.match_on`) and must be the same, action for action, type for
type, points and bonuses included, in the same order. The match then plays on with a
random choice among them, so the positions cover openings, draws, passes, joker swaps,
the last tile and the ends of hands; that action, a draw and a stray placement (legal
or not) are applied to copies of the hand on both cores, which must give the same event
or the same error and the same hand after.
"""

from __future__ import annotations

import importlib.util
import random
from array import array

import pytest

from rule_values import changed_value
from triominos import native
from triominos.board import Board, Placement
from triominos.encoding import InformationStateEncoder, ObservationEncoder
from triominos.game import Action, Deal, Draw, Hand, IllegalActionError, LegalAction, Match, Pass
from triominos.lattice import NEIGHBOURS, Cell
from triominos.rules import OPTIONS, PRESETS, Rules
from triominos.tiles import WILD

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("triominos._match") is None,
    reason="the native match paths are not built (make test builds them)",
)

ACTIONS = 400
"""Actions per match compared: a few hands, so some 40,000 lists in all."""


def typed(options: list[LegalAction]) -> list[tuple[object, ...]]:
    """The options with their types: a plain tuple equals a NamedTuple of the same items."""
    return [(type(option), type(option.action), option) for option in options]


def both(hand: Hand) -> list[LegalAction]:
    """The observations and legal actions of the hand and of each seat (a spectator
    too) on both cores, checked equal; the hand's legal actions."""
    made = {}
    for core in ("python", "native"):
        with native.match_on(core):
            seen = [hand.observe(seat) for seat in (None, *range(hand.players))]
            made[core] = [
                typed(hand.legal_actions()),
                *(typed(observation.legal_actions()) for observation in seen),
                [(type(observation), observation) for observation in seen],
            ]
    assert made["native"] == made["python"]
    return hand.legal_actions()


def same_views(match: Match) -> None:
    """Whose turn it is, whether the match is over and every seat's observation (a
    spectator's too), through the match, the same on both cores."""
    views = {}
    for core in ("python", "native"):
        with native.match_on(core):
            seats = (None, *range(match.players))
            views[core] = [match.to_move, match.is_over, *map(match.observe, seats)]
    assert views["native"] == views["python"]


def applied(game: Hand | Match, action: Action) -> list[object]:
    """``action`` applied to a copy of a hand or a match on each core: the event or the
    error (its rule and message), the copy after and whether it is over, checked equal."""
    outcomes = {}
    for core in ("python", "native"):
        copy = game.clone()
        with native.match_on(core):
            try:
                outcome: object = copy.apply(action)
            except IllegalActionError as error:
                outcome = (error.rule, str(error))
            outcomes[core] = [outcome, copy, copy.is_over]
    assert outcomes["native"] == outcomes["python"]
    return outcomes["native"]


def play(rules: Rules, players: int, seed: int) -> int:
    """A seeded random match checked at every decision; the decisions checked."""
    rng, match, checked = random.Random(seed), Match(rules, players, seed), 0
    while checked < ACTIONS:
        same_views(match)
        if match.is_over:
            applied(match, Pass())  # refused alike: the match is over
            match = Match(rules, players, rng.randrange(2**32))
        hand = match.hand
        if hand.phase == "play":  # legal or not: the same event or the same error
            applied(hand, Draw())
            if hand.racks[hand.to_move]:
                applied(hand, stray_placement(hand, rng))
        action = rng.choice(both(hand)).action
        applied(hand, action)
        applied(match, action)
        match.apply(action)
        checked += 1
    return checked


def stray_placement(hand: Hand, rng: random.Random) -> Placement:
    """A placement of a tile of the rack to move, on an open cell or next to one, in any
    rotation: legal now and then, mostly not (wrong corners, no edge, a cell taken)."""
    tile = rng.choice(hand.rack(hand.to_move))
    cells = hand.board.open_cells()
    cell = rng.choice(cells)
    if rng.random() < 0.3:
        cell = Cell.from_id(rng.choice(NEIGHBOURS[cell.id]))
    # The joker has no rotations: its corners show the numbers at its vertices.
    corners = rng.choice(tile.rotations() or [(WILD, WILD, WILD), (0, WILD, WILD)])
    return Placement(tile, cell, corners)


PLAYER_COUNTS = [
    (name, players)
    for name, preset in PRESETS.items()
    for players in range(preset.rules.min_players, preset.rules.max_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), PLAYER_COUNTS)
def test_legal_actions_are_the_same_on_both_cores(preset: str, players: int) -> None:
    assert play(PRESETS[preset].rules, players, players) == ACTIONS


@pytest.mark.parametrize("option", list(OPTIONS))
def test_every_rule_option_gives_the_same_legal_actions(option: str) -> None:
    preset, changes = changed_value(option)
    rules = PRESETS[preset].rules.replace(**changes)
    assert play(rules, rules.min_players, 11) == ACTIONS


def test_a_placement_scoring_more_than_the_bank_holds_is_capped_alike() -> None:
    """Junior's bank pays what it holds: a nearly empty bank caps every placement."""
    rules = PRESETS["junior"].rules
    assert rules.bank is not None
    hand = Hand(rules, Deal.shuffle(rules, 2, random.Random(5)), totals=(rules.bank - 1, 0))
    while hand.phase != "play":
        hand.apply(hand.legal_actions()[0].action)
    options = both(hand)
    assert hand.bank == 1
    assert {option.points for option in options if option.points > 0} == {1}


def test_the_native_paths_are_the_ones_in_use_when_the_core_is_on() -> None:
    from triominos import game

    expected = native.match_paths("native" if native.load_match() is not None else "python")
    assert game.placement_actions is expected["placement_actions"]
    assert game.observe is Hand.observe is expected["observe"]
    assert Board.checked_figure is expected["checked_figure"]
    assert Hand.apply is expected["hand_apply"]
    assert Match.apply is expected["match_apply"]
    for name in ("is_over", "to_move", "observe"):
        assert Match.__dict__[name] is expected[f"match_{name}"]


def test_observing_a_seat_that_is_not_at_the_table_is_refused_alike() -> None:
    hand = Match(PRESETS["classic"].rules, 3, 1).hand
    for seat in (-1, 3):
        messages = set()
        for core in ("python", "native"):
            with native.match_on(core), pytest.raises(ValueError) as raised:
                hand.observe(seat)
            messages.add(str(raised.value))
        assert messages == {f"seat must be from 0 to 2, or None, not {seat}"}


@pytest.mark.parametrize("preset", ["classic", "extended", "junior"])
def test_a_tensor_laid_into_a_kept_array_is_the_tensor_encode_makes(preset: str) -> None:
    """OpenSpiel's observer keeps one array and has each tensor laid into it
    (encode_into): every number is overwritten, whatever the array held before."""
    rules, rng = PRESETS[preset].rules, random.Random(3)
    encoders: list[ObservationEncoder | InformationStateEncoder] = [
        ObservationEncoder(rules, 2),
        InformationStateEncoder(rules, 2),
    ]
    kept = [array("f", [9.0]) * encoder.size for encoder in encoders]
    match = Match(rules, 2, 3)
    while not match.is_over and len(match.hands) < 3:
        observation = match.observe(match.to_move)
        for core in ("python", "native"):
            with native.encoding_on(core), native.running_on(core):
                for encoder, out in zip(encoders, kept, strict=True):
                    encoder.encode_into(out, observation)
                    assert out == encoder.encode(observation)
        match.apply(rng.choice(match.legal_actions()).action)
    for encoder in encoders:
        with pytest.raises(ValueError, match=f"holds {encoder.size} numbers, not 3"):
            encoder.encode_into(array("f", [0.0] * 3), match.observe(match.to_move))
