"""The rules, readable: ``/rules/{preset}`` and what its page shows (PROTOCOL.md,
"Rules").

| method and path | answer |
| --- | --- |
| ``GET /api/rules/{preset}`` | ``{"preset", "figures", "text"}`` |

Nothing here states a rule. ``preset`` is the preset's declaration with every option's
value (:meth:`~triominos.rules.Preset.to_json`), which the page writes in the reader's
language from the option texts of the six locales; ``figures`` are the bonus figures of
the preset's tiles, each with its bonus in this preset and a picture drawn by
:mod:`triominos.svg` from the lessons' own positions (:mod:`triominos.learn`), the move
that makes the figure outlined; ``text`` is RULES.md's prose for the edition (the
sections about the tiles, the board, the figures, a hand and the match, or Triominos
Junior's; the children's scoring where it is played), as HTML, in English, with every
subsection about another value of an option (``opening="starter_draw"``) left out.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from triominos.board import Placement
from triominos.learn import LESSONS, action_text
from triominos.rules import Preset, RuleOptionError, preset
from triominos.server.protocol import ApiError, answers
from triominos.server.routes import page
from triominos.server.views import JsonObject
from triominos.svg import board_svg, uses_cards

RULES_MD = Path(__file__).resolve().parent.parent / "data" / "RULES.md"
"""RULES.md, shipped in the package (a link to the project's own in a checkout)."""

FIGURES = ("bridge", "hexagon")
"""The figures drawn, each from a lesson step that makes it."""

GAME_SECTIONS: tuple[int, ...] = (2, 3, 4, 5, 6)
JUNIOR_SECTIONS: tuple[int, ...] = (9,)
CHILDREN_SECTIONS: tuple[int, ...] = (10,)
"""RULES.md's sections (by number) a family reads: the game's, Junior's, the children's
scoring; the rest (options, decisions, records, the pad, timers) is the engine's."""

OPTION_VALUE = re.compile(r'`(\w+)="(\w+)"`')

answering = answers({})


@cache
def sections() -> dict[int, str]:
    """RULES.md's ``##`` sections by number, each with its heading."""
    parts = re.split(r"(?m)^(?=## \d+\. )", RULES_MD.read_text(encoding="utf-8"))
    found: dict[int, str] = {}
    for part in parts:
        heading = re.match(r"## (\d+)\. ", part)
        if heading:
            found[int(heading.group(1))] = part
    return found


def _fits(text: str, values: dict[str, object]) -> bool:
    """Whether a subsection's heading names only option values this preset has."""
    heading = text.splitlines()[0]
    return all(values.get(name) == value for name, value in OPTION_VALUE.findall(heading))


def rules_markdown(chosen: Preset) -> str:
    """RULES.md's prose for ``chosen``: its sections, less subsections about other values."""
    values = chosen.rules.to_dict()
    if chosen.rules.tile_set == "junior":
        numbers = JUNIOR_SECTIONS
    else:
        numbers = GAME_SECTIONS + (CHILDREN_SECTIONS if chosen.rules.tile_points == "one" else ())
    kept: list[str] = []
    for number in numbers:
        subsections = re.split(r"(?m)^(?=### )", sections()[number])
        kept.extend(part for part in subsections if _fits(part, values))
    return "".join(kept)


def rules_html(chosen: Preset) -> str:
    """The prose as HTML: RULES.md is the project's own text, and its HTML is not passed on."""
    html: str = (
        MarkdownIt("commonmark", {"html": False}).enable("table").render(rules_markdown(chosen))
    )
    return html


def figure_picture(figure: str, chosen: Preset) -> str | None:
    """The board of a lesson step once the move that makes ``figure`` is laid, that move
    outlined; drawn in tiles like the preset's (cards for Junior)."""
    cards = uses_cards(chosen.rules.tiles)
    for lesson in LESSONS.values():
        for step in lesson.steps:
            hand = step.hand()
            if uses_cards(hand.tile_set) != cards:
                continue
            for option in hand.legal_actions():
                made = option.action
                if figure in option.bonuses and action_text(made) in step.expected:
                    assert isinstance(made, Placement)
                    hand.apply(made)
                    return str(board_svg(hand.board, highlight=[made.cell], size=240))
    return None


def figures_json(chosen: Preset) -> list[JsonObject]:
    """Each drawn figure with its bonus in ``chosen`` and its picture."""
    return [
        {"figure": figure, "bonus": getattr(chosen.rules, f"{figure}_bonus"), "svg": picture}
        for figure in FIGURES
        if (picture := figure_picture(figure, chosen)) is not None
    ]


@cache
def rules_json(name: str) -> JsonObject:
    chosen = preset(name)
    return {
        "preset": chosen.to_json(),
        "figures": figures_json(chosen),
        "text": rules_html(chosen),
    }


async def show_rules(request: Request) -> Response:
    try:
        return JSONResponse(rules_json(request.path_params["preset"]))
    except RuleOptionError as error:
        raise ApiError(404, "not_found", str(error)) from None


def rules_routes() -> list[BaseRoute]:
    """The rules' API and the pages' addresses (``/rules``, ``/rules/{preset}``)."""
    return [
        Route("/api/rules/{preset}", answering(show_rules)),
        Route("/rules", page("index.html")),
        Route("/rules/{preset}", page("index.html")),
    ]
