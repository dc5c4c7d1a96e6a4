"""The rule options of issue 14, each on a hand-built position: the draw rules of seeds
002 and 003, the end of a match (after the hand, seed 002's gong, seed 003's first to
the target), the readings of a blocked hand, Junior's last round, and the presets that
follow one rulebook each."""

from __future__ import annotations

import dataclasses

import pytest

from test_game import (
    BLOCKED_ACTIONS,
    BLOCKED_POOL,
    BLOCKED_RACKS,
    D,
    P,
    T,
    check_points_add_up,
    five_opening,
    make_deal,
    placed,
    play,
    quick_rules,
    rule_of,
)
from test_junior import junior_hand
from triominos.bots import GreedyBot, RandomBot
from triominos.explain import describe_end
from triominos.game import Deal, Draw, Hand, Match, Pass, settle
from triominos.lattice import ORIGIN
from triominos.record import VerificationError, match_record, verify
from triominos.rules import (
    OPTION_NAMES,
    OPTIONS,
    PRESETS,
    SEED_CLASSIC_FR,
    SEED_CLASSIC_NL,
    RuleOptionError,
    Rules,
    preset,
)

CLASSIC = preset("classic-house").rules


def actions_of(hand: Hand) -> set[str]:
    return {type(option.action).__name__ for option in hand.legal_actions()}


def observed_actions(hand: Hand) -> set[str]:
    """The legal actions as the player to move works them out from its observation."""
    observation = hand.observe(hand.to_move)
    return {type(option.action).__name__ for option in observation.legal_actions()}


# --- draw_when ------------------------------------------------------------------------


def test_always_draws_again_after_a_fitting_draw() -> None:
    hand = five_opening(pool="4-5-5 1-1-2")
    hand.apply(Draw())  # 4-5-5 fits
    assert "Draw" in actions_of(hand)


def test_drawn_unfit_draws_again_only_when_the_drawn_tile_does_not_fit() -> None:
    rules = CLASSIC.replace(draw_when="drawn_unfit")
    hand = five_opening(["", "4-5-5"], pool="1-1-2 3-5-5 0-1-2", rules=rules)
    assert "Draw" in actions_of(hand)  # the first draw is at will, a tile fitting or not
    hand.apply(Draw())  # 1-1-2 does not fit: another draw
    assert actions_of(hand) == observed_actions(hand) == {"Placement", "Draw"}
    hand.apply(Draw())  # 3-5-5 fits: lay a tile (any that fits), no more draws
    assert actions_of(hand) == observed_actions(hand) == {"Placement"}
    assert rule_of(hand, Draw()) == "draw_when"
    hand.apply(P("4-5-5", D(0, 0), (5, 4, 5)))
    assert hand.points[1] == -10 + 14


def test_unable_draws_only_when_no_tile_of_the_rack_fits() -> None:
    rules = CLASSIC.replace(draw_when="unable")
    hand = five_opening(["", "4-5-5"], pool="1-1-2", rules=rules)
    assert actions_of(hand) == observed_actions(hand) == {"Placement"}
    assert rule_of(hand, Draw()) == "draw_when"
    hand = five_opening(pool="1-1-2 3-5-5 0-1-2", rules=rules)
    hand.apply(Draw())  # 1-1-2 does not fit: seed 002's "nog een"
    assert actions_of(hand) == {"Draw"}
    hand.apply(Draw())  # 3-5-5 fits
    assert actions_of(hand) == observed_actions(hand) == {"Placement"}
    assert rule_of(hand, Draw()) == "draw_when"


def test_a_bot_in_a_search_sees_the_drawn_tile() -> None:
    rules = CLASSIC.replace(draw_when="drawn_unfit")
    hand = five_opening(pool="3-5-5 1-1-2", rules=rules)
    hand.apply(Draw())
    observation = hand.observe(1)
    assert observation.drawn == rules.tiles.index(T("3-5-5"))
    assert hand.observe(0).drawn is None  # another seat's drawn tile stays hidden
    resumed = Hand.resume(
        rules,
        hand.board,
        hand.racks,
        hand._pool[hand._drawn :],
        to_move=1,
        starter=0,
        draws=1,
        drawn=observation.drawn,
    )
    assert rule_of(resumed, Draw()) == "draw_when"


# --- blocked hands --------------------------------------------------------------------


def blocked(rules: Rules) -> Hand:
    hand = Hand(rules, make_deal(rules, BLOCKED_RACKS, BLOCKED_POOL))
    play(hand, BLOCKED_ACTIONS)
    assert hand.is_over and hand.end is not None
    return hand


def test_each_difference_sums_the_lowest_racks_difference_to_each_other_rack() -> None:
    hand = blocked(CLASSIC.replace(blocked_difference="each_difference"))
    assert hand.end is not None
    assert [sum(t.value for t in rack) for rack in hand.end.remaining] == [50, 30, 42]
    assert hand.end.settlement == (0, (50 - 30) + (42 - 30), 0)
    assert hand.end.player == 1
    check_points_add_up(hand)


@pytest.mark.parametrize(
    ("tie", "difference", "settlement", "player"),
    [
        ("each_scores", "others_minus_own", (20, 20, 0), 0),
        ("each_scores", "each_difference", (15, 15, 0), 0),
        ("nobody_scores", "others_minus_own", (0, 0, 0), None),
    ],
)
def test_a_tie_for_the_lowest_rack(
    tie: str, difference: str, settlement: tuple[int, ...], player: int | None
) -> None:
    rules = CLASSIC.replace(blocked_tie=tie, blocked_difference=difference)
    assert settle(rules, "blocked", [5, 5, 20]) == (settlement, player)
    # Without a tie both tie rules agree.
    assert settle(rules, "blocked", [5, 6, 20])[0][0] == (
        21 if difference == "others_minus_own" else 16
    )


# --- Junior's last round ----------------------------------------------------------------


@pytest.mark.parametrize(("ends", "moves"), [("after_taker", [1, 2, 0]), ("before_taker", [1, 2])])
def test_the_last_round_ends_after_or_before_the_taker(ends: str, moves: list[int]) -> None:
    hand = junior_hand([[], [], []], last_round_ends=ends)
    hand._pool = hand._pool[:1]  # one card left in the pot
    hand.apply(Draw())  # player 0 takes the last card: the last round begins
    played = []
    while not hand.is_over:
        played.append(hand.to_move)
        hand.apply(GreedyBot().act(hand.observe(hand.to_move)))
    assert played == moves
    assert hand.end is not None and hand.end.reason == "last_round"


# --- the end of a match -----------------------------------------------------------------

GONG_RACKS = ["5-5-5", "0-5-5 1-5-5"]
GONG_HAND = "5-5-5@0,0,u:555 0-5-5@0,0,d:505 draw draw draw pass 1-5-5@-1,0,d:155"
"""Seat 0 opens for 25, draws three and passes (back to 0); seat 1 goes out on 21."""


def gong_match(match_end: str) -> Match:
    rules = quick_rules(
        target_score=22, going_out_bonus=0, going_out_collects=False, match_end=match_end
    )
    deal = make_deal(rules, GONG_RACKS)
    return Match(rules, players=2, seed=1, deals=[deal, deal])


def test_after_hand_plays_on_when_a_total_falls_back_below_the_target() -> None:
    match = gong_match("after_hand")
    play(match, GONG_HAND)
    assert match.totals == [0, 21] and not match.is_over
    assert match.hands[0].gong is None


def test_the_gong_makes_the_hand_in_which_a_total_reaches_the_target_the_last() -> None:
    match = gong_match("gong")
    play(match, GONG_HAND.split(" draw")[0])
    hand = match.hand
    assert hand.gong == 0 and hand.observe(1).gong == 0  # the gong sounds at 25
    play(match, "draw draw draw pass 1-5-5@-1,0,d:155")
    assert match.totals == [0, 21]
    assert match.is_over and match.winners == [1]  # not the player who rang it


def test_first_to_target_ends_the_match_at_once() -> None:
    match = gong_match("first_to_target")
    play(match, "5-5-5@0,0,u:555")
    hand = match.hand
    assert hand.is_over and hand.end is not None
    assert (hand.end.reason, hand.end.player, hand.end.settlement) == ("target", 0, (0, 0))
    assert match.is_over and match.winners == [0] and len(match.hands) == 1
    assert verify(match_record(match)).totals == [25, 0]  # the record reads and verifies


def test_a_settlement_that_reaches_the_target_rings_the_gong() -> None:
    rules = quick_rules(target_score=30, match_end="gong")
    hand = Hand(rules, make_deal(rules, ["5-5-5 3-5-5", "4-5-5 0-0-1"]))
    play(hand, "5-5-5@0,0,u:555 4-5-5@0,0,d:545")
    assert hand.gong is None
    play(hand, "3-5-5@-1,0,d:355")  # 25 + 13, then out
    assert hand.gong == 0


# --- declarations and presets --------------------------------------------------------


def test_every_field_of_rules_is_declared_once_in_order() -> None:
    fields = [f.name for f in dataclasses.fields(Rules) if f.init]
    assert fields == list(OPTIONS) == list(OPTION_NAMES)
    for option in OPTIONS.values():
        assert option.meaning.strip() and option.seeds
        assert (option.kind == "choice") == bool(option.choices)


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_refuses_a_wrong_value_naming_itself_and_what_is_allowed(name: str) -> None:
    option = OPTIONS[name]
    with pytest.raises(RuleOptionError) as caught:
        Rules().replace(**{name: "nonsense" if option.kind != "choice" else 7})
    assert caught.value.option == name
    assert option.allowed in str(caught.value)
    with pytest.raises(RuleOptionError, match=f"^{name}: must be"):
        option.parse("nonsense" if option.kind != "flag" else "maybe")


def test_parse_reads_the_command_line_words() -> None:
    assert OPTIONS["max_draws"].parse("none") is None
    assert OPTIONS["max_draws"].parse("2") == 2
    assert OPTIONS["open_racks"].parse("True") is True
    assert OPTIONS["rack_sizes"].parse("2:9, 3:7") == {2: 9, 3: 7}
    assert OPTIONS["match_end"].parse("gong") == "gong"
    with pytest.raises(RuleOptionError, match="from 1 to 10000"):
        OPTIONS["target_score"].parse("0")


def test_a_match_cannot_be_made_endless() -> None:
    """A target of 10**12 made a table of bots play for ever: targets and hands are
    bounded where they are declared, so every door refuses the same."""
    with pytest.raises(RuleOptionError) as target:
        CLASSIC.replace(target_score=10**12)
    assert str(target.value) == (
        "target_score: must be a whole number from 1 to 10000, or none, not 1000000000000"
    )
    with pytest.raises(RuleOptionError, match="hand_limit: must be a whole number from 1 to 100"):
        CLASSIC.replace(hand_limit=101)
    assert CLASSIC.replace(target_score=10_000, hand_limit=100).hand_limit == 100
    assert OPTIONS["target_score"].to_json()["maximum"] == 10_000


NEW_OPTIONS = ("draw_when", "blocked_difference", "blocked_tie", "last_round_ends", "match_end")


def test_a_record_without_the_new_options_reads_and_verifies_as_before() -> None:
    match = Match(CLASSIC.replace(target_score=100), players=3, seed=5)
    while not match.is_over:
        match.apply(GreedyBot().act(match.observe(match.to_move)))
    record = match_record(match)
    for name in NEW_OPTIONS:
        del record["rules"][name]
    assert verify(record).totals == match.totals


def test_the_target_end_in_words() -> None:
    match = gong_match("first_to_target")
    play(match, "5-5-5@0,0,u:555")
    end = match.hand.end
    assert end is not None
    assert describe_end(end, ["Ann", "Bob"], match.rules).startswith(
        "Ann reaches the target and wins"
    )


def test_the_seed_presets_follow_their_one_rulebook() -> None:
    nl, fr = PRESETS["classic-002"], PRESETS["classic-003"]
    assert nl.seeds == (SEED_CLASSIC_NL,) and fr.seeds == (SEED_CLASSIC_FR,)
    assert CLASSIC.differences(nl.rules) == {
        "draw_when": ("always", "unable"),
        "two_sides_bonus": (0, 40),
        "match_end": ("after_hand", "gong"),
    }
    assert CLASSIC.differences(fr.rules) == {
        "max_players": (6, 4),
        "rack_sizes": (CLASSIC.rack_sizes, ((2, 9), (3, 7), (4, 7))),
        # "ouvre la manche en posant cette tuile sur la table": the highest triple.
        "opening_zero_swap": (True, False),
        "draw_when": ("always", "drawn_unfit"),
        "match_end": ("after_hand", "first_to_target"),
    }


def test_a_fitting_drawn_tile_must_be_laid_not_passed() -> None:
    rules = CLASSIC.replace(draw_when="drawn_unfit")
    hand = five_opening(pool="3-5-5", rules=rules)
    hand.apply(Draw())
    assert rule_of(hand, Pass()) == "place_if_able"


# --- opening_zero_swap (issue 36) -------------------------------------------------------


def test_without_the_zero_swap_the_highest_triple_opens_itself() -> None:
    """Seed 003: "Le joueur qui possède le triple le plus élevé … ouvre la manche en
    posant cette tuile sur la table"; 0-0-0 over a higher triple is seed 002's rule
    ("mag de 3x0 neerleggen"), not 003's."""
    rules = preset("classic-003").rules
    assert not rules.opening_zero_swap
    hand = Hand(rules, make_deal(rules, ["3-3-3", "0-0-0 5-5-5"]))
    assert hand.starter == 1
    offered = {placed(option).tile.name for option in hand.legal_actions()}
    assert offered == {"5-5-5"}
    assert observed_actions(hand) == {"Placement"}
    assert rule_of(hand, P("0-0-0", ORIGIN, (0, 0, 0))) == "opening_tile"
    # 0-0-0 as the only triple dealt still opens, with its bonus: "Drievoudige nul".
    hand = Hand(rules, make_deal(rules, ["0-0-0", ""]))
    assert hand.apply(P("0-0-0", ORIGIN, (0, 0, 0))).points == 40


def test_with_the_zero_swap_0_0_0_may_open_over_the_highest_triple() -> None:
    """Seed 002: "Heeft een speler de hoogste 3x en de 3x0, dan moet die die hoogste
    steen wel laten zien, maar mag de 3x0 neerleggen"."""
    rules = preset("classic").rules
    hand = Hand(rules, make_deal(rules, ["3-3-3", "0-0-0 5-5-5"]))
    assert hand.apply(P("0-0-0", ORIGIN, (0, 0, 0))).points == 40


# --- dry_pool_no_penalty (issue 36) -----------------------------------------------------


def dry_pool_hand(rules: Rules, pool: str) -> Hand:
    """Seat 0 has opened 5-5-5 and holds every tile with two fives; seat 1 holds none,
    and the pool is ``pool`` alone: what seat 1 draws fits nowhere."""
    tiles = rules.tiles
    drawn = [tiles.parse(name) for name in pool.split()]
    fives = [tile for tile in tiles if tile.numbers.count(5) >= 2]
    others = [tile for tile in tiles if tile not in fives and tile not in drawn]
    size = (len(tiles) - len(drawn)) // 2
    rules = rules.replace(max_players=2, rack_sizes={"2": size})
    seat1 = others[:size]
    seat0 = fives + others[size:]
    hand = Hand(rules, Deal((tuple(seat0), tuple(seat1)), tuple(drawn)))
    hand.apply(P("5-5-5", ORIGIN, (5, 5, 5)))
    return hand


def pass_points(hand: Hand) -> int:
    (option,) = [o for o in hand.legal_actions() if isinstance(o.action, Pass)]
    (seen,) = [o for o in hand.observe(1).legal_actions() if isinstance(o.action, Pass)]
    assert seen.points == option.points
    return hand.apply(Pass()).points


@pytest.mark.parametrize("name", ["extended", "extended-children"])
def test_the_extended_presets_spare_a_pass_when_the_pool_ran_dry(name: str) -> None:
    assert preset(name).rules.dry_pool_no_penalty


def test_no_penalty_for_a_pass_when_the_pool_ran_dry_before_the_third_draw() -> None:
    """Seed 001: "U kunt geen Triomino aanleggen en de pot is leeg? Uw beurt is voorbij
    en u wacht op de volgende beurt (geen min score)"; seed 004: "(sin puntuación
    negativa)". The -10 comes "Heeft u 3 keer stenen 'gekocht' en nog niet aangelegd"."""
    rules = CLASSIC.replace(dry_pool_no_penalty=True)
    hand = dry_pool_hand(rules, "0-1-2 0-1-3")
    hand.apply(Draw())
    hand.apply(Draw())  # the pool is empty after two draws
    assert (hand.pool_size, hand.draws) == (0, 2)
    assert pass_points(hand) == 0
    assert hand.points[1] == -10


def test_the_pass_after_the_last_draw_allowed_is_penalised_even_when_it_emptied_the_pool() -> None:
    # Two draws allowed, the second empties the pool: the pass comes after all the draws.
    rules = CLASSIC.replace(dry_pool_no_penalty=True, max_draws=2)
    hand = dry_pool_hand(rules, "0-1-2 0-1-3")
    play(hand, "draw draw")
    assert (hand.pool_size, hand.draws) == (0, 2)
    assert pass_points(hand) == -10  # "in dit geval moeten nog 10 extra punten"


def test_seed_002_charges_the_pass_after_a_draw_however_the_pool_ran_dry() -> None:
    """Seed 002: "Legt de speler geen steen aan dan krijgt hij nog 10 eens punten
    aftrek" (after any draw)."""
    rules = preset("classic-002").rules
    assert not rules.dry_pool_no_penalty
    hand = dry_pool_hand(rules, "0-1-2 0-1-3")
    play(hand, "draw draw")
    assert pass_points(hand) == -10


# --- a player range set alone (issue 36) -----------------------------------------------


def test_a_player_range_alone_takes_its_rack_sizes() -> None:
    assert CLASSIC.replace(max_players=4).rack_sizes == ((2, 9), (3, 7), (4, 7))
    assert CLASSIC.replace(min_players=3).rack_sizes == ((3, 7), (4, 7), (5, 6), (6, 6))
    # Seed 003's 2 to 4 players opened up to 6: seed 002's "bij 5-6 spelers 6".
    assert preset("classic-003").rules.replace(max_players=6).rack_size(6) == 6


def test_a_conflict_is_named_after_the_option_set_and_says_with_what() -> None:
    with pytest.raises(RuleOptionError) as caught:
        CLASSIC.replace(max_players=7)
    assert caught.value.option == "max_players"
    assert str(caught.value).startswith("max_players: max_players=7 conflicts with rack_sizes:")
    with pytest.raises(RuleOptionError) as caught:
        CLASSIC.replace(tile_set="junior")
    assert caught.value.option == "tile_set"
    assert "tile_set=junior conflicts with rack_sizes: 6 racks of 6 need 36" in str(caught.value)


# --- old classic records (issue 36) ----------------------------------------------------


def test_an_old_classic_record_replays_as_it_was_played() -> None:
    """A record made before ``classic`` became seed 002 says ``"preset": "classic"`` and
    holds the house reading in its rules, without issue 36's options: its rules decide.
    Its random players drew beside fitting tiles, which seed 002 forbids."""
    house = preset("classic-house").rules.replace(target_score=150)
    match = Match(house, players=2, seed=3)
    bot = RandomBot(3)
    while not match.is_over:
        match.apply(bot.act(match.observe(match.to_move)))
    record = match_record(match, preset="classic")
    for name in ("opening_zero_swap", "dry_pool_no_penalty"):
        del record["rules"][name]
    replayed = verify(record)
    assert replayed.rules == house and replayed.totals == match.totals
    assert match_record(Match(preset("classic-house").rules, 2, seed=3))["preset"] == (
        "classic-house"
    )
    # Played under seed 002's rules the same record is refused: its rules are the house's.
    record["rules"] = preset("classic").rules.replace(target_score=150).to_dict()
    with pytest.raises(VerificationError, match="rule draw_when"):
        verify(record)
