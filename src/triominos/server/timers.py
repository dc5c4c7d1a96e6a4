"""The turn timer: the hourglass of seeds 001 and 004, and the default action it plays.

A table with ``turn_seconds`` gives the player to move that long for the whole turn
(draws included: a draw does not turn the hourglass). When it runs out, the server plays
:func:`default_action` for that seat, as the table's ``timeout_action`` says, again and
again while the turn is still that seat's, through the same path as any action (stored,
then broadcast). The clock runs
from stored times (the action that began the turn, or the moment the table began to
play), so a restarted server gives each turn only the time it had left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from triominos.board import Placement
from triominos.game import Action, Draw, LegalAction, Pass

TimeoutAction = Literal["place", "draw"]
"""What a turn that ran out plays (RULES.md §13): ``place`` lays the tile that scores most
when one fits (the default: nobody is punished for thinking), ``draw`` draws even then
(every table made before issue 17, whose stored actions must replay as they were)."""
TIMEOUT_ACTIONS: tuple[TimeoutAction, ...] = get_args(TimeoutAction)
DEFAULT_TIMEOUT_ACTION: TimeoutAction = "place"

MoveDays = Literal[1, 2, 3, 7]
"""A game over days (RULES.md §13): each move may take this many days instead of a turn
timer's seconds, the clock running on stored times whether or not anyone is connected."""
MOVE_DAYS: tuple[MoveDays, ...] = get_args(MoveDays)
DAY_SECONDS = 86400.0


def turn_length(turn_seconds: float | None, move_days: int | None) -> float | None:
    """How long a turn lasts, in seconds, by a table's clock: its days per move, else its
    turn timer; None without either."""
    return turn_seconds if move_days is None else move_days * DAY_SECONDS


def default_action(legal: Sequence[LegalAction], timeout_action: TimeoutAction) -> Action:
    """With ``place``, the placement that scores most when a tile fits; then (and always
    with ``draw``) draw if a draw is legal, else pass if a pass is legal, else the legal
    action that scores most (the first of equals): an opening or a starter draw, where
    neither is allowed, or a turn whose draws are used up while a tile fits (RULES.md)."""
    if not legal:
        raise ValueError("no legal action: the player to move has nothing to do")
    placements = [option for option in legal if isinstance(option.action, Placement)]
    if timeout_action == "place" and placements:
        return max(placements, key=lambda option: option.points).action
    for kind in (Draw, Pass):
        for option in legal:
            if isinstance(option.action, kind):
                return option.action
    return max(legal, key=lambda option: option.points).action
