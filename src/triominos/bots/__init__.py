"""Bots: each sees one seat's observation, never the full state, and returns an action
(all but the clairvoyant reference, which only the arena seats:
:mod:`triominos.bots.clairvoyant`)."""

from triominos.bots.base import BOT_NAMES, LEVELS, Bot, Budget, GreedyBot, RandomBot, make_bot

__all__ = ["BOTS", "BOT_NAMES", "Bot", "Budget", "GreedyBot", "RandomBot", "make_bot"]

BOTS = LEVELS
"""The bots offered to players; :data:`BOT_NAMES` adds the references for measuring."""
