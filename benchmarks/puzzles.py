"""How much a puzzle's margin moves between two confirmations from different seeds: the
noise the puzzles' margin (triominos.puzzles.MARGIN) must stand well above.

Prints, each on its own line:

- ``margin difference between seeds, median: N`` — for a sample of the shipped puzzles,
  the margin (the solution's expected value less the obvious move's) valued twice at the
  confirming budget, from two seeds: the median of the absolute differences;
- ``margin difference between seeds, 90th percentile: N``;
- ``solution still best at both seeds: P%``.

A position with an empty pool and two players hides nothing: every world is the same,
and its difference is 0 (they are counted as they come in the sample).
"""

from __future__ import annotations

import argparse
import random
import statistics

from triominos.bots import Budget
from triominos.bots.evaluate import evaluate
from triominos.puzzles import CONFIRM, SIMULATIONS, Puzzle, shipped


def margin(puzzle: Puzzle, simulations: int, seed: int) -> tuple[float, bool]:
    """The solution's margin over the obvious move, and whether it came out best."""
    values = evaluate(puzzle.observation, Budget(simulations=simulations), seed=seed)
    by_action = {value.action: value.expected for value in values}
    best = values[0].action == puzzle.solution
    return by_action[puzzle.solution] - by_action[puzzle.obvious], best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=30, help="shipped puzzles to sample")
    parser.add_argument("--sims", type=int, default=SIMULATIONS * CONFIRM, help="budget")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sample = random.Random(args.seed).sample(shipped().puzzles, args.puzzles)
    differences, both = [], 0
    for puzzle in sample:
        first, best_first = margin(puzzle, args.sims, 1000 + args.seed)
        second, best_second = margin(puzzle, args.sims, 2000 + args.seed)
        differences.append(abs(first - second))
        both += best_first and best_second
    deciles = statistics.quantiles(differences, n=10) if len(differences) > 1 else differences
    print(f"margin difference between seeds, median: {statistics.median(differences):.2f}")
    print(f"margin difference between seeds, 90th percentile: {deciles[-1]:.2f}")
    print(f"solution still best at both seeds: {100 * both / len(sample):.1f}%")


if __name__ == "__main__":
    main()
