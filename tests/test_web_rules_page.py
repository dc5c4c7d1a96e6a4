"""The rules pages in Chromium: every preset's page in each of the six languages, the
option texts in that language and RULES.md's English marked as such; a table's choices
beside its edition's; the "Rules" link at a table; phone and desktop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import PHONE, LiveServerFactory, watched_page
from triominos.rules import OPTIONS, PRESETS
from web import STATIC, post_table, watch_texts

LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")


def texts(directory: Path, language: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((directory / f"{language}.json").read_text("utf-8"))
    return loaded


def test_every_preset_has_a_page_in_each_language(
    live_server: LiveServerFactory, page: Page, screenshot_dir: Path
) -> None:
    server = live_server()
    missing = watch_texts(page)
    page.goto(f"{server.base_url}/rules")
    for language in LANGUAGES:
        page.evaluate(f"localStorage.setItem('triominos.lang', '{language}')")
        messages = texts(STATIC / "locales", language)
        option_texts = texts(STATIC / "locales" / "rules", language)
        for name, chosen in PRESETS.items():
            page.goto(f"{server.base_url}/rules/{name}")
            box = option_texts[f"edition.{chosen.rules.tile_set}"]
            plain = box.replace("{count}", str(len(chosen.rules.tiles.tiles)))
            expect(page.get_by_test_id("rules-name")).to_contain_text(plain)
            tile_set = page.get_by_test_id("rule-tile_set")
            expect(tile_set).to_contain_text(option_texts["rule.tile_set"])
            expect(tile_set).to_contain_text(option_texts[f"rule.tile_set.{chosen.rules.tile_set}"])
            expect(page.locator("[data-testid^=rule-]")).to_have_count(len(OPTIONS))
            for figure in ("bridge", "hexagon"):
                shown = page.get_by_test_id(f"figure-{figure}")
                expect(shown.locator("svg")).to_have_count(1)
                expect(shown).to_contain_text(messages[f"bonus_{figure}"])
            expect(page.get_by_test_id("rules-text")).to_have_attribute("lang", "en")
            expect(page.get_by_test_id("rules-in-english")).to_have_count(
                0 if language == "en" else 1
            )
        if language in ("en", "de"):
            page.screenshot(path=str(screenshot_dir / f"rules-classic-{language}.png"))
    assert missing == []


def test_a_tables_choices_beside_its_editions_and_on_a_phone(
    live_server: LiveServerFactory, browser: Browser, screenshot_dir: Path
) -> None:
    server = live_server()
    created = post_table(
        server,
        {
            "preset": "classic",
            "players": 2,
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
            "options": {"bridge_bonus": 30, "max_draws": 1},
        },
    )
    code = created["code"]
    with watched_page(browser, **PHONE) as page:
        page.goto(f"{server.base_url}/t/{code}")
        page.evaluate("localStorage.setItem('triominos.lang', 'fr')")
        page.goto(f"{server.base_url}/t/{code}")
        page.get_by_test_id("tab-players").click()  # on a phone the links sit with the players
        page.get_by_test_id("rules-link").click()
        page.wait_for_url(f"**/rules/classic?table={code}")
        changed = page.locator("tr[data-changed=true]")
        expect(changed).to_have_count(2)
        bridge = page.get_by_test_id("rule-bridge_bonus")
        expect(bridge.locator("td").nth(1)).to_have_text("40")
        expect(bridge.get_by_test_id("table-value")).to_have_text("30")
        expect(page.get_by_test_id("rule-max_draws").get_by_test_id("table-value")).to_have_text(
            "1"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(screenshot_dir / "rules-table-fr-phone.png"), full_page=True)
