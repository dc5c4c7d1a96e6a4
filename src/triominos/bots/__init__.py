"""Bots: each sees one seat's observation, never the full state, and returns an action."""

from triominos.bots.base import Bot, GreedyBot, RandomBot, make_bot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]

BOTS = ("random", "greedy")
