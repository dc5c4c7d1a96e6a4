"""The score pad page in Chromium on a phone: a short match entered by taps, the totals,
a refused entry, undo, the result saved and shared; and its texts in six languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright")

import httpx
from playwright.sync_api import Browser, Page, Route, expect

from conftest import PHONE, LiveServer, LiveServerFactory, watched_page
from web import STATIC, assert_locales_agree, message_keys, open_in, written

LOCALES = STATIC / "pad" / "locales"


def tap(page: Page, test_id: str) -> None:
    page.get_by_test_id(test_id).click()


def lay(page: Page, tile: str, figure: str | None = None) -> None:
    for number in tile.split("-"):
        tap(page, f"key-{number}")
    if figure is not None:
        tap(page, f"figure-{figure}")
    tap(page, "lay")


def small_game(server: LiveServer) -> str:
    """A score pad game of Ann and Bob with two tiles a rack (a hand in three lays): its id."""
    small = {"rack_sizes": {str(n): 2 for n in range(2, 7)}, "target_score": 500}
    body = {"preset": "classic", "options": small, "players": ["Ann", "Bob"]}
    game: str = httpx.post(f"{server.base_url}/api/pad/games", json=body).json()["id"]
    return game


def expect_totals(page: Page, *totals: int) -> None:
    for seat, total in enumerate(totals):
        expect(page.get_by_test_id(f"total-{seat}")).to_have_text(written(total))


def test_a_short_match_entered_on_a_phone(
    live_server: LiveServerFactory, phone_page: Page, screenshot_dir: Path
) -> None:
    server = live_server()
    page = phone_page
    open_in(page, f"{server.base_url}/pad")
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("house-rules").click()
    page.get_by_test_id("rule-target_score").fill("60")
    page.get_by_test_id("name-0").fill("Ann")
    page.get_by_test_id("name-1").fill("Bob")
    tap(page, "add-player")
    page.get_by_test_id("name-2").fill("Cas")
    tap(page, "start")
    expect(page).to_have_url(re.compile(r"/pad/[A-Z0-9]+$"))
    expect(page.get_by_test_id("totals")).to_be_visible()

    page.get_by_test_id("player-1").click()
    lay(page, "5-5-5")  # Bob opens with the highest triple: 15 + 10
    expect(page.get_by_test_id("total-1")).to_have_text("25")
    # Cas is to move: two draws, then a tile with a bridge.
    tap(page, "draw")
    tap(page, "draw")
    lay(page, "5-5-4", figure="bridge")  # 4-5-5: 14 + 40
    expect_totals(page, 0, 25, 44)
    expect(page.get_by_test_id("entry")).to_contain_text("Turn of Ann")
    page.screenshot(path=str(screenshot_dir / "pad-phone-entry.png"))

    for key in ("3", "4", "4", "clear", "5"):
        tap(page, f"key-{key}")
    tap(page, "lay")
    expect(page.get_by_test_id("total-0")).to_have_text("12")
    tap(page, "undo")
    expect(page.get_by_test_id("total-0")).to_have_text("0")
    page.get_by_test_id("value").fill("12")
    tap(page, "figure-hexagon")
    tap(page, "lay")
    expect(page.get_by_test_id("total-0")).to_have_text("62")
    expect(page.get_by_test_id("final-hand")).to_be_visible()  # the gong: 62 ≥ 60

    # Bob draws three times and passes (-25); then the match is stopped by hand.
    for _ in range(3):
        tap(page, "draw")
    tap(page, "pass")
    expect_totals(page, 62, 0, 44)
    page.once("dialog", lambda dialog: dialog.accept())
    tap(page, "finish")
    expect(page.get_by_test_id("winners")).to_contain_text("Ann")
    page.screenshot(path=str(screenshot_dir / "pad-phone.png"), full_page=True)

    code = page.url.rsplit("/", 1)[1]
    game = httpx.get(f"{server.base_url}/api/pad/games/{code}").json()
    assert game["finished"] and game["sheet"]["totals"] == [62, 0, 44]
    href = page.get_by_test_id("export-csv").get_attribute("href")
    exported = httpx.get(f"{server.base_url}{href}").text
    assert exported.strip().splitlines()[-1] == ",,,match total,62,0,44"

    # The share link shows the same sheet to anyone; the statistics count the game.
    page.goto(f"{server.base_url}/pad/{code}")
    expect_totals(page, 62, 0, 44)
    page.goto(f"{server.base_url}/pad?players")
    expect(page.get_by_test_id("stats")).to_contain_text("Ann")
    expect(page.get_by_test_id("stats")).to_contain_text("Cas")


def test_a_hand_settled_through_the_page(live_server: LiveServerFactory, phone_page: Page) -> None:
    server = live_server()
    code = small_game(server)
    page = phone_page
    open_in(page, f"{server.base_url}/pad/{code}")
    lay(page, "5-5-5")
    expect_totals(page, 25, 0)
    lay(page, "4-5-5")
    expect_totals(page, 25, 14)
    lay(page, "3-4-5")  # Ann's last tile: the hand waits for its settlement
    expect(page.get_by_test_id("settle")).to_contain_text("Ann went out")
    expect(page.get_by_test_id("remaining-0")).to_be_disabled()
    page.get_by_test_id("remaining-1").fill("7")
    tap(page, "go-out")
    expect_totals(page, 25 + 12 + 25 + 7, 14)
    expect(page.get_by_test_id("status")).to_contain_text("Hand 2")
    # The score table: a row for the settled hand, with its points and running totals.
    row = page.locator("[data-testid=score-table] [data-testid=score-row]")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("running-total")).to_have_text(["69", "14"])
    expect(page.get_by_test_id("hand-1")).to_contain_text("Ann went out")


def test_went_out_is_offered_only_for_a_player_the_count_has_going_out(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    """Issue 32: "End of hand" offered "Cleo went out" for a player holding all her
    tiles; by the pad's count nobody has emptied a rack yet."""
    server = live_server()
    code = small_game(server)
    page = phone_page
    open_in(page, f"{server.base_url}/pad/{code}")
    lay(page, "5-5-5")
    tap(page, "open-settle")
    expect(page.get_by_test_id("settle")).to_be_visible()
    expect(page.get_by_test_id("go-out")).to_have_count(0)
    expect(page.get_by_test_id("blocked")).to_be_visible()


def test_a_refused_settlement_keeps_the_rack_totals_typed(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    code = small_game(server)
    with watched_page(browser, "status of 400", **PHONE) as page:
        open_in(page, f"{server.base_url}/pad/{code}")
        for tile in ("5-5-5", "4-5-5", "3-4-5"):  # Ann's last tile: the settlement
            lay(page, tile)
        bob = page.get_by_test_id("remaining-1")
        bob.fill("99")  # more than Bob's one tile can be worth
        tap(page, "go-out")
        expect(page.get_by_test_id("notice")).to_contain_text("worth at most")
        expect(bob).to_have_value("99")  # there to be put right, not typed again
        bob.fill("7")
        tap(page, "go-out")
        expect_totals(page, 25 + 12 + 25 + 7, 14)


def test_what_is_done_while_an_entry_is_on_its_way_stays_done(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    server = live_server()
    body = {"preset": "classic", "players": ["Ann", "Bob"]}
    code = httpx.post(f"{server.base_url}/api/pad/games", json=body).json()["id"]
    page = phone_page
    open_in(page, f"{server.base_url}/pad/{code}")
    held: list[Route] = []
    page.route("**/entries", lambda route: held.append(route))  # answered once picked
    lay(page, "5-5-5")  # Ann's; the turn goes on to Bob
    for _ in range(600):  # (Playwright's own 30 s, a look every 50 ms)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the entry never reached the route"
    tap(page, "player-0")  # back to Ann: she has something to correct
    tap(page, "open-correct")
    note = page.get_by_test_id("correct-note")
    note.fill("counted tw")
    held[0].continue_()
    expect_totals(page, 25, 0)
    # The answer leaves what was done meanwhile: Ann picked, the correction half typed.
    expect(page.get_by_test_id("player-0")).to_have_attribute("aria-pressed", "true")
    expect(note).to_have_value("counted tw")
    expect(note).to_be_focused()


def test_a_refused_entry_shows_why_and_changes_nothing(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    # The browser reports the refused request itself (a 400); nothing else may go wrong.
    with watched_page(browser, "status of 400", **PHONE) as page:
        open_in(page, f"{server.base_url}/pad")
        page.get_by_test_id("name-0").fill("Ann")
        page.get_by_test_id("name-1").fill("Bob")
        tap(page, "start")
        lay(page, "5-5-5")
        expect_totals(page, 25, 0)
        lay(page, "5-5-5")  # Bob names the tile already on the table
        expect(page.get_by_test_id("notice")).to_have_text(
            "5-5-5 is already on the table this hand."
        )
        expect(page.get_by_test_id("tile")).to_have_text("5-5-5")  # given back to the keypad
        expect_totals(page, 25, 0)
        expect(page.get_by_test_id("key-6")).to_have_count(0)  # no 6-6-6 on the keypad


def test_the_page_speaks_the_six_languages(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    page.goto(f"{server.base_url}/pad")
    for code, word in [("nl", "Beginnen"), ("fr", "Commencer"), ("de", "Los geht's")]:
        page.get_by_test_id("language").select_option(code)
        expect(page.get_by_test_id("start")).to_have_text(word)
        expect(page.locator("html")).to_have_attribute("lang", code)


def test_every_locale_has_every_text_the_page_uses() -> None:
    english = assert_locales_agree(LOCALES, ("nl", "fr", "de", "es", "pt"))
    script = (STATIC / "pad" / "pad.js").read_text()
    used = set(re.findall(r"""\bt\("([a-z_.\-]+)\"""", script))
    assert used and used <= message_keys(english), sorted(used - message_keys(english))


def test_every_refusal_the_page_can_meet_has_a_text() -> None:
    """The refusals' texts are chosen by code and field (pad.js's REFUSED_CODES and
    REFUSED_FIELDS); each has its message. A house rule is named by its label
    (test_web_rules.py)."""
    english = assert_locales_agree(LOCALES, ("nl", "fr", "de", "es", "pt"))
    script = (STATIC / "pad" / "pad.js").read_text()

    def listed(name: str) -> list[str]:
        found = re.search(rf"const {name} = [\[{{](.*?)[\]}}];", script, re.DOTALL)
        assert found, name
        return re.findall(r'"([\w.]+)"', found.group(1))

    keys = {f"error.{name}" for name in listed("REFUSED_CODES") + listed("REFUSED_FIELDS")}
    assert {"error.not_found", "error.tile"} <= keys
    assert sorted(keys - set(english)) == []


def test_a_game_that_is_not_there_is_refused_in_the_players_language(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    french = json.loads((LOCALES / "fr.json").read_text(encoding="utf-8"))
    with watched_page(browser, "status of 404", **PHONE) as page:
        open_in(page, f"{server.base_url}/pad/NOSUCH", "fr")
        notice = page.get_by_test_id("notice")
        expect(notice).to_have_text(french["error.not_found"])  # French alone, not mixed
        expect(notice).to_have_attribute("title", re.compile("no score pad game 'NOSUCH'"))


def test_the_pad_keeps_a_tile_by_its_name_exports_numbers_and_refuses_in_one_language(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    code = small_game(server)
    german = json.loads((LOCALES / "de.json").read_text(encoding="utf-8"))
    with watched_page(browser, "status of 400", **PHONE) as page:
        open_in(page, f"{server.base_url}/pad/{code}", "de")
        lay(page, "5-5-5")
        lay(page, "5-5-4")  # read out in another order
        lay(page, "5-5-5")  # refused: already on the table
        notice = page.get_by_test_id("notice")
        # Why, in German alone (issue 32: it said only "Dieser Stein ist hier nicht möglich").
        why = german["refusal.already_laid"].replace("{tile}", "5-5-5")
        expect(notice).to_have_text(why)
        assert why == "5-5-5 liegt in dieser Runde schon auf dem Tisch."
        for _ in range(3):  # the refused tile is back on the keypad: take it off
            tap(page, "key-clear")
        lay(page, "5-4-3")
        expect_totals(page, 25 + 12, 14)
    game = httpx.get(f"{server.base_url}/api/pad/games/{code}").json()
    tiles = [entry["tile"] for entry in game["sheet"]["entries"]]
    assert tiles == ["5-5-5", "4-5-5", "3-4-5"]
    exported = httpx.get(f"{server.base_url}/api/pad/games/{code}/export.csv").text
    assert "(" not in exported and "tile=4-5-5" in exported
