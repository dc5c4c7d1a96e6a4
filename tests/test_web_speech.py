"""What a screen reader hears at the table: the board as a summary (not its digits),
each rack tile with where it fits, and a polite live region that tells each move in
words (the others' too) and the placement shown before it is laid."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from web import (
    FAST_BOTS,
    TURN_TIMEOUT_MS,
    home_in,
    in_module,
    open_in,
    play_until_a_tile_fits,
    post_table,
)


@pytest.mark.parametrize(("language", "words"), [("en", 0), ("fr", 1)])
def test_moves_and_rack_tiles_are_said_in_words(
    live_server: LiveServerFactory, page: Page, language: str, words: int
) -> None:
    home_in(page, live_server(), language)
    place = {
        "action": "place",
        "player": 0,
        "tile": "1-2-3",
        "cell": [0, 0, "up"],
        "points": 46,
        "bonuses": {"bridge": 40},
    }
    names = json.dumps(["Ann", "Bob"])

    def said(script: str) -> object:
        return in_module(page, "speech", script)

    sentences = {
        "place": said(f"speech.moveWords({json.dumps(place)}, {names})"),
        "draw": said(f"speech.moveWords({{action: 'draw', player: 1, points: -5}}, {names})"),
        "pass": said(f"speech.moveWords({{action: 'pass', player: 1, points: 0}}, {names})"),
        "fits": said(
            "speech.rackTileName('1-2-3', new Map([['a', {points: 14}], ['b', {points: 6}], "
            "['c', {points: 9}]]), true)",
        ),
        "one": said("speech.rackTileName('0-0-0', new Map([['a', {points: 3}]]), true)"),
        "none": said("speech.rackTileName('2-3-4', undefined, true)"),
        "waiting": said("speech.rackTileName('2-3-4', undefined, false)"),
    }
    expected = [
        {
            "place": "Ann laid 1-2-3 for 46 points, with bridge +40",
            "draw": "Bob: drew a tile (\u22125)",
            "pass": "Bob: passed",
            "fits": "Tile 1-2-3: fits in 3 places, best +14",
            "one": "Tile 0-0-0: fits in 1 place, best +3",
            "none": "Tile 2-3-4: does not fit",
            "waiting": "Tile 2-3-4",
        },
        {
            "place": "Ann a posé 1-2-3 pour 46 points, avec pont +40",
            "fits": "Tuile 1-2-3 : va à 3 endroits, au mieux +14",
            "one": "Tuile 0-0-0 : va à 1 endroit, au mieux +3",
            "none": "Tuile 2-3-4 : ne va nulle part",
        },
    ][words]
    for key, text in expected.items():
        assert sentences[key] == text, key


def test_the_table_says_the_board_the_tiles_that_fit_and_every_move(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    page = phone_page
    server = live_server(**FAST_BOTS)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
    answer = post_table(server, {"preset": "classic", "players": 2, "seats": seats, "take": [0]})
    token = answer["seats"][0]["token"]
    page.emulate_media(reduced_motion="reduce")
    open_in(page, f"{server.base_url}/t/{answer['code']}#seat=0&token={token}")
    table = page.get_by_test_id("table")
    announcer = page.get_by_test_id("announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    # Play until a tile fits on Ann's turn (a draw or a pass is told too).
    expect(table).to_have_attribute("data-my-turn", "true", timeout=TURN_TIMEOUT_MS)
    play_until_a_tile_fits(page)
    board = page.get_by_role("img", name=re.compile(r"^The board, \d+ tiles? laid"))
    expect(board).to_have_count(1)
    name = board.get_attribute("aria-label") or ""
    assert re.search(r"; your tiles fit in \d+ places?$", name), name
    # The summary, not the digits on the tiles: the picture is hidden from the reader.
    assert board.aria_snapshot() == f"- img {json.dumps(name)}"
    # Each rack tile says whether and where it fits.
    tiles = page.get_by_role("group", name="Your rack").get_by_role("button")
    for index in range(tiles.count()):
        tile = tiles.nth(index)
        label = tile.get_attribute("aria-label") or ""
        if "playable" in (tile.get_attribute("class") or ""):
            assert re.fullmatch(r"(Tile \d-\d-\d|Joker): fits in \d+ places?, best \+\d+", label)
        else:
            assert re.fullmatch(r"(Tile \d-\d-\d|Joker): does not fit", label)
    # The placement shown is said, then the move laid, then the bot's answer.
    page.locator(".rack-tile.playable").first.click()
    page.get_by_test_id("legal-cell").first.click()
    expect(announcer).to_have_text(re.compile(r"^\d-\d-\d shown on the board: \d+ points?"))
    page.get_by_test_id("place").click()
    expect(announcer).to_have_text(
        re.compile(r"^(Greta laid \d-\d-\d for|Greta: )"), timeout=TURN_TIMEOUT_MS
    )
