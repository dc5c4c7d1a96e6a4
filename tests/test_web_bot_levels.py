"""The bot levels are declared once, in Python (triominos.bots.levels): the server
answers them at GET /api/bots and the browser's static/bots.js has exactly those."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

import httpx  # the web extras, which the core-only run has not
from playwright.sync_api import Page

from conftest import LiveServerFactory
from triominos.bots.levels import DEFAULT_LEVEL, OFFERED, levels_json


def test_the_browsers_levels_are_the_python_declaration(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    assert httpx.get(f"{server.base_url}/api/bots").json() == levels_json()
    page.goto(f"{server.base_url}/")
    seen = page.evaluate(
        """async () => {
            const bots = await import("/static/bots.js");
            return { levels: bots.LEVELS, default: bots.DEFAULT_LEVEL };
        }"""
    )
    assert seen["levels"] == [level.to_json() for level in OFFERED]
    assert seen["default"] == DEFAULT_LEVEL
    assert DEFAULT_LEVEL in {level.id for level in OFFERED}
