"""How far and how unevenly the totals move in a hand, and how well the bots' chance to
win a match from its totals (:func:`triominos.bots.outcome.win_chances`) fits.

    python benchmarks/hands.py --players 2,3,4,5 --matches 30 --seed 20000

Plays classic matches to 400 between experts, ``--matches`` for each table size, and
prints for each size, one figure a line:

- ``N players, mean points a hand: M`` and ``N players, sd of points a hand: S`` — a
  seat's points in a hand, settlement included (the figures of
  :data:`~triominos.bots.outcome.HAND_POINTS`);
- ``N players, win chance error: E`` — the root mean square difference between
  ``win_chances`` and a Monte Carlo estimate of the chance to win (the hands played,
  dealt again at random to the seats until a total reaches the target), over
  ``--positions`` random totals.

Figures are counts over seeded matches, not times: the same seed gives the same figures.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from triominos.bots import make_bot
from triominos.bots.outcome import win_chances
from triominos.cli.selfplay import play_out
from triominos.game import Match
from triominos.rules import PRESETS, Rules

TARGET = 400


def played_hands(rules: Rules, players: int, matches: int, seed: int) -> list[tuple[int, ...]]:
    """Each hand's points by seat, over ``matches`` expert matches."""
    hands = []
    for number in range(matches):
        match = Match(rules, players, seed + number)
        play_out(match, [make_bot("expert", seat) for seat in range(players)])
        hands += [tuple(hand.points) for hand in match.hands]
    return hands


def monte_carlo(
    totals: list[int], hands: list[tuple[int, ...]], trials: int, rng: random.Random
) -> list[float]:
    """Each seat's share of the matches won from ``totals``, the hands dealt again at random."""
    won = [0.0] * len(totals)
    for _ in range(trials):
        running = totals[:]
        while max(running) < TARGET:
            points = list(rng.choice(hands))
            rng.shuffle(points)
            running = [total + gained for total, gained in zip(running, points, strict=True)]
        best = max(running)
        leaders = [seat for seat, total in enumerate(running) if total == best]
        for seat in leaders:
            won[seat] += 1 / len(leaders)
    return [count / trials for count in won]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4,5", help="table sizes, comma-separated")
    parser.add_argument("--matches", type=int, default=30, help="expert matches a table size")
    parser.add_argument("--positions", type=int, default=40, help="totals to check")
    parser.add_argument("--trials", type=int, default=1000, help="Monte Carlo matches each")
    parser.add_argument("--seed", type=int, default=20000)
    options = parser.parse_args()
    rules = PRESETS["classic-house"].rules.replace(target_score=TARGET)
    for players in map(int, options.players.split(",")):
        hands = played_hands(rules, players, options.matches, options.seed)
        points = [seat_points for hand in hands for seat_points in hand]
        print(f"{players} players, mean points a hand: {statistics.fmean(points):.1f}")
        print(f"{players} players, sd of points a hand: {statistics.pstdev(points):.1f}")
        rng = random.Random(options.seed)
        squares = []
        for _ in range(options.positions):
            lead = rng.randrange(TARGET)
            totals = [max(0, lead - rng.randrange(250)) for _ in range(players - 1)] + [lead]
            rng.shuffle(totals)
            estimated = monte_carlo(totals, hands, options.trials, rng)
            approximated = win_chances(rules, totals, 1)
            squares += [(a - b) ** 2 for a, b in zip(approximated, estimated, strict=True)]
        print(f"{players} players, win chance error: {math.sqrt(statistics.fmean(squares)):.3f}")


if __name__ == "__main__":
    main()
