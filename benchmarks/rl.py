"""Random hands per second, through the library and through each adapter (``triominos.rl``).

Every line is the median of ``--runs`` runs of about ``--seconds`` each: complete
2-player classic hands, dealing included, every action chosen uniformly among the legal
ones. Through the library: ``Hand.legal_actions`` and ``Hand.apply``. Through OpenSpiel:
a ``triominos`` state, its chance nodes sampled, its legal ids. Through PettingZoo: the
wrapped AEC environment, an id drawn from each observation's mask. Through Gymnasium: one
seat drawing from ``info["action_mask"]``, against the ``random`` bot. One process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import triominos.rl.openspiel  # noqa: F401  (registers the game)
from triominos.game import Deal, Hand
from triominos.rl.gymnasium import TriominosEnv
from triominos.rl.pettingzoo import env
from triominos.rules import PRESETS

RULES = PRESETS["classic-house"].rules


def library(rng: random.Random) -> None:
    hand = Hand(RULES, Deal.shuffle(RULES, 2, rng), rng=rng)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()).action)


def openspiel(game: object, rng: random.Random) -> None:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def pettingzoo(environment: object, rng: random.Random) -> None:
    environment.reset(seed=rng.randrange(2**32))  # type: ignore[attr-defined]
    for _ in environment.agent_iter():  # type: ignore[attr-defined]
        observation, _, terminated, truncated, _ = environment.last()  # type: ignore[attr-defined]
        if terminated or truncated:
            environment.step(None)  # type: ignore[attr-defined]
        else:
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]


def gymnasium(environment: TriominosEnv, rng: random.Random) -> None:
    _, info = environment.reset(seed=rng.randrange(2**32))
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, _, done, _, info = environment.step(int(legal[rng.randrange(len(legal))]))


def hands_per_second(play: Callable[[], None], runs: int, seconds: float) -> float:
    rates = []
    for _ in range(runs):
        hands, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            play()
            hands += 1
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    rng = random.Random(1)
    game = pyspiel.load_game("triominos", {"preset": "classic-house", "players": 2})
    aec, single = env(preset="classic-house", players=2), TriominosEnv("classic-house", ["random"])
    ways: dict[str, Callable[[], None]] = {
        "library": lambda: library(rng),
        "OpenSpiel": lambda: openspiel(game, rng),
        "PettingZoo": lambda: pettingzoo(aec, rng),
        "Gymnasium": lambda: gymnasium(single, rng),
    }
    for name, play in ways.items():
        play()  # untimed: tables and caches filled
        rate = hands_per_second(play, args.runs, args.seconds)
        print(f"random hands/s through {name}: {rate:.1f}", flush=True)


if __name__ == "__main__":
    main()
