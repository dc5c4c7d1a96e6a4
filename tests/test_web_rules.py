"""The house-rule forms of the home page and of the score pad, built from the option
declarations of ``/api/presets``: every option is on both forms with its texts in the
chosen language, sends the value set, and a wrong value is refused naming it; the table
shows seed 002's gong."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page, Route, expect

from conftest import LiveServerFactory, watched_page
from rule_values import changed_value
from triominos.rules import OPTIONS, PRESETS
from triominos.server.presets import LANGUAGES, rule_texts
from web import FAST_BOTS, create_game, open_in, play_turn, table_state, watch_texts


def changes_by_preset() -> dict[str, dict[str, Any]]:
    """For every option, another value on some preset, grouped by preset: the option's
    own value only (the form sends what is set; the server, not asked here, checks)."""
    grouped: dict[str, dict[str, Any]] = defaultdict(dict)
    for name in OPTIONS:
        preset, changes = changed_value(name)
        grouped[preset][name] = changes[name]
    return dict(grouped)


CHANGES = changes_by_preset()


def set_option(page: Page, name: str, value: Any) -> None:
    """Give option ``name`` ``value`` through its field, by the option's kind."""
    kind = OPTIONS[name].kind
    field = page.get_by_test_id(f"rule-{name}")
    if kind == "flag":
        field.set_checked(value)
    elif kind == "choice":
        field.select_option(value)
    elif kind == "whole":
        field.fill("" if value is None else str(value))
    else:
        for players, size in value.items():
            page.get_by_test_id(f"rule-{name}-{players}").fill(str(size))


def catch_post(page: Page, url: str) -> dict[str, Any]:
    """Catch the POST to ``url`` and answer it with a refusal; the dictionary returned
    holds its body once the page has sent it."""
    sent: dict[str, Any] = {}

    def refuse(route: Route) -> None:
        sent.update(json.loads(route.request.post_data or "{}"))
        route.fulfill(
            status=400,
            content_type="application/json",
            body=json.dumps({"error": {"code": "bad_request", "message": "caught by the test"}}),
        )

    page.route(url, refuse)
    return sent


def test_every_option_has_a_field_on_both_forms(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    for url in (f"{server.base_url}/", f"{server.base_url}/pad"):
        open_in(page, url)
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("more-rules").click()
        fields = page.locator(".rule[data-option]")
        expect(fields).to_have_count(len(OPTIONS))
        # The common options first, then the rest, each group in declaration order.
        grouped = sorted(OPTIONS, key=lambda name: not OPTIONS[name].common)
        assert [fields.nth(i).get_attribute("data-option") for i in range(len(OPTIONS))] == grouped


@pytest.mark.parametrize("preset", sorted(CHANGES))
def test_the_home_form_sends_every_option_set(
    live_server: LiveServerFactory, browser: Browser, preset: str
) -> None:
    server = live_server()
    with watched_page(browser, "status of 400") as page:
        open_in(page, f"{server.base_url}/")
        page.get_by_test_id(f"preset-{preset}").locator("..").click()
        page.get_by_test_id("your-name").fill("Ann")
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("more-rules").click()  # the options not common, behind "More"
        for name, value in CHANGES[preset].items():
            set_option(page, name, value)
        sent = catch_post(page, "**/api/tables")
        page.get_by_test_id("create").click()
        expect(page.get_by_test_id("toast")).to_be_visible()
    assert sent["preset"] == preset and sent["options"] == CHANGES[preset]


@pytest.mark.parametrize("preset", sorted(CHANGES))
def test_the_pad_form_sends_every_option_set(
    live_server: LiveServerFactory, browser: Browser, preset: str
) -> None:
    server = live_server()
    with watched_page(browser, "status of 400") as page:
        open_in(page, f"{server.base_url}/pad")
        page.get_by_test_id("preset").select_option(preset)
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("more-rules").click()  # the options not common, behind "More"
        for name, value in CHANGES[preset].items():
            set_option(page, name, value)
        page.get_by_test_id("name-0").fill("Ann")
        page.get_by_test_id("name-1").fill("Bob")
        sent = catch_post(page, "**/api/pad/games")
        page.get_by_test_id("start").click()
        expect(page.locator("#notice")).to_be_visible()
    assert sent["preset"] == preset and sent["options"] == CHANGES[preset]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fields_speak_the_chosen_language(
    live_server: LiveServerFactory, page: Page, language: str
) -> None:
    texts = rule_texts()[language]
    server = live_server()
    missing = watch_texts(page)
    for url in (f"{server.base_url}/", f"{server.base_url}/pad"):
        open_in(page, url, language)
        page.get_by_test_id("house-rules").click()
        field = page.locator(".rule[data-option=match_end]")
        expect(field.locator(".rule-label")).to_have_text(texts["rule.match_end"])
        expect(field.locator(".rule-help")).to_have_text(texts["rule.match_end.help"])
        expect(field.locator("option[value=gong]")).to_have_text(texts["rule.match_end.gong"])
        expect(page.get_by_test_id("rule-hand_limit")).to_have_attribute(
            "placeholder", texts["rule.none"]
        )
    assert missing == []


def test_a_wrong_value_is_refused_naming_the_option_on_both_forms(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    """An emptied draw penalty (no "none" for it): the server answers 400 with the field
    ``options.draw_penalty`` and each page names the option by its label, in French."""
    label = rule_texts()["fr"]["rule.draw_penalty"]
    server = live_server()
    with watched_page(browser, "status of 400") as page:
        open_in(page, f"{server.base_url}/", "fr")
        page.get_by_test_id("your-name").fill("Ann")
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("rule-draw_penalty").fill("")
        page.get_by_test_id("create").click()
        expect(page.get_by_test_id("toast")).to_contain_text(label)
        open_in(page, f"{server.base_url}/pad", "fr")
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("rule-draw_penalty").fill("")
        page.get_by_test_id("name-0").fill("Ann")
        page.get_by_test_id("name-1").fill("Bob")
        page.get_by_test_id("start").click()
        expect(page.locator("#notice")).to_contain_text(label)


def test_the_table_shows_the_gong_when_it_sounds(
    live_server: LiveServerFactory, page: Page
) -> None:
    """Seed 002's preset to 1 point: the opening rings the gong, and the hand plays on."""
    assert PRESETS["classic-002"].rules.match_end == "gong"
    server = live_server(**FAST_BOTS)
    create_game(page, server, preset="classic-002", rules={"target_score": "1"})
    while page.get_by_test_id("gong").count() == 0:
        assert table_state(page) == "turn"
        play_turn(page)
    expect(page.get_by_test_id("gong")).to_contain_text("this hand is the last")
