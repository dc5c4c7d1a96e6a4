"""``--rule NAME=VALUE`` on ``play``, ``demo``, ``selfplay`` and ``arena``: every
declared option can be set, and a wrong name, type or value is one line naming the
option and what it allows, with status 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rule_values import changed_value
from triominos.cli import main
from triominos.cli.rules import option_value_words
from triominos.rules import OPTIONS, PRESETS

COMMANDS = {
    "play": ["play", "--seed", "1"],
    "demo": ["demo", "--seed", "1"],
    "selfplay": ["selfplay", "--games", "1", "--seed", "1"],
    "arena": ["arena", "--matches", "2", "--think", "5sims", "--seed", "1"],
}


def rule_arguments(changes: dict[str, Any]) -> list[str]:
    return [f"--rule={name}={option_value_words(value)}" for name, value in changes.items()]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_option_can_be_set_and_the_record_carries_it(name: str, tmp_path: Path) -> None:
    preset, changes = changed_value(name)
    rules = PRESETS[preset].rules.replace(**changes)
    out = tmp_path / "games.jsonl"
    short = [] if "hand_limit" in changes else ["--rule", "hand_limit=1"]
    result = CliRunner().invoke(
        main,
        [
            *COMMANDS["selfplay"],
            "--preset",
            preset,
            "--players",
            str(rules.min_players),
            *short,
            *rule_arguments(changes),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert record["rules"][name] == rules.to_dict()[name]


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("max_draws=x", "--rule max_draws: must be a whole number of at least 0, or none, not 'x'"),
        ("open_racks=maybe", "--rule open_racks: must be true or false, not 'maybe'"),
        (
            "match_end=sudden",
            "--rule match_end: must be one of 'after_hand', 'gong', 'first_to_target', "
            "not 'sudden'",
        ),
        ("colour=red", "--rule colour: is not a rule option; options are tile_set, joker,"),
        ("joker", "--rule joker: give NAME=VALUE, like max_draws=none"),
        ("bank=80", "--rule bank: with a bank, counters move only by laying and buying"),
    ],
)
def test_a_wrong_rule_is_one_line_naming_the_option(command: str, rule: str, message: str) -> None:
    result = CliRunner().invoke(main, [*COMMANDS[command], "--rule", rule])
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_demo_plays_the_rules_given() -> None:
    result = CliRunner().invoke(
        main, [*COMMANDS["demo"], "--rule", "hand_limit=1", "--rule", "target_score=none"]
    )
    assert result.exit_code == 0, result.output
    assert "Hand 2" not in result.output and "Hand 1" in result.output


def test_play_and_arena_take_a_rule() -> None:
    play = [*COMMANDS["play"], "--rule", "open_racks=true"]
    result = CliRunner().invoke(main, play, input="q\ny\n")
    assert result.exit_code == 0, result.output
    assert "Open racks:" in result.output
    result = CliRunner().invoke(
        main, [*COMMANDS["arena"], "--bots", "greedy", "--rule", "hand_limit=1", "--hands"]
    )
    assert result.exit_code == 0, result.output
