"""The home page: the language (from the browser, changeable, kept), the create form's
choices, the open tables, and every text in six languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from conftest import LiveServerFactory, watched_page
from triominos.bots.levels import OFFERED
from triominos.server.presets import rule_texts
from triominos.server.timers import TIMEOUT_ACTIONS
from web import STATIC, assert_locales_agree, message_keys, open_in, post_table, watch_texts

LOCALES = STATIC / "locales"
LANGUAGES = ("en", "nl", "fr", "de", "es", "pt")
BONUSES = (
    "opening_triple",
    "opening_triple_zero",
    "bridge",
    "hexagon",
    "double_hexagon",
    "triple_hexagon",
    "two_sides",
    "last_tile",
)
ERROR_CODES = (
    # HTTP (PROTOCOL.md), and the page's own `network`
    "bad_request",
    "bad_token",
    "not_found",
    "taken",
    "over",
    "playing",
    "connected",
    "too_large",
    "internal",
    "http_error",
    "network",
    # WebSocket
    "bad_message",
    "rate_limited",
    "spectator",
    "stale_version",
    "duplicate",
    "not_your_turn",
    "illegal",
    "unavailable",
    "no_hints",
    "no_takeback",
)
LEVEL_IDS = tuple(level.id for level in OFFERED)
"""The bot levels the page offers, whose texts are found by their ids."""
ENGINE = Path(__file__).resolve().parent.parent / "src" / "triominos"


def engine_rules() -> set[str]:
    """The rule names the engine refuses a move with (``IllegalActionError(rule, …)`` and
    ``IllegalPlacementError(rule, …)``), which an ``illegal`` refusal carries as ``rule``."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in ENGINE.glob("*.py"))
    return set(re.findall(r'Illegal(?:Action|Placement)Error\(\s*"(\w+)"', source))


def messages(code: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((LOCALES / f"{code}.json").read_text(encoding="utf-8"))
    return loaded


def keys_in_code() -> set[str]:
    """The message keys the page's modules name literally."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in STATIC.glob("*.js"))
    patterns = (
        r'\bt\("([\w-]+)"',
        r'i18n: \[?"([\w-]+)"',
        r'label: "([\w-]+)"',
        r'setText\([^,]+, "([\w-]+)"',
        r'"(key_\w+)"\]',
        r'i18nAttrs: \{ "[\w-]+": "([\w-]+)"',
        r'title: "([\w-]+)" \}',
        r': "(error_\w+)",',
    )
    return {key for pattern in patterns for key in re.findall(pattern, source)}


def test_every_language_has_every_message_with_the_same_placeholders() -> None:
    assert_locales_agree(LOCALES, LANGUAGES)


def test_every_message_the_page_uses_exists() -> None:
    english = messages("en")
    used = keys_in_code()
    assert len(used) > 100
    dynamic = (
        {f"bonus_{name}" for name in BONUSES}
        | {f"error_{code}" for code in ERROR_CODES}
        | {f"illegal_{rule}" for rule in engine_rules()}
        | {f"bot_{name}" for name in LEVEL_IDS}
        | {f"bot_name_{name}" for name in LEVEL_IDS}
        | {f"level_{name}" for name in LEVEL_IDS}
        | {f"my_game_{status}" for status in ("turn", "playing", "waiting", "finished")}
        | {f"timeout_{action}" for action in TIMEOUT_ACTIONS}
        | {f"connection_{state}" for state in ("online", "connecting", "offline")}
        | {f"rating_outcome_{name}" for name in ("rated", "shared", "early_resign", "no_account")}
    )
    assert sorted((used | dynamic) - message_keys(english)) == []


def test_every_rule_the_engine_refuses_with_has_a_text() -> None:
    """An ``illegal`` refusal names the engine's rule; each has its own sentence."""
    rules = engine_rules()
    assert {"edge_contact", "matching_corners", "opening_tile", "place_if_able"} <= rules
    assert (
        sorted(f"illegal_{rule}" for rule in rules if f"illegal_{rule}" not in messages("en")) == []
    )


def test_the_rulebooks_words_are_used() -> None:
    """Rule terms follow the rulebooks of each language (seeds 000-004)."""
    words = {
        "nl": ("brug", "zeshoek", "Pot"),
        "fr": ("pont", "hexagone", "Pioche"),
        "de": ("Brücke", "Sechseck", "Topf"),
        "es": ("puente", "hexágono", "Montón"),
        "pt": ("ponte", "hexágono", "Monte"),
    }
    for code, expected in words.items():
        text = " ".join(messages(code).values())
        for word in expected:
            assert word in text, (code, word)


def test_the_language_comes_from_the_browser_and_can_be_changed(
    live_server: LiveServerFactory, browser: Browser
) -> None:
    server = live_server()
    with watched_page(browser, locale="de-DE") as page:
        missing = watch_texts(page)
        page.goto(f"{server.base_url}/")
        expect(page.get_by_test_id("create")).to_have_text("Spiel starten")
        expect(page.get_by_test_id("language")).to_have_value("de")
        assert page.evaluate("document.documentElement.lang") == "de"
        for code in LANGUAGES:
            page.get_by_test_id("language").select_option(code)
            expect(page.get_by_test_id("create")).to_have_text(messages(code)["create"])
            classic = rule_texts()[code]["edition.classic"].replace("{count}", "56")
            expect(page.locator(".choice strong").first).to_have_text(classic)
        page.get_by_test_id("language").select_option("es")
        page.reload()  # the choice is kept over the browser's language
        expect(page.get_by_test_id("create")).to_have_text("Empezar la partida")
    assert missing == []


def test_the_form_follows_the_edition_and_lists_open_tables(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    # A table with a free seat, made before the page loads the list.
    answer = post_table(
        server,
        {
            "preset": "extended",
            "players": 2,
            "seats": [{"kind": "person", "name": "Zoe"}, {"kind": "person"}],
            "take": [0],
            "listed": True,
        },
    )
    open_in(page, f"{server.base_url}/")
    # Classic: 2 to 6 players; Junior: 2 to 4, with its joker among the house rules.
    expect(page.locator("[data-testid^=players-]")).to_have_count(5)
    page.get_by_test_id("preset-junior").locator("..").click()
    expect(page.locator("[data-testid^=players-]")).to_have_count(3)
    page.get_by_test_id("house-rules").click()
    expect(page.get_by_test_id("listed")).not_to_be_checked()  # private unless asked
    expect(page.get_by_test_id("rule-joker")).to_be_checked()
    expect(page.get_by_test_id("rule-bank")).to_have_value("60")
    page.get_by_test_id("players-3").locator("..").click()
    expect(page.locator("[data-testid^=seat-]")).to_have_count(2)

    # The table with a free seat is in the list, and its link leads to the table.
    row = page.locator(f"[data-testid=open-table][data-code='{answer['code']}']")
    expect(row).to_contain_text("Extended")
    expect(row).to_contain_text("1 free")
    row.locator("a").click()
    expect(page.get_by_test_id("watching")).to_be_visible()
    expect(page.get_by_test_id("join-form")).to_be_visible()


def test_a_code_being_typed_and_the_keyboards_place_survive_the_page_drawn_again(
    live_server: LiveServerFactory, page: Page
) -> None:
    server = live_server()
    open_in(page, f"{server.base_url}/")
    code = page.get_by_test_id("join-code")
    code.fill("ABC")
    page.get_by_test_id("players-3").locator("..").click()  # the create form drawn again
    page.get_by_test_id("language").select_option("fr")  # the whole page drawn again
    expect(page.get_by_test_id("create")).to_have_text(messages("fr")["create"])
    expect(code).to_have_value("ABC")
    # The number of players chosen with the arrow keys: each change draws the form again.
    page.get_by_test_id("players-3").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("players-4")).to_be_checked()
    expect(page.get_by_test_id("players-4")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("players-5")).to_be_checked()
    expect(page.locator("[data-testid^=seat-]")).to_have_count(4)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_wrong_house_rule_is_refused_in_the_players_language(
    live_server: LiveServerFactory, browser: Browser, language: str
) -> None:
    """No target and no hand limit: the server refuses (a 400, which Chromium logs) naming
    the field `options.target_score`; the page says so in the chosen language, naming the
    house rule as the form does, keeps the server's English reason as a small detail, and
    stays on the form."""
    texts = messages(language)
    labels = json.loads((LOCALES / "rules" / f"{language}.json").read_text(encoding="utf-8"))
    expected = texts["error_option"].format(option=labels["rule.target_score"])
    server = live_server()
    with watched_page(browser, "status of 400") as page:
        missing = watch_texts(page)
        open_in(page, f"{server.base_url}/", language)
        page.get_by_test_id("your-name").fill("Ann")
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("rule-target_score").fill("")
        page.get_by_test_id("create").click()
        toast = page.get_by_test_id("toast")
        expect(toast).to_contain_text(expected)
        expect(toast.get_by_test_id("toast-detail")).to_have_text(
            "target_score: a match needs a target score, a hand limit, or both"
        )
        assert re.search(r"/$", page.url)
    assert missing == []


REFUSALS = (
    # (what the server sent, the key of the text the page shows)
    (
        {"code": "illegal", "rule": "edge_contact", "message": "[1, 0] shares no edge"},
        "illegal_edge_contact",
    ),
    ({"code": "illegal", "rule": "a_rule_to_come", "message": "new"}, "error_illegal"),
    ({"code": "rate_limited", "message": "at most 20 messages a second"}, "error_rate_limited"),
    ({"code": "bad_request", "field": "seats[1].bot", "message": "must be one of"}, "error_bot"),
    ({"code": "bad_request", "field": "seats", "message": "a table of 2"}, "error_seats"),
    ({"code": "bad_request", "field": "players", "message": "2 to 4 players"}, "error_players"),
    ({"code": "bad_request", "field": "take", "message": "seat 1 is not"}, "error_bad_request"),
    ({"code": "taken", "message": "seat 1 taken"}, "error_taken"),
    ({"code": "teapot", "message": "a code to come"}, "error_unknown"),
)


def test_each_refusal_is_told_by_its_code_rule_and_field(
    live_server: LiveServerFactory, page: Page
) -> None:
    """The page's reading of a refusal (errors.js), in Dutch: the text of the engine's rule
    for `illegal`, of the field for `bad_request`, else of the code, and a general text
    for what the page does not know yet; the English message is the detail."""
    server = live_server()
    missing = watch_texts(page)
    open_in(page, f"{server.base_url}/", "nl")
    expect(page.get_by_test_id("create")).to_be_visible()
    # The page's own module (the same URL), so it speaks the page's language.
    told = page.evaluate(
        """async (refusals) => {
            const { describeRefusal } = await import("/static/errors.js");
            return refusals.map((refusal) => describeRefusal(refusal));
        }""",
        [refusal for refusal, _ in REFUSALS],
    )
    dutch = messages("nl")
    assert told == [{"text": dutch[key], "detail": refusal["message"]} for refusal, key in REFUSALS]
    assert missing == []
