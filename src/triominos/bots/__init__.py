"""Bots: each sees one seat's observation, never the full state, and returns an action."""

from triominos.bots.base import BOT_NAMES, Bot, Budget, GreedyBot, RandomBot, make_bot

__all__ = ["BOTS", "Bot", "Budget", "GreedyBot", "RandomBot", "make_bot"]

BOTS = BOT_NAMES
