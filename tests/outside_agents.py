"""Agents from outside the project, as a researcher would write them: seated by the
measuring commands as ``outside_agents:FACTORY`` (tests/test_outside_agents.py)."""

from __future__ import annotations

import random

from triominos.game import Action, Draw, Observation


class FirstChoice:
    """Plays the legal action its generator picks: a stand-in for a learned policy."""

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal_actions()).action


def make(seed: int | None = None) -> FirstChoice:
    return FirstChoice(seed)


class AlwaysDraws:
    def act(self, observation: Observation) -> Action:
        return Draw()


def draws(seed: int | None = None) -> AlwaysDraws:
    return AlwaysDraws()


def nothing(seed: int | None = None) -> object:
    return object()
