"""How fast the sim bot thinks, as medians of several runs.

Prints, each on its own line:

- ``sim simulations/s: N`` — simulations (one candidate played out in one sampled
  world) per second of the bot's whole move, with its default horizon (to the seat's
  next turn): sampling worlds, the static ranking and the playouts all count;
- ``sim simulations/s (hand horizon): N`` — the same with playouts to the end of the
  hand;
- ``sim moves/s (600 simulations): N`` — whole moves at the default budget.

The positions are taken from the middle of 2-player classic hands played by greedy.
The machines are shared and noisy: the median of several timed runs is what counts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator

from triominos.bots import Budget, GreedyBot
from triominos.bots.sim import DEFAULT_BUDGET, Horizon, SimBot
from triominos.game import Match, Observation
from triominos.rules import PRESETS


def positions(count: int, seed: int) -> Iterator[Observation]:
    """Positions where the seat to move has several placements; each used before the next."""
    rng = random.Random(seed)
    bot = GreedyBot()
    found = 0
    while found < count:
        match = Match(PRESETS["classic-house"].rules, 2, rng.randrange(2**32))
        stop = rng.randrange(6, 30)
        while not match.is_over and len(match.hand.board) < stop:
            match.apply(bot.act(match.observe(match.to_move)))
        observation = match.observe(match.to_move)
        if observation.phase == "play" and len(observation.legal_actions()) > 2:
            found += 1
            yield observation


def simulations_per_second(
    horizon: Horizon, budget: Budget, moves: int, seed: int
) -> tuple[float, float]:
    """(simulations/s, moves/s) of SimBot over ``moves`` positions."""
    bot = SimBot(seed, budget, horizon=horizon)
    simulations = 0
    elapsed = 0.0
    for observation in positions(moves, seed):
        options = observation.legal_actions()
        start = time.perf_counter()
        simulation = bot.simulation(observation, options)
        assert simulation is not None
        values = bot.simulate(simulation, simulation.evaluator.ranked(options))
        elapsed += time.perf_counter() - start
        simulations += sum(value.simulations for value in values)
    return simulations / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure")
    parser.add_argument("--moves", type=int, default=20, help="moves in a run")
    parser.add_argument("--simulations", type=int, default=DEFAULT_BUDGET.simulations)
    args = parser.parse_args()
    budget = Budget(simulations=args.simulations)
    turn = [simulations_per_second("turn", budget, args.moves, run) for run in range(args.runs)]
    hand = [simulations_per_second("hand", budget, args.moves, run) for run in range(args.runs)]
    print(f"sim simulations/s: {statistics.median(rate for rate, _ in turn):.0f}")
    print(f"sim simulations/s (hand horizon): {statistics.median(rate for rate, _ in hand):.0f}")
    moves = statistics.median(rate for _, rate in turn)
    print(f"sim moves/s ({args.simulations} simulations): {moves:.1f}")


if __name__ == "__main__":
    main()
