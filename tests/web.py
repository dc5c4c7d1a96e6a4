"""Driving the web app in Chromium for the browser tests, test_web_*.py: opening a page in a
language, starting a game through the home page, playing turns by clicks to the end of a
match, a board drawn on its own, and the checks every locale directory must pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from conftest import LiveServer
from server_games import Served

FAST_BOTS = {"TRIOMINOS_BOT_DELAY": "0"}
"""Server bots move at once, so a whole match takes seconds."""

TURN_TIMEOUT_MS = 20_000

STATIC = Path(__file__).resolve().parent.parent / "src" / "triominos" / "server" / "static"
"""The web app's files: the game's in ``STATIC``, the score pad's in ``STATIC / "pad"``."""


def show_tab(page: Page, tab: str) -> None:
    """A phone's tab of the table page, clicked once the page has drawn its first view: a
    view that begins this device's turn brings a phone back to the board (table.js), so a
    tab clicked before it arrives is left at once."""
    expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", re.compile("true|false"))
    page.get_by_test_id(f"tab-{tab}").click()


def post_table(server: LiveServer, body: dict[str, Any]) -> dict[str, Any]:
    """A table made through the API (``body`` as POST /api/tables takes it): its answer,
    the code and each seat's token."""
    answer = httpx.post(f"{server.base_url}/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def ann_and_bob(server: LiveServer, **body: Any) -> dict[str, Any]:
    """A two-player classic table of two people, Ann and Bob, made through the API with
    ``body`` added (``take``, say): its answer."""
    people = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]
    return post_table(server, {"preset": "classic", "players": 2, "seats": people, **body})


def open_in(page: Page, url: str, language: str = "en") -> None:
    """Open ``url`` in ``language``: the choice is kept in localStorage, which exists only
    once the page is open, so the page is loaded again to show it."""
    page.goto(url)
    page.evaluate(f"localStorage.setItem('triominos.lang', '{language}')")
    page.reload()


def open_seats(
    page: Page, server: LiveServer | Served, table: dict[str, Any], language: str = "en"
) -> None:
    """Open ``table`` (an answer of :func:`post_table`) on a device that holds every seat of
    its answer (the creator's ``take``), as the home page leaves a device that made it, in
    ``language`` and with reduced motion; on a live server or one served in this process."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{server.base_url}/")
    page.evaluate(
        """([code, seats, language]) => {
            localStorage.setItem('triominos.seats', JSON.stringify({ [code]: seats }));
            localStorage.setItem('triominos.lang', language);
        }""",
        [table["code"], table["seats"], language],
    )
    page.goto(f"{server.base_url}/t/{table['code']}")


def watch_texts(page: Page) -> list[str]:
    """Collect the page's warnings about missing translations (i18n.js warns, never errs)."""
    missing: list[str] = []
    page.on(
        "console",
        lambda message: missing.append(message.text) if message.text.startswith("i18n:") else None,
    )
    return missing


def create_game(
    page: Page,
    server: LiveServer,
    *,
    preset: str = "classic",
    name: str = "Ann",
    seats: tuple[str, ...] = ("bot:greedy",),
    rules: dict[str, str] | None = None,
    turn_seconds: int | None = None,
    grace_seconds: int | None = None,
    language: str = "en",
) -> str:
    """Start a game through the home page's form; returns the table's code.

    The page is asked for reduced motion: the board then moves without animation, so
    clicks need not wait for it to settle.
    """
    page.emulate_media(reduced_motion="reduce")
    open_in(page, f"{server.base_url}/", language)
    page.get_by_test_id(f"preset-{preset}").locator("..").click()
    page.get_by_test_id(f"players-{len(seats) + 1}").locator("..").click()
    page.get_by_test_id("your-name").fill(name)
    for index, seat in enumerate(seats, start=1):
        page.get_by_test_id(f"seat-{index}").select_option(seat)
    if rules or turn_seconds or grace_seconds:
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("more-rules").click()  # the rest behind "More" too
    for option, value in (rules or {}).items():
        page.get_by_test_id(f"rule-{option}").fill(value)
    if turn_seconds:
        page.get_by_test_id("turn-seconds").select_option(str(turn_seconds))
    if grace_seconds:
        page.get_by_test_id("grace-seconds").select_option(str(grace_seconds))
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    return code


def table_state(page: Page) -> str:
    """Wait until something is asked of this page: "turn", "hand-end" or "over"."""
    page.wait_for_function(
        """() => {
            const table = document.querySelector('[data-testid=table]');
            return table && (table.dataset.myTurn === 'true' || table.dataset.over === 'true'
                || document.querySelector('dialog[open]'));
        }""",
        timeout=TURN_TIMEOUT_MS,
    )
    dialog = page.locator("dialog[open]")
    if dialog.count():
        return "over" if dialog.get_attribute("data-testid") == "match-end" else "hand-end"
    return "over" if page.get_by_test_id("table").get_attribute("data-over") == "true" else "turn"


def version(page: Page) -> int:
    return int(page.get_by_test_id("table").get_attribute("data-version") or "-1")


@contextmanager
def expect_new_version(page: Page) -> Iterator[None]:
    """Wait, after the ``with`` block (which plays), until the table is past the version it
    was at before: the server took the action and the page shows its answer."""
    seen = version(page)
    yield
    page.wait_for_function(
        f"Number(document.querySelector('[data-testid=table]').dataset.version) > {seen}",
        timeout=TURN_TIMEOUT_MS,
    )


def play_turn(page: Page) -> str:
    """Play one action by clicks: a placement when a tile fits, else draw, else pass.

    Returns the action's kind.
    """
    with expect_new_version(page):
        playable = page.locator(".rack-tile.playable")
        if playable.count():
            playable.first.click()
            page.get_by_test_id("legal-cell").first.click()
            expect(page.get_by_test_id("preview")).to_be_visible()
            page.get_by_test_id("place").click()
            kind = "place"
        elif page.get_by_test_id("starter-draw").count():
            page.get_by_test_id("starter-draw").click()
            kind = "starter_draw"
        elif page.get_by_test_id("draw").is_enabled():
            page.get_by_test_id("draw").click()
            kind = "draw"
        else:
            page.get_by_test_id("pass").click()
            kind = "pass"
    return kind


def play_until_a_tile_fits(
    page: Page, play: Callable[[Page], object] = play_turn, turns: int = 20
) -> None:
    """Play turns with ``play`` until this page's seat is to move with a tile that fits."""
    for _ in range(turns):
        assert table_state(page) == "turn"
        if page.locator(".rack-tile.playable").count():
            return
        play(page)
    raise AssertionError(f"no tile fitted in {turns} turns")


def play_to_end(page: Page, *, on_hand_end: list[str] | None = None, turns: int = 400) -> int:
    """Play every turn of this page's seat by clicks until the match is over."""
    played = 0
    for _ in range(turns):
        state = table_state(page)
        if state == "over":
            return played
        if state == "hand-end":
            if on_hand_end is not None:
                on_hand_end.append(page.locator("dialog[open]").inner_text())
            page.get_by_test_id("continue").click()
            continue
        play_turn(page)
        played += 1
    raise AssertionError(f"the match did not end within {turns} turns")


def with_board_view(page: Page, box_style: str, script: str) -> Any:
    """Run ``script``, the body of an async JavaScript function, in ``page`` (which must
    show the web app) and return what it returns. The script finds ``BoardView`` imported
    and ``box``, an empty element styled ``box_style`` at the end of the body."""
    return page.evaluate(
        f"""async () => {{
            const {{ BoardView }} = await import('/static/board.js');
            const box = document.createElement('div');
            box.style.cssText = {json.dumps(box_style)};
            document.body.append(box);
            {script}
        }}"""
    )


def in_module(page: Page, module: str, script: str) -> Any:
    """What ``script``, an expression over the exports of ``/static/<module>.js`` (named
    ``module``), gives on ``page``: a page module's function tried on hand-built input."""
    return page.evaluate(f"import('/static/{module}.js').then(({module}) => {script})")


def home_in(page: Page, server: LiveServer, language: str) -> None:
    """Open the home page in ``language`` and wait until it speaks it."""
    open_in(page, f"{server.base_url}/", language)
    expect(page.locator("html")).to_have_attribute("lang", language)


def written(number: int) -> str:
    """A whole number as the pages write it (i18n.js's ``number``): with the true minus
    sign, U+2212."""
    return str(number).replace("-", "\u2212")


def message_keys(messages: dict[str, str]) -> set[str]:
    """The keys a page may name in ``messages``: each message's, and each plural's own
    (``KEY`` for ``KEY.one`` and ``KEY.other``, which i18n.js's ``format`` picks from)."""
    plurals = {key.removesuffix(".other") for key in messages if key.endswith(".other")}
    return set(messages) | plurals


def assert_locales_agree(directory: Path, languages: tuple[str, ...]) -> dict[str, str]:
    """Each ``<language>.json`` in ``directory`` has the English keys, each text with
    English's placeholders and none blank; returns the English messages."""
    english: dict[str, str] = json.loads((directory / "en.json").read_text(encoding="utf-8"))
    for code in languages:
        translated = json.loads((directory / f"{code}.json").read_text(encoding="utf-8"))
        assert set(translated) == set(english), code
        for key, text in english.items():
            placeholders = set(re.findall(r"\{\w+\}", text))
            assert set(re.findall(r"\{\w+\}", translated[key])) == placeholders, (code, key)
            assert translated[key].strip(), (code, key)
    return english
