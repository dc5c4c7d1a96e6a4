"""``triominos analyse``: a record's decisions against the best, as text or JSON."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hexagon_game import hexagon_record
from triominos.analysis import Analysis
from triominos.cli import main
from triominos.record import dumps_record, write_records
from triominos.tiles import EXTENDED


def records_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.jsonl"
    write_records(path, [hexagon_record(True), hexagon_record(False)])
    return path


def test_the_text_lists_the_marked_decisions_and_the_players(tmp_path: Path) -> None:
    path = records_file(tmp_path)
    result = CliRunner().invoke(main, ["analyse", str(path), "--record", "2", "--sims", "100"])
    assert result.exit_code == 0, result.output
    assert "Marked decisions" in result.output
    lines = result.output.splitlines()
    blunder = next(line for line in lines if "blunder" in line and "Bob" in line)
    assert "352@0,0v (+10)" in blunder and "025@0,-1v (+57)" in blunder
    bob = next(line for line in lines if line.startswith("│ Bob"))
    assert "hexagon +50" in bob and "1/7" in bob
    assert "100 simulations a decision, seed 0" in result.output


def test_json_is_the_analysis_and_the_same_for_the_same_sims_and_seed(tmp_path: Path) -> None:
    path = records_file(tmp_path)
    arguments = ["analyse", str(path), "--record", "2", "--sims", "50", "--seed", "3", "--json"]
    first = CliRunner().invoke(main, arguments)
    assert first.exit_code == 0, first.output
    written = json.loads(first.output)
    analysis = Analysis.from_json(written, EXTENDED)
    assert (analysis.simulations, analysis.seed, analysis.players) == (50, 3, ("Ann", "Bob"))
    assert any(decision["mark"] == "blunder" for decision in written["decisions"])
    assert CliRunner().invoke(main, arguments).output == first.output


def test_a_record_beyond_the_file_names_the_count(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["analyse", str(records_file(tmp_path)), "--record", "3"])
    assert result.exit_code == 2
    assert "holds 2 record(s), not 3" in result.output


def test_a_broken_file_names_the_line_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    broken = hexagon_record(True)
    broken["hands"][0]["actions"][3]["cell"] = "nowhere"
    path.write_text(dumps_record(hexagon_record(True)) + "\n" + dumps_record(broken) + "\n")
    result = CliRunner().invoke(main, ["analyse", str(path), "--record", "2"])
    assert result.exit_code == 2
    assert "record 2: line 2: hands[0].actions[3].cell" in result.output
    assert "Traceback" not in result.output
    path.write_text("{not json\n")
    result = CliRunner().invoke(main, ["analyse", str(path)])
    assert result.exit_code == 2 and "line 1" in result.output


def test_wrong_play_is_named_with_exit_status_1(tmp_path: Path) -> None:
    path = tmp_path / "wrong.jsonl"
    wrong = hexagon_record(True)
    wrong["hands"][0]["actions"][4]["points"] = 99
    path.write_text(dumps_record(wrong) + "\n")
    result = CliRunner().invoke(main, ["analyse", str(path)])
    assert result.exit_code == 1
    assert "record 1, hand 1, action 4" in result.output


def test_sims_must_be_positive(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["analyse", str(records_file(tmp_path)), "--sims", "0"])
    assert result.exit_code == 2
    assert "--sims" in result.output
