"""RULES.md agrees with the declarations: its table of options is the one they make
(every option, each preset's value, what is allowed, the meaning, the seeds), and its
table of rulebooks names a preset for every seed that follows it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from triominos.rules import ALL_SEEDS, OPTIONS, PRESETS

RULES_MD = Path(__file__).resolve().parent.parent / "RULES.md"


def value_words(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, dict):
        return ", ".join(f"{players}:{size}" for players, size in value.items())
    return str(value)


def options_table() -> str:
    """RULES.md section 7's table, as the declarations make it."""
    values = {name: preset.rules.to_dict() for name, preset in PRESETS.items()}
    lines = [
        "| option | "
        + " | ".join(f"`{name}`" for name in PRESETS)
        + " | allowed | meaning | seeds |",
        "| --- " * (len(PRESETS) + 4) + "|",
    ]
    for name, option in OPTIONS.items():
        cells = [f"`{name}`", *(value_words(values[preset][name]) for preset in PRESETS)]
        seeds = ", ".join(seed[:3] for seed in option.seeds)
        cells += [option.allowed, option.meaning, seeds]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def test_the_options_table_is_the_declarations() -> None:
    expected = options_table()
    assert expected in RULES_MD.read_text(encoding="utf-8"), (
        "RULES.md section 7 differs from the declarations; the table should read:\n" + expected
    )


def test_the_rulebooks_table_has_a_column_per_seed_and_names_presets_that_follow_it() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| rule | seed 000"))
    assert header == "| rule | " + " | ".join(f"seed {seed[:3]}" for seed in ALL_SEEDS) + " |"
    footer = next(line for line in text.splitlines() if line.startswith("| **preset** |"))
    named = re.findall(r"`([\w-]+)`", footer)
    assert len(named) == len(ALL_SEEDS)
    for seed, name in zip(ALL_SEEDS, named, strict=True):
        assert seed in PRESETS[name].seeds
