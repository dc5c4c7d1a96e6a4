"""The arena: duplicate schedules, statistics on known outcomes, games in processes."""

from __future__ import annotations

import statistics

import pytest

from triominos.arena import (
    ArenaConfig,
    Game,
    GameResult,
    bootstrap_interval,
    group_means,
    play_game,
    play_games,
    ratings,
    summarize,
    wilson_interval,
)
from triominos.bots import Budget
from triominos.rules import PRESETS

TINY = Budget(simulations=8)
SHORT = PRESETS["classic"].rules.replace(target_score=60)


def config(
    bots: tuple[str, ...] = ("greedy", "expert"), groups: int = 2, **changes: object
) -> ArenaConfig:
    values: dict[str, object] = {
        "rules": SHORT,
        "bots": bots,
        "budget": TINY,
        "groups": groups,
        "seed": 10,
    }
    values.update(changes)
    return ArenaConfig(**values)  # type: ignore[arg-type]


def result(group: int, rotation: int, totals: tuple[int, ...]) -> GameResult:
    """A two-entry game result as the arena would report it."""
    players = len(totals)
    game = Game(group, rotation, 100 + group)
    best = max(totals)
    return GameResult(
        game,
        game.seating(players),
        totals,
        tuple(seat for seat, total in enumerate(totals) if total == best),
        hands=1,
        moves=(10,) * players,
        thinking=(0.5,) * players,
    )


# --- statistics on known outcomes ----------------------------------------------------


def test_wilson_interval_of_known_rates() -> None:
    low, high = wilson_interval(60, 100)
    assert low == pytest.approx(0.5020, abs=5e-5)
    assert high == pytest.approx(0.6906, abs=5e-5)
    low, high = wilson_interval(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12) and high == pytest.approx(0.2775, abs=5e-5)
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(0.7225, abs=5e-5) and high == pytest.approx(1.0)
    with pytest.raises(ValueError):
        wilson_interval(1, 0)


def test_bootstrap_interval_of_known_samples() -> None:
    assert bootstrap_interval([0.5] * 30) == (0.5, 0.5)
    values = [0.0, 1.0] * 100
    low, high = bootstrap_interval(values)
    spread = 1.96 * statistics.stdev(values) / len(values) ** 0.5  # the normal approximation
    assert low == pytest.approx(0.5 - spread, abs=0.015)
    assert high == pytest.approx(0.5 + spread, abs=0.015)
    assert bootstrap_interval(values, seed=3) == bootstrap_interval(values, seed=3)
    with pytest.raises(ValueError):
        bootstrap_interval([])


def test_shares_and_margins_of_a_game() -> None:
    won = result(0, 0, (120, 80))
    assert won.win_share(0) == 1 and won.win_share(1) == 0
    assert won.margin(0) == 40 and won.margin(1) == -40
    rotated = result(0, 1, (120, 80))  # entry 1 sat at seat 0 this time
    assert rotated.win_share(1) == 1 and rotated.margin(0) == -40
    tied = result(1, 0, (90, 90, 30))
    assert [tied.win_share(entry) for entry in range(3)] == [0.5, 0.5, 0]
    assert tied.margin(2) == 30 - 90


def test_a_fixed_list_of_results_gives_known_figures() -> None:
    """Entry 0 wins 3 of 4 duplicate groups' pairs of games: 6 of 8 matches."""
    results = []
    for group in range(4):
        first = (100, 50) if group < 3 else (50, 100)
        second = (50, 100) if group < 3 else (100, 50)  # entry 0 sits at seat 1 here
        results += [result(group, 0, first), result(group, 1, second)]
    arena = config(groups=4)
    stats = summarize(arena, results)
    assert [entry.label for entry in stats] == ["greedy", "expert"]
    assert stats[0].wins == 6 and stats[0].win_rate == 0.75
    assert stats[1].win_rate == 0.25
    assert stats[0].margin == pytest.approx(25.0)  # (6 * 50 - 2 * 50) / 8
    assert group_means(results, lambda r: r.win_share(0)) == [1.0, 1.0, 1.0, 0.0]
    # Each group is 1 or 0: the bootstrap of [1, 1, 1, 0] spans 0.25 to 1 at most.
    low, high = stats[0].win_interval
    assert 0.25 <= low < 0.75 < high <= 1.0
    assert stats[0].rating > stats[1].rating
    assert stats[0].fair_share == 0.5
    assert stats[0].seconds_per_move == pytest.approx(0.05)


def test_ratings_rank_the_finishing_order() -> None:
    results = [result(group, 0, (30, 20, 10)) for group in range(5)]
    (first, _), (second, _), (third, _) = ratings(results, 3)
    assert first > second > third


# --- the schedule and duplicate deals --------------------------------------------------


def test_every_group_plays_every_seating() -> None:
    arena = config(("sim", "greedy", "expert"), groups=2)
    games = arena.schedule()
    assert len(games) == 6
    assert [game.seed for game in games] == [10, 10, 10, 11, 11, 11]
    seatings = [game.seating(3) for game in games[:3]]
    assert seatings == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    for entry in range(3):  # each entry sits once at each seat within a group
        assert sorted(seating.index(entry) for seating in seatings) == [0, 1, 2]


def test_duplicate_games_deal_the_same_cards_to_the_rotated_bots() -> None:
    arena = config(("greedy", "expert"), groups=1)
    first, second = (play_game(arena, game, keep_record=True) for game in arena.schedule())
    assert first.record is not None and second.record is not None
    assert first.record["hands"][0]["deal"] == second.record["hands"][0]["deal"]
    names = [[player["name"] for player in r.record["players"]] for r in (first, second)]  # type: ignore[index]
    assert names == [["greedy", "expert"], ["expert", "greedy"]]


def test_labels_number_a_bot_that_takes_several_seats() -> None:
    arena = config(("sim", "greedy", "greedy", "greedy"))
    assert arena.labels == ["sim", "greedy", "greedy (2)", "greedy (3)"]


def test_single_hands() -> None:
    arena = config(hands=True, groups=1)
    assert arena.game_rules.hand_limit == 1 and arena.game_rules.target_score is None
    played = [play_game(arena, game) for game in arena.schedule()]
    assert all(game.hands == 1 for game in played)


def test_processes_give_the_same_results_in_the_same_order() -> None:
    arena = config(("greedy", "sim"), groups=2)
    heard: list[GameResult] = []
    alone = list(play_games(arena, jobs=1))
    shared = list(play_games(arena, jobs=2, on_done=heard.append))
    strip = [(r.game, r.seating, r.totals, r.winners, r.hands, r.moves) for r in alone]
    assert [(r.game, r.seating, r.totals, r.winners, r.hands, r.moves) for r in shared] == strip
    assert len(heard) == 4


def test_a_config_checks_its_player_count() -> None:
    with pytest.raises(ValueError):
        config(("greedy",) * 7)
    with pytest.raises(ValueError):
        config(groups=0)
