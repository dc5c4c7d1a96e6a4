"""The house rules form of the home page and the score pad: the common options first
(their `common` flag in triominos.rules.OPTIONS), the rest behind "More", opened from
the keyboard, and no help text laid over another, at a phone's size and a desktop's."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from conftest import LiveServerFactory
from triominos.rules import OPTIONS
from web import open_in

COMMON = [name for name, option in OPTIONS.items() if option.common]
MORE = [name for name, option in OPTIONS.items() if not option.common]

OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('.rule-help')]
    .map((help) => help.getBoundingClientRect())
    .filter((box) => box.width && box.height);
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const pairs = [];
  boxes.forEach((one, i) => boxes.slice(i + 1).forEach((other) => {
    if (meet(one, other)) pairs.push([i, one.top, other.top]);
  }));
  return { shown: boxes.length, pairs };
}"""


def assert_no_help_overlaps(page: Page, at_least: int) -> None:
    found = page.evaluate(OVERLAPS)
    assert found["shown"] >= at_least and found["pairs"] == [], found


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_common_rules_come_first_the_rest_behind_more_and_no_help_overlaps(
    live_server: LiveServerFactory, page: Page, phone_page: Page, size: str, language: str
) -> None:
    assert 3 <= len(COMMON) < len(MORE)
    viewer = phone_page if size == "phone" else page
    open_in(viewer, f"{live_server().base_url}/", language)
    viewer.get_by_test_id("house-rules").click()
    common = viewer.get_by_test_id("common-rules")
    for name in COMMON:
        expect(common.locator(f"[data-option={name}]")).to_be_visible()
    for name in MORE:
        expect(viewer.locator(f"[data-option={name}]")).to_be_hidden()
    assert_no_help_overlaps(viewer, at_least=len(COMMON))
    # "More" opens from the keyboard, and shows every other option, each with its help.
    more = viewer.get_by_test_id("more-rules")
    expect(more).to_contain_text(str(len(MORE) + 2))  # and the table's two timings
    more.focus()
    viewer.keyboard.press("Enter")
    for name in MORE:
        field = viewer.locator(f"[data-option={name}]")
        expect(field).to_be_visible()
        expect(field.locator(".rule-help")).not_to_be_empty()
    assert_no_help_overlaps(viewer, at_least=len(OPTIONS))
    # A value changed behind "More" stays open and kept when the form is drawn again.
    viewer.get_by_test_id("rule-bridge_bonus").fill("45")
    viewer.get_by_test_id("players-3").locator("..").click()
    expect(viewer.get_by_test_id("rule-bridge_bonus")).to_have_value("45")


def test_the_pads_house_rules_are_grouped_alike(
    live_server: LiveServerFactory, phone_page: Page
) -> None:
    open_in(phone_page, f"{live_server().base_url}/pad", "de")
    phone_page.get_by_test_id("house-rules").click()
    for name in COMMON:
        expect(
            phone_page.get_by_test_id("common-rules").locator(f"[data-option={name}]")
        ).to_be_visible()
    expect(phone_page.locator(f"[data-option={MORE[0]}]")).to_be_hidden()
    phone_page.get_by_test_id("more-rules").focus()
    phone_page.keyboard.press("Space")
    expect(phone_page.locator(f"[data-option={MORE[0]}]")).to_be_visible()
    assert_no_help_overlaps(phone_page, at_least=len(OPTIONS))
