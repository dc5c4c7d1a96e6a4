"""``triominos selfplay`` end to end: matches played, the summary, the records file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from triominos.cli import main
from triominos.cli.main import seat_bot
from triominos.cli.selfplay import Played, SeriesTally, play_out, wins_words
from triominos.game import Match
from triominos.rules import PRESETS


def selfplay(*arguments: str) -> Result:
    return CliRunner().invoke(main, ["selfplay", *arguments])


def test_the_summary_has_a_row_per_seat_and_the_speed() -> None:
    result = selfplay("--games", "4", "--seed", "7", "--bots", "greedy,random")
    assert result.exit_code == 0, result.output
    output = result.stdout
    assert "4 classic matches, 2 players, seeds 7 to 10" in output
    for column in ("seat", "bot", "wins", "win %", "mean score"):
        assert column in output
    rows = re.findall(
        r"│\s+(\d)\s+│\s+(\w+)\s+│\s+([\d.]+)\s+│\s+([\d.]+)\s+│\s+(-?[\d.]+)\s+│", output
    )
    assert [(seat, bot) for seat, bot, *_ in rows] == [("0", "greedy"), ("1", "random")]
    assert sum(float(wins) for _, _, wins, _, _ in rows) == pytest.approx(4)
    assert "a win shared by k seats counts 1/k" in output
    assert re.search(r"hands per match: \d+\.\d\d on average", output)
    assert re.search(r"time: \d+\.\d\d s, \d+\.\d matches/s", output)


def test_the_same_seed_gives_the_same_summary() -> None:
    arguments = ("--games", "3", "--seed", "2", "--players", "3", "--preset", "extended")
    first, second = selfplay(*arguments), selfplay(*arguments)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout.split("wins: ")[0] == second.stdout.split("wins: ")[0]


def test_out_saves_one_record_a_line_with_the_players_and_seeds(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = selfplay(
        "--games", "3", "--seed", "40", "--players", "3", "--bots", "random,greedy",
        "--target", "150", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"records: 3 matches written to {out}" in result.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3
    for number, record in enumerate(records):
        assert record["format"] == "triominos-record/1"
        assert record["preset"] == "classic"
        assert record["seed"] == 40 + number
        assert record["rules"]["target_score"] == 150
        assert record["players"] == [
            {"name": "random", "kind": "bot"},
            {"name": "greedy", "kind": "bot"},
            {"name": "random", "kind": "bot"},
        ]
        assert record["winners"]
        # Match i is the match of seed S + i, played by the same bots.
        rules = PRESETS["classic"].rules.replace(target_score=150)
        match = Match(rules, 3, 40 + number)
        names = ["random", "greedy", "random"]
        play_out(match, [seat_bot(name, match.seed, seat) for seat, name in enumerate(names)])
        assert record["scores"] == match.totals


def test_shared_wins_count_as_fractions() -> None:
    tally = SeriesTally(3)
    tally.add(Played(hands=2, winners=(0, 2), totals=(400, 120, 400), record=None))
    assert tally.wins == [0.5, 0.0, 0.5]
    assert (tally.matches, tally.hands, tally.score_sums) == (1, 2, [400, 120, 400])
    assert [wins_words(w) for w in (3.0, 2.5, 1 / 3)] == ["3", "2.5", "0.33"]


@pytest.mark.parametrize(
    ("arguments", "option", "message"),
    [
        (["--bots", "greedy,wizard"], "--bots", "unknown bot 'wizard'"),
        (["--players", "7"], "--players", "7 is not in the range"),
        (["--games", "0"], "--games", "0 is not in the range"),
        (["--out", "/no/such/directory/games.jsonl"], "--out", "no directory"),
    ],
)
def test_bad_options_are_usage_errors_naming_the_option(
    arguments: list[str], option: str, message: str
) -> None:
    result = selfplay(*arguments)
    assert result.exit_code == 2
    assert option in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("preset", ["junior", "classic-children", "extended-children"])
def test_every_preset_plays_and_its_records_verify(preset: str, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = selfplay("--preset", preset, "--games", "3", "--seed", "1", "--players", "3",
                      "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"3 {preset} matches, 3 players, seeds 1 to 3" in result.stdout
    assert "hands per match: 1.00 on average" in result.stdout
    column = "mean counters" if preset == "junior" else "mean score"
    assert column in result.stdout
    verified = CliRunner().invoke(main, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    assert len(verified.stdout.splitlines()) == 3


def test_a_junior_summary_counts_counters() -> None:
    result = selfplay("--preset", "junior", "--games", "4", "--seed", "3", "--players", "4")
    assert result.exit_code == 0, result.output
    rows = re.findall(
        r"│\s+(\d)\s+│\s+\w+\s+│\s+[\d.]+\s+│\s+[\d.]+\s+│\s+([\d.]+)\s+│", result.stdout
    )
    assert [seat for seat, _ in rows] == ["0", "1", "2", "3"]
    # Four counters each to start, and never more than the bank of 60 in all.
    assert 0 < sum(float(mean) for _, mean in rows) <= 60


def test_junior_is_for_two_to_four_players() -> None:
    result = selfplay("--preset", "junior", "--players", "6")
    assert result.exit_code == 2
    assert "--players" in result.stderr
    assert "junior is for 2 to 4 players, not 6" in result.stderr
    assert "Traceback" not in result.output
