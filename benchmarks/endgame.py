"""How fast the exact endgame searches, and how many 2-player endgames it solves.

Prints, each on its own line:

- ``endgame nodes/s: N`` — positions visited per second, the median of several runs over
  the same endgames;
- ``endgame solved within N nodes: P% (M of K), median T ms`` — for each node limit, the
  share of the endgames solved within it and the median time of a search (solved or not).

An endgame is the first position of a 2-player classic hand, played by greedy, where
the pool is empty and the seat to move has a choice: where the sim bot first tries the
search. The machines are shared and noisy: the median is what counts.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator

from triominos.bots import GreedyBot
from triominos.bots.endgame import solvable, solve
from triominos.game import Match, Observation
from triominos.rules import PRESETS

HAND = PRESETS["classic-house"].rules.replace(target_score=None, hand_limit=1)
"""One hand, far from any target: the endgame is the points difference alone."""


def endgames(count: int, seed: int) -> Iterator[Observation]:
    """The first empty-pool position with a choice of ``count`` greedy hands that reach one."""
    bot = GreedyBot()
    found, number = 0, seed
    while found < count:
        match = Match(HAND, 2, number)
        number += 1
        while not match.is_over:
            observation = match.observe(match.to_move)
            if solvable(observation) and len(observation.legal_actions()) > 1:
                found += 1
                yield observation
                break
            match.apply(bot.act(observation))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endgames", type=int, default=60, help="endgames to search")
    parser.add_argument("--runs", type=int, default=3, help="timed runs for nodes/s")
    parser.add_argument(
        "--limits", default="250,1000,4000,16000", help="node limits, comma-separated"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    positions = list(endgames(args.endgames, args.seed))
    limits = [int(limit) for limit in args.limits.split(",")]
    rates = []
    for _ in range(args.runs):
        nodes, start = 0, time.perf_counter()
        for observation in positions:
            solution = solve(observation, max(limits))
            nodes += max(limits) if solution is None else solution.nodes
        rates.append(nodes / (time.perf_counter() - start))
    print(f"endgame nodes/s: {statistics.median(rates):.0f}")
    for limit in limits:
        solved, times = 0, []
        for observation in positions:
            start = time.perf_counter()
            solved += solve(observation, limit) is not None
            times.append(time.perf_counter() - start)
        share = 100 * solved / len(positions)
        print(
            f"endgame solved within {limit} nodes: {share:.0f}% ({solved} of {len(positions)}), "
            f"median {1000 * statistics.median(times):.1f} ms"
        )


if __name__ == "__main__":
    main()
