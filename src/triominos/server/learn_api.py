""" "Learn to play": the lessons' HTTP API under ``/api/learn/`` (PROTOCOL.md, "Learn to
play") and the page's addresses.

| method and path | answer |
| --- | --- |
| ``GET /api/learn`` | ``{"lessons": [{"edition", "steps"}]}`` |
| ``GET /api/learn/{edition}/{step}`` | the step as the learner sees it, with its legal actions |
| ``POST /api/learn/{edition}/{step}`` | the verdict on ``{"answer": action}`` or ``{"tile"}`` |

A verdict is ``{"correct", "points", "bonuses", "reasons", "after"}``: ``reasons`` the
keys and values of why the move misses the goal (:data:`triominos.learn.REASONS`),
``after`` the position once a correct move is played (its board, the totals, the hand's
end and who went out), from which the page writes what the move did. The lessons are
the engine's own positions; nothing is stored.

Errors are PROTOCOL.md's ``{"error": {"code", "message", "field"}}``: ``not_found`` (no
such lesson or step), ``bad_answer`` (an answer that is no move of the step).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from triominos.game import Hand, action_json, observe
from triominos.learn import LESSONS, LearnError, Lesson, Step, Verdict, check, lesson
from triominos.server.pad_api import json_body
from triominos.server.protocol import ApiError, answers
from triominos.server.routes import page
from triominos.server.views import (
    ActionFieldError,
    JsonObject,
    ViewCache,
    parse_action,
    position_json,
)

answering = answers({})


def seat_json(hand: Hand) -> JsonObject:
    """The position as the seat to move (the learner) sees it: never another's rack."""
    observation = observe(hand, hand.to_move)
    return {**position_json(observation), "bank": observation.bank}


def step_json(edition: Lesson, number: int, step: Step) -> JsonObject:
    return {
        "edition": edition.edition,
        "step": number,
        "steps": len(edition.steps),
        "key": step.key,
        "points": step.points,
        **seat_json(step.hand()),
    }


def verdict_json(verdict: Verdict) -> JsonObject:
    played = verdict.played
    body: JsonObject = {
        "correct": verdict.correct,
        "action": None if played is None else action_json(played.action),
        "points": None if played is None else played.points,
        "bonuses": {} if played is None else dict(played.bonuses),
        "reasons": [reason.to_json() for reason in verdict.reasons],
        "after": None,
    }
    hand, event = verdict.hand, verdict.event
    if hand is not None and event is not None:
        observation = observe(hand, event.player)
        body["after"] = {
            "event": event.seen_by(event.player).to_record(),
            "board": ViewCache().board(observation),
            "totals": list(observation.totals),
            "bank": observation.bank,
            "end": None if hand.end is None else hand.end.to_record(),
            "out": list(hand.out),
        }
    return body


def _found(request: Request) -> tuple[Lesson, int, Step]:
    try:
        found = lesson(request.path_params["edition"])
        number = int(request.path_params["step"])
        return found, number, found.step(number)
    except (LearnError, ValueError) as error:
        raise ApiError(404, "not_found", str(error)) from None


async def lessons(request: Request) -> Response:
    return JSONResponse(
        {"lessons": [{"edition": name, "steps": len(each.steps)} for name, each in LESSONS.items()]}
    )


async def show_step(request: Request) -> Response:
    return JSONResponse(step_json(*_found(request)))


async def answer_step(request: Request) -> Response:
    _, _, step = _found(request)
    body = await json_body(request)
    hand = step.hand()
    try:
        if "tile" in body:
            name = body["tile"]
            tile = next((each for each in hand.rack(hand.to_move) if each.name == name), None)
            if tile is None:
                raise LearnError(f"{name!r} is not a tile of the rack")
            verdict = check(step, None, tile)
        else:
            value = body.get("answer")
            if not isinstance(value, dict):
                raise ApiError(
                    400, "bad_request", "an answer is one of the step's legal actions", "answer"
                )
            action = parse_action(value, hand.rules, hand.board.copy())
            verdict = check(step, action)
    except ActionFieldError as error:
        raise ApiError(400, "bad_answer", str(error), f"answer.{error.field}") from None
    except LearnError as error:
        raise ApiError(400, "bad_answer", str(error), "answer") from None
    return JSONResponse(verdict_json(verdict))


def learn_routes() -> list[BaseRoute]:
    """The lessons' API and the page's addresses (``/learn``, ``/learn/{edition}``)."""
    return [
        Route("/api/learn", answering(lessons)),
        Route("/api/learn/{edition}/{step}", answering(show_step)),
        Route("/api/learn/{edition}/{step}", answering(answer_step), methods=["POST"]),
        Route("/learn", page("index.html")),
        Route("/learn/{edition}", page("index.html")),
    ]
