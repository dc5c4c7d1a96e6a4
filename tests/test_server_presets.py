"""``GET /api/presets`` gives every option's declaration, value and texts, and
``POST /api/tables`` takes every option (or answers 400 naming it)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from rule_values import changed_value
from server_games import Served
from triominos.rules import OPTIONS, PRESETS
from triominos.server.presets import LANGUAGES, rule_texts


def option_keys() -> set[str]:
    """Every text key the declarations ask for."""
    keys = {"rule.none", "rule.rack_sizes.players.one", "rule.rack_sizes.players.other"}
    for option in OPTIONS.values():
        keys |= {option.label_key, option.help_key}
        keys |= {option.value_key(choice) for choice in option.choices}
    return keys


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_option_has_its_texts_in_every_language(code: str) -> None:
    texts = rule_texts()[code]
    assert set(texts) == option_keys()
    assert all(text.strip() for text in texts.values())


def test_presets_give_every_declaration_value_and_the_texts(served_sqlite: Served) -> None:
    answer = served_sqlite.http.get("/api/presets").json()
    assert [preset["name"] for preset in answer["presets"]] == list(PRESETS)
    assert answer["options"] == list(OPTIONS)
    assert answer["rule_texts"] == rule_texts()
    for entry in answer["presets"]:
        preset = PRESETS[entry["name"]]
        assert entry == preset.to_json()
        assert [option["name"] for option in entry["options"]] == list(OPTIONS)
        for option in entry["options"]:
            assert option["value"] == preset.rules.to_dict()[option["name"]]
            for code in LANGUAGES:
                assert option["label"] in answer["rule_texts"][code]


def person_seats(players: int) -> list[dict[str, Any]]:
    return [{"kind": "person"} for _ in range(players)]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_a_table_takes_every_option(served_sqlite: Served, name: str) -> None:
    preset, changes = changed_value(name)
    rules = PRESETS[preset].rules.replace(**changes)
    players = rules.min_players
    created = served_sqlite.create(
        preset=preset, players=players, options=changes, seats=person_seats(players)
    )
    summary = served_sqlite.http.get(f"/api/tables/{created['code']}").json()
    assert summary["rules"][name] == rules.to_dict()[name]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_a_wrong_value_of_every_option_is_a_400_naming_it(served_sqlite: Served, name: str) -> None:
    wrong = 7 if OPTIONS[name].kind == "choice" else "nonsense"
    response = served_sqlite.http.post(
        "/api/tables",
        json={
            "preset": "classic",
            "players": 2,
            "options": {name: wrong},
            "seats": person_seats(2),
        },
    )
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["field"] == f"options.{name}"
    assert OPTIONS[name].allowed in error["message"]
