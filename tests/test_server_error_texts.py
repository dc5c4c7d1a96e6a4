"""Every refusal the game service can send has a text in each of the page's languages:
a player reads why, in their language, never a bare code (issue 13)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parent.parent / "src" / "triominos" / "server"
LOCALES = SERVER / "static" / "locales"
MODULES = ("guard.py", "protocol.py", "routes.py", "service.py", "tablestate.py", "ws.py")


def refusal_codes() -> set[str]:
    """The codes of every ``ApiError(status, code, …)`` and ``Refused(code, …)``."""
    codes = set()
    for name in MODULES:
        for node in ast.walk(ast.parse((SERVER / name).read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            position = {"ApiError": 1, "Refused": 0}.get(node.func.id)
            if position is None or len(node.args) <= position:
                continue
            code = node.args[position]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes.add(code.value)
    return codes


def test_the_codes_are_found() -> None:
    codes = refusal_codes()
    assert {"bad_host", "away_grace", "too_many_tables", "unavailable", "illegal"} <= codes


@pytest.mark.parametrize("language", ["en", "nl", "fr", "de", "es", "pt"])
def test_every_refusal_has_a_text(language: str) -> None:
    texts = json.loads((LOCALES / f"{language}.json").read_text())
    missing = sorted(code for code in refusal_codes() if f"error_{code}" not in texts)
    assert not missing, missing
