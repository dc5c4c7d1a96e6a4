"""The levels a player may give a bot seat, declared once: the engine's list of offered
bots (:data:`triominos.bots.base.LEVELS`) and the web app's (``GET /api/bots``, which
``static/bots.js`` reads) both come from :data:`OFFERED`.

A level is a bot, how long it thinks and its Elo on the ladder of README's "Bot levels"
(``random`` at 0), each at least 150 above the one before, so that a family can tell
the levels apart; the page says a level's strength in words from those gaps.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A level as people know it (``id``: its texts' key, "Easy") and the bot it seats.

    ``think`` is the bot's seconds a move on the clock, None for a bot that does not
    search or one that thinks ``simulations`` a move. A budget in simulations gives a
    level the same strength (and, for one seed, the same moves) on every machine and
    either core, and costs a node a fixed CPU a move, which the native core makes small
    (docs/strength.md). A table made when a level thought for a time keeps thinking so;
    its seat shows as the level of the same bot with the nearest thinking time
    (``levelOf`` in ``static/bots.js``).
    """

    id: str
    bot: str
    think: float | None
    elo: int
    simulations: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "bot": self.bot,
            "think": self.think,
            "elo": self.elo,
            "simulations": self.simulations,
        }


OFFERED = (
    Level("random", "random", None, 0),
    Level("greedy", "greedy", None, 248),
    Level("expert", "expert", None, 472),
    Level("sim", "sim", None, 880, simulations=12_000),
)
"""The levels, weakest first."""

SIMULATIONS = {level.bot: level.simulations for level in OFFERED if level.simulations}
"""A bot seat's simulations a move when it has no ``think`` time: its level's."""

DEFAULT_LEVEL = "greedy"
"""The level a new bot seat gets unless the player picks another."""


def levels_json() -> dict[str, object]:
    """The levels as ``GET /api/bots`` answers them."""
    return {"levels": [level.to_json() for level in OFFERED], "default": DEFAULT_LEVEL}
