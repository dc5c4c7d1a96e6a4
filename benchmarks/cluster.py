"""How much faster an arena runs on a Ray cluster of one and of two workers than here.

    python benchmarks/cluster.py --matches 40 --runs 3

Plays the same arena (``triominos arena``'s schedule and seeds) in this process, then on
a loopback cluster on this machine (:class:`~triominos.cluster.LoopbackCluster`: a head
with no CPU and one-CPU workers) with one worker, then with two. Prints the median
seconds of ``--runs`` runs of each and the speed-ups over this process; every run's
results are checked equal to the first local run's. On a machine of two cores shared
with other work, two workers cannot reach twice the speed; a task costs Ray a few
milliseconds, so cheap games (``greedy``) gain less than searching ones.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

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

    def median_seconds(play: Callable[[], list[GameResult]]) -> float:
        seconds = []
        for _ in range(options.runs):
            start = time.perf_counter()
            results = play()
            seconds.append(time.perf_counter() - start)
            if figures(results) != expected:
                raise SystemExit("a run's results differ from the local run's")
        return statistics.median(seconds)

    here = median_seconds(lambda: list(play_games(config)))
    print(f"here, one process s: {here:.2f}")
    with LoopbackCluster(workers=1) as cluster:
        on_cluster = []
        for workers in (1, 2):
            if workers == 2:
                cluster.add_worker()
            on_cluster.append(median_seconds(lambda: list(play_games(config, ray=cluster.address))))
            print(f"cluster, {workers} worker(s) s: {on_cluster[-1]:.2f}")
    for workers, seconds in enumerate(on_cluster, 1):
        print(f"speed-up, {workers} worker(s): {here / seconds:.2f}")


def figures(results: list[GameResult]) -> list[tuple[object, ...]]:
    """What a game's result says, less the seconds its seats thought."""
    return [(r.game, r.seating, r.totals, r.winners, r.hands, r.moves) for r in results]


if __name__ == "__main__":
    main()
