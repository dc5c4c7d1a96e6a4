"""``triominos verify`` checks record files and says what is wrong, never with a traceback."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.cli import main
from triominos.game import Match
from triominos.record import PlayerInfo, dumps_record, match_record, write_records
from triominos.rules import PRESETS


@cache
def _record(preset: str, players: int, seed: int, actions: int | None, target: int | None) -> str:
    rules = PRESETS[preset].rules
    match = Match(rules if target is None else rules.replace(target_score=target), players, seed)
    bots: list[Bot] = [GreedyBot() if seat % 2 else RandomBot(seed) for seat in range(players)]
    played = 0
    while not match.is_over and (actions is None or played < actions):
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
        played += 1
    names = [PlayerInfo(f"p{seat}") for seat in range(players)]
    return dumps_record(match_record(match, names))


def record(
    preset: str = "classic",
    players: int = 2,
    seed: int = 1,
    actions: int | None = None,
    target: int | None = None,
) -> dict[str, Any]:
    """A fresh record of a bot match, after ``actions`` actions or to its end."""
    document: dict[str, Any] = json.loads(_record(preset, players, seed, actions, target))
    return document


def run(*arguments: str) -> Result:
    result = CliRunner().invoke(main, list(arguments))
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result


def test_every_record_of_a_file_is_checked(tmp_path: Path) -> None:
    documents = [
        record(),
        record("extended", 3, 2),
        record(players=4, seed=3, actions=30, target=150),
    ]
    path = tmp_path / "records.jsonl"
    write_records(path, documents)
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    first = documents[0]
    scores = "-".join(map(str, first["scores"]))
    hands = len(first["hands"])
    assert lines[0] == (
        f"record 1: ok, classic, 2 players, {hands} hand{'s' if hands > 1 else ''}, scores {scores}"
    )
    assert lines[1].startswith("record 2: ok, extended, 3 players, ")
    assert lines[2].startswith("record 3: ok, custom rules, 4 players, ")
    assert lines[2].endswith("(unfinished)")


def test_a_single_indented_document_is_a_file_too(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record(), indent=2))
    result = run("verify", str(path))
    assert result.exit_code == 0
    assert result.stdout.startswith("record 1: ok, classic, 2 players")


def test_wrong_play_names_record_hand_and_action(tmp_path: Path) -> None:
    wrong = record(seed=2)
    action = wrong["hands"][0]["actions"][4]
    right_points = action["points"]
    action["points"] += 1
    path = tmp_path / "records.jsonl"
    write_records(path, [record(), wrong, record(seed=3)])
    result = run("verify", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("record 1: ok")
    assert result.stdout.splitlines()[1].startswith("record 3: ok")
    assert result.stderr == (
        f"{path}: record 2, hand 1, action 4: points are {right_points + 1}, the rules give "
        f"{right_points}\n"
    )


def test_an_illegal_placement_names_the_rule(tmp_path: Path) -> None:
    wrong = record()
    wrong["hands"][0]["actions"][0]["cell"] = [1, 0, "up"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(wrong))
    result = run("verify", str(path))
    assert result.exit_code == 1
    assert "record 1, hand 1, action 0: the first tile lies on" in result.stderr
    assert "(rule first_tile_on_origin)" in result.stderr


def test_a_missing_file_is_status_2(tmp_path: Path) -> None:
    result = run("verify", str(tmp_path / "nowhere.jsonl"))
    assert result.exit_code == 2
    assert result.stderr == f"cannot read {tmp_path / 'nowhere.jsonl'}: No such file or directory\n"


def test_a_file_that_is_not_json_is_status_2(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(dumps_record(record()) + "\n{not json\n")
    result = run("verify", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"{path}: line 2: not JSON: ")


def test_a_malformed_record_names_line_and_field(tmp_path: Path) -> None:
    broken = record()
    actions = broken["hands"][0]["actions"]
    index = next(i for i, action in enumerate(actions) if i and action["action"] == "place")
    actions[index]["cell"] = [0, 0]
    path = tmp_path / "records.jsonl"
    path.write_text(f"{dumps_record(record())}\n\n{dumps_record(broken)}\n")
    result = run("verify", str(path))
    assert result.exit_code == 2
    assert result.stdout.startswith("record 1: ok")
    assert result.stderr == (
        f"{path}: record 2: line 3: hands[0].actions[{index}].cell: a cell is written "
        '[x, y, "up"] or [x, y, "down"], not [0, 0]\n'
    )


def test_help_explains_the_exit_status() -> None:
    result = run("verify", "--help")
    assert result.exit_code == 0
    assert "Check every game record in FILE" in result.output
    assert "Exit status:" in result.output
    assert "2  the file cannot be read" in result.output
    assert "verify" in run("--help").output


def test_junior_and_childrens_records_are_checked(tmp_path: Path) -> None:
    documents = [record("junior", 3, 4), record("classic-children", 2, 5), record("junior", 4, 6)]
    path = tmp_path / "records.jsonl"
    write_records(path, documents)
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    counters = documents[0]["scores"]
    assert lines[0] == (
        f"record 1: ok, junior, 3 players, 1 hand, counters {'-'.join(map(str, counters))} "
        f"(bank {60 - sum(counters)})"
    )
    assert lines[1].startswith("record 2: ok, classic-children, 2 players, 1 hand, scores ")
    assert lines[2].startswith("record 3: ok, junior, 4 players, 1 hand, counters ")


def test_a_wrong_junior_record_names_what_is_wrong(tmp_path: Path) -> None:
    wrong = record("junior", 2, 7)
    actions = wrong["hands"][0]["actions"]
    index = next(i for i, action in enumerate(actions) if action["action"] == "buy")
    actions[index]["action"] = "draw"
    counted = record("junior", 2, 8)
    counted["scores"][0] += 1
    path = tmp_path / "records.jsonl"
    write_records(path, [wrong, counted])
    result = run("verify", str(path))
    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    assert errors[0] == (
        f"{path}: record 1, hand 1, action {index}: is recorded as a draw, the rules make it "
        "a buy (taking a tile costs a counter when the rules pay in counters)"
    )
    assert errors[1].startswith(f"{path}: record 2, hand 1: final counters are ")
