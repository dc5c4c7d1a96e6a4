"""Played Junior and children's games for the tests of records, notation, pictures and the
command line: bots that take the joker back whenever they may, so that every action of
Triominos Junior turns up in a few short games."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from triominos.bots import Bot, GreedyBot, RandomBot
from triominos.game import Action, Match, Observation, TakeJoker
from triominos.rules import PRESETS


class JokerTaker:
    """Takes the joker back whenever it may; otherwise plays at random."""

    name = "joker-taker"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        options = [legal.action for legal in observation.legal_actions()]
        takes = [action for action in options if isinstance(action, TakeJoker)]
        return self._rng.choice(takes or options)


def table_bots(players: int, seed: int) -> list[Bot]:
    """A joker taker, a greedy bot and random bots taking turns at the seats."""
    kinds: list[Callable[[int], Bot]] = [JokerTaker, lambda _: GreedyBot(), RandomBot]
    return [kinds[seat % 3](seed * 8 + seat) for seat in range(players)]


def played(preset: str, players: int, seed: int, actions: int | None = None) -> Match:
    """A match of a preset played by :func:`table_bots` to its end, or for ``actions``."""
    return play_by(Match(PRESETS[preset].rules, players, seed), table_bots(players, seed), actions)


def play_by(match: Match, bots: Sequence[Bot], actions: int | None = None) -> Match:
    """``match`` played on by ``bots`` (one a seat) to its end, or for ``actions`` actions."""
    done = 0
    while not match.is_over and (actions is None or done < actions):
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
        done += 1
    return match


def positions(preset: str, players: int, seed: int) -> Iterator[Match]:
    """The match after each of its actions (the same live match each time)."""
    match = Match(PRESETS[preset].rules, players, seed)
    bots = table_bots(players, seed)
    while not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
        yield match


def first_position(predicate: Callable[[Match], bool], players: int = 2) -> Match:
    """The live match at the first Junior position, over seeds 0, 1, …, that fits."""
    for seed in range(200):
        for match in positions("junior", players, seed):
            if predicate(match):
                return match
    raise AssertionError("no Junior game reaches such a position")


def can_take_joker(match: Match) -> bool:
    return not match.is_over and any(
        isinstance(legal.action, TakeJoker) for legal in match.legal_actions()
    )
