"""No "null", "undefined" or "NaN" on any page a family meets, in any of the six
languages: a finished match (its table and its replay, before and after the analysis), a
table being played, the score pad and a puzzle (before and after the answer).

One browser page walks them all; at each, the page's own language picker switches through
the six languages, and the visible text and every accessible name or description (labels,
titles, alternative texts, placeholders, SVG titles) are searched for the three words, which
only a value left unset writes."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

import httpx
from playwright.sync_api import Page, expect

from conftest import LiveServer, LiveServerFactory
from test_web_analysis import QUICK_ANALYSIS
from test_web_pad import lay, small_game
from test_web_table_finished import bots_table, finished_record
from triominos.game import Draw
from triominos.puzzles import shipped
from web import ann_and_bob, open_in

LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")

UNSET_WORDS = r"\b(null|undefined|NaN)\b"

FIND_UNSET = """(pattern) => {
    const unset = new RegExp(pattern);
    const found = [];
    const look = (where, text) => {
        const match = unset.exec(text ?? '');
        const start = match ? Math.max(0, match.index - 60) : 0;
        if (match) found.push(`${where}: ...${text.slice(start, match.index + 20)}`);
    };
    look('text', document.body.innerText);
    const names = ['aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription',
                   'title', 'alt', 'placeholder'];
    for (const element of document.querySelectorAll('*')) {
        for (const name of names) look(`${element.tagName} ${name}`, element.getAttribute(name));
        if (element.tagName.toLowerCase() === 'title' || element.tagName.toLowerCase() === 'text') {
            look(`svg ${element.tagName}`, element.textContent);
        }
    }
    look('document title', document.title);
    return found;
}"""


def unset_in_every_language(page: Page, where: str) -> list[str]:
    """What the page shows of the three words in each language, switched by its picker."""
    found = []
    for code in LANGUAGES:
        page.get_by_test_id("language").select_option(code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        found += [f"{where} [{code}] {text}" for text in page.evaluate(FIND_UNSET, UNSET_WORDS)]
    return found


def analysed(server: LiveServer, code: str, page: Page) -> None:
    """Ask for the table's analysis and wait, once a second, until it is done."""
    httpx.post(f"{server.base_url}/api/tables/{code}/analysis", json={})
    for _ in range(120):
        answer = httpx.get(f"{server.base_url}/api/tables/{code}/analysis").json()
        if answer["status"] == "done":
            return
        page.wait_for_timeout(1000)
    raise AssertionError(f"table {code} was not analysed")


def test_no_page_of_a_match_a_table_the_pad_or_a_puzzle_shows_an_unset_value(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**QUICK_ANALYSIS)
    found: list[str] = []
    finished = bots_table(server)
    open_in(page, f"{server.base_url}/")
    finished_record(server, finished, page)

    # A finished match: its table, and its replay before the analysis and after it.
    page.goto(f"{server.base_url}/t/{finished}")
    expect(page.get_by_test_id("table")).to_have_attribute("data-over", "true")
    found += unset_in_every_language(page, "finished table")
    page.goto(f"{server.base_url}/t/{finished}?replay=1")
    expect(page.get_by_test_id("analyse")).to_be_visible()
    found += unset_in_every_language(page, "replay, not analysed")
    analysed(server, finished, page)
    page.reload()
    expect(page.get_by_test_id("analysis-graph")).to_be_visible()
    page.get_by_test_id("mark-next").click()  # a marked move: its note and its ghost tile
    found += unset_in_every_language(page, "replay at a marked move")
    page.get_by_test_id("replay-last").click()
    found += unset_in_every_language(page, "replay at the end")

    # A table being played, seen from Ann's seat.
    table = ann_and_bob(server, take=[0])
    ann = table["seats"][0]["token"]
    page.goto(f"{server.base_url}/t/{table['code']}#seat=0&token={ann}")
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    found += unset_in_every_language(page, "table in play")

    # The score pad, a tile laid.
    pad = small_game(server)
    page.goto(f"{server.base_url}/pad/{pad}")
    lay(page, "5-5-5")
    expect(page.get_by_test_id("total-0")).to_have_text("25")
    found += unset_in_every_language(page, "pad")

    # A puzzle whose answer is the draw, before and after answering it.
    puzzle = next(puzzle for puzzle in shipped().puzzles if puzzle.solution == Draw())
    page.goto(f"{server.base_url}/puzzles/{puzzle.id}")
    expect(page.get_by_test_id("draw")).to_be_enabled(timeout=60_000)  # puzzles read on first use
    found += unset_in_every_language(page, "puzzle")
    page.get_by_test_id("draw").click()
    expect(page.get_by_test_id("puzzle-result")).to_have_attribute("data-solved", "true")
    found += unset_in_every_language(page, "puzzle answered")
    assert found == []
