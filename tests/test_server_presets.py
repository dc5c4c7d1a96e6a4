"""``GET /api/presets`` gives every option's declaration, value and texts, and
``POST /api/tables`` takes every option (or answers 400 naming it)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from rule_values import changed_value
from server_games import Served
from triominos.rules import ALL_SEEDS, OPTIONS, PRESETS, Preset, Rules
from triominos.server.presets import LANGUAGES, RULEBOOK_LANGUAGES, edition, rule_texts
from triominos.tiles import TILE_SETS


def option_keys() -> set[str]:
    """Every text key the declarations ask for."""
    keys = {"rule.none", "rule.more.one", "rule.more.other"}
    keys |= {"rule.rack_sizes.players.one", "rule.rack_sizes.players.other"}
    for option in OPTIONS.values():
        keys |= {option.label_key, option.help_key}
        keys |= {option.value_key(choice) for choice in option.choices}
    # The presets' plain names (rule_form.js's editionName and editionDetail).
    keys |= {f"edition.{box}" for box in TILE_SETS}
    keys |= {f"edition.{text}" for text in ("children", "rulebook", "named")}
    keys |= {"edition.rulebook_detail", "edition.follows"}
    return keys


def test_each_preset_is_named_by_its_box_and_what_sets_it_apart() -> None:
    named = {name: edition(preset) for name, preset in PRESETS.items()}
    classic = named["classic"]
    assert (classic["box"], classic["tiles"], classic["variant"]) == ("classic", 56, None)
    numbers = [book["number"] for book in classic["rulebooks"]]
    assert numbers == [seed.split("_")[0] for seed in PRESETS["classic"].seeds]
    assert {"number": "003", "languages": ["fr"]} in edition(PRESETS["classic-003"])["rulebooks"]
    assert (named["extended"]["box"], named["extended"]["tiles"]) == ("extended", 76)
    assert named["junior"]["variant"] is None
    assert named["classic-children"]["variant"] == "children"
    assert named["extended-children"]["variant"] == "children"
    # No two presets a person chooses from read alike ("other" is named by the preset).
    names = [
        (e["box"], e["variant"], e["language"], e["variant"] == "other" and name)
        for name, e in named.items()
    ]
    assert len(set(names)) == len(names)
    assert set(RULEBOOK_LANGUAGES) == set(ALL_SEEDS)


def test_a_new_preset_is_named_from_its_declaration() -> None:
    seed = PRESETS["classic"].seeds[0]
    one_book = Preset("classic-kitchen", Rules(hexagon_bonus=60), (seed,), "a new preset", ())
    assert edition(one_book)["variant"] == "rulebook"
    assert edition(one_book)["language"] == RULEBOOK_LANGUAGES[seed][0]
    two_books = Preset(
        "extended-kitchen", Rules(tile_set="extended"), ALL_SEEDS[1:3], "another", ()
    )
    assert (edition(two_books)["variant"], edition(two_books)["tiles"]) == ("other", 76)


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
        assert entry == {**preset.to_json(), "edition": edition(preset)}
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
