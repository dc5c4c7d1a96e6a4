"""The puzzles page in Chromium: a puzzle solved and one failed by clicks, the rating
moving each time, the answer drawn and explained on the board; by taps on a phone; the
home page's link; the page in another language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, LiveServerFactory, watched_page
from triominos.board import Placement
from triominos.explain import Side, where
from triominos.puzzles import REASONS, Puzzle, shipped
from web import open_in, watch_texts

LOCALES = Path(__file__).resolve().parent.parent / "src/triominos/server/static/locales"


PUZZLES_READ_MS = 60_000
"""How long a page may wait for its puzzle: the server reads and checks the shipped
puzzles on first use, seconds on a busy machine."""


def expect_unanswered(page: Page) -> None:
    """Wait until the page shows a puzzle not yet answered."""
    puzzle = page.get_by_test_id("puzzle")
    expect(puzzle).to_have_attribute("data-answered", "false", timeout=PUZZLES_READ_MS)


def placement_puzzles() -> list[Puzzle]:
    """Shipped puzzles whose solution lays another tile than the obvious move."""
    return [
        puzzle
        for puzzle in shipped().puzzles
        if isinstance(puzzle.solution, Placement) and puzzle.solution.tile != puzzle.obvious.tile
    ]


def cell_key(placement: Placement) -> str:
    cell = placement.cell.to_json()
    return f"{cell[0]},{cell[1]},{cell[2]}"


def lay(page: Page, placement: Placement, tap: bool = False) -> None:
    """Choose the tile, show it on its cell, turn it to the corners wanted, and place it."""

    def press(locator: object) -> None:
        getattr(locator, "tap" if tap else "click")()

    press(page.locator(f".rack-tile[data-tile='{placement.tile.name}']"))
    press(page.locator(f"[data-testid=legal-cell][data-cell='{cell_key(placement)}']"))
    preview = page.get_by_test_id("preview")
    expect(preview).to_be_visible()
    corners = ",".join(map(str, placement.corners))
    for _ in range(3):
        if preview.get_attribute("data-corners") == corners:
            break
        press(page.get_by_test_id("rotate"))
    expect(preview).to_have_attribute("data-corners", corners)
    press(page.get_by_test_id("place"))


def drag(page: Page, placement: Placement) -> None:
    """Drag the tile from the rack onto its cell: it lands turned to fit."""
    tile = page.locator(f".rack-tile[data-tile='{placement.tile.name}']")
    start = tile.bounding_box()
    assert start is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 30, start["y"] - 30, steps=4)
    target = page.locator(f"[data-testid=legal-cell][data-cell='{cell_key(placement)}']")
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None
    # The middle of a triangle's box is inside the triangle.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()


def rating(page: Page) -> int:
    return int(page.get_by_test_id("my-rating").inner_text())


def test_solve_one_fail_another_and_the_rating_moves(
    live_server: LiveServerFactory, page: Page, screenshot_dir: Path
) -> None:
    server = live_server()
    solved, failed = placement_puzzles()[:2]
    solution = solved.solution
    assert isinstance(solution, Placement)
    open_in(page, f"{server.base_url}/puzzles/{solved.id}")
    expect_unanswered(page)
    expect(page.get_by_test_id("puzzle-prompt")).to_be_visible()
    assert rating(page) == 1500
    assert page.locator(".rack-tile").count() == len(solved.observation.rack_tiles)

    lay(page, solution)
    result = page.get_by_test_id("puzzle-result")
    expect(result).to_have_attribute("data-solved", "true")
    after_solving = rating(page)
    assert after_solving > 1500
    expect(page.get_by_test_id("rating-change")).to_have_text(f" +{after_solving - 1500}")
    # The solution and the obvious move drawn on the board, the reasons in words.
    expect(page.get_by_test_id("mark-solution")).to_have_attribute("data-cell", cell_key(solution))
    expect(page.get_by_test_id("mark-obvious")).to_have_attribute(
        "data-cell", cell_key(solved.obvious)
    )
    reasons = page.get_by_test_id("puzzle-why").locator("li")
    expect(reasons).to_have_count(len(solved.explanation))
    assert "points more" in reasons.first.inner_text()
    # Each move named by its tile and the tiles beside it, never by coordinates.
    board = solved.observation.board
    for move in (solution, solved.obvious):
        beside = where(board, move.cell).beside
        expect(result).to_contain_text(f"the {move.tile} ")
        expect(result).to_contain_text(f"the {beside[0]}")
    assert not {"\u25b2", "\u25bc"} & set(result.inner_text())
    expect(page.get_by_test_id("legal-cell")).to_have_count(0)  # one answer, then no more
    page.screenshot(path=str(screenshot_dir / "puzzle-solved.png"))

    # The same puzzle again: its result, not a second try.
    page.reload()
    expect(page.get_by_test_id("puzzle-result")).to_have_attribute("data-solved", "true")
    assert rating(page) == after_solving

    # The obvious move is never the answer: its tile dragged onto its cell.
    page.goto(f"{server.base_url}/puzzles/{failed.id}")
    expect_unanswered(page)
    drag(page, failed.obvious)
    expect(page.get_by_test_id("puzzle-result")).to_have_attribute("data-solved", "false")
    assert rating(page) < after_solving
    expect(page.get_by_test_id("rating-change")).to_contain_text("\u2212")

    # Next: a puzzle this browser has not tried, rated near it.
    page.get_by_test_id("next-puzzle").click()
    expect_unanswered(page)
    shown = page.get_by_test_id("puzzle").get_attribute("data-puzzle")
    assert shown not in (solved.id, failed.id) and page.url.endswith(f"/puzzles/{shown}")


def test_the_puzzle_of_the_day_by_taps_on_a_phone(
    live_server: LiveServerFactory, phone_page: Page, screenshot_dir: Path
) -> None:
    page = phone_page
    server = live_server()
    page.emulate_media(reduced_motion="reduce")
    open_in(page, f"{server.base_url}/puzzles/daily")
    expect_unanswered(page)
    daily = shipped().by_id[page.get_by_test_id("puzzle").get_attribute("data-puzzle") or ""]
    page.screenshot(path=str(screenshot_dir / "puzzle-phone.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    for test_id in ("board", "rack", "draw", "my-rating", "pool-size"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, test_id
    if isinstance(daily.solution, Placement):
        lay(page, daily.solution, tap=True)
    else:
        page.get_by_test_id("draw").tap()
    expect(page.get_by_test_id("puzzle-result")).to_have_attribute("data-solved", "true")
    page.screenshot(path=str(screenshot_dir / "puzzle-phone-solved.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Every tile named in the result on one line: "2-2-" never ends a line before "4".
    names = page.get_by_test_id("puzzle-result").locator(".tile-name")
    assert names.count() >= 1
    assert names.evaluate_all("spans => spans.every((span) => span.getClientRects().length === 1)")


def test_the_home_page_leads_to_the_puzzles_in_the_players_language(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    # The one refusal expected: the browser id edited by hand, which the page replaces.
    with watched_page(browser, "status of 400", **DESKTOP) as page:
        missing = watch_texts(page)
        open_in(page, f"{server.base_url}/", language="de")
        page.evaluate("localStorage.setItem('triominos.puzzle_browser', 'not an id')")
        page.get_by_test_id("puzzles-link").click()
        expect_unanswered(page)
        kept = page.evaluate("localStorage.getItem('triominos.puzzle_browser')")
        assert kept != "not an id" and len(kept) == 43
        german = json.loads((LOCALES / "de.json").read_text(encoding="utf-8"))
        expect(page.get_by_test_id("puzzle-prompt")).to_have_text(german["puzzle_prompt"])
        expect(page.get_by_test_id("next-puzzle")).to_have_text(german["puzzle_next"])
        assert not missing


def test_a_puzzle_answered_by_the_keyboard_alone(
    live_server: LiveServerFactory, page: Page
) -> None:
    """D draws, where drawing is the answer; a tile is chosen with Enter, shown on its
    best cell with an arrow, and placed with Enter."""
    server = live_server()
    puzzle = next(p for p in shipped().puzzles if not isinstance(p.solution, Placement))
    open_in(page, f"{server.base_url}/puzzles/{puzzle.id}")
    expect_unanswered(page)
    page.keyboard.press("d")
    result = page.get_by_test_id("puzzle-result")
    expect(result).to_have_attribute("data-solved", "true")
    expect(page.locator("[data-reason=draws]")).to_have_count(1)
    expect(page.get_by_test_id("mark-obvious")).to_have_count(1)

    # The obvious move's tile, by the keyboard: not the answer, wherever it goes.
    other = placement_puzzles()[3]
    page.goto(f"{server.base_url}/puzzles/{other.id}")
    expect_unanswered(page)
    page.locator(f".rack-tile[data-tile='{other.obvious.tile.name}']").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("preview")).to_be_visible()
    page.keyboard.press("r")
    page.keyboard.press("Enter")
    expect(result).to_have_attribute("data-solved", "false")


def test_the_draw_button_keeps_the_keyboard_when_the_page_is_drawn_again(
    live_server: LiveServerFactory, page: Page
) -> None:
    """Escape (like r, or an arrow) changes the choice and draws the page again: the Draw
    button that had the keyboard's focus keeps it, to be pressed with Enter."""
    server = live_server()
    puzzle = next(p for p in shipped().puzzles if not isinstance(p.solution, Placement))
    open_in(page, f"{server.base_url}/puzzles/{puzzle.id}")
    expect_unanswered(page)
    draw = page.get_by_test_id("draw")
    expect(draw).to_be_enabled()
    draw.focus()
    page.keyboard.press("Escape")
    page.keyboard.press("r")
    expect(draw).to_be_focused()
    expect_unanswered(page)


def test_every_reason_and_every_side_has_its_words_in_every_language() -> None:
    """The page builds these keys from the server's names (puzzle_why_<key>,
    puzzle_where_<side>): each declared one has a text in each language."""
    wanted = {f"puzzle_why_{key}" for key in REASONS} | {
        f"puzzle_where_{side}" for side in get_args(Side)
    }
    for code in ("en", "nl", "fr", "de", "es", "pt"):
        texts = json.loads((LOCALES / f"{code}.json").read_text(encoding="utf-8"))
        assert sorted(wanted - set(texts)) == [], code
