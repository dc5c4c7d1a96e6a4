"""Issue 17's list, item by item, where no other browser test would fail if it broke:
each sound for its own event, the move list in words, the chat's rate limit told in the
player's language, bonus flashes drawn to be read; and what a player is typing or has
picked, and the control the keyboard is on, surviving what happens meanwhile."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

import httpx
from playwright.sync_api import Browser, Page, expect

from conftest import LiveServerFactory, watched_page
from test_web_table_finished import table_with_view
from web import (
    FAST_BOTS,
    ann_and_bob,
    create_game,
    expect_new_version,
    open_in,
    play_turn,
    post_table,
    table_state,
    with_board_view,
)

SOUNDS = """async () => {
    const { Sounds } = await import('/static/sounds.js');
    const sounds = new Sounds();
    const heard = [];
    sounds.play = (name) => heard.push(name);
    const tile = (name) => ({ tile: name, cell: [0, 0, 'up'], corners: [5, 5, 5] });
    const view = (changes) => ({ hand: 1, board: [tile('5-5-5')], history: [], end: null,
                                 rack_sizes: [2, 3], legal: [], ...changes });
    const laid = (bonuses) => ({ player: 1, action: 'place', points: 9, bonuses });
    const cases = {
        placement: [view({}), view({ board: [tile('5-5-5'), tile('4-5-5')],
                                     history: [laid({})] }), false],
        bonus: [view({}), view({ board: [tile('5-5-5'), tile('4-5-5')],
                                 history: [laid({ bridge: 40 })] }), false],
        bell: [view({ rack_sizes: [2, 1] }),
               view({ board: [tile('5-5-5'), tile('4-5-5')], history: [laid({})],
                      rack_sizes: [2, 0] }), false],
        turn: [view({}), view({ legal: [{ action: { action: 'draw' } }] }), true],
        next_hand: [view({}), view({ hand: 2, board: [tile('4-4-4')] }), false],
    };
    const result = {};
    for (const [name, [before, after, ours]] of Object.entries(cases)) {
        heard.length = 0;
        sounds.changed(before, after, ours);
        result[name] = [...heard];
    }
    return result;
}"""

TOASTS_NOTED = """() => {
    window.toasts = [];
    new MutationObserver((records) => {
        for (const record of records) {
            for (const added of record.addedNodes) window.toasts.push(added.textContent);
        }
    }).observe(document.getElementById('toasts'), { childList: true });
}"""


def test_each_event_has_its_own_sound(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/")
    assert page.evaluate(SOUNDS) == {
        "placement": ["place"],
        "bonus": ["bonus"],
        "bell": ["bell"],  # a rack emptied and the hand goes on: the bell, not the tile
        "turn": ["turn"],
        "next_hand": [],  # a new deal's board is no placement
    }


def test_the_move_list_says_each_move_in_words(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/t/{ann_and_bob(server)['code']}", "en")
    table_with_view(
        page,
        """view.status = 'playing';
           view.history = [{player: 0, action: 'place', tile: '2-4-5', cell: [1, 0, 'up'],
                            corners: [2, 4, 5], points: 51, bonuses: {bridge: 40}},
                           {player: 1, action: 'draw', points: -5},
                           {player: 1, action: 'pass', points: -10}];""",
    )
    rows = page.locator("[data-testid=score-sheet] [data-testid=sheet-row]")
    expect(rows).to_have_text(
        [
            "Ann2-4-5 on 1,0\u25b2 bridge +40+51",
            "Bobdrew a tile\u22125",
            "Bobpassed\u221210",
        ]
    )


def test_too_many_chat_messages_are_told_in_the_players_language(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server, language="fr")
    # A toast goes away by itself after four seconds, which a busy machine can spend
    # between the refusal and a look at the page: each one is noted as it appears.
    page.evaluate(TOASTS_NOTED)
    for number in range(6):  # the sixth in ten seconds is one too many (PROTOCOL.md)
        page.get_by_test_id("chat-input").fill(f"message {number}")
        page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-line")).to_have_count(5)
    french = page.evaluate(
        "async () => (await (await fetch('/static/locales/fr.json')).json()).error_rate_limited"
    )
    page.wait_for_function(
        "(text) => window.toasts.some((toast) => toast.includes(text))", arg=french
    )


def test_a_message_being_typed_survives_what_the_others_say_meanwhile(
    live_server: LiveServerFactory, page: Page, browser: Browser
) -> None:
    server = live_server()
    answer = ann_and_bob(server, take=[0, 1])
    code, (ann, bob) = answer["code"], (seat["token"] for seat in answer["seats"])
    open_in(page, f"{server.base_url}/t/{code}#seat=0&token={ann}")
    typing = page.get_by_test_id("chat-input")
    typing.fill("half a thou")
    with watched_page(browser) as other:
        open_in(other, f"{server.base_url}/t/{code}#seat=1&token={bob}")
        other.get_by_test_id("chat-input").fill("your move")
        other.get_by_test_id("chat-send").click()
        expect(page.get_by_test_id("chat-line")).to_have_text(["Bob: your move"])
    expect(typing).to_have_value("half a thou")
    expect(typing).to_be_focused()
    typing.press_sequentially("ght")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-line")).to_have_text(["Bob: your move", "Ann: half a thought"])


def test_a_name_being_typed_to_join_survives_another_player_sitting_down(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    people = [{"kind": "person", "name": name} for name in ("Ann", "Guest 1", "Guest 2")]
    code = post_table(server, {"preset": "classic", "players": 3, "seats": people, "take": [0]})[
        "code"
    ]
    open_in(page, f"{server.base_url}/t/{code}")
    typing = page.get_by_test_id("join-name")
    typing.fill("Car")
    joined = httpx.post(f"{server.base_url}/api/tables/{code}/join", json={"name": "Dan"})
    assert joined.status_code == 200, joined.text
    expect(page.locator(".player-name")).to_contain_text(["Ann", "Dan"])
    expect(typing).to_have_value("Car")
    expect(typing).to_be_focused()
    typing.press_sequentially("ol")
    page.get_by_test_id("join").click()
    expect(page.locator(".player.mine .player-name")).to_have_text("Carol")


def test_the_bot_level_picked_for_an_absent_player_survives_the_moves_meanwhile(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/t/{ann_and_bob(server)['code']}", "en")
    table_with_view(  # Ann's page; Bob gone past the grace period
        page,
        """view.seat = 0;
           view.seats[1].connected = false;
           view.seats[1].bot_allowed_at = 0;""",
    )
    page.route("**/seats/1/bot", lambda route: route.fulfill(status=200, json={}))
    page.get_by_test_id("bot-level").select_option("random")
    page.evaluate("window.shownTable.render()")  # as every move at the table does
    expect(page.get_by_test_id("bot-level")).to_have_value("random")
    with page.expect_request("**/seats/1/bot") as asked:
        page.get_by_test_id("give-to-bot").click()
    body = asked.value.post_data_json
    assert body is not None and body["bot"] == "random"


def test_a_button_pressed_from_the_keyboard_keeps_the_focus(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    create_game(page, server, preset="classic-house")  # a draw beside fitting tiles
    draw = page.get_by_test_id("draw")
    for _ in range(20):  # past the opening, where a draw is no choice
        assert table_state(page) == "turn"
        if draw.is_enabled():
            break
        play_turn(page)
    mute = page.get_by_test_id("mute")
    mute.focus()
    page.keyboard.press("Enter")  # a render of the page's own
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(mute).to_be_focused()
    page.keyboard.press("Enter")
    expect(mute).to_have_attribute("aria-pressed", "false")
    draw.focus()
    with expect_new_version(page):  # the server's answer, drawn
        page.keyboard.press("Enter")
    # A move made, the keyboard goes to the rack, where the tile drawn is.
    expect(page.locator(".rack-tile:focus")).to_have_count(1)


def test_the_seat_shown_on_a_shared_device_is_switched_from_the_keyboard(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/")
    page.get_by_test_id("players-3").locator("..").click()
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("seat-1").select_option("here")
    page.get_by_test_id("seat-name-1").fill("Bob")
    page.get_by_test_id("seat-2").select_option("invite")
    page.get_by_test_id("create").click()
    # While the third player is awaited, no seat here is to move: the switch says which
    # rack is shown.
    switch = page.get_by_test_id("seat-switch")
    expect(switch.locator("option")).to_have_text(["Ann", "Bob"])
    expect(switch).to_have_value("0")
    switch.focus()
    page.keyboard.press("ArrowDown")
    expect(switch).to_have_value("1")
    expect(switch).to_be_focused()  # through the render that the change brings
    page.keyboard.press("ArrowUp")
    expect(switch).to_have_value("0")


def test_bonus_flashes_are_drawn_big_with_a_halo(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/")
    style = with_board_view(
        page,
        "width: 400px; height: 300px",
        """const board = new BoardView(box);
           const tile = { tile: '5-5-5', cell: [0, 0, 'up'], corners: [5, 5, 5] };
           board.render({ placements: [tile] });
           board.flash([0, 0, 'up'], ['bridge +40'], 'bonus');
           const label = box.querySelector('[data-testid=flash]');
           const computed = getComputedStyle(label);
           return { size: parseFloat(computed.fontSize), order: computed.paintOrder,
                    stroke: parseFloat(computed.strokeWidth),
                    weight: Number(computed.fontWeight) };""",
    )
    assert style["size"] >= 15 and style["weight"] >= 700
    assert style["order"].startswith("stroke") and style["stroke"] >= 2
