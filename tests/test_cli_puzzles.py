"""``triominos puzzles generate`` and ``check``: puzzles found in bot games, written one
a line, and solved again; wrong files said in one line, never with a traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from puzzle_cases import made_puzzles
from triominos.cli import main
from triominos.puzzles import MARGIN, load

FAST = ["--sims", "200", "--confirm-sims", "400", "--think", "20"]
"""A small budget: a puzzle in a few seconds."""


def test_generate_writes_puzzles_that_check_solves_again(tmp_path: Path) -> None:
    out = tmp_path / "puzzles.jsonl"
    args = ["puzzles", "generate", "--count", "2", "--out", str(out), "--seed", "3", *FAST]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "2 puzzles in" in result.stdout and "confirmed" in result.stdout
    assert result.stderr.count("puzzle ") >= 2
    puzzles = load(out.read_text().splitlines())
    assert len(puzzles) == 2 and all(puzzle.margin >= MARGIN for puzzle in puzzles)
    # The same seed finds the same puzzles.
    again = tmp_path / "again.jsonl"
    args[5] = str(again)
    assert CliRunner().invoke(main, args).exit_code == 0
    assert again.read_text() == out.read_text()
    checked = CliRunner().invoke(main, ["puzzles", "check", str(out), "--sims", "400"])
    assert checked.exit_code == 0, checked.output
    assert "2 of 2 solved again" in checked.stdout


def test_check_names_a_puzzle_the_evaluation_does_not_solve(tmp_path: Path) -> None:
    """Puzzles whose solution is just some placement other than greedy's: the
    evaluation finds most of them unsolved."""
    file = tmp_path / "made.jsonl"
    file.write_text("".join(puzzle.to_json() + "\n" for puzzle in made_puzzles(4)))
    result = CliRunner().invoke(main, ["puzzles", "check", str(file), "--sims", "100"])
    assert result.exit_code == 1
    assert "not solved again at 100 simulations" in result.stderr
    sampled = CliRunner().invoke(
        main, ["puzzles", "check", str(file), "--sample", "1", "--sims", "50"]
    )
    assert "of 1 solved again (4 read)" in sampled.stdout


def test_check_says_in_one_line_what_is_wrong_with_a_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text(made_puzzles(1)[0].to_json() + "\n{\n")
    result = CliRunner().invoke(main, ["puzzles", "check", str(broken)])
    assert result.exit_code == 2
    assert "line 2" in result.stderr and "not JSON" in result.stderr
    assert "Traceback" not in result.output
    missing = CliRunner().invoke(main, ["puzzles", "check", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_generate_refuses_a_count_below_one(tmp_path: Path) -> None:
    args = ["puzzles", "generate", "--count", "0", "--out", str(tmp_path / "x.jsonl")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "--count" in result.output
