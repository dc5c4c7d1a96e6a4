"""``triominos arena`` end to end: the table, the records, the errors a user can make."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner, Result

from triominos.cli import main
from triominos.record import read_records, verify


def arena(*arguments: str) -> Result:
    return CliRunner().invoke(main, ["arena", *arguments])


QUICK = ("--think", "10sims", "--target", "60", "--seed", "3")


def rows(output: str) -> dict[str, list[str]]:
    """The table's rows by bot label: the cells after the label."""
    found = {}
    for line in output.splitlines():
        cells = line.split()
        if cells and cells[0] in ("greedy", "expert", "sim", "random"):
            label = " ".join(cells[:2]) if len(cells) > 1 and cells[1].startswith("(") else cells[0]
            found[label] = cells[len(label.split()) :]
    return found


def test_a_small_arena_prints_a_row_per_bot_and_saves_the_records(tmp_path: Path) -> None:
    out = tmp_path / "arena.jsonl"
    result = arena("--bots", "greedy,sim", "--matches", "4", *QUICK, "--out", str(out))
    assert result.exit_code == 0, result.output
    output = result.stdout
    assert "4 classic matches, 2 players: 2 deal groups x 2 seatings, seeds 3 to 4" in output
    assert "think 10sims" in output
    table = rows(output)
    assert set(table) == {"greedy", "sim"}
    wins = [float(cells[0]) for cells in table.values()]
    assert sum(wins) == 4
    for cells in table.values():
        assert re.fullmatch(r"\d+\.\d-\d+\.\d", cells[2])  # the win rate's interval
    assert "percentile bootstrap over the 2 deal groups" in output
    assert f"records: 4 matches written to {out}" in output
    records = read_records(out)
    assert len(records) == 4
    for record in records:
        assert sorted(player["name"] for player in record["players"]) == ["greedy", "sim"]
        verify(record)


def test_single_hands_at_four_players() -> None:
    result = arena("--hands", "--players", "4", "--bots", "sim,greedy", "--matches", "4", *QUICK)
    assert result.exit_code == 0, result.output
    assert "4 classic hands, 4 players: 1 deal groups x 4 seatings" in result.stdout
    assert set(rows(result.stdout)) == {"sim", "greedy", "sim (2)", "greedy (2)"}
    assert "wins 25.0%" in result.stdout


def test_the_same_seed_gives_the_same_table_with_any_number_of_processes() -> None:
    arguments = ("--bots", "expert,greedy", "--matches", "4", "--preset", "extended", *QUICK)
    alone, shared = arena(*arguments), arena(*arguments, "--jobs", "2")
    assert alone.exit_code == shared.exit_code == 0, alone.output + shared.output

    def figures(output: str) -> dict[str, list[str]]:
        return {label: cells[:-1] for label, cells in rows(output).items()}  # less ms/move

    assert figures(alone.stdout) == figures(shared.stdout)


def test_matches_are_rounded_up_to_whole_groups() -> None:
    result = arena("--players", "3", "--bots", "greedy", "--matches", "4", *QUICK)
    assert result.exit_code == 0, result.output
    assert "6 classic matches, 3 players: 2 deal groups x 3 seatings" in result.stdout


def test_a_budget_that_is_no_budget_is_a_usage_error() -> None:
    result = arena("--think", "soon")
    assert result.exit_code == 2
    assert "--think" in result.output and "500sims, 1s or 250ms" in result.output


def test_an_unknown_bot_is_a_usage_error() -> None:
    result = arena("--bots", "greedy,deepblue")
    assert result.exit_code == 2
    assert "unknown bot 'deepblue'" in result.output


def test_a_records_file_in_no_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = arena("--out", str(tmp_path / "missing" / "a.jsonl"), *QUICK)
    assert result.exit_code == 2
    assert "no directory" in result.output


def test_junior_has_too_many_players_at_six() -> None:
    result = arena("--preset", "junior", "--players", "6", *QUICK)
    assert result.exit_code == 2
    assert "--players" in result.output
