"""The pages' numbers and counts in each language (i18n.js: Intl.NumberFormat and
Intl.PluralRules), and the spectators' names in their chat."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from triominos.rules import PRESETS
from web import FAST_BOTS, STATIC, ann_and_bob, home_in, in_module, open_in, post_table

LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")
MINUS = "\u2212"


@pytest.mark.parametrize("language", LANGUAGES)
def test_numbers_are_written_in_the_pages_language_with_the_true_minus(
    live_server: LiveServerFactory, page: Page, language: str
) -> None:
    home_in(page, live_server(), language)
    decimal = "," if language in ("nl", "fr", "de", "es", "pt") else "."
    assert in_module(page, "i18n", "i18n.number(11.3, { digits: 1 })") == f"11{decimal}3"
    assert in_module(page, "i18n", "i18n.number(-11)") == f"{MINUS}11"
    assert in_module(page, "i18n", "i18n.signed(-11)") == f"{MINUS}11"
    assert in_module(page, "i18n", "i18n.signed(14)") == "+14"
    assert in_module(page, "i18n", "i18n.signed(0)") == "0"
    # A year or a puzzle's number is not grouped.
    assert in_module(page, "i18n", "i18n.number(2026)") == "2026"
    # A number given to a text is written the same way.
    lost = in_module(page, "i18n", "i18n.format({ x: 'lost {n}' }, 'x', { n: -2.5 })")
    assert lost == f"lost {MINUS}2{decimal}5"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_count_takes_its_plural_form(
    live_server: LiveServerFactory, page: Page, language: str
) -> None:
    home_in(page, live_server(), language)
    messages = json.loads((STATIC / "locales" / f"{language}.json").read_text(encoding="utf-8"))
    one, other = messages["rack_size.one"], messages["rack_size.other"]
    assert one != other
    text = "(count) => i18n.format(MESSAGES, 'rack_size', { count })".replace(
        "MESSAGES", json.dumps(messages)
    )
    for count, form in ((1, one), (2, other), (7, other)):
        assert in_module(page, "i18n", f"({text})({count})") == form.replace("{count}", str(count))
    # French and Portuguese count 0 as one ("0 tuile"), English as many ("0 tiles").
    zero = one if language in ("fr", "pt") else other
    assert in_module(page, "i18n", f"({text})(0)") == zero.replace("{count}", "0")


def test_a_free_seat_is_counted_in_words_on_the_home_page(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    seats = [{"kind": "person", "name": "Zoe"}, {"kind": "person"}]
    answer = post_table(
        server, {"preset": "classic", "players": 2, "seats": seats, "take": [0], "listed": True}
    )
    row = page.locator(f"[data-testid=open-table][data-code='{answer['code']}']")
    for language, words in (("en", "1 free seat"), ("fr", "1 place libre"), ("de", "1 Platz frei")):
        open_in(page, f"{server.base_url}/", language)
        expect(row).to_contain_text(words)
        expect(row).not_to_contain_text("(s)")


def test_spectators_chat_under_their_numbers(live_server: LiveServerFactory, page: Page) -> None:
    server = live_server()
    people = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]
    answer = post_table(server, {"preset": "classic", "players": 2, "seats": people})
    open_in(page, f"{server.base_url}/", "fr")  # French for both pages of this browser
    other = page.context.new_page()
    for watcher in (page, other):
        watcher.goto(f"{server.base_url}/t/{answer['code']}")
        expect(watcher.get_by_test_id("watching")).to_be_visible()
    for watcher, text in ((page, "hello"), (other, "hi")):
        watcher.get_by_test_id("chat-input").fill(text)
        watcher.get_by_test_id("chat-send").click()
    lines = page.get_by_test_id("chat-line")
    expect(lines).to_have_text(["Spectateur 1: hello", "Spectateur 2: hi"])


ICON_BUTTONS = """() => [...document.querySelectorAll('button.icon')].map((button) => ({
    name: button.getAttribute('aria-label'),
    text: button.textContent.trim(),
    icon: button.querySelector('svg[data-icon]')?.dataset.icon ?? null,
}))"""


def assert_icons_are_drawn(page: Page, at_least: int) -> None:
    """Every icon button holds an SVG icon and no character (an emoji needs a font), and
    is named for a screen reader."""
    buttons = page.evaluate(ICON_BUTTONS)
    assert len(buttons) >= at_least, buttons
    for button in buttons:
        assert button["icon"] and button["text"] == "" and button["name"], button


def test_the_tables_and_the_replays_icons_are_svg(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server(**FAST_BOTS)
    answer = ann_and_bob(server, take=[0, 1])
    open_in(
        page, f"{server.base_url}/t/{answer['code']}#seat=0&token={answer['seats'][0]['token']}"
    )
    expect(page.get_by_test_id("mute")).to_be_visible()
    assert_icons_are_drawn(page, at_least=5)  # recentre, zoom in and out, keys, mute
    icon = page.get_by_test_id("mute").locator("svg")
    expect(icon).to_have_attribute("data-icon", "sound_on")
    page.get_by_test_id("mute").click()
    expect(icon).to_have_attribute("data-icon", "sound_off")

    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    options = {"target_score": None, "hand_limit": 1}
    code = post_table(
        server, {"preset": "classic", "players": 2, "seats": bots, "options": options}
    )["code"]
    page.goto(f"{server.base_url}/t/{code}")
    expect(page.get_by_test_id("replay-link")).to_be_visible(timeout=60_000)
    page.goto(f"{server.base_url}/t/{code}?replay=1")
    expect(page.get_by_test_id("replay-autoplay")).to_be_visible()
    assert_icons_are_drawn(page, at_least=5)  # first, previous, play, next, last


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_editions_are_chosen_by_their_plain_names_with_the_rulebooks_as_detail(
    live_server: LiveServerFactory, page: Page, phone_page: Page, size: str
) -> None:
    viewer = phone_page if size == "phone" else page
    server = live_server()
    open_in(viewer, f"{server.base_url}/")
    names = viewer.get_by_test_id("edition-name")
    expect(names).to_have_count(len(PRESETS))
    shown = dict(zip(PRESETS, names.all_inner_texts(), strict=True))
    assert shown["classic"] == "Classic (56 tiles)"
    assert shown["extended"] == "Extended (76 tiles)"
    assert shown["junior"] == "Junior"
    assert shown["classic-children"] == "Classic (56 tiles) for children"
    assert shown["classic-002"] == "Classic (56 tiles), Dutch rules"
    assert len(set(shown.values())) == len(shown)
    details = viewer.get_by_test_id("edition-detail")
    expect(details.first).to_have_text("Follows rulebook 002 (Dutch).")  # classic: seed 002
    extended = list(PRESETS).index("extended")
    expect(details.nth(extended)).to_contain_text("rulebook 001 (Dutch and German)")
    expect(viewer.get_by_role("radiogroup", name="Edition")).not_to_contain_text("seed")

    viewer.get_by_test_id("language").select_option("fr")
    expect(names.first).to_have_text("Classique (56 tuiles)")
    expect(names.nth(list(PRESETS).index("classic-002"))).to_have_text(
        "Classique (56 tuiles), règles en néerlandais"
    )
    expect(details.first).to_have_text("D'après règle 002 (néerlandais).")

    # The score pad names them alike.
    open_in(viewer, f"{server.base_url}/pad", "de")
    options = viewer.locator("select option", has_text="Klassisch (56 Steine)")
    expect(options.first).to_be_attached()
    expect(viewer.get_by_test_id("edition-detail")).to_have_text(
        "Nach Spielregel 002 (Niederländisch)."
    )
