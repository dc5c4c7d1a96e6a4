"""``triominos rules``: the presets, and each preset's options in words."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from triominos.cli import main
from triominos.cli.rules import option_value_words
from triominos.rules import OPTIONS, PRESETS


def test_every_rule_option_has_an_explanation() -> None:
    assert all(o.meaning.strip() and "\n" not in o.meaning for o in OPTIONS.values())


def test_without_a_preset_the_presets_are_listed_with_summary_and_seeds() -> None:
    result = CliRunner().invoke(main, ["rules"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for preset in PRESETS.values():
        assert preset.name in result.output
        assert preset.summary in result.output
        for seed in preset.seeds:
            assert seed in result.output


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_is_printed_with_every_option_its_value_and_meaning(name: str) -> None:
    result = CliRunner().invoke(main, ["rules", name], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    preset = PRESETS[name]
    assert result.output.startswith(f"{name}: {preset.summary}")
    for seed in preset.seeds:
        assert seed in result.output
    lines = result.output.splitlines()
    for option, value in preset.rules.to_dict().items():
        line = f"{option} = {option_value_words(value)}"
        assert line in lines
        assert lines[lines.index(line) + 1] == "    " + OPTIONS[option].meaning


def test_values_are_in_words() -> None:
    assert option_value_words(None) == "none"
    assert option_value_words({"2": 9, "3": 7}) == "2: 9, 3: 7"
    assert option_value_words("ends_hand") == "ends_hand"


def test_an_unknown_preset_is_a_usage_error_naming_the_presets() -> None:
    result = CliRunner().invoke(main, ["rules", "deluxe"])
    assert result.exit_code == 2
    named = "'deluxe' is not one of 'classic', 'classic-house', 'extended', 'junior'"
    assert named in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_json_gives_every_declaration_and_the_presets_value(name: str) -> None:
    result = CliRunner().invoke(main, ["rules", name, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    preset = PRESETS[name]
    assert (document["name"], document["seeds"]) == (name, list(preset.seeds))
    values = preset.rules.to_dict()
    assert [option["name"] for option in document["options"]] == list(OPTIONS)
    for option in document["options"]:
        declared = OPTIONS[option["name"]]
        assert option["value"] == values[declared.name]
        assert option["allowed"] == declared.allowed
        assert option["choices"] == list(declared.choices)
        assert option["label"] == declared.label_key
    every = json.loads(CliRunner().invoke(main, ["rules", "--json"]).output)
    assert [each["name"] for each in every] == list(PRESETS)
