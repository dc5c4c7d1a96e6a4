"""Two versions of a bot, each in turn in the same seat of the same matches against the
same others: how a change to a bot moves its share of matches won, paired match by match.

    python benchmarks/paired.py sim "sim(closing=none)" --players 4 --others expert \\
        --groups 100 --seed 700

Each group is one match seed played in every seating, by the arena's own schedule
(:func:`triominos.arena.play_games`), once with the first version in the entry under
test and once with the second. The bots are deterministic for a seed and a budget in
simulations, so the two matches of a pair are the same game until the first move on
which the versions differ: the difference of the two shares won (and of the two
margins) has far less noise than two separate arenas would. Bots are specs
(:class:`~triominos.bots.spec.BotSpec`); ``--others`` fills the other seats. Prints
one figure a line.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from triominos.arena import ArenaConfig, play_games
from triominos.bots import Budget
from triominos.bots.spec import BotSpecError
from triominos.rules import PRESETS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--others", default="expert", help="the bot of every other seat")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--sims", type=int, default=600, help="simulations a move")
    parser.add_argument("--target", type=int, default=400, help="the match's target score")
    parser.add_argument("--groups", type=int, default=50, help="match seeds, each in every seating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    rules = PRESETS["classic"].rules.replace(target_score=options.target)
    others = (options.others,) * (options.players - 1)
    budget = Budget(simulations=options.sims)
    try:  # the arena's schedule and seeding: the same matches for either version
        configs = [
            ArenaConfig(rules, (version, *others), budget, options.groups, options.seed)
            for version in (options.first, options.second)
        ]
    except BotSpecError as wrong:
        parser.error(str(wrong))
    began = time.perf_counter()
    results = [  # each version in a pool of its own
        [(game.win_share(0), game.margin(0)) for game in play_games(config, jobs=options.jobs)]
        for config in configs
    ]
    first, second = results
    wins = [share for share, _ in first], [share for share, _ in second]
    differences = [a - b for a, b in zip(*wins, strict=True)]
    margins = [a[1] - b[1] for a, b in zip(first, second, strict=True)]
    count = len(first)
    print(f"{options.first} matches won %: {100 * statistics.fmean(wins[0]):.1f}")
    print(f"{options.second} matches won %: {100 * statistics.fmean(wins[1]):.1f}")
    print(
        f"paired difference, points of %: {100 * statistics.fmean(differences):+.1f} "
        f"± {100 * statistics.stdev(differences) / math.sqrt(count):.1f} "
        f"({count} pairs of matches against {options.others}, {options.players} players, "
        f"{options.sims} simulations a move, seeds from {options.seed})"
    )
    print(
        f"paired margin difference, points: {statistics.fmean(margins):+.1f} "
        f"± {statistics.stdev(margins) / math.sqrt(count):.1f}"
    )
    print(f"pairs played the same to the end: {sum(1 for margin in margins if margin == 0)}")
    print(f"seconds: {time.perf_counter() - began:.0f}")


if __name__ == "__main__":
    main()
