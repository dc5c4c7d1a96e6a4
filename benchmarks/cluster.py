"""How much faster an arena runs on a Ray cluster of one and of two workers than here.

    python benchmarks/cluster.py --matches 40 --runs 3

Plays the same arena (``triominos arena``'s schedule and seeds) in this process and on
a loopback cluster on this machine (:class:`~triominos.cluster.LoopbackCluster`: a head
with no CPU and one-CPU workers), in turn, ``--runs`` times each, with one worker and
then with two. Prints the median seconds of each and the speed-ups over this process;
every run's results are checked equal to the first local run's. The workers run at
this process's niceness (Ray's own default, 15, would let any other work on the machine
go first and measure that instead). On a machine of two cores shared
with other work, two workers cannot reach twice the speed; a task costs Ray a few
milliseconds, so cheap games (``greedy``) gain less than searching ones.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from triominos.arena import ArenaConfig, GameResult, play_games
from triominos.bots import Budget
from triominos.cluster import LoopbackCluster
from triominos.rules import PRESETS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="rounded up to pairs")
    parser.add_argument("--bots", default="sim,expert")
    parser.add_argument("--sims", type=int, default=50, help="simulations a move of sim")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    config = ArenaConfig(
        PRESETS["classic"].rules,
        tuple(options.bots.split(",")),
        Budget(simulations=options.sims),
        groups=-(-options.matches // 2),
        seed=options.seed,
    )
    expected = figures(list(play_games(config)))

    def seconds(ray: str | None) -> float:
        start = time.perf_counter()
        results = list(play_games(config, ray=ray))
        if figures(results) != expected:
            raise SystemExit("a run's results differ from the local run's")
        return time.perf_counter() - start

    with LoopbackCluster(workers=1, niceness=os.nice(0)) as cluster:
        for workers in (1, 2):
            if workers == 2:
                cluster.add_worker()
            # Here and there in turn: the machine's other work weighs on both alike.
            here, there = [], []
            for _ in range(options.runs):
                here.append(seconds(None))
                there.append(seconds(cluster.address))
            here_s, there_s = statistics.median(here), statistics.median(there)
            print(f"{workers} worker(s), here in one process s: {here_s:.2f}")
            print(f"{workers} worker(s), on the cluster s: {there_s:.2f}")
            print(f"{workers} worker(s), speed-up: {here_s / there_s:.2f}")


def figures(results: list[GameResult]) -> list[tuple[object, ...]]:
    """What a game's result says, less the seconds its seats thought."""
    return [(r.game, r.seating, r.totals, r.winners, r.hands, r.moves) for r in results]


if __name__ == "__main__":
    main()
