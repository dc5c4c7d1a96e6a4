"""The table of issue 17 in Chromium: the finished hand's board, the match-end dialog only
when the match ends in front of the player, bots by friendly names and levels, the bell and
the target, the keyboard after a placement, the title, icon and sounds, the score table,
the replay's move list and autoplay, a seat taken to another device, and "Your games"."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

import json
import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE, LiveServer, LiveServerFactory, watched_page
from web import (
    FAST_BOTS,
    ann_and_bob,
    create_game,
    expect_new_version,
    open_in,
    play_to_end,
    play_turn,
    play_until_a_tile_fits,
    post_table,
    table_state,
    watch_texts,
    with_board_view,
    written,
)


def bots_table(server: LiveServer, **options: Any) -> str:
    """A table of two bots that plays itself to the end: its code."""
    answer = post_table(
        server,
        {
            "preset": "classic",
            "players": 2,
            "options": {"target_score": None, "hand_limit": 2, **options},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        },
    )
    code: str = answer["code"]
    return code


def finished_record(server: LiveServer, code: str, page: Page) -> dict[str, Any]:
    """The record of the table, once its bots have played it to the end (``page`` waits,
    asking once a second: look-ups are rate limited)."""
    for _ in range(120):
        summary = httpx.get(f"{server.base_url}/api/tables/{code}").json()
        if summary["status"] == "finished":
            record: dict[str, Any] = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
            return record
        page.wait_for_timeout(1000)
    raise AssertionError(f"table {code} did not finish")


def table_with_view(page: Page, patch: str) -> None:
    """Show, in a table page of its own, a real spectator's view of the table open in
    ``page`` changed by ``patch`` (JavaScript statements on ``view``): a hand-built case.
    The table page is ``window.shownTable``. It is drawn once the page's own table is
    (which fetches the texts, the bot levels and the account first): else that one,
    coming later on a busy machine, would take the page back."""
    expect(page.get_by_test_id("table")).to_be_visible()
    page.evaluate(
        """async (patch) => {
            const { TablePage } = await import('/static/table.js');
            const code = location.pathname.split('/').pop();
            const view = await new Promise((resolve) => {
                const socket = new WebSocket(`ws://${location.host}/ws/${code}`);
                const hello = { type: 'hello', token: null, version: null };
                socket.onopen = () => socket.send(JSON.stringify(hello));
                socket.onmessage = (event) => {
                    socket.close();
                    resolve(JSON.parse(event.data).view);
                };
            });
            new Function('view', patch)(view);
            const root = document.getElementById('app');
            const table = new TablePage(root, code);
            const connection = { close() {}, play() { return true; }, askHint() { return true; } };
            table.seats.set(view.seat ?? 'watch', { connection, view: null, token: null });
            table.onMessage(view.seat ?? 'watch', { type: 'welcome', view });
            window.shownTable = table;  // for a test to draw it again
        }""",
        patch,
    )


# --- the end of a hand and of the match --------------------------------------------------


def test_a_finished_hand_shows_its_own_board_until_the_players_go_on(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    code = create_game(page, server, rules={"target_score": "", "hand_limit": "2"})
    while (state := table_state(page)) == "turn":
        play_turn(page)
    assert state == "hand-end"
    # Behind the dialog: hand 1's last position (as many tiles as it had placements),
    # its last tile outlined; in the dialog each player's tiles left.
    placed = page.locator("[data-testid=sheet-row][data-hand='1'][data-action=place]")
    tiles = page.get_by_test_id("board-tile")
    expect(tiles).to_have_count(placed.count())
    last_tile = page.locator("[data-testid=board-tile][data-last=true]").get_attribute("data-tile")
    left = page.locator("dialog[open] .settlement .remaining").all_inner_texts()
    page.get_by_test_id("continue").click()
    # Then the table goes on to hand 2, without hand 1's labels over it.
    expect(page.get_by_test_id("flash")).to_have_count(0)
    play_to_end(page)
    first = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()["hands"][0]
    laid = [action for action in first["actions"] if action["action"] == "place"]
    assert placed.count() == len(laid) and last_tile == laid[-1]["tile"]
    assert left == [" ".join(rack) or "\u2014" for rack in first["end"]["remaining"]]


def test_the_match_end_dialog_opens_once_not_on_every_visit(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    code = bots_table(server)
    open_in(page, f"{server.base_url}/")
    record = finished_record(server, code, page)
    open_in(page, f"{server.base_url}/t/{code}")
    expect(page.get_by_test_id("table")).to_have_attribute("data-over", "true")
    # A visit to a finished table: the result, the replay and the download, no dialog.
    expect(page.locator("dialog[open]")).to_have_count(0)
    winner = record["players"][record["winners"][0]]["name"]
    expect(page.get_by_test_id("over-winner")).to_contain_text("wins")
    assert winner == "greedy" or winner == "random"
    page.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("replay")).to_be_visible()


# --- bots ----------------------------------------------------------------------------------


def contrast(page: Page, selector: str) -> float:
    """The contrast ratio (WCAG) of the text of the first element ``selector`` finds."""
    ratio: float = page.evaluate(
        """(selector) => {
            const element = document.querySelector(selector);
            const style = getComputedStyle(element);
            const luminance = (colour) => {
                const [r, g, b] = colour.match(/\\d+/g).slice(0, 3).map((c) => {
                    const v = Number(c) / 255;
                    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
                });
                return 0.2126 * r + 0.7152 * g + 0.0722 * b;
            };
            const ink = luminance(style.color);
            const paper = luminance(style.backgroundColor);
            const [a, b] = [Math.max(ink, paper), Math.min(ink, paper)];
            return (a + 0.05) / (b + 0.05);
        }""",
        selector,
    )
    return ratio


def test_bots_have_friendly_distinct_translated_names_and_their_level(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    answer = post_table(
        server,
        {
            "preset": "classic",
            "players": 5,
            "seats": [
                {"kind": "person", "name": "Ann"},
                {"kind": "bot", "bot": "greedy"},
                {"kind": "bot", "bot": "greedy"},
                {"kind": "bot", "bot": "expert"},
                # A 3-second sim, as the retired master level gave: shown as the strong bot.
                {"kind": "bot", "bot": "sim", "think": 3.0},
            ],
            "take": [0],
        },
    )
    code, token = answer["code"], answer["seats"][0]["token"]
    open_in(page, f"{server.base_url}/t/{code}#seat=0&token={token}", "de")
    names = page.locator(".player-name")
    expect(names).to_have_text(["Ann", "Greta 1", "Greta 2", "Otto", "Stefan"])
    badges = page.get_by_test_id("bot-badge")
    expect(badges).to_have_text(
        [
            "Bot · Stufe 2 · leicht",
            "Bot · Stufe 2 · leicht",
            "Bot · Stufe 3 · gut",
            "Bot · Stufe 4 · stark",
        ]
    )
    for level in (2, 3, 4):
        assert contrast(page, f".badge.level-{level}") >= 4.5
    good, strong = (
        page.locator(f".badge.level-{level}").first.evaluate(
            "e => getComputedStyle(e).backgroundColor"
        )
        for level in (3, 4)
    )
    assert good != strong
    open_in(page, f"{server.base_url}/t/{code}", "en")
    expect(names).to_have_text(["Ann", "Greta 1", "Greta 2", "Oscar", "Stella"])


# --- notices, built from hand-made views ------------------------------------------------


def test_the_bell_says_who_went_out_and_who_still_plays(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    answer = post_table(
        server,
        {
            "preset": "extended",
            "players": 3,
            "seats": [{"kind": "person", "name": n} for n in ("Ann", "Bob", "Cem")],
        },
    )
    open_in(page, f"{server.base_url}/t/{answer['code']}")
    # Bob (seat 1) laid his last tile; Ann started: Cem still plays this round.
    table_with_view(
        page,
        """view.status = 'playing'; view.phase = 'play'; view.starter = 0; view.to_move = 2;
           view.rack_sizes = [4, 0, 5];
           view.history = [{player: 1, action: 'place', tile: '0-0-0', cell: [0, 0, 'up'],
                            corners: [0, 0, 0], points: 0, bonuses: {}}];""",
    )
    expect(page.get_by_test_id("bell")).to_have_text(
        "Bell! Bob went out; still to play this round: Cem."
    )


def test_the_target_reached_during_a_hand_is_told(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    answer = ann_and_bob(server, preset="classic-house")  # the match ends after the hand
    open_in(page, f"{server.base_url}/t/{answer['code']}")
    # The totals hold this hand's points: Ann is at 378 with the 40 of this hand.
    table_with_view(
        page,
        "view.status = 'playing'; view.totals = [378, 100]; view.hand_points = [40, 3];",
    )
    expect(page.get_by_test_id("turn")).to_be_visible()
    expect(page.get_by_test_id("target-notice")).to_have_count(0)
    table_with_view(
        page,
        "view.status = 'playing'; view.totals = [405, 100]; view.hand_points = [25, 3];",
    )
    expect(page.get_by_test_id("target-notice")).to_have_text(
        "Ann reached 400 with this hand: the match ends after it."
    )
    expect(page.get_by_test_id("bell")).to_have_count(0)


# --- playing -----------------------------------------------------------------------------


def test_after_a_placement_the_keyboard_is_on_the_rack_and_the_tab_says_whose_turn(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    play_until_a_tile_fits(page)
    expect(page).to_have_title("\u25cf Ann, your turn \u2014 Triominos")
    icon = page.locator("link[rel=icon]")
    expect(icon).to_have_attribute("href", "/static/favicon-turn.svg")
    page.locator(".rack-tile.playable").first.click()
    cell = page.get_by_test_id("legal-cell").first.get_attribute("data-cell")
    page.get_by_test_id("legal-cell").first.click()
    # Each tile drawn as arriving, noted as it is drawn: a bot moving at once may draw
    # the board again before an assertion could look (its tile then the one arriving).
    page.evaluate(
        """() => {
            window.arrivals = [];
            const board = document.querySelector('[data-testid=board]');
            new MutationObserver((records) => {
                for (const node of records.flatMap((record) => [...record.addedNodes])) {
                    const tile = node.dataset?.testid === 'board-tile';
                    if (tile && node.classList.contains('arrive')) {
                        window.arrivals.push(node.dataset.cell);
                    }
                }
            }).observe(board, { childList: true, subtree: true });
        }"""
    )
    with expect_new_version(page):
        page.get_by_test_id("place").click()
    focused = page.evaluate("document.activeElement.closest('.rack') !== null")
    assert focused
    # The tile just laid slides in (no motion here: the page asked for reduced motion).
    page.wait_for_function("(cell) => window.arrivals.includes(cell)", arg=cell)


def test_sounds_can_be_muted_and_the_browser_keeps_it(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server)
    assert table_state(page) == "turn"
    mute = page.get_by_test_id("mute")
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")
    assert table_state(page) == "turn"
    play_until_a_tile_fits(page)
    page.locator(".rack-tile.playable").first.click()
    page.get_by_test_id("legal-cell").first.click()
    with expect_new_version(page):
        page.get_by_test_id("place").click()
    # A placement, then (after the bot's move) our turn: each would sound, muted here.
    page.wait_for_function("document.body.dataset.sound?.startsWith('muted:')")


def test_the_score_table_has_a_row_per_hand_with_running_totals(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    missing = watch_texts(page)
    code = create_game(page, server, rules={"target_score": "", "hand_limit": "2"})
    play_to_end(page)
    record = httpx.get(f"{server.base_url}/api/tables/{code}/record").json()
    rows = page.locator("[data-testid=score-table] [data-testid=score-row]")
    expect(rows).to_have_count(2)
    for number, hand in enumerate(record["hands"]):
        totals = rows.nth(number).get_by_test_id("running-total")
        expect(totals).to_have_text([written(score) for score in hand["scores"]])
    assert missing == []


# --- the replay ---------------------------------------------------------------------------


def test_the_replay_lists_the_moves_goes_to_one_and_plays_by_itself(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    code = bots_table(server)
    open_in(page, f"{server.base_url}/")
    record = finished_record(server, code, page)
    open_in(page, f"{server.base_url}/t/{code}?replay=1")
    count = len(record["hands"][0]["actions"])
    expect(page.get_by_test_id("replay-status")).to_have_text(f"Hand 1move 0 of {count}")
    # The names are the bots' friendly ones, and a move in the list goes there.
    moves = page.get_by_test_id("move")
    expect(moves).to_have_count(0)  # nothing played yet at the first step
    page.get_by_test_id("replay-last").click()
    page.get_by_test_id("move").nth(2).click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"move 3 of {count}")
    expect(page.locator("[aria-current=step]")).to_have_attribute("data-index", "2")
    expect(page.locator(".replay-racks .player-name")).to_have_text(["Greta", "Pip"])
    # The racks are big enough to read.
    size = page.locator(".replay-racks .mini-rack svg").first.bounding_box()
    assert size is not None and size["width"] >= 60
    # Autoplay goes on by itself until stopped.
    page.get_by_test_id("replay-autoplay").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"move 5 of {count}", timeout=10_000)
    page.get_by_test_id("replay-autoplay").click()
    expect(page.get_by_test_id("replay-autoplay")).to_have_attribute("aria-pressed", "false")
    # The score table has each hand, with the record's totals.
    page.get_by_test_id("replay-last").click()
    totals = page.locator("[data-testid=score-table] [data-testid=score-row]").last
    expect(totals.get_by_test_id("running-total")).to_have_text(
        [written(score) for score in record["scores"]]
    )


def test_two_bonuses_of_one_placement_flash_on_lines_of_their_own(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/")
    boxes = with_board_view(
        page,
        "width: 400px; height: 300px",
        """const board = new BoardView(box);
           const placement = { tile: '5-5-5', cell: [0, 0, 'up'], corners: [5, 5, 5] };
           board.render({ placements: [placement] });
           board.flash([0, 0, 'up'], ['bridge +40', 'hexagon +50'], 'bonus');
           return [...box.querySelectorAll('[data-testid=flash]')].map((label) => {
               const { top, bottom } = label.getBoundingClientRect();
               return [top, bottom];
           });""",
    )
    assert len(boxes) == 2
    (first_top, _), (_, second_bottom) = boxes
    assert second_bottom <= first_top  # the second line above the first, apart


# --- seats across devices and days ----------------------------------------------------


def test_a_personal_link_gives_the_seat_to_another_device(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    code = create_game(page, server)
    page.get_by_test_id("other-device").locator("summary").click()
    link = page.get_by_test_id("personal-link").input_value()
    assert link.startswith(f"{server.base_url}/t/{code}#seat=0&token=")
    with watched_page(browser, **PHONE) as phone:
        open_in(phone, link)
        expect(phone.locator(".player.mine .player-name")).to_have_text("Ann")
        assert "token" not in phone.url
        held = json.loads(phone.evaluate("localStorage.getItem('triominos.seats')"))
        assert [seat["seat"] for seat in held[code]] == [0]
        # The phone's home link has a name a screen reader reads.
        expect(phone.get_by_role("link", name="Triominos: home")).to_be_visible()


def test_your_games_lists_the_tables_this_browser_plays_your_turn_first(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    waiting = create_game(page, server, seats=("invite",))
    playing = create_game(page, server)
    assert table_state(page) == "turn"
    with watched_page(browser, **DESKTOP) as other:  # a browser with no seat sees none
        open_in(other, f"{server.base_url}/")
        expect(other.get_by_test_id("my-games")).to_be_hidden()
    open_in(page, f"{server.base_url}/")
    games = page.get_by_test_id("my-game")
    expect(games).to_have_count(2)
    expect(games.first).to_have_attribute("data-code", playing)
    expect(games.first).to_contain_text("your turn")
    expect(games.last).to_have_attribute("data-code", waiting)
    expect(games.last).to_contain_text("waiting for players")
    games.first.locator("a").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")


# --- the creator's table options ----------------------------------------------------------


def test_the_creator_chooses_hints_and_what_a_turn_that_ran_out_plays(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    open_in(page, f"{server.base_url}/")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("house-rules").click()
    hints = page.get_by_test_id("hints-option")
    expect(hints).to_be_checked()  # against a bot: on
    page.get_by_test_id("seat-1").select_option("invite")
    expect(hints).not_to_be_checked()  # between people: off unless the creator says
    page.get_by_test_id("seat-1").select_option("bot:greedy")
    hints.uncheck()
    page.get_by_test_id("more-rules").click()  # the table's timeout is behind "More"
    expect(page.get_by_test_id("timeout-action")).to_have_value("place")
    page.get_by_test_id("timeout-action").select_option("draw")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    summary = httpx.get(f"{server.base_url}/api/tables/{code}").json()
    assert summary["hints"] is False and summary["timeout_action"] == "draw"
    assert table_state(page) == "turn"
    expect(page.get_by_test_id("draw")).to_be_visible()
    expect(page.get_by_test_id("hint")).to_have_count(0)


# --- the chat -----------------------------------------------------------------------------


def test_the_chat_is_text_kept_apart_from_the_spectators_and_can_be_muted(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server(**FAST_BOTS)
    code = create_game(page, server)
    attack = "<img src=x onerror=\"document.body.dataset.hacked='yes'\"> good luck"
    page.get_by_test_id("chat-input").fill(attack)
    page.get_by_test_id("chat-send").click()
    lines = page.get_by_test_id("chat-line")
    expect(lines).to_have_text([f"Ann: {attack}"])  # written as text, never as HTML
    expect(page.locator("[data-testid=chat-log] img")).to_have_count(0)
    assert page.evaluate("document.body.dataset.hacked") is None
    with watched_page(browser, **DESKTOP) as watcher:
        open_in(watcher, f"{server.base_url}/t/{code}")
        expect(watcher.get_by_test_id("chat")).to_contain_text("Spectators' chat")
        expect(watcher.get_by_test_id("chat-line")).to_have_count(0)  # not the players'
        watcher.get_by_test_id("chat-input").fill("go Ann")
        watcher.get_by_test_id("chat-send").click()
        expect(watcher.get_by_test_id("chat-line")).to_have_text(["Spectator 1: go Ann"])
    # Kept with the table: there after a reload; the spectators' never shows here.
    page.reload()
    expect(lines).to_have_text([f"Ann: {attack}"])
    page.get_by_test_id("chat-mute").click()
    expect(page.get_by_test_id("chat-muted")).to_be_visible()
    page.reload()  # this browser keeps it muted
    expect(page.get_by_test_id("chat-muted")).to_be_visible()
    expect(lines).to_have_count(0)
