"""Two versions of a bot, each in turn in the same seat of the same matches against the
same others: how a change to a bot moves its share of matches won, paired match by match.

    python benchmarks/paired.py sim "sim(closing=false)" --players 4 --others expert \\
        --groups 100 --seed 700

Each group is one match seed played in every seating (as ``triominos arena`` rotates
it), once with the first version at the seat of the entry under test and once with the
second. The bots are deterministic for a seed and a budget in simulations, so the two
matches of a pair are the same game until the first move on which the versions differ:
the difference of the two shares won (and of the two margins) has far less noise than
two separate arenas would. Bots are specs (:class:`~triominos.bots.spec.BotSpec`);
``--others`` fills the other seats. Prints one figure a line.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from triominos.bots import Budget
from triominos.bots.spec import BotSpec, BotSpecError
from triominos.game import Match
from triominos.rules import PRESETS


def play(
    version: str, others: str, players: int, sims: int, target: int, game: tuple[int, int]
) -> tuple[float, float]:
    """One match, ``version`` at the seat rotation ``game[1]`` gives entry 0, as the
    arena seats it: its share of the win and its margin over the others' mean."""
    seed, rotation = game
    rules = PRESETS["classic"].rules.replace(target_score=target)
    budget = Budget(simulations=sims)
    seating = [(seat - rotation) % players for seat in range(players)]
    bots = [
        BotSpec.from_text(version if entry == 0 else others).make(seed * 8 + seat, budget)
        for seat, entry in enumerate(seating)
    ]
    match = Match(rules, players, seed)
    while not match.is_over:
        to_move = match.to_move
        match.apply(bots[to_move].act(match.observe(to_move)), to_move)
    seat, totals = seating.index(0), match.totals
    share = 1 / len(match.winners) if seat in match.winners else 0.0
    return share, totals[seat] - (sum(totals) - totals[seat]) / (players - 1)


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
    for spec in (options.first, options.second, options.others):
        try:
            BotSpec.from_text(spec)  # a wrong setting stops here, not in a worker
        except BotSpecError as wrong:
            parser.error(str(wrong))
    games = [
        (options.seed + group, rotation)
        for group in range(options.groups)
        for rotation in range(options.players)
    ]
    began = time.perf_counter()
    results = []
    context = multiprocessing.get_context("spawn")
    for version in (options.first, options.second):
        with ProcessPoolExecutor(options.jobs, mp_context=context) as pool:
            played = [
                pool.submit(
                    play,
                    version,
                    options.others,
                    options.players,
                    options.sims,
                    options.target,
                    game,
                )
                for game in games
            ]
            results.append([future.result() for future in played])
    first, second = results
    wins = [share for share, _ in first], [share for share, _ in second]
    differences = [a - b for a, b in zip(*wins, strict=True)]
    margins = [a[1] - b[1] for a, b in zip(first, second, strict=True)]
    count = len(games)
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
