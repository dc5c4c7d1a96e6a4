"""A finished match's analysis in Chromium: asked for from the replay, its progress, then
each move's loss and mark, the best alternative as a ghost tile, the graph, and the
marks stepped through; a second visitor gets it at once."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE, LiveServerFactory, watched_page
from test_web_table_finished import bots_table, finished_record
from web import FAST_BOTS, open_in, post_table, watch_texts

QUICK_ANALYSIS = {**FAST_BOTS, "TRIOMINOS_ANALYSIS_SIMS": "30"}
"""Bots that move at once, and an analysis of a few simulations a decision."""


def cell_key(cell: list[Any]) -> str:
    return ",".join(map(str, cell))


def test_analyse_a_finished_match_and_step_through_its_marks(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server(**QUICK_ANALYSIS)
    code = bots_table(server)
    missing = watch_texts(page)
    open_in(page, f"{server.base_url}/")
    record = finished_record(server, code, page)
    open_in(page, f"{server.base_url}/t/{code}?replay=1")
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis-summary")).to_be_visible(timeout=60_000)
    analysis = httpx.get(f"{server.base_url}/api/tables/{code}/analysis").json()["analysis"]
    decisions = analysis["decisions"]
    marked = [decision for decision in decisions if decision["mark"]]
    assert marked, "a random bot's match has marked moves"
    expect(page.get_by_test_id("mark-count")).to_have_text(f"{len(marked)} marked moves")
    expect(page.get_by_test_id("analysis-summary").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("graph-line")).to_have_count(2)

    # Every move of the list has its loss beside it, the marked ones their mark.
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("loss")).to_have_count(len(decisions))
    expect(page.locator("[data-testid=loss][data-mark=blunder]")).to_have_count(
        sum(decision["mark"] == "blunder" for decision in decisions)
    )

    # The marks, one after another: the move shown, its mark, the best move as a ghost.
    page.get_by_test_id("replay-first").click()
    for decision in marked[:3]:
        page.get_by_test_id("mark-next").click()
        current = page.locator("[aria-current=step]")
        expect(current).to_have_attribute("data-hand", str(decision["hand"]))
        expect(current).to_have_attribute("data-index", str(decision["index"]))
        expect(current.get_by_test_id("loss")).to_have_attribute("data-mark", decision["mark"])
        expect(page.get_by_test_id("analysis-mark")).to_contain_text(decision["mark"])
        expect(page.get_by_test_id("graph-now")).to_have_count(1)
        if decision["best"]["action"] == "place":
            ghost = page.get_by_test_id("preview")
            expect(ghost).to_have_attribute("data-cell", cell_key(decision["best"]["cell"]))
        else:
            expect(page.get_by_test_id("preview")).to_have_count(0)
            expect(page.get_by_test_id("analysis-note")).to_contain_text(decision["best"]["action"])
    if len(marked) > 1:
        page.get_by_test_id("mark-prev").click()
        previous = marked[min(len(marked), 3) - 2]
        expect(page.locator("[aria-current=step]")).to_have_attribute(
            "data-index", str(previous["index"])
        )

    # A second visitor gets the analysis at once, without asking for it.
    with watched_page(browser, **DESKTOP) as second:
        open_in(second, f"{server.base_url}/t/{code}?replay=1")
        expect(second.get_by_test_id("analysis-summary")).to_be_visible()
        expect(second.get_by_test_id("analyse")).to_have_count(0)
    assert len(record["hands"]) >= 1
    assert missing == []


def sheet_fits(page: Page) -> dict[str, float]:
    """The move list's height, and how far its widest row and its points column reach past
    its right edge (0 when nothing is cut off)."""
    result: dict[str, float] = page.evaluate(
        """() => {
            const sheet = document.querySelector('[data-testid=score-sheet]');
            const right = sheet.getBoundingClientRect().right;
            const cells = [...sheet.querySelectorAll('td.points')];
            return {
                height: sheet.clientHeight,
                overflow: sheet.scrollWidth - sheet.clientWidth,
                past: Math.max(0, ...cells.map((c) => c.getBoundingClientRect().right - right)),
            };
        }"""
    )
    return result


def test_the_replays_graph_has_axes_hands_marks_and_a_legend_at_phone_and_desktop(
    live_server: LiveServerFactory, browser: Browser, screenshot_dir: Path
) -> None:
    server = live_server(**QUICK_ANALYSIS)
    code = bots_table(server)
    with watched_page(browser, **DESKTOP) as page:
        missing = watch_texts(page)
        open_in(page, f"{server.base_url}/")
        finished_record(server, code, page)
        open_in(page, f"{server.base_url}/t/{code}?replay=1")
        page.get_by_test_id("analyse").click()
        expect(page.get_by_test_id("analysis-summary")).to_be_visible(timeout=60_000)
        decisions = httpx.get(f"{server.base_url}/api/tables/{code}/analysis").json()["analysis"][
            "decisions"
        ]
        graph = page.get_by_test_id("analysis-graph")
        # Points up and the moves across, each axis with numbered ticks.
        for axis in ("graph-y-tick", "graph-x-tick"):
            labels = graph.get_by_test_id(axis).all_text_contents()
            assert len(labels) >= 2 and all(label.lstrip("\u2212").isdigit() for label in labels)
        # A dashed line where each hand after the first begins.
        hands = {decision["hand"] for decision in decisions}
        expect(graph.get_by_test_id("graph-hand")).to_have_count(len(hands) - 1)
        # Each marked move a symbol of its mark (a polygon, not a dot of a line).
        marks = [decision["mark"] for decision in decisions if decision["mark"]]
        symbols = graph.get_by_test_id("graph-mark")
        expect(symbols).to_have_count(len(marks))
        assert sorted(symbols.evaluate_all("nodes => nodes.map((n) => n.dataset.mark)")) == sorted(
            marks
        )
        assert symbols.evaluate_all("nodes => nodes.every((n) => n.tagName === 'polygon')")
        legend = page.get_by_test_id("graph-legend")
        for words in ("Greta", "?! inaccuracy", "? mistake", "?? blunder", "a new hand"):
            expect(legend).to_contain_text(words)
        # The move list: tall enough to read, its points column whole.
        page.get_by_test_id("replay-last").click()
        fits = sheet_fits(page)
        assert fits["height"] >= 240 and fits["overflow"] <= 0 and fits["past"] <= 0.5, fits
        page.screenshot(path=str(screenshot_dir / "replay-analysis-desktop.png"))
        assert missing == []

    with watched_page(browser, **PHONE) as phone:
        open_in(phone, f"{server.base_url}/t/{code}?replay=1")
        expect(phone.get_by_test_id("analysis-graph")).to_be_visible()
        phone.get_by_test_id("replay-last").click()
        fits = sheet_fits(phone)
        assert fits["height"] >= 240 and fits["overflow"] <= 0 and fits["past"] <= 0.5, fits
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        # Each title stays with its part: Analysis, then its box; Scores, then the table.
        tops = [
            phone.get_by_role("heading", name=name).bounding_box()
            for name in ("Analysis", "Scores", "Moves")
        ]
        parts = [
            phone.get_by_test_id(test_id).bounding_box()
            for test_id in ("analysis", "score-table", "score-sheet")
        ]
        order = [box["y"] for pair in zip(tops, parts, strict=True) for box in pair if box]
        assert len(order) == 6 and order == sorted(order), order
        phone.screenshot(path=str(screenshot_dir / "replay-analysis-phone.png"), full_page=True)


def test_a_childrens_match_not_yet_analysed_shows_the_button_and_no_null(
    live_server: LiveServerFactory, page: Page
) -> None:
    """The box under Analysis held the button and a left-out (null) refusal, which
    replaceChildren wrote as the text "null"."""
    server = live_server(**FAST_BOTS)
    answer = post_table(
        server,
        {
            "preset": "classic-children",
            "players": 2,
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        },
    )
    open_in(page, f"{server.base_url}/")
    finished_record(server, answer["code"], page)
    open_in(page, f"{server.base_url}/t/{answer['code']}?replay=1")
    box = page.get_by_test_id("analysis")
    expect(box.get_by_test_id("analyse")).to_be_visible()
    expect(box).to_have_text("Analyse")
