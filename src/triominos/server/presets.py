"""``GET /api/presets``: every preset with each rule option's declaration and value,
its edition (what a person choosing it reads), and the option texts in the six
languages, from which the home page and the score pad build their forms and name the
presets (nothing about an option or a preset is typed out in the pages)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from triominos.rules import (
    CHILDREN_SCORING,
    OPTIONS,
    PRESETS,
    SEED_CLASSIC_FR,
    SEED_CLASSIC_NL,
    SEED_EXTENDED_ES_PT,
    SEED_EXTENDED_NL_DE,
    SEED_JUNIOR,
    Preset,
)

LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")
"""The languages of the rulebooks, as the pages' i18n.js speaks them."""

RULE_TEXTS = Path(__file__).parent / "static" / "locales" / "rules"
"""One file a language: each option's label (``rule.NAME``), help (``rule.NAME.help``)
and each choice's words (``rule.NAME.CHOICE``), shared by both pages."""


RULEBOOK_LANGUAGES: dict[str, tuple[str, ...]] = {
    SEED_JUNIOR: ("nl",),
    SEED_EXTENDED_NL_DE: ("nl", "de"),
    SEED_CLASSIC_NL: ("nl",),
    SEED_CLASSIC_FR: ("fr",),
    SEED_EXTENDED_ES_PT: ("es", "pt"),
}
"""The languages each rulebook (seed file) is written in: how a page names it."""


def edition(preset: Preset) -> dict[str, Any]:
    """What a page names ``preset`` by, derived from its declaration so that a new preset
    is named without a text of its own: its box (``tile_set``) and number of tiles; a
    ``variant`` when it is not the box's own preset (named like the box): ``children``
    when it scores as :data:`CHILDREN_SCORING`, ``rulebook`` when it follows one
    rulebook (named by its ``language``), else ``other`` (named by the preset's name);
    and the rulebooks it follows, each by number and languages, as the detail."""
    rules = preset.rules
    values = rules.to_dict()
    variant: str | None = None
    language: str | None = None
    if preset.name != rules.tile_set:
        if rules.tile_set != "junior" and all(
            values[name] == value for name, value in CHILDREN_SCORING.items()
        ):
            variant = "children"
        elif len(preset.seeds) == 1:
            variant, language = "rulebook", RULEBOOK_LANGUAGES[preset.seeds[0]][0]
        else:
            variant = "other"
    return {
        "box": rules.tile_set,
        "tiles": len(rules.tiles.tiles),
        "variant": variant,
        "language": language,
        "rulebooks": [
            {"number": seed.split("_")[0], "languages": list(RULEBOOK_LANGUAGES[seed])}
            for seed in preset.seeds
        ],
    }


@cache
def rule_texts() -> dict[str, dict[str, str]]:
    """The option texts by language code."""
    return {
        code: json.loads((RULE_TEXTS / f"{code}.json").read_text(encoding="utf-8"))
        for code in LANGUAGES
    }


def presets_payload() -> dict[str, Any]:
    """The presets as the pages want them: see the module docstring."""
    return {
        "presets": [
            {**preset.to_json(), "edition": edition(preset)} for preset in PRESETS.values()
        ],
        "options": list(OPTIONS),
        "rule_texts": rule_texts(),
    }
