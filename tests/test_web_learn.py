""" "Learn to play" in Chromium: each edition's whole lesson played by clicks, in two
languages, at desktop and phone sizes; a wrong move explained on the board; the first
game against the gentlest bot, hints on, one click after the last step; the links from
the home page and the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright")

import httpx  # the web extras, which the core-only run has not
from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE, LiveServerFactory, watched_page
from triominos.board import Placement
from triominos.learn import LESSONS, Step
from triominos.notation import move_from_text
from web import STATIC, ann_and_bob, open_in, watch_texts

LOCALES = STATIC / "locales"


def messages(language: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    return texts


def cell_key(placement: Placement) -> str:
    cell = placement.cell.to_json()
    return f"{cell[0]},{cell[1]},{cell[2]}"


def lay(page: Page, placement: Placement) -> None:
    """Choose the tile, show it on its cell, turn it to the corners wanted, place it."""
    page.locator(f".rack-tile[data-tile='{placement.tile.name}']").click()
    page.locator(f"[data-testid=legal-cell][data-cell='{cell_key(placement)}']").click()
    preview = page.get_by_test_id("preview")
    expect(preview).to_be_visible()
    corners = ",".join("" if number is None else str(number) for number in placement.corners)
    for _ in range(3):
        if preview.get_attribute("data-corners") == corners:
            break
        page.get_by_test_id("rotate").click()
    page.get_by_test_id("place").click()


def do_step(page: Page, step: Step) -> None:
    """The step's first expected move, by clicks."""
    expected = step.expected[0]
    if expected in ("draw", "pass"):
        page.get_by_test_id(expected).click()
    elif expected == "starter":
        page.get_by_test_id("starter-draw").click()
    else:
        move = move_from_text(expected, step.hand().board)
        assert isinstance(move, Placement)
        lay(page, move)


def play_lesson(page: Page, base_url: str, edition: str, language: str) -> None:
    """The whole lesson, step by step, checking each step's goal and result texts."""
    texts = messages(language)
    page.emulate_media(reduced_motion="reduce")
    open_in(page, f"{base_url}/learn/{edition}", language)
    lesson = page.get_by_test_id("learn")
    steps = LESSONS[edition].steps
    for number, step in enumerate(steps):
        expect(lesson).to_have_attribute("data-step", str(number))
        expect(lesson).to_have_attribute("data-solved", "false")
        expect(page.get_by_test_id("learn-goal")).to_have_text(
            texts[f"learn_{edition}_{step.key}_goal"]
        )
        do_step(page, step)
        verdict = page.get_by_test_id("learn-verdict")
        expect(verdict).to_have_attribute("data-correct", "true")
        done = page.get_by_test_id("learn-done")
        if "{points}" in texts[f"learn_{edition}_{step.key}_done"]:
            points = f"+{step.points}" if step.points > 0 else f"\u2212{-step.points}"
            expect(done).to_contain_text(points)
        if number + 1 < len(steps):
            page.get_by_test_id("learn-next").click()
    expect(page.get_by_test_id("learn-first-game")).to_be_visible()


@pytest.mark.parametrize("edition", list(LESSONS))
def test_each_lesson_played_by_clicks_in_two_languages(
    live_server: LiveServerFactory, browser: Browser, edition: str, screenshot_dir: Path
) -> None:
    server = live_server()
    for language, size in (("en", DESKTOP), ("nl", PHONE)):
        with watched_page(browser, **size) as page:
            missing = watch_texts(page)
            play_lesson(page, server.base_url, edition, language)
            page.screenshot(path=str(screenshot_dir / f"learn-{edition}-{language}.png"))
            if size is PHONE:
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert missing == []


def test_a_wrong_move_is_explained_not_just_refused(
    live_server: LiveServerFactory, page: Page, screenshot_dir: Path
) -> None:
    server = live_server()
    texts = messages("de")
    open_in(page, f"{server.base_url}/learn/classic", "de")
    lesson = page.get_by_test_id("learn")
    page.get_by_test_id("learn-goal").wait_for()
    do_step(page, LESSONS["classic"].steps[0])
    page.get_by_test_id("learn-next").click()
    expect(lesson).to_have_attribute("data-key", "corners")
    # 1-2-5 fits nowhere: the corner that does not match is named and marked.
    page.locator(".rack-tile[data-tile='1-2-5']").click()
    reasons = page.get_by_test_id("learn-reason")
    expect(reasons).to_have_count(2)
    expect(reasons.first).to_have_attribute("data-reason", "fits_nowhere")
    expect(reasons.nth(1)).to_have_attribute("data-reason", "corner")
    expect(reasons.nth(1)).to_contain_text("5")
    expect(page.get_by_test_id("mark-learn-corner")).to_have_count(1)
    assert texts["learn_why_fits_nowhere"].split("{tile}")[1][:8] in reasons.first.inner_text()
    page.screenshot(path=str(screenshot_dir / "learn-corner-de.png"))
    do_step(page, LESSONS["classic"].steps[1])
    page.get_by_test_id("learn-next").click()
    expect(lesson).to_have_attribute("data-key", "scoring")
    # A legal tile that scores less: told by how much, and the step stays to be done.
    lay(page, move_from_text("055@-1,0v", LESSONS["classic"].steps[2].hand().board))  # type: ignore[arg-type]
    expect(page.get_by_test_id("learn-verdict")).to_have_attribute("data-correct", "false")
    expect(reasons).to_have_count(1)
    expect(reasons.first).to_have_attribute("data-reason", "less")
    expect(reasons.first).to_contain_text("+10")
    expect(reasons.first).to_contain_text("+13")
    do_step(page, LESSONS["classic"].steps[2])
    expect(page.get_by_test_id("learn-verdict")).to_have_attribute("data-correct", "true")


def test_the_first_game_after_the_lesson_is_against_the_beginner_with_hints(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    play_lesson(page, server.base_url, "junior", "en")
    page.get_by_test_id("learn-first-game").click()
    page.wait_for_url(f"{server.base_url}/t/*")
    code = page.url.rsplit("/", 1)[1]
    summary = httpx.get(f"{server.base_url}/api/tables/{code}").json()
    assert summary["preset"] == "junior"
    assert summary["hints"] is True
    assert [seat["kind"] for seat in summary["seats"]] == ["person", "bot"]
    assert summary["seats"][1]["bot"] == "random"
    expect(page.get_by_test_id("table")).to_be_visible()


def test_the_lessons_are_linked_from_home_and_every_table(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/")
    page.get_by_test_id("learn-link").click()
    expect(page.get_by_test_id("learn-lessons")).to_be_visible()
    for edition in LESSONS:
        expect(page.get_by_test_id(f"learn-{edition}")).to_have_attribute(
            "href", f"/learn/{edition}"
        )
    code = ann_and_bob(server)["code"]
    page.goto(f"{server.base_url}/t/{code}")
    expect(page.get_by_test_id("learn-link")).to_have_attribute("href", "/learn")
    expect(page.get_by_test_id("rules-link")).to_have_attribute(
        "href", f"/rules/classic?table={code}"
    )


def test_each_level_says_its_strength_where_it_is_chosen(
    live_server: LiveServerFactory, page: Page
) -> None:
    """From the Elo gaps of README's ladder: 248 and 224 are about 4 games in 5, 408 about
    9 in 10; at the home page's seat and at a table's "Let a bot play"."""
    server = live_server()
    open_in(page, f"{server.base_url}/")
    page.get_by_test_id("players-2").locator("..").click()
    said = page.get_by_test_id("level-strength-1")
    for level, words in (
        ("random", "Plays any tile that fits."),
        ("greedy", "Beats the Beginner bot about 4 games in 5."),
        ("expert", "Beats the Easy bot about 4 games in 5."),
        ("sim", "Beats the Good bot about 9 games in 10."),
    ):
        page.get_by_test_id("seat-1").select_option(f"bot:{level}")
        expect(said).to_have_text(words)
    page.get_by_test_id("language").select_option("fr")
    expect(said).to_have_text("Bat le bon robot environ 9 parties sur 10.")
