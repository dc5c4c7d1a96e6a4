"""A finished match's analysis in Chromium: asked for from the replay, its progress, then
each move's loss and mark, the best alternative as a ghost tile, the graph, and the
marks stepped through; a second visitor gets it at once."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, LiveServerFactory, watched_page
from test_web_table_finished import bots_table, finished_record
from web import FAST_BOTS, open_in, watch_texts

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
