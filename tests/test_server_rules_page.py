"""The rules pages' service (triominos.server.rules_page) and the lessons' API: every
preset answers its page and its rules, built from the declarations, RULES.md and the
project's SVG; a step is judged by the engine over HTTP."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")  # the web extras, which the core-only run has not

from server_games import Served
from triominos.learn import LESSONS
from triominos.rules import OPTIONS, PRESETS
from triominos.server.rules_page import RULES_MD, figure_picture, rules_markdown


def test_every_preset_answers_its_page_and_its_rules(served_sqlite: Served) -> None:
    http = served_sqlite.http
    for name, chosen in PRESETS.items():
        page = http.get(f"/rules/{name}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        answer = http.get(f"/api/rules/{name}")
        assert answer.status_code == 200
        body = answer.json()
        # The declarations, every option with this preset's value.
        assert body["preset"] == chosen.to_json()
        assert [option["name"] for option in body["preset"]["options"]] == list(OPTIONS)
        # The figures drawn by triominos.svg, with this preset's bonus.
        figures = {figure["figure"]: figure for figure in body["figures"]}
        assert set(figures) == {"bridge", "hexagon"}
        for figure, shown in figures.items():
            assert shown["bonus"] == getattr(chosen.rules, f"{figure}_bonus")
            assert shown["svg"] == figure_picture(figure, chosen)
            assert shown["svg"].startswith("<svg")
        assert "<h2>4. Figures and bonuses</h2>" in body["text"] or "Junior" in body["text"]
        assert "<script" not in body["text"]
    assert http.get("/rules").status_code == 200
    missing = http.get("/api/rules/chess")
    assert missing.status_code == 404
    assert "classic" in missing.json()["error"]["message"]


def test_the_prose_is_rules_md_for_the_edition_only() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    classic = rules_markdown(PRESETS["classic"])
    extended = rules_markdown(PRESETS["extended"])
    junior = rules_markdown(PRESETS["junior"])
    children = rules_markdown(PRESETS["classic-children"])
    for prose in (classic, extended, junior, children):
        for line in prose.splitlines():
            assert line in text  # a part of RULES.md, never a copy of a rule
    assert '### 5.2 The opening, classic (`opening="highest_triple"`)' in classic
    assert "### 5.3" not in classic
    assert '### 5.3 The opening, extended (`opening="starter_draw"`)' in extended
    assert "### 5.2" not in extended
    assert junior.startswith("## 9. Triominos Junior") and "## 4." not in junior
    assert "## 10. The children's scoring" in children and "## 10." not in classic
    assert not re.search(r"(?m)^## (7|8|11|12)\. ", classic)


def test_a_lesson_step_is_judged_over_http(served_sqlite: Served) -> None:
    http = served_sqlite.http
    assert http.get("/api/learn").json() == {
        "lessons": [{"edition": name, "steps": len(each.steps)} for name, each in LESSONS.items()]
    }
    step = http.get("/api/learn/classic/2").json()
    assert step["key"] == "scoring" and step["rack"] == ["0-1-2", "0-5-5", "4-4-5"]
    assert step["rack_sizes"] == [3, 3]  # the other rack's size, never its tiles
    assert "deal" not in step and "pool" not in step
    low = next(entry for entry in step["legal"] if entry["action"].get("tile") == "0-5-5")
    wrong = http.post("/api/learn/classic/2", json={"answer": low["action"]}).json()
    assert wrong["correct"] is False and wrong["after"] is None
    assert wrong["reasons"] == [{"key": "less", "params": {"points": 10, "best": 13}}]
    best = next(entry for entry in step["legal"] if entry["points"] == 13)
    right = http.post("/api/learn/classic/2", json={"answer": best["action"]}).json()
    assert right["correct"] is True and right["after"]["totals"][0] == step["totals"][0] + 13
    assert len(right["after"]["board"]) == len(step["board"]) + 1
    why = http.post("/api/learn/classic/1", json={"tile": "1-2-5"}).json()
    assert [reason["key"] for reason in why["reasons"]] == ["fits_nowhere", "corner"]
    bad = http.post("/api/learn/classic/1", json={"tile": "5-5-5"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_answer"
    assert http.get("/api/learn/classic/99").status_code == 404
    assert http.get("/api/learn/chess/0").status_code == 404
    assert http.get("/learn/junior").status_code == 200
