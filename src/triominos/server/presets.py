"""``GET /api/presets``: every preset with each rule option's declaration and value,
and the option texts in the six languages, from which the home page and the score pad
build their forms (nothing about an option is typed out in the pages)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from triominos.rules import OPTIONS, PRESETS

LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")
"""The languages of the rulebooks, as the pages' i18n.js speaks them."""

RULE_TEXTS = Path(__file__).parent / "static" / "locales" / "rules"
"""One file a language: each option's label (``rule.NAME``), help (``rule.NAME.help``)
and each choice's words (``rule.NAME.CHOICE``), shared by both pages."""


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
        "presets": [preset.to_json() for preset in PRESETS.values()],
        "options": list(OPTIONS),
        "rule_texts": rule_texts(),
    }
