"""``triominos demo`` plays a whole match and prints it."""

from __future__ import annotations

from click.testing import CliRunner

from triominos.cli import main


def test_demo_prints_every_move_and_the_final_scores() -> None:
    result = CliRunner().invoke(main, ["demo", "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "classic match, seed 5" in result.output
    assert "places" in result.output
    assert "Final scores" in result.output
    assert "(winner)" in result.output


def test_demo_is_the_same_for_the_same_seed() -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["demo", "--seed", "9", "--preset", "extended", "--players", "3"])
    second = runner.invoke(main, ["demo", "--seed", "9", "--preset", "extended", "--players", "3"])
    assert first.exit_code == 0
    assert first.output == second.output
    assert "to decide who starts" in first.output


def test_demo_rejects_an_unknown_bot_by_name() -> None:
    result = CliRunner().invoke(main, ["demo", "--bots", "wizard"])
    assert result.exit_code == 2
    assert "wizard" in result.output
    assert "Traceback" not in result.output
