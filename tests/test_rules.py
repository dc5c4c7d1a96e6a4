"""Rule options, their checks, and the named presets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from triominos.game import Match
from triominos.rules import OPTION_NAMES, PRESETS, RuleOptionError, Rules, preset
from triominos.tiles import CLASSIC, EXTENDED


def test_classic_preset() -> None:
    classic = preset("classic")
    rules = classic.rules
    assert classic.name == "classic"
    # The default is one rulebook, seed 002, and every rule of it (RULES.md section 1).
    assert classic.seeds == ("002_de32dbffb4f2dbcb.txt",)
    assert [source for source, _ in classic.sources] == ["002_de32dbffb4f2dbcb.txt"]
    assert rules.tiles is CLASSIC and len(rules.tiles) == 56
    assert (rules.min_players, rules.max_players) == (2, 6)
    assert [rules.rack_size(n) for n in range(2, 7)] == [9, 7, 7, 6, 6]
    assert rules.opening == "highest_triple"
    assert (rules.opening_triple_bonus, rules.opening_zero_bonus) == (10, 30)
    assert (rules.max_draws, rules.draw_penalty, rules.failed_draw_penalty) == (3, 5, 10)
    assert rules.empty_pool_pass_penalty == 0
    assert rules.bridge_bonus == 40
    assert (rules.hexagon_bonus, rules.double_hexagon_bonus, rules.triple_hexagon_bonus) == (
        50,
        60,
        70,
    )
    assert rules.opening_zero_swap  # "mag de 3x0 neerleggen"
    assert rules.draw_when == "unable"  # "Kan een speler niet dan moet die een steen pakken"
    assert rules.two_sides_bonus == 40  # "Aanleggen van een steen aan twee zijkanten (B)"
    assert rules.going_out_bonus == 25
    assert rules.going_out == "ends_hand"
    assert rules.blocked == "lowest_scores_difference"
    assert rules.target_score == 400
    assert rules.match_end == "gong"  # "dan betekend dat de 'gong' voor de laatste ronde"
    assert rules.hand_limit is None
    assert rules == preset("classic-002").rules


def test_classic_house_preset_is_the_old_classic() -> None:
    """Today's reading before the default followed seed 002: what ``Rules()`` still is, so
    that a record or a stored table whose rules leave an option out plays on as it was."""
    house = preset("classic-house")
    assert house.rules == Rules()
    assert (house.rules.draw_when, house.rules.two_sides_bonus) == ("always", 0)
    assert house.rules.match_end == "after_hand"
    assert house.rules.opening_zero_swap and not house.rules.dry_pool_no_penalty
    assert [source for source, _ in house.sources][-1] == "house"


def test_extended_preset() -> None:
    extended = preset("extended")
    rules = extended.rules
    assert extended.seeds == ("001_1b09aa5bbd6db9b8.txt", "004_c724ba1986690f37.txt")
    assert rules.tiles is EXTENDED and len(rules.tiles) == 76
    assert [rules.rack_size(n) for n in range(2, 7)] == [9, 7, 7, 6, 6]
    assert rules.opening == "starter_draw"
    assert rules.going_out == "finish_round"
    assert (rules.max_draws, rules.draw_penalty, rules.failed_draw_penalty) == (3, 5, 10)
    assert rules.empty_pool_pass_penalty == 0
    assert (rules.bridge_bonus, rules.hexagon_bonus, rules.double_hexagon_bonus) == (40, 50, 60)
    assert rules.going_out_bonus == 25
    assert rules.target_score == 400
    assert Rules().differences(rules) == {
        "tile_set": ("classic", "extended"),
        "opening": ("highest_triple", "starter_draw"),
        "going_out": ("ends_hand", "finish_round"),
        # Seed 001: "de pot is leeg? Uw beurt is voorbij ... (geen min score)".
        "dry_pool_no_penalty": (False, True),
    }


def test_presets_by_name() -> None:
    assert set(PRESETS) >= {"classic", "extended"}
    for name, value in PRESETS.items():
        assert value.name == name
        assert preset(name) is value
        assert value.summary
    with pytest.raises(RuleOptionError) as caught:
        preset("domino")
    assert caught.value.option == "preset"


def option_of(make: Any) -> str:
    with pytest.raises(RuleOptionError) as caught:
        make()
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith(caught.value.option + ":")
    return caught.value.option


def test_player_count_out_of_range() -> None:
    rules = Rules()
    for players in (0, 1, 7, "2"):
        assert option_of(lambda p=players: rules.check_players(p)) == "players"
    assert option_of(lambda: rules.rack_size(7)) == "players"
    assert option_of(lambda: Match(rules, players=7)) == "players"
    assert option_of(lambda: Match(rules, players=1)) == "players"
    assert option_of(lambda: Match.from_preset("extended", players=7)) == "players"


def test_unknown_option() -> None:
    assert option_of(lambda: Rules().replace(foo=1)) == "foo"
    assert option_of(lambda: Rules().replace(draw_penalty=5, zzz=2, aaa=1)) == "aaa"
    assert option_of(lambda: Rules.from_dict({"players": 3})) == "players"


@pytest.mark.parametrize(
    ("changes", "option"),
    [
        ({"opening": "lowest_triple"}, "opening"),
        ({"going_out": "never"}, "going_out"),
        ({"blocked": "nobody"}, "blocked"),
        ({"tile_set": "dominoes"}, "tile_set"),
        ({"draw_penalty": -5}, "draw_penalty"),
        ({"failed_draw_penalty": 2.5}, "failed_draw_penalty"),
        ({"bridge_bonus": True}, "bridge_bonus"),
        ({"two_sides_bonus": "40"}, "two_sides_bonus"),
        ({"hexagon_bonus": None}, "hexagon_bonus"),
        ({"going_out_bonus": -1}, "going_out_bonus"),
        ({"empty_pool_pass_penalty": -10}, "empty_pool_pass_penalty"),
        ({"max_draws": -1}, "max_draws"),
        ({"target_score": 0}, "target_score"),
        ({"hand_limit": 0}, "hand_limit"),
        ({"target_score": None, "hand_limit": None}, "target_score"),
        ({"min_players": 1}, "min_players"),
        ({"max_players": 7}, "max_players"),
        ({"min_players": 3, "rack_sizes": {"2": 9, "3": 7}}, "rack_sizes"),
        ({"rack_sizes": {"2": 9, "3": 7}}, "rack_sizes"),
        ({"rack_sizes": {"2": 0, "3": 7, "4": 7, "5": 6, "6": 6}}, "rack_sizes"),
        ({"rack_sizes": "nine"}, "rack_sizes"),
        ({"rack_sizes": {"two": 9}}, "rack_sizes"),
    ],
)
def test_bad_option_values_name_the_option(changes: dict[str, Any], option: str) -> None:
    assert option_of(lambda: Rules().replace(**changes)) == option


def test_rack_sizes_too_large_for_the_set() -> None:
    def sizes(players: int, size: int) -> dict[str, int]:
        return {**{str(n): 6 for n in range(2, 7)}, str(players): size}

    # The pool keeps at least one tile: 2 x 27 = 54 of 56 is fine, 2 x 28 is not.
    assert Rules().replace(rack_sizes=sizes(2, 27)).rack_size(2) == 27
    assert option_of(lambda: Rules().replace(rack_sizes=sizes(2, 28))) == "rack_sizes"
    assert option_of(lambda: Rules().replace(rack_sizes=sizes(6, 10))) == "rack_sizes"
    assert Rules().replace(rack_sizes=sizes(5, 11)).rack_size(5) == 11
    extended = preset("extended").rules
    assert extended.replace(rack_sizes=sizes(2, 37)).rack_size(2) == 37
    assert option_of(lambda: extended.replace(rack_sizes=sizes(2, 38))) == "rack_sizes"


def test_starter_draw_needs_a_pool_tile_for_each_player() -> None:
    extended = preset("extended").rules
    sizes = {"2": 9, "3": 7, "4": 7, "5": 6, "6": 11}
    assert extended.replace(rack_sizes=sizes).rack_size(6) == 11  # 76 - 66 = 10 >= 6
    sizes["6"] = 12  # 76 - 72 = 4 tiles for six starter draws
    assert option_of(lambda: extended.replace(rack_sizes=sizes)) == "rack_sizes"
    assert Rules(tile_set="extended").replace(rack_sizes=sizes).rack_size(6) == 12


def test_more_players_with_their_rack_size() -> None:
    rules = Rules().replace(max_players=7, rack_sizes={**Rules().to_dict()["rack_sizes"], "7": 6})
    assert rules.rack_size(7) == 6
    rules.check_players(7)


def test_to_dict_from_dict_round_trip() -> None:
    for value in PRESETS.values():
        data = value.rules.to_dict()
        assert set(data) == set(OPTION_NAMES)
        assert Rules.from_dict(data) == value.rules
        assert Rules.from_dict(json.loads(json.dumps(data))) == value.rules
    for name in ("classic", "extended"):
        data = preset(name).rules.to_dict()
        assert data["rack_sizes"] == {"2": 9, "3": 7, "4": 7, "5": 6, "6": 6}
    custom = Rules(
        two_sides_bonus=40,
        blocked="each_loses_own",
        empty_pool_pass_penalty=10,
        max_draws=None,
        target_score=None,
        hand_limit=3,
    )
    again = Rules.from_dict(json.loads(json.dumps(custom.to_dict())))
    assert again == custom
    assert again.figure_points == custom.figure_points
    assert Rules().differences(again) == {
        "two_sides_bonus": (0, 40),
        "blocked": ("lowest_scores_difference", "each_loses_own"),
        "empty_pool_pass_penalty": (0, 10),
        "max_draws": (3, None),
        "target_score": (400, None),
        "hand_limit": (None, 3),
    }


def test_from_dict_fills_missing_options_with_defaults() -> None:
    assert Rules.from_dict({"two_sides_bonus": 40}) == Rules(two_sides_bonus=40)
    assert Rules.from_dict({}) == Rules()


def test_rules_are_immutable_values() -> None:
    rules = Rules()
    changed = rules.replace(target_score=200)
    assert rules.target_score == 400 and changed.target_score == 200
    with pytest.raises(AttributeError):
        rules.target_score = 100  # type: ignore[misc]
    assert hash(Rules()) == hash(Rules())
    assert eval(repr(rules), {"Rules": Rules}) == rules
