"""Events and hand endings in words, for the terminal and the logs."""

from __future__ import annotations

from collections.abc import Sequence

from triominos.board import Placement
from triominos.game import Event, HandEnd
from triominos.notation import placement_to_text


def bonus_words(bonuses: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {points:+d}" for name, points in bonuses)


def describe_event(event: Event, names: Sequence[str]) -> str:
    """One line saying what a player did and what it scored."""
    who = names[event.player]
    if (
        event.action == "place"
        and event.tile is not None
        and event.cell is not None
        and event.corners is not None
    ):
        where = placement_to_text(Placement(event.tile, event.cell, event.corners))
        line = f"{who} places {event.tile} as {where}: {event.points:+d}"
        return f"{line} ({bonus_words(event.bonuses)})" if event.bonuses else line
    if event.action == "draw":
        tile = f" ({event.tile})" if event.tile is not None else ""
        return f"{who} draws a tile{tile}: {event.points:+d}"
    if event.action == "pass":
        return f"{who} passes: {event.points:+d}"
    if event.action == "starter_draw":
        return f"{who} draws {event.tile} to decide who starts"
    return f"{who}: {event.action}"


def describe_end(end: HandEnd, names: Sequence[str]) -> str:
    """The hand's ending and its settlement in one line."""
    if end.reason == "out" and end.player is not None:
        opening = f"{names[end.player]} goes out"
    else:
        opening = "the hand is blocked"
    changes = ", ".join(
        f"{names[seat]} {change:+d}" for seat, change in enumerate(end.settlement) if change
    )
    return f"{opening}; settlement: {changes or 'nothing'}"
