"""Outside agents (``module:factory``) in the arena, the SPRT and the ladder, and the
project's bots as OpenSpiel bots."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from triominos.arena import ArenaConfig, play_games
from triominos.bots import Budget
from triominos.bots.spec import BotSpec, BotSpecError
from triominos.cli import main
from triominos.rules import preset


def run(*arguments: str) -> Result:
    return CliRunner().invoke(main, list(arguments))


def test_an_outside_agent_plays_duplicate_deals_in_the_arena_on_two_processes() -> None:
    rules = preset("classic").rules.replace(target_score=60)
    config = ArenaConfig(rules, ("outside_agents:make", "greedy"), Budget(simulations=10), 2, 5)
    alone = list(play_games(config, jobs=1))
    spread = list(play_games(config, jobs=2))
    assert [result.totals for result in alone] == [result.totals for result in spread]
    assert len(alone) == 4


def test_the_arena_ladder_and_sprt_seat_an_outside_agent_by_module_and_factory() -> None:
    quick = ("--target", "40", "--seed", "2", "--think", "10sims")
    arena = run("arena", "--bots", "outside_agents:make,greedy", "--matches", "4", *quick)
    assert arena.exit_code == 0, arena.output
    assert "outside_agents:make" in arena.output
    sprt = run(
        "arena", "--bots", "outside_agents:make,greedy", "--sprt", "0,50", "--matches", "4", *quick
    )
    assert sprt.exit_code == 0, sprt.output
    assert "SPRT outside_agents:make against greedy" in sprt.output
    ladder = run("ladder", "--bots", "outside_agents:make,random", "--pairs", "2", *quick)
    assert ladder.exit_code == 0, ladder.output
    assert "outside_agents:make" in ladder.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_here:make", "cannot import no_such_module_here"),
        ("outside_agents:missing", "has no callable missing"),
    ],
)
def test_an_outside_spec_that_cannot_be_had_is_refused_with_its_reason(
    spec: str, message: str
) -> None:
    with pytest.raises(BotSpecError, match=message):
        BotSpec.from_text(spec)
    result = run("arena", "--bots", f"{spec},greedy", "--matches", "2")
    assert result.exit_code == 2 and message in result.output


def test_an_agent_without_act_or_with_an_illegal_answer_stops_the_run_in_one_line() -> None:
    with pytest.raises(BotSpecError, match="no act"):
        BotSpec.from_text("outside_agents:nothing").make(1, Budget(simulations=1))
    result = run(
        "arena", "--bots", "outside_agents:draws,greedy", "--matches", "2", "--target", "400"
    )
    assert result.exit_code == 2, result.output
    assert "outside_agents:draws answered Draw()" in result.output
    assert "Traceback" not in result.output


def test_commands_that_seat_bots_by_name_refuse_an_outside_agent() -> None:
    result = run("demo", "--bots", "outside_agents:make,greedy")
    assert result.exit_code == 2 and "outside agents" in result.output


def test_a_project_bot_is_an_openspiel_bot() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import evaluate_bots  # type: ignore[import-untyped]

    from triominos.rl.openspiel import ProjectBot

    game = pyspiel.load_game("triominos", {"preset": "classic", "players": 2})
    bots = [
        ProjectBot(game, 0, "greedy"),
        ProjectBot(game, 1, "sim", seed=1, budget=Budget(simulations=20)),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(0) and any(returns)
    with pytest.raises(ValueError, match="bot"):
        ProjectBot(game, 0, "deep-blue")
