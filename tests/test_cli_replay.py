"""``triominos replay``: end to end on records the engine writes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import junior_games
from triominos.bots import GreedyBot
from triominos.cli import main
from triominos.game import Match
from triominos.record import PlayerInfo, match_record, write_records
from triominos.rules import PRESETS


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    match = Match(PRESETS["classic"].rules.replace(target_score=150), 2, seed=11)
    bot = GreedyBot()
    while not match.is_over:
        match.apply(bot.act(match.observe(match.to_move)))
    path = tmp_path / "games.jsonl"
    players = [PlayerInfo("Ann", "human"), PlayerInfo("Bob", "bot")]
    write_records(path, [match_record(match, players)])
    return path


def test_replay_tells_every_action_and_each_hand_end(record_file: Path) -> None:
    document = json.loads(record_file.read_text().splitlines()[0])
    result = CliRunner().invoke(main, ["replay", str(record_file)])
    assert result.exit_code == 0, result.output
    for hand in document["hands"]:
        assert f"Hand {hand['number']}" in result.output
    actions = sum(len(hand["actions"]) for hand in document["hands"])
    numbered = [line for line in result.output.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert len(numbered) == actions
    assert "Ann places" in result.output and "Bob" in result.output
    assert "settlement" in result.output


def test_replay_one_hand_only(record_file: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(record_file), "--hand", "2"])
    assert result.exit_code == 0
    assert "Hand 2" in result.output
    assert "Hand 1\n" not in result.output


def test_replay_draws_the_position_after_an_action(record_file: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(record_file), "--hand", "1", "--action", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Hand 1, after action 2:")
    assert "0,0^" in result.output  # the first tile, labelled with its cell


def test_replay_writes_the_position_as_svg(record_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "position.svg"
    arguments = ["replay", str(record_file), "--hand", "1", "--action", "4", "--svg", str(out)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg")
    tiles = [g for g in root.iter() if g.get("class") == "tile" and g.tag.endswith("polygon")]
    last = [g for g in root.iter() if g.get("class") == "tile last"]
    assert len(tiles) + len(last) == 5  # five actions, all placements in this opening


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--action", "3"], "--action needs --hand"),
        (["--svg", "-"], "--svg draws one position"),
    ],
)
def test_replay_usage_errors(record_file: Path, arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["replay", str(record_file), *arguments])
    assert result.exit_code == 2
    assert message in result.output


def test_replay_missing_action_and_record(record_file: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["replay", str(record_file), "--hand", "1", "--action", "999"])
    assert result.exit_code == 2
    assert "no action 999 in hand 1" in result.output
    result = runner.invoke(main, ["replay", str(record_file), "--record", "3"])
    assert result.exit_code == 2
    assert "holds 1 record(s), not 3" in result.output


def test_replay_names_the_first_wrong_action(record_file: Path) -> None:
    document = json.loads(record_file.read_text())
    document["hands"][0]["actions"][1]["points"] += 1
    record_file.write_text(json.dumps(document) + "\n")
    result = CliRunner().invoke(main, ["replay", str(record_file)])
    assert result.exit_code == 1
    assert "hand 1, action 1" in result.output
    assert "Traceback" not in result.output


def test_replay_of_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text("{not json\n")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2
    assert "line 1" in result.output


@pytest.fixture
def junior_file(tmp_path: Path) -> Path:
    """A Junior match in which the joker was laid and taken back."""
    match = junior_games.first_position(lambda m: m.is_over and _took_joker(m))
    path = tmp_path / "junior.jsonl"
    write_records(path, [match_record(match, [PlayerInfo("Ann"), PlayerInfo("Bob")])])
    return path


def _took_joker(match: Match) -> bool:
    return any(event.action == "take_joker" for event in match.hand.events)


def test_replay_tells_a_junior_game_in_its_words(junior_file: Path) -> None:
    document = json.loads(junior_file.read_text())
    result = CliRunner().invoke(main, ["replay", str(junior_file)])
    assert result.exit_code == 0, result.output
    output = result.output
    first = document["hands"][0]["deal"]["first"]
    assert f"the first card, {first}, lies face up as " in output
    assert re.search(r"(Ann|Bob) places \S+ as \S+: \+\d counters?", output)
    assert re.search(r"(Ann|Bob) buys a card \(\d-\d-\d\): -1 counter", output)
    assert re.search(r"(Ann|Bob) takes the joker back, putting \d-\d-\d in its place", output)
    assert "the joker as J@" in output
    reason = document["hands"][0]["end"]["reason"]
    ending = "the pot is empty and the last round is over" if reason == "last_round" else "blocked"
    assert ending in output


def test_replay_draws_a_junior_position(junior_file: Path, tmp_path: Path) -> None:
    document = json.loads(junior_file.read_text())
    actions = document["hands"][0]["actions"]
    laid = next(i for i, a in enumerate(actions) if a["action"] == "place" and a["tile"] == "J")
    arguments = ["replay", str(junior_file), "--hand", "1", "--action", str(laid)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert "J" in result.output.split("\n", 2)[2]  # the joker on the drawn table
    out = tmp_path / "position.svg"
    result = CliRunner().invoke(main, [*arguments, "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    assert [g for g in root.iter() if g.get("class") == "joker"]
    assert [g for g in root.iter() if g.get("class") == "patch"]
